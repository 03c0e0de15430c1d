package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/lab"
	"github.com/attache/attache/hostcore/labrun"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/internal/labreport"
)

// compareView is the comparison lab in a window of its own: it replays a
// replay file (or the bundled synthetic one) against a server under the
// host, tool and both strategies, with a progress bar, and shows the
// figures as attachectl lab run prints them, with the same charts. Its
// widgets are changed on the main goroutine only; the replay runs on a
// goroutine and reports through deliver.
type compareView struct {
	sh  *shell
	win fyne.Window

	replay  []lab.Turn
	source  string
	bundled bool
	server  *selectBox
	account *selectBox
	tools   *radioChoice // the consent gate's policy for the run
	// pending answers the call the consent dialog asks about, while it
	// is shown (tests answer through it).
	pending  func(consent.Approval)
	runBtn   *button
	running  bool
	progress *widget.ProgressBar
	what     *widget.Label
	note     *widget.Label
	table    *widget.Label
	warn     *widget.Label // the servers the replay could not use
	fresh    *widget.Label
	charts   *fyne.Container
	chartsOf map[string][]byte // the charts shown, as drawn
	job      job
	report   *labrun.Report
	tabs     *container.AppTabs
	marks    *turnMarks
	// legendBtn opens and closes "What the columns mean"
	legendBtn *button
}

func newCompareView(sh *shell) *compareView { return &compareView{sh: sh} }

// show opens the Compare window, or brings it to the front.
func (c *compareView) show() {
	if c.win != nil {
		c.win.RequestFocus()
		return
	}
	c.win = fyne.CurrentApp().NewWindow("Compare: host-attached versus tool-fetched — Attaché")
	c.win.SetContent(c.buildUI())
	c.win.Resize(fyne.NewSize(1180, 760))
	c.win.SetOnClosed(func() { c.job.stop(); c.win = nil })
	c.win.Show()
}

func (c *compareView) buildUI() fyne.CanvasObject {
	c.useBundled()
	var names []string
	for _, s := range c.sh.host.Servers() {
		names = append(names, s.Name)
	}
	c.account = newSelect(nil, nil)
	c.server = newSelect(names, func(name string) { c.accountsOf(name) })
	if slices.Contains(names, hostcore.DemoServerName) {
		c.server.SetSelected(hostcore.DemoServerName)
	}
	c.tools = newToolsPicker()
	open := newButton("Open a replay…", nil, c.chooseReplay)
	bundled := newButton("Bundled replay", nil, func() { c.useBundled(); c.describe() })
	c.runBtn = newButton("Run", nil, c.start)
	c.runBtn.Importance = widget.HighImportance
	c.progress = widget.NewProgressBar()
	c.what = widget.NewLabel("")
	c.what.Wrapping = fyne.TextWrapWord
	c.note = widget.NewLabel("")
	c.note.Wrapping = fyne.TextWrapWord
	c.note.TextStyle = fyne.TextStyle{Bold: true}
	c.table = widget.NewLabel(noFigures)
	c.warn = widget.NewLabel("")
	c.warn.Wrapping = fyne.TextWrapWord
	c.warn.Importance = widget.DangerImportance
	c.table.TextStyle = fyne.TextStyle{Monospace: true}
	c.fresh = widget.NewLabel("")
	c.fresh.Wrapping = fyne.TextWrapWord
	c.charts = container.NewGridWithColumns(3)
	c.describe()
	controls := container.NewHBox(widget.NewLabel("Server"), c.server, widget.NewLabel("Account"), c.account,
		bundled, open, c.runBtn)
	top := container.NewVBox(controls, container.NewHBox(widget.NewLabel("Tools"), c.tools), c.progress, c.what, c.note)
	// the monospace table is wider than the window at 1280 px: it scrolls
	// sideways on its own, so every column stays in reach
	legend, legendBtn := newLegend()
	c.legendBtn = legendBtn
	body := container.NewVBox(c.warn, container.NewHScroll(c.table), legend, c.fresh, c.charts)
	c.followTheme()
	c.marks = newTurnMarks(c)
	c.tabs = container.NewAppTabs(
		container.NewTabItem("Replay", container.NewBorder(top, nil, nil, nil, container.NewVScroll(body))),
		container.NewTabItem("Your turns", c.marks.buildUI()))
	c.tabs.OnSelected = func(ti *container.TabItem) {
		if ti.Text == "Your turns" {
			c.marks.load()
		}
	}
	return c.tabs
}

// accountsOf fills the account picker with server's accounts.
func (c *compareView) accountsOf(server string) {
	var accts []string
	for _, s := range c.sh.host.Servers() {
		if s.Name == server {
			for _, a := range s.Accounts {
				accts = append(accts, a.Name)
			}
		}
	}
	c.account.SetOptions(accts)
	if len(accts) > 0 {
		c.account.SetSelected(accts[0])
	} else {
		c.account.ClearSelected()
	}
}

func (c *compareView) useBundled() {
	turns, err := lab.Parse(bytes.NewReader(assets.Replay))
	if err != nil { // the bundled replay is tested; this is a broken build
		c.sh.fail(err)
		return
	}
	c.replay, c.source, c.bundled = turns, "The bundled replay", true
}

// describe says what will be replayed.
func (c *compareView) describe() {
	c.what.SetText(fmt.Sprintf("%s: %s. Each strategy replays them against the server: host attaches, tool makes the recorded calls the Tools choice allows, both does both.",
		c.source, pack.Quantity(len(c.replay), "turn")))
	if c.bundled {
		c.note.SetText(labrun.SyntheticNote)
	} else {
		c.note.SetText("")
	}
}

