package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/pack"
)

// budgetMeter shows how much of the token budget the included items use:
// "812 / 8,000 tokens" over a bar filled in proportion, which turns to the
// error colour, with a sentence saying by how much, when required items
// (priority 1) push the context over budget.
type budgetMeter struct {
	bg    *canvas.Rectangle
	fill  *canvas.Rectangle
	fit   *meterLayout
	track *fyne.Container
	text  *widget.Label
	over  *widget.Label
	state pack.Packing
}

func newBudgetMeter() *budgetMeter {
	m := &budgetMeter{bg: canvas.NewRectangle(color.Transparent), fill: canvas.NewRectangle(color.Transparent),
		fit: &meterLayout{}, text: widget.NewLabelWithStyle("", fyne.TextAlignCenter, fyne.TextStyle{Bold: true}),
		over: widget.NewLabel("")}
	m.bg.CornerRadius = theme.InputRadiusSize()
	m.fill.CornerRadius = theme.InputRadiusSize()
	m.over.Importance = widget.DangerImportance
	m.over.Wrapping = fyne.TextWrapWord
	m.over.Hide()
	return m
}

func (m *budgetMeter) buildUI() fyne.CanvasObject {
	m.track = container.New(m.fit, m.fill)
	bar := newRepainted(container.NewStack(m.bg, m.track, m.text), m.recolor)
	m.set(pack.Packing{Budget: pack.DefaultBudget})
	return container.NewVBox(bar, m.over)
}

// set shows a packing.
func (m *budgetMeter) set(p pack.Packing) {
	m.state = p
	budget := max(p.Budget, 1)
	m.fit.fraction = float32(p.Used) / float32(budget)
	m.text.SetText(count(int64(p.Used)) + " / " + pack.Quantity(p.Budget, "token"))
	if p.Exceeded > 0 {
		m.over.SetText("Over budget by " + pack.Quantity(p.Exceeded, "token") +
			": items of priority 1 (required) are kept even when they do not fit.")
		m.over.Show()
	} else {
		m.over.Hide()
	}
	m.recolor()
}

// recolor paints the bar in the current theme: a tint of the primary
// colour, or of the error colour when over budget, under text in the
// foreground colour, so it reads in light and dark themes alike. It runs
// on every change of the packing and of the theme (newRepainted).
func (m *budgetMeter) recolor() {
	m.bg.FillColor = theme.Color(theme.ColorNameInputBackground)
	m.bg.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	m.bg.StrokeWidth = 1
	name := theme.ColorNamePrimary
	if m.state.Exceeded > 0 {
		name = theme.ColorNameError
	}
	m.fill.FillColor = tint(theme.Color(name), 0x80)
	m.bg.Refresh()
	m.track.Refresh()
}

// tint is c with alpha a.
func tint(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: a}
}

// repainted is content that paint colours again whenever it is refreshed,
// as Fyne refreshes every widget when the theme changes: canvas shapes keep
// the colour they were given, and would keep the old theme's.
type repainted struct {
	widget.BaseWidget
	content fyne.CanvasObject
	paint   func()
}

func newRepainted(content fyne.CanvasObject, paint func()) *repainted {
	r := &repainted{content: content, paint: paint}
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer shows the content.
func (r *repainted) CreateRenderer() fyne.WidgetRenderer {
	return &repaintedRenderer{WidgetRenderer: widget.NewSimpleRenderer(r.content), r: r}
}

type repaintedRenderer struct {
	fyne.WidgetRenderer
	r *repainted
}

// Refresh paints the content in the current theme.
func (rr *repaintedRenderer) Refresh() {
	rr.r.paint()
	rr.WidgetRenderer.Refresh()
}
