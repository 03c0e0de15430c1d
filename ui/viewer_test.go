package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/npmpeer"
	"github.com/attache/attache/internal/testbin"
)

// The body viewer is tested in the inspector, on bodies read from real
// servers: mcptestd's bodies mode (generated bodies of any size) and the
// npm server-everything (Markdown documents, a text/plain blob).

// readFrom adds server (once) and reads uri from it in the inspector.
func (h *harness) readFrom(sc config.ServerConfig, uri string) *bodyViewer {
	h.t.Helper()
	if _, err := h.host.Conn(sc.Name, ""); err != nil {
		if err := h.host.AddServer(context.Background(), sc); err != nil {
			h.t.Fatal(err)
		}
	}
	if err := h.try(func() error { return h.app.SelectServer(sc.Name, "") }); err != nil {
		h.t.Fatal(err)
	}
	h.settle()
	h.do(func() { h.app.Read(uri) })
	h.settle()
	if !strings.Contains(h.app.inspector.badge.Text, "MISS") && !strings.Contains(h.app.inspector.badge.Text, "HIT") {
		h.t.Fatalf("reading %s: %s", uri, texts(h.app.inspector.body))
	}
	return h.app.inspector.bodyViewer()
}

func bodiesServer(t *testing.T) config.ServerConfig {
	return config.ServerConfig{Name: "bodies", Title: "bodies",
		Command: testbin.Build(t, "internal/mcptest/mcptestd"), Args: []string{"--mode", mcptest.ModeBodies, "--stdio"}}
}

func everythingServer(t *testing.T) config.ServerConfig {
	return config.ServerConfig{Name: "everything", Title: "everything",
		Command: "node", Args: []string{npmpeer.Entry(t, "server-everything"), "stdio"}}
}

// bodyText is the text the bodies mode serves at kind and size.
func bodyText(t *testing.T, kind, size string) string {
	n, _ := mcptest.ParseBodySize(size)
	_, text, blob, err := mcptest.Body(kind, n)
	if err != nil {
		t.Fatal(err)
	}
	return text + string(blob)
}

