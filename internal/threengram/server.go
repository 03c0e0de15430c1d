package threengram

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MemoryTemplate is the one resource template the server advertises.
const MemoryTemplate = "threengram://memory/{id}"

// MemoryTTL is the cache hint on every memory read. It is its own constant,
// not the catalog's: a memory body goes stale essentially never, while
// catalogs go stale on a deployment.
const MemoryTTL = 24 * time.Hour

// CatalogTTL is the cache hint on the server's listings, which are identical
// for every tenant and therefore public.
const CatalogTTL = time.Hour

// Version is the server's implementation version.
const Version = "1.0.0"

// ServerOptions configures NewServer. The zero value is usable for HTTP,
// where every request brings its own credentials.
type ServerOptions struct {
	// Tenant, when set, is the verified tenant of every request. It is for
	// stdio, where the person who starts the process is the credential
	// (--tenant). When empty, the tenant comes from the bearer token that the
	// HTTP middleware verified, and a request without one is refused.
	Tenant string
	// Logger receives the server's log; nil discards it.
	Logger *slog.Logger
	// FetchGate hides get_memories from the clients that surface
	// resources (see FetchToolGate); the zero value offers it to all.
	FetchGate FetchToolGate
}

// NewServer returns an MCP server over store: one resource template, an
// empty resource list, completion of memory ids and the memory tools.
func NewServer(store *Store, opts *ServerOptions) *mcp.Server {
	if opts == nil {
		opts = &ServerOptions{}
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	h := &handlers{store: store, tenant: opts.Tenant}
	srv := mcp.NewServer(&mcp.Implementation{Name: "threengram", Title: "threengram memory", Version: Version},
		&mcp.ServerOptions{
			Logger:            logger,
			Instructions:      "Memories are addressed as threengram://memory/{id}. Read one to get its immutable body; use the tools for lifecycle state.",
			CompletionHandler: h.complete,
			SetCacheable:      setCacheable,
			Capabilities: &mcp.ServerCapabilities{
				Resources:   &mcp.ResourceCapabilities{},
				Tools:       &mcp.ToolCapabilities{},
				Completions: &mcp.CompletionCapabilities{},
			},
		})
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "memory",
		Title:       "Memory",
		URITemplate: MemoryTemplate,
		Description: "One memory by id: its content and the fields that never change " +
			"(content, contentLength, memoryType, topic, scope, project, recordedAt). " +
			"Lifecycle state (status, validTo, commitmentStatus, tags) is answered live by the tools.",
		MIMEType: "application/json",
		Annotations: &mcp.Annotations{
			Audience: []mcp.Role{"user", "assistant"},
			Priority: 0.7,
		},
	}, h.read)
	h.addTools(srv)
	if opts.FetchGate.On {
		srv.AddReceivingMiddleware(opts.FetchGate.middleware)
	}
	return srv
}

// setCacheable gives listings their public catalog hint. Reads keep the
// private hint their handler set; everything else is left alone.
func setCacheable(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
	if _, ok := req.(*mcp.ReadResourceRequest); ok {
		return
	}
	c.TTLMs = int(CatalogTTL.Milliseconds())
	c.CacheScope = "public"
}

type handlers struct {
	store  *Store
	tenant string
}

// errUnauthenticated is returned when a request reaches a handler with no
// verified tenant: fail closed rather than guess.
var errUnauthenticated = errors.New("unauthenticated: no verified tenant for this request")

// principal returns the verified tenant of req and whether it holds scope.
// The tenant never comes from the URI or the arguments.
func (h *handlers) principal(req mcp.Request, scope string) (string, error) {
	if h.tenant != "" {
		return h.tenant, nil
	}
	extra := req.GetExtra()
	if extra == nil || extra.TokenInfo == nil || extra.TokenInfo.UserID == "" {
		return "", errUnauthenticated
	}
	if !slices.Contains(extra.TokenInfo.Scopes, scope) {
		return "", fmt.Errorf("forbidden: this token lacks the %s scope", scope)
	}
	return extra.TokenInfo.UserID, nil
}

