package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/internal/labreport"
)

// noFigures is the table's text before a run, and after a clear.
const noFigures = "Run the replay to see the figures."

// compareColumns explains every column of the lab's table, in its order,
// as the README does.
var compareColumns = []struct{ name, meaning string }{
	{"STRATEGY", "host attaches the resources; tool offers the tools and makes the recorded calls; both does both"},
	{"TURNS", "turns replayed"},
	{"REACH (95% CI)", "share of the turns that need data where all of it reached the model, with its 95% Wilson score interval"},
	{"ITEMREACH (95% CI)", "share of the needed resources that reached the model, with its 95% interval"},
	{"DUPLICATES (95% CI)", "share of turns where the same data arrived twice, with its 95% interval"},
	{"LISTING/REQ", "tokens of the tool listing in each request to the model"},
	{"LISTING%", "the tool listing's share of all the tokens of the requests"},
	{"CONTEXT/TURN", "tokens put before the model in a turn: bodies, tool results and listings"},
	{"ROUNDTRIP", "requests to the server: reads the cache did not answer, listings and tool calls"},
	{"BYTES", "bytes of the bodies and tool results delivered"},
	{"WALLMS", "wall time of the replay, in milliseconds"},
	{"CACHEHITS", "reads the cache answered"},
	{"FAILURES", "reads and tool calls that failed, and attachments whose own server or account could not be used"},
	{"NOTRUN", "tool calls the consent gate did not run"},
}

// newLegend is the table's legend: each column and what it counts, under
// the button that opens and closes it.
func newLegend() (fyne.CanvasObject, *button) {
	var md string
	for _, col := range compareColumns {
		md += "- **" + col.name + "**: " + col.meaning + "\n"
	}
	legend := widget.NewRichTextFromMarkdown(md)
	legend.Wrapping = fyne.TextWrapWord
	legend.Hide()
	// A ringed button, not an Accordion, whose header is a plain Fyne
	// button that shows no focus ring.
	var toggle *button
	toggle = newButton("What the columns mean", theme.MenuDropDownIcon(), func() {
		if legend.Visible() {
			legend.Hide()
			toggle.SetIcon(theme.MenuDropDownIcon())
		} else {
			legend.Show()
			toggle.SetIcon(theme.MenuDropUpIcon())
		}
	})
	toggle.Alignment = widget.ButtonAlignLeading
	return container.NewVBox(toggle, legend), toggle
}

// clearResults takes down the last run's figures, warnings and charts,
// so that nothing of it stays beside the run that replaces it.
func (c *compareView) clearResults() {
	c.report, c.chartsOf = nil, nil
	c.table.SetText(noFigures)
	c.warn.SetText("")
	c.fresh.SetText("")
	c.charts.RemoveAll()
}

// chartPalette is the current theme's colours, for the charts.
func chartPalette() labreport.Palette {
	app := fyne.CurrentApp()
	th, v := app.Settings().Theme(), app.Settings().ThemeVariant()
	return labreport.Palette{Background: th.Color(theme.ColorNameBackground, v), Foreground: th.Color(theme.ColorNameForeground, v),
		Grid: th.Color(theme.ColorNameSeparator, v)}
}

// followTheme draws the shown charts again when the theme changes.
func (c *compareView) followTheme() {
	fyne.CurrentApp().Settings().AddListener(func(fyne.Settings) {
		fyne.Do(func() { c.redrawCharts() })
	})
}

// redrawCharts draws the last report's charts in the current theme.
func (c *compareView) redrawCharts() {
	if c.report == nil || c.win == nil {
		return
	}
	charts, err := labreport.ChartsIn(c.report, chartPalette())
	if err != nil {
		c.sh.fail(err)
		return
	}
	c.chartsOf = charts
	c.showCharts(charts)
}

// warnings are the servers the last run could not use, as the window
// shows them.
func (c *compareView) warnings() string { return c.warn.Text }
