// Command emptywindow is the floor of the app's first frame: an empty Fyne
// window with one label, measured exactly as attache --measure-startup
// measures its own (internal/startup: the same clock from the process's
// start, the same probe over the window, the same report). It prints
// "first frame: N ms after launch" and quits. scripts/bench-startup.sh runs
// it interleaved with the app.
package main

import (
	"log/slog"
	"os"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/internal/startup"
)

func main() {
	start := time.Now()
	timing := startup.New(start, slog.New(slog.DiscardHandler))
	fa := app.New()
	w := fa.NewWindow("Empty")
	w.SetContent(timing.Wrap(widget.NewLabel("An empty window"))) // as the app does (ui.Options.WrapContent)
	w.Resize(fyne.NewSize(1280, 800))
	timing.Watch(fa, w)
	timing.AfterFirstFrame(timing.Ready) // nothing else to be ready
	go func() {
		timing.Report(os.Stdout)
		// As the app does: exit without closing the window, which Fyne
		// 2.7's GLFW driver can crash on while Xvfb's pointer rests on it.
		os.Exit(0)
	}()
	w.ShowAndRun()
}
