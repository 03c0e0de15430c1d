package mcptest_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/internal/mcptest"
)

// rawCase is what a go-sdk v1.8.0 client makes of one raw mode's read: the
// JSON-RPC error it surfaces, or the text its error carries, or, when it
// accepts the malformed result, what it hands back. These are the facts the
// host's error classification rests on.
type rawCase struct {
	mode string
	// code, by transport ("" for both), is the JSON-RPC error code that
	// errors.As finds, or 0.
	code map[string]int64
	// errText, by transport ("" for both), is a substring of the error.
	errText map[string]string
	// accepted checks the result go-sdk returns without an error.
	accepted func(*mcp.ReadResourceResult) bool
	// after, by transport ("" for both), is what a later request gets:
	// "" (it works), "closed" (an error that Is mcp.ErrConnectionClosed:
	// go-sdk gave the session up) or "rejected" (the -32005 of every POST
	// that fails, while the session stays open).
	after map[string]string
}

// oneEntry reports whether a result has exactly one entry and it passes ok.
func oneEntry(ok func(*mcp.ResourceContents) bool) func(*mcp.ReadResourceResult) bool {
	return func(r *mcp.ReadResourceResult) bool { return len(r.Contents) == 1 && ok(r.Contents[0]) }
}

var rawCases = []rawCase{
	// go-sdk accepts an empty contents array as an empty result.
	{mode: mcptest.ModeEmptyContents, accepted: func(r *mcp.ReadResourceResult) bool { return r.Contents != nil && len(r.Contents) == 0 }},
	// go-sdk accepts both: Text "text" and Blob "blob" (decoded) side by side.
	{mode: mcptest.ModeBothTextAndBlob, accepted: oneEntry(func(c *mcp.ResourceContents) bool {
		return c.Text == "text" && string(c.Blob) == "blob"
	})},
	// go-sdk accepts neither: an entry with empty Text and nil Blob.
	{mode: mcptest.ModeNeitherTextNorBlob, accepted: oneEntry(func(c *mcp.ResourceContents) bool {
		return c.Text == "" && c.Blob == nil && c.URI == mcptest.RawResourceURI
	})},
	{mode: mcptest.ModeBadBase64, errText: map[string]string{"": `calling "resources/read": illegal base64 data at input byte 0`}},
	{mode: mcptest.ModeResultNotObject, errText: map[string]string{"": `calling "resources/read": json: cannot unmarshal "\"just a string\""`}},
	// A reply that is not JSON kills the whole connection.
	{mode: mcptest.ModeNotJSON, after: map[string]string{"": "closed"}, errText: map[string]string{
		"stdio": `calling "resources/read": invalid character 'h' in literal true (expecting 'r')`,
		"http":  `calling "resources/read": sending "resources/read": failed to decode response: unmarshaling jsonrpc message:`,
	}},
	// go-sdk accepts any body size over application/json; see TestRawOversize.
	{mode: mcptest.ModeOversize, accepted: oneEntry(func(c *mcp.ResourceContents) bool { return len(c.Text) == 1<<20 })},
	// go-sdk does not check the echoed uri.
	{mode: mcptest.ModeWrongURI, accepted: oneEntry(func(c *mcp.ResourceContents) bool { return c.URI == mcptest.RawWrongURI })},
	{mode: mcptest.ModeNotFound32002, code: map[string]int64{"": -32002}, errText: map[string]string{"": `calling "resources/read": Resource not found`}},
	{mode: mcptest.ModeNotFound32602, code: map[string]int64{"": -32602}, errText: map[string]string{"": `calling "resources/read": Resource not found`}},
	{mode: mcptest.ModeInvalidParams, code: map[string]int64{"": -32602}, errText: map[string]string{"": `calling "resources/read": Invalid params:`}},
	{mode: mcptest.ModeServerFault, code: map[string]int64{"": -32603}, errText: map[string]string{"": `calling "resources/read": Internal error`}},
	{mode: mcptest.ModeVersionMismatch, code: map[string]int64{"": -32022}, errText: map[string]string{"": `calling "resources/read": Unsupported protocol version`}},
	{mode: mcptest.ModeSlow, accepted: oneEntry(func(c *mcp.ResourceContents) bool { return c.Text == mcptest.RawText })},
	// A dead process: EOF on stdio; over HTTP the POST fails with go-sdk's
	// own -32005 "rejected by transport" (a *jsonrpc.Error that no server
	// sent), and so does every later POST. In-process the connection is
	// aborted; against mcptestd it is refused once the process is gone.
	{mode: mcptest.ModeDieOnRead, code: map[string]int64{"http": -32005}, after: map[string]string{"stdio": "closed", "http": "rejected"}, errText: map[string]string{
		"stdio": `calling "resources/read": EOF`,
		"http":  `calling "resources/read": sending "resources/read": rejected by transport: Post "`,
	}},
}

