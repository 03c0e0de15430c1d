// Command scrollfloor is the floor of the body viewer's scrolling: a bare
// Fyne window of the app's size (1280×800) holding only Fyne's own
// virtualized widget.List of the 1 MiB text body's lines (mcptest's, as
// the app's scroll measure shows it), scrolled the way attache-scenes
// --scenario measure-scroll scrolls the app's viewer: paced, a step
// queued once the last frame is painted (internal/startup's probe counts
// them), for 2 s. It prints, in bench-viewer.sh's form, the frames a second
// and the window thread's CPU a frame with a step of 0 (only repaint: the
// floor of any frame of this window) and of 40 px, and quits.
package main

import (
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/proctime"
	"github.com/attache/attache/internal/startup"
)

const (
	scrollFor  = 2 * time.Second
	scrollStep = 40
)

func main() {
	_, text, _, err := mcptest.Body(mcptest.BodyText, 1<<20)
	if err != nil {
		fmt.Fprintln(os.Stderr, "scrollfloor:", err)
		os.Exit(1)
	}
	lines := strings.Split(text, "\n")
	list := widget.NewList(func() int { return len(lines) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.TextStyle.Monospace = true
			l.Truncation = fyne.TextTruncateClip
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(lines[i]) })
	timing := startup.New(time.Now(), slog.New(slog.DiscardHandler))
	fa := app.New()
	w := fa.NewWindow("Scroll floor")
	w.SetContent(timing.Wrap(list))
	w.Resize(fyne.NewSize(1280, 800))
	timing.Watch(fa, w)
	timing.AfterFirstFrame(timing.Ready)
	go func() {
		<-timing.ReadyCh()
		for _, step := range []float32{0, scrollStep} {
			frames, cpu, took, err := scroll(timing, list, step)
			if err != nil {
				fmt.Fprintln(os.Stderr, "scrollfloor:", err)
				os.Exit(1)
			}
			fmt.Printf("measure scroll-paced bare-list/text-1m step %v fps %.1f cpu-ms-per-frame %.2f\n", step,
				float64(frames)/took.Seconds(), float64(cpu.Microseconds())/1000/float64(max(frames, 1)))
		}
		os.Exit(0) // as emptywindow does: not closing the window, which Fyne's GLFW driver can crash on
	}()
	w.ShowAndRun()
}

// scroll moves the list down by step once each frame is painted, for
// scrollFor, and counts the frames, the window thread's CPU and the time.
func scroll(timing *startup.Timing, list *widget.List, step float32) (frames int64, cpu, took time.Duration, err error) {
	mainCPU := func() (c time.Duration) {
		fyne.DoAndWait(func() { c, _, _ = proctime.CPUTimes() })
		return c
	}
	off := float32(0)
	cpu0, f0, t0 := mainCPU(), timing.Frames(), time.Now()
	for end := t0.Add(scrollFor); time.Now().Before(end); {
		fyne.Do(func() {
			if step != 0 {
				off += step
				list.ScrollToOffset(off)
				if list.GetScrollOffset() < off { // the end: back to the top
					off = 0
					list.ScrollToOffset(0)
				}
			}
			timing.Repaint()
		})
		if err := timing.WaitFrame(10 * time.Second); err != nil {
			return 0, 0, 0, err
		}
	}
	return timing.Frames() - f0, mainCPU() - cpu0, time.Since(t0), nil
}
