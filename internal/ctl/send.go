package ctl

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/pack"
)

// chat returns the model loop over the state database, which keeps the
// turns beside the conversations.
func (a *app) chat() (*chat.Chat, *hostcore.Conversations, error) {
	cv, err := a.conversations()
	if err != nil {
		return nil, nil, err
	}
	st, err := a.stateStore() // the state database keeps the turns beside the conversations
	if err != nil {
		return nil, nil, err
	}
	return chat.New(cv, st, nil), cv, nil
}

// sendJSON is send's --json output: the final text and the whole turn.
type sendJSON struct {
	Text string    `json:"text"`
	Turn chat.Turn `json:"turn"`
}

func (a *app) sendCmd() *cobra.Command {
	var providerName, tools string
	var budget int
	cmd := &cobra.Command{
		Use:         `send CONV "MESSAGE"`,
		Annotations: map[string]string{needsFull: ""},
		Short:       "Send a message with the conversation's context to a model, and print its answer",
		Long: `Send a message in a conversation. The conversation's attachments are ranked
and assembled as for export, and sent in the system prompt; the servers of
its attachments offer their tools (see tools --conversation). The answer is
streamed to stdout; tool calls and their results are told on stderr. The
turn, with the exact context sent, is stored: see turns.

--tools off sends no tool; ask (the default on a terminal) asks before each
call: y runs it once, a always in this conversation (for the server as it
now runs: edit it and it is asked again), n denies it; read-only offers and
runs only the tools the server marks read-only; auto approves every call,
for scripts (the default when stdin is not a terminal is off).`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			ch, cv, err := a.chat()
			if err != nil {
				return err
			}
			conv, err := a.conversationID(cmd, cv, args[0])
			if err != nil {
				return err
			}
			policy, err := a.toolPolicy(tools)
			if err != nil {
				return err
			}
			if err := pack.CheckBudget(budget); err != nil {
				return usageError("--budget: " + err.Error())
			}
			m, pc, err := a.model(providerName)
			if err != nil {
				return err
			}
			out := &sendOutput{a: a}
			opts := chat.SendOptions{Model: m, Provider: pc.Name, ModelName: pc.ModelName(), Budget: budget, Tools: policy,
				Approve: a.askTool}
			if !a.flags.json {
				opts.OnEvent = out.event
			}
			turn, err := ch.Send(cmd.Context(), conv, args[1], opts)
			out.end()
			if a.flags.json && turn.ID != 0 {
				if perr := a.printJSON(sendJSON{Text: finalText(turn), Turn: turn}); perr != nil && err == nil {
					err = perr
				}
			}
			return err
		},
	}
	cmd.Flags().StringVar(&providerName, "provider", "", "the provider to ask (default: the config's first)")
	cmd.Flags().StringVar(&tools, "tools", "", "off, read-only, ask or auto (default: ask on a terminal, else off)")
	cmd.Flags().IntVar(&budget, "budget", pack.DefaultBudget, "token budget of the context")
	return cmd
}

// toolPolicy reads --tools; empty is ask on a terminal, else off (a
// script that wants tools says auto).
func (a *app) toolPolicy(flag string) (consent.ToolPolicy, error) {
	if flag == "" {
		if a.stdinIsTerminal() {
			return consent.ToolsAsk, nil
		}
		return consent.ToolsOff, nil
	}
	p, err := consent.ParseToolPolicy(flag)
	if err != nil {
		return "", usageError(fmt.Sprintf("--tools %q: use off, read-only, ask or auto", flag))
	}
	return p, nil
}

// finalText is the text of the turn's last assistant message.
func finalText(t chat.Turn) string {
	for i := len(t.Messages) - 1; i >= 0; i-- {
		if m := t.Messages[i]; m.Role == chat.RoleAssistant && m.Text != "" {
			return m.Text
		}
	}
	return ""
}

// sendOutput prints a turn as it happens: the model's text to stdout, as
// a body (escaped on a terminal only), and the rest to stderr, one line
// each, escaped.
type sendOutput struct {
	a       *app
	midLine bool // stdout has text not ended by a newline
}

func (o *sendOutput) event(e chat.Event) {
	a := o.a
	switch e.Kind {
	case chat.EventText:
		io.WriteString(a.stdout, a.body(e.Text))
		o.midLine = !strings.HasSuffix(e.Text, "\n")
	case chat.EventWarning:
		o.newline()
		fmt.Fprintf(a.stderr, "attachectl: warning: %s\n", a.line(e.Text))
	case chat.EventToolCall:
		o.newline()
		fmt.Fprintf(a.stderr, "→ %s/%s %s\n", a.line(e.Tool.Server), a.line(e.Tool.Tool), a.line(e.Call.Arguments))
	case chat.EventToolResult:
		o.newline()
		what := "result"
		if e.Result.IsError {
			what = "error"
		}
		name := e.Call.Name
		if e.Tool != nil {
			name = e.Tool.Server + "/" + e.Tool.Tool
		}
		fmt.Fprintf(a.stderr, "← %s %s: %s\n", a.line(name), what, a.line(e.Result.Text))
	}
}

// newline ends the model's line before something else is printed.
func (o *sendOutput) newline() {
	if o.midLine {
		fmt.Fprintln(o.a.stdout)
		o.midLine = false
	}
}

func (o *sendOutput) end() { o.newline() }
