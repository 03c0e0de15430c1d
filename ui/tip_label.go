package ui

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tipDelay is how long the pointer rests on a cut label before its whole
// text shows.
const tipDelay = 400 * time.Millisecond

// tipLabel is a one-line label, cut with an ellipsis when it does not fit,
// that shows its whole text in a tooltip while the pointer rests on it
// (Fyne has no tooltips of its own). Used on the main goroutine only.
type tipLabel struct {
	widget.Label
	tip   *widget.PopUp
	timer *time.Timer
	gen   int // which hover the timer belongs to
}

func newTipLabel() *tipLabel {
	l := &tipLabel{}
	l.Truncation = fyne.TextTruncateEllipsis
	l.ExtendBaseWidget(l)
	return l
}

// cut reports whether the text does not fit the label's width.
func (l *tipLabel) cut() bool {
	size := l.Theme().Size(theme.SizeNameText)
	if l.SizeName != "" {
		size = l.Theme().Size(l.SizeName)
	}
	w := fyne.MeasureText(l.Text, size, l.TextStyle).Width
	return w+2*l.Theme().Size(theme.SizeNameInnerPadding) > l.Size().Width
}

// MouseIn shows the whole text after tipDelay, if it is cut.
func (l *tipLabel) MouseIn(e *desktop.MouseEvent) {
	l.gen++
	gen, pos := l.gen, e.AbsolutePosition
	l.timer = time.AfterFunc(tipDelay, func() {
		deliver(func() {
			if l.gen == gen {
				l.showTip(pos)
			}
		})
	})
}

// MouseMoved does nothing: the tip stays where it opened.
func (l *tipLabel) MouseMoved(*desktop.MouseEvent) {}

// MouseOut hides the tip.
func (l *tipLabel) MouseOut() {
	l.gen++
	if l.timer != nil {
		l.timer.Stop()
	}
	l.hideTip()
}

// showTip shows the whole text under pos, when it is cut.
func (l *tipLabel) showTip(pos fyne.Position) {
	l.hideTip()
	c := fyne.CurrentApp().Driver().CanvasForObject(l)
	if c == nil || !l.cut() {
		return
	}
	width := min(float32(420), c.Size().Width-pos.X-8)
	text := widget.NewLabel(l.Text)
	text.Wrapping = fyne.TextWrapWord
	text.Resize(fyne.NewSize(width, text.MinSize().Height))
	height := text.MinSize().Height // wrapped at width
	tip := widget.NewPopUp(text, c)
	tip.ShowAtPosition(pos.Add(fyne.NewPos(0, 16)))
	tip.Resize(fyne.NewSize(width, height))
	l.tip = tip
}

func (l *tipLabel) hideTip() {
	if l.tip != nil {
		l.tip.Hide()
		l.tip = nil
	}
}
