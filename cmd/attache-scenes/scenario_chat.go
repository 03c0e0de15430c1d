package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/internal/modeltest"
)

// The conversation scenes talk to the scripted provider (internal/modeltest),
// started for the scene and added to the config for this run only (never
// saved): no model can be reached from the machines that take the shots.

// chatAnswer is a streamed answer about an attached memory, with the
// request's usage.
func chatAnswer(s *script) error {
	_, err := s.chatWith(func([]string) []modeltest.Step {
		return []modeltest.Step{modeltest.Say(modeltest.Reply{Chunks: 12, InputTokens: 1843, OutputTokens: 61,
			Text: "The attached memory is a decision of the acme project: the team keeps the host-attached context " +
				"under a token budget and pins what must never be dropped.\n\nAsk me to compare it with what the tools fetch."})}
	})
	if err != nil {
		return err
	}
	if err := s.try(func() error { return s.app.SendChat("What does the attached memory say?") }); err != nil {
		return err
	}
	return s.until("the answer", func() bool { return !s.app.ChatRunning() })
}

// chatApproval is the model asking to run get_memories, the approval
// dialog open.
func chatApproval(s *script) error {
	if err := s.chatTool(); err != nil {
		return err
	}
	return s.until("the approval dialog", s.app.ChatAsking)
}

// chatToolResult is the same call allowed once: its result, and the
// answer after it, with the usage of both requests.
func chatToolResult(s *script) error {
	if err := chatApproval(s); err != nil {
		return err
	}
	if err := s.try(func() error { return s.app.AnswerTool(consent.ApproveOnce) }); err != nil {
		return err
	}
	return s.until("the answer", func() bool { return !s.app.ChatRunning() })
}

// chatInspect is the inspector of the tool-result scene's turn: the
// context it sent, in rank order.
func chatInspect(s *script) error {
	if err := chatToolResult(s); err != nil {
		return err
	}
	s.do(func() { s.app.InspectTurn(1) })
	return s.until("the turn's inspector", func() bool { return s.app.InspectorOpen(1) })
}

// chatProviders is the provider editor with two providers: the scripted
// one, and an Anthropic one whose key comes from the environment.
func chatProviders(s *script) error {
	if _, err := s.chatWith(func([]string) []modeltest.Step { return nil }); err != nil {
		return err
	}
	if err := s.host.Config().UpsertProvider(models.Provider{Name: "claude", Kind: models.Anthropic,
		Model: "claude-sonnet-4-5", APIKeyEnv: "ANTHROPIC_API_KEY"}); err != nil {
		return err
	}
	s.do(s.app.ShowProviders)
	return s.settle()
}

// chatTool scripts a model that calls get_memories for a second memory,
// then answers, and sends the question.
func (s *script) chatTool() error {
	_, err := s.chatWith(func(ids []string) []modeltest.Step {
		return []modeltest.Step{
			modeltest.Say(modeltest.Reply{Text: "Let me read the other memory as well.", InputTokens: 2210, OutputTokens: 38,
				ToolCalls: []modeltest.Call{{ID: "call_1", Name: "get_memories", Arguments: fmt.Sprintf(`{"ids":[%q]}`, ids[1])}}}),
			modeltest.Say(modeltest.Reply{Text: "Both memories agree: pin what is required, and let the rest be ranked.",
				InputTokens: 2604, OutputTokens: 19}),
		}
	})
	if err != nil {
		return err
	}
	return s.try(func() error { return s.app.SendChat("Compare it with the other memory.") })
}

// chatWith attaches the first of two demo memories, starts the scripted
// provider with the steps script makes of their ids, and opens the
// conversation's window.
func (s *script) chatWith(script func(ids []string) []modeltest.Step) ([]string, error) {
	c, err := s.host.Conn(hostcore.DemoServerName, "")
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	tpl, err := c.IDTemplate(ctx)
	if err != nil {
		return nil, err
	}
	got, err := c.Complete(ctx, tpl.URITemplate, "id", "m2", nil)
	if err != nil || len(got.Values) < 2 {
		return nil, fmt.Errorf("finding two memory ids: %v (got %d)", err, len(got.Values))
	}
	ids := got.Values[:2]
	srv := modeltest.New(nil, script(ids)...)
	if err := s.host.Config().UpsertProvider(models.Provider{Name: "scripted", Kind: models.OpenAI,
		BaseURL: srv.OpenAIBaseURL(), Model: "scripted-1"}); err != nil {
		return nil, err
	}
	s.do(func() { s.app.AttachID(ids[0]) })
	if err := s.settle(); err != nil {
		return nil, err
	}
	s.do(s.app.OpenChat)
	if s.app.ChatWindow() == nil {
		return nil, errors.New("Send opened no conversation window")
	}
	return ids, s.settle()
}

// until polls cond on the main goroutine until it holds.
func (s *script) until(what string, cond func() bool) error {
	deadline := time.Now().Add(settleTimeout)
	for {
		var ok bool
		s.do(func() { ok = cond() })
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("waiting for %s: timed out", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
