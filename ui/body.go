package ui

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	_ "image/gif" // decode GIF bodies
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"path"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/pack"
)

// A read's body is shown by the bodyViewer (viewer.go); this file holds
// what the viewer draws for blobs that are not text (an image, a hex
// preview with Save) and the helpers the screens share for text.

// Display limits: of the blobs the viewer shows as pictures or bytes, and
// of the text the screens that are not a viewer put in a Label (whose
// layout grows with the square of its length). A body is never cut on the
// wire or in the cache.
const (
	maxShownText  = 200 << 10
	hexPreviewLen = 256
	maxImageSide  = 480
	minImageSide  = 192
)

// mimeOf is an entry's MIME type, sniffed when the server gave none.
func mimeOf(c pack.Content) string {
	if c.MIMEType != "" {
		return c.MIMEType
	}
	if c.IsBlob {
		return http.DetectContentType(c.Blob) + " (sniffed)"
	}
	return "text (no type given)"
}

// prettyJSON indents JSON, or returns it as is when it is not valid.
func prettyJSON(raw []byte) string {
	var b bytes.Buffer
	if err := json.Indent(&b, bytes.TrimSpace(raw), "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}

// Columns at which long lines are broken for display: about the width of
// the panels, and of a dialog.
const (
	panelColumns  = 48
	dialogColumns = 120
)

// monospace is text in a fixed-width font, its long lines broken at cols
// (see softWrap) and wrapped again anywhere should the view be narrower.
func monospace(text string, cols int) *widget.Label {
	l := widget.NewLabel(softWrap(text, cols))
	l.TextStyle = fyne.TextStyle{Monospace: true}
	l.Wrapping = fyne.TextWrapBreak
	return l
}

// softWrap breaks every line longer than cols runes at its last space
// before cols, or at cols when it has none, for display only. Fyne's own
// wrapping of one long line takes time that grows with the square of its
// length (a 10 KB line of JSON took seconds to lay out), while short lines
// wrap at once. Where the exact text matters (Send, Copy) it is used as is.
func softWrap(text string, cols int) string {
	var b strings.Builder
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		for rs := []rune(line); ; {
			if len(rs) <= cols {
				b.WriteString(string(rs))
				break
			}
			cut := cols
			if sp := lastSpace(rs[:cols]); sp > cols/2 {
				cut = sp + 1
			}
			b.WriteString(string(rs[:cut]))
			b.WriteByte('\n')
			rs = rs[cut:]
		}
	}
	return b.String()
}

func lastSpace(rs []rune) int {
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i] == ' ' {
			return i
		}
	}
	return -1
}

// caption is a line of small text.
func caption(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.SizeName = theme.SizeNameCaptionText
	l.Wrapping = fyne.TextWrapWord // a sentence breaks between words
	return l
}

// imageView shows a decoded image at a readable size, with Save (its facts
// are the viewer's line above it).
func imageView(b shownBody, save func(pack.Content)) fyne.CanvasObject {
	bd := b.image.Bounds()
	view := canvas.NewImageFromImage(b.image)
	view.FillMode = canvas.ImageFillContain
	view.ScaleMode = canvas.ImageScalePixels
	view.SetMinSize(imageSize(bd.Dx(), bd.Dy()))
	return container.NewVBox(container.NewHBox(view), saveButton(b.content, save))
}

// imageSize scales w×h so that its longer side is between minImageSide
// and maxImageSide, keeping its shape.
func imageSize(w, h int) fyne.Size {
	if w <= 0 || h <= 0 {
		return fyne.NewSquareSize(minImageSide)
	}
	long := float32(max(w, h))
	scale := float32(1)
	switch {
	case long < minImageSide:
		scale = minImageSide / long
	case long > maxImageSide:
		scale = maxImageSide / long
	}
	return fyne.NewSize(float32(w)*scale, float32(h)*scale)
}

// blobView shows a blob of no text type: a hex preview of its first bytes
// and Save (its size and mimeType are the viewer's line above it).
func blobView(b shownBody, save func(pack.Content)) fyne.CanvasObject {
	blob := b.content.Blob
	n := min(len(blob), hexPreviewLen)
	dump := strings.TrimRight(hex.Dump(blob[:n]), "\n")
	l := widget.NewLabel(dump)
	l.TextStyle = fyne.TextStyle{Monospace: true}
	l.Selectable = true
	what := fmt.Sprintf("The first %d bytes, in hex:", n)
	if n == len(blob) {
		what = fmt.Sprintf("All %d bytes, in hex:", n)
	}
	note := caption(what)
	note.Wrapping = fyne.TextWrapWord
	return container.NewVBox(note, container.NewHScroll(l), saveButton(b.content, save))
}

func saveButton(c pack.Content, save func(pack.Content)) fyne.CanvasObject {
	b := newButton("Save…", theme.DocumentSaveIcon(), func() { save(c) })
	return container.NewHBox(b)
}

// saveName is a file name for an entry: the last segment of its URI, with
// an extension for its type when it has none.
func saveName(c pack.Content) string {
	name := path.Base(strings.TrimRight(c.URI, "/"))
	if i := strings.IndexAny(name, "?#"); i >= 0 {
		name = name[:i]
	}
	if name == "" || name == "." || name == "/" {
		name = "resource"
	}
	if path.Ext(name) == "" {
		if _, sub, ok := strings.Cut(c.MIMEType, "/"); ok && !strings.ContainsAny(sub, "+.;") {
			name += "." + sub
		} else {
			name += ".bin"
		}
	}
	return name
}
