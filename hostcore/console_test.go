package hostcore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/wire"
	"github.com/attache/attache/internal/mcptest"
)

// A server's command that names a missing file says so in a sentence that
// names the file; when the file is a script an interpreter was given, the tail of
// the interpreter's stderr comes with it.
func TestMissingFileIsNamed(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name   string
		sc     config.ServerConfig
		want   string
		stderr string // a line the error's stderr tail holds, if any
	}{
		{"absolute", config.ServerConfig{Command: "/no/such/server"}, "the server's command names /no/such/server, which does not exist", ""},
		{"relative", config.ServerConfig{Command: "./bin/server", Cwd: dir}, "the server's command names " + dir + "/bin/server, which does not exist", ""},
		{"path", config.ServerConfig{Command: "no-such-server-attache"}, "the server's command no-such-server-attache was not found on PATH", ""},
		{"script", config.ServerConfig{Command: "sh", Args: []string{"/no/such/server.sh"}}, "the server's command names /no/such/server.sh, which does not exist", "/no/such/server.sh"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.sc.Name = tt.name
			c := conn(t, newHost(t, nil), tt.sc, "")
			_, err := c.Session(context.Background())
			var he *fault.Error
			if !errors.Is(err, fault.ErrUsage) || !errors.As(err, &he) || he.Message() != tt.want {
				t.Fatalf("connect = %v; want a usage error saying %q", err, tt.want)
			}
			if tt.stderr != "" && !slices.ContainsFunc(he.Stderr(), func(l string) bool { return strings.Contains(l, tt.stderr) }) {
				t.Errorf("stderr tail %q does not mention %s", he.Stderr(), tt.stderr)
			}
			if tt.stderr != "" {
				if lines, ok := c.Stderr(); !ok || len(lines) == 0 {
					t.Errorf("Conn.Stderr() = %q, %v; want the failed server's stderr", lines, ok)
				}
			}
		})
	}
}

// The history of a connection pairs each response with its request (its
// method and how long it waited), tells errors and notifications apart, and exports
// as a JSON document that holds every message.
func TestHistoryAndExport(t *testing.T) {
	sc := mcptestMem(t, mcptest.ModeV2025Nov, nil) // a session opened by initialize
	c := conn(t, newHost(t, nil), sc, "")
	// This mode serves no such resource: the read's answer is an error.
	if _, err := c.ReadServer(context.Background(), mcptest.RawResourceURI); !errors.Is(err, fault.ErrNotFound) {
		t.Fatalf("read = %v; want not found", err)
	}
	entries, dropped := c.Tap().History()
	if dropped != 0 || len(entries) < 4 {
		t.Fatalf("History() = %d entries, %d dropped; want the handshake and the read", len(entries), dropped)
	}
	kinds := map[wire.RPCKind][]string{}
	for _, e := range entries {
		kinds[e.Kind] = append(kinds[e.Kind], string(e.Dir)+" "+e.Method)
		if (e.Kind == wire.KindResponse || e.Kind == wire.KindError) && (e.Method == "" || e.Elapsed < 0) {
			t.Errorf("response %s is not paired with its request (method %q, elapsed %v)", e.Raw, e.Method, e.Elapsed)
		}
	}
	for kind, want := range map[wire.RPCKind]string{
		wire.KindRequest:      "sent resources/read",
		wire.KindResponse:     "received initialize",
		wire.KindError:        "received resources/read",
		wire.KindNotification: "sent notifications/initialized",
	} {
		if !slices.Contains(kinds[kind], want) {
			t.Errorf("%s messages %q; want %q among them", kind, kinds[kind], want)
		}
	}
	var buf bytes.Buffer
	if err := wire.WriteExchange(&buf, wire.ExportedExchange{Server: sc.Name}, entries); err != nil {
		t.Fatal(err)
	}
	type exported struct {
		Direction, Kind, Method string
		Message                 json.RawMessage
	}
	var doc struct {
		Server   string
		Messages []exported
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("the export is not JSON: %v", err)
	}
	if doc.Server != sc.Name || len(doc.Messages) != len(entries) {
		t.Fatalf("export of %s has %d messages; want %s with %d", doc.Server, len(doc.Messages), sc.Name, len(entries))
	}
	i := slices.IndexFunc(doc.Messages, func(m exported) bool { return m.Method == "initialize" })
	if i < 0 || doc.Messages[i].Kind != "request" || doc.Messages[i].Direction != "sent" ||
		!bytes.Contains(doc.Messages[i].Message, []byte(`"initialize"`)) {
		t.Errorf("the export holds no initialize request as sent: %s", buf.Bytes())
	}
}

// The console's log is what the server wrote to stderr.
func TestConnStderr(t *testing.T) {
	sc := mcptestStdio(t, mcptest.ModeV2026)
	sc.Args = append([]string{"-c", `echo "starting up" >&2; echo "ready" >&2; exec "$0" "$@"`, sc.Command}, sc.Args...)
	sc.Command = "sh"
	c := conn(t, newHost(t, nil), sc, "")
	if lines, ok := c.Stderr(); ok || lines != nil {
		t.Errorf("Stderr() before any process = %q, %v", lines, ok)
	}
	if _, err := c.Session(context.Background()); err != nil {
		t.Fatal(err)
	}
	lines, ok := c.Stderr()
	if !ok || !slices.Equal(lines[:2], []string{"starting up", "ready"}) {
		t.Errorf("Stderr() = %q, %v; want the server's two lines", lines, ok)
	}
}
