package ctl

import (
	"fmt"

	"github.com/spf13/cobra"
)

func (a *app) infoCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "info [SERVER]",
		Short: "Connect and show the negotiated protocol version, the server and its capabilities",
		Args:  a.serverArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, _, err := a.conn(args)
			if err != nil {
				return err
			}
			if err := c.Connect(cmd.Context()); err != nil {
				return err
			}
			info := c.Info()
			out := map[string]any{"server": c.Server.Name, "account": c.Account.Name,
				"protocolVersion": info.ProtocolVersion, "implementation": info.Server,
				"capabilities": info.DeclaredCapabilities, "instructions": info.Instructions,
				"handshake": info.Handshake}
			if a.flags.json {
				return a.printJSON(out)
			}
			fmt.Fprintf(a.stdout, "server:           %s (account %s)\n", a.line(c.Server.Name), a.line(c.Account.Name))
			if s := info.Server; s != nil {
				fmt.Fprintf(a.stdout, "implementation:   %s %s\n", a.line(s.Name), a.line(s.Version))
				if s.Title != "" {
					fmt.Fprintf(a.stdout, "title:            %s\n", a.line(s.Title))
				}
			}
			fmt.Fprintf(a.stdout, "protocol version: %s\n", info.ProtocolVersion)
			hs := info.Handshake
			how := "probed"
			if hs.Remembered {
				how = "remembered from an earlier connect"
			}
			fmt.Fprintf(a.stdout, "handshake:        %s over %s (%s)\n", hs.Opening, hs.Transport, how)
			if caps := info.Capabilities; info.DeclaredCapabilities != nil {
				fmt.Fprintf(a.stdout, "resources:        %v (subscribe %v, listChanged %v)\n", caps.Resources,
					caps.Resources && caps.Subscribe, caps.Resources && caps.ResourceListChanged)
				fmt.Fprintf(a.stdout, "tools:            %v\ncompletions:      %v\n", caps.Tools, caps.Completions)
			}
			if info.Instructions != "" {
				fmt.Fprintf(a.stdout, "instructions:     %s\n", a.line(info.Instructions))
			}
			return nil
		},
	}
}
