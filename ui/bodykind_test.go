package ui

import (
	"strings"
	"testing"

	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/internal/mcptest"
)

// What a body is shown as follows its mimeType, not the field it came in:
// a blob of a text type is text (decoded by its charset or byte-order
// mark), a text of JSON or Markdown type is JSON or Markdown, a blob that
// decodes as an image is an image, any other blob bytes.
func TestClassify(t *testing.T) {
	blob := func(mime string, b []byte) pack.Content {
		return pack.Content{URI: "test://x", MIMEType: mime, Blob: b, IsBlob: true}
	}
	text := func(uri, mime, s string) pack.Content { return pack.Content{URI: uri, MIMEType: mime, Text: s} }
	tests := []struct {
		name     string
		c        pack.Content
		kind     bodyKind
		text     string
		decoding string // what the facts say of the decoding; "" for a text entry
	}{
		{"a text/plain blob is text", blob("text/plain", []byte("Resource 1: hello")), kindText, "Resource 1: hello", "UTF-8"},
		{"a Markdown blob is Markdown", blob("text/markdown; charset=utf-8", []byte("# Hi")), kindMarkdown, "# Hi", "UTF-8"},
		{"a JSON blob is JSON", blob("application/json", []byte(`{"a":1}`)), kindJSON, `{"a":1}`, "UTF-8"},
		{"a +json blob is JSON", blob("application/ld+json", []byte(`{}`)), kindJSON, `{}`, "UTF-8"},
		{"an XML blob is text", blob("application/xml", []byte("<a/>")), kindText, "<a/>", "UTF-8"},
		{"Latin-1 by its charset", blob("text/plain; charset=ISO-8859-1", []byte("caf\xe9")), kindText, "café", "ISO-8859-1 (as windows-1252, which browsers read it as)"},
		{"UTF-16 by its mark", blob("text/plain", []byte{0xff, 0xfe, 'h', 0, 'i', 0}), kindText, "hi", "UTF-16LE (by its byte-order mark)"},
		{"bytes that are not UTF-8", blob("text/plain", []byte("ok \xff\xfe end")), kindText, "ok \uFFFD\uFFFD end", "UTF-8, with 2 invalid byte sequences shown as �"},
		{"an unknown charset", blob("text/plain; charset=x-nonesuch", []byte("plain")), kindText, "plain", `UTF-8; charset "x-nonesuch" is unknown here, so read as UTF-8`},
		{"untyped text bytes", blob("", []byte("just some words\n")), kindText, "just some words\n", "UTF-8"},
		{"an image blob", blob("image/png", mcptest.ImagePNG()), kindImage, "", ""},
		{"an image whatever its type", blob("application/octet-stream", mcptest.ImagePNG()), kindImage, "", ""},
		{"other bytes", blob("application/pdf", []byte("%PDF-1.7\x00\x01")), kindBinary, "", ""},
		{"JSON text", text("test://a", "application/json", `[1]`), kindJSON, `[1]`, ""},
		{"untyped JSON text", text("test://a", "", ` {"a": [1]} `), kindJSON, ` {"a": [1]} `, ""},
		{"text that only starts like JSON", text("test://a", "", `{not json`), kindText, `{not json`, ""},
		{"Markdown by its name", text("test://a/README.md", "text/plain", "# T"), kindMarkdown, "# T", ""},
		{"HTML text", text("test://a", "text/html; charset=utf-8", "<p>x</p>"), kindHTML, "<p>x</p>", ""},
		{"text of a binary type is still text", text("test://a", "application/octet-stream", "words"), kindText, "words", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := classify(tt.c)
			if b.kind != tt.kind || b.text != tt.text || b.decoded != tt.decoding {
				t.Errorf("classify = kind %d, text %q, decoded %q; want %d, %q, %q", b.kind, b.text, b.decoded, tt.kind, tt.text, tt.decoding)
			}
		})
	}
}

// The facts above a body say its field, its size, its mimeType as the
// server gave it, and how a blob became text.
func TestBodyFacts(t *testing.T) {
	b := classify(pack.Content{URI: "demo://b", MIMEType: "text/plain", Blob: []byte("Resource 1"), IsBlob: true})
	got := bodyFacts(&b, newTextDoc(b.text), false)
	want := "Blob · 10 bytes (10 B) · mimeType text/plain as the server gave it · shown as text, read as UTF-8 · 1 line"
	if got != want {
		t.Errorf("facts = %q\nwant    %q", got, want)
	}
	b = classify(pack.Content{URI: "demo://b", Blob: []byte{0, 1, 2, 3, 0xff}, IsBlob: true})
	if got := bodyFacts(&b, nil, false); !strings.Contains(got, "no mimeType given · not text (the bytes look like application/octet-stream)") {
		t.Errorf("an untyped blob's facts = %q", got)
	}
	b = classify(pack.Content{URI: "demo://j", MIMEType: "application/json", Text: `{"a":`})
	if got := bodyFacts(&b, nil, false); !strings.Contains(got, "not valid JSON, shown as sent") {
		t.Errorf("broken JSON's facts = %q", got)
	}
}
