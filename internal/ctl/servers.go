package ctl

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/attache/attache/hostcore/redact"
)

func (a *app) serversCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "servers",
		Short: "List configured, imported and built-in servers with their accounts",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			h, err := a.hostFor()
			if err != nil {
				return err
			}
			type row struct {
				Name      string   `json:"name"`
				Transport string   `json:"transport"`
				Target    string   `json:"target"`
				Accounts  []string `json:"accounts"`
				Source    string   `json:"source"`
			}
			var rows []row
			for _, s := range h.Servers() {
				r := row{Name: s.Name, Transport: "stdio", Target: strings.Join(append([]string{s.Command}, s.Args...), " "),
					Accounts: s.AccountNames(), Source: s.Source}
				if s.IsHTTP() {
					r.Transport, r.Target = "http", redact.URL(s.URL)
				}
				rows = append(rows, r)
			}
			if a.flags.json {
				return a.printJSON(rows)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tTRANSPORT\tACCOUNTS\tSOURCE\tTARGET")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", a.line(r.Name), r.Transport, a.line(strings.Join(r.Accounts, ",")), r.Source, a.line(r.Target))
			}
			return tw.Flush()
		},
	}
}
