package mcptest_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/internal/mcptest"
)

// Every kind of generated body has its size, its MIME type and its shape,
// and the same arguments give the same bytes.
func TestBodyKinds(t *testing.T) {
	const size = 40 << 10
	for _, kind := range mcptest.BodyKinds {
		t.Run(kind, func(t *testing.T) {
			mime, text, blob, err := mcptest.Body(kind, size)
			if err != nil {
				t.Fatal(err)
			}
			_, text2, blob2, _ := mcptest.Body(kind, size)
			if text != text2 || !bytes.Equal(blob, blob2) {
				t.Error("two calls gave different bodies")
			}
			n := len(text) + len(blob)
			if n > size || n < size*9/10 {
				t.Errorf("%d bytes, want at most %d and near it", n, size)
			}
			isBlob := strings.HasPrefix(kind, "blob-")
			if isBlob != (blob != nil) || isBlob == (text != "") {
				t.Errorf("a blob kind gives bytes, a text kind text: %d text bytes, %d blob bytes", len(text), len(blob))
			}
			switch kind {
			case mcptest.BodyJSON:
				if !json.Valid([]byte(text)) || mime != "application/json" {
					t.Errorf("%s body: valid %v", mime, json.Valid([]byte(text)))
				}
			case mcptest.BodyMarkdown:
				if strings.Count(text, "```")%2 != 0 || !strings.Contains(text, "`") || !strings.Contains(text, "## ") {
					t.Error("the Markdown has an open fence, or no code or heading")
				}
			case mcptest.BodyHTML:
				if !strings.HasSuffix(text, "</html>\n") {
					t.Error("the HTML is not closed")
				}
			case mcptest.BodyLatin1:
				if utf8.Valid(blob) || !strings.Contains(mime, "iso-8859-1") {
					t.Errorf("%s: valid UTF-8 %v, want Latin-1 bytes", mime, utf8.Valid(blob))
				}
			case mcptest.BodyText:
				if strings.Count(text, "\n") < 100 || mime != "text/plain" {
					t.Errorf("%s with %d lines", mime, strings.Count(text, "\n"))
				}
			}
		})
	}
	if _, _, _, err := mcptest.Body("nonesuch", 10); err == nil {
		t.Error("an unknown kind gives no error")
	}
}

func TestParseBodySize(t *testing.T) {
	for in, want := range map[string]int{"200": 200, "40k": 40 << 10, "1m": 1 << 20} {
		if got, err := mcptest.ParseBodySize(in); err != nil || got != want {
			t.Errorf("ParseBodySize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "k", "-1", "1g", "100m"} {
		if _, err := mcptest.ParseBodySize(bad); err == nil {
			t.Errorf("ParseBodySize(%q) gives no error", bad)
		}
	}
}

// The server reads what Body makes, as text or blob, with an hour's public
// TTL, and answers a kind it cannot make as not found.
func TestBodiesServer(t *testing.T) {
	eachTransport(t, mcptest.ModeBodies, nil, func(t *testing.T, cs *mcp.ClientSession) {
		list, err := cs.ListResources(testContext(t), nil)
		if err != nil || len(list.Resources) < 5 {
			t.Fatalf("resources = %+v, %v", list, err)
		}
		for _, tt := range []struct{ kind, size string }{{mcptest.BodyText, "40k"}, {mcptest.BodyBlobText, "3k"}} {
			uri := mcptest.BodiesURI(tt.kind, tt.size)
			n, _ := mcptest.ParseBodySize(tt.size)
			mime, text, blob, _ := mcptest.Body(tt.kind, n)
			got := readOne(t, cs, uri)
			if got.MIMEType != mime || got.Text != text || !bytes.Equal(got.Blob, blob) {
				t.Errorf("%s: %s, %d text, %d blob bytes; want %s, %d, %d", uri, got.MIMEType, len(got.Text), len(got.Blob), mime, len(text), len(blob))
			}
		}
		res, err := cs.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: "test://body/nonesuch/1k"})
		if err == nil {
			t.Errorf("an unknown kind reads as %+v", res)
		}
	})
}
