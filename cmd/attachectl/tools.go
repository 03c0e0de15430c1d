package main

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
)

func (a *app) toolsCmd() *cobra.Command {
	var conv, set string
	cmd := &cobra.Command{
		Use:   "tools SERVER [--conversation CONV --set on|off]",
		Short: "List a server's tools; or switch them on or off for the model in a conversation",
		Long: `List a server's tools (every page of tools/list). With --conversation and
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
					tools = []hostcore.Tool{}
				}
				return a.printJSON(tools)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			for _, t := range tools {
				desc, _, _ := strings.Cut(t.Description, "\n")
				fmt.Fprintf(tw, "%s\t%s\n", a.line(t.Name), a.line(desc))
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
	if !slices.ContainsFunc(h.Servers(), func(s hostcore.ServerConfig) bool { return s.Name == args[0] }) {
		return usageError(fmt.Sprintf("no server named %q", args[0]))
	}
	if err := ch.Store().SetServerTools(cmd.Context(), id, args[0], set == "on"); err != nil {
		return err
	}
	fmt.Fprintf(a.stderr, "attachectl: the tools of %s are %s in conversation %d\n", a.line(args[0]), set, id)
	return nil
}

func (a *app) callCmd() *cobra.Command {
	var rawArgs string
	cmd := &cobra.Command{
		Use:   "call SERVER TOOL [--args JSON]",
		Short: "Call a server's tool and print its result",
		Long: `Call a tool with --args, a JSON object (default {}). The result's text is
printed, else its structured content; a line says what each other entry is
(an image, a resource link). A tool that reports its own failure (isError)
exits 5 after printing what it said.`,
		Args: a.serverArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var m map[string]any
			dec := json.NewDecoder(strings.NewReader(rawArgs))
			dec.UseNumber()
			if err := dec.Decode(&m); err != nil || m == nil || dec.More() {
				return usageError(fmt.Sprintf("--args %s is not a JSON object", a.line(rawArgs)))
			}
			c, rest, err := a.conn(args)
			if err != nil {
				return err
			}
			res, err := c.CallTool(cmd.Context(), rest[0], m)
			if err != nil {
				return err
			}
			if a.flags.json {
				if err := a.printJSON(res); err != nil {
					return err
				}
			} else {
				a.printToolResult(a.stdout, res)
			}
			if res.IsError {
				return hostcore.NewError(hostcore.KindServerFault, fmt.Sprintf("the tool %s of %s reported an error", rest[0], c.Server.Name))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&rawArgs, "args", "{}", "the arguments, a JSON object")
	return cmd
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
