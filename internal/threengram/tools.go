package threengram

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool results are live answers: the spec never makes tools/call cacheable,
// and these carry the lifecycle state that the resource body leaves out.

// ExcerptLength is the most characters of content a search or briefing
// returns for one memory; longer bodies are marked truncated.
const ExcerptLength = 280

const (
	defaultSearchLimit = 10
	maxSearchLimit     = 50
	maxGetMemories     = 50
	defaultBriefing    = 10
)

// MemoryInfo is a memory's metadata with its live lifecycle state.
type MemoryInfo struct {
	ID               string   `json:"id"`
	URI              string   `json:"uri"`
	Topic            string   `json:"topic"`
	Tags             []string `json:"tags"`
	MemoryType       string   `json:"memoryType"`
	Project          string   `json:"project"`
	RecordedAt       string   `json:"recordedAt"`
	Status           string   `json:"status"`
	ValidTo          string   `json:"validTo,omitempty"`
	CommitmentStatus string   `json:"commitmentStatus,omitempty"`
	SupersededBy     string   `json:"supersededBy,omitempty"`
}

// Excerpt is a memory as search and briefing return it: lifecycle state and
// a bounded excerpt of the content.
type Excerpt struct {
	MemoryInfo
	Excerpt   string `json:"excerpt"`
	Truncated bool   `json:"truncated"`
}

// FullMemory is a memory as get_memories returns it: everything but the
// tenant, which the caller already is.
type FullMemory struct {
	MemoryInfo
	Content string `json:"content"`
}

func infoOf(m Memory) MemoryInfo {
	e := MemoryInfo{
		ID: m.ID, URI: MemoryURI(m.ID), Topic: m.Topic, Tags: m.Tags, MemoryType: m.MemoryType,
		Project: m.Project, RecordedAt: m.RecordedAt.UTC().Format(time.RFC3339), Status: m.Status,
		CommitmentStatus: m.CommitmentStatus, SupersededBy: m.SupersededBy,
	}
	if !m.ValidTo.IsZero() {
		e.ValidTo = m.ValidTo.UTC().Format(time.RFC3339)
	}
	return e
}

func excerptOf(m Memory) Excerpt {
	e := Excerpt{MemoryInfo: infoOf(m)}
	runes := []rune(m.Content)
	if len(runes) > ExcerptLength {
		e.Excerpt, e.Truncated = string(runes[:ExcerptLength]), true
	} else {
		e.Excerpt = m.Content
	}
	return e
}

func excerpts(ms []Memory) []Excerpt {
	out := make([]Excerpt, 0, len(ms))
	for _, m := range ms {
		out = append(out, excerptOf(m))
	}
	return out
}

// SearchInput is the search tool's input.
type SearchInput struct {
	Query  string `json:"query" jsonschema:"words to look for in content, topic or tags"`
	Cursor string `json:"cursor,omitempty" jsonschema:"the nextCursor of a previous page"`
	Limit  int    `json:"limit,omitempty" jsonschema:"results per page, 1 to 50 (default 10)"`
}

// SearchOutput is the search tool's output.
type SearchOutput struct {
	Results    []Excerpt `json:"results"`
	NextCursor string    `json:"nextCursor,omitempty"`
}

// GetMemoriesInput is the get_memories tool's input.
type GetMemoriesInput struct {
	IDs []string `json:"ids" jsonschema:"memory ids, at most 50"`
}

// GetMemoriesOutput is the get_memories tool's output. Ids that are missing
// and ids owned by another tenant both land in NotFound.
type GetMemoriesOutput struct {
	Memories []FullMemory `json:"memories"`
	NotFound []string     `json:"notFound"`
}

// BriefingInput is the briefing tool's input.
type BriefingInput struct {
	Limit int `json:"limit,omitempty" jsonschema:"how many recent memories (default 10, at most 50)"`
}

// BriefingOutput is the briefing tool's output.
type BriefingOutput struct {
	Recent          []Excerpt `json:"recent"`
	OpenCommitments []Excerpt `json:"openCommitments"`
}

