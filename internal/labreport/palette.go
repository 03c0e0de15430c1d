package labreport

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Palette is the chart's own colours: the page behind it, the text and
// axes, and the grid. The app draws its charts with its theme's colours
// (and draws them again when the theme changes), so a dark theme shows
// dark charts with light text; report.md's are drawn with Light.
type Palette struct {
	Background color.Color
	Foreground color.Color
	Grid       color.Color
}

// Light is the palette of a light page: black on white.
var Light = Palette{Background: color.White, Foreground: color.Black, Grid: color.Gray{Y: 0xd8}}

// paint gives p the palette's colours.
func (pl Palette) paint(p *plot.Plot) {
	p.BackgroundColor = pl.Background
	p.Title.TextStyle.Color = pl.Foreground
	p.Legend.TextStyle.Color = pl.Foreground
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Color = pl.Foreground
		ax.Label.TextStyle.Color = pl.Foreground
		ax.Tick.Color = pl.Foreground
		ax.Tick.Label.Color = pl.Foreground
	}
}

// errorBars draws a 95% interval over each bar of a group: a vertical
// line from low to high, capped, at the bar's x shifted by the group's
// offset (in points, as plotter.BarChart shifts its bars).
type errorBars struct {
	low, high []float64 // in the chart's Y units
	offset    vg.Length
	style     draw.LineStyle
}

// Plot implements plot.Plotter.
func (e *errorBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	w := vg.Points(3)
	for i := range e.low {
		x := trX(float64(i)) + e.offset
		lo, hi := trY(e.low[i]), trY(e.high[i])
		c.StrokeLine2(e.style, x, lo, x, hi)
		c.StrokeLine2(e.style, x-w, lo, x+w, lo)
		c.StrokeLine2(e.style, x-w, hi, x+w, hi)
	}
}
