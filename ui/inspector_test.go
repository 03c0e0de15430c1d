package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/pack"
)

// Selecting an image resource reads it and shows the blob as an image,
// with its facts, the metadata and the raw exchange that carried it.
func TestReadImageBlob(t *testing.T) {
	h := newHarness(t)
	if err := h.try(func() error { return h.app.SelectServer("images", "") }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	if err := h.try(func() error { return h.app.SelectResource("test://image/png") }); err != nil {
		t.Fatal(err)
	}
	h.settle()
	in := h.app.inspector
	if find[*canvas.Image](in.body) == nil {
		t.Fatal("the PNG blob is not shown as an image")
	}
	if !strings.HasPrefix(in.badge.Text, "MISS") {
		t.Errorf("badge = %q, want a miss", in.badge.Text)
	}
	// Only the request is checked: hostcore's stdio tap records a request
	// after writing it to the server, so a fast reply can be recorded first
	// and Tap.Find then pairs no response with it (reported to hostcore).
	if len(in.raw.Objects)+len(in.meta.Objects) != 0 {
		t.Error("the exchange and the metadata were made before their tabs were shown")
	}
	h.do(func() { in.tabs.SelectIndex(2) }) // the exchange is made when its tab shows
	raw := texts(in.raw)
	if !strings.Contains(raw, `"method": "resources/read"`) || !strings.Contains(raw, "Response") {
		t.Errorf("the raw view lacks the request:\n%s", raw)
	}
	h.do(func() { in.tabs.SelectIndex(0) })
	h.do(func() { in.tabs.SelectIndex(1) })
	if meta := texts(in.meta); !strings.Contains(meta, "image/png") {
		t.Errorf("the metadata lacks the MIME type:\n%s", meta)
	}
	h.do(func() { in.tabs.SelectIndex(0) })
	assertMarkup(t, "inspector_image.xml", in.tabs)
}

// A memory that does not exist is shown as "Not found", with what to do
// next and the exchange that failed; the status line says the same.
func TestReadNotFound(t *testing.T) {
	h := newHarness(t)
	p := h.app.picker
	p.show(TabByID)
	h.do(func() { test.Type(p.byID.id, "doesnotexist") })
	h.do(func() { p.byID.id.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) }) // Enter reads
	h.settle()
	in := h.app.inspector
	body := texts(in.body)
	for _, want := range []string{"Not found", "no such resource", "What to do next: Check the URI or id"} {
		if !strings.Contains(body, want) {
			t.Errorf("the error view lacks %q:\n%s", want, body)
		}
	}
	if in.badge.Text != "FAILED · not found" {
		t.Errorf("badge = %q", in.badge.Text)
	}
	h.do(func() { in.tabs.SelectIndex(2) })
	if raw := texts(in.raw); !strings.Contains(raw, `"uri": "threengram://memory/doesnotexist"`) {
		t.Errorf("the raw view lacks the failed exchange:\n%s", raw)
	}
	h.do(func() { in.tabs.SelectIndex(0) })
	if !strings.HasPrefix(h.app.status.Text, "Not found:") {
		t.Errorf("status line = %q", h.app.status.Text)
	}
	assertMarkup(t, "inspector_not_found.xml", in.tabs)
}

// A blob that is not an image is shown as its size, a hex preview of its
// first bytes, and Save.
func TestBlobPreview(t *testing.T) {
	test.NewTempApp(t)
	blob := []byte("%PDF-1.7\n\x00\x01\x02 binary body")
	view := newBodyViewer(nil)
	view.SetBody(pack.Content{URI: "test://doc/report.pdf", MIMEType: "application/pdf", Blob: blob, IsBlob: true})
	got := texts(view)
	for _, want := range []string{"Blob · 24 bytes (24 B) · mimeType application/pdf as the server gave it · not text",
		"All 24 bytes, in hex:", "25 50 44 46 2d 31 2e 37", "Save…"} {
		if !strings.Contains(got, want) {
			t.Errorf("the blob view lacks %q:\n%s", want, got)
		}
	}
	if name := saveName(pack.Content{URI: "test://doc/report", MIMEType: "application/pdf"}); name != "report.pdf" {
		t.Errorf("save name = %q, want report.pdf", name)
	}
	assertMarkupAt(t, "blob_preview.xml", view, 545)
}

// find returns the first object of type T in o's tree.
func find[T fyne.CanvasObject](o fyne.CanvasObject) T {
	var zero T
	for _, obj := range test.LaidOutObjects(o) {
		if v, ok := obj.(T); ok {
			return v
		}
	}
	return zero
}

// texts is every label, rich text and button text in o's tree, a line
// each, and the whole text of every body viewer's text or rendered view
// (which draws only the rows on screen: see shownRows for those).
func texts(o fyne.CanvasObject) string {
	var b strings.Builder
	for _, obj := range test.LaidOutObjects(o) {
		switch v := obj.(type) {
		case *widget.Label:
			b.WriteString(v.Text + "\n")
		case *widget.RichText:
			b.WriteString(v.String() + "\n")
		case *button:
			b.WriteString(v.Text + "\n")
		case *textView:
			b.WriteString(v.doc.text + "\n")
		case *mdView:
			for _, blk := range v.doc.blocks {
				b.WriteString(blk.text + "\n")
			}
		}
	}
	return b.String()
}

func TestSoftWrap(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"short lines stay", "ab cd\nef", "ab cd\nef"},
		{"at the last space", "aaa bbb ccc", "aaa bbb \nccc"},
		{"hard without a space", "abcdefghijk", "abcdefghij\nk"},
		{"runes, not bytes", "ééééééééééé", "éééééééééé\né"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := softWrap(tt.text, 10); got != tt.want {
				t.Errorf("softWrap(%q, 10) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

// Counts read as English: a read of one entry says "1 entry", not "1
// entries", and its bytes group their digits.
func TestMetadataSaysOneEntry(t *testing.T) {
	h := newHarness(t)
	h.do(func() { h.app.ReadID(h.memoryIDs("acme", "m", 1)[0]) })
	h.settle()
	var size string
	h.do(func() { h.app.inspector.tabs.SelectIndex(1) }) // Metadata, made when shown
	h.do(func() {
		for _, o := range test.LaidOutObjects(h.app.inspector.meta) {
			if v, ok := o.(*copyValue); ok && strings.HasSuffix(v.Text(), "entry") || ok && strings.HasSuffix(v.Text(), "entries") {
				size = v.Text()
			}
		}
	})
	if !strings.HasSuffix(size, " bytes in 1 entry") {
		t.Errorf("the metadata's size says %q, want … bytes in 1 entry", size)
	}
}
