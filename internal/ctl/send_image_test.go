package ctl

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/modeltest"
	"github.com/attache/attache/internal/testbin"
)

// An attached PNG reaches the model as an image block, in each API's own
// shape (as the scripted provider recorded the request body), at the head
// of the person's first message after a line with its uri; the system
// prompt's section says so; the budget and the request count it by the
// vendor's estimate; and the turn keeps it, so that turns shows it and
// --request rebuilds it.
func TestSendImageThroughCLI(t *testing.T) {
	data := base64.StdEncoding.EncodeToString(mcptest.ImagePNG()) // 96×64
	images := config.ServerConfig{Name: "images", Command: testbin.Build(t, "internal/mcptest/mcptestd"),
		Args: []string{"--mode", mcptest.ModeImage, "--stdio"}}
	for _, tt := range []struct {
		kind   string
		tokens int // Anthropic: 96×64/750, rounded up; OpenAI at detail high: one tile, 170 + 85
		block  string
		at     func(body map[string]any) any // the first user message's content
	}{
		{models.OpenAI, 255, `{"type":"image_url","image_url":{"url":"data:image/png;base64,` + data + `","detail":"high"}}`,
			func(body map[string]any) any { return body["messages"].([]any)[1].(map[string]any) }},
		{models.Anthropic, 9, `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + data + `"}}`,
			func(body map[string]any) any { return body["messages"].([]any)[0].(map[string]any) }},
	} {
		t.Run(tt.kind, func(t *testing.T) {
			srv := modeltest.New(&modeltest.Options{Key: "sk-test"}, modeltest.Say(modeltest.Reply{Text: "A gradient."}))
			defer srv.Close()
			env := modelEnv(t, tt.kind, srv, "", images)
			must(t, env, "context", "new", "pics")
			must(t, env, "attach", "pics", "images", mcptest.ImagePNGURI)
			must(t, env, "send", "pics", "What is in the picture?", "--provider", "scripted", "--tools", "off")

			var body map[string]any
			if err := json.Unmarshal(srv.Requests()[0].Body, &body); err != nil {
				t.Fatal(err)
			}
			msg := tt.at(body).(map[string]any)
			if msg["role"] != "user" {
				t.Fatalf("the first message after the system prompt is %v, want the person's", msg["role"])
			}
			content := msg["content"].([]any)
			var want any
			json.Unmarshal([]byte(tt.block), &want)
			if len(content) != 4 {
				t.Fatalf("content = %d blocks, want the intro, the uri line, the image and the question: %v", len(content), content)
			}
			if diff := cmp.Diff(want, content[2]); diff != "" {
				t.Errorf("the image block (-want +got):\n%s", diff)
			}
			if label := content[1].(map[string]any)["text"]; label != "Image "+mcptest.ImagePNGURI+" (image/png, 96×64)" {
				t.Errorf("the line before the image = %q", label)
			}
			if q := content[3].(map[string]any)["text"]; q != "What is in the picture?" {
				t.Errorf("the question after the image = %q", q)
			}
			p, _ := srv.Requests()[0].Parse()
			if !strings.Contains(p.System, "[image: image/png, 96×64, ") || strings.Contains(p.System, data[:40]) {
				t.Errorf("the system prompt does not say the image follows, or holds its bytes:\n%s", p.System)
			}

			turn := storedTurns(t, env, "pics")[0]
			imageTokens := tt.tokens
			if len(turn.Context.Images) != 1 || turn.Context.Images[0].Tokens != imageTokens || turn.Requests[0].Counted.Images != imageTokens {
				t.Fatalf("the turn's images %+v, request counted %+v; want one of %d tokens", turn.Context.Images, turn.Requests[0].Counted, imageTokens)
			}
			if it := turn.Context.Items[0]; it.Tokens <= imageTokens || !it.Sent() {
				t.Errorf("the image's item costs %d tokens (%s); want its line and its %d", it.Tokens, it.Verdict, imageTokens)
			}
			text := must(t, env, "turns", "pics").stdout
			if !strings.Contains(text, "image sent: "+mcptest.ImagePNGURI+" · image/png · 96×64 · ") {
				t.Errorf("turns does not show the image sent:\n%s", text)
			}
			var replay chat.ModelRequest
			if err := json.Unmarshal([]byte(must(t, env, "turns", "pics", "--request", "1").stdout), &replay); err != nil ||
				len(replay.Images) != 1 || base64.StdEncoding.EncodeToString(replay.Images[0].Data) != data {
				t.Errorf("turns --request 1 does not rebuild the image: %v", err)
			}
		})
	}
}
