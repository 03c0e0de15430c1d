package provider_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/internal/modeltest"
	"github.com/attache/attache/internal/provider"
)

// kinds are the two wire formats; every test runs against both.
var kinds = []string{models.OpenAI, models.Anthropic}

// setup starts a scripted server and returns a model of kind talking to it
// with key "sk-test" (the server accepts only that key).
func setup(t *testing.T, kind string, mutate func(*models.Provider), script ...modeltest.Step) (chat.Model, *modeltest.Server) {
	t.Helper()
	srv := modeltest.New(&modeltest.Options{Key: "sk-test"}, script...)
	t.Cleanup(srv.Close)
	zero := 0
	pc := models.Provider{Name: "scripted", Kind: kind, Model: "model-x", APIKeyEnv: "TEST_MODEL_KEY", MaxRetries: &zero}
	pc.BaseURL = srv.OpenAIBaseURL()
	if kind == models.Anthropic {
		pc.BaseURL = srv.AnthropicBaseURL()
	}
	if mutate != nil {
		mutate(&pc)
	}
	m, err := provider.New(pc, &provider.Options{Getenv: func(name string) string {
		if name == "TEST_MODEL_KEY" {
			return "sk-test"
		}
		return ""
	}})
	if err != nil {
		t.Fatal(err)
	}
	return m, srv
}

func parsed(t *testing.T, srv *modeltest.Server, i int) modeltest.Parsed {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) <= i {
		t.Fatalf("%d requests; want request %d", len(reqs), i+1)
	}
	p, err := reqs[i].Parse()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var tools = []chat.ToolSpec{{Name: "get_memories", Description: "Fetch memories by id",
	InputSchema: []byte(`{"type":"object","properties":{"ids":{"type":"array","items":{"type":"string"}}},"required":["ids"],"additionalProperties":false}`)}}

// A streamed reply arrives piece by piece through onText, and whole in the
// reply, with the usage the provider reported; the request carries the
// system prompt where the API expects it, the messages and the tools.
func TestStreamedText(t *testing.T) {
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			m, srv := setup(t, kind, nil, modeltest.Say(modeltest.Reply{Text: "Bonjour, Attaché!", Chunks: 4, InputTokens: 120, OutputTokens: 9}))
			var pieces []string
			reply, err := m.Complete(context.Background(), chat.ModelRequest{System: "CONTEXT", Tools: tools,
				Messages: []chat.Message{{Role: chat.RoleUser, Text: "hi"}}}, func(s string) { pieces = append(pieces, s) })
			if err != nil {
				t.Fatal(err)
			}
			if reply.Text != "Bonjour, Attaché!" || strings.Join(pieces, "") != reply.Text || len(pieces) != 4 {
				t.Errorf("reply %q from pieces %q; want 4 pieces making the text", reply.Text, pieces)
			}
			want := chat.Usage{InputTokens: 120, OutputTokens: 9, Reported: true}
			if reply.Usage != want || reply.Model != "model-x" || reply.StopReason == "" {
				t.Errorf("reply = %+v; want usage %+v, model model-x and a stop reason", reply, want)
			}
			p := parsed(t, srv, 0)
			if p.System != "CONTEXT" || p.LastUser() != "hi" || !cmp.Equal(p.Tools, []string{"get_memories"}) || p.MaxTokens != models.DefaultMaxTokens {
				t.Errorf("request = %+v", p)
			}
			if !srv.Requests()[0].Stream {
				t.Error("the request did not ask to stream")
			}
		})
	}
}

