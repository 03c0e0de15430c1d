package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/models"
)

// A first launch opens on the demo conversation, its three memories
// attached; Send opens its window with the demo model picked and the
// demo's question typed, and Send there answers with the demo model,
// quoting the attached memory that answers, with its usage.
func TestDemoConversationAnswersAtOnce(t *testing.T) {
	h := &harness{t: t, fa: test.NewTempApp(t), dir: t.TempDir(), demo: true}
	h.open()
	var title string
	var attached int
	h.do(func() { title, attached = h.app.sh.conv.Title, len(h.app.attachments.atts) })
	if title != hostcore.DemoConversationTitle || attached != 3 {
		t.Fatalf("first launch opened %q with %d attachments, want %q with 3", title, attached, hostcore.DemoConversationTitle)
	}
	c := h.openChat()
	var entry string
	var picked []string
	h.do(func() { entry, picked = c.entry.Text, c.providers.Options })
	if entry != hostcore.DemoQuestion || len(picked) != 1 || picked[0] != models.DemoModelName {
		t.Fatalf("the window offers %q to %v, want %q to the demo model", entry, picked, hostcore.DemoQuestion)
	}
	h.do(func() { test.Tap(c.send) })
	got := h.waitText(c, "provider reported")
	h.waitFor("the turn to end", func() bool { var r bool; h.do(func() { r = !c.turn.running() }); return r })
	got = h.transcript(c)
	for _, want := range []string{"From the memory threengram://memory/m9caykqgjw",
		"our API gateway was rewritten to use the p99 latency budget", "Turn 1 · done · " + models.DemoModelName + " · "} {
		if !strings.Contains(got, want) {
			t.Errorf("the conversation lacks %q:\n%s", want, got)
		}
	}
}
