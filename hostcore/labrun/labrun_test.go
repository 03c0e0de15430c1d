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
	"github.com/attache/attache/internal/testbin"
)

// labReplay is four turns over two real memories of acme's and one that
// does not exist, worked out by hand below.
func labReplay(t *testing.T, a, b string) []lab.Turn {
	t.Helper()
	ua, ub := "threengram://memory/"+a, "threengram://memory/"+b
	missing := "threengram://memory/zz0000missing"
	lines := []string{
		// 1: a attached, and fetched again by the tool.
		fmt.Sprintf(`{"session":"s1","turn":1,"at":"2026-11-30T10:00:00Z","user":"what about a?","relevant":[%q],"attached":[%q],"toolCalls":[{"name":"get_memories","arguments":{"ids":[%q]}}]}`, ua, ua, a),
		// 2: a still attached (inherited); b and a missing one needed, fetched.
		fmt.Sprintf(`{"session":"s1","turn":2,"at":"2026-11-30T10:01:00Z","user":"and b?","relevant":[%q,%q],"toolCalls":[{"name":"get_memories","arguments":{"ids":[%q,"zz0000missing"]}}]}`, ub, missing, b),
		// 3: nothing needed; a search.
		`{"session":"s1","turn":3,"at":"2026-11-30T10:02:00Z","user":"thanks","relevant":[],"attached":[],"toolCalls":[{"name":"search","arguments":{"query":"deploy"}}]}`,
		// 4: a needed and attached; the call fails (ids is not a list).
		fmt.Sprintf(`{"session":"s1","turn":4,"at":"2026-11-30T10:03:00Z","user":"a again","relevant":[%q],"attached":[%q],"toolCalls":[{"name":"get_memories","arguments":{"ids":5}}]}`, ua, ua),
	}
	turns, err := lab.Parse(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	return turns
}

func TestRunLab(t *testing.T) {
	h := hosttest.Host(t, &hostcore.HostOptions{Cache: hosttest.Cache(t)})
	c := hosttest.Conn(t, h, hosttest.ThreengramMem(t), "acme")
	ids := hosttest.MemoryIDs(t, c)
	turns := labReplay(t, ids[0], ids[1])
	var progress []int
	rep, err := labrun.Run(context.Background(), c, turns, &labrun.Options{
		Since:    func(time.Time) time.Duration { return 0 },
		Progress: func(done, total int) { progress = append(progress, done*100+total) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(progress) != 12 || progress[11] != 1212 {
		t.Errorf("progress: %v", progress)
	}
	byName := map[lab.Strategy]lab.Result{}
	for _, r := range rep.Strategies {
		byName[r.Strategy] = r
	}
	// Relevant turns 1, 2, 4 (3 needs nothing); relevant items 1 + 2 + 1.
	// host: 1 and 4 reached; 2 needs b, not attached. Items a, a.
	// tool: 1 reached; 2 gets b, not the missing one; 4's call fails.
	// both: 1 (twice: a duplicate) and 4 reached; 2 gets b only.
	type figures struct {
		Reach, ItemReach, Dup float64
		Failures              int
	}
	want := map[lab.Strategy]figures{
		lab.Host: {2.0 / 3, 2.0 / 4, 0, 0},
		lab.Tool: {1.0 / 3, 2.0 / 4, 0, 1},
		lab.Both: {2.0 / 3, 3.0 / 4, 1.0 / 4, 1},
	}
	for s, w := range want {
		r := byName[s]
		got := figures{r.Reach, r.ItemReach, r.DuplicateRate, r.Failures}
		if got != w {
			t.Errorf("%s: got %+v, want %+v", s, got, w)
		}
		if r.RelevantTurns != 3 || r.RelevantItems != 4 || r.Turns != 4 {
			t.Errorf("%s: denominators %+v", s, r)
		}
	}
	// The host reads a once from the server; turns 2 and 4 find it in the
	// cache. The tool lists once and calls four times.
	if r := byName[lab.Host]; r.CacheHits != 2 || r.RoundTrips != 1 || r.ListingTokensPerRequest != 0 || r.Requests != 4 {
		t.Errorf("host: %+v", r)
	}
	if r := byName[lab.Tool]; r.CacheHits != 0 || r.RoundTrips != 5 || r.Requests != 8 {
		t.Errorf("tool: %+v", r)
	}
	listing := float64(rep.Replay.ListingTokens)
	for _, s := range []lab.Strategy{lab.Tool, lab.Both} {
		if r := byName[s]; r.ListingTokensPerRequest != listing || r.ListingShare <= 0 || r.ListingShare >= 1 {
			t.Errorf("%s: listing %v a request (want %v), share %v", s, r.ListingTokensPerRequest, listing, r.ListingShare)
		}
	}
	if listing == 0 || !strings.Contains(strings.Join(rep.Replay.Tools, ","), "get_memories") {
		t.Errorf("the listing: %+v", rep.Replay)
	}
	if byName[lab.Both].ContextTokensPerTurn <= byName[lab.Host].ContextTokensPerTurn {
		t.Errorf("both should cost more context than host: %+v", rep.Strategies)
	}
	// A second run reads the same, whatever the cache now holds.
	again, err := labrun.Run(context.Background(), c, turns, &labrun.Options{Since: func(time.Time) time.Duration { return 0 }})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(again.Strategies) != fmt.Sprint(rep.Strategies) {
		t.Errorf("a second run differs:\n%v\n%v", again.Strategies, rep.Strategies)
	}
}

// A live run asks the model and makes the calls it asks for.
func TestRunLabLive(t *testing.T) {
	h := hosttest.Host(t, &hostcore.HostOptions{Cache: hosttest.Cache(t)})
	c := hosttest.Conn(t, h, hosttest.ThreengramMem(t), "acme")
	ids := hosttest.MemoryIDs(t, c)
	turns := labReplay(t, ids[0], ids[1])[:2]
	// Turn 1: the model fetches b (not what it needs), then answers; turn 2:
	// it answers at once.
	m := (&hosttest.ScriptModel{}).Then(hosttest.CallTool("get_memories", fmt.Sprintf(`{"ids":[%q]}`, ids[1])), hosttest.Say("done"), hosttest.Say("no tools"))
	rep, err := labrun.Run(context.Background(), c, turns, &labrun.Options{
		Strategies: []lab.Strategy{lab.Tool}, Model: m, ModelName: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Strategies[0]
	if r.Reach != 0 || r.ItemReach != 0 || r.Requests != 3 || rep.Replay.Live != "scripted" {
		t.Errorf("live: %+v %+v", rep.Replay, r)
	}
	sent := m.Sent()
	if len(sent) != 3 || len(sent[0].Tools) == 0 || !strings.Contains(sent[1].Messages[2].Text, ids[1]) {
		t.Errorf("requests: %+v", sent)
	}
}

func TestMain(m *testing.M) { testbin.Main(m) }
