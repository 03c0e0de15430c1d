package hostcore_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/threengram"
)

// Each way an authorization context ends (a logout, an edit that changes
// an account's credentials, a server's removal) is told to the observers
// once the host has closed the context's connections, and the context's
// wire record, which holds its bodies, is gone with them.
func TestContextEndedIsTold(t *testing.T) {
	sc := threengramStdio(t)
	cfg, _ := config.LoadConfig(filepath.Join(t.TempDir(), "config.json"))
	cfg.Upsert(sc)
	h := hostcore.NewHost(cfg, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())})
	defer h.Close()
	ctx := context.Background()
	var got []hostcore.ContextEnd
	var closedWhenTold []bool
	acme := conn(t, h, sc, "acme")
	stop := h.OnContextEnded(func(e hostcore.ContextEnd) {
		got = append(got, e)
		closedWhenTold = append(closedWhenTold, acme.Closed())
	})
	acme.Read(ctx, threengram.MemoryURI(someIDs(t, acme)[0]), hostcore.ReadUse)
	if err := h.Logout(ctx, sc, "acme"); err != nil {
		t.Fatal(err)
	}
	if msgs := acme.Tap().Messages(); len(msgs) != 0 {
		t.Errorf("after the logout the wire record of acme keeps %d messages (its bodies)", len(msgs))
	}
	changed := sc
	changed.Accounts = []config.Account{sc.Accounts[0], {Name: "globex", Env: map[string]string{"THREENGRAM_TENANT": "initech"}}}
	if err := h.ReplaceServer(ctx, changed); err != nil {
		t.Fatal(err)
	}
	if err := h.RemoveServer(ctx, sc.Name); err != nil {
		t.Fatal(err)
	}
	want := []hostcore.ContextEnd{
		{Server: sc.Name, Account: "acme", Reason: hostcore.EndLoggedOut},
		{Server: sc.Name, Account: "globex", Reason: hostcore.EndChanged},
		{Server: sc.Name, Reason: hostcore.EndRemoved},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the ends told (-want +got):\n%s", diff)
	}
	if len(closedWhenTold) == 0 || !closedWhenTold[0] {
		t.Errorf("the logout was told before acme's connection closed: %v", closedWhenTold)
	}
	stop()
	h.Logout(ctx, changed, "acme")
	if len(got) != len(want) {
		t.Errorf("an unregistered observer was told again: %v", got[len(want):])
	}
	if !want[2].Covers(sc.Name, "acme") || want[0].Covers(sc.Name, "globex") || want[0].Covers("other", "acme") {
		t.Error("Covers: a removal covers every account, a logout only its own, of its own server")
	}
}