// Tool calls come back with their ids and arguments as written; the
// results go back with those ids, and a failed call is marked.
func TestToolCallRoundTrip(t *testing.T) {
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			m, srv := setup(t, kind, nil,
				modeltest.Say(modeltest.Reply{Text: "Let me look.", ToolCalls: []modeltest.Call{
					{ID: "call_1", Name: "get_memories", Arguments: `{"ids":["m1","m2"]}`},
					{ID: "call_2", Name: "get_memories", Arguments: `{"ids":["m3"]}`}}}),
				modeltest.Say(modeltest.Reply{Text: "Done."}))
			ctx := context.Background()
			msgs := []chat.Message{{Role: chat.RoleUser, Text: "what do I know?"}}
			reply, err := m.Complete(ctx, chat.ModelRequest{System: "s", Messages: msgs, Tools: tools}, nil)
			if err != nil {
				t.Fatal(err)
			}
			wantCalls := []chat.ToolCall{{ID: "call_1", Name: "get_memories", Arguments: `{"ids":["m1","m2"]}`},
				{ID: "call_2", Name: "get_memories", Arguments: `{"ids":["m3"]}`}}
			if diff := cmp.Diff(wantCalls, reply.ToolCalls); diff != "" || reply.Text != "Let me look." {
				t.Fatalf("text %q, calls (-want +got):\n%s", reply.Text, diff)
			}
			msgs = append(msgs, chat.Message{Role: chat.RoleAssistant, Text: reply.Text, ToolCalls: reply.ToolCalls},
				chat.Message{Role: chat.RoleTool, ToolCallID: "call_1", ToolName: "get_memories", Text: "memory one"},
				chat.Message{Role: chat.RoleTool, ToolCallID: "call_2", ToolName: "get_memories", Text: "denied", IsError: true})
			if _, err := m.Complete(ctx, chat.ModelRequest{System: "s", Messages: msgs, Tools: tools, NoToolCalls: true}, nil); err != nil {
				t.Fatal(err)
			}
			p := parsed(t, srv, 1)
			results := p.ToolResults()
			if len(results) != 2 || results[0] != "memory one" || !strings.Contains(results[1], "denied") {
				t.Errorf("tool results sent = %q", results)
			}
			var ids []string
			for _, msg := range p.Messages {
				if msg.Role == "tool" {
					ids = append(ids, msg.ToolCallID)
				}
			}
			if !cmp.Equal(ids, []string{"call_1", "call_2"}) || p.ToolChoice != "none" {
				t.Errorf("result ids %q, tool choice %q; want call_1, call_2 and none", ids, p.ToolChoice)
			}
			if kind == models.Anthropic {
				// Both results share one user message, after the assistant's.
				if n := len(srv.Requests()[1].Body); n == 0 || strings.Count(string(srv.Requests()[1].Body), `"role":"user"`) != 2 {
					t.Errorf("anthropic messages do not alternate: %s", srv.Requests()[1].Body)
				}
			}
		})
	}
}

// A whole (unstreamed) reply, for servers whose streaming is broken.
func TestNoStream(t *testing.T) {
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			m, srv := setup(t, kind, func(pc *models.Provider) { pc.NoStream = true },
				modeltest.Say(modeltest.Reply{Text: "whole", ToolCalls: []modeltest.Call{{ID: "c1", Name: "get_memories", Arguments: `{"ids":[]}`}}}))
			var got string
			reply, err := m.Complete(context.Background(), chat.ModelRequest{Messages: []chat.Message{{Role: chat.RoleUser, Text: "x"}}, Tools: tools},
				func(s string) { got += s })
			if err != nil {
				t.Fatal(err)
			}
			if reply.Text != "whole" || got != "whole" || len(reply.ToolCalls) != 1 || reply.ToolCalls[0].Arguments != `{"ids":[]}` || !reply.Usage.Reported {
				t.Errorf("reply = %+v, streamed %q", reply, got)
			}
			if srv.Requests()[0].Stream {
				t.Error("the request asked to stream")
			}
		})
	}
}

