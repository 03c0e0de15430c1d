package ctl

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore/labrun"
)

// A replay whose attachments came from demo/acme, demo/globex and a
// server-memory this host does not have, run against the demo server
// (threengram, real, over stdio): the table has a FAILURES column and
// intervals, stderr names server-memory, and --json says the same.
func TestLabRunOrigins(t *testing.T) {
	env := privateEnv(t)
	m := "threengram://memory/ms146t41nz" // acme's, in the bundled corpus
	replay := `{"session":"s","turn":1,"at":"2026-11-30T10:00:00Z","user":"acme's","relevant":["` + m + `"],"attached":["` + m + `"],"origins":[{"server":"demo","account":"acme"}]}
{"session":"s","turn":2,"at":"2026-11-30T10:01:00Z","user":"globex's","relevant":["` + m + `"],"attached":["` + m + `"],"origins":[{"server":"demo","account":"globex"}]}
{"session":"s","turn":3,"at":"2026-11-30T10:02:00Z","user":"the entity","relevant":["memory://entities/x"],"attached":["memory://entities/x"],"origins":[{"server":"server-memory"}]}
`
	file := filepath.Join(t.TempDir(), "turns.jsonl")
	if err := os.WriteFile(file, []byte(replay), 0o644); err != nil {
		t.Fatal(err)
	}
	r := must(t, env, "lab", "run", file, "--server", "demo", "--strategies", "host")
	lines := strings.Split(r.stdout, "\n")
	var head, host string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "STRATEGY"):
			head = l
		case strings.HasPrefix(l, "host "):
			host = l
		}
	}
	cols := strings.Fields(strings.ReplaceAll(head, " (95% CI)", ""))
	if len(cols) < 2 || cols[len(cols)-2] != "FAILURES" {
		t.Fatalf("no FAILURES column: %q\n%s", head, r.stdout)
	}
	// globex has no memory of that id: turns 2 and 3 fail, 1 reaches.
	if !regexp.MustCompile(`^host +3 +33\.3% \(6\.1–79\.2\) `).MatchString(host) || strings.Fields(host)[len(strings.Fields(host))-2] != "2" {
		t.Errorf("the host row: %q", host)
	}
	if !strings.Contains(r.stdout, "each attachment replayed against its own server: demo/acme, demo/globex") {
		t.Errorf("stdout does not say which servers were used:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "warning: server-memory could not be used") || !strings.Contains(r.stderr, "1 turn ") {
		t.Errorf("stderr: %q", r.stderr)
	}
	var rep labrun.Report
	j := must(t, env, "lab", "run", file, "--server", "demo", "--strategies", "host", "--json")
	if err := jsonUnmarshal(j.stdout, &rep); err != nil {
		t.Fatal(err)
	}
	s := rep.Strategies[0]
	if s.Failures != 2 || s.FailedTurns != 2 || s.ReachInterval.High < 0.79 || s.ReachInterval.Low > 0.07 ||
		len(rep.Replay.Unusable) != 1 || rep.Replay.Unusable[0].Origin != "server-memory" {
		t.Errorf("--json: %+v %+v", s, rep.Replay)
	}
	if !strings.Contains(j.stdout, `"failures": 2`) || !strings.Contains(j.stderr, "server-memory") {
		t.Errorf("--json output lacks the failures field or the warning:\n%s\n%s", j.stdout, j.stderr)
	}
}
