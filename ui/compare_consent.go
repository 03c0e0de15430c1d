package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/labrun"
)

// The Compare window's side of the host's consent gate. A replay runs
// under one of two policies, chosen beside Run: only the tools the server
// marks read-only (a recorded call of any other is not run, and the table
// says so), or every tool, with a dialog before a call of one that is not
// read-only, as the conversation window asks before a model's call.

// The tool choices, as the picker shows them.
const (
	toolsAskOthers = "Ask before tools that are not read-only"
	toolsReadOnly  = "Only read-only tools"
)

// comparePolicies maps the choices to the gate's policies.
var comparePolicies = map[string]consent.ToolPolicy{
	toolsAskOthers: consent.ToolsAsk,
	toolsReadOnly:  consent.ToolsReadOnly,
}

// newToolsPicker is the choice of policy, both choices in view, asking by
// default: a person is at the window.
func newToolsPicker() *radioChoice {
	r := newRadioChoice([]string{toolsAskOthers, toolsReadOnly}, nil)
	r.Horizontal = true
	r.Required = true
	r.SetSelected(toolsAskOthers)
	return r
}

// ask asks the person whether the replay may run a call of a tool that is
// not read-only (labrun.Options.Ask): Allow once, Allow for this run,
// Deny, or Deny for this run. It waits on the replay's goroutine for the
// answer, or for ctx to end (the window closed, a new run), which takes
// the dialog down and runs nothing.
func (c *compareView) ask(ctx context.Context, req consent.ToolRequest) (consent.Approval, error) {
	got := make(chan consent.Approval, 1)
	shown := make(chan dialog.Dialog, 1)
	deliver(func() {
		if c.win == nil {
			close(shown)
			got <- consent.ApproveDeny
			return
		}
		d := c.askDialog(req, got)
		shown <- d
		d.Show()
	})
	select {
	case a := <-got:
		return a, nil
	case <-ctx.Done():
		go func() {
			if d, ok := <-shown; ok {
				deliver(d.Hide)
			}
		}()
		return consent.ApproveDeny, ctx.Err()
	}
}

// askDialog builds the dialog that answers req on got.
func (c *compareView) askDialog(req consent.ToolRequest, got chan consent.Approval) dialog.Dialog {
	var d dialog.Dialog
	answer := func(a consent.Approval) func() {
		return func() {
			c.pending = nil
			select {
			case got <- a:
			default:
			}
			d.Hide()
		}
	}
	who := "The model asks"
	if req.Recorded {
		who = "The replay records a call"
	}
	note := fmt.Sprintf("%s, in turn %d, to run %s of %s (%s), which is not read-only. %s", who, req.Turn,
		req.Tool.Name, req.Server, req.Account, toolHint(req.Tool))
	once := newButton("Allow once", nil, answer(consent.ApproveOnce))
	once.Importance = widget.HighImportance
	buttons := container.NewHBox(once,
		newButton("Allow "+req.Tool.Name+" for this run", nil, answer(consent.ApproveAlways)),
		newButton("Deny", nil, answer(consent.ApproveDeny)),
		newButton("Deny "+req.Tool.Name+" for this run", nil, answer(consent.ApproveNever)))
	label := widget.NewLabel(note)
	label.Wrapping = fyne.TextWrapWord
	args := jsonView(clipDoc(string(req.Arguments))) // indented, no token cut
	args.SetMinSize(fyne.NewSize(560, min(args.Content.MinSize().Height, 240)))
	body := container.NewVBox(label, widget.NewLabel("Arguments:"), args, container.NewCenter(buttons))
	d = dialog.NewCustomWithoutButtons("Run "+req.Tool.Name+"?", body, c.win)
	d.SetOnClosed(func() {
		c.pending = nil
		select {
		case got <- consent.ApproveDeny:
		default:
		}
	})
	c.pending = func(a consent.Approval) { answer(a)() }
	return d
}

// policyWords say how a run decided on its calls.
var policyWords = map[consent.ToolPolicy]string{
	consent.ToolsReadOnly: "Only tools the server marks read-only were offered and run",
	consent.ToolsAsk:      "Every tool was offered; you were asked before a call of one that is not read-only",
	consent.ToolsAuto:     "Every tool was offered and every call run",
}

// withheldWords names the tools the run did not offer.
func withheldWords(r labrun.Replay) string {
	if len(r.Withheld) == 0 {
		return ""
	}
	return " Not offered (not read-only): " + strings.Join(r.Withheld, ", ") + "."
}

// RunCompareFile replays data, a replay file's bytes named name, against
// server as account in the Compare window, as opening the file and
// tapping Run do.
func (a *App) RunCompareFile(server, account, name string, data []byte) error {
	c := a.compareView()
	if c.win == nil {
		return errors.New("the Compare window is not open")
	}
	if err := c.useReplay(name, data); err != nil {
		return err
	}
	c.server.SetSelected(server)
	if account != "" {
		c.account.SetSelected(account)
	}
	c.start()
	return nil
}

// CompareAsking reports whether the Compare window's consent dialog waits
// for an answer.
func (a *App) CompareAsking() bool { return a.compareView().pending != nil }

// AnswerCompare answers the Compare window's consent dialog as its
// buttons do.
func (a *App) AnswerCompare(ap consent.Approval) error {
	c := a.compareView()
	if c.pending == nil {
		return errors.New("no call waits for an answer in the Compare window")
	}
	c.pending(ap)
	return nil
}
