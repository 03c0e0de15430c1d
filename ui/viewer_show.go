package ui

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/attache/attache/hostcore/pack"
)

// shortcutFindInBody opens the viewer's find bar.
var shortcutFindInBody = &desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierShortcutDefault}

// showEntry puts entry i on screen (-1: nothing), in the view its kind
// takes.
func (v *bodyViewer) showEntry(i int) {
	v.shown, v.source = i, false
	if i < 0 || i >= len(v.entries) {
		v.view = nil
		v.facts.SetText("")
		v.area.Objects = nil
		v.area.Refresh()
		v.setTools(false, false, false)
		return
	}
	b := v.entries[i]
	v.modes.OnChanged = nil
	if names, first := modeNames(b.kind), ""; !slices.Equal(names, v.modes.Options) || len(names) > 0 && v.modes.Selected != names[0] {
		if len(names) > 0 {
			first = names[0]
		}
		v.modes.Options, v.modes.Selected = names, first
		v.modes.Refresh()
	}
	v.modes.OnChanged = func(choice string) { v.setSource(choice == v.modes.Options[1]) }
	v.present()
}

// modeNames are the two ways a kind can be shown, rendered first; none for
// a kind shown one way.
func modeNames(k bodyKind) []string {
	switch k {
	case kindMarkdown, kindHTML:
		return []string{"Rendered", "Source"}
	case kindJSON:
		return []string{"Indented", "As sent"}
	}
	return nil
}

// setSource shows the entry's source (or, for JSON, the text as sent).
func (v *bodyViewer) setSource(on bool) {
	if on == v.source {
		return
	}
	v.source = on
	v.present()
}

// present shows the entry on screen the way its kind and the mode say.
func (v *bodyViewer) present() {
	b := v.entries[v.shown]
	var obj fyne.CanvasObject
	switch {
	case b.kind == kindImage:
		v.view, obj = nil, container.NewVScroll(imageView(*b, v.save))
	case b.kind == kindBinary:
		v.view, obj = nil, container.NewVScroll(blobView(*b, v.save))
	case b.rendered() && !v.source:
		v.md.setDoc(b.mdDoc(), b.content.URI)
		v.view, obj = v.md, v.md
	default:
		v.text.setDoc(b.textDoc(v.source))
		v.view, obj = v.text, v.text
	}
	var doc *textDoc
	if v.view == fyne.CanvasObject(v.text) {
		doc = b.textDoc(v.source)
	}
	v.facts.SetText(bodyFacts(b, doc, v.source))
	v.area.Objects = []fyne.CanvasObject{obj}
	v.area.Refresh()
	isText := v.view != nil
	v.setTools(isText, isText && v.view == fyne.CanvasObject(v.text), len(v.modes.Options) > 0)
	if v.finding && isText {
		v.search(v.query)
	}
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// setTools shows the tools that apply: Find and Copy for text, Wrap lines
// for the text view, the mode switch for a kind shown two ways. The head
// is laid out again only when one came or went: a refresh of it redraws
// every button.
func (v *bodyViewer) setTools(text, lines, modes bool) {
	changed := show(v.findBtn, text)
	changed = show(v.copyBtn, text && !v.opts.noCopy) || changed
	changed = show(v.wrap, lines) || changed
	changed = show(v.modes, modes) || changed
	changed = show(v.tools, text || modes) || changed
	changed = show(v.bar.box, text && v.finding) || changed
	if changed {
		v.head.Refresh()
	}
}

// show shows or hides o, and says whether that changed anything.
func show(o fyne.CanvasObject, on bool) bool {
	if o.Visible() == on {
		return false
	}
	if on {
		o.Show()
	} else {
		o.Hide()
	}
	return true
}

// bodyFacts is the line above a body: its kind, its size, its mimeType as
// the server gave it, and what the view did with it.
func bodyFacts(b *shownBody, doc *textDoc, source bool) string {
	c := b.content
	field := "Text"
	if c.IsBlob {
		field = "Blob"
	}
	parts := []string{field, fmt.Sprintf("%s bytes (%s)", count(int64(c.Size())), byteSize(int64(c.Size())))}
	switch {
	case b.message:
		parts[0] = "Message"
	case c.MIMEType != "":
		parts = append(parts, "mimeType "+c.MIMEType+" as the server gave it")
	default:
		parts = append(parts, "no mimeType given")
	}
	switch b.kind {
	case kindImage:
		bd := b.image.Bounds()
		parts = append(parts, fmt.Sprintf("%s image, %d×%d pixels", strings.ToUpper(b.format), bd.Dx(), bd.Dy()))
	case kindBinary:
		parts = append(parts, "not text"+sniffed(c))
	}
	if c.IsBlob && b.decoded != "" {
		parts = append(parts, "shown as text, read as "+b.decoded)
	}
	if b.kind == kindJSON && !source && !looksValidJSON(b.text) {
		parts = append(parts, "not valid JSON, shown as sent")
	}
	if doc != nil {
		parts = append(parts, plural(doc.lines(), "line", "lines"))
	}
	return strings.Join(parts, " · ")
}

// sniffed says what a blob with no mimeType looks like.
func sniffed(c pack.Content) string {
	if c.MIMEType != "" {
		return ""
	}
	return " (the bytes look like " + strings.TrimSuffix(mimeOf(c), " (sniffed)") + ")"
}

// plural is "1 line", "12 lines".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return count(int64(n)) + " " + many
}

// save saves the entry on screen.
func (v *bodyViewer) save(c pack.Content) {
	if v.opts.save != nil {
		v.opts.save(c)
	}
}

// copyBody copies the entry's whole text as the server sent it.
func (v *bodyViewer) copyBody() {
	text, ok := v.Text()
	if !ok {
		return
	}
	fyne.CurrentApp().Clipboard().SetContent(text)
	if v.opts.notify != nil {
		v.opts.notify(fmt.Sprintf("Copied the body (%s bytes)", count(int64(len(text)))))
	}
}

// followLink follows a link of a rendered body, resolved against the
// body's uri.
func (v *bodyViewer) followLink(u *url.URL) {
	if v.opts.link == nil || v.shown < 0 || v.shown >= len(v.entries) {
		return
	}
	if base, err := url.Parse(v.entries[v.shown].content.URI); err == nil {
		u = base.ResolveReference(u)
	}
	v.opts.link(u)
}
