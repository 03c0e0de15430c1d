package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/wire"
)

// console is the tester's console, in a window of its own: the JSON-RPC
// history of the connection the picker browses (requests, responses and
// notifications, with times, a filter and Copy), its server's stderr, and
// Export of the exchange to a file. It follows the picker's connection,
// and reads the record again on each of the app's refresh ticks, or on
// Refresh. Used on the main goroutine only; reading the record does no
// I/O.
type console struct {
	sh  *shell
	win fyne.Window // nil while closed

	conn     *hostcore.Conn
	entries  []wire.RPCEntry
	dropped  int
	shown    []int // indexes into entries that pass the filter
	selected int   // index into shown; -1 for none

	title   *widget.Label
	filter  *keyEntry
	count   *widget.Label
	list    *keyList
	head    *widget.Label // the chosen message's line
	detail  *bodyViewer   // the chosen message, whole
	stderr  *widget.Label
	tabs    *container.AppTabs
	copyOne *button

	// The console's actions (console_actions.go, console_pages.go).
	resend, edit, pin *button
	note              *widget.Label // what the last action did
	pinnedOnly        *check
	pinned            int    // how many messages are pinned, as last read
	selectSeq         uint64 // the message to choose at the next refresh (a resent request)
	pages             *consolePages
	confirming        dialog.Dialog // the confirmation of a destructive call, while it waits
	editor            *requestEditor
}

func newConsole(sh *shell) *console { return &console{sh: sh, selected: -1} }

// show opens the console (or brings it forward) on the picker's
// connection.
func (c *console) show() {
	if c.win != nil {
		c.setConn(c.sh.conn)
		c.win.RequestFocus()
		return
	}
	c.win = fyne.CurrentApp().NewWindow("Console")
	c.win.SetContent(c.buildUI())
	c.win.Canvas().AddShortcut(shortcutFindInBody, func(fyne.Shortcut) { c.detail.ShowFind() })
	c.filter.onShortcut = c.detail.shortcut
	c.win.Resize(fyne.NewSize(980, 640))
	c.win.SetOnClosed(func() { c.win = nil })
	c.conn = nil
	c.setConn(c.sh.conn)
	c.win.Show()
	c.win.Canvas().Focus(c.filter)
}

// close closes the console's window, if open.
func (c *console) close() {
	if c.win != nil {
		c.win.Close()
	}
}

func (c *console) buildUI() fyne.CanvasObject {
	c.title = heading("")
	c.filter = newKeyEntry()
	c.filter.SetPlaceHolder("Filter: method, kind, id or any text of the message")
	c.filter.OnChanged = func(string) { c.applyFilter() }
	c.filter.onDown = func() {
		if len(c.shown) > 0 {
			c.win.Canvas().Focus(c.list)
			c.list.Select(0)
		}
	}
	c.count = widget.NewLabel("")
	c.count.Wrapping = fyne.TextWrapWord
	c.list = newKeyList(func() int { return len(c.shown) }, func() fyne.CanvasObject {
		l := widget.NewLabel("")
		l.TextStyle.Monospace = true
		l.Truncation = fyne.TextTruncateEllipsis
		return l
	}, func(id widget.ListItemID, o fyne.CanvasObject) {
		l := o.(*widget.Label)
		e := c.entries[c.shown[id]]
		l.Importance = widget.MediumImportance
		if e.Kind == wire.KindError || e.Kind == wire.KindUnparsed {
			l.Importance = widget.DangerImportance
		}
		l.SetText(entryLine(e))
	})
	c.list.OnSelected = c.choose
	c.list.OnUnselected = func(widget.ListItemID) { c.choose(-1) }
	copyAll := newButton("Copy shown", theme.ContentCopyIcon(), c.copyShown)
	export := newButton("Export…", theme.DocumentSaveIcon(), c.askExport)
	refresh := newButton("Refresh", theme.ViewRefreshIcon(), c.refresh)
	history := container.NewVSplit(c.list, c.buildDetail())
	history.Offset = 0.4
	c.stderr = monospace("", dialogColumns)
	c.stderr.Selectable = true
	c.pinnedOnly = newCheck("Pinned only", func(bool) { c.applyFilter() })
	c.pages = newConsolePages(c)
	c.tabs = container.NewAppTabs(
		container.NewTabItem("JSON-RPC history", container.NewBorder(
			container.NewVBox(container.NewBorder(nil, nil, nil, c.pinnedOnly, c.filter), c.count), nil, nil, nil, history)),
		container.NewTabItem("Pages", c.pages.buildUI()),
		container.NewTabItem("Server log (stderr)", container.NewScroll(c.stderr)),
	)
	top := container.NewBorder(nil, nil, nil, container.NewHBox(refresh, copyAll, export), c.title)
	return container.NewBorder(top, nil, nil, nil, c.tabs)
}

