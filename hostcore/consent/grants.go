package consent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
)

// A grant ("Always for this tool in this conversation") is given to a
// server's identity, not to its name: what the server runs or where it
// points, and the credentials the account presents (see Identity).
// A grant whose server now runs another command, points to another URL or
// presents other credentials no longer applies: the next call asks again,
// and the stale grant is forgotten. Editing or removing a server through
// the Host forgets all of its grants at once.

// ToolGrant is one "Always".
type ToolGrant struct {
	ConversationID int64 `json:"conversationId"`
	// Server and Account name the server as the person knows it.
	Server  string `json:"server"`
	Account string `json:"account,omitempty"`
	// Identity is a digest of what the server runs or where it points,
	// and of the credentials sent (never the credentials themselves).
	Identity  string    `json:"identity"`
	Tool      string    `json:"tool"`
	GrantedAt time.Time `json:"grantedAt"`
}

// GrantStore keeps grants. The state package's SQLite store implements
// it; implementations are safe for concurrent use and commit every change
// before returning. A server has at most one grant per tool in a
// conversation: a new one replaces the old.
type GrantStore interface {
	// ToolGrants returns a conversation's grants, by server and tool.
	ToolGrants(ctx context.Context, conversationID int64) ([]ToolGrant, error)
	// GrantTool keeps g.
	GrantTool(ctx context.Context, g ToolGrant) error
	// RevokeTool forgets the grant of server's tool in a conversation.
	RevokeTool(ctx context.Context, conversationID int64, server, tool string) error
	// ForgetServerGrants forgets every grant of the server named, in
	// every conversation.
	ForgetServerGrants(ctx context.Context, server string) error
}

// Identity is the identity a grant is given to: a digest of what
// the server runs or where it points, as configured (stdio: the command,
// its arguments, working directory and environment; HTTP: the URL with
// its userinfo, the transport, the headers and a pre-registered OAuth
// client) together with the account's credentials. ${env:NAME} is
// resolved, since the value is what the server gets; ${input:ID} is not,
// since an input is typed anew in every session. Secrets enter the digest
// only.
func Identity(sc config.ServerConfig, acct config.Account, getenv func(string) string) string {
	h := sha256.New()
	field := func(name string, vs ...string) {
		fmt.Fprintf(h, "%s:%d;", name, len(vs))
		for _, v := range vs {
			fmt.Fprintf(h, "%d:%s;", len(v), v)
		}
	}
	exp := func(v string) string {
		if !strings.Contains(v, "${env:") {
			return v
		}
		return config.EnvRef().ReplaceAllStringFunc(v, func(m string) string { return getenv(config.EnvRef().FindStringSubmatch(m)[1]) })
	}
	pairs := func(m map[string]string, sep string) []string {
		var out []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			out = append(out, k+sep+exp(m[k]))
		}
		return out
	}
	if sc.IsHTTP() {
		field("url", exp(sc.URL))
		field("transport", sc.Transport)
		field("headers", pairs(merge(sc.Headers, acct.Headers), ": ")...)
		if sc.OAuth != nil {
			field("oauth-client", sc.OAuth.ClientID, exp(sc.OAuth.ClientSecret))
		}
	} else {
		args := make([]string, len(sc.Args))
		for i, a := range sc.Args {
			args[i] = exp(a)
		}
		field("command", exp(sc.Command))
		field("args", args...)
		field("cwd", exp(sc.Cwd))
		field("env", pairs(merge(sc.Env, acct.Env), "=")...)
	}
	return "v1:" + hex.EncodeToString(h.Sum(nil))[:32]
}

// identityOf is the grant identity of c's server and account.
func (g *Consent) identityOf(c Conn) string {
	sc, acct := c.Entry()
	return Identity(sc, acct, g.opts.Getenv)
}

// merge returns base with over's entries on top.
func merge(base, over map[string]string) map[string]string {
	out := maps.Clone(base)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, over)
	return out
}

// grantKey names a tool of a server identity within a scope.
func grantKey(identity, tool string) string { return identity + "\x00" + tool }

// remembered looks for an answer given earlier to tool of c: in this
// scope, then (for a conversation) a grant. A grant given to the server
// as it ran before is forgotten.
func (s *Scope) remembered(ctx context.Context, c Conn, tool string) (Approver, Refusal, bool) {
	id := s.g.identityOf(c)
	s.mu.Lock()
	a, ok := s.answers[grantKey(id, tool)]
	s.mu.Unlock()
	sc, _ := c.Entry()
	server := sc.Name
	switch {
	case ok && a == ApproveNever:
		return "", RefusedDenied, true
	case ok:
		return ApprovedAlways, "", true
	case s.opts.ConversationID == 0:
		return "", "", false
	}
	grants, err := s.conversationGrants(ctx)
	if err != nil {
		return "", "", false
	}
	for _, g := range grants {
		if g.Server != server || g.Tool != tool {
			continue
		}
		if g.Identity == id {
			return ApprovedGrant, "", true
		}
		// The server was edited since: the grant was given to another.
		s.g.grants.RevokeTool(context.WithoutCancel(ctx), s.opts.ConversationID, g.Server, g.Tool)
	}
	return "", "", false
}

