package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/internal/proctime"
	"github.com/attache/attache/ui"
)

// The measure-body scene measures, in the real window, what showing a body
// costs the window's thread: for each body of measuredBodies (served by
// "bodies", mcptestd --mode bodies), read first to warm the cache, then
// measureRuns times, after a tiny body, the read again (a cache hit) until
// the frame that shows it is painted: the wall time, and the CPU time of
// the window's thread (proctime.CPUTimes on Fyne's main goroutine), which
// includes the read's start, the result's delivery, the layout and that
// frame's paint. The tiny body itself is measured the same way, as the
// floor ("read-and-show"). Then the same body's landing alone ("show"):
// read through the host and prepared on the script's goroutine, as a
// read's goroutine does, then shown in the inspector, timed from there to
// the painted frame: the window thread's part of showing a body, without
// the frames the progress bar paints while the read runs. Then it scrolls shown bodies for a while, a step each 60th of a
// second, and counts the frames painted and the thread's CPU a frame,
// beside the same loop that only repaints (the floor of a frame).
// scripts/bench-viewer.sh runs it and sums the lines up.
func init() {
	scenarios["measure-body"] = measureBody
	scenarios["measure-scroll"] = func(s *script) error { // the scrolls of measure-body alone
		if err := s.readBody(bodyURI(floorBodyPath)); err != nil {
			return err
		}
		return measureScroll(s)
	}
}

var measuredBodies = []string{"text/200", "text/40k", "json/40k", "text/1m", "json/1m", "markdown/1m", "html/1m"}

const (
	measureRuns   = 5
	scrollFor     = 2 * time.Second
	scrollStep    = 40 // pixels a frame: a brisk wheel
	floorBodyPath = "text/200"
)

func measureBody(s *script) error {
	if err := s.readBody(bodyURI(floorBodyPath)); err != nil {
		return err
	}
	if err := s.settle(); err != nil {
		return err
	}
	for _, b := range measuredBodies {
		if err := s.measureShows(b); err != nil {
			return err
		}
	}
	return measureScroll(s)
}

// measureScroll scrolls the 1 MiB text and Markdown bodies, each way
// (see timeScroll), with a step of 0 (only repaint: the floor) and of
// scrollStep, and prints the frames painted a second and the window
// thread's CPU a frame. With ATTACHE_SCROLL_PROFILE set, it writes a CPU
// profile of each paced scroll to that file plus the body's name and step.
func measureScroll(s *script) error {
	for _, b := range []string{"text/1m", "markdown/1m"} {
		if err := s.showOnce(bodyURI(b)); err != nil {
			return err
		}
		for _, paced := range []bool{false, true} {
			for _, step := range []float32{0, scrollStep} {
				stop := startProfile(paced, fmt.Sprintf("%s-step%v", b, step))
				frames, cpu, took, err := s.timeScroll(step, paced)
				stop()
				if err != nil {
					return err
				}
				how := map[bool]string{false: "scroll", true: "scroll-paced"}[paced]
				fmt.Printf("measure %s %s step %v fps %.1f cpu-ms-per-frame %.2f\n", how, b, step,
					float64(frames)/took.Seconds(), ms(cpu)/float64(max(frames, 1)))
			}
		}
	}
	return nil
}

// startProfile starts a CPU profile of the process, if on and
// ATTACHE_SCROLL_PROFILE names a file, and returns what stops it.
func startProfile(on bool, body string) (stop func()) {
	name := os.Getenv("ATTACHE_SCROLL_PROFILE")
	if !on || name == "" {
		return func() {}
	}
	f, err := os.Create(name + "." + strings.ReplaceAll(body, "/", "-"))
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		return func() {}
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
}

