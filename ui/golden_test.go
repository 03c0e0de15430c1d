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
// position, size and text). What differs between runs is written as a
// placeholder, and the size of the text that holds it is left out, since
// it depends on the digits: a server's process id ("pid N"), the port of a
// loopback HTTP server ("127.0.0.1:PORT"), and the time of day an access
// token expires, which golang.org/x/oauth2 stamps on the real clock
// ("until HH:MM").
var (
	volatile = regexp.MustCompile(`<text[^>]*>[^<]*(pid \d+|127\.0\.0\.1:\d+|until \d\d:\d\d)[^<]*</text>`)
	sizeAttr = regexp.MustCompile(` size="[^"]*"`)
	pid      = regexp.MustCompile(`pid \d+`)
	port     = regexp.MustCompile(`127\.0\.0\.1:\d+`)
	clock    = regexp.MustCompile(`until \d\d:\d\d`)
)

func redactMarkup(markup string) string {
	return volatile.ReplaceAllStringFunc(markup, func(s string) string {
		s = pid.ReplaceAllString(sizeAttr.ReplaceAllString(s, ""), "pid N")
		s = port.ReplaceAllString(s, "127.0.0.1:PORT")
		return clock.ReplaceAllString(s, "until HH:MM")
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
	got := redactMarkup(raw)
	if *update || got != raw {
		compareGolden(t, name, got)
		return
	}
	test.AssertObjectRendersToMarkup(t, name, o) // nothing to redact: Fyne's own assertion
}

// assertMarkupAt is assertMarkup for an object rendered at width, the
// width of the column it lives in. Fyne's test canvas first lays an object
// out at its minimum size, where a wrapped label wraps at every word and
// learns a height it then keeps; a canvas of the column's width from the
// start shows what the window shows.
func assertMarkupAt(t *testing.T, name string, o fyne.CanvasObject, width float32) {
	t.Helper()
	mainMu.Lock()
	c := test.NewCanvas()
	c.SetPadded(false)
	c.Resize(fyne.NewSize(width, 1))
	c.SetContent(o)
	got := redactMarkup(test.RenderToMarkup(c))
	mainMu.Unlock()
	compareGolden(t, name, got)
}

// compareGolden compares got with testdata/name, or rewrites it with
// -update.
func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
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
