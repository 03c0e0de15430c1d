package threengram

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// CorpusMemory is one entry of a corpus file (see assets/corpus.json and
// the generator that writes it, assets/corpusgen).
type CorpusMemory struct {
	ID               string   `json:"id"`
	Tenant           string   `json:"tenant"`
	Content          string   `json:"content"`
	Topic            string   `json:"topic"`
	Tags             []string `json:"tags"`
	MemoryType       string   `json:"memoryType"`
	Scope            string   `json:"scope"`
	Project          string   `json:"project"`
	RecordedAt       string   `json:"recordedAt"`
	Status           string   `json:"status"`
	ValidTo          string   `json:"validTo,omitempty"`
	CommitmentStatus string   `json:"commitmentStatus,omitempty"`
	SupersededBy     string   `json:"supersededBy,omitempty"`
}

// Seed loads a corpus (a JSON array of memories) into an empty store, in one
// transaction. On a store that already holds memories it does nothing and
// returns 0, so that it can run on every start ("loaded on first run").
//
// Several processes may start on a new file at once (the first runs of the
// demo, one per account): the emptiness check runs inside the transaction,
// which the DSN's _txlock=immediate begins with BEGIN IMMEDIATE, so one
// process loads the corpus while the others wait on the write lock (the
// busy timeout) and then find it loaded.
func (s *Store) Seed(ctx context.Context, corpus []byte) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("seeding: %w", err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM memories`).Scan(&n); err != nil {
		return 0, err
	}
	if n > 0 {
		return 0, nil
	}
	var entries []CorpusMemory
	if err := json.Unmarshal(corpus, &entries); err != nil {
		return 0, fmt.Errorf("parsing corpus: %w", err)
	}
	// Successors come after their predecessors in the file; defer the
	// superseded_by links until every row exists.
	if _, err := tx.ExecContext(ctx, `PRAGMA defer_foreign_keys = ON`); err != nil {
		return 0, err
	}
	for _, e := range entries {
		m, err := e.memory()
		if err != nil {
			return 0, err
		}
		if err := insert(ctx, tx, m); err != nil {
			return 0, err
		}
	}
	return len(entries), tx.Commit()
}

func (e CorpusMemory) memory() (Memory, error) {
	m := Memory{
		ID: e.ID, Tenant: e.Tenant, Content: e.Content, Topic: e.Topic, Tags: e.Tags,
		MemoryType: e.MemoryType, Scope: e.Scope, Project: e.Project, Status: e.Status,
		CommitmentStatus: e.CommitmentStatus, SupersededBy: e.SupersededBy,
	}
	var err error
	if m.RecordedAt, err = time.Parse(time.RFC3339, e.RecordedAt); err != nil {
		return Memory{}, fmt.Errorf("corpus memory %s: recordedAt: %w", e.ID, err)
	}
	if e.ValidTo != "" {
		if m.ValidTo, err = time.Parse(time.RFC3339, e.ValidTo); err != nil {
			return Memory{}, fmt.Errorf("corpus memory %s: validTo: %w", e.ID, err)
		}
	}
	if m.Tags == nil {
		m.Tags = []string{}
	}
	if m.Status == "" {
		m.Status = "active"
	}
	return m, nil
}
