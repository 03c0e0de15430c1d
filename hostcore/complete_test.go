package hostcore_test

import (
	"sync"
	"testing"
	"time"

	"github.com/attache/attache/hostcore"
)

// fakeTimers lets a test fire scheduled functions by hand: no sleeping.
type fakeTimers struct {
	mu      sync.Mutex
	pending []*fakeTimer
}

type fakeTimer struct {
	f       func()
	stopped bool
}

func (ft *fakeTimers) AfterFunc(_ time.Duration, f func()) func() bool {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	t := &fakeTimer{f: f}
	ft.pending = append(ft.pending, t)
	return func() bool { t.stopped = true; return true }
}

func (ft *fakeTimers) fireAll() {
	ft.mu.Lock()
	ts := ft.pending
	ft.pending = nil
	ft.mu.Unlock()
	for _, t := range ts {
		if !t.stopped {
			t.f()
		}
	}
}

func TestDebouncerRunsOnlyTheLast(t *testing.T) {
	ft := &fakeTimers{}
	d := &hostcore.Debouncer{Delay: 200 * time.Millisecond, AfterFunc: ft.AfterFunc}
	var ran []string
	for _, prefix := range []string{"m", "m0", "m0q"} {
		d.Do(func() { ran = append(ran, prefix) })
	}
	ft.fireAll()
	if len(ran) != 1 || ran[0] != "m0q" {
		t.Errorf("ran %v; want only the last call, m0q", ran)
	}
	d.Do(func() { ran = append(ran, "next") })
	ft.fireAll()
	if len(ran) != 2 {
		t.Errorf("a later burst did not run: %v", ran)
	}
}