// buildDetail is the pane of the chosen message: its line, Copy message,
// and the message whole in a body viewer.
func (c *console) buildDetail() fyne.CanvasObject {
	c.head = widget.NewLabel("")
	c.head.TextStyle.Monospace = true
	c.head.Wrapping = fyne.TextWrapWord
	c.detail = newBodyViewer(&viewerOptions{notify: c.sh.notify, noCopy: true}) // Copy message is the console's
	c.copyOne = newButton("Copy message", theme.ContentCopyIcon(), c.copySelected)
	c.copyOne.Disable()
	actions := c.buildActions()
	head := container.NewVBox(container.NewBorder(nil, nil, heading("Message"), container.NewHBox(actions, c.copyOne), c.head), c.note)
	return container.NewBorder(head, nil, nil, nil, c.detail)
}

// setConn makes the console show conn's record.
func (c *console) setConn(conn *hostcore.Conn) {
	if c.win == nil {
		return
	}
	if conn != c.conn {
		c.conn, c.selected = conn, -1
		c.list.UnselectAll()
		c.note.Hide()
		c.pages.reset()
	}
	c.refresh()
}

// refresh reads the connection's record and its server's log again.
func (c *console) refresh() {
	if c.win == nil {
		return
	}
	if c.conn == nil {
		c.title.SetText("No server chosen")
		c.win.SetTitle("Console")
		c.entries, c.dropped = nil, 0
	} else {
		name := c.conn.Server.Name + " as " + c.conn.Account.Name
		c.title.SetText(name)
		c.win.SetTitle("Console — " + name)
		entries, dropped := c.conn.Tap().History()
		pinned := c.conn.Tap().Pinned()
		if c.sameRecord(entries, dropped) && pinned == c.pinned && c.selectSeq == 0 {
			c.showStderr()
			return // a tick with nothing new leaves the selection and the scroll alone
		}
		c.entries, c.dropped, c.pinned = entries, dropped, pinned
	}
	c.applyFilter()
	c.showStderr()
}

// sameRecord reports whether entries and dropped are what the console
// shows already.
func (c *console) sameRecord(entries []wire.RPCEntry, dropped int) bool {
	if len(entries) != len(c.entries) || dropped != c.dropped || len(entries) == 0 {
		return false
	}
	last, shown := entries[len(entries)-1], c.entries[len(c.entries)-1]
	return last.At.Equal(shown.At) && bytes.Equal(last.Raw, shown.Raw)
}

// applyFilter keeps the messages that match the filter, and says how many
// it hides, and so when it hides them all.
func (c *console) applyFilter() {
	q := strings.ToLower(strings.TrimSpace(c.filter.Text))
	var keep *wire.RPCEntry
	if c.selected >= 0 && c.selected < len(c.shown) && c.shown[c.selected] < len(c.entries) {
		keep = &c.entries[c.shown[c.selected]]
	}
	c.shown, c.selected = c.shown[:0], -1
	for i, e := range c.entries {
		if (q == "" || entryMatches(e, q)) && (!c.pinnedOnly.Checked || e.Pinned) {
			if c.selectSeq != 0 && e.Seq == c.selectSeq || c.selectSeq == 0 && keep != nil && e.Seq == keep.Seq {
				c.selected = len(c.shown)
			}
			c.shown = append(c.shown, i)
		}
	}
	c.selectSeq = 0
	c.count.Importance = widget.MediumImportance
	c.count.SetText(c.countText(q))
	if (q != "" || c.pinnedOnly.Checked) && len(c.shown) == 0 && len(c.entries) > 0 {
		c.count.Importance = widget.WarningImportance
		c.count.Refresh()
	}
	c.list.Refresh()
	if c.selected >= 0 {
		c.list.Select(c.selected)
		c.showActions(c.chosen()) // the same row chosen again runs no OnSelected: its pin may have changed
	} else {
		c.list.UnselectAll()
		c.choose(-1)
	}
}

// countText says how many messages show, and why some do not.
func (c *console) countText(q string) string {
	var s string
	switch n := len(c.entries); {
	case c.conn == nil:
		s = "Choose a server: the console shows the connection the picker browses."
	case n == 0:
		s = "Nothing was exchanged with this server yet: it connects on first use."
	case c.pinnedOnly.Checked && c.pinned == 0:
		s = fmt.Sprintf("No message is pinned: “Pinned only” hides all %d. Pin a message to keep it beyond the record's bounds.", n)
	case q == "" && c.pinnedOnly.Checked:
		s = fmt.Sprintf("%d pinned of %d messages", len(c.shown), n)
	case q == "":
		s = pack.Quantity(n, "message")
	case len(c.shown) == 0:
		s = fmt.Sprintf("No message matches “%s”: the filter hides all %d. Clear it to see them.", q, n)
	default:
		s = fmt.Sprintf("%d of %s %s “%s”", len(c.shown), pack.Quantity(n, "message"), pack.Plural(len(c.shown), "matches", "match"), q)
	}
	if c.pinned > 0 && !c.pinnedOnly.Checked {
		s += fmt.Sprintf(", %d pinned", c.pinned)
	}
	if c.dropped > 0 {
		s += fmt.Sprintf(" (the %d oldest were let go: the record keeps the last 4096 messages, 4 MiB)", c.dropped)
	}
	return s
}

