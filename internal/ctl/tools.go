package ctl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/toolcall"
)

func (a *app) toolsCmd() *cobra.Command {
	var conv, set string
	cmd := &cobra.Command{
		Use:   "tools SERVER [--conversation CONV --set on|off]",
		Short: "List a server's tools; or switch them on or off for the model in a conversation",
		Long: `List a server's tools (every page of tools/list), each with what the server
says it does: read-only, additive (it only adds data) or destructive (it may
change or delete data; a tool that says nothing of itself counts as
destructive, the protocol's default). With --conversation and
--set, switch the server's tools on or off for the model in that
conversation: by default the servers of a conversation's attachments offer
their tools, and the others do not.`,
		Args: a.serverArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if conv != "" || set != "" {
				return a.switchTools(cmd, args, conv, set)
			}
			c, _, err := a.conn(args)
			if err != nil {
				return err
			}
			tools, err := c.Tools(cmd.Context())
			if err != nil {
				return err
			}
			if a.flags.json {
				if tools == nil {
					tools = []toolcall.Tool{}
				}
				return a.printJSON(tools)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			for _, t := range tools {
				desc, _, _ := strings.Cut(t.Description, "\n")
				fmt.Fprintf(tw, "%s\t%s\t%s\n", a.line(t.Name), toolKind(t), a.line(desc))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&conv, "conversation", "", "the conversation whose tool switch to set")
	cmd.Flags().StringVar(&set, "set", "", "on or off")
	return cmd
}

// switchTools stores a server's tool switch in a conversation.
func (a *app) switchTools(cmd *cobra.Command, args []string, conv, set string) error {
	if conv == "" || (set != "on" && set != "off") {
		return usageError("give both --conversation CONV and --set on or off")
	}
	if a.adHoc() {
		return usageError("tools of an ad-hoc server cannot be switched on: configure the server")
	}
	ch, cv, err := a.chat()
	if err != nil {
		return err
	}
	id, err := a.conversationID(cmd, cv, conv)
	if err != nil {
		return err
	}
	h, err := a.hostFor()
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(h.Servers(), func(s config.ServerConfig) bool { return s.Name == args[0] }) {
		return usageError(fmt.Sprintf("no server named %q", args[0]))
	}
	if err := ch.SwitchServerTools(cmd.Context(), id, args[0], set == "on"); err != nil {
		return err
	}
	fmt.Fprintf(a.stderr, "attachectl: the tools of %s are %s in conversation %d\n", a.line(args[0]), set, id)
	return nil
}

// callJSON is call's --json output: the result, and the consent gate's
// decision that ran it.
type callJSON struct {
	*hostcore.ToolResult
	Consent *consent.ToolDecision `json:"consent"`
}

func (a *app) callCmd() *cobra.Command {
	var rawArgs string
	var yes bool
	cmd := &cobra.Command{
		Use:   "call SERVER TOOL [--args JSON] [--yes]",
		Short: "Call a server's tool and print its result",
		Long: `Call a tool with --args, a JSON object (default {}). The result's text is
printed, else its structured content; a line says what each other entry is
(an image, a resource link). A tool that reports its own failure (isError)
exits 5 after printing what it said.

Asking for the call is its approval, except for a tool the server says is
destructive (it may change or delete data; a tool that says nothing of
itself may, by the protocol's default): that one is confirmed on the
terminal first, or needs --yes in a script, and is not called otherwise
(exit 4).`,
		Args: a.serverArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dec := json.NewDecoder(strings.NewReader(rawArgs)); !isObject(dec) {
				return usageError(fmt.Sprintf("--args %s is not a JSON object", a.line(rawArgs)))
			}
			c, rest, err := a.conn(args)
			if err != nil {
				return err
			}
			d, err := a.decideCall(cmd, c, rest[0], rawArgs, yes)
			if err != nil {
				return err
			}
			res, err := c.CallTool(cmd.Context(), d)
			if err != nil {
				return err
			}
			if a.flags.json {
				if err := a.printJSON(callJSON{res, &d.ToolDecision}); err != nil {
					return err
				}
			} else {
				a.printToolResult(a.stdout, res)
			}
			if res.IsError {
				return hostcore.NewError(fault.KindServerFault, fmt.Sprintf("the tool %s of %s reported an error", rest[0], c.Server.Name))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&rawArgs, "args", "{}", "the arguments, a JSON object")
	cmd.Flags().BoolVar(&yes, "yes", false, "call a destructive tool without asking (for scripts)")
	return cmd
}

// toolKind is what the server says a tool does: read-only, destructive
// (it may change or delete data; also a tool that says nothing, by the
// protocol's default) or additive (it only adds).
func toolKind(t toolcall.Tool) string {
	switch {
	case t.ReadOnly:
		return "read-only"
	case t.Destructive:
		return "destructive"
	}
	return "additive"
}

// isObject reports whether dec holds exactly one JSON object.
func isObject(dec *json.Decoder) bool {
	var m map[string]any
	dec.UseNumber()
	return dec.Decode(&m) == nil && m != nil && !dec.More()
}

// decideCall asks the consent gate about the person's own call: it runs,
// unless the server says the tool is destructive, which --yes or an answer
// on the terminal confirms.
func (a *app) decideCall(cmd *cobra.Command, c *hostcore.Conn, tool, rawArgs string, yes bool) (*consent.Permit, error) {
	opts := consent.ScopeOptions{Caller: consent.CallerPerson, Policy: consent.ToolsAsk}
	switch {
	case yes:
		opts.Policy = consent.ToolsAuto
	case a.stdinIsTerminal():
		opts.Ask = a.confirmCall
	}
	scope, err := a.host.Consent().Scope(opts)
	if err != nil {
		return nil, err
	}
	if _, _, err := scope.Offer(cmd.Context(), c); err != nil {
		return nil, err // the listing's own failure (a server down), not a refusal
	}
	d := scope.Decide(cmd.Context(), c, consent.ToolRequest{Tool: toolcall.Tool{Name: tool}, Arguments: json.RawMessage(rawArgs)})
	switch {
	case d.Run:
		return d, nil
	case d.Refusal == consent.RefusedNotConfirmed && opts.Ask == nil:
		return nil, hostcore.NewError(fault.KindNotApproved, fmt.Sprintf(
			"%s of %s was not called: the server says it is destructive; confirm it on a terminal, or give --yes", tool, c.Server.Name))
	case d.Refusal == consent.RefusedNotListed:
		return nil, usageError(fmt.Sprintf("%s lists no tool named %q (see tools)", c.Server.Name, tool))
	}
	return nil, hostcore.NewError(fault.KindNotApproved, fmt.Sprintf("%s of %s was not called: %s", tool, c.Server.Name, d.Refusal))
}

// printToolResult prints a result as a body: its text, else its
// structured content indented, then a line per other entry.
func (a *app) printToolResult(w io.Writer, res *hostcore.ToolResult) {
	text := res.Text
	if text == "" && len(res.Structured) > 0 {
		var b bytes.Buffer
		if json.Indent(&b, res.Structured, "", "  ") == nil {
			text = b.String()
		}
	}
	if text != "" {
		io.WriteString(w, a.body(text))
		if !strings.HasSuffix(text, "\n") {
			fmt.Fprintln(w)
		}
	}
	for _, o := range res.Omitted {
		fmt.Fprintf(w, "[%s]\n", a.line(o))
	}
}
