package ui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/internal/mcptest"
)

// The body viewer's speed, in Fyne's test driver, on the goroutine that
// is the window's: the same bodies the bodies mode serves (mcptest.Body),
// shown in a viewer of the inspector's body size. "prepare" is the work
// the read's goroutine does before the window sees the body (classify,
// find the lines, indent JSON, parse Markdown or HTML); "show" is the
// window thread's part: the prepared body given to a viewer on screen
// that showed another before, as the inspector does on each read, with
// nothing measured yet (a rendered body's words are measured anew), until
// the first screen's rows exist; "paint" adds the test driver's software
// paint of that screen; "scroll" moves a shown body down by a page, every row new;
// "layout-all" lays out every block of a rendered body at the width, as
// scrolling to its end would. Each reports cpu-ms/op, the process's CPU
// (less disturbed by a busy machine than the wall time), besides ns/op.
// Run with -benchtime 10x or more: a 1 MB body's op is milliseconds.

// viewerSize is the inspector's body tab in the default window.
var viewerSize = fyne.NewSize(545, 330)

func benchBody(b *testing.B, kind, size string) pack.Content {
	b.Helper()
	n, err := mcptest.ParseBodySize(size)
	if err != nil {
		b.Fatal(err)
	}
	mime, text, blob, err := mcptest.Body(kind, n)
	if err != nil {
		b.Fatal(err)
	}
	return pack.Content{URI: mcptest.BodiesURI(kind, size), MIMEType: mime, Text: text, Blob: blob, IsBlob: blob != nil}
}

// shownViewer is a viewer in a canvas of viewerSize showing c.
func shownViewer(c pack.Content) (*bodyViewer, fyne.Canvas) {
	v := newBodyViewer(nil)
	cv := test.NewCanvas()
	cv.SetPadded(false)
	cv.SetContent(v)
	cv.Resize(viewerSize)
	v.SetBody(c)
	return v, cv
}

// reportCPU reports the process's CPU time per op since before.
func reportCPU(b *testing.B, before time.Duration) {
	self, _ := cpuTime()
	b.ReportMetric(ms(self-before)/float64(b.N), "cpu-ms/op")
}

func BenchmarkViewer(b *testing.B) {
	for _, tt := range []struct{ name, kind, size string }{
		{"text-40k", mcptest.BodyText, "40k"}, {"json-40k", mcptest.BodyJSON, "40k"},
		{"text-1m", mcptest.BodyText, "1m"}, {"json-1m", mcptest.BodyJSON, "1m"},
		{"markdown-1m", mcptest.BodyMarkdown, "1m"}, {"html-1m", mcptest.BodyHTML, "1m"},
	} {
		c := benchBody(b, tt.kind, tt.size)
		b.Run(tt.name+"/prepare", func(b *testing.B) { benchPrepare(b, c) })
		b.Run(tt.name+"/show", func(b *testing.B) { benchShow(b, c, false) })
		b.Run(tt.name+"/paint", func(b *testing.B) { benchShow(b, c, true) })
	}
}

// benchShow shows c in the viewer each op, as the inspector does: the
// body prepared off the window's thread (not timed), then shown; with
// paint, the test driver paints the screen too.
func benchShow(b *testing.B, c pack.Content, paint bool) {
	test.NewTempApp(b)
	v, cv := shownViewer(pack.Content{URI: "test://first", MIMEType: "text/plain", Text: "the body before"})
	var cpu time.Duration
	rows := 0
	for b.Loop() {
		b.StopTimer()
		p := prepareContents([]pack.Content{c})
		v.Clear()
		v.md.measure.forget()
		before, _ := cpuTime()
		b.StartTimer()
		v.ShowPrepared(p)
		if paint {
			cv.(test.WindowlessCanvas).Capture()
		}
		b.StopTimer()
		after, _ := cpuTime()
		cpu += after - before
		rows = len(v.shownRowsOrPieces())
		b.StartTimer()
	}
	b.ReportMetric(ms(cpu)/float64(b.N), "cpu-ms/op")
	if rows == 0 {
		b.Fatal("nothing was shown")
	}
	b.ReportMetric(float64(rows), "rows-shown")
}

// benchPrepare prepares c as a read's goroutine does before the window
// shows it: classified, its lines found, JSON indented, Markdown parsed.
func benchPrepare(b *testing.B, c pack.Content) {
	before, _ := cpuTime()
	for b.Loop() {
		prepareContents([]pack.Content{c})
	}
	reportCPU(b, before)
}

// shownRowsOrPieces is what the view on screen draws.
func (v *bodyViewer) shownRowsOrPieces() []string {
	if v.view == fyne.CanvasObject(v.md) {
		return v.md.shownPieces()
	}
	return v.text.shownRows()
}

// BenchmarkViewerScroll scrolls a shown 1 MB body down a page an op (back
// to the top at its end): each op lays out and places a screen of rows
// never shown before, the worst a frame of scrolling can ask.
func BenchmarkViewerScroll(b *testing.B) {
	for _, tt := range []struct{ name, kind string }{
		{"text-1m", mcptest.BodyText}, {"markdown-1m", mcptest.BodyMarkdown},
	} {
		c := benchBody(b, tt.kind, "1m")
		b.Run(tt.name, func(b *testing.B) {
			test.NewTempApp(b)
			v, _ := shownViewer(c)
			a := &App{}
			a.inspector = &inspector{viewer: v}
			before, _ := cpuTime()
			moved := 0
			for b.Loop() {
				if a.ScrollBody(viewerSize.Height) {
					moved++
				} else {
					a.ScrollBody(-1e9)
				}
			}
			reportCPU(b, before)
			if moved == 0 || len(v.shownRowsOrPieces()) == 0 {
				b.Fatal("the body never scrolled")
			}
		})
	}
}

// BenchmarkMarkdownLayoutAll lays out every block of a 1 MB Markdown body
// at the viewer's width: what showing all of it, in chunks as it scrolls
// into view, costs in all.
func BenchmarkMarkdownLayoutAll(b *testing.B) {
	c := benchBody(b, mcptest.BodyMarkdown, "1m")
	test.NewTempApp(b)
	doc := markdownDoc(c.Text)
	before, _ := cpuTime()
	for b.Loop() {
		v, _ := shownViewer(pack.Content{})
		v.md.setDoc(doc, "")
		v.md.Resize(viewerSize)
		v.md.fitWidth()
		for i := range doc.blocks {
			v.md.lay(i)
		}
	}
	reportCPU(b, before)
	b.ReportMetric(float64(len(doc.blocks)), "blocks")
}

// BenchmarkMarkdownParse is the parse of a 1 MB Markdown body into
// blocks, part of its show.
func BenchmarkMarkdownParse(b *testing.B) {
	c := benchBody(b, mcptest.BodyMarkdown, "1m")
	for b.Loop() {
		markdownDoc(c.Text)
	}
}
