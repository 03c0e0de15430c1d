// Package demo is the built-in demo model: a provider of its own kind
// (models.Demo), offline and scripted, so that a conversation
// works on a machine with no model and no key. It is a real model as the
// host sees one (it implements chat.Model, and reads nothing but the
// request): it answers from the attached context by quoting the attached
// section that best matches the question (Okapi BM25 over its words, see
// retrieve.go); when none holds most of the question's words, it calls a
// tool the request offers that searches (threengram's search), and answers
// from the tool's result. Its calls go to the host's consent gate like any
// model's. It streams its answer through onText, a few words at a time,
// and reports usage counted with the host's own tokenizer.
//
// It is deterministic: the same request always gets the same answer.
package demo

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/models"
)

// DefaultPace is the time between two pieces of a streamed answer, so
// that a person sees it stream.
const DefaultPace = 15 * time.Millisecond

// wordsPerPiece is how many words one piece of the stream carries.
const wordsPerPiece = 3

// Options configure New. The zero value, and nil, are usable.
type Options struct {
	// Pace is the time between two pieces of the stream; 0 means
	// DefaultPace, a negative value none.
	Pace time.Duration
	// Tokens counts the usage; nil means chat.DefaultTokenCounter().
	Tokens chat.TokenCounter
}

// Model is the demo model. It is safe for concurrent use: it keeps no
// state between requests.
type Model struct {
	pc   models.Provider
	opts Options
}

// New returns the demo model of a provider entry of kind demo.
func New(pc models.Provider, opts *Options) *Model {
	m := &Model{pc: pc}
	if opts != nil {
		m.opts = *opts
	}
	if m.opts.Pace == 0 {
		m.opts.Pace = DefaultPace
	}
	if m.opts.Tokens == nil {
		m.opts.Tokens = chat.DefaultTokenCounter()
	}
	return m
}

// Complete implements chat.Model.
func (m *Model) Complete(ctx context.Context, req chat.ModelRequest, onText func(string)) (chat.ModelReply, error) {
	r := respond(req)
	out := chat.ModelReply{Model: models.DemoModelName, StopReason: "end_turn"}
	if r.call != nil {
		out.ToolCalls, out.StopReason = []chat.ToolCall{*r.call}, "tool_use"
	}
	text, err := m.stream(ctx, r.text, onText)
	out.Text = text
	out.Usage = m.usage(req, out)
	if err != nil {
		out.ToolCalls = nil
		return out, err
	}
	return out, nil
}

// stream hands text to onText a few words at a time, at the model's pace;
// it returns what it handed over, and an error when ctx ended first.
func (m *Model) stream(ctx context.Context, text string, onText func(string)) (string, error) {
	var sent strings.Builder
	for i, piece := range pieces(text) {
		if i > 0 && m.opts.Pace > 0 {
			t := time.NewTimer(m.opts.Pace)
			select {
			case <-ctx.Done():
				t.Stop()
			case <-t.C:
			}
		}
		if err := ctx.Err(); err != nil {
			return sent.String(), stopped(ctx)
		}
		sent.WriteString(piece)
		if onText != nil {
			onText(piece)
		}
	}
	if err := ctx.Err(); err != nil {
		return sent.String(), stopped(ctx)
	}
	return sent.String(), nil
}

// stopped is the error of a stream whose ctx ended.
func stopped(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return chat.NewModelError(fault.KindTimeout, 0, ctx.Err(), "the demo model did not finish in time")
	}
	return chat.NewModelError(fault.KindCanceled, 0, ctx.Err(), "stopped")
}

// pieces splits text into pieces of a few words, each with the spaces
// and line breaks after it, so that the pieces make the text.
func pieces(text string) []string {
	var out []string
	start, words := 0, 0
	for i := 0; i < len(text); i++ {
		if (text[i] == ' ' || text[i] == '\n') && (i+1 == len(text) || text[i+1] != ' ' && text[i+1] != '\n') {
			words++
			if words == wordsPerPiece {
				out = append(out, text[start:i+1])
				start, words = i+1, 0
			}
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

// usage is what the demo model counts of a request and its reply, with
// the host's tokenizer: the system prompt, the messages, the tool listing
// (as the host counts it) and the images (by their estimate) in; the text
// and the calls out.
func (m *Model) usage(req chat.ModelRequest, reply chat.ModelReply) chat.Usage {
	c := m.opts.Tokens
	in := c.Count(req.System)
	for _, msg := range req.Messages {
		in += c.Count(msg.Text)
		for _, tc := range msg.ToolCalls {
			in += c.Count(tc.Name) + c.Count(tc.Arguments)
		}
	}
	if len(req.Tools) > 0 {
		if b, err := json.Marshal(req.Tools); err == nil {
			in += c.Count(string(b))
		}
	}
	for _, im := range req.Images {
		in += im.Tokens
	}
	out := c.Count(reply.Text)
	for _, tc := range reply.ToolCalls {
		out += c.Count(tc.Name) + c.Count(tc.Arguments)
	}
	return chat.Usage{InputTokens: int64(in), OutputTokens: int64(out), Reported: true}
}
