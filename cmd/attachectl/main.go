// Command attachectl is Attaché's headless CLI: everything the app does with
// servers and resources, from a terminal or a script. It imports no Fyne.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

func main() {
	if err := newRoot().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "attachectl:", err)
		os.Exit(2)
	}
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "attachectl",
		Short:         "Attaché's headless CLI: browse MCP servers, read and attach resources",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(&cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintln(cmd.OutOrStdout(), "attachectl", version)
		},
	})
	return root
}

const version = "0.1.0"
