package labrun_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/lab"
	"github.com/attache/attache/hostcore/labrun"
	"github.com/attache/attache/internal/hosttest"
)

// A conversation's memories came from acme, globex and a server-memory
// this host does not have. Replayed against acme, each attachment is read
// from its own account (globex's memory reaches the context as globex's),
// and server-memory's is a failure its warning names.
func TestRunLabOrigins(t *testing.T) {
	sc := hosttest.ThreengramMem(t)
	h := hosttest.Host(t, &hostcore.HostOptions{Cache: hosttest.Cache(t)}, sc)
	acme := hosttest.Conn(t, h, sc, "acme")
	a := "threengram://memory/" + hosttest.MemoryIDs(t, acme)[0]
	g := "threengram://memory/" + hosttest.MemoryIDs(t, hosttest.Conn(t, h, sc, "globex"))[0]
	entity := "memory://entities/deploy"
	lines := []string{
		fmt.Sprintf(`{"session":"s","turn":1,"at":"2026-11-30T10:00:00Z","user":"both","relevant":[%q,%q],"attached":[%q,%q],"origins":[{"server":%q,"account":"acme"},{"server":%q,"account":"globex"}]}`,
			a, g, a, g, sc.Name, sc.Name),
		fmt.Sprintf(`{"session":"s","turn":2,"at":"2026-11-30T10:01:00Z","user":"the entity","relevant":[%q],"attached":[%q],"origins":[{"server":"server-memory"}]}`,
			entity, entity),
		fmt.Sprintf(`{"session":"s","turn":3,"at":"2026-11-30T10:02:00Z","user":"again","relevant":[%q],"attached":[%q],"origins":[{"server":"server-memory"}]}`,
			entity, entity),
	}
	turns, err := lab.Parse(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := labrun.Run(context.Background(), acme, turns, &labrun.Options{Strategies: []lab.Strategy{lab.Host},
		Since: func(time.Time) time.Duration { return 0 }})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Strategies[0]
	if r.Reach != 1.0/3 || r.ItemReach != 2.0/4 || r.Failures != 2 || r.FailedTurns != 2 {
		t.Errorf("reach %v, item reach %v, failures %d in %d turns; want 1/3, 2/4, 2 in 2", r.Reach, r.ItemReach, r.Failures, r.FailedTurns)
	}
	want := []string{sc.Name + "/acme", sc.Name + "/globex"}
	if fmt.Sprint(rep.Replay.Servers) != fmt.Sprint(want) {
		t.Errorf("servers %v, want %v", rep.Replay.Servers, want)
	}
	if u := rep.Replay.Unusable; len(u) != 1 || u[0].Origin != "server-memory" || u[0].Turns != 2 || u[0].Reason == "" {
		t.Fatalf("unusable: %+v", u)
	}
	w := labrun.Warnings(rep)
	if len(w) != 1 || !strings.Contains(w[0], "server-memory could not be used") || !strings.Contains(w[0], "2 turns") {
		t.Errorf("warnings: %q", w)
	}
}
