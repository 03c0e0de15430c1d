// Package threengram is the reference threengram memory server: a faithful
// implementation of the design in shared/seeds/000 that Attaché's demo, tests
// and first-run experience run against.
//
// A memory is append-only. Its substance (content, topic, tags, type, scope,
// project, recordedAt) is never edited by an ordinary write; revising one
// closes the predecessor's validTo and inserts a successor with a new id.
// That is what makes the resource threengram://memory/{id} safe to cache for
// a day: the body carries only immutable fields, and lifecycle state (status,
// validTo, commitmentStatus, tags) is answered live by tools.
//
// The one exception is erasure, which overwrites a tenant's memories with
// "[erased]" and revokes every token and OAuth grant of that tenant in the
// same transaction, so that a host honouring cacheScope "private" cannot
// serve the old bodies to a caller whose credentials no longer authenticate.
//
// This package imports no host package: it is a server, and tests the host
// the way a real server would.
package threengram

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3" // the SQLite driver, and its error codes

	"github.com/attache/attache/internal/sqlitefile"
)

// ErrNotFound is returned for a memory that does not exist or that belongs to
// another tenant; the two are deliberately indistinguishable.
var ErrNotFound = errors.New("memory not found")

// ErrInvalidToken is returned for a token that is unknown or revoked.
var ErrInvalidToken = errors.New("invalid token")

// Memory is one row of the memories table.
type Memory struct {
	ID               string    `json:"id"`
	Tenant           string    `json:"tenant"`
	Content          string    `json:"content"`
	Topic            string    `json:"topic"`
	Tags             []string  `json:"tags"`
	MemoryType       string    `json:"memoryType"`
	Scope            string    `json:"scope"`
	Project          string    `json:"project"`
	RecordedAt       time.Time `json:"recordedAt"`
	Status           string    `json:"status"`
	ValidTo          time.Time `json:"validTo,omitzero"`
	CommitmentStatus string    `json:"commitmentStatus,omitempty"`
	SupersededBy     string    `json:"supersededBy,omitempty"`
}

// Store is the server's SQLite database. It is safe for concurrent use.
type Store struct {
	db  *sql.DB
	now func() time.Time
}

// StoreOptions configures OpenStore. The zero value is usable.
type StoreOptions struct {
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// OpenStore opens (creating if needed) the database at path. The DSN turns on
// WAL and a busy timeout so that the stdio server, the HTTP server and the
// erase command can share one file.
func OpenStore(path string, opts *StoreOptions) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("creating the directory of %s: %w", path, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	dsn := sqlitefile.URI(abs, "_journal_mode=WAL&_busy_timeout=5000&_foreign_keys=on&_txlock=immediate")
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	if err := createSchema(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("creating schema in %s: %w", path, err)
	}
	s := &Store{db: db, now: time.Now}
	if opts != nil && opts.Now != nil {
		s.now = opts.Now
	}
	return s, nil
}

// schemaBusyWait bounds how long createSchema retries a busy database.
const schemaBusyWait = 5 * time.Second

// createSchema brings the schema up to date (see migrations). First opens
// of a new file race (the demo's first run starts a server per account), in
// two ways SQLite answers "database is locked" at once, without waiting out
// the busy timeout: two connections turning the new file to WAL each hold a
// shared lock and want an exclusive one, and a CREATE outside a write
// transaction can find its snapshot stale. So the migration runs in a
// transaction that _txlock=immediate begins with BEGIN IMMEDIATE, retried
// while busy for up to schemaBusyWait.
func createSchema(db *sql.DB) error {
	deadline := time.Now().Add(schemaBusyWait)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		err := createSchemaOnce(db)
		var se sqlite3.Error
		if !errors.As(err, &se) || se.Code != sqlite3.ErrBusy || time.Now().After(deadline) {
			return err
		}
		time.Sleep(wait)
	}
}

