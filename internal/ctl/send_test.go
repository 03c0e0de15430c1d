package ctl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/modeltest"
	"github.com/attache/attache/internal/npmpeer"
	"github.com/attache/attache/internal/testbin"
)

// The model loop through the real binary, against the scripted provider
// (internal/modeltest) speaking each API's wire format, the built-in
// threengram demo, and the annotated mcptest server (its readme is
// priority 1, its logo is for the user only).

// modelKinds are the two wire formats every send test runs against.
var modelKinds = []string{models.OpenAI, models.Anthropic}

// modelEnv writes a config with the annotated server and a provider
// "scripted" of kind pointing at srv (or at base, when not empty), and
// returns the environment of a private attachectl run.
func modelEnv(t *testing.T, kind string, srv *modeltest.Server, base string, extra ...config.ServerConfig) []string {
	t.Helper()
	dir := t.TempDir()
	if base == "" {
		base = srv.OpenAIBaseURL()
		if kind == models.Anthropic {
			base = srv.AnthropicBaseURL()
		}
	}
	zero := 0
	servers := append([]config.ServerConfig{{Name: "annotated", Command: testbin.Build(t, "internal/mcptest/mcptestd"),
		Args: []string{"--mode", mcptest.ModeV2025Nov, "--stdio"}}}, extra...)
	cfg := map[string]any{"servers": servers, "providers": []models.Provider{
		{Name: "scripted", Kind: kind, BaseURL: base, Model: "model-x", APIKeyEnv: "TEST_MODEL_KEY", MaxRetries: &zero}}}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "config.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return []string{"ATTACHE_CONFIG=" + path, "ATTACHE_DATA_DIR=" + filepath.Join(dir, "data"),
		"ATTACHE_TOKEN_STORE=file", "TEST_MODEL_KEY=sk-test"}
}

