package main

import (
	"context"
	"errors"
	"fmt"
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
func init() { scenarios["measure-body"] = measureBody }

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
	for _, b := range []string{"text/1m", "markdown/1m"} {
		if err := s.showOnce(bodyURI(b)); err != nil {
			return err
		}
		for _, step := range []float32{0, scrollStep} {
			frames, cpu, err := s.timeScroll(step)
			if err != nil {
				return err
			}
			fmt.Printf("measure scroll %s step %v fps %.1f cpu-ms-per-frame %.2f\n", b, step,
				float64(frames)/scrollFor.Seconds(), ms(cpu)/float64(max(frames, 1)))
		}
	}
	return nil
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

// timeScroll scrolls the body by step a 60th of a second for scrollFor
// (back to the top at its end; a step of 0 only repaints), and counts
// the frames painted and the window thread's CPU.
func (s *script) timeScroll(step float32) (frames int64, cpu time.Duration, err error) {
	cpu0, f0 := s.mainCPU(), s.run.Frames()
	tick := time.NewTicker(time.Second / 60)
	defer tick.Stop()
	for end := time.Now().Add(scrollFor); time.Now().Before(end); {
		<-tick.C
		fyne.Do(func() {
			if step != 0 && !s.app.ScrollBody(step) {
				s.app.ScrollBody(-1e9)
			}
			s.run.Repaint()
		})
	}
	if err := s.run.WaitFrame(10 * time.Second); err != nil {
		return 0, 0, err
	}
	return s.run.Frames() - f0, s.mainCPU() - cpu0, nil
}
