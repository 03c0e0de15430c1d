package hostcore

import (
	"errors"
	"testing"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
)

// TestEndlessListingIsTheServers: past the default bound, a listing's
// error is the server's fault (a listing that does not end); past a bound
// the caller chose, a usage error.
func TestEndlessListingIsTheServers(t *testing.T) {
	for _, tt := range []struct {
		opts *ListOptions
		kind error
	}{
		{nil, fault.ErrServerFault},
		{&ListOptions{MaxItems: DefaultMaxListItems}, fault.ErrServerFault},
		{&ListOptions{MaxItems: 2}, fault.ErrUsage},
	} {
		var got error
		w := &walk[int, int]{lister: &lister[int, int]{c: &Conn{Server: config.ServerConfig{Name: "s"}}, listKind: listKind[int, int]{method: "m"}},
			opts: tt.opts.withDefaults(), yield: func(_ int, err error) bool { got = err; return true }}
		w.yielded = w.opts.MaxItems
		if w.emit([]int{1}) || !errors.Is(got, tt.kind) {
			t.Errorf("%+v: %v; want %v", tt.opts, got, tt.kind)
		}
	}
}
