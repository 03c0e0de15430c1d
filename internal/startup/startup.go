// Package startup measures an app's start: the time from the process's
// start (as the kernel saw it, where it can tell) to the first frame its
// window shows, and to its first screen being ready, with named marks in
// between. The app (internal/desktop) and its floor, an empty Fyne window
// (internal/startup/emptywindow), measure their first frames through it,
// so that the two figures are taken exactly the same way.
package startup

import (
	"errors"
	"fmt"
	"image"
	"io"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"

	"github.com/attache/attache/internal/proctime"
)

// Timing measures the time from the process's start (as the kernel saw it,
// where it can tell: see proctime.Start) to the first frame the window shows,
// and to the first screen being ready (its server's catalog listed and the
// conversation loaded). A frame is seen through a one-pixel transparent
// raster laid over the window: the painter calls its generator while it
// paints a frame. The frame is shown once the painter has swapped it onto
// the screen: Fyne paints the first frame inside Window.Show, swaps it, and
// only then starts its loop, whose first act is the app's OnStarted; a
// frame painted later is shown by the time a function queued from its
// paint runs.
//
// It also runs what waits for the first frame (AfterFirstFrame), so that
// the first paint needs only what it shows.
type Timing struct {
	start    time.Time
	fromExec bool // start is the process's start, not main's
	log      *slog.Logger
	probe    *canvas.Raster

	frames     atomic.Int64
	painted    chan struct{} // a token each time the probe is painted, for waitFrame
	firstFrame chan struct{}
	readyCh    chan struct{}
	paintOnce  sync.Once
	shownOnce  sync.Once
	readyOnce  sync.Once
	paintedAt  time.Duration
	frameAt    time.Duration
	readyAt    time.Duration
	// frameThreadCPU and frameCPU are the CPU time of the window's thread
	// and of the process when the first frame was shown (cpuOK: known).
	frameThreadCPU, frameCPU time.Duration
	cpuOK                    bool
	// frameAllocs and frameAllocBytes are the heap allocations made until
	// the first frame was shown.
	frameAllocs, frameAllocBytes uint64
	// after is what waits for the first frame, released once it has been
	// run; both are used on the main goroutine only.
	after    []func()
	released bool
	wrapped  bool // Wrap laid the probe over the content

	phaseMu sync.Mutex
	phases  []phase
}

// phase is a named moment of the start-up, after the process's start, with
// the CPU time of the thread that marked it.
type phase struct {
	name string
	at   time.Duration
	cpu  time.Duration
}

// New measures from the process's start where the kernel can tell
// it, else from mainStart.
func New(mainStart time.Time, log *slog.Logger) *Timing {
	s := &Timing{start: mainStart, log: log, firstFrame: make(chan struct{}), readyCh: make(chan struct{}),
		painted: make(chan struct{}, 1)}
	if t, ok := proctime.Start(); ok && t.Before(mainStart) {
		s.start, s.fromExec = t, true
	}
	s.probe = canvas.NewRaster(func(int, int) image.Image {
		s.frames.Add(1)
		select {
		case s.painted <- struct{}{}:
		default:
		}
		s.paintOnce.Do(func() {
			s.paintedAt = time.Since(s.start)
			go fyne.Do(s.shown) // a frame painted in Fyne's loop; see Timing
		})
		return image.NewNRGBA(image.Rect(0, 0, 1, 1))
	})
	return s
}

// Mark records that the named part of the start-up has ended: logged with
// -v, printed by Report. It may be called from any goroutine.
func (s *Timing) Mark(name string) {
	p := phase{name: name, at: time.Since(s.start)}
	p.cpu, _, _ = proctime.CPUTimes()
	s.log.Info("start-up", "done", name, "after", p.at)
	s.phaseMu.Lock()
	s.phases = append(s.phases, p)
	s.phaseMu.Unlock()
}

// Wrap lays the probe over content, for a window that has not yet been
// given its content: the window then lays its content out once. Watch
// wraps a content that was set without it, which lays the whole window
// out again (twice: at its least size, then at the window's).
func (s *Timing) Wrap(content fyne.CanvasObject) fyne.CanvasObject {
	s.probe.Resize(fyne.NewSquareSize(1))
	s.wrapped = true
	return container.NewStack(content, container.NewWithoutLayout(s.probe))
}

