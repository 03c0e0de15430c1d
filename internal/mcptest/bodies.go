package mcptest

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The bodies mode serves generated bodies of any size and kind, for the
// app's body viewer: its tests, its benchmarks and its measures in a real
// window. A body is BodiesURI(kind, size); Body gives the same bytes in
// process, so a benchmark shows exactly what a read would.
const (
	// BodiesTemplate reads a body of any kind and size (see Body).
	BodiesTemplate = "test://body/{kind}/{size}"
	// BodiesTTLMs is the ttlMs (scope public) of every read, so that a
	// host's second read of a body is a cache hit.
	BodiesTTLMs = 3_600_000
)

// The kinds of generated bodies.
const (
	BodyText     = "text"        // text/plain prose, short and long lines, a text entry
	BodyJSON     = "json"        // application/json, compact, a text entry
	BodyMarkdown = "markdown"    // text/markdown: headings, lists, code, quotes, links, tables
	BodyHTML     = "html"        // text/html: the same document in HTML
	BodyBlobText = "blob-text"   // text/plain prose sent as a blob
	BodyLatin1   = "blob-latin1" // text/plain; charset=iso-8859-1, as a blob
	BodyBinary   = "blob-binary" // application/octet-stream bytes
)

// BodyKinds lists the kinds Body makes, in the order of the constants.
var BodyKinds = []string{BodyText, BodyJSON, BodyMarkdown, BodyHTML, BodyBlobText, BodyLatin1, BodyBinary}

// bodiesListed are the bodies the mode lists (the template reads others).
var bodiesListed = []struct{ kind, size string }{
	{BodyText, "40k"}, {BodyJSON, "40k"}, {BodyText, "1m"}, {BodyJSON, "1m"},
	{BodyMarkdown, "8k"}, {BodyMarkdown, "1m"}, {BodyHTML, "8k"},
	{BodyBlobText, "2k"}, {BodyLatin1, "200"}, {BodyBinary, "300"},
}

// BodiesURI names the body of kind of size bytes ("40k" and "1m" are
// binary kilo- and megabytes).
func BodiesURI(kind, size string) string { return "test://body/" + kind + "/" + size }

// ParseBodySize reads a size of the bodies mode: digits, optionally
// followed by k (×1024) or m (×1024²).
func ParseBodySize(s string) (int, error) {
	mult := 1
	switch {
	case strings.HasSuffix(s, "k"):
		mult, s = 1<<10, strings.TrimSuffix(s, "k")
	case strings.HasSuffix(s, "m"):
		mult, s = 1<<20, strings.TrimSuffix(s, "m")
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 64<<20/mult {
		return 0, fmt.Errorf("body size %q: want digits and k or m, at most 64m", s)
	}
	return n * mult, nil
}

// Body generates the body of kind of about size bytes: its MIME type, and
// its text, or its bytes for the blob kinds. The same arguments give the
// same body in every process. Text kinds are cut at size exactly, except
// JSON, Markdown and HTML, which end at the last whole item or block that
// fits (valid JSON; a Markdown or HTML document with no open fence or tag).
func Body(kind string, size int) (mimeType string, text string, blob []byte, err error) {
	switch kind {
	case BodyText:
		return "text/plain", proseLines(size), nil, nil
	case BodyJSON:
		return "application/json", jsonItems(size), nil, nil
	case BodyMarkdown:
		return "text/markdown", markdownDoc(size), nil, nil
	case BodyHTML:
		return "text/html", htmlDoc(size), nil, nil
	case BodyBlobText:
		return "text/plain", "", []byte(proseLines(size)), nil
	case BodyLatin1:
		return "text/plain; charset=iso-8859-1", "", latin1(size), nil
	case BodyBinary:
		return "application/octet-stream", "", binaryBytes(size), nil
	}
	return "", "", nil, fmt.Errorf("body kind %q: want one of %v", kind, BodyKinds)
}

// bodiesServer lists the bodies of bodiesListed and reads any body through
// BodiesTemplate, each read cacheable for an hour, public.
func bodiesServer(o Options) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "mcptest-bodies", Version: "1.0.0"},
		&mcp.ServerOptions{Logger: o.Logger})
	for _, b := range bodiesListed {
		n, _ := ParseBodySize(b.size)
		mime, _, _, _ := Body(b.kind, n)
		srv.AddResource(&mcp.Resource{URI: BodiesURI(b.kind, b.size), Name: b.kind + "-" + b.size,
			Title: b.kind + ", " + b.size + "B", MIMEType: mime}, readBody)
	}
	srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: BodiesTemplate, Name: "bodies",
		Title: "A generated body of any kind and size"}, readBody)
	return srv
}

// readBody answers a read of BodiesURI(kind, size).
func readBody(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	rest, ok := strings.CutPrefix(uri, "test://body/")
	kind, size, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	n, err := ParseBodySize(size)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	mime, text, blob, err := Body(kind, n)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Cacheable: mcp.Cacheable{TTLMs: BodiesTTLMs, CacheScope: "public"},
		Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: text, Blob: blob}}}, nil
}
