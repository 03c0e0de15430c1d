package ctl

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/internal/npmpeer"
	"github.com/attache/attache/internal/testbin"
	"github.com/attache/attache/internal/threengram"
)

// TestElicitForScripts: a server that asks for input gets what --elicit
// says: the form's defaults with accept, a decline or a cancel; decline
// when no terminal is there and nothing was said. stderr tells what was
// asked and answered.
func TestElicitForScripts(t *testing.T) {
	url := npmpeer.TS2(t)
	for _, tt := range []struct {
		flags  []string
		stdout string
		told   string
	}{
		{[]string{"--elicit", "accept"}, "hello Ada\n", `answered accept (--elicit accept): {"name":"Ada"}`},
		{[]string{"--elicit", "cancel"}, "no name (cancel)\n", "answered cancel (--elicit cancel)"},
		{nil, "no name (decline)\n", "answered decline (--elicit decline)"},
	} {
		args := append(append([]string{"--url", url}, tt.flags...), "read", "ts2://mrtr/elicit")
		r := ctl(t, privateEnv(t), args...)
		if r.code != 0 || r.stdout != tt.stdout || !strings.Contains(r.stderr, " asks (reading ts2://mrtr/elicit): Who is reading?") ||
			!strings.Contains(r.stderr, tt.told) {
			t.Errorf("%v: %+v; want %q, telling %q", tt.flags, r, tt.stdout, tt.told)
		}
	}
	if r := ctl(t, privateEnv(t), "--url", url, "--elicit", "maybe", "read", "ts2://mrtr/elicit"); r.code != exitUsage {
		t.Errorf("--elicit maybe: %+v; want a usage error", r)
	}
}

// TestCallWithParamHeaders: attachectl call of a tool with x-mcp-header
// arguments sends them as headers, from the listing of an earlier tools
// command (a new process, the same cache); a tool with an invalid
// annotation is refused (exit 5) and not listed.
func TestCallWithParamHeaders(t *testing.T) {
	url := npmpeer.TS2(t)
	env := privateEnv(t)
	r := ctl(t, env, "--url", url, "tools")
	if r.code != 0 || !strings.Contains(r.stdout, "lookup") || strings.Contains(r.stdout, "broken_header") {
		t.Fatalf("tools: %+v", r)
	}
	r = ctl(t, env, "--url", url, "call", "lookup", "--yes", "--args", `{"region":"us-west1","count":42,"verbose":true}`)
	if want := "mcp-param-count: 42\nmcp-param-region: us-west1\nmcp-param-verbose: true\n"; r.code != 0 || r.stdout != want {
		t.Errorf("call lookup: %+v; want the server to see\n%s", r, want)
	}
	if r := ctl(t, env, "--url", url, "call", "broken_header", "--yes"); r.code == 0 || strings.Contains(r.stdout, "was called") {
		t.Errorf("call broken_header: %+v; want it refused", r)
	}
}

// TestReadOfAToolsOnlyServer: a read of a server that offers no resources
// is never sent: "NAME offers no resources", exit 3 (not found).
func TestReadOfAToolsOnlyServer(t *testing.T) {
	entry := npmpeer.Entry(t, "server-filesystem")
	r := ctl(t, privateEnv(t), "--stdio", "node "+entry+" "+t.TempDir(), "read", "file:///etc/hostname")
	if r.code != exitNotFound || !strings.Contains(r.stderr, "offers no resources") {
		t.Errorf("read: %+v; want exit %d, NAME offers no resources", r, exitNotFound)
	}
}

// TestStdioAssignments: --stdio "VAR=value cmd" sets VAR for the command,
// as a shell would: threengram takes its tenant from THREENGRAM_TENANT.
func TestStdioAssignments(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	tg := testbin.Build(t, "cmd/threengram")
	stdio := "THREENGRAM_TENANT=acme " + tg + " --stdio --seed --db " + db
	r := ctl(t, privateEnv(t), "--stdio", stdio, "templates")
	if r.code != 0 || !strings.HasPrefix(r.stdout, threengram.MemoryTemplate) {
		t.Errorf("templates of %q: %+v", stdio, r)
	}
	words := []string{"A=1", "_b2=x=y", "cmd", "C=3"}
	env, rest := assignments(words)
	if diff := cmp.Diff(map[string]string{"A": "1", "_b2": "x=y"}, env); diff != "" || !cmp.Equal(rest, []string{"cmd", "C=3"}) {
		t.Errorf("assignments(%q) = %v, %q (-want +got env):\n%s", words, env, rest, diff)
	}
	if env, rest := assignments([]string{"1A=x", "cmd"}); env != nil || len(rest) != 2 {
		t.Errorf("1A=x is no assignment: %v %q", env, rest)
	}
}

// TestConformanceCalls: the calls a conformance scenario asks for: its
// context's toolCalls, the focal schema echoed back, or each tool with
// arguments from its schema.
func TestConformanceCalls(t *testing.T) {
	tools := []hostcore.Tool{
		{Name: "add_numbers", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number","default":3},"op":{"type":"string","enum":["sum","product"]}}}`)},
		{Name: "json_schema_2020_12_tool", InputSchema: json.RawMessage(`{"type":"object","$defs":{"x":{}}}`)},
	}
	calls, err := scenarioCalls("tools_call", "", tools[:1])
	want := []conformanceCall{{Name: "add_numbers", Arguments: map[string]any{"a": 1, "b": 3.0, "op": "sum"}}}
	if diff := cmp.Diff(want, calls); err != nil || diff != "" {
		t.Errorf("tools_call: %v (-want +got):\n%s", err, diff)
	}
	calls, _ = scenarioCalls("http-custom-headers", `{"toolCalls":[{"name":"t","arguments":{"region":"x"}},{"name":"u"}]}`, tools)
	want = []conformanceCall{{Name: "t", Arguments: map[string]any{"region": "x"}}, {Name: "u", Arguments: map[string]any{}}}
	if diff := cmp.Diff(want, calls); diff != "" {
		t.Errorf("toolCalls (-want +got):\n%s", diff)
	}
	calls, _ = scenarioCalls("json-schema-2020-12-preservation", "", tools)
	if len(calls) != 1 || calls[0].Name != "json_schema_echo" || string(calls[0].Arguments["schema"].(json.RawMessage)) != string(tools[1].InputSchema) {
		t.Errorf("preservation: %+v", calls)
	}
	if calls, _ := scenarioCalls("json-schema-ref-no-deref", "", tools); len(calls) != 0 {
		t.Errorf("ref-no-deref: %+v; want no call", calls)
	}
}