// Every failure is a fault.Error of the kind a person can act on, with
// a message that names the provider and never the key, and what streamed
// before it is kept.
func TestFailures(t *testing.T) {
	for _, kind := range kinds {
		for _, tt := range []struct {
			name   string
			reply  modeltest.Reply
			mutate func(*models.Provider)
			kind   fault.Kind
			says   string
			kept   string
		}{
			{"wrong key", modeltest.Reply{Text: "never"}, func(pc *models.Provider) { pc.APIKeyEnv = "NO_SUCH_VAR" },
				fault.KindUnauthorized, "refused the API key (HTTP 401)", ""},
			{"rate limited", modeltest.Reply{Status: 429, RetryAfter: "7"}, nil, fault.KindServerFault, "rate limiting (HTTP 429); it asks to wait 7s", ""},
			{"server error", modeltest.Reply{Status: 500}, nil, fault.KindServerFault, "failed (HTTP 500)", ""},
			{"overloaded", modeltest.Reply{Status: 529}, nil, fault.KindServerFault, "failed (HTTP 529)", ""},
			{"bad request", modeltest.Reply{Status: 400, Message: "max_tokens is too large"}, nil, fault.KindInvalidParams, "max_tokens is too large", ""},
			{"malformed stream", modeltest.Reply{Text: "first second third", Malformed: true}, nil, fault.KindProtocol, "could not be understood", "first "},
			{"truncated stream", modeltest.Reply{Text: "cut short", Truncated: true}, nil, fault.KindProtocol, "ended before the reply was complete", "cut short"},
		} {
			t.Run(kind+"/"+tt.name, func(t *testing.T) {
				m, _ := setup(t, kind, tt.mutate, modeltest.Say(tt.reply))
				reply, err := m.Complete(context.Background(), chat.ModelRequest{Messages: []chat.Message{{Role: chat.RoleUser, Text: "x"}}}, nil)
				var he *fault.Error
				if !errors.As(err, &he) || he.Kind() != tt.kind || !strings.Contains(he.Message(), tt.says) {
					t.Fatalf("err = %v; want kind %q saying %q", err, tt.kind, tt.says)
				}
				if strings.Contains(err.Error(), "sk-test") || !strings.Contains(he.Message(), "scripted") {
					t.Errorf("message %q: want the provider's name and never the key", err)
				}
				if reply.Text != tt.kept {
					t.Errorf("kept %q; want %q", reply.Text, tt.kept)
				}
			})
		}
	}
}

// A provider that is down is a transport failure naming its URL.
func TestProviderDown(t *testing.T) {
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			m, srv := setup(t, kind, nil)
			srv.Close()
			_, err := m.Complete(context.Background(), chat.ModelRequest{Messages: []chat.Message{{Role: chat.RoleUser, Text: "x"}}}, nil)
			var he *fault.Error
			if !errors.As(err, &he) || he.Kind() != fault.KindTransport || !strings.Contains(he.Message(), "cannot be reached at http://127.0.0.1:") {
				t.Errorf("err = %v; want a transport failure naming the URL", err)
			}
		})
	}
}

// The SDK's own retry honours Retry-After: a 429 then a reply succeeds
// when maxRetries allows one retry.
func TestRetryAfter(t *testing.T) {
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			one := 1
			m, srv := setup(t, kind, func(pc *models.Provider) { pc.MaxRetries = &one },
				modeltest.Say(modeltest.Reply{Status: 429, RetryAfter: "0"}), modeltest.Say(modeltest.Reply{Text: "after the wait"}))
			reply, err := m.Complete(context.Background(), chat.ModelRequest{Messages: []chat.Message{{Role: chat.RoleUser, Text: "x"}}}, nil)
			if err != nil || reply.Text != "after the wait" || len(srv.Requests()) != 2 {
				t.Errorf("reply %q, err %v after %d requests; want the second answer", reply.Text, err, len(srv.Requests()))
			}
		})
	}
}