// choose shows the message at index id of the shown list.
func (c *console) choose(id widget.ListItemID) {
	c.selected = id
	if id < 0 || id >= len(c.shown) {
		c.head.SetText("Choose a message to see it whole.")
		c.detail.Clear()
		c.copyOne.Disable()
		c.showActions(nil)
		return
	}
	e := c.entries[c.shown[id]]
	c.showActions(&e)
	head := entryLine(e)
	if e.Truncated {
		head += " (cut to bound memory)"
	}
	c.head.SetText(head)
	c.detail.SetMessage("application/json", string(e.Raw))
	c.copyOne.Enable()
}

// showStderr shows what the server wrote to stderr.
func (c *console) showStderr() {
	switch lines, ok := c.stderrLines(); {
	case c.conn == nil:
		c.stderr.SetText("")
	case c.conn.Server.IsHTTP():
		c.stderr.SetText("This server is reached over HTTP: the host sees no stderr of it.")
	case !ok:
		c.stderr.SetText("No server process was started yet.")
	case len(lines) == 0:
		c.stderr.SetText("The server wrote nothing to stderr.")
	default:
		if text := softWrap(strings.Join(lines, "\n"), dialogColumns); c.stderr.Text != text {
			c.stderr.SetText(text)
		}
	}
}

func (c *console) stderrLines() ([]string, bool) {
	if c.conn == nil {
		return nil, false
	}
	return c.conn.Stderr()
}

// copySelected copies the chosen message, indented.
func (c *console) copySelected() {
	if c.selected < 0 || c.selected >= len(c.shown) {
		return
	}
	fyne.CurrentApp().Clipboard().SetContent(prettyJSON(c.entries[c.shown[c.selected]].Raw))
	c.sh.notify("Copied the message")
}

// copyShown copies the messages the filter shows, one line each, as sent.
func (c *console) copyShown() {
	var b strings.Builder
	for _, i := range c.shown {
		b.Write(c.entries[i].Raw)
		b.WriteByte('\n')
	}
	fyne.CurrentApp().Clipboard().SetContent(b.String())
	c.sh.notify("Copied " + pack.Quantity(len(c.shown), "message"))
}

// askExport asks where to save the whole exchange.
func (c *console) askExport() {
	if c.conn == nil {
		return
	}
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil || wc == nil {
			if err != nil {
				c.sh.fail(err)
			}
			return
		}
		werr := c.export(wc)
		if cerr := wc.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			c.sh.fail(werr)
			return
		}
		c.sh.notify("Exported the exchange with " + c.conn.Server.Name + " to " + wc.URI().Path())
	}, c.win)
	d.SetFileName(exportName(c.conn))
	d.Resize(fyne.NewSize(760, 520))
	d.Show()
}

// export writes the whole exchange (not only what the filter shows).
func (c *console) export(w io.Writer) error {
	return wire.WriteExchange(w, wire.ExportedExchange{
		Server: c.conn.Server.Name, Account: c.conn.Account.Name, Exported: c.sh.now(), Dropped: c.dropped,
	}, c.entries)
}

// exportName is the file name offered for an export.
func exportName(conn *hostcore.Conn) string {
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ' ' || r == ':' {
			return '-'
		}
		return r
	}, conn.Server.Name+"-"+conn.Account.Name)
	return name + "-jsonrpc.json"
}

// entryLine is one message as a row: time, direction, kind, id, method
// and, for a response, how long it took.
func entryLine(e wire.RPCEntry) string {
	arrow := "→"
	if e.Dir == wire.Received {
		arrow = "←"
	}
	s := fmt.Sprintf("%s %s %-12s", e.At.Format("15:04:05.000"), arrow, e.Kind)
	if e.Pinned {
		s = "pinned · " + s
	}
	if e.ID != "" {
		s += " #" + e.ID
	}
	if e.Method != "" {
		s += " " + e.Method
	}
	if answered := e.Kind == wire.KindResponse || e.Kind == wire.KindError; answered && e.Method != "" {
		s += " · " + span(e.Elapsed) // paired with its request
	}
	if e.Kind == wire.KindError {
		var body struct {
			Error struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(e.Raw, &body) == nil {
			s += fmt.Sprintf(" · %d %s", body.Error.Code, body.Error.Message)
		}
	}
	return s
}

// entryMatches reports whether e matches the lower-case query q.
func entryMatches(e wire.RPCEntry, q string) bool {
	for _, s := range []string{string(e.Kind), string(e.Dir), e.Method, e.ID} {
		if strings.Contains(strings.ToLower(s), q) {
			return true
		}
	}
	return bytes.Contains(bytes.ToLower(e.Raw), []byte(q))
}