// must runs attachectl and fails unless it exits 0.
func must(t *testing.T, env []string, args ...string) result {
	t.Helper()
	r := ctl(t, env, args...)
	if r.code != 0 {
		t.Fatalf("attachectl %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r
}

// chatWithContext creates a conversation "chat" with a demo memory and the
// annotated server's readme and logo attached; it returns the memory's id
// and another memory id of the tenant.
func chatWithContext(t *testing.T, env []string) (attached, other string) {
	t.Helper()
	must(t, env, "context", "new", "chat")
	ids := strings.Fields(must(t, env, "complete", "demo", "threengram://memory/{id}", "id", "m").stdout)
	must(t, env, "attach", "chat", "demo", "--id", ids[0])
	must(t, env, "attach", "chat", "annotated", mcptest.ReadmeURI)
	must(t, env, "attach", "chat", "annotated", mcptest.LogoURI)
	return ids[0], ids[1]
}

func storedTurns(t *testing.T, env []string, conv string) []chat.Turn {
	t.Helper()
	var turns []chat.Turn
	if err := json.Unmarshal([]byte(must(t, env, "turns", conv, "--json").stdout), &turns); err != nil {
		t.Fatal(err)
	}
	return turns
}

// The acceptance run: the request carries the assembled context (the
// priority-1 readme present, the user-only logo absent), the threengram
// tools are offered, the model's get_memories call reaches the demo server
// with --tools auto and its result goes back, the answer is printed as it
// streams, and turns shows the whole turn with the context sent.
func TestSendThroughCLI(t *testing.T) {
	for _, kind := range modelKinds {
		t.Run(kind, func(t *testing.T) {
			srv := modeltest.New(&modeltest.Options{Key: "sk-test"})
			defer srv.Close()
			env := modelEnv(t, kind, srv, "")
			attached, other := chatWithContext(t, env)
			srv.Then(modeltest.Say(modeltest.Reply{Text: "Let me look.", ToolCalls: []modeltest.Call{
				{ID: "call_1", Name: "get_memories", Arguments: fmt.Sprintf(`{"ids":[%q]}`, other)}}}),
				func(req modeltest.Request) modeltest.Reply {
					p, _ := req.Parse()
					results := p.ToolResults()
					return modeltest.Reply{Text: fmt.Sprintf("I read %d result(s) of %d bytes.", len(results), len(strings.Join(results, ""))), Chunks: 5}
				})
			r := ctl(t, env, "send", "chat", "What do I know?", "--provider", "scripted", "--tools", "auto")
			if r.code != 0 || !strings.Contains(r.stdout, "Let me look.\nI read 1 result(s) of ") {
				t.Fatalf("send: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stderr, "→ demo/get_memories {\"ids\":[\""+other+"\"]}") || !strings.Contains(r.stderr, "← demo/get_memories result: ") {
				t.Errorf("the tool call is not told on stderr:\n%s", r.stderr)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests; want 2", len(reqs))
			}
			first, _ := reqs[0].Parse()
			for _, want := range []string{"## " + mcptest.ReadmeURI, "A *static* markdown resource", "## threengram://memory/" + attached, " · recorded "} {
				if !strings.Contains(first.System, want) {
					t.Errorf("the context sent lacks %q:\n%s", want, first.System)
				}
			}
			if strings.Contains(first.System, mcptest.LogoURI) {
				t.Errorf("the user-only logo was sent:\n%s", first.System)
			}
			for _, tool := range []string{"get_memories", "search", "briefing"} {
				if !slices.Contains(first.Tools, tool) {
					t.Errorf("tools offered %v lack %s", first.Tools, tool)
				}
			}
			if first.LastUser() != "What do I know?" || reqs[0].Header.Get("Authorization") != "Bearer sk-test" || !reqs[0].Stream {
				t.Errorf("first request: user %q, streamed %v", first.LastUser(), reqs[0].Stream)
			}
			second, _ := reqs[1].Parse()
			if res := second.ToolResults(); len(res) != 1 || !strings.Contains(res[0], `"id":"`+other+`"`) || !strings.Contains(res[0], `"content":`) {
				t.Errorf("the tool result sent back = %q; want get_memories' answer for %s", res, other)
			}

			text := must(t, env, "turns", "chat").stdout
			for _, want := range []string{"turn 1 · done · scripted (model-x)", "held-audience", mcptest.LogoURI, "included",
				"assistant → get_memories", "tool get_memories result: ", "system prompt sent:", "| A *static* markdown resource",
				"requests:", "provider: in 11, out 7", "the listing costs"} {
				if !strings.Contains(text, want) {
					t.Errorf("turns lacks %q:\n%s", want, text)
				}
			}
			turns := storedTurns(t, env, "chat")
			if len(turns) != 1 || len(turns[0].Messages) != 4 || turns[0].Context.System != first.System || len(turns[0].Requests) != 2 {
				t.Fatalf("stored turn = %+v", turns)
			}
			var replay chat.ModelRequest
			if err := json.Unmarshal([]byte(must(t, env, "turns", "chat", "--request", "1").stdout), &replay); err != nil || replay.System != first.System {
				t.Errorf("turns --request 1 does not rebuild the first request: %v", err)
			}
			// --replay sends that request again and prints the answer, storing nothing.
			srv.Then(modeltest.Say(modeltest.Reply{Text: "Replayed answer.", Chunks: 3}))
			r = must(t, env, "turns", "chat", "--replay", "1", "--provider", "scripted")
			if r.stdout != "Replayed answer.\n" {
				t.Errorf("turns --replay 1 printed %q", r.stdout)
			}
			reqs = srv.Requests()
			if again, _ := reqs[len(reqs)-1].Parse(); again.System != first.System || again.LastUser() != "What do I know?" || len(again.Tools) != len(first.Tools) {
				t.Errorf("the replay did not send turn 1's first request again: %+v", again)
			}
			if turns := storedTurns(t, env, "chat"); len(turns) != 1 {
				t.Errorf("a replay stored a turn: %d turns", len(turns))
			}
		})
	}
}

// send --json prints the final text and the whole turn, streaming nothing.
func TestSendJSON(t *testing.T) {
	srv := modeltest.New(&modeltest.Options{Key: "sk-test"}, modeltest.Say(modeltest.Reply{Text: "plain answer"}))
	defer srv.Close()
	env := modelEnv(t, models.OpenAI, srv, "")
	must(t, env, "context", "new", "empty")
	var out struct {
		Text string    `json:"text"`
		Turn chat.Turn `json:"turn"`
	}
	r := must(t, env, "send", "empty", "hi", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.Text != "plain answer" || out.Turn.Status != chat.TurnDone {
		t.Errorf("send --json = %s (%v)", r.stdout, err)
	}
	if p, _ := srv.Requests()[0].Parse(); len(p.Tools) != 0 || !strings.Contains(p.System, "No resource is attached") {
		t.Errorf("a conversation without attachments, tools off when stdin is not a terminal: %+v", p)
	}
}

// Bad input: each failure is one clear line with the kind's exit code, and
// the turn is stored with the person's message and whatever arrived.
func TestSendFailuresThroughCLI(t *testing.T) {
	for _, kind := range modelKinds {
		for _, tt := range []struct {
			name   string
			reply  modeltest.Reply
			base   string // instead of the scripted server's
			key    string // instead of sk-test
			code   int
			says   string
			status chat.TurnStatus
			kept   string // assistant text stored
		}{
			{name: "provider down", base: "http://127.0.0.1:1", code: exitTransport, says: "cannot be reached at http://127.0.0.1:1", status: chat.TurnFailed},
			{name: "401 key", key: "sk-wrong", code: exitUnauthorized, says: "refused the API key (HTTP 401)", status: chat.TurnFailed},
			{name: "429", reply: modeltest.Reply{Status: 429, RetryAfter: "7"}, code: exitServer, says: "rate limiting (HTTP 429); it asks to wait 7s", status: chat.TurnFailed},
			{name: "500", reply: modeltest.Reply{Status: 500}, code: exitServer, says: "failed (HTTP 500)", status: chat.TurnFailed},
			{name: "malformed stream", reply: modeltest.Reply{Text: "the start of it", Malformed: true}, code: exitServer, says: "could not be understood",
				status: chat.TurnFailed, kept: "the s"}, // the first of three pieces
		} {
			t.Run(kind+"/"+tt.name, func(t *testing.T) {
				srv := modeltest.New(&modeltest.Options{Key: "sk-test"}, modeltest.Say(tt.reply))
				defer srv.Close()
				env := modelEnv(t, kind, srv, tt.base)
				if tt.key != "" {
					env = append(env, "TEST_MODEL_KEY="+tt.key)
				}
				must(t, env, "context", "new", "c")
				r := ctl(t, env, "send", "c", "are you there?", "--tools", "off")
				if r.code != tt.code || !strings.Contains(r.stderr, tt.says) || strings.Count(r.stderr, "\n") != 1 {
					t.Errorf("exit %d, stderr %q; want exit %d and one line saying %q", r.code, r.stderr, tt.code, tt.says)
				}
				if strings.Contains(r.stderr, "sk-") {
					t.Errorf("a key in the message: %q", r.stderr)
				}
				turns := storedTurns(t, env, "c")
				if len(turns) != 1 || turns[0].Status != tt.status || turns[0].Messages[0].Text != "are you there?" || turns[0].Error == "" {
					t.Fatalf("stored turn = %+v", turns)
				}
				if tt.kept != "" && (len(turns[0].Messages) != 2 || turns[0].Messages[1].Text != tt.kept || !strings.HasPrefix(r.stdout, tt.kept)) {
					t.Errorf("kept %+v, printed %q; want %q", turns[0].Messages, r.stdout, tt.kept)
				}
			})
		}
	}
}

// A tool call whose arguments are not JSON is refused before it runs; the
// model is told, answers, and the turn ends well.
func TestSendInvalidArgumentsThroughCLI(t *testing.T) {
	for _, kind := range modelKinds {
		t.Run(kind, func(t *testing.T) {
			srv := modeltest.New(&modeltest.Options{Key: "sk-test"},
				modeltest.Say(modeltest.Reply{ToolCalls: []modeltest.Call{{ID: "call_bad", Name: "get_memories", Arguments: `{"ids": [`}}}),
				modeltest.Say(modeltest.Reply{Text: "I will try again later."}))
			defer srv.Close()
			env := modelEnv(t, kind, srv, "")
			chatWithContext(t, env)
			r := ctl(t, env, "send", "chat", "go", "--tools", "auto")
			if r.code != 0 || !strings.Contains(r.stdout, "I will try again later.") || !strings.Contains(r.stderr, "not a JSON object") {
				t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
			}
			p, _ := srv.Requests()[1].Parse()
			if res := p.ToolResults(); len(res) != 1 || !strings.Contains(res[0], "not a valid JSON object") {
				t.Errorf("the model was told %q", res)
			}
			turns := storedTurns(t, env, "chat")
			if msgs := turns[0].Messages; len(msgs) != 4 || msgs[1].ToolCalls[0].Arguments != `{"ids": [` || !msgs[2].IsError {
				t.Errorf("stored messages = %+v", msgs)
			}
		})
	}
}

// --tools ask: the person answers on stdin; "a" is remembered for the
// conversation, "n" denies.
func TestSendAskThroughCLI(t *testing.T) {
	srv := modeltest.New(&modeltest.Options{Key: "sk-test"},
		modeltest.Say(modeltest.Reply{ToolCalls: []modeltest.Call{{ID: "c1", Name: "briefing", Arguments: `{}`}, {ID: "c2", Name: "search", Arguments: `{"query":"x"}`}}}),
		modeltest.Say(modeltest.Reply{Text: "first done"}),
		modeltest.Say(modeltest.Reply{ToolCalls: []modeltest.Call{{ID: "c3", Name: "briefing", Arguments: `{}`}}}),
		modeltest.Say(modeltest.Reply{Text: "second done"}))
	defer srv.Close()
	env := modelEnv(t, models.OpenAI, srv, "")
	chatWithContext(t, env)
	r := ctlStdin(t, env, "a\nn\n", "send", "chat", "one", "--tools", "ask")
	if r.code != 0 || strings.Count(r.stderr, "Run it?") != 2 {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	p, _ := srv.Requests()[1].Parse()
	if res := p.ToolResults(); len(res) != 2 || strings.Contains(res[0], "denied") || !strings.Contains(res[1], "denied") {
		t.Errorf("results = %q; want briefing's, then a denial", res)
	}
	// Always: the second turn runs briefing without asking.
	r = ctlStdin(t, env, "", "send", "chat", "two", "--tools", "ask")
	if r.code != 0 || strings.Contains(r.stderr, "Run it?") {
		t.Errorf("asked again after Always: exit %d, %s", r.code, r.stderr)
	}
}

// providers lists where each key comes from, never the key; set-key keeps
// one in the keyring (here the 0600 file), which send then uses.
func TestProvidersAndKeys(t *testing.T) {
	srv := modeltest.New(&modeltest.Options{Key: "sk-kept"}, modeltest.Say(modeltest.Reply{Text: "with the kept key"}))
	defer srv.Close()
	env := modelEnv(t, models.OpenAI, srv, "")
	env = append(env, "TEST_MODEL_KEY=") // the variable is empty: the keyring is next
	r := must(t, env, "providers")
	if !strings.Contains(r.stdout, "scripted") || !strings.Contains(r.stdout, "none") {
		t.Errorf("providers:\n%s", r.stdout)
	}
	ctlStdin(t, env, "sk-kept\n", "providers", "set-key", "scripted")
	r = must(t, env, "providers", "--json")
	if !strings.Contains(r.stdout, `"key": "keyring"`) || strings.Contains(r.stdout, "sk-kept") {
		t.Errorf("providers --json:\n%s", r.stdout)
	}
	cfg, _ := os.ReadFile(strings.TrimPrefix(env[0], "ATTACHE_CONFIG="))
	if strings.Contains(string(cfg), "sk-kept") {
		t.Error("the key reached the config file")
	}
	must(t, env, "context", "new", "k")
	if r := ctl(t, env, "send", "k", "hi"); r.code != 0 || !strings.Contains(r.stdout, "with the kept key") {
		t.Errorf("send with the kept key: %+v", r)
	}
	must(t, env, "providers", "delete-key", "scripted")
	if r := ctl(t, env, "send", "k", "hi"); r.code != exitUnauthorized {
		t.Errorf("send after delete-key: %+v; want exit 4", r)
	}
	if r := ctl(t, env, "send", "k", "hi", "--provider", "nope"); r.code != exitUsage || !strings.Contains(r.stderr, `no provider named "nope"`) {
		t.Errorf("an unknown provider: %+v", r)
	}
}

// tools and call reach a server's tools directly.
func TestToolsAndCall(t *testing.T) {
	env := privateEnv(t)
	r := must(t, env, "tools", "demo")
	if !strings.Contains(r.stdout, "get_memories") || !strings.Contains(r.stdout, "search") {
		t.Errorf("tools demo:\n%s", r.stdout)
	}
	r = must(t, env, "call", "demo", "search", "--args", `{"query":"deployment","limit":2}`, "--json")
	var res hostcore.ToolResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || res.IsError || !strings.Contains(string(res.Structured), `"results"`) {
		t.Errorf("call --json = %s (%v)", r.stdout, err)
	}
	if r := ctl(t, env, "call", "demo", "search", "--args", `{"query":`); r.code != exitUsage || !strings.Contains(r.stderr, "not a JSON object") {
		t.Errorf("bad --args: %+v", r)
	}
	if r := ctl(t, env, "call", "demo", "remember", "--args", `{}`); r.code != exitServer || !strings.Contains(r.stderr, "reported an error") {
		t.Errorf("a tool's own failure: %+v; want exit 5", r)
	}
}

func memoryServerPath(t *testing.T) string { return npmpeer.Entry(t, "server-memory") }

// Supersession: server-memory's knowledge graph changes between two turns
// (create_entities); the second request carries the note and the new
// body, and the third, with nothing changed, no note.
func TestSupersessionThroughCLI(t *testing.T) {
	kg := config.ServerConfig{Name: "kg", Command: "node", Args: []string{memoryServerPath(t)},
		Env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(t.TempDir(), "memory.jsonl")}}
	for _, kind := range modelKinds {
		t.Run(kind, func(t *testing.T) {
			os.Remove(kg.Env["MEMORY_FILE_PATH"])
			srv := modeltest.New(&modeltest.Options{Key: "sk-test"}, modeltest.Say(modeltest.Reply{Text: "one"}),
				modeltest.Say(modeltest.Reply{Text: "two"}), modeltest.Say(modeltest.Reply{Text: "three"}))
			defer srv.Close()
			env := modelEnv(t, kind, srv, "", kg)
			must(t, env, "context", "new", "g")
			must(t, env, "attach", "g", "kg", "memory://knowledge-graph")
			must(t, env, "send", "g", "what is in the graph?", "--tools", "off")
			must(t, env, "call", "kg", "create_entities", "--args",
				`{"entities":[{"name":"Attaché","entityType":"host","observations":["sends the context to the model"]}]}`)
			must(t, env, "send", "g", "and now?", "--tools", "off")
			must(t, env, "send", "g", "still?", "--tools", "off")
			var systems []string
			for _, req := range srv.Requests() {
				p, _ := req.Parse()
				systems = append(systems, p.System)
			}
			note := "memory://knowledge-graph was updated at "
			if strings.Contains(systems[0], note) || strings.Contains(systems[2], note) {
				t.Errorf("a note where nothing changed")
			}
			if !strings.Contains(systems[1], note) || !strings.Contains(systems[1], "the earlier text (sent in turn 1) is superseded") ||
				!strings.Contains(systems[1], "sends the context to the model") {
				t.Errorf("the second request's context:\n%s", systems[1])
			}
			if text := must(t, env, "turns", "g", "--brief").stdout; !strings.Contains(text, "note: "+note) {
				t.Errorf("turns does not show the note:\n%s", text)
			}
		})
	}
}

// The live test runs only with a real provider's key in the environment:
// ATTACHE_LIVE_OPENAI_KEY (and optionally ATTACHE_LIVE_OPENAI_MODEL,
// ATTACHE_LIVE_OPENAI_BASE_URL) or ATTACHE_LIVE_ANTHROPIC_KEY (and
// ATTACHE_LIVE_ANTHROPIC_MODEL).
func TestLiveProvider(t *testing.T) {
	for _, tt := range []struct{ kind, model string }{{models.OpenAI, "gpt-4o-mini"}, {models.Anthropic, "claude-haiku-4-5"}} {
		t.Run(tt.kind, func(t *testing.T) {
			prefix := "ATTACHE_LIVE_" + strings.ToUpper(tt.kind) + "_"
			key := os.Getenv(prefix + "KEY")
			if key == "" {
				t.Skipf("no %sKEY in the environment: the live test talks to a real %s provider only when given a key", prefix, tt.kind)
			}
			model := cmpOr(os.Getenv(prefix+"MODEL"), tt.model)
			env := modelEnv(t, tt.kind, nil, cmpOr(os.Getenv(prefix+"BASE_URL"), "https://unused.invalid"))
			if os.Getenv(prefix+"BASE_URL") == "" {
				// the vendor's own API: rewrite the config without a base URL
				b, _ := json.Marshal(map[string]any{"providers": []models.Provider{{Name: "scripted", Kind: tt.kind, Model: model, APIKeyEnv: "TEST_MODEL_KEY"}}})
				os.WriteFile(strings.TrimPrefix(env[0], "ATTACHE_CONFIG="), b, 0o600)
			}
			env = append(env, "TEST_MODEL_KEY="+key)
			chatWithContext(t, env)
			r := ctl(t, env, "send", "chat", "In one sentence: what does the attached readme say?", "--tools", "auto", "--timeout", "2m")
			if r.code != 0 || strings.TrimSpace(r.stdout) == "" {
				t.Fatalf("live send: %+v", r)
			}
			t.Logf("%s answered: %s", tt.kind, r.stdout)
		})
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// ctlStdin runs attachectl as ctl does, with stdin.
func ctlStdin(t *testing.T, env []string, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

// send waits on a model longer than the 30 s of other commands, but an
// explicit --timeout still bounds it: a model that does not answer in time
// ends the command with exit 6, and the message stays in the stored turn.
func TestSendTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := modeltest.New(&modeltest.Options{Key: "sk-test"}, func(modeltest.Request) modeltest.Reply {
		<-release
		return modeltest.Reply{Text: "too late"}
	})
	defer srv.Close()
	defer close(release) // before Close, which waits for the handler
	env := modelEnv(t, models.OpenAI, srv, "")
	must(t, env, "context", "new", "c")
	r := ctl(t, env, "send", "c", "slow?", "--tools", "off", "--timeout", "2s")
	if r.code != exitTransport || !strings.Contains(r.stderr, "in time") {
		t.Errorf("exit %d, stderr %q; want exit %d saying it did not answer in time", r.code, r.stderr, exitTransport)
	}
	turns := storedTurns(t, env, "c")
	if len(turns) != 1 || turns[0].Messages[0].Text != "slow?" || turns[0].Status == chat.TurnDone {
		t.Errorf("stored turns = %+v", turns)
	}
}

// export prints the system prompt byte for byte as the next send sends
// it: the preamble, the update note of server-memory's graph that changed
// since turn 1 sent it, then the context.
func TestExportIsWhatSendSends(t *testing.T) {
	kg := config.ServerConfig{Name: "kg", Command: "node", Args: []string{memoryServerPath(t)},
		Env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(t.TempDir(), "memory.jsonl")}}
	srv := modeltest.New(&modeltest.Options{Key: "sk-test"}, modeltest.Say(modeltest.Reply{Text: "one"}),
		modeltest.Say(modeltest.Reply{Text: "two"}))
	defer srv.Close()
	env := modelEnv(t, modelKinds[0], srv, "", kg)
	must(t, env, "context", "new", "g")
	must(t, env, "attach", "g", "kg", "memory://knowledge-graph")
	first := must(t, env, "export", "g", "--format", "md").stdout
	must(t, env, "send", "g", "what is in the graph?", "--tools", "off")
	must(t, env, "call", "kg", "create_entities", "--args",
		`{"entities":[{"name":"Attaché","entityType":"host","observations":["sends the context to the model"]}]}`)
	second := must(t, env, "export", "g", "--format", "md").stdout
	must(t, env, "send", "g", "and now?", "--tools", "off")
	// Each process reads the changed graph itself, and the note says when
	// its read landed: export's and send's differ by that time alone.
	readAt := regexp.MustCompile(`updated at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)
	for i, exported := range []string{first, second} {
		p, _ := srv.Requests()[i].Parse()
		if readAt.ReplaceAllString(exported, "updated at T") != readAt.ReplaceAllString(p.System, "updated at T") {
			t.Errorf("turn %d sent:\n%s\n--- export printed:\n%s", i+1, p.System, exported)
		}
	}
	if !strings.HasPrefix(first, chat.Preamble) || !strings.Contains(second, "(sent in turn 1) is superseded") {
		t.Errorf("export lacks the preamble or the update note:\n%s", second)
	}
	var js struct {
		System string `json:"system"`
	}
	if err := json.Unmarshal([]byte(must(t, env, "export", "g", "--format", "json").stdout), &js); err != nil || !strings.HasPrefix(js.System, chat.Preamble) {
		t.Errorf("export --format json: system %q (%v)", js.System, err)
	}
}
