package main

import (
	"errors"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/internal/modeltest"
)

// demoScenes are the scenes that start, as a first launch does, on the
// demo conversation (see firstConversation); the others start on an empty
// one.
var demoScenes = map[string]bool{"first-screen": true, "chat-demo": true}

// chatDemo is a first launch's demo conversation asked its question, as
// Send offers it: the demo model's streamed answer, quoting the attached
// memory that answers, with its usage.
func chatDemo(s *script) error {
	if err := s.settle(); err != nil {
		return err
	}
	s.do(s.app.OpenChat)
	if s.app.ChatWindow() == nil {
		return errors.New("Send opened no conversation window")
	}
	if err := s.settle(); err != nil {
		return err
	}
	if err := s.try(func() error { return s.app.SendChat(hostcore.DemoQuestion) }); err != nil {
		return err
	}
	return s.until("the demo model's answer", func() bool { return !s.app.ChatRunning() })
}

// chatImage is the inspector of a turn that sent an attached PNG (of
// mcptestd's image mode) as an image: its thumbnail, size and the tokens
// the budget counted for it.
func chatImage(s *script) error {
	if err := s.readListed("images", "test://image/png"); err != nil {
		return err
	}
	if err := s.settle(); err != nil {
		return err
	}
	s.do(s.app.AttachChosen)
	if err := s.settle(); err != nil {
		return err
	}
	srv := modeltest.New(nil, modeltest.Say(modeltest.Reply{Text: "A gradient, from dark to light.",
		InputTokens: 1210, OutputTokens: 9}))
	if err := s.host.Config().UpsertProvider(models.Provider{Name: "scripted", Kind: models.OpenAI,
		BaseURL: srv.OpenAIBaseURL(), Model: "scripted-1"}); err != nil {
		return err
	}
	s.do(s.app.OpenChat)
	if s.app.ChatWindow() == nil {
		return errors.New("Send opened no conversation window")
	}
	if err := s.try(func() error { return s.app.SendChat("What is in the picture?") }); err != nil {
		return err
	}
	if err := s.until("the answer", func() bool { return !s.app.ChatRunning() }); err != nil {
		return err
	}
	s.do(func() { s.app.InspectTurn(1) })
	return s.until("the turn's inspector", func() bool { return s.app.InspectorOpen(1) })
}