// RememberInput is the remember tool's input.
type RememberInput struct {
	Content          string   `json:"content"`
	Topic            string   `json:"topic"`
	Tags             []string `json:"tags,omitempty"`
	MemoryType       string   `json:"memoryType" jsonschema:"fact, decision, preference, commitment, note, incident or handoff"`
	Scope            string   `json:"scope,omitempty" jsonschema:"project, team or personal (default project)"`
	Project          string   `json:"project,omitempty"`
	CommitmentStatus string   `json:"commitmentStatus,omitempty" jsonschema:"for commitments: open, done or dropped"`
}

// ReviseInput is the revise tool's input.
type ReviseInput struct {
	ID      string `json:"id" jsonschema:"the memory to supersede"`
	Content string `json:"content" jsonschema:"the successor's content"`
}

// IDInput names one memory.
type IDInput struct {
	ID string `json:"id"`
}

// WriteOutput is what the write tools return.
type WriteOutput struct {
	ID         string `json:"id"`
	URI        string `json:"uri"`
	Supersedes string `json:"supersedes,omitempty"`
	Status     string `json:"status"`
}

// toolHints are what each tool says of itself (MCP tool annotations), for
// a host to decide what runs without asking: the reads are read-only;
// remember only adds a memory; revise closes a memory's validity and
// archive takes it out of use, both changes to a memory that exists, so
// destructive in the protocol's sense (not only additive); archiving twice
// is archiving once. No tool reaches outside the store.
var toolHints = map[string]*mcp.ToolAnnotations{
	"search":       {ReadOnlyHint: true, OpenWorldHint: new(bool)},
	"get_memories": {ReadOnlyHint: true, OpenWorldHint: new(bool)},
	"briefing":     {ReadOnlyHint: true, OpenWorldHint: new(bool)},
	"remember":     {DestructiveHint: new(bool), OpenWorldHint: new(bool)},
	"revise":       {DestructiveHint: ptr(true), OpenWorldHint: new(bool)},
	"archive":      {DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: new(bool)},
}

func ptr[T any](v T) *T { return &v }

func (h *handlers) addTools(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "search", Annotations: toolHints["search"],
		Description: "Search your memories. Returns bounded excerpts (long bodies marked truncated) with live lifecycle state; paginated by cursor."},
		h.search)
	mcp.AddTool(srv, &mcp.Tool{Name: "get_memories", Annotations: toolHints["get_memories"],
		Description: "Full bodies and lifecycle state of memories by id. Ids you do not own come back in notFound."},
		h.getMemories)
	mcp.AddTool(srv, &mcp.Tool{Name: "briefing", Annotations: toolHints["briefing"],
		Description: "Your most recent current memories and every open commitment."},
		h.briefing)
	mcp.AddTool(srv, &mcp.Tool{Name: "remember", Annotations: toolHints["remember"], Description: "Record a new memory."}, h.remember)
	mcp.AddTool(srv, &mcp.Tool{Name: "revise", Annotations: toolHints["revise"],
		Description: "Supersede a memory: closes its validTo and records a successor with a new id. The original is never edited."},
		h.revise)
	mcp.AddTool(srv, &mcp.Tool{Name: "archive", Annotations: toolHints["archive"], Description: "Mark a memory archived."}, h.archive)
}

func (h *handlers) search(ctx context.Context, req *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, SearchOutput, error) {
	tenant, err := h.principal(req, ScopeRead)
	if err != nil {
		return nil, SearchOutput{}, err
	}
	limit := in.Limit
	if limit <= 0 {
		limit = defaultSearchLimit
	}
	limit = min(limit, maxSearchLimit)
	offset, err := decodeCursor(in.Cursor)
	if err != nil {
		return nil, SearchOutput{}, err
	}
	ms, next, err := h.store.Search(ctx, tenant, in.Query, offset, limit)
	if err != nil {
		return nil, SearchOutput{}, fmt.Errorf("searching: %w", err)
	}
	out := SearchOutput{Results: excerpts(ms)}
	if next > 0 {
		out.NextCursor = encodeCursor(next)
	}
	return nil, out, nil
}

func encodeCursor(offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("o:" + strconv.Itoa(offset)))
}

func decodeCursor(c string) (int, error) {
	if c == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err == nil && len(b) > 2 && string(b[:2]) == "o:" {
		if n, err := strconv.Atoi(string(b[2:])); err == nil && n >= 0 {
			return n, nil
		}
	}
	return 0, errors.New("invalid cursor")
}