// Arguments that are not valid JSON reach the host as the model wrote
// them, so it can tell the model so.
func TestInvalidArgumentsKept(t *testing.T) {
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			m, _ := setup(t, kind, nil, modeltest.Say(modeltest.Reply{ToolCalls: []modeltest.Call{{ID: "c1", Name: "get_memories", Arguments: `{"ids": [`}}}))
			reply, err := m.Complete(context.Background(), chat.ModelRequest{Messages: []chat.Message{{Role: chat.RoleUser, Text: "x"}}, Tools: tools}, nil)
			if err != nil || len(reply.ToolCalls) != 1 || reply.ToolCalls[0].Arguments != `{"ids": [` {
				t.Errorf("reply %+v, %v; want the call with its arguments as written", reply, err)
			}
		})
	}
}

// Stop: ending the context while the reply streams ends Complete with a
// canceled error, keeping the text so far.
func TestStop(t *testing.T) {
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			m, _ := setup(t, kind, nil, modeltest.Say(modeltest.Reply{Text: strings.Repeat("word ", 400), Chunks: 200}))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			reply, err := m.Complete(ctx, chat.ModelRequest{Messages: []chat.Message{{Role: chat.RoleUser, Text: "x"}}},
				func(string) { cancel() })
			var he *fault.Error
			if !errors.As(err, &he) || he.Kind() != fault.KindCanceled || reply.Text == "" {
				t.Errorf("err %v, kept %d bytes; want canceled, keeping what arrived", err, len(reply.Text))
			}
		})
	}
}

// The SDKs never configure themselves from the environment: a base URL or
// key set there for another program goes nowhere.
func TestEnvironmentIgnored(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("OPENAI_API_KEY", "sk-leak")
	t.Setenv("ANTHROPIC_API_KEY", "sk-leak")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "sk-leak")
	t.Setenv("OPENAI_ORG_ID", "org-leak")
	t.Setenv("OPENAI_PROJECT_ID", "proj-leak")
	t.Setenv("OPENAI_ADMIN_KEY", "admin-leak")
	t.Setenv("OPENAI_CUSTOM_HEADERS", "X-Custom: leak")
	t.Setenv("ANTHROPIC_CUSTOM_HEADERS", "X-Custom: leak")
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			srv := modeltest.New(nil, modeltest.Say(modeltest.Reply{Text: "ok"}))
			defer srv.Close()
			base := srv.OpenAIBaseURL()
			if kind == models.Anthropic {
				base = srv.AnthropicBaseURL()
			}
			m, err := provider.New(models.Provider{Name: "local", Kind: kind, Model: "m", BaseURL: base}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := m.Complete(context.Background(), chat.ModelRequest{Messages: []chat.Message{{Role: chat.RoleUser, Text: "x"}}}, nil); err != nil {
				t.Fatalf("the configured base URL was not used: %v", err)
			}
			for k, v := range srv.Requests()[0].Header {
				if strings.Contains(strings.Join(v, ","), "leak") {
					t.Errorf("header %s: %q comes from the environment", k, v)
				}
			}
		})
	}
}

type keys map[string]string

func (k keys) APIKey(name string) (string, bool, error) { v, ok := k[name]; return v, ok, nil }

func TestKeySource(t *testing.T) {
	env := map[string]string{"SET": "sk-env"}
	opts := &provider.Options{Getenv: func(n string) string { return env[n] }, Keys: keys{"kept": "sk-kept"}}
	for _, tt := range []struct {
		pc        models.Provider
		key, from string
	}{
		{models.Provider{Name: "a", APIKeyEnv: "SET"}, "sk-env", "env SET"},
		{models.Provider{Name: "kept", APIKeyEnv: "UNSET"}, "sk-kept", "keyring"},
		{models.Provider{Name: "kept", APIKeyEnv: "SET"}, "sk-env", "env SET"},
		{models.Provider{Name: "none"}, "", "none"},
	} {
		key, from, err := provider.Key(tt.pc, opts)
		if err != nil || key != tt.key || from != tt.from {
			t.Errorf("Key(%+v) = %q, %q, %v; want %q from %q", tt.pc, key, from, err, tt.key, tt.from)
		}
	}
}
