package ctl

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/hostcore/pack"
)

func (a *app) turnsCmd() *cobra.Command {
	var brief bool
	var request, replay int
	var providerName string
	cmd := &cobra.Command{
		Use:         "turns CONV",
		Annotations: map[string]string{needsFull: "replay"},
		Short:       "Show a conversation's turns whole: the context sent, the tools offered, each request, the messages",
		Long: `Show every turn of a conversation as stored: how it ended, each attachment's
verdict and cache status, the supersession notes, the tools offered and what
their listing costs, each request's tokens (the host's count next to the
provider's), the messages and tool calls, and the system prompt exactly as
sent (--brief leaves it out). --json prints the turns as stored;
--request N prints turn N's first request, rebuilt to be replayed;
--replay N sends it again to a model (--provider, default the config's
first) and prints the answer, storing nothing and running no tool: what a
model makes of the same context now. With --json it prints the reply whole,
with the tool calls it asked for.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ch, conv, turns, err := a.conversationTurns(cmd, args[0])
			if err != nil {
				return err
			}
			if replay > 0 {
				return a.replayTurn(cmd, ch, conv, replay, providerName)
			}
			if request > 0 {
				req, err := chat.ReplayRequest(turns, request)
				if err != nil {
					return err
				}
				return a.printJSON(req)
			}
			if a.flags.json {
				return a.printJSON(turns)
			}
			if len(turns) == 0 {
				fmt.Fprintln(a.stderr, "attachectl: no turn yet; see attachectl send")
			}
			for i, t := range turns {
				if i > 0 {
					fmt.Fprintln(a.stdout)
				}
				a.printTurn(t, brief)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&brief, "brief", false, "leave out the system prompt's text")
	cmd.Flags().IntVar(&request, "request", 0, "print turn N's first request as JSON, rebuilt for a replay")
	cmd.Flags().IntVar(&replay, "replay", 0, "send turn N's first request again and print the answer (stores nothing)")
	cmd.Flags().StringVar(&providerName, "provider", "", "the provider a replay asks (default: the config's first)")
	return cmd
}

// replayTurn sends turn seq's first request again and prints the answer
// as it streams, and the tools it would call on stderr.
func (a *app) replayTurn(cmd *cobra.Command, ch *chat.Chat, conv int64, seq int, providerName string) error {
	m, _, err := a.model(providerName)
	if err != nil {
		return err
	}
	var onText func(string)
	if !a.flags.json {
		onText = func(s string) { fmt.Fprint(a.stdout, s) }
	}
	reply, err := ch.Replay(cmd.Context(), conv, seq, m, onText)
	if a.flags.json {
		if err != nil {
			return err
		}
		return a.printJSON(reply)
	}
	if reply.Text != "" && !strings.HasSuffix(reply.Text, "\n") {
		fmt.Fprintln(a.stdout)
	}
	for _, c := range reply.ToolCalls {
		fmt.Fprintf(a.stderr, "attachectl: the model would call %s with %s (not run in a replay)\n", a.line(c.Name), a.line(c.Arguments))
	}
	return err
}

// printTurn prints one turn for a person.
func (a *app) printTurn(t chat.Turn, brief bool) {
	w := a.stdout
	fmt.Fprintf(w, "turn %d · %s · %s · %s", t.Seq, t.Status, a.line(models.ModelLabel(t.Provider, t.Model)),
		t.StartedAt.Local().Format("2006-01-02 15:04:05"))
	if !t.FinishedAt.IsZero() {
		fmt.Fprintf(w, " · %.1fs", t.FinishedAt.Sub(t.StartedAt).Seconds())
	}
	fmt.Fprintln(w)
	if t.Error != "" {
		fmt.Fprintf(w, "error (%s): %s\n", t.ErrorKind, a.line(t.Error))
	}
	sc := t.Context
	fmt.Fprintf(w, "context: %d of %d %s", sc.Used, sc.Budget, pack.Plural(sc.Budget, "token", "tokens"))
	if sc.Exceeded > 0 {
		fmt.Fprintf(w, ", over by %d (required items)", sc.Exceeded)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  RANK\tVERDICT\tCACHE\tTOKENS\tURI\tREASON")
	for _, it := range sc.Items {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%d\t%s\t%s\n", it.Rank, it.Verdict, orDash(string(it.Cache)), it.Tokens, a.line(it.URI), a.line(it.Reason))
	}
	tw.Flush()
	for _, n := range sc.Supersessions {
		fmt.Fprintf(w, "  note: %s\n", a.line(n.Note))
	}
	for _, im := range sc.Images {
		fmt.Fprintf(w, "  image sent: %s · %s · %d×%d · %s · %d tokens (%s)\n", a.line(im.URI), a.line(im.MIMEType),
			im.Width, im.Height, pack.Quantity(im.Size, "byte"), im.Tokens, a.line(sc.Vision))
	}
	a.printTools(w, t)
	fmt.Fprintln(w, "requests:")
	for _, r := range t.Requests {
		fmt.Fprintf(w, "  %d  counted %d (system %d, messages %d, tools %d", r.Round, r.Counted.Total, r.Counted.System,
			r.Counted.Messages, r.Counted.Tools)
		if r.Counted.Images > 0 {
			fmt.Fprintf(w, ", images %d", r.Counted.Images)
		}
		fmt.Fprint(w, ")")
		if r.Usage.Reported {
			fmt.Fprintf(w, " · provider: in %d, out %d", r.Usage.InputTokens, r.Usage.OutputTokens)
		} else {
			fmt.Fprint(w, " · provider: no usage reported")
		}
		if r.StopReason != "" {
			fmt.Fprintf(w, " · %s", a.line(r.StopReason))
		}
		if r.NoToolCalls {
			fmt.Fprint(w, " · tool calls forbidden (round limit)")
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "messages:")
	for _, m := range t.Messages {
		a.printMessage(w, m)
	}
	if !brief {
		fmt.Fprintln(w, "system prompt sent:")
		for _, line := range strings.Split(strings.TrimSuffix(sc.System, "\n"), "\n") {
			fmt.Fprintf(w, "  | %s\n", a.line(line))
		}
	}
}

func (a *app) printTools(w io.Writer, t chat.Turn) {
	if len(t.Tools) == 0 {
		fmt.Fprintln(w, "tools: none offered")
		return
	}
	names := make([]string, len(t.Tools))
	for i, o := range t.Tools {
		names[i] = a.line(o.Name)
		if o.Name != o.Tool {
			names[i] += " (" + a.line(o.Server+"/"+o.Tool) + ")"
		}
	}
	fmt.Fprintf(w, "tools: %d offered, the listing costs %d %s a request: %s\n", len(t.Tools), t.ListingTokens,
		pack.Plural(t.ListingTokens, "token", "tokens"), strings.Join(names, ", "))
}

func (a *app) printMessage(w io.Writer, m chat.Message) {
	switch m.Role {
	case chat.RoleAssistant:
		if m.Text != "" {
			fmt.Fprintf(w, "  assistant: %s\n", a.line(m.Text))
		}
		for _, c := range m.ToolCalls {
			fmt.Fprintf(w, "  assistant → %s %s\n", a.line(c.Name), a.line(c.Arguments))
		}
	case chat.RoleTool:
		what := "result"
		if m.IsError {
			what = "error"
		}
		fmt.Fprintf(w, "  tool %s %s: %s\n", a.line(m.ToolName), what, a.line(m.Text))
		if m.Decision != nil {
			fmt.Fprintf(w, "  consent for %s: %s\n", a.line(m.ToolName), a.line(m.Decision.String()))
		}
	default:
		fmt.Fprintf(w, "  %s: %s\n", m.Role, a.line(m.Text))
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
