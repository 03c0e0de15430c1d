package ui

import (
	"encoding/json"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/toolcall"
)

// toolResultPane is the centre's lower half while it shows a call of the
// tools tab (the inspector comes back with the next read, or Inspector):
// what the gate decided, whether the tool reported an error, each content
// entry (text, JSON, images, embedded resources and resource links, the
// chosen one in the body viewer, a resource with Read and Attach), and the
// structuredContent with whether it conforms to the tool's outputSchema.
// The exchange itself is in the console. Used on the main goroutine only.
type toolResultPane struct {
	sh *shell
	// front brings the pane (true) or the inspector (false) to the front.
	front func(bool)

	conn    *hostcore.Conn
	content []toolcall.Content

	title      *widget.Label
	facts      *widget.Label
	progress   *widget.ProgressBarInfinite
	list       *keyList
	viewer     *bodyViewer
	entryFacts *widget.Label
	entryBtns  *fyne.Container
	check      *widget.Label
	structured *bodyViewer
	tabs       *container.AppTabs
	root       fyne.CanvasObject // made by screen, on first use
}

func newToolResultPane(sh *shell) *toolResultPane {
	return &toolResultPane{sh: sh, front: func(bool) {}}
}

// screen is the pane's screen, made on first use: the first screen shows
// the inspector there, and making the pane's list, tabs and two body
// viewers cost the first frame for nothing on screen.
func (p *toolResultPane) screen() fyne.CanvasObject {
	if p.root == nil {
		p.root = p.buildUI()
	}
	return p.root
}

func (p *toolResultPane) buildUI() fyne.CanvasObject {
	p.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.title.Truncation = fyne.TextTruncateEllipsis
	p.facts = widget.NewLabel("")
	p.facts.Wrapping = fyne.TextWrapWord
	p.progress = widget.NewProgressBarInfinite()
	p.progress.Hide()
	p.list = newKeyList(func() int { return len(p.content) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			o.(*widget.Label).SetText(contentLine(i, p.content[i]))
		})
	p.list.OnSelected = p.choose
	p.viewer = newBodyViewer(&viewerOptions{notify: p.sh.notify})
	p.entryFacts = caption("")
	p.entryBtns = container.NewHBox()
	entry := container.NewBorder(container.NewBorder(nil, nil, nil, p.entryBtns, p.entryFacts), nil, nil, nil, p.viewer)
	split := container.NewVSplit(p.list, entry)
	split.Offset = 0.25
	p.check = widget.NewLabel("")
	p.check.Wrapping = fyne.TextWrapWord
	p.structured = newBodyViewer(nil)
	p.tabs = container.NewAppTabs(
		container.NewTabItem("Content", split),
		container.NewTabItem("Structured content", container.NewBorder(p.check, nil, nil, nil, p.structured)))
	back := newButton("Inspector", theme.NavigateBackIcon(), func() { p.front(false) })
	console := newButton("Console", theme.ListIcon(), p.sh.openConsole)
	head := container.NewVBox(container.NewBorder(nil, nil, heading("Tool result"), container.NewHBox(console, back), p.title),
		p.facts, p.progress)
	return container.NewBorder(head, nil, nil, nil, p.tabs)
}

// contentLine is an entry's row in the list.
func contentLine(i int, tc toolcall.Content) string {
	line := fmt.Sprintf("%d. %s", i+1, contentTitle(tc))
	if !tc.ForModel() {
		line += " · for the user only"
	}
	return line
}

// calling shows a call under way.
func (p *toolResultPane) calling(c *hostcore.Conn, tool toolcall.Tool, args json.RawMessage) {
	p.screen()
	p.conn, p.content = c, nil
	p.title.SetText(tool.Name + " of " + c.Server.Name + " as " + c.Account.Name)
	p.facts.Importance = widget.MediumImportance
	p.facts.SetText("Calling with " + clipDoc(string(args)) + "…")
	p.progress.Show()
	p.list.UnselectAll()
	p.list.Refresh()
	p.viewer.Clear()
	p.structured.Clear()
	p.check.SetText("")
	p.entryFacts.SetText("")
	p.entryBtns.RemoveAll()
	p.front(true)
}

