package main

import (
	"encoding/json"
	"fmt"
	"iter"

	"github.com/spf13/cobra"

	"github.com/attache/attache/hostcore"
)

func (a *app) resourcesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "resources [SERVER]",
		Short: "List every resource of every page",
		Args:  a.serverArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, _, err := a.conn(args)
			if err != nil {
				return err
			}
			return listAll(a, c.Resources(cmd.Context(), a.progress("resources")), func(r hostcore.Resource) string {
				return fmt.Sprintf("%s\t%s\t%s", r.URI, r.DisplayName(), r.MIMEType)
			})
		},
	}
}

func (a *app) templatesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "templates [SERVER]",
		Short: "List every resource template of every page",
		Args:  a.serverArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, _, err := a.conn(args)
			if err != nil {
				return err
			}
			return listAll(a, c.Templates(cmd.Context(), a.progress("templates")), func(t hostcore.Template) string {
				return fmt.Sprintf("%s\t%s\t%s", t.URITemplate, t.DisplayName(), t.MIMEType)
			})
		},
	}
}

// progress reports pages on stderr with --verbose.
func (a *app) progress(what string) func(hostcore.ListProgress) {
	if !a.flags.verbose {
		return nil
	}
	return func(p hostcore.ListProgress) {
		fmt.Fprintf(a.stderr, "attachectl: %d %s in %d pages\n", p.Items, what, p.Pages)
	}
}

// listAll prints items as they arrive: lines, or with --json one array
// written element by element so that memory stays flat on long listings.
func listAll[T any](a *app, items iter.Seq2[T, error], line func(T) string) error {
	n := 0
	for it, err := range items {
		if err != nil {
			if a.flags.json && n > 0 {
				fmt.Fprintln(a.stdout, "]")
			}
			return err
		}
		if !a.flags.json {
			fmt.Fprintln(a.stdout, line(it))
			n++
			continue
		}
		b, err := json.Marshal(it)
		if err != nil {
			return err
		}
		sep := ",\n  "
		if n == 0 {
			sep = "[\n  "
		}
		fmt.Fprintf(a.stdout, "%s%s", sep, b)
		n++
	}
	if a.flags.json {
		if n == 0 {
			fmt.Fprintln(a.stdout, "[]")
		} else {
			fmt.Fprintln(a.stdout, "\n]")
		}
	}
	return nil
}
