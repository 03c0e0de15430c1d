package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// tapLabel is a label that does something when clicked (a server card's
// title), with a pointer cursor to say so.
type tapLabel struct {
	widget.Label
	onTap func()
}

func newTapLabel(text string, style fyne.TextStyle, onTap func()) *tapLabel {
	l := &tapLabel{onTap: onTap}
	l.Text, l.TextStyle = text, style
	l.ExtendBaseWidget(l)
	return l
}

// Tapped runs onTap.
func (l *tapLabel) Tapped(*fyne.PointEvent) {
	if l.onTap != nil {
		l.onTap()
	}
}

// Cursor is the pointer.
func (l *tapLabel) Cursor() desktop.Cursor { return desktop.PointerCursor }
