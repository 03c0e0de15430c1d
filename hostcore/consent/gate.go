package consent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/hooks"
	"github.com/attache/attache/hostcore/toolcall"
)

// maxRecentDecisions bounds the gate's record kept in memory.
const maxRecentDecisions = 512

// Conn is a connection as the gate knows it: the server entry and the
// account it runs under (which name it and decide its grant identity), and
// the tools the server lists to it. hostcore's *Conn is one; the gate
// keys its listings and permits by it, so it must be comparable (a
// pointer).
type Conn interface {
	// Entry returns the server's configured entry and the account.
	Entry() (config.ServerConfig, config.Account)
	// Tools lists the server's tools.
	Tools(ctx context.Context) ([]toolcall.Tool, error)
}

// Options are what the gate needs of the host.
type Options struct {
	// Grants keeps the person's "Always"; nil keeps them in memory, for
	// the gate's life.
	Grants GrantStore
	// Now is the clock decisions and grants are stamped by; nil means
	// time.Now.
	Now func() time.Time
	// Find looks a server up by name in the configuration as it now is
	// (with the built-in servers); nil finds none.
	Find func(name string) (config.ServerConfig, error)
	// IsAdHoc reports whether a server name is an ad-hoc server's, named
	// for what it runs, whose grant holds without a configuration entry.
	IsAdHoc func(name string) bool
	// Getenv resolves ${env:NAME} for grant identities; nil means
	// os.Getenv.
	Getenv func(string) string
}

// HostCaller approves one of the host's own calls (see CallerHost): the
// fixed tool, with the arguments the host built, for the feature named.
// Only the holder of the gate's New result has one.
type HostCaller func(c Conn, feature, tool string, args map[string]any) *Permit

// Consent is the host's consent gate (see consent.go): one per Host, from
// Host.Consent. It is safe for concurrent use.
type Consent struct {
	opts   Options
	grants GrantStore

	mu     sync.Mutex
	recent []ToolDecision // oldest first, at most maxRecentDecisions
	hooks  hooks.List[func(ToolDecision)]
}

// New returns a gate and the capability to approve the host's own calls.
func New(opts Options) (*Consent, HostCaller) {
	store := opts.Grants
	if store == nil {
		store = &memoryGrants{}
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	g := &Consent{opts: opts, grants: store}
	return g, g.hostCall
}

// now reads the gate's clock.
func (g *Consent) now() time.Time {
	if g.opts.Now == nil {
		return time.Now()
	}
	return g.opts.Now()
}

// Recent returns the latest decisions, oldest first.
func (g *Consent) Recent() []ToolDecision {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]ToolDecision(nil), g.recent...)
}

// OnDecision registers f to be told of every decision as it is made, on
// the goroutine that asked (a Fyne front end hands it to fyne.Do). It
// returns the function that unregisters f.
func (g *Consent) OnDecision(f func(ToolDecision)) (unregister func()) { return g.hooks.Add(f) }

// record keeps d and tells the hooks; it returns d.
func (g *Consent) record(d *Permit) *Permit {
	g.mu.Lock()
	g.recent = append(g.recent, d.ToolDecision)
	if n := len(g.recent) - maxRecentDecisions; n > 0 {
		g.recent = append(g.recent[:0:0], g.recent[n:]...)
	}
	g.mu.Unlock()
	for _, f := range g.hooks.All() {
		f(d.ToolDecision)
	}
	return d
}

// decision starts the record of a call of tool on c.
func (g *Consent) decision(caller Caller, conv int64, c Conn, tool string) *Permit {
	d := &Permit{ToolDecision: ToolDecision{At: g.now(), Caller: caller, ConversationID: conv, Tool: tool}}
	if c != nil {
		sc, acct := c.Entry()
		d.Server, d.Account, d.conn = sc.Name, acct.Name, c
	}
	return d
}

// approve makes d a decision that runs, with args.
func (g *Consent) approve(d *Permit, by Approver, args map[string]any) *Permit {
	d.Run, d.By, d.approved, d.args = true, by, true, args
	return g.record(d)
}