// show shows what a call came to.
func (p *toolResultPane) show(c *hostcore.Conn, tool toolcall.Tool, args json.RawMessage, r calledTool, err error) {
	p.screen()
	p.progress.Hide()
	p.front(true)
	switch {
	case !r.decision.Run:
		p.facts.Importance = widget.WarningImportance
		p.facts.SetText("Not called: " + string(r.decision.Refusal) + ". The consent gate's decision: " + r.decision.String() + ".")
		return
	case err != nil:
		p.facts.Importance = widget.DangerImportance
		p.facts.SetText("The call failed (" + r.decision.String() + "): " + oneLine(err))
		return
	}
	res := r.result
	p.facts.Importance = widget.SuccessImportance
	if res.IsError {
		p.facts.Importance = widget.DangerImportance
	}
	p.facts.SetText(resultFacts(r))
	p.content = res.Content
	p.list.Refresh()
	p.showStructured(tool, res, r.check)
	if len(p.content) > 0 {
		p.list.Select(0)
	} else {
		p.viewer.SetMessage("text/plain", "The result has no content entries.")
	}
}

// resultFacts says in a line what came back.
func resultFacts(r calledTool) string {
	res := r.result
	what := "The tool answered"
	if res.IsError {
		what = "isError: the tool reported a failure of its own"
	}
	held := 0
	for _, tc := range res.Content {
		if !tc.ForModel() {
			held++
		}
	}
	text := fmt.Sprintf("%s (%s) · %s", what, r.decision.String(), countWord(len(res.Content), "content entry", "content entries"))
	if held > 0 {
		text += fmt.Sprintf(" (%d for the user only)", held)
	}
	return text + " · structuredContent: " + checkWord(r.check)
}

func countWord(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// checkWord is a schema check in a few words.
func checkWord(c toolcall.SchemaCheck) string {
	switch c.Verdict {
	case toolcall.SchemaValid:
		return "conforms to the outputSchema"
	case toolcall.SchemaInvalid:
		return "does NOT conform to the outputSchema"
	case toolcall.SchemaMissing:
		return "missing, though the tool declares an outputSchema"
	case toolcall.SchemaUnusable:
		return "not checked: the outputSchema cannot be used"
	case toolcall.SchemaSkipped:
		return "none (an error result need not carry it)"
	}
	return "none, and no outputSchema"
}

// showStructured shows the structuredContent and its check.
func (p *toolResultPane) showStructured(tool toolcall.Tool, res *hostcore.ToolResult, c toolcall.SchemaCheck) {
	text := "structuredContent " + checkWord(c) + "."
	if c.Problem != "" {
		text += " " + c.Problem
	}
	if c.Verdict == toolcall.SchemaValid || c.Verdict == toolcall.SchemaInvalid {
		text += " (checked with a JSON Schema 2020-12 validator, github.com/google/jsonschema-go)"
	}
	p.check.Importance = map[toolcall.SchemaVerdict]widget.Importance{toolcall.SchemaValid: widget.SuccessImportance,
		toolcall.SchemaInvalid: widget.DangerImportance, toolcall.SchemaMissing: widget.DangerImportance}[c.Verdict]
	p.check.SetText(text)
	switch {
	case len(res.Structured) > 0:
		p.structured.SetMessage("application/json", string(res.Structured))
	case len(tool.OutputSchema) > 0:
		p.structured.SetMessage("application/json", string(tool.OutputSchema))
		p.check.SetText(text + " The tool's outputSchema is below.")
	default:
		p.structured.Clear()
	}
}

// choose shows entry i in the viewer, with Read and Attach for a resource.
func (p *toolResultPane) choose(i widget.ListItemID) {
	if i < 0 || i >= len(p.content) {
		return
	}
	tc := p.content[i]
	p.entryFacts.SetText(contentFacts(tc))
	p.entryBtns.RemoveAll()
	c := p.conn
	if b := resourceButtons(tc, contentActions{
		read:   func(tc toolcall.Content) { p.sh.readToolContent(c, tc) },
		attach: func(tc toolcall.Content) { p.sh.attachToolContent(c, tc) },
	}); b != nil {
		p.entryBtns.Add(b)
	}
	p.entryBtns.Refresh()
	if body, ok := contentBody(tc); ok {
		p.viewer.SetBody(body)
		return
	}
	p.viewer.SetMessage("text/plain", noBodyText(tc))
}

// noBodyText says why an entry has no body to show.
func noBodyText(tc toolcall.Content) string {
	if tc.Kind == toolcall.ContentLink {
		return "A link to " + tc.URI + ": the result holds no body. Read reads it from " + "the server; Attach attaches it."
	}
	return "The body of this entry is over 64 KiB and was not kept."
}
