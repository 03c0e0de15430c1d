package ctl

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/attache/attache/hostcore/form"

	"golang.org/x/term"

	"github.com/attache/attache/hostcore"
)

// When a server asks for input (elicitation, form mode), attachectl asks
// on the terminal: each field on its own line with its default in
// brackets (Enter keeps it), then accept, decline or cancel. Scripts say
// what to answer with --elicit: decline, cancel, or accept (the form as
// offered, with its defaults; a required field without one declines).
// With no terminal and no --elicit, the answer is decline. Every question
// and answer is told on stderr, so what the server was told shows in the
// command's output.

// Elicit modes, for --elicit.
const (
	elicitAsk     = "ask"
	elicitAccept  = "accept"
	elicitDecline = "decline"
	elicitCancel  = "cancel"
)

// elicitMode is --elicit, or its default: ask on a terminal, else decline.
func (a *app) elicitMode() (string, error) {
	switch m := a.flags.elicit; m {
	case "":
		if a.interactive() {
			return elicitAsk, nil
		}
		return elicitDecline, nil
	case elicitAsk, elicitAccept, elicitDecline, elicitCancel:
		return m, nil
	default:
		return "", usageError(fmt.Sprintf("--elicit %s: give ask, accept, decline or cancel", a.line(m)))
	}
}

// interactive reports whether a person is at the terminal: stdin and
// stderr both terminals.
func (a *app) interactive() bool {
	in, ok := a.stdin.(*os.File)
	errf, ok2 := a.stderr.(*os.File)
	return ok && ok2 && term.IsTerminal(int(in.Fd())) && term.IsTerminal(int(errf.Fd()))
}

// elicitor is the host's Elicitor for this run's --elicit.
func (a *app) elicitor(mode string) hostcore.Elicitor {
	return func(ctx context.Context, req hostcore.ElicitRequest) (hostcore.ElicitAnswer, error) {
		a.tellQuestion(req)
		var ans hostcore.ElicitAnswer
		var err error
		switch mode {
		case elicitAsk:
			ans, err = a.askForm(ctx, req)
		case elicitAccept:
			ans = acceptDefaults(req)
		default:
			ans = hostcore.ElicitAnswer{Action: hostcore.ElicitAction(mode)}
		}
		if err == nil {
			a.tellAnswer(req, ans, mode)
		}
		return ans, err
	}
}

// acceptDefaults is the form as offered; a required field without a
// default cannot be accepted so, and the form is declined.
func acceptDefaults(req hostcore.ElicitRequest) hostcore.ElicitAnswer {
	content := form.Defaults(req.Fields)
	for _, f := range req.Fields {
		if _, ok := content[f.Name]; f.Required && !ok {
			return hostcore.ElicitAnswer{Action: hostcore.ElicitDecline}
		}
	}
	return hostcore.ElicitAnswer{Action: hostcore.ElicitAccept, Content: content}
}

func (a *app) tellQuestion(req hostcore.ElicitRequest) {
	via := ""
	if req.Via != "" {
		via = " (" + a.line(req.Via) + ")"
	}
	fmt.Fprintf(a.stderr, "attachectl: %s asks%s: %s\n", a.line(req.Server), via, a.line(req.Message))
}

func (a *app) tellAnswer(req hostcore.ElicitRequest, ans hostcore.ElicitAnswer, mode string) {
	how := ""
	if mode != elicitAsk {
		how = " (--elicit " + mode + ")"
	}
	if ans.Action != hostcore.ElicitAccept {
		fmt.Fprintf(a.stderr, "attachectl: answered %s%s\n", ans.Action, how)
		return
	}
	b, _ := json.Marshal(ans.Content)
	fmt.Fprintf(a.stderr, "attachectl: answered accept%s: %s\n", how, a.line(string(b)))
}

// askForm asks for each field on the terminal, then for the action.
func (a *app) askForm(ctx context.Context, req hostcore.ElicitRequest) (hostcore.ElicitAnswer, error) {
	content := map[string]any{}
	for _, f := range req.Fields {
		v, ok, err := a.askField(ctx, f)
		if err != nil {
			return hostcore.ElicitAnswer{Action: hostcore.ElicitCancel}, nil // input ended: the person left
		}
		if ok {
			content[f.Name] = v
		}
	}
	for {
		fmt.Fprint(a.stderr, "  send it? [a]ccept, [d]ecline, [c]ancel (Enter: accept): ")
		line, err := a.readLine(ctx)
		if err != nil {
			return hostcore.ElicitAnswer{Action: hostcore.ElicitCancel}, nil
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "", "a", "accept":
			return hostcore.ElicitAnswer{Action: hostcore.ElicitAccept, Content: content}, nil
		case "d", "decline":
			return hostcore.ElicitAnswer{Action: hostcore.ElicitDecline}, nil
		case "c", "cancel":
			return hostcore.ElicitAnswer{Action: hostcore.ElicitCancel}, nil
		}
	}
}

// askField asks for one field until the answer fits; Enter keeps the
// default (or leaves an optional field out). ok is false for a field left
// out.
func (a *app) askField(ctx context.Context, f form.Field) (any, bool, error) {
	for {
		fmt.Fprintf(a.stderr, "  %s", a.line(f.Label()))
		if f.Description != "" {
			fmt.Fprintf(a.stderr, " (%s)", a.line(f.Description))
		}
		for i, o := range f.Options {
			fmt.Fprintf(a.stderr, "\n    %d) %s", i+1, a.line(o.Label()))
		}
		if f.Type == "boolean" {
			fmt.Fprint(a.stderr, " (yes/no)")
		}
		if f.Default != nil {
			fmt.Fprintf(a.stderr, " [%s]", a.line(f.FormatValue(f.Default)))
		} else if f.Required {
			fmt.Fprint(a.stderr, " (required)")
		}
		fmt.Fprint(a.stderr, ": ")
		line, err := a.readLine(ctx)
		if err != nil {
			return nil, false, err
		}
		if strings.TrimSpace(line) == "" && f.Type != "string" || line == "" {
			if f.Default != nil {
				return f.Default, true, nil
			}
			if !f.Required {
				return nil, false, nil
			}
			fmt.Fprintf(a.stderr, "  %s is required\n", a.line(f.Label()))
			continue
		}
		v, err := f.Parse(line)
		if err != nil {
			fmt.Fprintf(a.stderr, "  %s\n", a.line(err.Error()))
			continue
		}
		return v, true, nil
	}
}

// readLine reads one line from stdin, a byte at a time (nothing is read
// past the newline, so the next prompt reads on from there), or gives up
// when ctx ends.
func (a *app) readLine(ctx context.Context) (string, error) {
	type line struct {
		s   string
		err error
	}
	ch := make(chan line, 1)
	go func() {
		var b strings.Builder
		buf := make([]byte, 1)
		for {
			n, err := a.stdin.Read(buf)
			if n == 1 && buf[0] != '\n' {
				b.WriteByte(buf[0])
			}
			if n == 1 && buf[0] == '\n' || err != nil {
				if err == io.EOF && b.Len() > 0 {
					err = nil
				}
				ch <- line{strings.TrimSuffix(b.String(), "\r"), err}
				return
			}
		}
	}()
	select {
	case l := <-ch:
		return l.s, l.err
	case <-ctx.Done():
		fmt.Fprintln(a.stderr)
		return "", ctx.Err()
	}
}
