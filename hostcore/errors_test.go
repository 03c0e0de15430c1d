package hostcore_test

import (
	"fmt"
	"testing"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/pack"
)

// TestUnreadableReasonNamesKind: an item whose read failed with a host
// error, however wrapped, is ranked unreadable with the error's kind as
// its reason, and never its message.
func TestUnreadableReasonNamesKind(t *testing.T) {
	for _, err := range []error{fault.ErrNotFound, fault.ErrUnauthorized, fault.ErrTransport, fault.ErrUsage} {
		kind := err.(*fault.Error).Kind()
		it := &pack.Item{ID: "x", URI: "x://secret", ReadErr: fmt.Errorf("reading x://secret: %w", err)}
		p := pack.Rank([]*pack.Item{it}, nil)
		if d := p.Decisions[0]; d.Verdict != pack.VerdictUnreadable || d.Reason != "unreadable: "+string(kind) {
			t.Errorf("%s: verdict %s, reason %q; want unreadable: %s", kind, d.Verdict, d.Reason, kind)
		}
	}
}
