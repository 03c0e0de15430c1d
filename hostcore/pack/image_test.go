package pack

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
)

// pngOf is a w×h PNG.
func pngOf(t testing.TB, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// gifOf is a w×h GIF of frames frames.
func gifOf(t testing.TB, w, h, frames int) []byte {
	t.Helper()
	g := &gif.GIF{}
	for range frames {
		g.Image = append(g.Image, image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.Black, color.White}))
		g.Delay = append(g.Delay, 10)
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// webpOf is the first 30 bytes of a WebP of the given chunk ("VP8 ",
// "VP8L", "VP8X"), enough for its header: the pixels are never read.
func webpOf(chunk string, w, h int, animated bool) []byte {
	b := make([]byte, 30)
	copy(b, "RIFF")
	binary.LittleEndian.PutUint32(b[4:], 22)
	copy(b[8:], "WEBP")
	copy(b[12:], chunk)
	f := b[20:]
	switch chunk {
	case "VP8 ":
		f[3], f[4], f[5] = 0x9d, 0x01, 0x2a
		binary.LittleEndian.PutUint16(f[6:], uint16(w))
		binary.LittleEndian.PutUint16(f[8:], uint16(h))
	case "VP8L":
		f[0] = 0x2f
		binary.LittleEndian.PutUint32(f[1:], uint32(w-1)|uint32(h-1)<<14)
	case "VP8X":
		if animated {
			f[0] = 0x02
		}
		f[4], f[5], f[6] = byte(w-1), byte((w-1)>>8), byte((w-1)>>16)
		f[7], f[8], f[9] = byte(h-1), byte((h-1)>>8), byte((h-1)>>16)
	}
	return b
}

// The header gives the format the bytes say and the size, for each of the
// four formats the APIs take, and whether a GIF is animated.
func TestReadImageHeader(t *testing.T) {
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, image.NewGray(image.Rect(0, 0, 300, 200)), nil); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		data []byte
		want ImageHeader
	}{
		{"png", pngOf(t, 640, 480), ImageHeader{Format: "png", Width: 640, Height: 480}},
		{"jpeg", jpg.Bytes(), ImageHeader{Format: "jpeg", Width: 300, Height: 200}},
		{"still gif", gifOf(t, 20, 10, 1), ImageHeader{Format: "gif", Width: 20, Height: 10}},
		{"animated gif", gifOf(t, 20, 10, 3), ImageHeader{Format: "gif", Width: 20, Height: 10, Animated: true}},
		{"lossy webp", webpOf("VP8 ", 1024, 768, false), ImageHeader{Format: "webp", Width: 1024, Height: 768}},
		{"lossless webp", webpOf("VP8L", 4000, 3000, false), ImageHeader{Format: "webp", Width: 4000, Height: 3000}},
		{"extended webp", webpOf("VP8X", 70000, 2, true), ImageHeader{Format: "webp", Width: 70000, Height: 2, Animated: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadImageHeader(tt.data)
			if err != nil || got != tt.want {
				t.Errorf("ReadImageHeader = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
	for name, data := range map[string][]byte{
		"text":          []byte("\x89PNG fake"),
		"truncated png": pngOf(t, 4, 4)[:20],
		"short webp":    webpOf("VP8 ", 1, 1, false)[:20],
		"bad vp8":       append([]byte("RIFF\x16\x00\x00\x00WEBPVP8 "), make([]byte, 14)...),
		"empty":         nil,
	} {
		if h, err := ReadImageHeader(data); err == nil {
			t.Errorf("%s: ReadImageHeader = %+v, want an error", name, h)
		}
	}
}

// The estimates follow the vendors' documented examples.
func TestImageTokens(t *testing.T) {
	for _, tt := range []struct {
		w, h                 int
		anthropic, high, low int
	}{
		// Anthropic's table: 200×200 ~54, 1000×1000 ~1334, 1092×1092 ~1590.
		// OpenAI's: 1024×1024 high is 765 (768×768, four tiles), 2048×4096
		// is 1105 (768×1536, six tiles); low is 85 whatever the size.
		{200, 200, 54, 255, 85},
		{1000, 1000, 1334, 765, 85},
		{1092, 1092, 1590, 765, 85},
		{1024, 1024, 1399, 765, 85},
		{2048, 4096, 1600, 1105, 85},
		// Over 1568 on the long edge, Anthropic scales it to 1568×392 first.
		{4000, 1000, 820, 765, 85},
	} {
		if got := AnthropicImageTokens(tt.w, tt.h); got != tt.anthropic && !near(got, tt.anthropic) {
			t.Errorf("AnthropicImageTokens(%d, %d) = %d, want about %d", tt.w, tt.h, got, tt.anthropic)
		}
		if got := OpenAIImageTokens(tt.w, tt.h, "high"); got != tt.high {
			t.Errorf("OpenAIImageTokens(%d, %d, high) = %d, want %d", tt.w, tt.h, got, tt.high)
		}
		if got := OpenAIImageTokens(tt.w, tt.h, "low"); got != tt.low {
			t.Errorf("OpenAIImageTokens(%d, %d, low) = %d, want %d", tt.w, tt.h, got, tt.low)
		}
		if got, want := EitherVision().Tokens(tt.w, tt.h), max(AnthropicImageTokens(tt.w, tt.h), tt.high); got != want {
			t.Errorf("EitherVision().Tokens(%d, %d) = %d, want the larger, %d", tt.w, tt.h, got, want)
		}
	}
}

// near allows the rounding the documentation's "~" leaves open (one token,
// and Anthropic's ~1,600-token cap).
func near(got, want int) bool { return got >= want-1 && got <= want+1 }

// An image goes to the model as an image within the vendor's limits, and
// as a line saying which limit it is past otherwise; a blob of an image
// type that is no image says so, and its declared type yields to the
// bytes'.
func TestImagePartLimits(t *testing.T) {
	anthropic, openai := AnthropicVision(), OpenAIVision("high")
	big := append(pngOf(t, 10, 10), make([]byte, 4<<20)...) // a PNG header, then 4 MiB
	for _, tt := range []struct {
		name    string
		c       Content
		v       Vision
		kind    PartKind
		summary string
	}{
		{"png", Content{MIMEType: "image/png", Blob: pngOf(t, 96, 64), IsBlob: true}, anthropic, PartImage, ""},
		{"declared jpeg, is png", Content{MIMEType: "image/jpeg", Blob: pngOf(t, 96, 64), IsBlob: true}, anthropic, PartImage, ""},
		{"over Anthropic's bytes", Content{MIMEType: "image/png", Blob: big, IsBlob: true}, anthropic, PartBinary,
			"over Anthropic's limit of 3,932,160 bytes an image"},
		{"within OpenAI's bytes", Content{MIMEType: "image/png", Blob: big, IsBlob: true}, openai, PartImage, ""},
		{"over Anthropic's sides", Content{MIMEType: "image/webp", Blob: webpOf("VP8X", 9000, 100, false), IsBlob: true},
			anthropic, PartBinary, "over Anthropic's limit of 8000×8000 pixels"},
		{"animated gif to OpenAI", Content{MIMEType: "image/gif", Blob: gifOf(t, 8, 8, 2), IsBlob: true}, openai, PartBinary,
			"an animated GIF, which OpenAI (detail high) does not take"},
		{"animated gif to Anthropic", Content{MIMEType: "image/gif", Blob: gifOf(t, 8, 8, 2), IsBlob: true}, anthropic, PartImage, ""},
		{"not an image", Content{MIMEType: "image/png", Blob: []byte("\x89PNG fake"), IsBlob: true}, anthropic, PartBinary,
			"image/png that is not an image a model can read (not a PNG, JPEG, GIF or WebP image)"},
		{"pdf", Content{MIMEType: "application/pdf", Blob: []byte("%PDF"), IsBlob: true}, anthropic, PartBinary,
			"binary, 4 bytes, application/pdf"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := partOf(tt.c, &tt.v)
			if p.Kind != tt.kind || !strings.Contains(p.Summary, tt.summary) {
				t.Errorf("part = %s %q; want %s containing %q", p.Kind, p.Summary, tt.kind, tt.summary)
			}
			if p.Kind == PartImage && (p.MIMEType != "image/"+mustHeader(t, tt.c.Blob).Format || p.Tokens == 0 || len(p.Data) == 0) {
				t.Errorf("image part = %s, %d tokens, %d bytes; want the bytes' own type, an estimate and the data",
					p.MIMEType, p.Tokens, len(p.Data))
			}
		})
	}
}

func mustHeader(t *testing.T, b []byte) ImageHeader {
	h, err := ReadImageHeader(b)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// A request's own limits: past 20 images Anthropic takes none over
// 2000×2000, and past the count limit the rest are described, in rank
// order; the images within go as images.
func TestAssembleRequestImageLimits(t *testing.T) {
	var items []*Item
	for i := range 22 {
		w := 100
		if i == 3 {
			w = 2500
		}
		items = append(items, &Item{ID: string(rune('a' + i)), URI: "pics://" + string(rune('a'+i)), Order: i,
			Contents: []Content{{URI: "pics://x", MIMEType: "image/png", Blob: pngOf(t, w, 100), IsBlob: true}}})
	}
	v := AnthropicVision()
	v.MaxImages = 20
	doc := Assemble(Rank(items, &RankOptions{Vision: &v, Budget: 1 << 20}))
	if n := len(doc.Images()); n != 20 {
		t.Errorf("%d images sent, want 20 (one too wide for a request of 22, one past the limit of 20)", n)
	}
	md := doc.Markdown()
	for _, want := range []string{"over Anthropic's limit of 2000×2000 pixels in a request of more than 20 images",
		"past Anthropic's limit of 20 images a request"} {
		if !strings.Contains(md, want) {
			t.Errorf("the document does not say %q", want)
		}
	}
}