// conversationGrants reads the conversation's grants once per scope.
func (s *Scope) conversationGrants(ctx context.Context) ([]ToolGrant, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.read {
		return s.grants, nil
	}
	grants, err := s.g.grants.ToolGrants(ctx, s.opts.ConversationID)
	if err != nil {
		return nil, err
	}
	s.grants, s.read = grants, true
	return grants, nil
}

// keep remembers an Always or a Never for tool of c: in the scope, and an
// Always in the conversation's grants too. It returns what the person
// should know if the grant could not be kept.
func (s *Scope) keep(ctx context.Context, c Conn, tool string, a Approval) string {
	id := s.g.identityOf(c)
	s.mu.Lock()
	s.answers[grantKey(id, tool)] = a
	s.mu.Unlock()
	if a != ApproveAlways || s.opts.ConversationID == 0 {
		return ""
	}
	sc, acct := c.Entry()
	g := ToolGrant{ConversationID: s.opts.ConversationID, Server: sc.Name, Account: acct.Name,
		Identity: id, Tool: tool, GrantedAt: s.g.now()}
	if err := s.g.grants.GrantTool(context.WithoutCancel(ctx), g); err != nil {
		return "could not remember Always for " + tool + ": " + fault.Message(err)
	}
	return ""
}

// Grants returns the conversation's grants that still hold: each one's
// server is still configured (or is an ad-hoc server, named for what it
// runs) and runs or points where it did when the grant was given. The
// others are forgotten.
func (g *Consent) Grants(ctx context.Context, conv int64) ([]ToolGrant, error) {
	all, err := g.grants.ToolGrants(ctx, conv)
	if err != nil {
		return nil, err
	}
	var out []ToolGrant
	for _, gr := range all {
		if g.holds(gr) {
			out = append(out, gr)
			continue
		}
		if err := g.grants.RevokeTool(ctx, conv, gr.Server, gr.Tool); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// holds reports whether gr was given to its server as it now is.
func (g *Consent) holds(gr ToolGrant) bool {
	if g.opts.Find == nil {
		return g.opts.IsAdHoc != nil && g.opts.IsAdHoc(gr.Server)
	}
	sc, err := g.opts.Find(gr.Server)
	if err != nil {
		return g.opts.IsAdHoc != nil && g.opts.IsAdHoc(gr.Server)
	}
	acct, err := sc.Account(gr.Account)
	return err == nil && acct.Name == gr.Account && Identity(sc, acct, g.opts.Getenv) == gr.Identity
}

// Revoke forgets the grant of server's tool in the conversation: its next
// call is asked about again.
func (g *Consent) Revoke(ctx context.Context, conv int64, server, tool string) error {
	return g.grants.RevokeTool(ctx, conv, server, tool)
}

// ForgetServer forgets every grant of the server named (it was edited or
// removed).
func (g *Consent) ForgetServer(ctx context.Context, server string) error {
	return g.grants.ForgetServerGrants(ctx, server)
}

// memoryGrants keeps grants for the host's life, when it has no store.
type memoryGrants struct {
	mu     sync.Mutex
	grants []ToolGrant
}

func (m *memoryGrants) ToolGrants(_ context.Context, conv int64) ([]ToolGrant, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []ToolGrant
	for _, g := range m.grants {
		if g.ConversationID == conv {
			out = append(out, g)
		}
	}
	return out, nil
}

func (m *memoryGrants) GrantTool(ctx context.Context, g ToolGrant) error {
	m.RevokeTool(ctx, g.ConversationID, g.Server, g.Tool)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.grants = append(m.grants, g)
	return nil
}

func (m *memoryGrants) RevokeTool(_ context.Context, conv int64, server, tool string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.grants = slices.DeleteFunc(m.grants, func(g ToolGrant) bool {
		return g.ConversationID == conv && g.Server == server && g.Tool == tool
	})
	return nil
}

func (m *memoryGrants) ForgetServerGrants(_ context.Context, server string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.grants = slices.DeleteFunc(m.grants, func(g ToolGrant) bool { return g.Server == server })
	return nil
}
