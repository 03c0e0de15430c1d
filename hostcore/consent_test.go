package hostcore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/toolcall"
)

// gateFixture is the reference server over stdio, as acme, on a host
// whose grants are in memory.
type gateFixture struct {
	h   *hostcore.Host
	c   *hostcore.Conn
	ids []string
}

func newGateFixture(t *testing.T) gateFixture {
	t.Helper()
	sc := threengramMem(t)
	h := configuredHost(t, nil, sc)
	c := conn(t, h, sc, "acme")
	return gateFixture{h: h, c: c, ids: someIDs(t, c)}
}

// status is a memory's live status.
func (f gateFixture) status(t *testing.T, id string) string {
	t.Helper()
	states, err := f.c.MemoryLifecycle(context.Background(), []string{id})
	if err != nil {
		t.Fatal(err)
	}
	return states[id].Status
}

// asker answers every question with a, and counts them.
type asker struct {
	a     consent.Approval
	asked []string
}

func (k *asker) ask(_ context.Context, req consent.ToolRequest) (consent.Approval, error) {
	k.asked = append(k.asked, req.Tool.Name)
	return k.a, nil
}

// The gate's rules, caller by caller and policy by policy, on the
// reference server's real tools (search read-only, remember additive,
// archive destructive): what runs, who approved it, why the rest did not
// run, and whom it asked. A refused call sends nothing: the memory stays
// active.
func TestGateDecides(t *testing.T) {
	f := newGateFixture(t)
	archive := fmt.Sprintf(`{"id":%q}`, f.ids[0])
	remember := `{"content":"x","topic":"t","memoryType":"note"}`
	tests := []struct {
		name     string
		caller   consent.Caller
		policy   consent.ToolPolicy
		answer   consent.Approval // "" gives no Ask
		tool     string
		args     string
		want     string
		askedFor bool
	}{
		{"lab default runs a read-only tool", consent.CallerLab, "", "", "search", `{"query":"x"}`, "ran: read-only", false},
		{"lab default refuses a write", consent.CallerLab, "", consent.ApproveOnce, "archive", archive, "not run: not read-only", false},
		{"lab ask runs read-only tools unasked", consent.CallerLab, consent.ToolsAsk, consent.ApproveDeny, "search", `{"query":"x"}`, "ran: read-only", false},
		{"lab ask asks before a write", consent.CallerLab, consent.ToolsAsk, consent.ApproveDeny, "archive", archive, "not run: denied", true},
		{"lab ask with no one to ask", consent.CallerLab, consent.ToolsAsk, "", "archive", archive, "not run: not answered", false},
		{"chat ask asks even for a read", consent.CallerChat, consent.ToolsAsk, consent.ApproveOnce, "search", `{"query":"x"}`, "ran: allowed once", true},
		{"chat read-only refuses a write", consent.CallerChat, consent.ToolsReadOnly, consent.ApproveOnce, "archive", archive, "not run: not read-only", false},
		{"chat off", consent.CallerChat, consent.ToolsOff, "", "search", `{}`, "not run: tools are off", false},
		{"a person's additive call runs", consent.CallerPerson, consent.ToolsAsk, consent.ApproveDeny, "remember", remember, "ran: asked for by the person", false},
		{"a person's destructive call is confirmed", consent.CallerPerson, consent.ToolsAsk, consent.ApproveDeny, "archive", archive, "not run: not confirmed", true},
		{"a person's destructive call, no one to confirm", consent.CallerPerson, consent.ToolsAsk, "", "archive", archive, "not run: not confirmed", false},
		{"a tool the server does not list", consent.CallerLab, consent.ToolsAuto, "", "drop_tables", `{}`, "not run: not listed by the server", false},
		{"arguments that are not an object", consent.CallerLab, consent.ToolsAuto, "", "archive", `["x"]`, "not run: arguments are not a JSON object", false},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := &asker{a: tt.answer}
			opts := consent.ScopeOptions{Caller: tt.caller, Policy: tt.policy}
			if tt.answer != "" {
				opts.Ask = k.ask
			}
			scope, err := f.h.Consent().Scope(opts)
			if err != nil {
				t.Fatal(err)
			}
			d := scope.Decide(ctx, f.c, consent.ToolRequest{Tool: toolcall.Tool{Name: tt.tool}, Arguments: []byte(tt.args)})
			if d.String() != tt.want || (len(k.asked) == 1) != tt.askedFor {
				t.Errorf("decided %q (asked %v); want %q (asked: %v)", d.String(), k.asked, tt.want, tt.askedFor)
			}
			_, err = f.c.CallTool(ctx, d)
			if d.Run != (err == nil) || (!d.Run && !errors.Is(err, fault.ErrNotApproved)) {
				t.Errorf("CallTool of a decision that runs %v: %v", d.Run, err)
			}
			if got := f.status(t, f.ids[0]); got != "active" {
				t.Fatalf("the memory is %s after %q", got, tt.name)
			}
		})
	}
}

// A decision runs once, on its own connection, and only if the gate made
// it: a spent, forged, foreign or missing one sends nothing. Every
// decision is recorded and told to the hooks.
func TestPermitRunsOnce(t *testing.T) {
	f := newGateFixture(t)
	ctx := context.Background()
	var told []consent.ToolDecision
	defer f.h.Consent().OnDecision(func(d consent.ToolDecision) { told = append(told, d) })()
	scope, err := f.h.Consent().Scope(consent.ScopeOptions{Caller: consent.CallerLab, Policy: consent.ToolsAuto})
	if err != nil {
		t.Fatal(err)
	}
	d := scope.Decide(ctx, f.c, consent.ToolRequest{Tool: toolcall.Tool{Name: "archive"}, Arguments: fmt.Appendf(nil, `{"id":%q}`, f.ids[0])})
	if _, err := f.c.CallTool(ctx, d); err != nil {
		t.Fatal(err)
	}
	if _, err := f.c.CallTool(ctx, d); !errors.Is(err, fault.ErrNotApproved) {
		t.Errorf("a spent decision ran again: %v", err)
	}
	globex := conn(t, f.h, f.c.Server, "globex")
	other := scope.Decide(ctx, f.c, consent.ToolRequest{Tool: toolcall.Tool{Name: "archive"}, Arguments: fmt.Appendf(nil, `{"id":%q}`, f.ids[1])})
	forged := &consent.Permit{ToolDecision: consent.ToolDecision{Tool: "archive", Run: true, By: consent.ApprovedAuto}}
	for name, call := range map[string]func() error{
		"on another connection": func() error { _, err := globex.CallTool(ctx, other); return err },
		"forged":                func() error { _, err := f.c.CallTool(ctx, forged); return err },
		"missing":               func() error { _, err := f.c.CallTool(ctx, nil); return err },
	} {
		if err := call(); !errors.Is(err, fault.ErrNotApproved) {
			t.Errorf("a decision %s: %v", name, err)
		}
	}
	if got := f.status(t, f.ids[1]); got != "active" {
		t.Errorf("a refused decision ran: %s", got)
	}
	// The two archives, then status's own get_memories, the host's.
	recent := f.h.Consent().Recent()
	if len(told) != 3 || len(recent) < 3 || recent[len(recent)-2].Tool != "archive" || told[0].By != consent.ApprovedAuto ||
		told[0].Server != f.c.Server.Name || told[0].Account != "acme" || told[0].Caller != consent.CallerLab ||
		told[2].Caller != consent.CallerHost || told[2].Tool != "get_memories" || told[2].Note != "memory lifecycle" {
		t.Errorf("recorded %+v, told %+v", recent, told)
	}
}
