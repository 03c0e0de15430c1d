package hostcore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/attache/attache/hostcore"
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
	a     hostcore.Approval
	asked []string
}

func (k *asker) ask(_ context.Context, req hostcore.ToolRequest) (hostcore.Approval, error) {
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
		caller   hostcore.Caller
		policy   hostcore.ToolPolicy
		answer   hostcore.Approval // "" gives no Ask
		tool     string
		args     string
		want     string
		askedFor bool
	}{
		{"lab default runs a read-only tool", hostcore.CallerLab, "", "", "search", `{"query":"x"}`, "ran: read-only", false},
		{"lab default refuses a write", hostcore.CallerLab, "", hostcore.ApproveOnce, "archive", archive, "not run: not read-only", false},
		{"lab ask runs read-only tools unasked", hostcore.CallerLab, hostcore.ToolsAsk, hostcore.ApproveDeny, "search", `{"query":"x"}`, "ran: read-only", false},
		{"lab ask asks before a write", hostcore.CallerLab, hostcore.ToolsAsk, hostcore.ApproveDeny, "archive", archive, "not run: denied", true},
		{"lab ask with no one to ask", hostcore.CallerLab, hostcore.ToolsAsk, "", "archive", archive, "not run: not answered", false},
		{"chat ask asks even for a read", hostcore.CallerChat, hostcore.ToolsAsk, hostcore.ApproveOnce, "search", `{"query":"x"}`, "ran: allowed once", true},
		{"chat read-only refuses a write", hostcore.CallerChat, hostcore.ToolsReadOnly, hostcore.ApproveOnce, "archive", archive, "not run: not read-only", false},
		{"chat off", hostcore.CallerChat, hostcore.ToolsOff, "", "search", `{}`, "not run: tools are off", false},
		{"a person's additive call runs", hostcore.CallerPerson, hostcore.ToolsAsk, hostcore.ApproveDeny, "remember", remember, "ran: asked for by the person", false},
		{"a person's destructive call is confirmed", hostcore.CallerPerson, hostcore.ToolsAsk, hostcore.ApproveDeny, "archive", archive, "not run: not confirmed", true},
		{"a person's destructive call, no one to confirm", hostcore.CallerPerson, hostcore.ToolsAsk, "", "archive", archive, "not run: not confirmed", false},
		{"a tool the server does not list", hostcore.CallerLab, hostcore.ToolsAuto, "", "drop_tables", `{}`, "not run: not listed by the server", false},
		{"arguments that are not an object", hostcore.CallerLab, hostcore.ToolsAuto, "", "archive", `["x"]`, "not run: arguments are not a JSON object", false},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := &asker{a: tt.answer}
			opts := hostcore.ScopeOptions{Caller: tt.caller, Policy: tt.policy}
			if tt.answer != "" {
				opts.Ask = k.ask
			}
			scope, err := f.h.Consent().Scope(opts)
			if err != nil {
				t.Fatal(err)
			}
			d := scope.Decide(ctx, f.c, hostcore.ToolRequest{Tool: hostcore.Tool{Name: tt.tool}, Arguments: []byte(tt.args)})
			if d.String() != tt.want || (len(k.asked) == 1) != tt.askedFor {
				t.Errorf("decided %q (asked %v); want %q (asked: %v)", d.String(), k.asked, tt.want, tt.askedFor)
			}
			_, err = f.c.CallTool(ctx, d)
			if d.Run != (err == nil) || (!d.Run && !errors.Is(err, hostcore.ErrNotApproved)) {
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
	var told []hostcore.ToolDecision
	defer f.h.Consent().OnDecision(func(d hostcore.ToolDecision) { told = append(told, d) })()
	scope, err := f.h.Consent().Scope(hostcore.ScopeOptions{Caller: hostcore.CallerLab, Policy: hostcore.ToolsAuto})
	if err != nil {
		t.Fatal(err)
	}
	d := scope.Decide(ctx, f.c, hostcore.ToolRequest{Tool: hostcore.Tool{Name: "archive"}, Arguments: fmt.Appendf(nil, `{"id":%q}`, f.ids[0])})
	if _, err := f.c.CallTool(ctx, d); err != nil {
		t.Fatal(err)
	}
	if _, err := f.c.CallTool(ctx, d); !errors.Is(err, hostcore.ErrNotApproved) {
		t.Errorf("a spent decision ran again: %v", err)
	}
	globex := conn(t, f.h, f.c.Server, "globex")
	other := scope.Decide(ctx, f.c, hostcore.ToolRequest{Tool: hostcore.Tool{Name: "archive"}, Arguments: fmt.Appendf(nil, `{"id":%q}`, f.ids[1])})
	forged := &hostcore.Permit{ToolDecision: hostcore.ToolDecision{Tool: "archive", Run: true, By: hostcore.ApprovedAuto}}
	for name, call := range map[string]func() error{
		"on another connection": func() error { _, err := globex.CallTool(ctx, other); return err },
		"forged":                func() error { _, err := f.c.CallTool(ctx, forged); return err },
		"missing":               func() error { _, err := f.c.CallTool(ctx, nil); return err },
	} {
		if err := call(); !errors.Is(err, hostcore.ErrNotApproved) {
			t.Errorf("a decision %s: %v", name, err)
		}
	}
	if got := f.status(t, f.ids[1]); got != "active" {
		t.Errorf("a refused decision ran: %s", got)
	}
	// The two archives, then status's own get_memories, the host's.
	recent := f.h.Consent().Recent()
	if len(told) != 3 || len(recent) < 3 || recent[len(recent)-2].Tool != "archive" || told[0].By != hostcore.ApprovedAuto ||
		told[0].Server != f.c.Server.Name || told[0].Account != "acme" || told[0].Caller != hostcore.CallerLab ||
		told[2].Caller != hostcore.CallerHost || told[2].Tool != "get_memories" || told[2].Note != "memory lifecycle" {
		t.Errorf("recorded %+v, told %+v", recent, told)
	}
}
