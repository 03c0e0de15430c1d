package hostcore_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/models"
)

// Providers are edited through the Host, as servers are: each edit is
// saved at once (a new load sees it), a duplicate, a missing name or an
// invalid entry is refused with its kind, and a save that fails leaves the
// providers as they were.
func TestHostEditsProviders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	cfg, err := config.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	h := hostcore.NewHost(cfg, withInProcess(nil))
	defer h.Close()
	ctx := context.Background()
	local := models.Provider{Name: "local", Kind: models.OpenAI, BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3.2"}
	claude := models.Provider{Name: "claude", Kind: models.Anthropic, Model: "claude-sonnet-4-5"}
	saved := func() []models.Provider {
		t.Helper()
		again, err := config.LoadConfig(path)
		if err != nil {
			t.Fatal(err)
		}
		return again.ProviderList()
	}
	for _, p := range []models.Provider{local, claude} {
		if err := h.AddProvider(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.AddProvider(ctx, local); !errors.Is(err, fault.ErrUsage) {
		t.Errorf("adding local twice: %v; want a usage error", err)
	}
	local.Model = "qwen3"
	if err := h.ReplaceProvider(ctx, local); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]models.Provider{local, claude}, saved()); diff != "" {
		t.Errorf("saved after replacing local, in its place (-want +got):\n%s", diff)
	}
	if err := h.ReplaceProvider(ctx, models.Provider{Name: "ghost", Kind: models.OpenAI, Model: "m"}); !errors.Is(err, fault.ErrNotFound) {
		t.Errorf("replacing a provider that is not there: %v; want not found", err)
	}
	if err := h.AddProvider(ctx, models.Provider{Name: "bad", Kind: "x", Model: "m"}); !errors.Is(err, fault.ErrUsage) {
		t.Errorf("adding an invalid provider: %v; want a usage error", err)
	}
	if err := h.RemoveProvider(ctx, "local"); err != nil {
		t.Fatal(err)
	}
	if err := h.RemoveProvider(ctx, "local"); !errors.Is(err, fault.ErrNotFound) {
		t.Errorf("removing local twice: %v; want not found", err)
	}
	if diff := cmp.Diff([]models.Provider{claude}, saved()); diff != "" {
		t.Errorf("saved after removing local (-want +got):\n%s", diff)
	}
	// A save that fails (the config's directory is now a file) changes nothing.
	dir := filepath.Dir(path)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := h.RemoveProvider(ctx, "claude"); err == nil {
		t.Fatal("removing with a config that cannot be saved succeeded")
	}
	if err := h.AddProvider(ctx, local); err == nil {
		t.Fatal("adding with a config that cannot be saved succeeded")
	}
	if diff := cmp.Diff([]models.Provider{claude}, h.Config().ProviderList()); diff != "" {
		t.Errorf("providers after failed saves (-want +got):\n%s", diff)
	}
}
