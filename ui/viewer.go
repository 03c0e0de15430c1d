package ui

import (
	"fmt"
	"net/url"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/pack"
)

// bodyViewer shows a body, whatever its size: text and JSON as a
// virtualized list of lines (textView), Markdown and HTML rendered a block
// at a time (mdView) or as their source, images as images, other blobs as
// their size, a hex preview and Save. Above the body: a line of facts (the
// kind, the size, the mimeType as the server gave it, how a blob became
// text), the switch between rendered and source, Wrap lines, Find (Ctrl+F)
// and Copy all (the body as the server sent it). A read of several entries shows one at a time, with a choice of
// entry.
//
// Its API is the screens' way to show a body: SetContents (a read's
// entries), SetBody (one), SetMessage (text the host recorded, such as a
// JSON-RPC message), Clear, and ShowFind. Used on the main goroutine only.
type bodyViewer struct {
	widget.BaseWidget
	opts viewerOptions

	entries []*shownBody
	shown   int          // the entry on screen
	source  bool         // the source (Markdown, HTML) or the text as sent (JSON)
	query   string       // what the find bar looks for
	finding bool         // the find bar is open (hidden while no text is shown)
	found   int          // matches of query in the view
	current int          // the match in view, -1 for none
	view    findableView // the text or Markdown view on screen, nil for an image or blob

	picker  *selectBox
	facts   *widget.Label
	modes   *radioChoice
	wrap    *check
	findBtn *button
	copyBtn *button
	bar     *findBar
	text    *textView
	md      *mdView
	area    *fyne.Container
	head    *fyne.Container
	tools   *fyne.Container
	root    fyne.CanvasObject
}

// viewerOptions are what a bodyViewer asks of its screen; nil fields do
// nothing.
type viewerOptions struct {
	// save writes a blob to a file the person chooses.
	save func(pack.Content)
	// link follows a link of a rendered body, resolved against its uri.
	link func(*url.URL)
	// notify puts a sentence on the status line.
	notify func(string)
	// noCopy leaves Copy all out, for a screen that has its own copy.
	noCopy bool
}

// findableView is a view the find bar searches: it marks every match of q
// (up to limit) and says how many there are, and brings one into view.
type findableView interface {
	fyne.CanvasObject
	find(q string, limit int) (n int, more bool)
	showMatch(i int)
}

// maxMatches bounds what a search marks and counts.
const maxMatches = 10_000

func newBodyViewer(opts *viewerOptions) *bodyViewer {
	v := &bodyViewer{current: -1}
	if opts != nil {
		v.opts = *opts
	}
	v.text = newTextView()
	v.text.onShortcut = v.shortcut
	v.md = newMDView()
	v.md.onShortcut = v.shortcut
	v.md.onLink = v.followLink
	v.buildUI()
	v.ExtendBaseWidget(v)
	return v
}

func (v *bodyViewer) buildUI() {
	v.picker = newSelect(nil, nil)
	v.picker.OnChanged = func(string) { v.showEntry(v.picker.SelectedIndex()) }
	v.picker.Hide()
	v.facts = caption("")
	v.facts.Wrapping = fyne.TextWrapWord
	v.modes = newRadioChoice(nil, func(choice string) {
		v.setSource(choice != "" && len(v.modes.Options) == 2 && choice == v.modes.Options[1])
	})
	v.modes.Horizontal = true
	v.wrap = newCheck("Wrap lines", func(on bool) { v.text.setWrap(on) })
	v.wrap.SetChecked(true)
	v.findBtn = newButton("Find", theme.SearchIcon(), v.ShowFind)
	v.copyBtn = newButton("Copy all", theme.ContentCopyIcon(), v.copyBody)
	v.bar = newFindBar()
	v.bar.onQuery = v.search
	v.bar.onStep = v.step
	v.bar.onClose = v.closeFind
	v.tools = container.NewBorder(nil, nil, container.NewHBox(v.modes, v.wrap), container.NewHBox(v.findBtn, v.copyBtn))
	v.area = container.NewStack()
	v.head = container.NewVBox(v.picker, v.facts, v.tools, v.bar.box)
	v.root = container.NewBorder(v.head, nil, nil, nil, v.area)
	v.Clear()
}

// CreateRenderer draws the viewer's parts.
func (v *bodyViewer) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(v.root) }

// SetContents shows a read's entries, the first of them on screen. A
// screen that gets a big body on a goroutine can prepare it there
// (prepareContents) and hand it to ShowPrepared instead, so the window's
// thread only lays out the screen.
func (v *bodyViewer) SetContents(cs []pack.Content) { v.ShowPrepared(prepareContents(cs)) }

// ShowPrepared shows entries that prepareContents made.
func (v *bodyViewer) ShowPrepared(p preparedContents) { v.setEntries(p) }

// SetBody shows one entry.
func (v *bodyViewer) SetBody(c pack.Content) { v.SetContents([]pack.Content{c}) }

// SetMessage shows text the host recorded, not a resource's body, such as
// a JSON-RPC message (mimeType application/json): shown as text of that
// type is, and described as a message.
func (v *bodyViewer) SetMessage(mimeType, text string) {
	b := classify(pack.Content{MIMEType: mimeType, Text: text})
	b.message = true
	v.setEntries([]*shownBody{b.prepare()})
}

// setEntries shows bodies, with a choice of entry when there are several.
func (v *bodyViewer) setEntries(bodies []*shownBody) {
	v.entries = bodies
	names := make([]string, len(bodies))
	for i, b := range bodies {
		names[i] = fmt.Sprintf("Entry %d of %d · %s · %s", i+1, len(bodies), b.content.URI, mimeOf(b.content))
	}
	v.picker.OnChanged = nil
	v.picker.Options = names
	v.picker.ClearSelected()
	v.picker.Hidden = len(bodies) < 2
	v.picker.OnChanged = func(string) { v.showEntry(v.picker.SelectedIndex()) }
	if len(bodies) > 1 {
		v.picker.SetSelectedIndex(0) // shows the first entry
		return
	}
	v.showEntry(0)
}

// Clear shows nothing, and keeps no body.
func (v *bodyViewer) Clear() {
	v.entries = nil
	v.picker.Hide()
	v.showEntry(-1)
	v.text.setDoc(newTextDoc(""))
	v.md.clear()
}

// Text is the text of the entry on screen as the server sent it (the
// decoded text of a blob of a text type), and whether it has any.
func (v *bodyViewer) Text() (string, bool) {
	if v.shown < 0 || v.shown >= len(v.entries) {
		return "", false
	}
	b := v.entries[v.shown]
	return b.text, b.kind != kindImage && b.kind != kindBinary
}
