package ui

import (
	"context"
	"encoding/json"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/toolcall"
)

// toolCall is the tools tab's call under way: one at a time. It asks the
// consent gate (the scope of the tab's listing, as the person's own call),
// which confirms a destructive tool in a dialog (confirmCall), and runs
// the call on the gate's permit, on the connection the picker browses.
// Used on the main goroutine only.
type toolCall struct {
	sh      *shell
	results *toolResultPane
	busy    job
}

// calledTool is what a call came to.
type calledTool struct {
	decision consent.ToolDecision
	result   *hostcore.ToolResult // nil when the call did not run or failed
	check    toolcall.SchemaCheck
}

// start calls tool on c with args; done is told when it lands.
func (k *toolCall) start(scope *consent.Scope, c *hostcore.Conn, tool toolcall.Tool, args json.RawMessage, done func()) {
	ctx, gen := k.busy.start(k.sh.ctx)
	k.results.calling(c, tool, args)
	run(k.sh.work, ctx, func(ctx context.Context) (calledTool, error) {
		d := scope.Decide(ctx, c, consent.ToolRequest{Tool: toolcall.Tool{Name: tool.Name}, Arguments: args})
		out := calledTool{decision: d.ToolDecision}
		if !d.Run {
			return out, nil
		}
		res, err := c.CallTool(ctx, d)
		if err != nil {
			return out, err
		}
		out.result, out.check = res, toolcall.CheckStructured(tool, res.Structured, res.IsError)
		return out, nil
	}, func(r calledTool, err error) {
		if !k.busy.current(gen) {
			return
		}
		k.busy.finish(gen)
		k.results.show(c, tool, args, r, err)
		if err != nil {
			k.sh.fail(err)
		} else if !r.decision.Run {
			k.sh.notify(tool.Name + " was not called: " + string(r.decision.Refusal))
		} else {
			k.sh.notify("Called " + tool.Name + " of " + c.Server.Name)
		}
		done()
	})
}

// confirmCall is the person's scope's AskFunc: it asks, in a dialog on
// the main window, to confirm a call the gate will not run on the
// person's request alone (a tool its server says, or does not deny, may
// change or delete data). It blocks the call's goroutine until the
// person answers, or ctx ends (the window closes), which takes the dialog
// down and confirms nothing.
func confirmCall(sh *shell) consent.AskFunc {
	return func(ctx context.Context, req consent.ToolRequest) (consent.Approval, error) {
		got := make(chan consent.Approval, 1)
		shown := make(chan dialog.Dialog, 1)
		deliver(func() { shown <- showToolConfirm(sh, req, got) })
		select {
		case a := <-got:
			return a, nil
		case <-ctx.Done():
			go func() { d := <-shown; deliver(d.Hide) }()
			return consent.ApproveDeny, ctx.Err()
		}
	}
}

// showToolConfirm shows the confirmation of req; the answer goes to got.
func showToolConfirm(sh *shell, req consent.ToolRequest, got chan<- consent.Approval) dialog.Dialog {
	answer := func(a consent.Approval) {
		select {
		case got <- a:
		default:
		}
	}
	why := "The server says it may change or delete data."
	for _, u := range req.Tool.Unstated {
		if u == "destructiveHint" {
			why = "The server does not say whether it changes or deletes data (no destructiveHint), and the protocol's default is that it may."
		}
	}
	where := req.Server
	if req.Account != "" {
		where += " as " + req.Account
	}
	note := widget.NewLabel("Call " + req.Tool.Name + " of " + where + "? " + why)
	note.Wrapping = fyne.TextWrapWord
	body := container.NewVBox(note, widget.NewLabel("Arguments:"), monospace(clipDoc(string(req.Arguments)), panelColumns+24))
	d := newConfirmDialog("Call "+req.Tool.Name+"?", "Call", "Cancel", body, func(ok bool) {
		if ok {
			answer(consent.ApproveOnce)
		} else {
			answer(consent.ApproveDeny)
		}
	}, sh.win)
	d.SetOnClosed(func() { answer(consent.ApproveDeny) })
	closeOnEscape(sh.win, d, nil)
	d.Show()
	return d
}
