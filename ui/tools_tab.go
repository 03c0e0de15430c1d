package ui

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/toolcall"
)

// toolsTab is the picker's Tools tab: the tools of the server and account
// the picker browses, each with what its server says of it (read-only,
// destructive, idempotent, open world), and, for the chosen one, a form
// of its arguments made from its inputSchema beside the same arguments as
// JSON, and Call. The call runs on the app's own connection, so whatever
// the server sends back on it (a resources/updated for an attachment)
// reaches the app's subscriptions, and it passes the consent gate like
// every other call: the person pressing Call is the approval, and a tool
// the server says may change or delete data is confirmed first. The
// result shows in the centre's lower half (toolResultPane).
type toolsTab struct {
	sh    *shell
	conn  *hostcore.Conn
	scope *consent.Scope // the gate's, for this listing: its tools are the gate's own
	load  job
	tools []toolcall.Tool
	tool  *toolcall.Tool // the chosen one
	args  *toolArgs
	call  *toolCall

	list    *keyList
	empty   *widget.Label
	title   *widget.Label
	about   *widget.Label
	hints   *widget.Label
	callBtn *button
	detail  *fyne.Container
}

func newToolsTab(sh *shell, results *toolResultPane) *toolsTab {
	t := &toolsTab{sh: sh}
	t.args = newToolArgs(func() { t.updateCall() })
	t.call = &toolCall{sh: sh, results: results}
	return t
}

func (t *toolsTab) buildUI() fyne.CanvasObject {
	t.list = newKeyList(func() int { return len(t.tools) },
		func() fyne.CanvasObject {
			name := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			name.Truncation = fyne.TextTruncateEllipsis
			hints := caption("")
			hints.Wrapping = fyne.TextWrapOff
			hints.Truncation = fyne.TextTruncateEllipsis
			return container.NewVBox(name, hints)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			box := o.(*fyne.Container)
			box.Objects[0].(*widget.Label).SetText(toolName(t.tools[i]))
			box.Objects[1].(*widget.Label).SetText(hintBadges(t.tools[i]))
		})
	t.list.OnSelected = func(i widget.ListItemID) { t.choose(i) }
	t.empty = italic("")
	t.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	t.title.Wrapping = fyne.TextWrapWord
	t.about = caption("")
	t.hints = widget.NewLabel("")
	t.hints.Wrapping = fyne.TextWrapWord
	t.callBtn = newButton("Call", theme.MediaPlayIcon(), t.callTool)
	t.callBtn.Importance = widget.HighImportance
	t.callBtn.Disable()
	refresh := newButton("", theme.ViewRefreshIcon(), func() { t.setConn(t.conn) })
	head := container.NewVBox(t.title, t.about, t.hints)
	t.detail = container.NewBorder(head, container.NewBorder(nil, nil, nil, t.callBtn, t.args.problems), nil, nil, t.args.buildUI())
	t.detail.Hide()
	left := container.NewBorder(container.NewBorder(nil, nil, nil, refresh, heading("Tools")), nil, nil, nil,
		container.NewStack(t.list, container.NewPadded(t.empty)))
	split := container.NewHSplit(left, t.detail)
	split.Offset = 0.34
	return split
}

// toolName is a tool's title and name, as the list shows it.
func toolName(tl toolcall.Tool) string {
	if tl.Title != "" && tl.Title != tl.Name {
		return tl.Title + " · " + tl.Name
	}
	return tl.Name
}

// hintBadges says in a short line what the server says of a tool.
func hintBadges(tl toolcall.Tool) string {
	var b []string
	switch {
	case tl.ReadOnly:
		b = append(b, "read-only")
	case tl.Destructive:
		b = append(b, "destructive")
	default:
		b = append(b, "additive")
	}
	if tl.Idempotent && !tl.ReadOnly {
		b = append(b, "idempotent")
	}
	if tl.OpenWorld {
		b = append(b, "open world")
	}
	if len(tl.Unstated) > 0 {
		b = append(b, "some hints not stated")
	}
	return strings.Join(b, " · ")
}

