package ui

import "sync"

// A landing carries the pages of a listing from the goroutine that lists
// them to the list on the screen, so that the listing never waits for the
// list: it asks for the next page while the last one lands. Pages that
// come while the list is still busy with earlier ones land together, in
// one delivery. (Fyne's test driver runs deliver's function at once, on
// the calling goroutine: a listing that delivered its own pages waited
// for each. On a display fyne.Do only queues it.)
//
// land runs on a goroutine of the landing's own, one call at a time, with
// the pages in the order they were added; it gets the final function
// passed to end with the last pages, and nothing after that. A landing is
// safe for concurrent use; add and end never block on land.
type landing[P any] struct {
	land func(pages []P, final func())

	mu      sync.Mutex
	pages   []P
	final   func()
	ended   bool
	running bool // a goroutine is landing pages
}

// add hands on a page.
func (l *landing[P]) add(p P) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended {
		return
	}
	l.pages = append(l.pages, p)
	l.wake()
}

// end says the listing is over: final lands with the last pages.
func (l *landing[P]) end(final func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended {
		return
	}
	l.ended, l.final = true, final
	l.wake()
}

// wake starts a goroutine to land what waits, unless one is at it. l.mu
// is held.
func (l *landing[P]) wake() {
	if !l.running {
		l.running = true
		go l.run()
	}
}

func (l *landing[P]) run() {
	for {
		l.mu.Lock()
		pages, final, ended := l.pages, l.final, l.ended
		l.pages, l.final = nil, nil
		if len(pages) == 0 && final == nil {
			if !ended {
				l.running = false
			}
			l.mu.Unlock()
			return
		}
		l.mu.Unlock()
		l.land(pages, final)
	}
}
