package main

import (
	"context"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/testbin"
)

func TestMain(m *testing.M) { testbin.Main(m) }

// The app's own binary serves the built-in demo ("attache demo-server"),
// so a first launch has a real threengram server to browse, with its two
// tenants apart.
func TestDemoServer(t *testing.T) {
	sc := hostcore.DemoServer(testbin.Build(t, "cmd/attache"), t.TempDir())
	h := hostcore.NewHost(nil, &hostcore.HostOptions{Builtin: []config.ServerConfig{sc}})
	defer h.Close()
	ctx := context.Background()
	ids := map[string][]string{}
	for _, account := range []string{"acme", "globex"} {
		c, err := h.ConnFor(sc, account)
		if err != nil {
			t.Fatal(err)
		}
		tpl, err := c.IDTemplate(ctx)
		if err != nil {
			t.Fatalf("%s: %v", account, err)
		}
		if tpl.URITemplate != "threengram://memory/{id}" {
			t.Errorf("%s: id template %q", account, tpl.URITemplate)
		}
		got, err := c.Complete(ctx, tpl.URITemplate, "id", "", nil)
		if err != nil || len(got.Values) == 0 {
			t.Fatalf("%s: completing ids: %v, %v", account, got.Values, err)
		}
		ids[account] = got.Values
	}
	if ids["acme"][0] == ids["globex"][0] {
		t.Errorf("acme and globex see the same first memory %s: the tenants are not apart", ids["acme"][0])
	}
}
