package ctl

import (
	"context"
	"fmt"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/toolcall"
)

// The terminal's side of the host's consent gate: what a person is asked
// before a tool runs. send asks about each call the model makes, lab run
// --tools ask about each call of a tool that is not read-only, and call
// asks to confirm a tool the server says is destructive. No answer (end of
// input, a stopped command) runs nothing.

// stdinIsTerminal reports whether a person can be asked on stdin.
func (a *app) stdinIsTerminal() bool {
	f, ok := a.stdin.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// toolHint says what the server says of a tool, in brackets.
func toolHint(t toolcall.Tool) string {
	switch {
	case t.ReadOnly:
		return " (the server says it only reads)"
	case t.Destructive:
		return " (the server says it may change or delete data)"
	}
	return " (the server says it only adds data)"
}

// askTool asks about a call a model makes in a conversation: y (once), a
// (always, in this conversation), n (deny).
func (a *app) askTool(ctx context.Context, req consent.ToolRequest) (consent.Approval, error) {
	fmt.Fprintf(a.stderr, "The model asks to run %s of %s%s with:\n  %s\n", a.line(req.Tool.Name), a.line(req.Server),
		toolHint(req.Tool), a.line(string(req.Arguments)))
	return a.ask(ctx, "Run it? [y] once, [a] always in this conversation, [n] no: ", map[string]consent.Approval{
		"y": consent.ApproveOnce, "yes": consent.ApproveOnce, "once": consent.ApproveOnce,
		"a": consent.ApproveAlways, "always": consent.ApproveAlways,
		"n": consent.ApproveDeny, "no": consent.ApproveDeny, "deny": consent.ApproveDeny})
}

// askLabTool asks about a lab call of a tool that is not read-only: y
// (once), a (every call of it in this run), n (no), never (no call of it
// in this run).
func (a *app) askLabTool(ctx context.Context, req consent.ToolRequest) (consent.Approval, error) {
	who := "The model asks"
	if req.Recorded {
		who = "The replay records a call"
	}
	fmt.Fprintf(a.stderr, "%s (turn %d) to run %s of %s, which is not read-only%s, with:\n  %s\n", who, req.Turn,
		a.line(req.Tool.Name), a.line(req.Server), toolHint(req.Tool), a.line(string(req.Arguments)))
	return a.ask(ctx, "Run it? [y] once, [a] every call of it in this run, [n] no, [never] no call of it in this run: ",
		map[string]consent.Approval{
			"y": consent.ApproveOnce, "yes": consent.ApproveOnce, "once": consent.ApproveOnce,
			"a": consent.ApproveAlways, "always": consent.ApproveAlways,
			"n": consent.ApproveDeny, "no": consent.ApproveDeny, "never": consent.ApproveNever})
}

// confirmCall asks a person who asked for a destructive call to confirm
// it: y or n.
func (a *app) confirmCall(ctx context.Context, req consent.ToolRequest) (consent.Approval, error) {
	fmt.Fprintf(a.stderr, "%s of %s%s. Arguments:\n  %s\n", a.line(req.Tool.Name), a.line(req.Server),
		strings.Replace(toolHint(req.Tool), " (the server says", " is destructive (the server says", 1), a.line(string(req.Arguments)))
	return a.ask(ctx, "Call it? [y] yes, [n] no: ", map[string]consent.Approval{
		"y": consent.ApproveOnce, "yes": consent.ApproveOnce, "n": consent.ApproveDeny, "no": consent.ApproveDeny})
}

// ask prompts up to three times for one of answers; no answer denies.
func (a *app) ask(ctx context.Context, prompt string, answers map[string]consent.Approval) (consent.Approval, error) {
	for range 3 {
		fmt.Fprint(a.stderr, prompt)
		line, err := readLine(a.stdin)
		if got, ok := answers[strings.ToLower(strings.TrimSpace(line))]; ok {
			return got, nil
		}
		if err != nil || ctx.Err() != nil {
			fmt.Fprintln(a.stderr)
			return consent.ApproveDeny, nil
		}
	}
	return consent.ApproveDeny, nil
}
