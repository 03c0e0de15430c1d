package main

import (
	"encoding/json"
	"fmt"
	"iter"

	"github.com/spf13/cobra"

	"github.com/attache/attache/hostcore"
)

func (a *app) resourcesCmd() *cobra.Command {
	var maxItems int
	cmd := &cobra.Command{
		Use:   "resources [SERVER]",
		Short: "List every resource of every page",
		Args:  a.serverArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, _, err := a.conn(args)
			if err != nil {
				return err
			}
			items := c.ResourcesWith(cmd.Context(), &hostcore.ListOptions{OnPage: a.progress("resources"), MaxItems: maxItems})
			return listAll(a, items, func(r hostcore.Resource) string {
				return fmt.Sprintf("%s\t%s\t%s", a.line(r.URI), a.line(r.DisplayName()), a.line(r.MIMEType))
			})
		},
	}
	cmd.Flags().IntVar(&maxItems, "max-items", hostcore.DefaultMaxListItems, "stop with an error past this many resources")
	return cmd
}

func (a *app) templatesCmd() *cobra.Command {
	var maxItems int
	cmd := &cobra.Command{
		Use:   "templates [SERVER]",
		Short: "List every resource template of every page",
		Args:  a.serverArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, _, err := a.conn(args)
			if err != nil {
				return err
			}
			items := c.TemplatesWith(cmd.Context(), &hostcore.ListOptions{OnPage: a.progress("templates"), MaxItems: maxItems})
			return listAll(a, items, func(t hostcore.Template) string {
				return fmt.Sprintf("%s\t%s\t%s", a.line(t.URITemplate), a.line(t.DisplayName()), a.line(t.MIMEType))
			})
		},
	}
	cmd.Flags().IntVar(&maxItems, "max-items", hostcore.DefaultMaxListItems, "stop with an error past this many templates")
	return cmd
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
// line escapes what the server sent (see terminal.go); JSON escapes it too.
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
		fmt.Fprintf(a.stdout, "%s%s", sep, jsonText(b))
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
