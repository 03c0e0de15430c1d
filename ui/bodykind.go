package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"mime"
	"net/http"
	"strings"

	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/attache/attache/hostcore/pack"
)

// How a body is shown depends on what it is, and what it is depends on
// its mimeType, not on the field it came in: a blob of a text type is
// text, decoded by its charset, and shown as any text of that type is.

// bodyKind is how the viewer shows a body.
type bodyKind int

const (
	kindText     bodyKind = iota // lines of text
	kindJSON                     // JSON, indented (or as sent)
	kindMarkdown                 // Markdown, rendered (or its source)
	kindHTML                     // HTML, rendered as text (or its source)
	kindImage                    // a blob that decodes as an image
	kindBinary                   // a blob of no text type: its size, a hex preview and Save
)

// shownBody is one entry as the viewer shows it.
type shownBody struct {
	content pack.Content
	kind    bodyKind
	text    string // the text, decoded from the blob for a blob of a text type
	decoded string // how a blob's bytes became text ("UTF-8", "ISO-8859-1"), or why not wholly
	image   image.Image
	format  string // the image's format: png, jpeg, gif
	message bool   // the host's record (a JSON-RPC message), not a resource's body

	// The documents the views show, made once: docs[0] the text rendered
	// (JSON indented), docs[1] as sent; md the rendered blocks.
	docs [2]*textDoc
	md   *mdDoc
}

// preparedContents are a read's entries made ready to show.
type preparedContents []*shownBody

// prepareContents classifies each entry and makes the document its view
// shows first (the text's lines, JSON indented, Markdown or HTML parsed).
// It is pure and may run on any goroutine: a screen that gets a body on a
// goroutine prepares it there, and the window's thread only lays out what
// is on screen (bodyViewer.ShowPrepared).
func prepareContents(cs []pack.Content) preparedContents {
	out := make(preparedContents, len(cs))
	for i, c := range cs {
		b := classify(c)
		out[i] = b.prepare()
	}
	return out
}

// prepare makes the document the body is first shown with.
func (b shownBody) prepare() *shownBody {
	switch {
	case b.rendered():
		b.mdDoc()
	case b.kind != kindImage && b.kind != kindBinary:
		b.textDoc(false)
	}
	return &b
}

// rendered reports whether the body has a rendered view.
func (b *shownBody) rendered() bool { return b.kind == kindMarkdown || b.kind == kindHTML }

// textDoc is the body's text as lines: rendered (JSON indented) or as
// sent.
func (b *shownBody) textDoc(source bool) *textDoc {
	k := boolIndex(source)
	if b.docs[k] == nil {
		text := b.text
		if b.kind == kindJSON && !source {
			text = prettyJSON([]byte(text))
		}
		b.docs[k] = newTextDoc(text)
	}
	return b.docs[k]
}

// mdDoc is the body rendered as blocks.
func (b *shownBody) mdDoc() *mdDoc {
	if b.md == nil {
		b.md = renderedDoc(*b)
	}
	return b.md
}

// classify decides how to show c.
func classify(c pack.Content) shownBody {
	b := shownBody{content: c, text: c.Text}
	media, params := mediaType(c.MIMEType)
	if c.IsBlob {
		if img, format, err := image.Decode(bytes.NewReader(c.Blob)); err == nil {
			b.kind, b.image, b.format = kindImage, img, format
			return b
		}
		if c.MIMEType == "" {
			media, params = mediaType(http.DetectContentType(c.Blob))
		}
		if !textual(media) {
			b.kind = kindBinary
			return b
		}
		b.text, b.decoded = decodeText(c.Blob, params["charset"])
	}
	b.kind = textKind(media, c.URI, b.text)
	return b
}

// mediaType is a MIME type's lower-case type/subtype and its parameters;
// a type that does not parse is taken as it is written.
func mediaType(m string) (string, map[string]string) {
	t, params, err := mime.ParseMediaType(m)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(strings.SplitN(m, ";", 2)[0])), map[string]string{}
	}
	return t, params
}

// textual reports whether a media type is text a person can read.
func textual(t string) bool {
	if strings.HasPrefix(t, "text/") || strings.HasSuffix(t, "+json") || strings.HasSuffix(t, "+xml") {
		return true
	}
	sub, ok := strings.CutPrefix(t, "application/")
	if !ok {
		return false
	}
	switch strings.TrimPrefix(sub, "x-") {
	case "json", "ndjson", "jsonl", "xml", "javascript", "ecmascript", "yaml", "toml", "sql",
		"graphql", "sh", "shellscript", "csv", "markdown", "www-form-urlencoded", "xhtml+xml":
		return true
	}
	return false
}

// textKind is how text of media type t at uri is shown.
func textKind(t, uri, text string) bodyKind {
	plain := t == "" || t == "text/plain"
	switch {
	case t == "text/markdown" || t == "text/x-markdown" || t == "application/markdown" ||
		plain && (strings.HasSuffix(uri, ".md") || strings.HasSuffix(uri, ".markdown")):
		return kindMarkdown
	case t == "text/html" || t == "application/xhtml+xml":
		return kindHTML
	case t == "application/json" || t == "text/json" || strings.HasSuffix(t, "+json"):
		return kindJSON
	case plain && looksLikeJSON(text):
		return kindJSON
	}
	return kindText
}

// looksLikeJSON reports whether untyped text is a JSON object or array.
func looksLikeJSON(text string) bool {
	t := strings.TrimSpace(text)
	return (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t))
}

// decodeText turns a blob of a text type into text: by its charset
// (UTF-8 when none is given), or by its byte-order mark, which wins. It
// says how, and how many bytes were not valid (shown as U+FFFD).
func decodeText(blob []byte, charset string) (string, string) {
	name := "UTF-8"
	var dec transform.Transformer = unicode.UTF8.NewDecoder()
	unknown := ""
	if cs := strings.ToLower(charset); cs != "" && cs != "utf-8" && cs != "utf8" {
		if enc, err := htmlindex.Get(cs); err == nil {
			dec, name = enc.NewDecoder(), charset
			if n, err := htmlindex.Name(enc); err == nil && n != cs {
				name += " (as " + n + ", which browsers read it as)"
			}
		} else {
			unknown = fmt.Sprintf("; charset %q is unknown here, so read as UTF-8", charset)
		}
	}
	if bom := bomName(blob); bom != "" {
		name = bom + " (by its byte-order mark)"
	}
	out, _, err := transform.Bytes(unicode.BOMOverride(dec), blob)
	if err != nil {
		return strings.ToValidUTF8(string(blob), "\uFFFD"), "UTF-8, with bytes that are not" + unknown
	}
	if bad := invalidRunes(out, blob); bad > 0 {
		return string(out), fmt.Sprintf("%s, with %d invalid byte sequences shown as �%s", name, bad, unknown)
	}
	return string(out), name + unknown
}

// bomName names the encoding a byte-order mark announces, or "".
func bomName(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte{0xef, 0xbb, 0xbf}):
		return "UTF-8"
	case bytes.HasPrefix(b, []byte{0xff, 0xfe}):
		return "UTF-16LE"
	case bytes.HasPrefix(b, []byte{0xfe, 0xff}):
		return "UTF-16BE"
	}
	return ""
}

// invalidRunes counts the replacement characters decoding added.
func invalidRunes(out, in []byte) int {
	return max(bytes.Count(out, []byte("\uFFFD"))-bytes.Count(in, []byte("\uFFFD")), 0)
}