// refuse makes d a decision that does not run.
func (g *Consent) refuse(d *Permit, why Refusal, note string) *Permit {
	d.Run, d.Refusal, d.Note = false, why, note
	return g.record(d)
}

// hostCall approves one of the host's own calls (see CallerHost): a fixed
// tool with arguments the host built, for feature.
func (g *Consent) hostCall(c Conn, feature, tool string, args map[string]any) *Permit {
	d := g.decision(CallerHost, 0, c, tool)
	d.Note = feature
	return g.approve(d, ApprovedHost, args)
}

// ScopeOptions say how the calls of one run of a feature are decided.
type ScopeOptions struct {
	// Caller is the feature; CallerHost is hostcore's own and refused.
	Caller Caller
	// Policy is the person's choice; "" means ToolsReadOnly for the lab,
	// ToolsAsk for a person's own calls, ToolsOff otherwise.
	Policy ToolPolicy
	// Ask asks the person, under ToolsAsk. Nil means no one can be asked:
	// a call that needs an answer is not run.
	Ask AskFunc
	// ConversationID keeps "Always" with that conversation, in the
	// host's GrantStore; 0 keeps it for the scope's life only.
	ConversationID int64
}

// Scope is one run of a feature under one policy: a turn, a lab run, a
// command, a tools panel's session. It lists each server's tools once,
// and keeps the answers given within it. It is safe for concurrent use.
type Scope struct {
	g    *Consent
	opts ScopeOptions

	mu       sync.Mutex
	listings map[Conn][]toolcall.Tool
	answers  map[string]Approval // grant key -> always or never, in this scope
	grants   []ToolGrant         // the conversation's, once read
	read     bool
}

// Scope starts a run of a feature.
func (g *Consent) Scope(opts ScopeOptions) (*Scope, error) {
	switch opts.Caller {
	case CallerChat, CallerLab, CallerPerson:
	default:
		return nil, fault.New(fault.KindUsage, nil, "the consent gate has no caller %q", opts.Caller)
	}
	if opts.Policy == "" {
		opts.Policy = map[Caller]ToolPolicy{CallerLab: ToolsReadOnly, CallerPerson: ToolsAsk}[opts.Caller]
		if opts.Policy == "" {
			opts.Policy = ToolsOff
		}
	}
	if _, err := ParseToolPolicy(string(opts.Policy)); err != nil {
		return nil, err
	}
	return &Scope{g: g, opts: opts, listings: map[Conn][]toolcall.Tool{}, answers: map[string]Approval{}}, nil
}

// Policy returns the scope's policy.
func (s *Scope) Policy() ToolPolicy { return s.opts.Policy }