// hintLines says plainly what the server says of a tool, hint by hint,
// and which it left out (their values are the protocol's defaults).
func hintLines(tl toolcall.Tool) string {
	said := func(hint string, on bool, yes, no string) string {
		text := no
		if on {
			text = yes
		}
		for _, u := range tl.Unstated {
			if u == hint {
				return text + " (" + hint + " not stated: the protocol's default)"
			}
		}
		return text
	}
	ro := said("readOnlyHint", tl.ReadOnly, "Read-only: it changes nothing.", "Not read-only: it may change its environment.")
	world := said("openWorldHint", tl.OpenWorld, "Open world: it may reach beyond the server (the web, other services).",
		"Closed world: it works within the server's own data.")
	if tl.ReadOnly {
		return ro + "\n" + world
	}
	lines := []string{ro,
		said("destructiveHint", tl.Destructive, "Destructive: it may change or delete data; Call asks you to confirm.",
			"Not destructive: it only adds, never changes or deletes."),
		said("idempotentHint", tl.Idempotent, "Idempotent: calling it again with the same arguments does nothing more.",
			"Not idempotent: each call may do something again."),
		world}
	return strings.Join(lines, "\n")
}

// setConn lists c's tools (nil: none), through a new scope of the gate.
func (t *toolsTab) setConn(c *hostcore.Conn) {
	t.conn, t.tools, t.tool, t.scope = c, nil, nil, nil
	t.list.UnselectAll()
	t.list.Refresh()
	t.detail.Hide()
	t.args.clear()
	t.updateCall()
	if c == nil {
		t.load.stop()
		t.showEmpty("Choose a server to see its tools.")
		return
	}
	t.showEmpty("Listing the tools of " + c.Server.Name + "…")
	ctx, gen := t.load.start(t.sh.ctx)
	gate, ask := t.sh.host.Consent(), confirmCall(t.sh)
	run(t.sh.work, ctx, func(ctx context.Context) (listedTools, error) { return listTools(ctx, gate, ask, c) },
		func(l listedTools, err error) {
			if !t.load.current(gen) {
				return
			}
			t.load.finish(gen)
			t.listed(c, l, err)
		})
}

// listedTools is a listing of the gate's scope.
type listedTools struct {
	scope   *consent.Scope
	tools   []toolcall.Tool
	offered bool // the server declares tools
}

// listTools lists c's tools through a scope of the person's calls, so that
// what the panel shows of a tool is what the gate decides on.
func listTools(ctx context.Context, gate *consent.Consent, ask consent.AskFunc, c *hostcore.Conn) (listedTools, error) {
	caps, err := c.Capabilities(ctx)
	if err != nil || !caps.Tools {
		return listedTools{}, err
	}
	scope, err := gate.Scope(consent.ScopeOptions{Caller: consent.CallerPerson, Ask: ask})
	if err != nil {
		return listedTools{}, err
	}
	tools, _, err := scope.Offer(ctx, c)
	return listedTools{scope: scope, tools: tools, offered: true}, err
}

// listed shows a listing that landed.
func (t *toolsTab) listed(c *hostcore.Conn, l listedTools, err error) {
	switch {
	case err != nil:
		t.showEmpty("The tools of " + c.Server.Name + " could not be listed: " + oneLine(err))
		t.sh.fail(err)
		return
	case !l.offered:
		t.showEmpty(c.Server.Name + " offers no tools: it declares no tools capability.")
		return
	case len(l.tools) == 0:
		t.showEmpty(c.Server.Name + " lists no tools.")
		return
	}
	t.scope, t.tools = l.scope, l.tools
	t.empty.Hide()
	t.list.Refresh()
}

func (t *toolsTab) showEmpty(text string) {
	t.empty.SetText(text)
	t.empty.Show()
}

// choose shows tool i's form.
func (t *toolsTab) choose(i int) {
	if i < 0 || i >= len(t.tools) {
		return
	}
	tl := t.tools[i]
	t.tool = &tl
	t.title.SetText(toolName(tl))
	t.about.SetText(tl.Description)
	t.hints.SetText(hintLines(tl))
	t.args.setTool(tl)
	t.detail.Show()
	t.updateCall()
}

// updateCall enables Call when a tool is chosen and its arguments can be
// sent, and no call of this tab is under way.
func (t *toolsTab) updateCall() {
	if t.callBtn == nil {
		return
	}
	if t.tool == nil || t.scope == nil || t.call.busy.running() || !t.args.ready() {
		t.callBtn.Disable()
		return
	}
	t.callBtn.Enable()
}

// callTool calls the chosen tool with the arguments shown.
func (t *toolsTab) callTool() {
	if t.tool == nil || t.scope == nil {
		return
	}
	args, ok := t.args.arguments()
	if !ok {
		return
	}
	t.call.start(t.scope, t.conn, *t.tool, args, t.updateCall)
	t.updateCall()
}

// focus puts the keyboard in the tool list (Ctrl+T).
func (t *toolsTab) focus() {
	t.sh.win.Canvas().Focus(t.list)
}