func (h *handlers) getMemories(ctx context.Context, req *mcp.CallToolRequest, in GetMemoriesInput) (*mcp.CallToolResult, GetMemoriesOutput, error) {
	tenant, err := h.principal(req, ScopeRead)
	if err != nil {
		return nil, GetMemoriesOutput{}, err
	}
	if len(in.IDs) > maxGetMemories {
		return nil, GetMemoriesOutput{}, fmt.Errorf("at most %d ids per call", maxGetMemories)
	}
	out := GetMemoriesOutput{Memories: []FullMemory{}, NotFound: []string{}}
	for _, id := range in.IDs {
		m, err := h.store.Get(ctx, tenant, id)
		switch {
		case errors.Is(err, ErrNotFound):
			out.NotFound = append(out.NotFound, id)
		case err != nil:
			return nil, GetMemoriesOutput{}, fmt.Errorf("reading memory: %w", err)
		default:
			out.Memories = append(out.Memories, FullMemory{MemoryInfo: infoOf(m), Content: m.Content})
		}
	}
	return nil, out, nil
}

func (h *handlers) briefing(ctx context.Context, req *mcp.CallToolRequest, in BriefingInput) (*mcp.CallToolResult, BriefingOutput, error) {
	tenant, err := h.principal(req, ScopeRead)
	if err != nil {
		return nil, BriefingOutput{}, err
	}
	limit := in.Limit
	if limit <= 0 {
		limit = defaultBriefing
	}
	recent, open, err := h.store.Briefing(ctx, tenant, min(limit, maxSearchLimit))
	if err != nil {
		return nil, BriefingOutput{}, fmt.Errorf("briefing: %w", err)
	}
	return nil, BriefingOutput{Recent: excerpts(recent), OpenCommitments: excerpts(open)}, nil
}

func (h *handlers) remember(ctx context.Context, req *mcp.CallToolRequest, in RememberInput) (*mcp.CallToolResult, WriteOutput, error) {
	tenant, err := h.principal(req, ScopeWrite)
	if err != nil {
		return nil, WriteOutput{}, err
	}
	if in.Content == "" || in.Topic == "" || in.MemoryType == "" {
		return nil, WriteOutput{}, errors.New("content, topic and memoryType are required")
	}
	if in.Scope == "" {
		in.Scope = "project"
	}
	m, err := h.store.Remember(ctx, tenant, NewMemory(in))
	if err != nil {
		return nil, WriteOutput{}, fmt.Errorf("remembering: %w", err)
	}
	return nil, WriteOutput{ID: m.ID, URI: MemoryURI(m.ID), Status: m.Status}, nil
}

func (h *handlers) revise(ctx context.Context, req *mcp.CallToolRequest, in ReviseInput) (*mcp.CallToolResult, WriteOutput, error) {
	tenant, err := h.principal(req, ScopeWrite)
	if err != nil {
		return nil, WriteOutput{}, err
	}
	if in.Content == "" {
		return nil, WriteOutput{}, errors.New("content is required")
	}
	m, err := h.store.Revise(ctx, tenant, in.ID, in.Content)
	if errors.Is(err, ErrNotFound) {
		return nil, WriteOutput{}, fmt.Errorf("memory %q not found", in.ID)
	}
	if err != nil {
		return nil, WriteOutput{}, fmt.Errorf("revising: %w", err)
	}
	return nil, WriteOutput{ID: m.ID, URI: MemoryURI(m.ID), Supersedes: in.ID, Status: m.Status}, nil
}

func (h *handlers) archive(ctx context.Context, req *mcp.CallToolRequest, in IDInput) (*mcp.CallToolResult, WriteOutput, error) {
	tenant, err := h.principal(req, ScopeWrite)
	if err != nil {
		return nil, WriteOutput{}, err
	}
	if err := h.store.Archive(ctx, tenant, in.ID); errors.Is(err, ErrNotFound) {
		return nil, WriteOutput{}, fmt.Errorf("memory %q not found", in.ID)
	} else if err != nil {
		return nil, WriteOutput{}, fmt.Errorf("archiving: %w", err)
	}
	return nil, WriteOutput{ID: in.ID, URI: MemoryURI(in.ID), Status: "archived"}, nil
}
