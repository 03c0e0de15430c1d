package ui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/redact"
)

// serversPanel is the left column: every server the host knows (configured,
// imported, built in) with its connection state, negotiated protocol
// version, capabilities and accounts. Choosing an account makes that
// server and account the one the picker browses; reads then go through
// that account's connection, so its cache partition follows.
type serversPanel struct {
	sh  *shell
	use func(*hostcore.Conn)

	list    *fyne.Container
	cards   []*serverCard
	warning *widget.Label
	form    *serverForm // the one open, if any
	root    fyne.CanvasObject
	scroll  *container.Scroll // the cards
	// signIns is what the panel knows of each account's sign-in (see
	// signin.go); it outlives the cards, which reload rebuilds.
	signIns map[signInKey]*signIn
}

// serverCard shows one server.
type serverCard struct {
	sc       config.ServerConfig
	title    *tapLabel
	source   *widget.Label
	state    *widget.Label
	process  *widget.Label
	caps     *widget.Label
	accounts *radioChoice
	// signIns are the accounts that sign in (HTTP servers with OAuth).
	signIns []*signInRow
	root    fyne.CanvasObject
	// compact hides how the server is reached, its process and its
	// capabilities: every card but the one in use, so that twenty servers
	// fit in the sidebar.
	compact bool
}

func newServersPanel(sh *shell, use func(*hostcore.Conn)) *serversPanel {
	return &serversPanel{sh: sh, use: use}
}

func (p *serversPanel) buildUI() fyne.CanvasObject {
	p.list = container.NewVBox()
	p.warning = widget.NewLabel("")
	p.warning.Wrapping = fyne.TextWrapWord
	p.warning.Importance = widget.WarningImportance
	p.warning.Hide()
	add := newButton("Add", theme.ContentAddIcon(), p.add)
	imp := newButton("Import", theme.DownloadIcon(), nil)
	imp.OnTapped = func() {
		menu := fyne.NewMenu("", fyne.NewMenuItem("Claude Desktop config…", func() { p.chooseImport("claude-desktop") }),
			fyne.NewMenuItem("VS Code mcp.json…", func() { p.chooseImport("vscode") }))
		widget.ShowPopUpMenuAtRelativePosition(menu, p.sh.win.Canvas(), fyne.NewPos(0, imp.Size().Height), imp)
	}
	// The buttons go under the heading: beside it they set the sidebar's
	// least width, and with it the window's.
	head := container.NewVBox(heading("Servers"), container.NewHBox(add, imp))
	p.scroll = container.NewVScroll(container.NewVBox(p.warning, p.list))
	p.root = container.NewBorder(head, nil, nil, nil, p.scroll)
	return p.root
}