// chooseReplay opens a replay file (JSON Lines).
func (c *compareView) chooseReplay() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		defer r.Close()
		b, err := config.ReadNamedStream(c.sh.ctx, r.URI().Name(), r, lab.MaxReplayBytes) // refused over the cap, never cut
		if err == nil {
			err = c.useReplay(r.URI().Name(), b)
		}
		if err != nil {
			showError(fmt.Errorf("%s is not a replay: %w", r.URI().Name(), err), c.win)
		}
	}, c.win)
	d.Show()
}

// useReplay takes data as the replay to run; a file that is the bundled
// replay is labelled synthetic all the same.
func (c *compareView) useReplay(name string, data []byte) error {
	turns, err := lab.Parse(bytes.NewReader(data))
	if err != nil {
		return err
	}
	c.replay, c.source, c.bundled = turns, name, bytes.Equal(data, assets.Replay)
	c.describe()
	return nil
}

// start runs the replay against the chosen server and account.
func (c *compareView) start() {
	server, account := c.server.Selected, c.account.Selected
	if server == "" {
		showError(errors.New("choose a server to replay against"), c.win)
		return
	}
	ctx, gen := c.job.start(c.sh.ctx)
	turns, source, synthetic := c.replay, c.source, c.bundled
	policy := comparePolicies[c.tools.Selected]
	c.runBtn.Disable()
	c.running = true
	c.clearResults()
	c.progress.SetValue(0)
	type result struct {
		rep    *labrun.Report
		charts map[string][]byte
	}
	run(c.sh.work, ctx, func(ctx context.Context) (result, error) {
		conn, err := c.sh.host.Conn(server, account)
		if err != nil {
			return result{}, err
		}
		rep, err := labrun.Run(ctx, conn, turns, &labrun.Options{Source: source, Synthetic: synthetic,
			Tools: policy, Ask: c.ask,
			Progress: func(done, total int) { deliver(func() { c.setProgress(gen, done, total) }) }})
		if err != nil {
			return result{}, err
		}
		charts, err := labreport.ChartsIn(rep, chartPalette())
		return result{rep, charts}, err
	}, func(r result, err error) {
		if !c.job.current(gen) || c.win == nil {
			return
		}
		c.running = false
		c.runBtn.Enable()
		if c.pending != nil {
			c.pending(consent.ApproveDeny) // takes down a dialog the run no longer waits on
		}
		c.job.stop() // releases the context
		if err != nil {
			showError(err, c.win)
			return
		}
		c.showReport(r.rep, r.charts)
	})
}

func (c *compareView) setProgress(gen uint64, done, total int) {
	if c.job.current(gen) && c.win != nil && total > 0 {
		c.progress.SetValue(float64(done) / float64(total))
	}
}

// showReport shows the figures and the charts.
func (c *compareView) showReport(rep *labrun.Report, charts map[string][]byte) {
	c.report, c.chartsOf = rep, charts
	r := rep.Replay
	c.what.SetText(fmt.Sprintf("%s: %s in %s against %s as %s. %s; the listing of the %s offered costs %s a request.%s",
		r.Source, pack.Quantity(r.Turns, "turn"), pack.Quantity(r.Sessions, "session"), r.Server, r.Account,
		policyWords[r.ToolPolicy], pack.Quantity(len(r.Tools), "tool"), pack.Quantity(r.ListingTokens, "token"), withheldWords(r)))
	c.table.SetText(labrun.Table(rep))
	if r.Synthetic {
		c.note.SetText(labrun.SyntheticNote)
	} else {
		c.note.SetText("")
	}
	c.warn.SetText(strings.Join(labrun.Warnings(rep), "\n"))
	f := rep.Freshness
	c.fresh.SetText(fmt.Sprintf("Freshness: polling every attached resource every %.0f s costs %.0f reads per session-hour, against %.0f for a re-read on every turn (%.2f session-hours).",
		f.PollIntervalSeconds, f.PollReadsPerSessionHour, f.PerTurnReadsPerSessionHour, f.SessionHours))
	c.showCharts(charts)
	c.progress.SetValue(1)
}

// showCharts shows the chart images.
func (c *compareView) showCharts(charts map[string][]byte) {
	c.charts.RemoveAll()
	for _, name := range labreport.ChartNames {
		img := canvas.NewImageFromResource(fyne.NewStaticResource(name, charts[name]))
		img.FillMode = canvas.ImageFillContain
		img.SetMinSize(fyne.NewSize(380, 320))
		c.charts.Add(img)
	}
}

// OpenCompare opens the Compare window, as the Lab menu does.
func (a *App) OpenCompare() { a.compareView().show() }

// OpenCompareLegend focuses and taps "What the columns mean" in the
// Compare window, as Tab and Space there do.
func (a *App) OpenCompareLegend() {
	c := a.compareView()
	c.win.Canvas().Focus(c.legendBtn)
	c.legendBtn.Tapped(nil)
}

// RunCompare replays the bundled replay against server as account in the
// Compare window, as choosing them and tapping Run does.
func (a *App) RunCompare(server, account string) error {
	c := a.compareView()
	if c.win == nil {
		return errors.New("the Compare window is not open")
	}
	c.useBundled()
	c.describe()
	c.server.SetSelected(server)
	if account != "" {
		c.account.SetSelected(account)
	}
	c.start()
	return nil
}

// CompareRunning reports whether a replay is under way; CompareReport is
// the last one shown.
func (a *App) CompareRunning() bool          { return a.compareView().running }
func (a *App) CompareReport() *labrun.Report { return a.compareView().report }

// compareView returns the Compare window's view, made on first use.
func (a *App) compareView() *compareView {
	if a.compare == nil {
		a.compare = newCompareView(a.sh)
	}
	return a.compare
}
