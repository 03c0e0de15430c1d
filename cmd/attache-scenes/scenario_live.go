package main

import (
	"context"
	"slices"
	"strings"

	"github.com/attache/attache/internal/modeltest"
)

// The live-state scenes (issue 21.8): the conversation window's tools row
// with a server whose connect failed, and an attachment's row stale while
// server-everything keeps sending updates.
func init() {
	scenarios["chat-tools-broken"] = chatToolsBroken
	scenarios["attachment-stale"] = attachmentStale
}

// chatToolsBroken opens the conversation window and has the host connect
// to the config's "missing" server, whose script does not exist: the row
// marks it, its switch disabled.
func chatToolsBroken(s *script) error {
	if _, err := s.chatWith(func([]string) []modeltest.Step { return nil }); err != nil {
		return err
	}
	c, err := s.host.Conn("missing", "")
	if err != nil {
		return err
	}
	c.Capabilities(context.Background()) // fails: the row is told
	return s.until("the tools row to mark the missing server", func() bool {
		return slices.ContainsFunc(s.app.ChatToolsRow(), func(l string) bool { return strings.HasPrefix(l, "missing (not connected") })
	})
}

// attachmentStale attaches a document of server-everything (its watch
// subscribes), starts the server's updates from the console, and waits for
// the row's stale badge; the updates keep coming while the shot is taken.
func attachmentStale(s *script) error {
	if err := s.readListed("everything", "demo://resource/static/document/architecture.md"); err != nil {
		return err
	}
	if err := s.settle(); err != nil {
		return err
	}
	s.do(s.app.AttachChosen)
	if err := s.settle(); err != nil {
		return err
	}
	if err := s.startUpdates(); err != nil {
		return err
	}
	if err := s.until("the attachment's stale badge", s.app.AttachmentStale); err != nil {
		return err
	}
	s.do(s.app.CloseConsole)
	return s.settle()
}
