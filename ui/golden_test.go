package ui

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the markup goldens in testdata/")

// A screen's golden is its markup (Fyne's test renderer: every object, its
// position, size and text). A server's process id is the one thing that
// differs between runs; it is written as "pid N", and the size of the text
// that holds it is left out, since it depends on the digits.
var (
	volatile = regexp.MustCompile(`<text[^>]*>[^<]*pid \d+[^<]*</text>`)
	sizeAttr = regexp.MustCompile(` size="[^"]*"`)
	pid      = regexp.MustCompile(`pid \d+`)
)

func redact(markup string) string {
	return volatile.ReplaceAllStringFunc(markup, func(s string) string {
		return pid.ReplaceAllString(sizeAttr.ReplaceAllString(s, ""), "pid N")
	})
}

// assertMarkup compares o's markup with testdata/name, or rewrites it with
// -update. It renders o on a canvas of its own, so call it when the test is
// done with o's window.
func assertMarkup(t *testing.T, name string, o fyne.CanvasObject) {
	t.Helper()
	mainMu.Lock()
	defer mainMu.Unlock()
	raw := test.RenderObjectToMarkup(o)
	got := redact(raw)
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got == raw { // nothing to redact: Fyne's own assertion
		test.AssertObjectRendersToMarkup(t, name, o)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui -update to write it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		failed := filepath.Join("testdata", "failed", name)
		os.MkdirAll(filepath.Dir(failed), 0o755)
		os.WriteFile(failed, []byte(got), 0o644)
		t.Errorf("%s differs from its golden (-want +got, all of it in %s):\n%s", name, failed, diff)
	}
}
