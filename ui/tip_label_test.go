package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
)

// A ranking reason cut to its row shows whole in a tooltip while the
// pointer rests on it, and the tooltip goes when the pointer leaves; a
// reason that fits shows none.
func TestReasonTooltip(t *testing.T) {
	test.NewTempApp(t)
	openWindows.Add(1) // as an App's window is: deliver drops work when none is open
	defer openWindows.Add(-1)
	long := "included over budget: priority 1 is required; needs 70 tokens, 35 left of 100 · priority 1 (required)"
	l := newTipLabel()
	l.SetText(long)
	w := test.NewWindow(l)
	defer w.Close()
	w.Resize(fyne.NewSize(200, 60))
	do := func(f func()) { mainMu.Lock(); defer mainMu.Unlock(); f() } // as the main goroutine, one at a time with deliver
	overlay := func() fyne.CanvasObject {
		var o fyne.CanvasObject
		do(func() { o = w.Canvas().Overlays().Top() })
		return o
	}
	wait := func(what string, cond func() bool) {
		deadline := time.Now().Add(5 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if !l.cut() {
		t.Fatal("a 100-character reason fits 200 pixels")
	}
	do(func() { l.MouseIn(&desktop.MouseEvent{}) })
	wait("the tooltip", func() bool { return overlay() != nil })
	if got := texts(overlay()); !strings.Contains(got, long) {
		t.Errorf("the tooltip says %q, want the whole reason", got)
	}
	do(l.MouseOut)
	if overlay() != nil {
		t.Error("the tooltip outlived the pointer")
	}
	do(func() { l.SetText("included: 12 tokens"); l.showTip(fyne.NewPos(0, 0)) }) // what the rest would do
	if overlay() != nil {
		t.Error("a reason that fits got a tooltip")
	}
}