// Watch lays the probe over the window's content, unless Wrap did, and
// looks for the first frame when Fyne's loop starts.
func (s *Timing) Watch(fa fyne.App, w fyne.Window) {
	if !s.wrapped {
		w.SetContent(s.Wrap(w.Content()))
	}
	fa.Lifecycle().SetOnStarted(func() {
		if s.frames.Load() > 0 {
			s.shown()
			return
		}
		// No frame yet (Fyne always paints one in Show; this is in case
		// a driver does not): the work that waits for it starts anyway.
		time.AfterFunc(firstFrameWait, func() { fyne.Do(s.release) })
	})
}

// firstFrameWait is how long the work waiting for the first frame waits
// past the start of Fyne's loop when no frame has come.
const firstFrameWait = time.Second

// shown is called on the main goroutine once the first frame is on the
// screen. It runs what waits for it.
func (s *Timing) shown() {
	s.shownOnce.Do(func() {
		s.frameAt = time.Since(s.start)
		s.frameThreadCPU, s.frameCPU, s.cpuOK = proctime.CPUTimes()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		s.frameAllocs, s.frameAllocBytes = m.Mallocs, m.TotalAlloc
		s.log.Info("first frame", "after", s.frameAt, "painted after", s.paintedAt)
		close(s.firstFrame)
		s.release()
	})
}

// release runs, on the main goroutine, what waits for the first frame.
func (s *Timing) release() {
	s.released = true
	after := s.after
	s.after = nil
	for _, f := range after {
		f()
	}
}

// AfterFirstFrame runs f on the main goroutine once the first frame is on
// the screen (at once if it is already). It is ui.Options.AfterFirstFrame.
// Call it on the main goroutine.
func (s *Timing) AfterFirstFrame(f func()) {
	if s.released {
		f()
		return
	}
	s.after = append(s.after, f)
}

// Ready is ui.Options.Ready: the first screen shows its server's catalog
// and the conversation.
func (s *Timing) Ready() {
	s.readyOnce.Do(func() {
		s.readyAt = time.Since(s.start)
		s.log.Info("first screen ready", "after", s.readyAt)
		close(s.readyCh)
	})
}

// Report waits for both moments and prints them, then the parts of the
// start-up that were marked.
func (s *Timing) Report(out io.Writer) {
	<-s.firstFrame
	<-s.readyCh
	from := "launch"
	if !s.fromExec {
		from = "main" // the process's start is unknown here
	}
	fmt.Fprintf(out, "first frame: %d ms after %s\nready (catalog listed, conversation loaded): %d ms after %s\n",
		s.frameAt.Milliseconds(), from, s.readyAt.Milliseconds(), from)
	fmt.Fprintf(out, "  first frame painted: %.1f ms\n", ms(s.paintedAt))
	fmt.Fprintf(out, "  heap allocations until the first frame: %d (%.1f MB)\n", s.frameAllocs, float64(s.frameAllocBytes)/(1<<20))
	if s.cpuOK {
		fmt.Fprintf(out, "  CPU until the first frame: %.1f ms on the window's thread, %.1f ms in all\n", ms(s.frameThreadCPU), ms(s.frameCPU))
	}
	s.phaseMu.Lock()
	defer s.phaseMu.Unlock()
	for _, p := range s.phases {
		fmt.Fprintf(out, "  %s: %.1f ms (thread CPU %.1f ms)\n", p.name, ms(p.at), ms(p.cpu))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// NextFrame waits until the window has painted a frame that began after the
// call, or timeout.
func (s *Timing) NextFrame(timeout time.Duration) error {
	n := s.frames.Load()
	fyne.Do(func() { s.probe.Refresh() }) // the next paint must regenerate it
	deadline := time.Now().Add(timeout)
	for s.frames.Load() == n {
		if time.Now().After(deadline) {
			return errors.New("no frame was painted")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

// WaitFrame waits, without polling, until the window has painted a frame
// that began after the call, or timeout: for measures that time frames.
func (s *Timing) WaitFrame(timeout time.Duration) error {
	select {
	case <-s.painted: // a frame painted before the call
	default:
	}
	fyne.Do(func() { s.probe.Refresh() })
	select {
	case <-s.painted:
		return nil
	case <-time.After(timeout):
		return errors.New("no frame was painted")
	}
}

// ReadyCh is closed once Ready has been called.
func (s *Timing) ReadyCh() <-chan struct{} { return s.readyCh }

// Frames counts the frames the window has painted.
func (s *Timing) Frames() int64 { return s.frames.Load() }

// Repaint asks for a frame; call it on the main goroutine (fyne.Do).
func (s *Timing) Repaint() { s.probe.Refresh() }
