package ctl

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/expand"
)

func (a *app) expandCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "expand TEMPLATE name=value...",
		Short: "Expand a URI template, or say why the values are refused",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			values, err := keyValues(args[1:])
			if err != nil {
				return err
			}
			uri, err := expand.URI(args[0], values)
			if err != nil {
				return err
			}
			if a.flags.json {
				return a.printJSON(map[string]string{"uri": uri})
			}
			fmt.Fprintln(a.stdout, uri)
			return nil
		},
	}
}

func (a *app) completeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "complete [SERVER] TEMPLATE ARG PREFIX [name=value...]",
		Short: "Ask the server to complete a template variable",
		Long: `Ask the server for values of the variable ARG of TEMPLATE that start with
PREFIX. name=value pairs are the variables already chosen (sent as
context.arguments).`,
		Args: func(cmd *cobra.Command, args []string) error {
			need := 3
			if !a.adHoc() {
				need++
			}
			if len(args) < need {
				return usageError(fmt.Sprintf("complete takes at least %d arguments (see --help)", need))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			c, rest, err := a.conn(args)
			if err != nil {
				return err
			}
			chosen, err := keyValues(rest[3:])
			if err != nil {
				return err
			}
			got, err := c.Complete(cmd.Context(), rest[0], rest[1], rest[2], chosen)
			if err != nil {
				return err
			}
			if len(got.Values) == 0 {
				if err := a.sayNotOffered(cmd.Context(), c, hostcore.FeatureCompletions, "offers no completion"); err != nil {
					return err
				}
			}
			if a.flags.json {
				return a.printJSON(map[string]any{"values": got.Values, "hasMore": got.HasMore, "total": got.Total})
			}
			for _, v := range got.Values {
				fmt.Fprintln(a.stdout, a.line(v))
			}
			return nil
		},
	}
}
