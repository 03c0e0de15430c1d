package ui

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
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

// A read's body is shown by what it is: Markdown as rich text, JSON pretty
// printed, images as images, other text as is, other blobs as their size, a
// hex preview of their first bytes and a Save button.

// Display limits: a body is never cut on the wire or in the cache, only in
// what the inspector lays out.
const (
	maxShownText  = 200 << 10
	hexPreviewLen = 256
	maxImageSide  = 480
	minImageSide  = 192
)

// renderContents lays out every entry of a read. save is offered for blobs.
func renderContents(contents []pack.Content, save func(pack.Content)) fyne.CanvasObject {
	box := container.NewVBox()
	for i, c := range contents {
		if len(contents) > 1 {
			if i > 0 {
				box.Add(widget.NewSeparator())
			}
			box.Add(caption(fmt.Sprintf("entry %d of %d · %s · %s", i+1, len(contents), c.URI, mimeOf(c))))
		}
		box.Add(renderContent(c, save))
	}
	return box
}

// renderContent lays out one entry by its type.
func renderContent(c pack.Content, save func(pack.Content)) fyne.CanvasObject {
	if c.IsBlob {
		if img, format, err := image.Decode(bytes.NewReader(c.Blob)); err == nil {
			return imageView(c, img, format, save)
		}
		return blobView(c, save)
	}
	text, cut := c.Text, ""
	if len(text) > maxShownText {
		text, cut = text[:maxShownText], fmt.Sprintf("Showing the first %s of %s.", byteSize(maxShownText), byteSize(int64(len(c.Text))))
	}
	var view fyne.CanvasObject
	switch {
	case isMarkdown(c):
		rt := widget.NewRichTextFromMarkdown(text)
		rt.Wrapping = fyne.TextWrapWord
		view = rt
	case isJSON(c):
		view = monospace(prettyJSON([]byte(text)), panelColumns)
	default:
		view = monospace(text, panelColumns)
	}
	if cut != "" {
		return container.NewVBox(caption(cut), view)
	}
	return view
}

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

func isMarkdown(c pack.Content) bool {
	m := strings.ToLower(c.MIMEType)
	return strings.HasPrefix(m, "text/markdown") || strings.HasPrefix(m, "text/x-markdown") ||
		(m == "" || m == "text/plain") && (strings.HasSuffix(c.URI, ".md") || strings.HasSuffix(c.URI, ".markdown"))
}

func isJSON(c pack.Content) bool {
	m := strings.ToLower(c.MIMEType)
	if strings.HasPrefix(m, "application/json") || strings.Contains(m, "+json") {
		return true
	}
	t := strings.TrimSpace(c.Text)
	return (m == "" || m == "text/plain") && (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t))
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

// imageView shows a decoded image at a readable size, with its facts and
// Save.
func imageView(c pack.Content, img image.Image, format string, save func(pack.Content)) fyne.CanvasObject {
	b := img.Bounds()
	view := canvas.NewImageFromImage(img)
	view.FillMode = canvas.ImageFillContain
	view.ScaleMode = canvas.ImageScalePixels
	view.SetMinSize(imageSize(b.Dx(), b.Dy()))
	facts := fmt.Sprintf("%s image, %d×%d pixels, %s (%s)", strings.ToUpper(format), b.Dx(), b.Dy(),
		byteSize(int64(len(c.Blob))), mimeOf(c))
	return container.NewVBox(caption(facts), container.NewHBox(view), saveButton(c, save))
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

// blobView shows a blob the inspector cannot render: its size, a hex
// preview of its first bytes, and Save.
func blobView(c pack.Content, save func(pack.Content)) fyne.CanvasObject {
	n := min(len(c.Blob), hexPreviewLen)
	facts := fmt.Sprintf("Binary, %s (%s), %s. First %s:", pack.Quantity(len(c.Blob), "byte"),
		byteSize(int64(len(c.Blob))), mimeOf(c), pack.Quantity(n, "byte"))
	dump := strings.TrimRight(hex.Dump(c.Blob[:n]), "\n")
	l := widget.NewLabel(dump)
	l.TextStyle = fyne.TextStyle{Monospace: true}
	l.Selectable = true
	return container.NewVBox(caption(facts), container.NewHScroll(l), saveButton(c, save))
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
