package ctl

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"

	"github.com/spf13/cobra"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
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
			items := c.ResourcesWith(cmd.Context(), &hostcore.ListOptions{OnPage: a.progress("resource"), MaxItems: maxItems})
			n, err := listAll(a, items, func(r hostcore.Resource) string {
				return fmt.Sprintf("%s\t%s\t%s", a.line(r.URI), a.line(r.DisplayName()), a.line(r.MIMEType))
			})
			if err != nil || n > 0 {
				return err
			}
			return a.sayNotOffered(cmd.Context(), c, hostcore.FeatureResources, "offers no resources")
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
			items := c.TemplatesWith(cmd.Context(), &hostcore.ListOptions{OnPage: a.progress("template"), MaxItems: maxItems})
			n, err := listAll(a, items, func(t hostcore.Template) string {
				return fmt.Sprintf("%s\t%s\t%s", a.line(t.URITemplate), a.line(t.DisplayName()), a.line(t.MIMEType))
			})
			if err != nil || n > 0 {
				return err
			}
			return a.sayNotOffered(cmd.Context(), c, hostcore.FeatureTemplates, "offers no resources, so no templates")
		},
	}
	cmd.Flags().IntVar(&maxItems, "max-items", hostcore.DefaultMaxListItems, "stop with an error past this many templates")
	return cmd
}

// progress reports pages on stderr with --verbose; what is the singular
// of what is listed.
func (a *app) progress(what string) func(hostcore.ListProgress) {
	if !a.flags.verbose {
		return nil
	}
	return func(p hostcore.ListProgress) {
		fmt.Fprintf(a.stderr, "attachectl: %d %s in %d %s\n", p.Items, pack.Plural(p.Items, what, what+"s"), p.Pages, pack.Plural(p.Pages, "page", "pages"))
	}
}

// sayNotOffered tells stderr, after an empty listing, that the server
// declared no capability for it, so that "nothing there" and "nothing
// offered" read differently; stdout stays an empty listing ([] with
// --json) and the exit code 0. The server was asked for nothing it did not
// declare (see hostcore.Conn.Offers).
func (a *app) sayNotOffered(ctx context.Context, c *hostcore.Conn, f hostcore.Feature, what string) error {
	ok, err := c.Offers(ctx, f)
	if err != nil || ok {
		return err
	}
	fmt.Fprintf(a.stderr, "%s %s\n", a.line(c.Server.Name), what)
	return nil
}

// listAll prints items as they arrive: lines, or with --json one array
// written element by element so that memory stays flat on long listings.
// line escapes what the server sent (see terminal.go); JSON escapes it too.
// It returns how many items it printed.
func listAll[T any](a *app, items iter.Seq2[T, error], line func(T) string) (int, error) {
	n := 0
	for it, err := range items {
		if err != nil {
			if a.flags.json && n > 0 {
				fmt.Fprintln(a.stdout, "]")
			}
			return n, err
		}
		if !a.flags.json {
			fmt.Fprintln(a.stdout, line(it))
			n++
			continue
		}
		b, err := json.Marshal(it)
		if err != nil {
			return n, err
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
	return n, nil
}
