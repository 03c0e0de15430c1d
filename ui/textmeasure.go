package ui

import (
	"strings"

	"fyne.io/fyne/v2"
)

// textMeasurer measures text for the mdView, and remembers: prose repeats
// its words, so a body of any length costs about as many measures as it
// has distinct words. A nil measure is fyne.MeasureText. Used on the main
// goroutine only (Fyne's text shaping is not safe for concurrent use).
type textMeasurer struct {
	measure func(text string, size float32, style fyne.TextStyle) fyne.Size
	widths  map[measureKey]float32
	heights map[mdFont]float32
}

type measureKey struct {
	text string
	font mdFont
}

// maxMeasured bounds how many widths a measurer keeps; past it, it starts
// again.
const maxMeasured = 200_000

func newTextMeasurer(measure func(string, float32, fyne.TextStyle) fyne.Size) *textMeasurer {
	if measure == nil {
		measure = fyne.MeasureText
	}
	return &textMeasurer{measure: measure, widths: map[measureKey]float32{}, heights: map[mdFont]float32{}}
}

// width is how wide text is in font.
func (m *textMeasurer) width(text string, font mdFont) float32 {
	k := measureKey{text, font}
	if w, ok := m.widths[k]; ok {
		return w
	}
	if len(m.widths) >= maxMeasured {
		clear(m.widths)
	}
	w := m.measure(text, font.size, font.style).Width
	k.text = strings.Clone(text) // a word of a body must not keep the whole body alive
	m.widths[k] = w
	return w
}

// height is how tall a line of font is.
func (m *textMeasurer) height(font mdFont) float32 {
	if h, ok := m.heights[font]; ok {
		return h
	}
	h := m.measure("M", font.size, font.style).Height
	m.heights[font] = h
	return h
}

// forget drops what was measured, for a new theme or text size.
func (m *textMeasurer) forget() {
	clear(m.widths)
	clear(m.heights)
}
