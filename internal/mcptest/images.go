package mcptest

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The image mode's resources.
const (
	ImagePNGURI  = "test://image/png"
	ImageJPEGURI = "test://image/jpeg"
)

// picture draws a w×h gradient crossed by a dark diagonal, so that a viewer
// that flips or crops the image shows it.
func picture(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{R: uint8(255 * x / w), G: uint8(255 * y / h), B: 160, A: 255}
			if x*h/w == y {
				c = color.RGBA{R: 20, G: 20, B: 40, A: 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

// encoded holds the images, encoded once: both encoders are deterministic,
// so the bytes are the same in every process.
var encoded = sync.OnceValue(func() (e struct{ logo, png, jpeg []byte }) {
	var b bytes.Buffer
	must(png.Encode(&b, picture(16, 16)))
	e.logo = slices.Clone(b.Bytes())
	b.Reset()
	must(png.Encode(&b, picture(96, 64)))
	e.png = slices.Clone(b.Bytes())
	b.Reset()
	must(jpeg.Encode(&b, picture(96, 64), &jpeg.Options{Quality: 85}))
	e.jpeg = slices.Clone(b.Bytes())
	return e
})

// must panics on an error that only a broken standard library could cause.
func must(err error) {
	if err != nil {
		panic(err)
	}
}

// LogoPNG returns the bytes of LogoURI, a 16×16 PNG. The slice is the caller's.
func LogoPNG() []byte { return slices.Clone(encoded().logo) }

// ImagePNG returns the bytes of ImagePNGURI, a 96×64 PNG. The slice is the caller's.
func ImagePNG() []byte { return slices.Clone(encoded().png) }

// ImageJPEG returns the bytes of ImageJPEGURI, a 96×64 JPEG. The slice is the caller's.
func ImageJPEG() []byte { return slices.Clone(encoded().jpeg) }

// imageServer serves one PNG and one JPEG blob, each with a data: icon of
// the logo, for the GUI's image inspector and icon policy.
func imageServer(o Options) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "mcptest-image", Version: "1.0.0"},
		&mcp.ServerOptions{Logger: o.Logger})
	icon := mcp.Icon{
		Source:   "data:image/png;base64," + base64.StdEncoding.EncodeToString(LogoPNG()),
		MIMEType: "image/png", Sizes: []string{"16x16"},
	}
	for _, r := range []struct {
		uri, name, mime string
		body            []byte
	}{
		{ImagePNGURI, "picture.png", "image/png", ImagePNG()},
		{ImageJPEGURI, "picture.jpg", "image/jpeg", ImageJPEG()},
	} {
		srv.AddResource(&mcp.Resource{
			URI: r.uri, Name: r.name, MIMEType: r.mime, Size: int64(len(r.body)), Icons: []mcp.Icon{icon},
		}, blobHandler(r.body, mcp.Cacheable{}))
	}
	return srv
}
