package ui

import (
	"context"
	"sync"
	"sync/atomic"

	"fyne.io/fyne/v2"

	"github.com/attache/attache/hostcore"
)

// The screens never block on I/O. Every call into hostcore that may touch the
// network, a server process or a database runs on a goroutine started by
// run, and its result comes back to widgets through deliver (fyne.Do), on
// the main goroutine. Widgets are only ever changed there.

// mainMu makes the functions handed to deliver run one at a time. On a real
// display they do anyway, on the main goroutine; Fyne's test driver runs
// fyne.Do's function at once on the calling goroutine, so without it two
// results landing together would change widgets at the same time.
var mainMu sync.Mutex

// openWindows counts the Apps built and not yet closed. Once the last has
// closed, deliver drops what lands: after Fyne's loop has ended (a quit on
// SIGTERM, the host closing its connections under work in flight), fyne.Do
// runs its function at once on the calling goroutine, and every widget it
// touched printed "should have been called in fyne.Do".
var openWindows atomic.Int64

// deliver runs f on the main goroutine, from a goroutine of the app's own.
// It is the only way background work touches widgets. f does not run once
// the window has closed (App.Close).
func deliver(f func()) { deliverThen(f, nil) }

// deliverFromHook is deliver for a domain observer's hook, which may run on
// any goroutine, the main one included (a screen's own call into the
// domain tells the observers before it returns): f goes through a goroutine
// of its own, so that it never waits for the main goroutine it is on. f
// must read the domain's state anew, since hooks may land out of order.
func deliverFromHook(f func()) { go deliver(f) }

// deliverThen is deliver, and then runs after on the main goroutine
// whether or not f ran (after may be nil). The window can close between
// the moment work is handed over and the moment fyne.Do runs it; what
// must happen either way (counting the work as done) goes in after.
func deliverThen(f, after func()) {
	if openWindows.Load() == 0 {
		if after != nil {
			after()
		}
		return
	}
	fyne.Do(func() {
		if after != nil {
			defer after()
		}
		mainMu.Lock()
		defer mainMu.Unlock()
		if openWindows.Load() == 0 {
			return
		}
		f()
	})
}

// deliverTracked is deliver for work counted in tr (add called before):
// it counts as done once f has run, or would have.
func deliverTracked(tr *tracker, f func()) {
	if openWindows.Load() == 0 {
		tr.done()
		return
	}
	deliver(func() {
		defer tr.done()
		f()
	})
}

// tracker counts background work that has not yet reported back, so a script
// or a test can wait until the window shows the outcome of what it did.
type tracker struct{ n atomic.Int64 }

func (t *tracker) add()  { t.n.Add(1) }
func (t *tracker) done() { t.n.Add(-1) }

// idle reports whether every piece of work has reported back.
func (t *tracker) idle() bool { return t.n.Load() == 0 }

// run runs work on a goroutine, then done with its result on the main
// goroutine. The work counts as pending until done has returned.
func run[T any](tr *tracker, ctx context.Context, work func(context.Context) (T, error), done func(T, error)) {
	tr.add()
	go func() {
		v, err := work(ctx)
		// Counted done even when the window closes before it lands:
		// nobody is left to show it, and a wait for idle must end.
		deliverThen(func() { done(v, err) }, tr.done)
	}()
}

// job is the one long piece of work a screen has in flight (a listing, a
// read): starting another cancels it, and its late result is dropped. It is
// used on the main goroutine only.
type job struct {
	gen    uint64
	cancel context.CancelFunc
}

// start cancels the job in flight and returns the context and generation of
// the new one.
func (j *job) start(parent context.Context) (context.Context, uint64) {
	j.stop()
	ctx, cancel := context.WithCancel(parent)
	j.gen++
	j.cancel = cancel
	return ctx, j.gen
}

// current reports whether gen is still the job in flight.
func (j *job) current(gen uint64) bool { return gen == j.gen }

// running reports whether a job is in flight.
func (j *job) running() bool { return j.cancel != nil }

// finish marks gen as done, if it is still the job in flight.
func (j *job) finish(gen uint64) {
	if j.current(gen) && j.cancel != nil {
		j.cancel()
		j.cancel = nil
	}
}

// stop cancels the job in flight, if any; its result will be dropped.
func (j *job) stop() {
	if j.cancel != nil {
		j.cancel()
		j.cancel = nil
	}
	j.gen++
}

// debounced runs only the last of a burst of calls (hostcore.Debouncer) and
// counts a scheduled call as pending work, so waiting for the window to
// settle also waits for the completion a keystroke will ask for.
type debounced struct {
	d     hostcore.Debouncer
	tr    *tracker
	armed atomic.Bool
}

// Do schedules f, which runs on a timer goroutine and must report back
// through run (or deliver).
func (x *debounced) Do(f func()) {
	if x.armed.CompareAndSwap(false, true) {
		x.tr.add()
	}
	x.d.Do(func() {
		if x.armed.CompareAndSwap(true, false) {
			defer x.tr.done()
		}
		f()
	})
}
