package pack

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // image.DecodeConfig reads the headers of the formats models take
	_ "image/jpeg"
	_ "image/png"
	"io"
)

// An image goes to a model as an image, and the budget counts it by its
// size in pixels, as the vendors bill it. Only its header is read, never its
// pixels: image.DecodeConfig for PNG, JPEG and GIF, and the RIFF chunk
// header for WebP, which the standard library does not decode. The format
// is the one the bytes say, not the MIME type the server gave: an API
// refuses an image whose declared type is not its own.

// ImageHeader is what an image's header says of it.
type ImageHeader struct {
	// Format is "png", "jpeg", "gif" or "webp".
	Format string
	// Width and Height are in pixels.
	Width, Height int
	// Animated is set for a GIF of more than one frame.
	Animated bool
}

// MIMEType is the format's MIME type ("image/png").
func (h ImageHeader) MIMEType() string { return "image/" + h.Format }

// errNotImage is a blob whose bytes are not an image of the four formats.
var errNotImage = errors.New("not a PNG, JPEG, GIF or WebP image")

// ReadImageHeader reads the header of a PNG, JPEG, GIF or WebP image.
func ReadImageHeader(data []byte) (ImageHeader, error) {
	if isWebP(data) {
		return webpHeader(data)
	}
	r := &peekReader{b: data}
	r.Reset(data)
	cfg, format, err := image.DecodeConfig(r)
	if err != nil {
		if errors.Is(err, image.ErrFormat) {
			return ImageHeader{}, errNotImage
		}
		return ImageHeader{}, fmt.Errorf("reading its header: %w", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return ImageHeader{}, fmt.Errorf("its header says %d×%d pixels", cfg.Width, cfg.Height)
	}
	h := ImageHeader{Format: format, Width: cfg.Width, Height: cfg.Height}
	if format == "gif" {
		h.Animated = gifFrames(data) > 1
	}
	return h, nil
}

// peekReader reads a byte slice with the Peek that image.DecodeConfig
// looks for: without it, DecodeConfig wraps the reader in a bufio.Reader,
// a 4 KB buffer for every header read (and Rank reads every image's header
// each time it ranks).
type peekReader struct {
	bytes.Reader
	b []byte
}

// Peek returns the next n bytes without reading them, or those left and
// io.EOF when fewer are.
func (r *peekReader) Peek(n int) ([]byte, error) {
	rest := r.b[len(r.b)-r.Len():]
	if len(rest) < n {
		return rest, io.EOF
	}
	return rest[:n], nil
}

func isWebP(b []byte) bool {
	return len(b) >= 12 && string(b[0:4]) == "RIFF" && string(b[8:12]) == "WEBP"
}

// webpHeader reads the size of a WebP image from its first chunk (RFC
// 9649): a lossy "VP8 " frame header, a lossless "VP8L" header, or the
// extended format's "VP8X" canvas size.
func webpHeader(b []byte) (ImageHeader, error) {
	bad := fmt.Errorf("reading its header: a WebP image too short or malformed (%d bytes)", len(b))
	if len(b) < 30 {
		return ImageHeader{}, bad
	}
	h := ImageHeader{Format: "webp"}
	chunk := b[12:]
	switch string(chunk[0:4]) {
	case "VP8 ":
		// frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height
		f := chunk[8:]
		if f[3] != 0x9d || f[4] != 0x01 || f[5] != 0x2a {
			return ImageHeader{}, bad
		}
		h.Width = int(binary.LittleEndian.Uint16(f[6:8]) & 0x3fff)
		h.Height = int(binary.LittleEndian.Uint16(f[8:10]) & 0x3fff)
	case "VP8L":
		f := chunk[8:]
		if f[0] != 0x2f {
			return ImageHeader{}, bad
		}
		bits := binary.LittleEndian.Uint32(f[1:5])
		h.Width, h.Height = int(bits&0x3fff)+1, int(bits>>14&0x3fff)+1
	case "VP8X":
		f := chunk[8:]
		h.Animated = f[0]&0x02 != 0
		h.Width = int(uint32(f[4])|uint32(f[5])<<8|uint32(f[6])<<16) + 1
		h.Height = int(uint32(f[7])|uint32(f[8])<<8|uint32(f[9])<<16) + 1
	default:
		return ImageHeader{}, bad
	}
	if h.Width <= 0 || h.Height <= 0 {
		return ImageHeader{}, bad
	}
	return h, nil
}

// gifFrames counts a GIF's image descriptors, walking its blocks by their
// lengths without decoding a pixel; it stops at the second frame, or at
// bytes it cannot walk (counted as what was found so far).
func gifFrames(b []byte) int {
	if len(b) < 13 {
		return 0
	}
	i := 13
	if b[10]&0x80 != 0 { // a global colour table
		i += 3 << (b[10]&0x07 + 1)
	}
	frames := 0
	for i < len(b) && frames < 2 {
		switch b[i] {
		case 0x21: // an extension: label, then sub-blocks
			i = skipSubBlocks(b, i+2)
		case 0x2c: // an image descriptor, an optional local table, the LZW code size, sub-blocks
			frames++
			if i+10 > len(b) {
				return frames
			}
			flags := b[i+9]
			i += 10
			if flags&0x80 != 0 {
				i += 3 << (flags&0x07 + 1)
			}
			i = skipSubBlocks(b, i+1)
		default: // the trailer (0x3b), or bytes that are not a block
			return frames
		}
	}
	return frames
}

// skipSubBlocks returns the index after the data sub-blocks starting at i.
func skipSubBlocks(b []byte, i int) int {
	for i < len(b) {
		n := int(b[i])
		i++
		if n == 0 {
			return i
		}
		i += n
	}
	return len(b)
}
