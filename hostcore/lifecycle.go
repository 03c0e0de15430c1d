package hostcore

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/pack"
)

// A threengram memory's body never goes stale (revising creates a new id),
// but its lifecycle does: archived, superseded, a commitment done. That
// state is never read from the cache: it is a live tool call
// (get_memories), whose results the protocol never makes cacheable.

// Lifecycle is a memory's live state.
type Lifecycle struct {
	ID               string `json:"id"`
	Status           string `json:"status"`
	ValidTo          string `json:"validTo,omitempty"`
	CommitmentStatus string `json:"commitmentStatus,omitempty"`
	SupersededBy     string `json:"supersededBy,omitempty"`
	// NotFound is set when the server does not know the id (or it is
	// another tenant's).
	NotFound bool `json:"notFound,omitempty"`
}

// Current reports whether the memory is neither archived, superseded nor
// missing.
func (l Lifecycle) Current() bool {
	return !l.NotFound && l.SupersededBy == "" && (l.Status == "" || l.Status == "active")
}

// Label says the state in a few words: "archived", "superseded by
// m1abc", "not found"; "" for a current memory.
func (l Lifecycle) Label() string {
	switch {
	case l.NotFound:
		return "not found"
	case l.SupersededBy != "":
		return "superseded by " + pack.OneLine(l.SupersededBy)
	case l.Current():
		return ""
	}
	return pack.OneLine(l.Status)
}

// lifecycleBatch is how many ids one get_memories call asks about
// (threengram takes at most 50).
const lifecycleBatch = 50

// MemoryLifecycle asks the server's get_memories tool for the live state of
// memory ids, by id, in calls of at most 50 ids. It returns an error of
// kind invalid input when the server has no such tool.
func (c *Conn) MemoryLifecycle(ctx context.Context, ids []string) (map[string]Lifecycle, error) {
	states := map[string]Lifecycle{}
	for start := 0; start < len(ids); start += lifecycleBatch {
		if err := c.lifecycleOf(ctx, ids[start:min(start+lifecycleBatch, len(ids))], states); err != nil {
			return states, err
		}
	}
	return states, nil
}

// lifecycleOf asks about one batch of ids, into states.
func (c *Conn) lifecycleOf(ctx context.Context, ids []string, states map[string]Lifecycle) error {
	res, err := c.hostCallTool(ctx, "memory lifecycle", "get_memories", map[string]any{"ids": ids})
	if err != nil {
		return err
	}
	if res.IsError {
		return newError(fault.KindInvalidParams, nil, "%s: get_memories failed: %s", c.Server.Name, clip(strings.ReplaceAll(res.Text, "\n", " ")))
	}
	raw := []byte(res.Structured)
	if len(raw) == 0 {
		raw = []byte("null")
	}
	var out struct {
		Memories []Lifecycle `json:"memories"`
		NotFound []string    `json:"notFound"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return protocolError("", "%s: get_memories answered in an unexpected shape", c.Server.Name)
	}
	for _, m := range out.Memories {
		states[m.ID] = m
	}
	for _, id := range out.NotFound {
		states[id] = Lifecycle{ID: id, NotFound: true}
	}
	return nil
}

// MemoryID returns the id of a threengram memory URI, or "".
func MemoryID(uri string) string {
	id, ok := strings.CutPrefix(uri, "threengram://memory/")
	if !ok || strings.ContainsAny(id, "/?#%") {
		return ""
	}
	return id
}
