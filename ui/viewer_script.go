package ui

import (
	"fyne.io/fyne/v2"

	"github.com/attache/attache/hostcore"
)

// The viewer's script methods (see script.go): on the main goroutine.

// FindInBody opens the inspector's find bar, as Ctrl+F does, and types q
// into it.
func (a *App) FindInBody(q string) {
	v := a.inspector.bodyViewer()
	v.ShowFind()
	v.bar.field.SetText(q)
}

// FindNextInBody goes to the next match (-1: the previous), as Enter
// (Shift+Enter) in the find bar does.
func (a *App) FindNextInBody(delta int) { a.inspector.bodyViewer().step(delta) }

// ShowBodySource switches the inspector's body to its source (on) or
// back to rendered, as the switch above it does.
func (a *App) ShowBodySource(on bool) {
	v := a.inspector.bodyViewer()
	if len(v.modes.Options) == 2 {
		v.modes.SetSelected(v.modes.Options[boolIndex(on)])
	}
}

// SetBodyWrap turns the wrapping of the inspector's body's lines on or
// off, as the Wrap lines box does.
func (a *App) SetBodyWrap(on bool) { a.inspector.bodyViewer().wrap.SetChecked(on) }

// ScrollBody scrolls the inspector's body by dy, as the mouse wheel does
// (a positive dy goes down), and reports whether it moved.
func (a *App) ScrollBody(dy float32) bool {
	var s interface{ Scrolled(*fyne.ScrollEvent) }
	var before float32
	switch v := a.inspector.bodyViewer(); v.view {
	case fyne.CanvasObject(v.text):
		s, before = v.text.scroll, v.text.scroll.Offset.Y
	case fyne.CanvasObject(v.md):
		s, before = v.md.scroll, v.md.scroll.Offset.Y
	default:
		return false
	}
	s.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -dy)})
	return a.bodyOffset() != before
}

// bodyOffset is how far down the inspector's body is scrolled.
func (a *App) bodyOffset() float32 {
	switch v := a.inspector.bodyViewer(); v.view {
	case fyne.CanvasObject(v.text):
		return v.text.scroll.Offset.Y
	case fyne.CanvasObject(v.md):
		return v.md.scroll.Offset.Y
	}
	return 0
}

// BodyShown is the text of the inspector's body rows on screen, a line
// each: what a person sees of it.
func (a *App) BodyShown() []string {
	switch v := a.inspector.bodyViewer(); v.view {
	case fyne.CanvasObject(v.text):
		return v.text.shownRows()
	case fyne.CanvasObject(v.md):
		return v.md.shownPieces()
	}
	return nil
}

// PreparedRead is a read's result made ready to show, off the window's
// thread, as the inspector makes it on the read's goroutine.
type PreparedRead struct {
	uri  string
	read shownRead
}

// PrepareRead makes res, a read of uri, ready to show. It may be called on
// any goroutine; it is what a read's goroutine does before the window
// sees the body, for measures that time the window's part alone.
func PrepareRead(uri string, res *hostcore.ReadResult) PreparedRead {
	return PreparedRead{uri, shownRead{ReadResult: res, bodies: prepareContents(res.Contents)}}
}

// ShowPreparedRead shows p in the inspector as a read of it landing
// there does (badge, body, metadata, exchange), through the connection in
// use; call it on the main goroutine.
func (a *App) ShowPreparedRead(p PreparedRead) {
	in := a.inspector
	in.busy.stop()
	in.progress.Hide()
	in.modes.Show()
	in.facts.Show()
	in.req = readRequest{conn: a.sh.conn, uri: p.uri, title: p.uri}
	in.uri.SetText(p.uri)
	in.showResult(in.req, p.read)
}
