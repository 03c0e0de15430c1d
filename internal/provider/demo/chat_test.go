package demo_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/internal/provider"
	"github.com/attache/attache/internal/state"
	"github.com/attache/attache/internal/testbin"
)

func TestMain(m *testing.M) { testbin.Main(m) }

// chatOver is the model loop over a real state store, with the threengram
// reference server over stdio (seeded with the demo corpus) and one of its
// memories attached to a conversation.
func chatOver(t *testing.T, id string) (*chat.Chat, *hostcore.Host, int64) {
	t.Helper()
	dir := t.TempDir()
	cfg, err := config.LoadConfig(filepath.Join(dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := state.Open(state.DefaultPath(dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	demo := config.ServerConfig{Name: hostcore.DemoServerName, Source: "builtin", Cwd: dir,
		Command: testbin.Build(t, "cmd/threengram"), Args: []string{"--db", "demo.db", "--seed", "--stdio"},
		Accounts: []config.Account{{Name: "acme", Env: map[string]string{"THREENGRAM_TENANT": "acme"}}}}
	h := hostcore.NewHost(cfg, &hostcore.HostOptions{Builtin: []config.ServerConfig{demo},
		BuiltinProviders: []models.Provider{models.DemoProvider()}})
	t.Cleanup(func() { h.Close() })
	cv := hostcore.NewConversations(h, st)
	ctx := context.Background()
	conv, err := st.CreateConversation(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	c, err := h.Conn(hostcore.DemoServerName, "acme")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cv.AttachID(ctx, conv.ID, c, id); err != nil {
		t.Fatal(err)
	}
	return chat.New(cv, st, nil), h, conv.ID
}

// The demo model as a provider in the real model loop: it is the
// built-in provider the host finds, its answer streams through the turn's
// events, a question the attached memory answers is quoted from it, and
// one it does not makes it call threengram's search, which the consent
// gate asks the person about first (the chat's policy, ask); the search
// runs on the server and the answer quotes what it found. The usage it
// reports is the host's own count.
func TestDemoModelInTheModelLoop(t *testing.T) {
	ch, h, conv := chatOver(t, "m9caykqgjw")
	pc, err := h.FindProvider("")
	if err != nil || pc.Kind != models.Demo || pc.Label() != models.DemoModelName {
		t.Fatalf("the first provider of an empty config = %+v, %v; want the demo model", pc, err)
	}
	m, err := provider.New(pc, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var asked []consent.ToolRequest
	var streamed strings.Builder
	opts := chat.SendOptions{Model: m, Provider: pc.Name, ModelName: pc.ModelName(), Tools: consent.ToolsAsk,
		Approve: func(_ context.Context, req consent.ToolRequest) (consent.Approval, error) {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, req)
			return consent.ApproveOnce, nil
		},
		OnEvent: func(e chat.Event) {
			if e.Kind == chat.EventText {
				streamed.WriteString(e.Text)
			}
		}}
	ctx := context.Background()
	turn, err := ch.Send(ctx, conv, "What did we decide about the API gateway?", opts)
	if err != nil {
		t.Fatal(err)
	}
	answer := turn.Messages[len(turn.Messages)-1].Text
	if !strings.Contains(answer, "our API gateway was rewritten to use the p99 latency budget") || len(asked) != 0 {
		t.Errorf("answer = %q (%d calls asked); want the attached memory quoted, no tool call", answer, len(asked))
	}
	if streamed.String() != answer {
		t.Errorf("streamed %q; want the answer", streamed.String())
	}
	if r := turn.Requests[0]; !r.Usage.Reported || r.Usage.InputTokens != int64(r.Counted.Total) || r.Model != models.DemoModelName {
		t.Errorf("request = %+v; want the usage reported equal to the host's count, by %s", r, models.DemoModelName)
	}
	if turn.Provider != models.DemoProviderName || turn.Model != models.DemoModelName {
		t.Errorf("turn of %s (%s)", turn.Provider, turn.Model)
	}

	turn, err = ch.Send(ctx, conv, "What happened to the nightly export?", opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || asked[0].Tool.Name != "search" || asked[0].Server != hostcore.DemoServerName {
		t.Fatalf("asked about %+v; want the search of the demo server, once", asked)
	}
	var result chat.Message
	for _, msg := range turn.Messages {
		if msg.Role == chat.RoleTool {
			result = msg
		}
	}
	answer = turn.Messages[len(turn.Messages)-1].Text
	if result.IsError || result.Decision == nil || result.Decision.By != consent.ApprovedOnce ||
		!strings.Contains(result.Text, "nightly export") || !strings.Contains(answer, "so I called search") ||
		!strings.Contains(answer, "nightly export") {
		t.Errorf("result %+v\nanswer %q; want the search run once approved, and its result quoted", result, answer)
	}
}
