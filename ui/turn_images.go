package ui

import (
	"bytes"
	"fmt"
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/pack"
)

// thumbSide is the longer side of an image sent, in the turn inspector.
const thumbSide = 96

// imagesSent lists the images a turn sent as images: each with a
// thumbnail (from the bytes the turn kept), its uri, type, size in pixels
// and bytes, and the tokens the budget counted for it under the turn's
// vision. A turn that sent none shows nothing.
func imagesSent(sc chat.SentContext) fyne.CanvasObject {
	if len(sc.Images) == 0 {
		return nil
	}
	head := widget.NewLabelWithStyle(fmt.Sprintf("Images sent as images: %d, counted by %s's estimate",
		len(sc.Images), sc.Vision), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	head.Wrapping = fyne.TextWrapWord
	box := container.NewVBox(head)
	for _, im := range sc.Images {
		line := widget.NewLabel(fmt.Sprintf("%s · %s · %d×%d · %s · %s", im.URI, im.MIMEType, im.Width, im.Height,
			pack.Quantity(im.Size, "byte"), pack.Quantity(im.Tokens, "token")))
		line.Wrapping = fyne.TextWrapWord
		box.Add(container.NewBorder(nil, nil, thumbnail(im), nil, line))
	}
	return box
}

// thumbnail draws an image sent, its longer side thumbSide; an image this
// window cannot decode (WebP) shows the image icon.
func thumbnail(im chat.ContextImage) fyne.CanvasObject {
	w, h := im.Width, im.Height
	size := fyne.NewSquareSize(thumbSide)
	if w > 0 && h > 0 {
		scale := float32(thumbSide) / float32(max(w, h))
		size = fyne.NewSize(float32(w)*scale, float32(h)*scale)
	}
	var view *canvas.Image
	if img, _, err := image.Decode(bytes.NewReader(im.Data)); err == nil {
		view = canvas.NewImageFromImage(img)
	} else {
		view = canvas.NewImageFromResource(theme.FileImageIcon())
	}
	view.FillMode = canvas.ImageFillContain
	view.SetMinSize(size)
	return container.NewCenter(view)
}