// memoryID extracts the id from threengram://memory/{id}, or "" when the URI
// is not a memory URI.
func memoryID(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "threengram" || u.Host != "memory" || u.RawQuery != "" || u.Fragment != "" {
		return ""
	}
	id, ok := strings.CutPrefix(u.Path, "/")
	if !ok || !validID(id) {
		return ""
	}
	return id
}

// MemoryBody is the JSON body of a memory read: only the fields no ordinary
// write path can change. Adding a lifecycle field here would silently turn a
// correct day-long cache into one that serves wrong answers.
type MemoryBody struct {
	Content       string `json:"content"`
	ContentLength int    `json:"contentLength"`
	MemoryType    string `json:"memoryType"`
	Topic         string `json:"topic"`
	Scope         string `json:"scope"`
	Project       string `json:"project"`
	RecordedAt    string `json:"recordedAt"`
}

func (h *handlers) read(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	tenant, err := h.principal(req, ScopeRead)
	if err != nil {
		return nil, err
	}
	uri := req.Params.URI
	id := memoryID(uri)
	if id == "" {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	m, err := h.store.Get(ctx, tenant, id)
	if errors.Is(err, ErrNotFound) {
		// Another tenant's id takes this same path: no existence oracle.
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		return nil, fmt.Errorf("reading memory: %w", err)
	}
	body, err := json.Marshal(MemoryBody{
		Content:       m.Content,
		ContentLength: utf8.RuneCountInString(m.Content),
		MemoryType:    m.MemoryType,
		Topic:         m.Topic,
		Scope:         m.Scope,
		Project:       m.Project,
		RecordedAt:    m.RecordedAt.UTC().Format(time.RFC3339),
	})
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{
		Cacheable: mcp.Cacheable{TTLMs: int(MemoryTTL.Milliseconds()), CacheScope: "private"},
		Contents:  []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(body)}},
	}, nil
}

// maxCompletions is the protocol's cap on completion values.
const maxCompletions = 100

func (h *handlers) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	ref := req.Params.Ref
	if ref == nil || ref.Type != "ref/resource" || ref.URI != MemoryTemplate || req.Params.Argument.Name != "id" {
		return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}, nil
	}
	tenant, err := h.principal(req, ScopeRead)
	if err != nil {
		return nil, err
	}
	ids, more, err := h.store.IDsWithPrefix(ctx, tenant, req.Params.Argument.Value, maxCompletions)
	if err != nil {
		return nil, fmt.Errorf("completing memory ids: %w", err)
	}
	if ids == nil {
		ids = []string{}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: ids, HasMore: more}}, nil
}

// MemoryURI returns the resource URI of a memory id.
func MemoryURI(id string) string { return "threengram://memory/" + id }

// ServeStdio opens the store at dbPath, loads corpus into it if it is empty
// (nil: no corpus), and serves tenant over stdin and stdout until the client
// closes the connection or ctx ends. It is what `threengram --stdio` runs,
// and what Attaché's binaries run for their embedded demo.
func ServeStdio(ctx context.Context, dbPath, tenant string, corpus []byte, logger *slog.Logger) error {
	return ServeStdioGated(ctx, dbPath, tenant, corpus, logger, FetchToolGate{})
}

// ServeStdioGated is ServeStdio with the fetch tool gated (see
// FetchToolGate).
func ServeStdioGated(ctx context.Context, dbPath, tenant string, corpus []byte, logger *slog.Logger, gate FetchToolGate) error {
	if tenant == "" {
		return errors.New("serving over stdio needs a tenant")
	}
	store, err := OpenStore(dbPath, nil)
	if err != nil {
		return err
	}
	defer store.Close()
	if corpus != nil {
		if _, err := store.Seed(ctx, corpus); err != nil {
			return err
		}
	}
	srv := NewServer(store, &ServerOptions{Tenant: tenant, Logger: logger, FetchGate: gate})
	return srv.Run(ctx, &mcp.StdioTransport{})
}
