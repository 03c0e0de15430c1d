package hostcore

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/pack"
)

// Memories a person can tell apart. A threengram memory is a resource
// whose body carries its type, topic, project, scope and the time it was
// recorded; an id alone ("m00qgwdvbb") says none of that. The body is
// immutable and the server marks it cacheable for a day, so its metadata
// is read through the cache: one read per memory per day. Its lifecycle
// (active, archived, superseded) can change at any time, and is asked of
// the server's get_memories tool every time, never cached (see
// MemoryLifecycle).

// MemoryMeta is what tells one memory from another.
type MemoryMeta struct {
	URI        string    `json:"uri"`
	Type       string    `json:"memoryType"`
	Topic      string    `json:"topic,omitempty"`
	Project    string    `json:"project,omitempty"`
	Scope      string    `json:"scope,omitempty"`
	RecordedAt time.Time `json:"recordedAt,omitzero"`
}

// Line is the memory's one-line description: "fact · onboarding · anvil-api
// · 2025-01-19", its parts made safe for one line.
func (m MemoryMeta) Line() string {
	parts := []string{pack.OneLine(m.Type)}
	for _, p := range []string{m.Topic, m.Project} {
		if p != "" {
			parts = append(parts, pack.OneLine(p))
		}
	}
	if !m.RecordedAt.IsZero() {
		parts = append(parts, m.RecordedAt.UTC().Format(time.DateOnly))
	}
	return strings.Join(parts, " · ")
}

// memoryMetaOf reads a memory's metadata from its body, if the body is a
// threengram memory.
func memoryMetaOf(uri, mimeType, text string) (MemoryMeta, bool) {
	b, ok := pack.ParseMemoryBody(mimeType, text)
	if !ok {
		return MemoryMeta{}, false
	}
	m := MemoryMeta{URI: uri, Type: b.MemoryType, Topic: b.Topic, Project: b.Project, Scope: b.Scope}
	if t, err := time.Parse(time.RFC3339, b.RecordedAt); err == nil {
		m.RecordedAt = t
	}
	return m, true
}

// MemoryMetaOf returns the metadata of a read's first text entry, if it is
// a threengram memory.
func MemoryMetaOf(r *ReadResult) (MemoryMeta, bool) {
	for _, c := range r.Contents {
		if !c.IsBlob {
			return memoryMetaOf(r.URI, c.MIMEType, c.Text)
		}
	}
	return MemoryMeta{}, false
}

// MemoryMeta reads the resource at uri through the cache (ReadUse) and
// returns its metadata; ok is false when the body is not a threengram
// memory.
func (c *Conn) MemoryMeta(ctx context.Context, uri string) (m MemoryMeta, ok bool, err error) {
	r, err := c.Read(ctx, uri, ReadUse)
	if err != nil {
		return MemoryMeta{}, false, err
	}
	m, ok = MemoryMetaOf(r)
	return m, ok, nil
}

// MemoryHit is one result of a memory search: the memory, a bounded
// excerpt of its content, and its lifecycle now.
type MemoryHit struct {
	ID string `json:"id"`
	MemoryMeta
	Excerpt   string    `json:"excerpt"`
	Truncated bool      `json:"truncated,omitempty"`
	State     Lifecycle `json:"state"`
}

// MemorySearch is a page of a memory search.
type MemorySearch struct {
	Hits []MemoryHit `json:"hits"`
	// NextCursor asks for the next page; "" on the last.
	NextCursor string `json:"nextCursor,omitempty"`
}

// SearchMemories calls the server's search tool with query (the person
// triggers it; the host never searches on its own). cursor is a previous
// page's NextCursor, limit the results per page (0: the server's default).
func (c *Conn) SearchMemories(ctx context.Context, query, cursor string, limit int) (MemorySearch, error) {
	args := map[string]any{"query": query}
	if cursor != "" {
		args["cursor"] = cursor
	}
	if limit > 0 {
		args["limit"] = limit
	}
	res, err := c.hostCallTool(ctx, "memory search, asked for by the person", "search", args)
	if err != nil {
		return MemorySearch{}, err
	}
	var got struct {
		Results []struct {
			ID           string `json:"id"`
			URI          string `json:"uri"`
			Topic        string `json:"topic"`
			MemoryType   string `json:"memoryType"`
			Project      string `json:"project"`
			RecordedAt   string `json:"recordedAt"`
			Status       string `json:"status"`
			SupersededBy string `json:"supersededBy"`
			Excerpt      string `json:"excerpt"`
			Truncated    bool   `json:"truncated"`
		} `json:"results"`
		NextCursor string `json:"nextCursor"`
	}
	if err := toolAnswer(res, &got, "search of "+c.Server.Name); err != nil {
		return MemorySearch{}, err
	}
	out := MemorySearch{Hits: []MemoryHit{}, NextCursor: got.NextCursor}
	for _, r := range got.Results {
		h := MemoryHit{ID: r.ID, Excerpt: r.Excerpt, Truncated: r.Truncated,
			MemoryMeta: MemoryMeta{URI: r.URI, Type: r.MemoryType, Topic: r.Topic, Project: r.Project},
			State:      Lifecycle{ID: r.ID, Status: r.Status, SupersededBy: r.SupersededBy}}
		if t, err := time.Parse(time.RFC3339, r.RecordedAt); err == nil {
			h.RecordedAt = t
		}
		out.Hits = append(out.Hits, h)
	}
	return out, nil
}

// toolAnswer decodes a tool's answer into v: its structured content, else
// its text as JSON. A result the tool marked as an error is a server
// fault with the tool's message; an answer that does not decode is a
// protocol error. what names the tool and its server.
func toolAnswer(res *ToolResult, v any, what string) error {
	if res.IsError {
		return newError(fault.KindServerFault, nil, "%s failed: %s", what, pack.OneLine(clip(res.Text)))
	}
	raw := []byte(res.Structured)
	if len(raw) == 0 {
		raw = []byte(res.Text)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return newError(fault.KindProtocol, err, "%s answered something that could not be understood", what)
	}
	return nil
}

// ItemMemoryMeta returns the metadata of an item's body, if it is a
// threengram memory: the ranking read it already, so this costs nothing.
func ItemMemoryMeta(it *pack.Item) (MemoryMeta, bool) {
	return MemoryMetaOf(&ReadResult{URI: it.URI, Contents: it.Contents})
}
