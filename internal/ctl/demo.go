package ctl

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/internal/threengram"
)

// demoServerCmd serves the embedded threengram demo over stdio. The host
// starts it as the built-in "demo" server; people do not run it by hand.
func (a *app) demoServerCmd() *cobra.Command {
	var db, hideFetch string
	cmd := &cobra.Command{
		Use:    hostcore.DemoCommand,
		Short:  "Serve the embedded threengram demo over stdio",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return threengram.ServeStdioGated(cmd.Context(), db, os.Getenv("THREENGRAM_TENANT"), assets.Corpus, nil,
				threengram.ParseFetchToolGate(hideFetch))
		},
	}
	cmd.Flags().StringVar(&db, "db", "", "database path")
	cmd.Flags().StringVar(&hideFetch, "hide-fetch-tool-from", "", "hide get_memories from these clients (clientInfo names, comma-separated) and from clients that declare "+threengram.SurfacesResourcesCapability)
	return cmd
}
