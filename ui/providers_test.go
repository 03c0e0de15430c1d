package ui

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore/models"
)

// memoryKeys is a key store in memory, at the UI's edge (the app wires the
// OS keyring).
type memoryKeys struct {
	mu   sync.Mutex
	keys map[string]string
}

func (k *memoryKeys) Source(pc models.Provider) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.keys[pc.Name] != "" {
		return "keyring"
	}
	return "none"
}

func (k *memoryKeys) SetAPIKey(p, key string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.keys[p] = key
	return nil
}

func (k *memoryKeys) DeleteAPIKey(p string) (bool, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	_, had := k.keys[p]
	delete(k.keys, p)
	return had, nil
}

// tapIn taps the visible button labelled text in the editor's window.
func (h *harness) tapIn(e *providerEditor, text string) {
	h.t.Helper()
	var b *button
	h.do(func() { b = findButton(e.win.Canvas(), text) })
	if b == nil {
		h.t.Fatalf("no %q button in the provider editor", text)
	}
	h.do(func() { test.Tap(b) })
	h.settle()
}

// The provider editor adds, edits and removes providers: a provider is
// saved to the config file without its key, which goes to the key store;
// a form that is not valid is refused and saves nothing; the conversation
// window's picker and Send follow.
func TestProviderEditor(t *testing.T) {
	h := newHarness(t)
	keys := &memoryKeys{keys: map[string]string{}}
	h.do(func() { h.app.sh.opts.Keys = keys })
	c := h.openChat()
	h.do(func() {
		if !c.send.Disabled() {
			t.Error("Send is on with no provider")
		}
	})
	e := c.editor
	h.do(e.show)

	// Not valid: no model.
	h.tapIn(e, "Add a provider…")
	h.do(func() { e.fields.name.SetText("local"); e.fields.key.SetText("sk-secret-1") })
	h.tapIn(e, "Save")
	if len(h.host.Config().ProviderList()) != 0 || len(keys.keys) != 0 {
		t.Fatalf("a provider without a model was saved: %+v, keys %d", h.host.Config().ProviderList(), len(keys.keys))
	}
	h.do(func() {
		if !strings.Contains(labels(e.win.Canvas().Overlays().Top()), "needs a model") {
			t.Errorf("the refusal does not say why:\n%s", labels(e.win.Canvas().Overlays().Top()))
		}
		e.win.Canvas().Overlays().Top().Hide()
		e.win.Canvas().Overlays().Remove(e.win.Canvas().Overlays().Top())
	})

	h.tapIn(e, "Add a provider…")
	h.do(func() {
		e.fields.name.SetText("local")
		e.fields.baseURL.SetText("http://127.0.0.1:11434/v1")
		e.fields.model.SetText("llama3.2")
		e.fields.key.SetText("sk-secret-1")
	})
	h.tapIn(e, "Save")
	pc, err := h.host.Config().FindProvider("local")
	if err != nil || pc.Model != "llama3.2" || pc.Kind != models.OpenAI || pc.BaseURL != "http://127.0.0.1:11434/v1" {
		t.Fatalf("saved provider = %+v, %v", pc, err)
	}
	file, err := os.ReadFile(filepath.Join(h.dir, "config.json"))
	if err != nil || !strings.Contains(string(file), `"llama3.2"`) || strings.Contains(string(file), "sk-secret") {
		t.Errorf("the config file lacks the provider or holds its key (%v):\n%s", err, file)
	}
	if keys.keys["local"] != "sk-secret-1" {
		t.Errorf("the key was not kept: %v", keys.keys)
	}
	h.do(func() {
		if got := labels(e.rows); !strings.Contains(got, "openai · llama3.2 · http://127.0.0.1:11434/v1 · key: keyring") {
			t.Errorf("the editor's row:\n%s", got)
		}
		if c.send.Disabled() || !strings.Contains(labels(c.picker), "local (llama3.2)") {
			t.Errorf("the conversation's picker did not follow: %q, Send disabled %v", labels(c.picker), c.send.Disabled())
		}
	})

	// Edit: the key field starts empty (a key is never shown) and empty
	// keeps the kept key.
	h.tapIn(e, "Edit…")
	h.do(func() {
		if e.fields.key.Text != "" || !e.fields.name.Disabled() {
			t.Errorf("the edit form shows a key (%q) or lets the name change", e.fields.key.Text)
		}
		e.fields.model.SetText("qwen3")
	})
	h.tapIn(e, "Save")
	if pc, _ := h.host.Config().FindProvider("local"); pc.Model != "qwen3" || keys.keys["local"] != "sk-secret-1" {
		t.Errorf("after the edit: %+v, key kept %v", pc, keys.keys["local"] == "sk-secret-1")
	}

	h.tapIn(e, "Remove")
	h.tapIn(e, "Yes")
	if len(h.host.Config().ProviderList()) != 0 || len(keys.keys) != 0 {
		t.Errorf("after Remove: %+v, keys %v", h.host.Config().ProviderList(), keys.keys)
	}
	h.do(func() {
		if !c.send.Disabled() {
			t.Error("Send is on after the last provider was removed")
		}
	})
}
