package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore/config"
)

// Editing a server shows its entry in the form, and saving the form
// unchanged gives the same entry back.
func TestServerFormRoundTrip(t *testing.T) {
	test.NewTempApp(t)
	tests := []struct {
		name string
		sc   config.ServerConfig
	}{
		{"stdio", config.ServerConfig{Name: "mem", Title: "Memory", Command: "npx", Args: []string{"-y", "server memory", "it's"},
			Env:      map[string]string{"DEBUG": "1"},
			Accounts: []config.Account{{Name: "acme", Env: map[string]string{"TENANT": "acme", "KEY": "k=v"}}, {Name: "globex"}}}},
		{"http", config.ServerConfig{Name: "web", URL: "https://example.com/mcp",
			Headers:  map[string]string{"X-Trace": "on"},
			Accounts: []config.Account{{Name: "me", Headers: map[string]string{"Authorization": "Bearer abc def"}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := newServerForm(tt.sc).config()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.sc, got); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseAccountsRefuses(t *testing.T) {
	for _, text := range []string{": K=V", "acme: novalue", "acme: =v"} {
		if _, err := parseAccounts(text, false); err == nil {
			t.Errorf("parseAccounts(%q) accepted it", text)
		}
	}
}
