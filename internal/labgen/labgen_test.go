package main

import (
	"bytes"
	"testing"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/hostcore/lab"
)

// The bundled replay is what the generator writes: regenerate it with
// go generate ./assets when either changes.
func TestBundledReplayIsGenerated(t *testing.T) {
	out, err := Generate(assets.Corpus)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, assets.Replay) {
		t.Fatal("assets/replay.jsonl is not what labgen writes: run go generate ./assets")
	}
	again, _ := Generate(assets.Corpus)
	if !bytes.Equal(out, again) {
		t.Fatal("labgen is not deterministic")
	}
	turns, err := lab.Parse(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) < 240 {
		t.Errorf("%d turns, want at least 240", len(turns))
	}
	var inherited, none, calls int
	for _, l := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		if !bytes.Contains(l, []byte(`"attached"`)) {
			inherited++
		}
	}
	for _, tr := range turns {
		if len(tr.Relevant) == 0 {
			none++
		}
		calls += len(tr.ToolCalls)
	}
	if inherited == 0 || none == 0 || calls == 0 {
		t.Errorf("the replay should exercise inherited attachments (%d), turns needing nothing (%d) and calls (%d)", inherited, none, calls)
	}
}
