package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// rowsLayout stacks labels as the lines of one list row: like a VBox, but
// each line overlaps the padding of the one above, so a two-line row is as
// compact as a paragraph instead of two separate labels.
type rowsLayout struct{}

func (rowsLayout) overlap() float32 { return theme.InnerPadding() }

func (l rowsLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for i, o := range visible(objects) {
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height
		if i > 0 {
			s.Height -= l.overlap()
		}
	}
	return s
}

func (l rowsLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	for _, o := range visible(objects) {
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h - l.overlap()
	}
}

func visible(objects []fyne.CanvasObject) []fyne.CanvasObject {
	out := make([]fyne.CanvasObject, 0, len(objects))
	for _, o := range objects {
		if o.Visible() {
			out = append(out, o)
		}
	}
	return out
}

// meterLayout sizes its first object to a fraction of the width (the filled
// part of a meter) and every other object to the whole.
type meterLayout struct{ fraction float32 }

func (l *meterLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objects {
		s = s.Max(o.MinSize())
	}
	return s
}

func (l *meterLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for i, o := range objects {
		o.Move(fyne.NewPos(0, 0))
		if i == 0 {
			o.Resize(fyne.NewSize(size.Width*min(max(l.fraction, 0), 1), size.Height))
			continue
		}
		o.Resize(size)
	}
}
