package cache

import (
	"fmt"
	"strings"
)

// Filter selects entries for Purge and Stats. Empty fields match
// everything, and the zero Filter matches every entry.
type Filter struct {
	// Server, if set, selects that server's entries.
	Server string
	// Account, if set, selects that account's private entries, and only
	// those: public entries are nobody's.
	Account string
	// AccountPrefix, if set, selects the private entries of every account
	// whose name starts with it (a host that names partitions
	// "name@credentials" purges all of one name's with "name@").
	AccountPrefix string
	// PrivateOnly selects private entries only.
	PrivateOnly bool
}

// String returns the filter in a form fit for error messages.
func (f Filter) String() string {
	return fmt.Sprintf("server %q account %q prefix %q private-only %t", f.Server, f.Account, f.AccountPrefix, f.PrivateOnly)
}

// where returns the SQL condition for f and its arguments. matches is its
// twin for the memory tier; the two must agree.
func (f Filter) where() (string, []any) {
	conds := []string{"1"}
	var args []any
	if f.Server != "" {
		conds = append(conds, "server = ?")
		args = append(args, f.Server)
	}
	if f.Account != "" {
		conds = append(conds, "scope = 'private' AND account = ?")
		args = append(args, f.Account)
	}
	if f.AccountPrefix != "" {
		// substr and length both count characters; LIKE would ignore case.
		conds = append(conds, "scope = 'private' AND substr(account, 1, length(?)) = ?")
		args = append(args, f.AccountPrefix, f.AccountPrefix)
	}
	if f.PrivateOnly {
		conds = append(conds, "scope = 'private'")
	}
	return strings.Join(conds, " AND "), args
}

// matches reports whether f selects e.
func (f Filter) matches(e Entry) bool {
	return (f.Server == "" || e.Key.Server == f.Server) &&
		(f.Account == "" || e.Scope == Private && e.Account == f.Account) &&
		(f.AccountPrefix == "" || e.Scope == Private && strings.HasPrefix(e.Account, f.AccountPrefix)) &&
		(!f.PrivateOnly || e.Scope == Private)
}