func createSchemaOnce(db *sql.DB) error {
	return sqlitefile.Migrate(context.Background(), db, migrations)
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

const memoryColumns = `id, tenant, content, topic, tags, memory_type, scope, project, recorded_at,
	status, COALESCE(valid_to, ''), COALESCE(commitment_status, ''), COALESCE(superseded_by, '')`

type scanner interface{ Scan(...any) error }

func scanMemory(row scanner) (Memory, error) {
	var m Memory
	var tags, recorded, validTo string
	err := row.Scan(&m.ID, &m.Tenant, &m.Content, &m.Topic, &tags, &m.MemoryType, &m.Scope,
		&m.Project, &recorded, &m.Status, &validTo, &m.CommitmentStatus, &m.SupersededBy)
	if err != nil {
		return Memory{}, err
	}
	if err := json.Unmarshal([]byte(tags), &m.Tags); err != nil {
		return Memory{}, fmt.Errorf("memory %s: tags: %w", m.ID, err)
	}
	if m.RecordedAt, err = time.Parse(time.RFC3339Nano, recorded); err != nil {
		return Memory{}, fmt.Errorf("memory %s: recorded_at: %w", m.ID, err)
	}
	if validTo != "" {
		if m.ValidTo, err = time.Parse(time.RFC3339Nano, validTo); err != nil {
			return Memory{}, fmt.Errorf("memory %s: valid_to: %w", m.ID, err)
		}
	}
	return m, nil
}

// Get returns the tenant's memory id. A memory owned by another tenant is
// ErrNotFound, exactly like a missing one.
func (s *Store) Get(ctx context.Context, tenant, id string) (Memory, error) {
	row := s.db.QueryRowContext(ctx, `SELECT `+memoryColumns+` FROM memories WHERE tenant = ? AND id = ?`, tenant, id)
	m, err := scanMemory(row)
	if errors.Is(err, sql.ErrNoRows) {
		return Memory{}, ErrNotFound
	}
	return m, err
}

// IDsWithPrefix returns up to limit of the tenant's own memory ids that start
// with prefix, in order, and whether there were more.
func (s *Store) IDsWithPrefix(ctx context.Context, tenant, prefix string, limit int) (ids []string, more bool, err error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT id FROM memories WHERE tenant = ? AND substr(id, 1, ?) = ? ORDER BY id LIMIT ?`,
		tenant, len(prefix), prefix, limit+1)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, false, err
		}
		ids = append(ids, id)
	}
	if len(ids) > limit {
		return ids[:limit], true, rows.Err()
	}
	return ids, false, rows.Err()
}

// queryMemories runs a SELECT of memoryColumns with the given tail and args.
func (s *Store) queryMemories(ctx context.Context, tail string, args ...any) ([]Memory, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+memoryColumns+` FROM memories `+tail, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Memory
	for rows.Next() {
		m, err := scanMemory(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Search returns the tenant's memories whose content, topic or tags contain
// query (case-insensitive), newest first, starting at offset, at most limit,
// and the offset of the next page (0 when there is none).
func (s *Store) Search(ctx context.Context, tenant, query string, offset, limit int) ([]Memory, int, error) {
	like := "%" + escapeLike(strings.ToLower(query)) + "%"
	ms, err := s.queryMemories(ctx,
		`WHERE tenant = ? AND (lower(content) LIKE ? ESCAPE '\' OR lower(topic) LIKE ? ESCAPE '\' OR lower(tags) LIKE ? ESCAPE '\')
		 ORDER BY recorded_at DESC, id LIMIT ? OFFSET ?`,
		tenant, like, like, like, limit+1, offset)
	if err != nil {
		return nil, 0, err
	}
	if len(ms) > limit {
		return ms[:limit], offset + limit, nil
	}
	return ms, 0, nil
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Briefing returns the tenant's most recent active memories (at most limit)
// and every open commitment.
func (s *Store) Briefing(ctx context.Context, tenant string, limit int) (recent, open []Memory, err error) {
	recent, err = s.queryMemories(ctx,
		`WHERE tenant = ? AND status = 'active' AND valid_to IS NULL ORDER BY recorded_at DESC, id LIMIT ?`, tenant, limit)
	if err != nil {
		return nil, nil, err
	}
	open, err = s.queryMemories(ctx,
		`WHERE tenant = ? AND commitment_status = 'open' AND status = 'active' AND valid_to IS NULL ORDER BY recorded_at DESC, id`, tenant)
	return recent, open, err
}

// NewMemory is what a caller supplies to Remember.
type NewMemory struct {
	Content          string
	Topic            string
	Tags             []string
	MemoryType       string
	Scope            string
	Project          string
	CommitmentStatus string
}

// Remember inserts a new memory for tenant and returns it.
func (s *Store) Remember(ctx context.Context, tenant string, nm NewMemory) (Memory, error) {
	m := Memory{
		ID: newID(), Tenant: tenant, Content: nm.Content, Topic: nm.Topic, Tags: nm.Tags,
		MemoryType: nm.MemoryType, Scope: nm.Scope, Project: nm.Project,
		RecordedAt: s.now().UTC(), Status: "active", CommitmentStatus: nm.CommitmentStatus,
	}
	if m.Tags == nil {
		m.Tags = []string{}
	}
	if err := insert(ctx, s.db, m); err != nil {
		return Memory{}, err
	}
	return m, nil
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func insert(ctx context.Context, db execer, m Memory) error {
	tags, err := json.Marshal(m.Tags)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `INSERT INTO memories (id, tenant, content, topic, tags, memory_type, scope,
		project, recorded_at, status, valid_to, commitment_status, superseded_by)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		m.ID, m.Tenant, m.Content, m.Topic, string(tags), m.MemoryType, m.Scope, m.Project,
		m.RecordedAt.Format(time.RFC3339Nano), m.Status, nullTime(m.ValidTo),
		nullString(m.CommitmentStatus), nullString(m.SupersededBy))
	if err != nil {
		return fmt.Errorf("inserting memory %s: %w", m.ID, err)
	}
	return nil
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// Revise supersedes the tenant's memory id: in one transaction it closes the
// predecessor's validTo and inserts a successor with a new id and the new
// content. The predecessor's content, topic and tags are never touched; the
// successor inherits topic, tags, type, scope and project.
func (s *Store) Revise(ctx context.Context, tenant, id, content string) (Memory, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Memory{}, err
	}
	defer tx.Rollback()
	old, err := scanMemory(tx.QueryRowContext(ctx,
		`SELECT `+memoryColumns+` FROM memories WHERE tenant = ? AND id = ?`, tenant, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Memory{}, ErrNotFound
	}
	if err != nil {
		return Memory{}, err
	}
	if !old.ValidTo.IsZero() {
		return Memory{}, fmt.Errorf("memory %s was already superseded by %s", id, old.SupersededBy)
	}
	now := s.now().UTC()
	succ := old
	succ.ID, succ.Content, succ.RecordedAt = newID(), content, now
	succ.ValidTo, succ.SupersededBy = time.Time{}, ""
	if err := insert(ctx, tx, succ); err != nil {
		return Memory{}, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE memories SET valid_to = ?, superseded_by = ? WHERE id = ?`,
		now.Format(time.RFC3339Nano), succ.ID, id); err != nil {
		return Memory{}, err
	}
	return succ, tx.Commit()
}

// Archive sets the status of the tenant's memory id to "archived".
func (s *Store) Archive(ctx context.Context, tenant, id string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE memories SET status = 'archived' WHERE tenant = ? AND id = ?`, tenant, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// Erased is what erasure writes over content, topic and tags.
const Erased = "[erased]"

// Erasure counts what Erase touched.
type Erasure struct {
	// Memories overwritten with [erased].
	Memories int64
	// Tokens revoked: bearer tokens of `threengram token`.
	Tokens int64
	// Grants revoked: OAuth sign-ins, with every access and refresh token
	// issued under them.
	Grants int64
}

// String says what an erasure did: "erased 12 memories and revoked 1
// token and 0 OAuth grants".
func (e Erasure) String() string {
	return "erased " + quantity(e.Memories, "memory", "memories") + " and revoked " +
		quantity(e.Tokens, "token", "tokens") + " and " + quantity(e.Grants, "OAuth grant", "OAuth grants")
}

// quantity is n and its noun: one for 1, else many.
func quantity(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.FormatInt(n, 10) + " " + many
}

// Erase overwrites the content, topic and tags of every memory of tenant with
// [erased], revokes every bearer token and OAuth grant of tenant (and so
// every access and refresh token issued under those grants) and drops the
// authorization codes not yet exchanged, in one transaction: either all of
// it happens or none does.
func (s *Store) Erase(ctx context.Context, tenant string) (Erasure, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Erasure{}, err
	}
	defer tx.Rollback()
	var e Erasure
	steps := []struct {
		what  string
		query string
		args  []any
		count *int64
	}{
		{"erasing memories", `UPDATE memories SET content = ?, topic = ?, tags = ? WHERE tenant = ?`,
			[]any{Erased, Erased, `["` + Erased + `"]`, tenant}, &e.Memories},
		{"revoking tokens", `UPDATE tokens SET revoked = 1 WHERE tenant = ?`, []any{tenant}, &e.Tokens},
		{"revoking OAuth grants", `UPDATE oauth_grants SET revoked = 1 WHERE tenant = ? AND revoked = 0`, []any{tenant}, &e.Grants},
		{"dropping authorization codes", `DELETE FROM oauth_codes WHERE tenant = ? AND grant_id IS NULL`, []any{tenant}, nil},
	}
	for _, st := range steps {
		res, err := tx.ExecContext(ctx, st.query, st.args...)
		if err != nil {
			return Erasure{}, fmt.Errorf("%s of %s: %w", st.what, tenant, err)
		}
		if st.count != nil {
			*st.count, _ = res.RowsAffected()
		}
	}
	return e, tx.Commit()
}

// Scopes a token may carry.
const (
	ScopeRead  = "memory:read"
	ScopeWrite = "memory:write"
)

// IssueToken creates a bearer token for tenant with the given scopes and
// returns it. Only its SHA-256 hash is stored.
func (s *Store) IssueToken(ctx context.Context, tenant string, scopes []string) (string, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	token := "tg_" + hex.EncodeToString(b[:])
	_, err := s.db.ExecContext(ctx, `INSERT INTO tokens (token_hash, tenant, scopes) VALUES (?, ?, ?)`,
		hashToken(token), tenant, strings.Join(scopes, " "))
	if err != nil {
		return "", fmt.Errorf("issuing token for %s: %w", tenant, err)
	}
	return token, nil
}

// VerifyToken returns the tenant and scopes of a live token; an unknown or
// revoked token is ErrInvalidToken.
func (s *Store) VerifyToken(ctx context.Context, token string) (tenant string, scopes []string, err error) {
	var joined string
	var revoked bool
	err = s.db.QueryRowContext(ctx, `SELECT tenant, scopes, revoked FROM tokens WHERE token_hash = ?`,
		hashToken(token)).Scan(&tenant, &joined, &revoked)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && revoked) {
		return "", nil, ErrInvalidToken
	}
	if err != nil {
		return "", nil, err
	}
	return tenant, strings.Fields(joined), nil
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

const idAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// newID returns a fresh memory id: "m" and twelve base-32 characters.
func newID() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	id := []byte{'m'}
	for _, c := range b {
		id = append(id, idAlphabet[int(c)%len(idAlphabet)])
	}
	return string(id)
}
