package mcptest_test

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/internal/mcptest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// readRequest is the resources/read whose answers the goldens hold. Its id
// is a string, to show that ids are echoed as sent.
const readRequest = `{"jsonrpc":"2.0","id":"read-1","method":"resources/read","params":{"uri":"test://raw/doc"}}`

// TestRawReplyBytes pins the exact answer of each raw mode to readRequest,
// over HTTP (status, headers, body) and over stdio (the line), to the
// goldens in testdata/replies. Refresh them with -update.
func TestRawReplyBytes(t *testing.T) {
	for _, mode := range mcptest.ModeNames() {
		if !isRaw(mode) || mode == mcptest.ModeOversize || mode == mcptest.ModeBigBlob || mode == mcptest.ModeDieOnRead || mode == mcptest.ModeNotJSONInit {
			continue // oversize, big-blob, die-on-read and not-json-initialize have their own tests
		}
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			url := httpServer(t, mode, &mcptest.Options{Delay: time.Millisecond})
			resp, body := post(t, url, readRequest, nil)
			got := fmt.Sprintf("HTTP %d\nContent-Type: %s\n", resp.StatusCode, resp.Header.Get("Content-Type"))
			if h := resp.Header.Get("WWW-Authenticate"); h != "" {
				got += "WWW-Authenticate: " + h + "\n"
			}
			got += "\n" + body
			want := golden(t, filepath.Join("testdata", "replies", mode+".golden"), got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("HTTP answer (-golden +got):\n%s", diff)
			}
			if mode == mcptest.ModeUnauthorized || mode == mcptest.ModeForbidden {
				return // HTTP only
			}
			w := startWire(t, mode, "--delay", "1ms")
			w.handshake()
			w.send(readRequest)
			if line, wantBody := w.recv(), want[strings.Index(want, "\n\n")+2:]; line != wantBody {
				t.Errorf("stdio answer %s, want the golden body %s", line, wantBody)
			}
		})
	}
}

// isRaw reports whether mode is one of the hand-written JSON-RPC modes.
func isRaw(mode string) bool {
	names := mcptest.ModeNames()
	return slices.Index(names, mode) >= slices.Index(names, mcptest.ModeEmptyContents) && mode != mcptest.ModeSpawner
}

// golden returns the content of the golden file, first writing got to it
// under -update.
func golden(t *testing.T, path, got string) string {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the golden file (run with -update to create it): %v", err)
	}
	return string(b)
}

// exchange is one message of TestRawExchange and the answer it must get;
// an empty answer means none (HTTP 202).
type exchange struct{ send, answer string }

// rawExchange is what every raw mode answers besides reads. Ids of every
// JSON shape come back byte for byte.
var rawExchange = []exchange{
	{`{"jsonrpc":"2.0","id":"s-1","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
		`{"jsonrpc":"2.0","id":"s-1","error":{"code":-32601,"message":"Method not found"}}`},
	{strings.Replace(initialize, `"id":1`, `"id":0`, 1),
		`{"jsonrpc":"2.0","id":0,"result":{"capabilities":{"resources":{}},"protocolVersion":"2025-11-25","serverInfo":{"name":"mcptest-server-fault","version":"1.0.0"}}}`},
	{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, ""},
	{`{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, `{"jsonrpc":"2.0","id":1e3,"result":{}}`},
	{`{"jsonrpc":"2.0","id":-7,"method":"resources/list","params":{}}`,
		`{"jsonrpc":"2.0","id":-7,"result":{"resources":[{"mimeType":"text/plain","name":"doc","uri":"test://raw/doc"}]}}`},
	{`{"jsonrpc":"2.0","id":"t","method":"resources/templates/list"}`,
		`{"jsonrpc":"2.0","id":"t","result":{"resourceTemplates":[{"mimeType":"text/plain","name":"docs","uriTemplate":"test://raw/docs/{name}"}]}}`},
	{`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"Method not found"}}`},
	{`not json at all`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`},
}

func TestRawExchangeOverHTTP(t *testing.T) {
	url := httpServer(t, mcptest.ModeServerFault, nil)
	for _, ex := range rawExchange {
		resp, body := post(t, url, ex.send, nil)
		want := http.StatusOK
		if ex.answer == "" {
			want = http.StatusAccepted
		}
		if resp.StatusCode != want || body != ex.answer {
			t.Errorf("POST %s: %d %s; want %d %s", ex.send, resp.StatusCode, body, want, ex.answer)
		}
	}
	for method, want := range map[string]int{http.MethodGet: http.StatusMethodNotAllowed, http.MethodDelete: http.StatusOK} {
		req, _ := http.NewRequestWithContext(testContext(t), method, url, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != want {
			t.Errorf("%s: %v, %v; want %d", method, resp, err, want)
		}
		resp.Body.Close()
	}
}

func TestRawExchangeOverStdio(t *testing.T) {
	w := startWire(t, mcptest.ModeServerFault)
	var want []string
	for _, ex := range rawExchange {
		w.send(ex.send)
		if ex.answer != "" {
			want = append(want, ex.answer)
		}
	}
	// Requests are answered concurrently: compare as sets.
	got := make([]string, len(want))
	for i := range got {
		got[i] = w.recv()
	}
	slices.Sort(got)
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if code := w.exitCode(); code != 0 {
		t.Errorf("exit code %d after stdin closed, want 0", code)
	}
}
