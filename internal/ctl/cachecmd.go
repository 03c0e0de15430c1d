package ctl

import (
	"fmt"
	"sort"

	"github.com/spf13/cobra"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
)

func (a *app) cacheCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "cache", Short: "Inspect or purge the body cache"}
	var server string
	stats := &cobra.Command{
		Use:   "stats",
		Short: "Count cached entries (all, or one --account's private ones)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f, err := a.cacheFilter(server)
			if err != nil {
				return err
			}
			st, err := a.host.CacheStats(cmd.Context(), f)
			if err != nil {
				return err
			}
			if a.flags.json {
				return a.printJSON(st)
			}
			fmt.Fprintf(a.stdout, "%d %s, %d %s (bound %d) in %s\n", st.Entries, pack.Plural(int(st.Entries), "entry", "entries"),
				st.Bytes, pack.Plural(int(st.Bytes), "byte", "bytes"), st.MaxBytes, st.Path)
			fmt.Fprintf(a.stdout, "public %d, private %d\n", st.Public, st.Private)
			if st.ReadOnly {
				fmt.Fprintln(a.stdout, "read-only: the disk is full, so nothing new is stored")
			}
			accounts := make([]string, 0, len(st.ByAccount))
			for acct := range st.ByAccount {
				accounts = append(accounts, acct)
			}
			sort.Strings(accounts)
			for _, acct := range accounts {
				fmt.Fprintf(a.stdout, "  %s: %d private\n", acct, st.ByAccount[acct])
			}
			return nil
		},
	}
	purge := &cobra.Command{
		Use:   "purge",
		Short: "Delete cached entries (all, one --server's, or one --account's private ones)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f, err := a.cacheFilter(server)
			if err != nil {
				return err
			}
			n, err := a.host.PurgeCache(cmd.Context(), f)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "purged %d %s\n", n, pack.Plural(int(n), "entry", "entries"))
			return nil
		},
	}
	for _, c := range []*cobra.Command{stats, purge} {
		c.Flags().StringVar(&server, "server", "", "only this configured server")
	}
	cmd.AddCommand(stats, purge)
	return cmd
}

// cacheFilter turns --server and --account into a filter. --account selects
// the private entries stored under exactly that account name (alice is not
// alice@example.com), on every server unless --server narrows it.
func (a *app) cacheFilter(server string) (hostcore.CacheFilter, error) {
	h, err := a.hostFor()
	if err != nil {
		return hostcore.CacheFilter{}, err
	}
	f := hostcore.CacheFilter{Account: a.flags.account, PrivateOnly: a.flags.account != ""}
	if server != "" {
		sc, err := h.Config().Find(server, h.Builtin()...)
		if err != nil {
			return f, err
		}
		f.Server = sc.Identity()
	}
	return f, nil
}
