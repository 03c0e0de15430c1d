package ctl

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore/models"
)

// With no provider in the config, the demo model is there: providers
// lists it as built in and needing no key, and send --provider demo
// answers from the attached memory (quoted), or, asked about what is not
// attached, searches the demo server with --tools read-only (the search
// is read-only, so the gate runs it) and quotes what it found; turns names
// it "demo model (offline, scripted)".
func TestSendWithTheDemoModel(t *testing.T) {
	env := privateEnv(t)
	r := must(t, env, "providers")
	if !strings.Contains(r.stdout, "demo (built in)") || !strings.Contains(r.stdout, models.DemoModelName) ||
		!strings.Contains(r.stdout, "none needed") {
		t.Errorf("providers:\n%s", r.stdout)
	}
	var rows []providerRow
	if err := json.Unmarshal([]byte(must(t, env, "providers", "--json").stdout), &rows); err != nil || len(rows) != 1 ||
		rows[0].Kind != models.Demo || !rows[0].Builtin {
		t.Errorf("providers --json = %+v, %v", rows, err)
	}
	must(t, env, "context", "new", "Launch prep")
	must(t, env, "attach", "Launch prep", "demo", "--account", "acme", "--id", "m9caykqgjw")

	r = must(t, env, "send", "Launch prep", "What did we decide about the API gateway?", "--provider", "demo", "--tools", "read-only")
	if !strings.Contains(r.stdout, "From the memory threengram://memory/m9caykqgjw") ||
		!strings.Contains(r.stdout, "our API gateway was rewritten to use the p99 latency budget") {
		t.Errorf("send's answer:\n%s\nstderr: %s", r.stdout, r.stderr)
	}
	r = must(t, env, "send", "Launch prep", "What happened to the nightly export?", "--provider", "demo", "--tools", "read-only")
	if !strings.Contains(r.stderr, `→ demo/search {"query":"nightly"}`) || !strings.Contains(r.stdout, "so I called search") ||
		!strings.Contains(r.stdout, "nightly export") {
		t.Errorf("send's answer:\n%s\nstderr: %s", r.stdout, r.stderr)
	}
	text := must(t, env, "turns", "Launch prep").stdout
	if !strings.Contains(text, "turn 1 · done · "+models.DemoModelName+" · ") || !strings.Contains(text, "consent for search") {
		t.Errorf("turns:\n%s", text)
	}
	if r := ctl(t, env, "providers", "set-key", "demo"); r.code != 2 || !strings.Contains(r.stderr, "needs no key") {
		t.Errorf("set-key demo: exit %d, %s", r.code, r.stderr)
	}
}
