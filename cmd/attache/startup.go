package main

import (
	"errors"
	"fmt"
	"image"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
)

// startup measures the time from the process's start to the first frame the
// window paints, and to the demo being ready (its catalog listed and the
// conversation loaded). A frame is seen through a one-pixel transparent
// raster laid over the window: the painter calls its generator while it
// paints a frame, so a call is proof that a frame reached the screen.
type startup struct {
	start time.Time
	log   *slog.Logger
	probe *canvas.Raster

	frames     atomic.Int64
	firstFrame chan struct{}
	readyCh    chan struct{}
	firstOnce  sync.Once
	readyOnce  sync.Once
	frameAt    time.Duration
	readyAt    time.Duration
}

func newStartup(start time.Time, log *slog.Logger) *startup {
	s := &startup{start: start, log: log, firstFrame: make(chan struct{}), readyCh: make(chan struct{})}
	s.probe = canvas.NewRaster(func(int, int) image.Image {
		s.frames.Add(1)
		s.firstOnce.Do(func() {
			s.frameAt = time.Since(s.start)
			s.log.Info("first frame", "after", s.frameAt)
			close(s.firstFrame)
		})
		return image.NewNRGBA(image.Rect(0, 0, 1, 1))
	})
	return s
}

// watch lays the probe over the window's content.
func (s *startup) watch(w fyne.Window) {
	s.probe.Resize(fyne.NewSquareSize(1))
	w.SetContent(container.NewStack(w.Content(), container.NewWithoutLayout(s.probe)))
}

// ready is ui.Options.Ready: the first screen shows the demo's catalog.
func (s *startup) ready() {
	s.readyOnce.Do(func() {
		s.readyAt = time.Since(s.start)
		s.log.Info("demo ready", "after", s.readyAt)
		close(s.readyCh)
	})
}

// report waits for both moments and prints them.
func (s *startup) report(out io.Writer) {
	<-s.firstFrame
	<-s.readyCh
	fmt.Fprintf(out, "first frame: %d ms after launch\ndemo ready (catalog listed, conversation loaded): %d ms after launch\n",
		s.frameAt.Milliseconds(), s.readyAt.Milliseconds())
}

// nextFrame waits until the window has painted a frame that began after the
// call, or timeout.
func (s *startup) nextFrame(timeout time.Duration) error {
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
