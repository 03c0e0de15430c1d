package redact_test

import (
	"testing"

	"github.com/attache/attache/hostcore/redact"
)

// A URL's userinfo is a credential: shown, it is the mark; kept, it is gone.
func TestURL(t *testing.T) {
	tests := []struct{ raw, shown, kept string }{
		{"https://user:pw@example.com/mcp?x=1", "https://[redacted]@example.com/mcp?x=1", "https://example.com/mcp?x=1"},
		{"https://example.com/mcp", "https://example.com/mcp", "https://example.com/mcp"},
		{"http://tok@bad host/%zz", "http://[redacted]@bad host/%zz", "http://tok@bad host/%zz"},
	}
	for _, tt := range tests {
		if got := redact.URL(tt.raw); got != tt.shown {
			t.Errorf("URL(%q) = %q; want %q", tt.raw, got, tt.shown)
		}
		if got := redact.WithoutUserinfo(tt.raw); got != tt.kept {
			t.Errorf("WithoutUserinfo(%q) = %q; want %q", tt.raw, got, tt.kept)
		}
	}
}
