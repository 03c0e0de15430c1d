// Package labreport writes the comparison lab's report: Markdown for a
// person, the JSON of attachectl lab run --json, and PNG charts drawn with
// gonum.org/v1/plot (reach and duplicates per strategy, context tokens per
// turn, and the tool listing's overhead in each request). attachectl lab
// run --out and the app's Compare screen share it. A report from a
// synthetic replay says so on every chart and at the top of the Markdown.
// The rates carry their 95% intervals: in the tables, and as error bars.
package labreport

import (
	"bytes"
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/attache/attache/hostcore/lab"
	"github.com/attache/attache/hostcore/labrun"
)

// Chart size: small enough for a README, readable on a screen.
const (
	chartWidth  = 5 * vg.Inch
	chartHeight = 3.2 * vg.Inch
)

// Chart names, the files --out writes.
const (
	ReachChart   = "reach.png"
	TokensChart  = "tokens.png"
	ListingChart = "listing.png"
)

// ChartNames are the charts in the order a report shows them.
var ChartNames = []string{ReachChart, TokensChart, ListingChart}

// The palette: one colour per measure, the same in every chart.
var (
	blue   = color.RGBA{R: 0x2f, G: 0x6f, B: 0xb5, A: 0xff}
	teal   = color.RGBA{R: 0x3a, G: 0xa5, B: 0x8f, A: 0xff}
	orange = color.RGBA{R: 0xe0, G: 0x7b, B: 0x39, A: 0xff}
	grey   = color.RGBA{R: 0x9a, G: 0xa4, B: 0xae, A: 0xff}
)

// Charts draws every chart of rep as PNG bytes, by name, on a light page.
func Charts(rep *labrun.Report) (map[string][]byte, error) { return ChartsIn(rep, Light) }

// ChartsIn draws every chart of rep in the palette's colours. Reach, item
// reach and duplicates carry their 95% intervals as error bars.
func ChartsIn(rep *labrun.Report, pl Palette) (map[string][]byte, error) {
	out := map[string][]byte{}
	for name, draw := range map[string]func(*labrun.Report, Palette) (*plot.Plot, error){
		ReachChart: reachPlot, TokensChart: tokensPlot, ListingChart: listingPlot,
	} {
		p, err := draw(rep, pl)
		if err != nil {
			return nil, fmt.Errorf("drawing %s: %w", name, err)
		}
		frame(p, len(rep.Strategies))
		pl.paint(p)
		b, err := encodePNG(p)
		if err != nil {
			return nil, fmt.Errorf("drawing %s: %w", name, err)
		}
		out[name] = b
	}
	return out, nil
}

func encodePNG(p *plot.Plot) ([]byte, error) {
	w, err := p.WriterTo(chartWidth, chartHeight, "png")
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// frame leaves room: half a slot beside the outer bars, and two fifths
// above the highest for the legend.
func frame(p *plot.Plot, n int) {
	p.X.Min, p.X.Max = -0.7, float64(n)-0.3
	p.Y.Min, p.Y.Max = 0, max(p.Y.Max*1.4, 1)
}

// newPlot starts a chart titled for rep, with the strategies on X.
func newPlot(rep *labrun.Report, pl Palette, title, y string) *plot.Plot {
	p := plot.New()
	if rep.Replay.Synthetic {
		title += " (synthetic replay)"
	}
	p.Title.Text = title
	p.Y.Label.Text = y
	p.Y.Min = 0
	names := make([]string, len(rep.Strategies))
	for i, s := range rep.Strategies {
		names[i] = string(s.Strategy)
	}
	p.NominalX(names...)
	p.Legend.Top = true
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = pl.Grid, pl.Grid
	p.Add(grid)
	return p
}

// bars adds one group of bars per measure, side by side, each with its
// interval when it has one.
func bars(p *plot.Plot, pl Palette, groups []group) error {
	w := vg.Points(60 / float64(len(groups)))
	for i, g := range groups {
		b, err := plotter.NewBarChart(g.values, w)
		if err != nil {
			return err
		}
		b.Color, b.LineStyle.Width = g.colour, 0
		b.Offset = w * vg.Length(float64(i)-float64(len(groups)-1)/2)
		p.Add(b)
		p.Legend.Add(g.name, b)
		if g.low != nil {
			style := draw.LineStyle{Color: pl.Foreground, Width: vg.Points(1)}
			p.Add(&errorBars{low: g.low, high: g.high, offset: b.Offset, style: style})
		}
	}
	return nil
}

// group is one measure's bars; low and high, when set, its intervals.
type group struct {
	name      string
	colour    color.Color
	values    plotter.Values
	low, high []float64
}

// rateGroup is a rate's bars, in percent, with their 95% intervals.
func rateGroup(rep *labrun.Report, name string, colour color.Color, rate func(lab.Result) (float64, lab.Interval)) group {
	g := group{name: name, colour: colour}
	for _, s := range rep.Strategies {
		v, iv := rate(s)
		g.values = append(g.values, 100*v)
		g.low, g.high = append(g.low, 100*iv.Low), append(g.high, 100*iv.High)
	}
	return g
}

func values(rep *labrun.Report, f func(i int) float64) plotter.Values {
	v := make(plotter.Values, len(rep.Strategies))
	for i := range rep.Strategies {
		v[i] = f(i)
	}
	return v
}

func reachPlot(rep *labrun.Report, pl Palette) (*plot.Plot, error) {
	p := newPlot(rep, pl, "Reach and duplicates, with 95% intervals", "share of turns (%)")
	p.Y.Max = 100
	p.Y.Tick.Marker = plot.ConstantTicks{{Value: 0, Label: "0"}, {Value: 25, Label: "25"}, {Value: 50, Label: "50"},
		{Value: 75, Label: "75"}, {Value: 100, Label: "100"}}
	return p, bars(p, pl, []group{
		rateGroup(rep, "reach", blue, func(r lab.Result) (float64, lab.Interval) { return r.Reach, r.ReachInterval }),
		rateGroup(rep, "item reach", teal, func(r lab.Result) (float64, lab.Interval) { return r.ItemReach, r.ItemReachInterval }),
		rateGroup(rep, "duplicates", orange, func(r lab.Result) (float64, lab.Interval) { return r.DuplicateRate, r.DuplicateInterval }),
	})
}

func tokensPlot(rep *labrun.Report, pl Palette) (*plot.Plot, error) {
	p := newPlot(rep, pl, "Context tokens per turn", "tokens")
	s := rep.Strategies
	return p, bars(p, pl, []group{{name: "bodies, results and listings", colour: blue,
		values: values(rep, func(i int) float64 { return s[i].ContextTokensPerTurn })}})
}

// listingPlot stacks each request's listing on the rest of it.
func listingPlot(rep *labrun.Report, pl Palette) (*plot.Plot, error) {
	p := newPlot(rep, pl, "Tool listing overhead per request", "tokens per request")
	s := rep.Strategies
	rest, err := plotter.NewBarChart(values(rep, func(i int) float64 {
		return s[i].RequestTokensPerRequest - s[i].ListingTokensPerRequest
	}), vg.Points(40))
	if err != nil {
		return nil, err
	}
	listing, err := plotter.NewBarChart(values(rep, func(i int) float64 { return s[i].ListingTokensPerRequest }), vg.Points(40))
	if err != nil {
		return nil, err
	}
	rest.Color, listing.Color = grey, orange
	rest.LineStyle.Width, listing.LineStyle.Width = 0, 0
	listing.StackOn(rest)
	p.Add(rest, listing)
	p.Legend.Add("tool listing", listing)
	p.Legend.Add("the rest of the request", rest)
	return p, nil
}
