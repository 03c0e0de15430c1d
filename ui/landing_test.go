package ui

import (
	"slices"
	"testing"
	"time"
)

// A landing never makes the listing wait: pages added while the list is
// busy land together at the next delivery, in order, and the final
// function comes once, with the last of them.
func TestLandingCoalescesPagesInOrder(t *testing.T) {
	type call struct {
		pages []int
		final bool
	}
	calls := make(chan call, 10)
	busy := make(chan struct{})     // closed to let the first delivery finish
	landing1 := make(chan struct{}) // closed once the first delivery has begun
	first := true
	l := &landing[int]{land: func(pages []int, final func()) {
		if first {
			first = false
			close(landing1)
			<-busy
		}
		if final != nil {
			final()
		}
		calls <- call{pages: pages, final: final != nil}
	}}
	finals := 0
	l.add(1) // lands at once, and holds the landing busy
	<-landing1
	added := make(chan struct{})
	go func() {
		l.add(2)
		l.add(3)
		l.end(func() { finals++ })
		l.add(4) // after the end: dropped
		close(added)
	}()
	select {
	case <-added:
	case <-time.After(30 * time.Second):
		t.Fatal("add or end waited for a busy landing")
	}
	close(busy)
	var got []call
	for c := range calls {
		got = append(got, c)
		if c.final {
			break
		}
	}
	want := []call{{pages: []int{1}}, {pages: []int{2, 3}, final: true}}
	if !slices.EqualFunc(got, want, func(a, b call) bool { return slices.Equal(a.pages, b.pages) && a.final == b.final }) || finals != 1 {
		t.Errorf("deliveries %v, final ran %d times; want %v and once", got, finals, want)
	}
}

// A listing that ends with nothing waiting still delivers its final
// function.
func TestLandingEndAlone(t *testing.T) {
	done := make(chan []int, 1)
	l := &landing[int]{land: func(pages []int, final func()) {
		if final != nil {
			done <- pages
		}
	}}
	l.end(func() {})
	select {
	case pages := <-done:
		if len(pages) != 0 {
			t.Errorf("final landed with %v; want no pages", pages)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the final function never landed")
	}
}
