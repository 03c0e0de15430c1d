package mcptest_test

import (
	"context"
	"net/http/httptest"
	"os/exec"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/testbin"
)

func TestMain(m *testing.M) { testbin.Main(m) }

// mcptestd builds the server binary once per run and returns its path.
func mcptestd(t *testing.T) string { return testbin.Build(t, "internal/mcptest/mcptestd") }

// testTimeout bounds every exchange of a test with a server.
const testTimeout = 20 * time.Second

// testContext is a context that ends with the test, or after testTimeout.
func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// connector connects a go-sdk client to a mode over one transport.
type connector struct {
	name    string
	connect func(t *testing.T, mode string, opts *clientOpts) *mcp.ClientSession
}

// clientOpts are what a test may set on its client and server.
type clientOpts struct {
	client *mcp.ClientOptions
	args   []string         // mcptestd flags, for stdio
	server *mcptest.Options // for HTTP
}

// transports are stdio (mcptestd as a subprocess) and HTTP (httptest).
var transports = []connector{
	{"stdio", func(t *testing.T, mode string, o *clientOpts) *mcp.ClientSession {
		cmd := exec.Command(mcptestd(t), append([]string{"--mode", mode, "--stdio"}, o.args...)...)
		return connect(t, &mcp.CommandTransport{Command: cmd}, o.client)
	}},
	{"http", func(t *testing.T, mode string, o *clientOpts) *mcp.ClientSession {
		return connect(t, &mcp.StreamableClientTransport{Endpoint: httpServer(t, mode, o.server), MaxRetries: -1}, o.client)
	}},
}

// httpServer serves the mode with httptest and returns its endpoint.
func httpServer(t *testing.T, mode string, opts *mcptest.Options) string {
	t.Helper()
	h, err := mcptest.Handler(mode, opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// connect connects a go-sdk client over tr, closing the session with the test.
func connect(t *testing.T, tr mcp.Transport, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcptest-client", Version: "1.0.0"}, opts).Connect(testContext(t), tr, nil)
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// eachTransport runs f over stdio and over HTTP.
func eachTransport(t *testing.T, mode string, o *clientOpts, f func(t *testing.T, cs *mcp.ClientSession)) {
	if o == nil {
		o = &clientOpts{}
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			f(t, tr.connect(t, mode, o))
		})
	}
}
