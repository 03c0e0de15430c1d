package cache

import (
	"fmt"
	"strings"
)

// Filter selects entries for Purge and Stats. Empty fields match
// everything, and the zero Filter matches every entry. Every field is
// matched exactly, byte for byte: no prefix, pattern or case folding.
type Filter struct {
	// Server, if set, selects that server's entries.
	Server string
	// Account, if set, selects the private entries of that partition, and
	// only those: public entries are nobody's.
	Account string
	// AccountName, if set, selects the private entries labelled with that
	// account name, whatever their partition.
	AccountName string
	// PrivateOnly selects private entries only.
	PrivateOnly bool
}

// String returns the filter in a form fit for error messages.
func (f Filter) String() string {
	return fmt.Sprintf("server %q partition %q account name %q private-only %t",
		f.Server, f.Account, f.AccountName, f.PrivateOnly)
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
	if f.AccountName != "" {
		conds = append(conds, "scope = 'private' AND account_name = ?")
		args = append(args, f.AccountName)
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
		(f.AccountName == "" || e.Scope == Private && e.AccountName == f.AccountName) &&
		(!f.PrivateOnly || e.Scope == Private)
}