// Offer lists c's tools (once per scope) and returns those the policy
// offers, and those it holds back: none under ToolsOff, the read-only
// ones under ToolsReadOnly, all of them otherwise.
func (s *Scope) Offer(ctx context.Context, c Conn) (offered, withheld []toolcall.Tool, err error) {
	tools, err := s.listing(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	for _, t := range tools {
		if s.offers(t) {
			offered = append(offered, t)
		} else {
			withheld = append(withheld, t)
		}
	}
	return offered, withheld, nil
}

func (s *Scope) offers(t toolcall.Tool) bool {
	switch s.opts.Policy {
	case ToolsOff:
		return false
	case ToolsReadOnly:
		return t.ReadOnly
	}
	return true
}

// listing returns c's tools as this scope listed them.
func (s *Scope) listing(ctx context.Context, c Conn) ([]toolcall.Tool, error) {
	s.mu.Lock()
	tools, ok := s.listings[c]
	s.mu.Unlock()
	if ok {
		return tools, nil
	}
	tools, err := c.Tools(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.listings[c] = tools
	s.mu.Unlock()
	return tools, nil
}

// Decide decides on a call of req.Tool.Name on c, with req.Arguments, and
// records the decision. It may ask the person (ScopeOptions.Ask) and so
// block. What the server says of the tool comes from the scope's listing,
// never from req.
func (s *Scope) Decide(ctx context.Context, c Conn, req ToolRequest) *Permit {
	req.Caller, req.ConversationID = s.opts.Caller, s.opts.ConversationID
	sc, acct := c.Entry()
	req.Server, req.Account = sc.Name, acct.Name
	d := s.g.decision(req.Caller, req.ConversationID, c, req.Tool.Name)
	args, err := ParseArguments(req.Arguments)
	if err != nil {
		return s.g.refuse(d, RefusedBadArguments, err.Error())
	}
	tools, err := s.listing(ctx, c)
	if err != nil {
		return s.g.refuse(d, RefusedUnlisted, fault.Message(err))
	}
	i := indexTool(tools, req.Tool.Name)
	if i < 0 {
		return s.g.refuse(d, RefusedNotListed, "")
	}
	req.Tool = tools[i]
	by, why, note := s.judge(ctx, c, req)
	d.Note = note
	if why != "" {
		return s.g.refuse(d, why, note)
	}
	return s.g.approve(d, by, args)
}

func indexTool(tools []toolcall.Tool, name string) int {
	for i, t := range tools {
		if t.Name == name {
			return i
		}
	}
	return -1
}

// judge applies the policy to a listed tool, asking the person when it
// must.
func (s *Scope) judge(ctx context.Context, c Conn, req ToolRequest) (Approver, Refusal, string) {
	t := req.Tool
	switch s.opts.Policy {
	case ToolsOff:
		return "", RefusedToolsOff, ""
	case ToolsAuto:
		return ApprovedAuto, "", ""
	case ToolsReadOnly:
		if t.ReadOnly {
			return ApprovedReadOnly, "", ""
		}
		return "", RefusedNotReadOnly, ""
	}
	switch {
	case s.opts.Caller == CallerLab && t.ReadOnly:
		return ApprovedReadOnly, "", ""
	case s.opts.Caller == CallerPerson && !t.Destructive:
		return ApprovedRequest, "", ""
	}
	if by, why, ok := s.remembered(ctx, c, t.Name); ok {
		return by, why, ""
	}
	return s.ask(ctx, c, req)
}

// ask asks the person about req and keeps an Always or a Never.
func (s *Scope) ask(ctx context.Context, c Conn, req ToolRequest) (Approver, Refusal, string) {
	person := s.opts.Caller == CallerPerson
	if s.opts.Ask == nil {
		if person {
			return "", RefusedNotConfirmed, "the server says it is destructive, and no one was there to confirm it"
		}
		return "", RefusedNoAnswer, "no one was there to ask"
	}
	a, err := s.opts.Ask(ctx, req)
	switch {
	case err != nil || ctx.Err() != nil:
		return "", RefusedNoAnswer, ""
	case person && (a == ApproveOnce || a == ApproveAlways):
		return ApprovedConfirmed, "", ""
	case person:
		return "", RefusedNotConfirmed, ""
	case a == ApproveOnce:
		return ApprovedOnce, "", ""
	case a == ApproveAlways:
		return ApprovedAlways, "", s.keep(ctx, c, req.Tool.Name, ApproveAlways)
	case a == ApproveNever:
		s.keep(ctx, c, req.Tool.Name, ApproveNever)
	}
	return "", RefusedDenied, ""
}

// ValidArguments returns why raw cannot be a call's arguments, or nil when
// the consent gate would take them (see ParseArguments): the lab records
// the calls of a turn by it.
func ValidArguments(raw json.RawMessage) error {
	_, err := ParseArguments(raw)
	return err
}

// ParseArguments reads a call's arguments, which must be a JSON object;
// empty arguments (what some models send for a tool without parameters)
// are an empty object. Numbers stay as written (json.Number), so that they
// reach the server as the model wrote them.
func ParseArguments(raw json.RawMessage) (map[string]any, error) {
	s := strings.TrimSpace(string(raw))
	if s == "" {
		return map[string]any{}, nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, errors.New("not valid JSON: " + err.Error())
	}
	if dec.More() {
		return nil, errors.New("not valid JSON: more than one value")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("a JSON value, but not an object")
	}
	return m, nil
}