// heading is a section title.
func heading(text string) *widget.Label {
	return widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

// reload rebuilds the cards from the host's servers.
func (p *serversPanel) reload() { p.reloadWithin(0)() }

// reloadWithin rebuilds the cards that fill height (all of them for 0),
// and returns what adds the rest. The first frame shows only the cards
// that fit in the window: the others, built then, cost it their layout,
// their text measured and their icons decoded, for nothing on screen.
func (p *serversPanel) reloadWithin(height float32) (rest func()) {
	p.cards = nil
	servers := builtinFirst(p.sh.host.Servers())
	// The cards go in at once: adding them one by one lays the list out
	// again after each, measuring every card built so far (the start-up
	// paid that, squared, for its first frame).
	var objs []fyne.CanvasObject
	var filled float32
	for len(p.cards) < len(servers) && (height == 0 || filled < height) {
		if len(objs) > 0 {
			objs = append(objs, widget.NewSeparator())
		}
		card := p.addCard(servers[len(p.cards)])
		if height > 0 { // measured as shown: compact unless in use
			p.markCurrent(p.cards[len(p.cards)-1])
			filled += card.MinSize().Height
		}
		objs = append(objs, card)
	}
	p.list.Objects = objs
	p.list.Refresh()
	p.showWarnings()
	if len(p.cards) == len(servers) {
		return func() {}
	}
	return func() {
		objs := p.list.Objects
		for _, sc := range servers[len(p.cards):] {
			objs = append(objs, widget.NewSeparator(), p.addCard(sc))
		}
		p.list.Objects = objs
		p.list.Refresh()
		p.showCurrent()
		followFocus(p.scroll)
	}
}

// addCard makes sc's card, and returns what the list shows of it.
func (p *serversPanel) addCard(sc config.ServerConfig) fyne.CanvasObject {
	card := p.newCard(sc)
	p.cards = append(p.cards, card)
	for _, r := range card.signIns {
		r.show(p, p.viewOf(r.key))
	}
	return card.buildUI(p)
}

// showWarnings shows what could not be imported, marks the server in use,
// and keeps the focus in view.
func (p *serversPanel) showWarnings() {
	cfg := p.sh.host.Config()
	var warnings []string
	for _, err := range cfg.ImportErrors() {
		warnings = append(warnings, oneLine(err))
	}
	p.warning.SetText(strings.Join(warnings, "\n"))
	p.warning.Hidden = len(warnings) == 0
	p.showCurrent()
	followFocus(p.scroll) // Tab through the cards keeps the focus in view
}

func (p *serversPanel) newCard(sc config.ServerConfig) *serverCard {
	c := &serverCard{sc: sc, title: newTapLabel(serverTitle(sc), fyne.TextStyle{Bold: true}, nil),
		source: widget.NewLabel(sourceText(sc)), state: widget.NewLabel(""), process: widget.NewLabel(""), caps: widget.NewLabel("")}
	c.title.Truncation = fyne.TextTruncateEllipsis
	c.source.Truncation = fyne.TextTruncateEllipsis
	c.source.SizeName = theme.SizeNameCaptionText
	c.state.Wrapping = fyne.TextWrapWord
	c.process.Truncation = fyne.TextTruncateEllipsis
	c.process.SizeName = theme.SizeNameCaptionText
	c.caps.Wrapping = fyne.TextWrapWord
	c.caps.SizeName = theme.SizeNameCaptionText
	c.accounts = newRadioChoice(sc.AccountNames(), func(name string) {
		if name == "" {
			return
		}
		conn, err := p.sh.host.ConnFor(sc, name)
		if err != nil {
			p.sh.fail(err)
			return
		}
		p.use(conn)
	})
	c.accounts.Horizontal = true
	c.title.onTap = func() { // a click on the server browses it, as its first account
		if c.accounts.Selected == "" && len(c.accounts.Options) > 0 {
			c.accounts.SetSelected(c.accounts.Options[0])
		}
	}
	for _, name := range sc.AccountNames() {
		if p.sh.host.SignIns().CanSignIn(sc, name) {
			c.signIns = append(c.signIns, newSignInRow(p, signInKey{sc.Name, name}))
		}
	}
	return c
}

func (c *serverCard) buildUI(p *serversPanel) fyne.CanvasObject {
	var title fyne.CanvasObject = c.title
	if c.sc.Source == "config" {
		edit := newButton("", theme.DocumentCreateIcon(), func() { p.edit(c.sc) })
		remove := newButton("", theme.DeleteIcon(), func() { p.remove(c.sc) })
		edit.Importance, remove.Importance = widget.LowImportance, widget.LowImportance
		title = container.NewBorder(nil, nil, nil, container.NewHBox(edit, remove), c.title)
	}
	c.root = container.New(rowsLayout{}, title, c.source, c.state, c.process, c.caps, c.accounts)
	if len(c.signIns) > 0 {
		rows := container.NewVBox(c.root)
		for _, r := range c.signIns {
			rows.Add(r.root)
		}
		c.root = rows
	}
	return c.root
}

// builtinFirst orders servers as the panel shows them: the built-in demo
// first, then the configured and imported ones in the host's order.
func builtinFirst(all []config.ServerConfig) []config.ServerConfig {
	var out, rest []config.ServerConfig
	for _, sc := range all {
		if sc.Source == "builtin" {
			out = append(out, sc)
		} else {
			rest = append(rest, sc)
		}
	}
	return append(out, rest...)
}

// serverTitle is a server's title and, when it differs, its name.
func serverTitle(sc config.ServerConfig) string {
	if sc.Title != "" && sc.Title != sc.Name {
		return sc.Title + " (" + sc.Name + ")"
	}
	return sc.Name
}

// sourceText says where a server comes from and how it is reached.
func sourceText(sc config.ServerConfig) string {
	how := "stdio: " + filepath.Base(sc.Command) + " " + strings.Join(sc.Args, " ")
	if sc.IsHTTP() {
		how = redact.URL(sc.URL)
	}
	switch kind, path, _ := strings.Cut(sc.Source, ":"); kind {
	case "builtin":
		return "built in · " + how
	case "claude-desktop", "vscode":
		return "imported from " + filepath.Base(path) + " · " + how
	}
	return how
}

// showCurrent marks the server and account in use.
func (p *serversPanel) showCurrent() {
	for _, c := range p.cards {
		p.markCurrent(c)
	}
	p.refreshStates()
}

// markCurrent marks c's account if it is the one in use, and shows the
// card whole or compact accordingly.
func (p *serversPanel) markCurrent(c *serverCard) {
	cur := p.sh.conn
	selected := ""
	if cur != nil && cur.Server.Name == c.sc.Name {
		selected = cur.Account.Name
	}
	if c.accounts.Selected != selected {
		c.accounts.Selected = selected // not SetSelected: that would call use again
		c.accounts.Refresh()
	}
	c.compact = selected == ""
	c.source.Hidden = c.compact
	c.process.Hidden = c.process.Text == "" || c.compact // as refreshStates leaves them
	c.caps.Hidden = c.caps.Text == "" || c.compact
	c.source.Refresh()
	c.title.Importance = widget.MediumImportance
	if selected != "" {
		c.title.Importance = widget.HighImportance
	}
	c.title.Refresh()
}

// refreshStates shows each server's connection as it stands now: the
// account in use, else the server's first account.
func (p *serversPanel) refreshStates() {
	for _, c := range p.cards {
		account := c.accounts.Selected
		conn, err := p.sh.host.ConnFor(c.sc, account)
		if err != nil {
			c.state.SetText(oneLine(err))
			continue
		}
		info := conn.Info()
		c.showSignIns(!errors.Is(info.LastError, hostcore.ErrNotAnEndpoint))
		text, imp, caps := connState(info)
		if c.state.Text != text || c.state.Importance != imp {
			c.state.Importance = imp
			c.state.SetText(text)
			// A connection that changed may have signed in (a read asked)
			// or lost its sign-in (revoked): look at what is kept again.
			for _, r := range c.signIns {
				p.loadGrant(r.key)
			}
		}
		if p := processText(info); c.process.Text != p {
			c.process.SetText(p)
		}
		c.process.Hidden = c.process.Text == "" || c.compact
		if c.caps.Text != caps {
			c.caps.SetText(caps)
		}
		c.caps.Hidden = caps == "" || c.compact
		c.process.Refresh()
		c.caps.Refresh()
	}
}

// showSignIns shows the card's sign-in rows, or hides them when its URL
// answered as no MCP endpoint does: there is nothing there to sign in to.
func (c *serverCard) showSignIns(show bool) {
	for _, r := range c.signIns {
		switch {
		case show && !r.root.Visible():
			r.root.Show()
		case !show && r.root.Visible():
			r.root.Hide()
		}
	}
}

// connState describes a connection: its state line, how prominent to make
// it, and the capabilities line.
func connState(info hostcore.ConnInfo) (string, widget.Importance, string) {
	switch info.State {
	case hostcore.StateConnected:
		s := "● connected · protocol " + info.ProtocolVersion
		if info.Handshake.Transport == config.TransportSSE {
			s += " · legacy HTTP+SSE" // the deprecated transport: worth knowing
		}
		return s, widget.SuccessImportance, capabilities(info.Capabilities)
	case hostcore.StateConnecting:
		return "◌ connecting…", widget.MediumImportance, ""
	case hostcore.StateClosed:
		return "○ closed (logged out or removed)", widget.MediumImportance, ""
	case hostcore.StateFailed, hostcore.StateDisconnected:
		s := "✕ " + string(info.State)
		if info.LastError != nil {
			s += ": " + oneLine(info.LastError)
		}
		return s, widget.DangerImportance, ""
	}
	return "○ not connected yet", widget.MediumImportance, ""
}

// processText names the server program and, over stdio, its process.
func processText(info hostcore.ConnInfo) string {
	var parts []string
	if info.Server != nil {
		parts = append(parts, strings.TrimSpace(info.Server.Name+" "+info.Server.Version))
	}
	if info.PID > 0 {
		parts = append(parts, fmt.Sprintf("pid %d", info.PID))
	}
	return strings.Join(parts, " · ")
}

// chooseImport asks for another host's config file and imports its servers.
func (p *serversPanel) chooseImport(kind string) {
	d := dialog.NewFileOpen(func(rc fyne.URIReadCloser, err error) {
		if err != nil {
			p.sh.fail(err)
			return
		}
		if rc == nil {
			return // canceled
		}
		rc.Close()
		p.importFile(kind, rc.URI().Path())
	}, p.sh.win)
	d.Show()
}

// importFile adds an import source to the config and saves it.
func (p *serversPanel) importFile(kind, path string) {
	run(p.sh.work, p.sh.ctx, func(ctx context.Context) ([]config.ServerConfig, error) {
		return p.sh.host.AddImport(ctx, config.ImportSource{Kind: kind, Path: path})
	}, func(servers []config.ServerConfig, err error) {
		if err != nil {
			p.sh.fail(err)
			return
		}
		p.reload()
		p.sh.notify("Imported " + pack.Quantity(len(servers), "server") + " from " + path)
	})
}

// remove deletes a configured server, after asking.
func (p *serversPanel) remove(sc config.ServerConfig) {
	showConfirm("Remove server", "Remove “"+sc.Name+"” from the config?", func(ok bool) {
		if !ok {
			return
		}
		// The host closes every connection to it and purges its cache entries.
		p.save("Removed "+sc.Name, func(ctx context.Context) error { return p.sh.host.RemoveServer(ctx, sc.Name) })
	}, p.sh.win)
}

// add and edit open the server form.
func (p *serversPanel) add() { p.showForm(config.ServerConfig{}) }

func (p *serversPanel) edit(sc config.ServerConfig) { p.showForm(sc) }

func (p *serversPanel) showForm(sc config.ServerConfig) {
	f := newServerForm(sc)
	p.form = f
	f.show(p.sh.win, func(next config.ServerConfig) {
		// ReplaceServer logs out every account whose credentials changed,
		// purging its private cache partition.
		p.save("Saved "+next.Name, func(ctx context.Context) error { return p.sh.host.ReplaceServer(ctx, next) })
	})
}

// save runs a config change on a goroutine and shows the servers again.
func (p *serversPanel) save(done string, f func(ctx context.Context) error) {
	run(p.sh.work, p.sh.ctx, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, f(ctx)
	}, func(_ struct{}, err error) {
		p.reload()
		if err != nil {
			p.sh.fail(err)
			return
		}
		p.sh.notify(done)
		p.followCurrent()
	})
}

// followCurrent switches to the connection the current server now has,
// when editing it changed how it is reached.
func (p *serversPanel) followCurrent() {
	cur := p.sh.conn
	if cur == nil {
		return
	}
	if c, err := p.sh.host.Conn(cur.Server.Name, cur.Account.Name); err == nil && c != cur {
		p.use(c)
	}
}
