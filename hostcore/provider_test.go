package hostcore_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/models"
)

// Providers load from the config, Save keeps them as they are, and the
// file never holds a key: only the name of the variable that does.
func TestProvidersConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	body := `{"servers": [], "providers": [
		{"name": "local", "kind": "openai", "baseURL": "http://127.0.0.1:11434/v1", "model": "llama3.2", "apiKeyEnv": "OPENAI_API_KEY"},
		{"name": "claude", "kind": "anthropic", "model": "claude-sonnet-4-5", "maxTokens": 2048}]}`
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	first, err := cfg.FindProvider("")
	if err != nil || first.Name != "local" || first.ReplyBound() != models.DefaultMaxTokens {
		t.Errorf("FindProvider(\"\") = %+v, %v; want local", first, err)
	}
	claude, err := cfg.FindProvider("claude")
	if err != nil || claude.ReplyBound() != 2048 {
		t.Errorf("FindProvider(claude) = %+v, %v", claude, err)
	}
	if _, err := cfg.FindProvider("nope"); !errors.Is(err, fault.ErrUsage) || !strings.Contains(err.Error(), "local, claude") {
		t.Errorf("an unknown provider: %v", err)
	}
	if err := cfg.Save(); err != nil {
		t.Fatal(err)
	}
	again, err := config.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(cfg.ProviderList(), again.ProviderList()); diff != "" {
		t.Errorf("providers after Save (-before +after):\n%s", diff)
	}
	if _, err := config.LoadConfig(filepath.Join(t.TempDir(), "none.json")); err != nil {
		t.Fatal(err)
	}
}

func TestProviderValidate(t *testing.T) {
	for _, tt := range []struct {
		p    models.Provider
		says string
	}{
		{models.Provider{Kind: "openai", Model: "m"}, "needs a name"},
		{models.Provider{Name: "x", Kind: "gemini", Model: "m"}, `kind "gemini"`},
		{models.Provider{Name: "x", Kind: "openai"}, "needs a model"},
		{models.Provider{Name: "x", Kind: "openai", Model: "m", APIKeyEnv: "sk-live-abc"}, "never the key"},
		{models.Provider{Name: "x", Kind: "openai", Model: "m", BaseURL: "ftp://h"}, "not an http(s) URL"},
		{models.Provider{Name: "x", Kind: "anthropic", Model: "m", MaxTokens: -1}, "cannot be negative"},
	} {
		if err := tt.p.Validate(); err == nil || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("Validate(%+v) = %v; want it to say %q", tt.p, err, tt.says)
		}
	}
	path := filepath.Join(t.TempDir(), "config.json")
	os.WriteFile(path, []byte(`{"providers":[{"name":"a","kind":"openai","model":"m"},{"name":"a","kind":"openai","model":"m"}]}`), 0o600)
	if _, err := config.LoadConfig(path); err == nil || !strings.Contains(err.Error(), `two providers are named "a"`) {
		t.Errorf("duplicate names: %v", err)
	}
}

func TestNoProvider(t *testing.T) {
	cfg, _ := config.LoadConfig(filepath.Join(t.TempDir(), "config.json"))
	if _, err := cfg.FindProvider(""); !errors.Is(err, fault.ErrUsage) || !strings.Contains(err.Error(), "no model provider is configured") {
		t.Errorf("FindProvider with none = %v", err)
	}
}

// The provider editor's edits: add, replace by name, remove, refuse a bad
// entry; Save writes them.
func TestUpsertProvider(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	cfg, _ := config.LoadConfig(path)
	local := models.Provider{Name: "local", Kind: models.OpenAI, Model: "a"}
	for _, p := range []models.Provider{local, {Name: "claude", Kind: models.Anthropic, Model: "b"}} {
		if err := cfg.UpsertProvider(p); err != nil {
			t.Fatal(err)
		}
	}
	local.Model = "c"
	cfg.UpsertProvider(local)
	if err := cfg.UpsertProvider(models.Provider{Name: "bad", Kind: "x", Model: "m"}); err == nil {
		t.Error("a bad entry was added")
	}
	if !cfg.RemoveProvider("claude") || cfg.RemoveProvider("claude") {
		t.Error("RemoveProvider did not report what it removed")
	}
	if err := cfg.Save(); err != nil {
		t.Fatal(err)
	}
	again, _ := config.LoadConfig(path)
	if diff := cmp.Diff([]models.Provider{local}, again.ProviderList()); diff != "" {
		t.Errorf("providers saved (-want +got):\n%s", diff)
	}
}