// measureShows reads body once (the miss, which fills the cache), then
// measureRuns times, each after the floor body, reads and shows it, and
// shows its landing alone.
func (s *script) measureShows(body string) error {
	if err := s.showOnce(bodyURI(body)); err != nil {
		return err
	}
	for range measureRuns {
		for _, landing := range []bool{false, true} {
			if err := s.showOnce(bodyURI(floorBodyPath)); err != nil {
				return err
			}
			how, timer := "read-and-show", s.timeShow
			if landing {
				how, timer = "show", s.timeLanding
			}
			wall, cpu, err := timer(bodyURI(body))
			if err != nil {
				return err
			}
			fmt.Printf("measure %s %s wall-ms %.1f cpu-ms %.1f\n", how, body, ms(wall), ms(cpu))
		}
	}
	return nil
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func bodyURI(kindSize string) string { return "test://body/" + kindSize }

// showOnce reads uri and waits for the window to show it.
func (s *script) showOnce(uri string) error {
	s.do(func() { s.app.Read(uri) })
	return s.settle()
}

// mainCPU is the CPU time of the window's thread.
func (s *script) mainCPU() time.Duration {
	var cpu time.Duration
	s.do(func() { cpu, _, _ = proctime.CPUTimes() })
	return cpu
}

// timeShow reads uri and waits for the frame that shows it; it returns the
// wall time and the window thread's CPU time in between.
func (s *script) timeShow(uri string) (wall, cpu time.Duration, err error) {
	var cpu0 time.Duration
	var t0 time.Time
	s.do(func() {
		t0 = time.Now()
		cpu0, _, _ = proctime.CPUTimes()
		s.app.Read(uri)
	})
	deadline := time.Now().Add(settleTimeout)
	for !s.app.Idle() {
		if time.Now().After(deadline) {
			return 0, 0, errors.New("the read did not finish")
		}
		time.Sleep(time.Millisecond)
	}
	if err := s.run.WaitFrame(10 * time.Second); err != nil {
		return 0, 0, err
	}
	wall = time.Since(t0)
	return wall, s.mainCPU() - cpu0, nil
}

// timeLanding reads uri through the host (a cache hit) and prepares it on
// this goroutine, as a read's goroutine does, then shows it in the
// inspector and waits for the frame that shows it: the wall time and the
// window thread's CPU from the result's landing to that frame painted.
func (s *script) timeLanding(uri string) (wall, cpu time.Duration, err error) {
	c, err := s.host.Conn("bodies", "")
	if err != nil {
		return 0, 0, err
	}
	res, err := c.Read(context.Background(), uri, hostcore.ReadUse)
	if err != nil {
		return 0, 0, err
	}
	p := ui.PrepareRead(uri, res)
	var cpu0 time.Duration
	var t0 time.Time
	s.do(func() {
		t0 = time.Now()
		cpu0, _, _ = proctime.CPUTimes()
		s.app.ShowPreparedRead(p)
	})
	if err := s.run.WaitFrame(10 * time.Second); err != nil {
		return 0, 0, err
	}
	wall = time.Since(t0)
	return wall, s.mainCPU() - cpu0, nil
}

// timeScroll scrolls the body by step (back to the top at its end; a
// step of 0 only repaints) for scrollFor, and counts the frames painted,
// the window thread's CPU and the time taken. Unpaced, a step is queued
// each 60th of a second from a ticker of its own, which beats against
// Fyne's own 60 Hz frame ticker: an interval of it that gets two steps is
// followed by one that gets none, and paints nothing. Paced, the next step
// is queued once the last frame is painted, as the wheel's events are
// polled just before each frame: the rate the window can paint, at most
// Fyne's 60 frames a second.
func (s *script) timeScroll(step float32, paced bool) (frames int64, cpu, took time.Duration, err error) {
	scroll := func() {
		if step != 0 && !s.app.ScrollBody(step) {
			s.app.ScrollBody(-1e9)
		}
		s.run.Repaint()
	}
	cpu0, f0, t0 := s.mainCPU(), s.run.Frames(), time.Now()
	if paced {
		for end := t0.Add(scrollFor); time.Now().Before(end); {
			fyne.Do(scroll)
			if err := s.run.WaitFrame(10 * time.Second); err != nil {
				return 0, 0, 0, err
			}
		}
		return s.run.Frames() - f0, s.mainCPU() - cpu0, time.Since(t0), nil
	}
	tick := time.NewTicker(time.Second / 60)
	defer tick.Stop()
	for end := t0.Add(scrollFor); time.Now().Before(end); {
		<-tick.C
		fyne.Do(scroll)
	}
	if err := s.run.WaitFrame(10 * time.Second); err != nil {
		return 0, 0, 0, err
	}
	return s.run.Frames() - f0, s.mainCPU() - cpu0, time.Since(t0), nil
}