// A 1 MB body is shown whole, as rows made only for the screen: the rows
// on screen are the body's first lines, and its last line is there to
// scroll to (the Label it replaced showed the first 200 KiB, and laid out
// all of them).
func TestViewerShowsAMegabyteOnDemand(t *testing.T) {
	h := newHarness(t)
	v := h.readFrom(bodiesServer(t), mcptest.BodiesURI(mcptest.BodyText, "1m"))
	body := bodyText(t, mcptest.BodyText, "1m")
	lines := strings.Split(body, "\n")
	var shown []string
	h.do(func() { shown = v.text.shownRows() })
	visible := int(viewerHeight(h, v)/v.text.cell().Height) + 2
	if len(shown) == 0 || len(shown) > visible || !strings.HasPrefix(lines[0], shown[0]) || len(shown[0]) < 20 {
		t.Fatalf("%d rows on screen (at most %d fit), the first %q; want the start of the body's first line %q", len(shown), visible, first(shown), lines[0])
	}
	h.do(func() { v.text.area.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd}) })
	h.do(func() { shown = v.text.shownRows() })
	if last := lines[len(lines)-1]; len(shown) == 0 || !strings.HasSuffix(last, shown[len(shown)-1]) {
		t.Errorf("at the end the last row is %q; want the end of the body's last line %q", first(shown[len(shown)-1:]), last)
	}
	if f := v.facts.Text; !strings.Contains(f, "1,048,576 bytes") || !strings.Contains(f, "mimeType text/plain as the server gave it") {
		t.Errorf("facts: %q", f)
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// viewerHeight is the height of the text view's scroll.
func viewerHeight(h *harness, v *bodyViewer) float32 {
	var height float32
	h.do(func() { height = v.text.scroll.Size().Height })
	return height
}

// Find marks every match, counts them as a search of the body would, and
// brings the current one on screen; Enter goes on to the next, Shift+Enter
// back; Escape closes the bar and unmarks them.
func TestViewerFind(t *testing.T) {
	h := newHarness(t)
	v := h.readFrom(bodiesServer(t), mcptest.BodiesURI(mcptest.BodyText, "1m"))
	body := bodyText(t, mcptest.BodyText, "1m")
	const q = "Billing Webhook"
	want := strings.Count(strings.ToLower(body), strings.ToLower(q))
	h.shortcut(shortcutFindInBody) // Ctrl+F, from the main menu
	h.do(func() {
		if v.bar.box.Hidden || h.app.Window().Canvas().Focused() != v.bar.field {
			t.Fatal("Ctrl+F did not open the find bar with the keyboard in it")
		}
		test.Type(v.bar.field, q)
	})
	var count string
	h.do(func() { count = v.bar.count.Text })
	if want == 0 || count != "1 of "+count64(want) {
		t.Fatalf("the bar says %q; the body holds %d matches", count, want)
	}
	for _, step := range []struct {
		key   fyne.KeyName
		shift bool
		want  int
	}{{fyne.KeyReturn, false, 1}, {fyne.KeyReturn, false, 2}, {fyne.KeyReturn, true, 1}} {
		h.do(func() {
			if step.shift {
				v.bar.field.KeyDown(&fyne.KeyEvent{Name: "LeftShift"})
			}
			v.bar.field.TypedKey(&fyne.KeyEvent{Name: step.key})
			v.bar.field.KeyUp(&fyne.KeyEvent{Name: "LeftShift"})
		})
		h.do(func() { count = v.bar.count.Text })
		if count != count64(step.want+1)+" of "+count64(want) {
			t.Errorf("after a step the bar says %q, want match %d", count, step.want+1)
		}
	}
	h.do(func() {
		m := v.text.matches[v.text.current]
		row := v.text.doc.text[v.text.rows[rowOf(v.text.rows, m.start)].start:v.text.rows[rowOf(v.text.rows, m.start)].end]
		if !contains(v.text.shownRows(), row) {
			t.Errorf("the current match's row %q is not on screen", row)
		}
		v.bar.field.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	})
	h.do(func() {
		if !v.bar.box.Hidden || len(v.text.matches) != 0 {
			t.Errorf("after Escape: bar hidden %v, %d matches marked", v.bar.box.Hidden, len(v.text.matches))
		}
	})
}

func count64(n int) string { return count(int64(n)) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// With lines wrapped no row is wider than the view; unwrapped, a long
// line is one row and the text scrolls sideways to it.
func TestViewerWrap(t *testing.T) {
	h := newHarness(t)
	v := h.readFrom(bodiesServer(t), mcptest.BodiesURI(mcptest.BodyText, "40k"))
	h.do(func() {
		cols := v.text.viewCols()
		for _, r := range v.text.rows {
			if n := v.text.doc.columns(r.start, r.end); n > cols+1 {
				t.Fatalf("a wrapped row has %d columns, the view %d", n, cols)
			}
		}
		v.wrap.SetChecked(false)
	})
	h.do(func() {
		if len(v.text.rows) != v.text.doc.lines() {
			t.Errorf("unwrapped: %d rows for %d lines", len(v.text.rows), v.text.doc.lines())
		}
		w := v.text.area.MinSize().Width
		if want := float32(v.text.doc.widest) * v.text.cell().Width; w < want || v.text.scroll.Direction != fyne.ScrollBoth {
			t.Errorf("unwrapped: the text is %v wide (its widest line %v) and scrolls %v", w, want, v.text.scroll.Direction)
		}
	})
}

// Copy copies the body exactly as the server sent it; Ctrl+A and Ctrl+C in
// the body copy what is selected.
func TestViewerCopy(t *testing.T) {
	h := newHarness(t)
	v := h.readFrom(bodiesServer(t), mcptest.BodiesURI(mcptest.BodyJSON, "40k"))
	h.do(func() { test.Tap(v.copyBtn) })
	if got, want := h.fa.Clipboard().Content(), bodyText(t, mcptest.BodyJSON, "40k"); got != want {
		t.Errorf("Copy gave %d bytes, want the body's %d as sent", len(got), len(want))
	}
	h.do(func() {
		v.text.area.TypedShortcut(&fyne.ShortcutSelectAll{})
		v.text.area.TypedShortcut(&fyne.ShortcutCopy{Clipboard: h.fa.Clipboard()})
	})
	if got := h.fa.Clipboard().Content(); got != prettyJSON([]byte(bodyText(t, mcptest.BodyJSON, "40k"))) {
		t.Errorf("Ctrl+A, Ctrl+C gave %d bytes, want the indented JSON shown", len(got))
	}
}

// A blob whose mimeType is text/plain (server-everything's dynamic blob)
// is shown as text, with its size and its mimeType as the server gave it,
// not as hex.
func TestTextBlobShownAsText(t *testing.T) {
	h := newHarness(t)
	v := h.readFrom(everythingServer(t), "demo://resource/dynamic/blob/1")
	var shown []string
	h.do(func() { shown = v.text.shownRows() })
	if v.view != fyne.CanvasObject(v.text) || len(shown) != 1 || !strings.HasPrefix(shown[0], "Resource 1: This is a base64 blob") {
		t.Fatalf("the blob shows as %q", shown)
	}
	if f := v.facts.Text; !strings.HasPrefix(f, "Blob · ") || !strings.Contains(f, "mimeType text/plain as the server gave it · shown as text, read as UTF-8") {
		t.Errorf("facts: %q", f)
	}
}

// A Markdown body is rendered, and Source shows what the server sent; the
// rendered body's code is its words, and a relative link reads the
// resource it names from the same server.
func TestMarkdownRenderedAndSource(t *testing.T) {
	h := newHarness(t)
	v := h.readFrom(everythingServer(t), "demo://resource/static/document/features.md")
	var pieces []string
	h.do(func() { pieces = v.md.shownPieces() })
	if v.view != fyne.CanvasObject(v.md) || len(pieces) == 0 || pieces[0] != "Everything Server - Features" {
		t.Fatalf("rendered, the body shows %q", pieces)
	}
	if b := v.md.doc.blocks[0]; b.kind != mdHeading || b.level != 1 {
		t.Errorf("the first block is %+v, want a heading", b)
	}
	h.do(func() { h.app.ShowBodySource(true) })
	var rows []string
	h.do(func() { rows = v.text.shownRows() })
	if v.view != fyne.CanvasObject(v.text) || first(rows) != "# Everything Server - Features" {
		t.Fatalf("as source, the body shows %q", rows)
	}
	h.do(func() { h.app.ShowBodySource(false) })
	var at fyne.Position // the first link on screen: "Architecture", to architecture.md
	h.do(func() {
		pad := v.md.Theme().Size("innerPadding")
		for i, l := range v.md.laid {
			if l == nil {
				break
			}
			for _, p := range l.pieces {
				if p.run >= 0 && v.md.doc.blocks[i].runs[p.run].link != "" && at.IsZero() {
					at = fyne.NewPos(pad+p.x+2, pad+v.md.tops[i]+p.y+2)
				}
			}
			if !at.IsZero() || i > 3 {
				break
			}
		}
		v.md.area.Tapped(&fyne.PointEvent{Position: at})
	})
	h.settle()
	if got := h.app.inspector.uri.Text; got != "demo://resource/static/document/architecture.md" {
		t.Errorf("a click on the first link read %q", got)
	}
}

// An HTML body is rendered as text, without its tags, scripts or styles;
// Source shows the tags.
func TestHTMLRendered(t *testing.T) {
	h := newHarness(t)
	v := h.readFrom(bodiesServer(t), mcptest.BodiesURI(mcptest.BodyHTML, "8k"))
	var all string
	h.do(func() { all = texts(v) })
	if strings.Contains(all, "<p>") || strings.Contains(all, "color:red") || !strings.Contains(all, "Section 1: ") {
		t.Errorf("rendered HTML shows:\n%.400s", all)
	}
	h.do(func() { h.app.ShowBodySource(true) })
	h.do(func() { all = strings.Join(v.text.shownRows(), "\n") })
	if !strings.HasPrefix(all, "<!DOCTYPE html>") {
		t.Errorf("the source starts %.80q", all)
	}
}

// The console's message pane is the same viewer: the chosen message shows
// indented as rows, and Ctrl+F finds in it, from the filter field too.
func TestConsoleMessageInTheViewer(t *testing.T) {
	h := newHarness(t)
	id := h.memoryIDs("acme", "m", 1)[0]
	h.do(func() { h.app.ReadID(id) })
	h.settle()
	h.do(h.app.ShowConsole)
	c := h.app.console
	h.do(func() { h.app.ConsoleFilter(id) })
	if err := h.try(func() error { return h.app.ConsoleSelect("resources/read") }); err != nil {
		t.Fatal(err)
	}
	h.do(func() {
		rows := c.detail.text.shownRows()
		if c.detail.view != fyne.CanvasObject(c.detail.text) || first(rows) != "{" || !strings.HasPrefix(c.detail.facts.Text, "Message · ") {
			t.Errorf("the message shows %q with facts %q", rows, c.detail.facts.Text)
		}
		c.win.Canvas().Focus(c.filter)
		c.filter.TypedShortcut(shortcutFindInBody)
	})
	h.do(func() {
		if c.detail.bar.box.Hidden || c.win.Canvas().Focused() != c.detail.bar.field {
			t.Fatal("Ctrl+F in the filter did not open the message's find bar")
		}
		test.Type(c.detail.bar.field, id)
	})
	h.do(func() {
		if c.detail.found == 0 || !strings.HasPrefix(c.detail.bar.count.Text, "1 of ") {
			t.Errorf("finding %s in its read's response: %q", id, c.detail.bar.count.Text)
		}
	})
}

// A read of several entries shows one at a time, with a choice of entry
// that names each; each entry shows as its kind.
func TestViewerEntries(t *testing.T) {
	test.NewTempApp(t)
	v := newBodyViewer(nil)
	w := test.NewWindow(v)
	defer w.Close()
	w.Resize(fyne.NewSize(545, 330))
	v.SetContents([]pack.Content{
		{URI: "test://a.txt", MIMEType: "text/plain", Text: "first entry"},
		{URI: "test://b.png", MIMEType: "image/png", Blob: mcptest.ImagePNG(), IsBlob: true},
		{URI: "test://c.md", MIMEType: "text/markdown", Text: "# Third"},
	})
	if v.picker.Hidden || len(v.picker.Options) != 3 || v.picker.Options[1] != "Entry 2 of 3 · test://b.png · image/png" {
		t.Fatalf("the choice of entry: hidden %v, %q", v.picker.Hidden, v.picker.Options)
	}
	if first(v.text.shownRows()) != "first entry" {
		t.Errorf("the first entry shows %q", v.text.shownRows())
	}
	v.picker.SetSelectedIndex(1)
	if v.view != nil || !strings.Contains(v.facts.Text, "PNG image, 96×64 pixels") || !v.findBtn.Hidden {
		t.Errorf("the image entry: facts %q, find shown %v", v.facts.Text, !v.findBtn.Hidden)
	}
	v.picker.SetSelectedIndex(2)
	if v.view != fyne.CanvasObject(v.md) || first(v.md.shownPieces()) != "Third" {
		t.Errorf("the Markdown entry shows %q", v.md.shownPieces())
	}
	v.SetBody(pack.Content{URI: "test://one", Text: "one"})
	if !v.picker.Hidden {
		t.Error("one entry still offers a choice of entry")
	}
}

// The viewer follows a change of theme: its rows take the new text colour.
func TestViewerFollowsTheTheme(t *testing.T) {
	fa := test.NewTempApp(t)
	fa.Settings().SetTheme(newReadableTheme(ThemeLight))
	v := newBodyViewer(nil)
	w := test.NewWindow(v)
	defer w.Close()
	w.Resize(fyne.NewSize(545, 330))
	v.SetBody(pack.Content{URI: "test://t", MIMEType: "text/plain", Text: "some text"})
	dark := newReadableTheme(ThemeDark)
	fa.Settings().SetTheme(dark)
	want := dark.Color(theme.ColorNameForeground, theme.VariantDark)
	for _, txt := range v.text.area.texts() {
		if txt.Color != want {
			t.Errorf("after the switch to dark the row %q is %v, want %v", txt.Text, txt.Color, want)
		}
	}
	if len(v.text.area.texts()) == 0 {
		t.Fatal("no rows shown")
	}
}
