package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
)

// conformanceCmd is the client that the MCP conformance suite drives
// (scripts/conformance-client.sh runs it for each auth/* scenario). It does
// what those scenarios need of a client, through the host as a person's
// commands would: connect (initialize, signing in when the server asks),
// list the tools, and call each with empty arguments, which is where a
// server asks for more scopes (a 403 insufficient_scope, and a step-up
// sign-in). It calls every tool without asking anyone, which no person's
// command should (send and call ask, or act on explicit arguments), so it
// is hidden from the help: it is a test client, not a feature.
func (a *app) conformanceCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "conformance-client SERVER | conformance-client --url URL",
		Short:  "The client the MCP conformance suite drives: connect, list the tools, call each (a test client)",
		Hidden: true,
		Args:   a.serverArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, _, err := a.conn(args)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			if _, err := c.Session(ctx); err != nil {
				return err
			}
			info := c.Info()
			fmt.Fprintf(a.stdout, "connected to %s (protocol %s)\n", a.line(c.Server.Name), a.line(info.ProtocolVersion))
			tools, err := c.Tools(ctx)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "%d %s\n", len(tools), pack.Plural(len(tools), "tool", "tools"))
			for _, t := range tools {
				res, err := c.CallTool(ctx, t.Name, nil)
				if err != nil {
					return err
				}
				if res.IsError {
					return hostcore.NewError(hostcore.KindServerFault, fmt.Sprintf("the tool %s failed: %s", t.Name, res.Text))
				}
				fmt.Fprintf(a.stdout, "called %s: %s\n", a.line(t.Name), a.line(res.Text))
			}
			return nil
		},
	}
}
