package hostcore_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/wire"
	"github.com/attache/attache/internal/npmpeer"
)

// filesystem is the npm server-filesystem over stdio on a fresh directory:
// it declares tools only, no resources and no completions.
func filesystem(t *testing.T) config.ServerConfig {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return config.ServerConfig{Name: "filesystem", Command: "node",
		Args: []string{npmpeer.Entry(t, "server-filesystem"), dir}}
}

// sentMethods counts the requests of each method in a connection's tap.
func sentMethods(c *hostcore.Conn) map[string]int {
	out := map[string]int{}
	for _, m := range c.Tap().Messages() {
		if m.Dir != wire.Sent {
			continue
		}
		var env struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(m.Raw, &env) == nil && env.Method != "" {
			out[env.Method]++
		}
	}
	return out
}

func TestServerWithoutResourcesIsNeverAskedForThem(t *testing.T) {
	h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())})
	c := conn(t, h, filesystem(t), "")
	ctx := context.Background()

	n := 0
	for _, err := range c.Resources(ctx, nil) {
		if err != nil {
			t.Fatalf("listing resources: %v", err)
		}
		n++
	}
	for _, err := range c.Templates(ctx, nil) {
		if err != nil {
			t.Fatalf("listing templates: %v", err)
		}
		n++
	}
	if n != 0 {
		t.Errorf("listed %d items of a server without resources", n)
	}
	got, err := c.Complete(ctx, "file:///{path}", "path", "a", nil)
	if err != nil || len(got.Values) != 0 {
		t.Errorf("Complete = %+v, %v; want an empty answer and no error", got, err)
	}
	err = c.Subscribe(ctx, "file:///a.txt")
	if !errors.Is(err, hostcore.ErrNotOffered) || !errors.Is(err, fault.ErrUsage) {
		t.Errorf("Subscribe = %v; want a usage error that is ErrNotOffered", err)
	}

	caps, err := c.Capabilities(ctx)
	if err != nil || caps.Resources || caps.Completions || !caps.Tools {
		t.Errorf("Capabilities = %+v, %v; want tools only", caps, err)
	}
	for _, f := range []hostcore.Feature{hostcore.FeatureResources, hostcore.FeatureTemplates,
		hostcore.FeatureCompletions, hostcore.FeatureSubscribe} {
		if ok, err := c.Offers(ctx, f); ok || err != nil {
			t.Errorf("Offers(%s) = %v, %v; want false", f, ok, err)
		}
	}
	sent := sentMethods(c)
	for _, m := range []string{"resources/list", "resources/templates/list", "completion/complete", "resources/subscribe"} {
		if sent[m] != 0 {
			t.Errorf("sent %d %s to a server that did not declare it (sent: %v)", sent[m], m, sent)
		}
	}
	if sent["initialize"] != 1 {
		t.Errorf("sent %v; want one initialize (the connect happened)", sent)
	}
}

// The capability check does not hide a server that offers resources.
func TestServerWithResourcesOffersThem(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, everything(t), "")
	ctx := context.Background()
	for _, f := range []hostcore.Feature{hostcore.FeatureResources, hostcore.FeatureTemplates,
		hostcore.FeatureCompletions, hostcore.FeatureSubscribe} {
		if ok, err := c.Offers(ctx, f); !ok || err != nil {
			t.Errorf("Offers(%s) = %v, %v; want true", f, ok, err)
		}
	}
	if err := c.Subscribe(ctx, "demo://resource/static/document/architecture.md"); err != nil {
		t.Errorf("Subscribe: %v", err)
	}
	if sent := sentMethods(c); sent["resources/subscribe"] != 1 {
		t.Errorf("sent %v; want one resources/subscribe", sent)
	}
}