// rawOpts keeps the raw modes fast: a 1 MiB oversize body, a short delay.
var rawOpts = &clientOpts{
	args:   []string{"--body-bytes", "1048576", "--delay", "20ms"},
	server: &mcptest.Options{BodyBytes: 1 << 20, Delay: 20 * time.Millisecond},
}

func TestRawReadsThroughGoSDK(t *testing.T) {
	for _, tc := range rawCases {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			eachTransport(t, tc.mode, rawOpts, func(t *testing.T, cs *mcp.ClientSession) {
				checkRawSession(t, cs)
				res, err := cs.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: mcptest.RawResourceURI})
				checkRawRead(t, tc, transportOf(t), res, err)
				_, err = cs.ListResources(testContext(t), nil)
				if got, want := afterState(err), byTransport(tc.after, transportOf(t)); got != want {
					t.Errorf("after the read, listing: %v (%q), want %q", err, got, want)
				}
			})
		})
	}
}

// transportOf is the name of the transport subtest t runs in.
func transportOf(t *testing.T) string { return t.Name()[strings.LastIndex(t.Name(), "/")+1:] }

// checkRawSession checks what every raw mode does before the read.
func checkRawSession(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	if v := cs.InitializeResult().ProtocolVersion; v != mcptest.Version2025Nov {
		t.Errorf("negotiated %s, want %s", v, mcptest.Version2025Nov)
	}
	res, err := cs.ListResources(testContext(t), nil)
	if err != nil || len(res.Resources) != 1 || res.Resources[0].URI != mcptest.RawResourceURI {
		t.Errorf("resources = %+v, %v; want only %s", res, err, mcptest.RawResourceURI)
	}
	tmpl, err := cs.ListResourceTemplates(testContext(t), nil)
	if err != nil || len(tmpl.ResourceTemplates) != 1 || tmpl.ResourceTemplates[0].URITemplate != mcptest.RawTemplate {
		t.Errorf("templates = %+v, %v; want only %s", tmpl, err, mcptest.RawTemplate)
	}
}

// checkRawRead checks one read against its case.
func checkRawRead(t *testing.T, tc rawCase, transport string, res *mcp.ReadResourceResult, err error) {
	t.Helper()
	if tc.accepted != nil {
		if err != nil || !tc.accepted(res) {
			t.Errorf("read = %+v, %v; want go-sdk to accept it as recorded", res, err)
		}
		return
	}
	if err == nil {
		t.Fatalf("read = %+v, want an error", res)
	}
	var rpcErr *jsonrpc.Error
	code := byTransport(tc.code, transport)
	if got := errors.As(err, &rpcErr); got != (code != 0) || (got && rpcErr.Code != code) {
		t.Errorf("read error %v (JSON-RPC error %v); want code %d", err, rpcErr, code)
	}
	if want := byTransport(tc.errText, transport); !strings.Contains(err.Error(), want) {
		t.Errorf("read error %q, want it to contain %q", err, byTransport(tc.errText, transport))
	}
}

// byTransport picks the transport's entry of m, or the entry for both ("").
func byTransport[V any](m map[string]V, transport string) V {
	if v, ok := m[transport]; ok {
		return v
	}
	return m[""]
}

// afterState classifies the error of a request made after the read.
func afterState(err error) string {
	var rpcErr *jsonrpc.Error
	switch {
	case err == nil:
		return ""
	case errors.Is(err, mcp.ErrConnectionClosed):
		return "closed"
	case errors.As(err, &rpcErr) && rpcErr.Code == -32005:
		return "rejected"
	}
	return err.Error()
}
