package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/testbin"
)

// During a slow read the inspector shows the new uri over a body that says
// it is being read, never over the previous read's body and badge; Cancel
// says the read was canceled.
func TestSlowReadClearsThePrevious(t *testing.T) {
	h := &harness{t: t, fa: test.NewTempApp(t), dir: t.TempDir()}
	h.extra = []config.ServerConfig{{Name: "slow", Title: "slow", Source: "builtin",
		Command: testbin.Build(t, "internal/mcptest/mcptestd"), Args: []string{"--mode", mcptest.ModeSlow, "--delay", "5s", "--stdio"}}}
	h.open()
	id := h.memoryIDs("acme", "m5", 1)[0]
	in := h.app.inspector
	h.do(func() { h.app.ReadID(id) })
	h.settle()
	var before fyne.CanvasObject
	h.do(func() { before = in.body.Objects[0] })
	if !strings.Contains(in.badge.Text, "MISS") {
		t.Fatalf("the first read shows %q", in.badge.Text)
	}
	slow, err := h.host.Conn("slow", "")
	if err != nil {
		t.Fatal(err)
	}
	h.do(func() { in.read(readRequest{conn: slow, uri: "test://slow/1"}) })
	h.waitFor("the slow read to start", func() bool { var r bool; h.do(func() { r = in.progress.Visible() }); return r })
	time.Sleep(50 * time.Millisecond) // let anything that would draw the old body draw
	h.do(func() {
		body := texts(in.body)
		if in.uri.Text != "test://slow/1" || strings.Contains(in.badge.Text, "MISS") || in.body.Objects[0] == before ||
			!strings.Contains(body, "Reading test://slow/1") {
			t.Errorf("during the slow read: uri %q, badge %q, body:\n%s", in.uri.Text, in.badge.Text, body)
		}
		if text, kept := in.bodyViewer().Text(); kept || in.bodyViewer().text.doc.text != "" || len(in.bodyViewer().md.doc.blocks) != 0 {
			t.Errorf("during the slow read the viewer still holds the previous body (%d bytes)", len(text))
		}
		test.Tap(findButton(h.app.Window().Canvas(), "Cancel"))
	})
	h.settle()
	h.do(func() {
		if body := texts(in.body); !strings.Contains(body, "was canceled") || in.progress.Visible() {
			t.Errorf("after Cancel the body says:\n%s", body)
		}
	})
}
