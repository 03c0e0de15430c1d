package expand_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore/expand"
	"github.com/attache/attache/hostcore/fault"
)

func TestExpand(t *testing.T) {
	tests := []struct {
		name     string
		template string
		values   map[string]string
		want     string // "" means refused
		reason   string // a word the refusal must contain
	}{
		{"plain id", "threengram://memory/{id}", map[string]string{"id": "m123"}, "threengram://memory/m123", ""},
		{"slash stays in its segment", "threengram://memory/{id}", map[string]string{"id": "a/b"}, "threengram://memory/a%2Fb", ""},
		{"traversal is encoded", "threengram://memory/{id}", map[string]string{"id": "../../etc/passwd"}, "threengram://memory/..%2F..%2Fetc%2Fpasswd", ""},
		{"query char", "threengram://memory/{id}", map[string]string{"id": "x?tenant=globex"}, "threengram://memory/x%3Ftenant%3Dglobex", ""},
		{"fragment char", "threengram://memory/{id}", map[string]string{"id": "x#y"}, "threengram://memory/x%23y", ""},
		{"ampersand", "test://items/{category}/{name}", map[string]string{"category": "a&b", "name": "n"}, "test://items/a%26b/n", ""},
		{"percent is re-encoded", "threengram://memory/{id}", map[string]string{"id": "%2F"}, "threengram://memory/%252F", ""},
		{"unicode", "docs://team/{team}/policy/{name}", map[string]string{"team": "é", "name": "p 1"}, "docs://team/%C3%A9/policy/p%201", ""},
		{"dot-dot alone refused", "threengram://memory/{id}", map[string]string{"id": ".."}, "", "dot-segment"},
		{"dot alone refused", "threengram://memory/{id}", map[string]string{"id": "."}, "", "dot-segment"},
		{"dots inside are fine", "threengram://memory/{id}", map[string]string{"id": "a..b"}, "threengram://memory/a..b", ""},
		{"reserved expansion refuses slash", "file:///{+path}", map[string]string{"path": "a/../../etc"}, "", "escape"},
		{"reserved expansion refuses percent", "file:///{+path}", map[string]string{"path": "a%2Fb"}, "", "escape"},
		{"reserved expansion plain value", "file:///{+path}", map[string]string{"path": "notes.md"}, "file:///notes.md", ""},
		{"fragment expansion refuses hash", "doc://x/{#frag}", map[string]string{"frag": "a#b"}, "", "escape"},
		{"missing value", "threengram://memory/{id}", map[string]string{}, "", "missing"},
		{"empty value", "threengram://memory/{id}", map[string]string{"id": ""}, "", "missing"},
		{"unknown variable", "threengram://memory/{id}", map[string]string{"id": "m1", "tenant": "globex"}, "", "no variable"},
		{"relative result", "{id}", map[string]string{"id": "m1"}, "", "absolute"},
		{"broken template", "threengram://memory/{id", map[string]string{"id": "m1"}, "", "valid URI template"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := expand.URI(tt.template, tt.values)
			if tt.want == "" {
				if err == nil || !errors.Is(err, fault.ErrInvalidParams) || !strings.Contains(err.Error(), tt.reason) {
					t.Fatalf("Expand = %q, %v; want an invalid-input refusal mentioning %q", got, err, tt.reason)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Expand = %q, %v; want %q", got, err, tt.want)
			}
			u, err := url.Parse(got)
			if err != nil || !u.IsAbs() {
				t.Errorf("%q does not parse as an absolute URI: %v", got, err)
			}
		})
	}
}

// FuzzExpand checks that no value ever adds a path segment or a query or
// fragment to a one-variable template.
func FuzzExpand(f *testing.F) {
	for _, s := range []string{"m1", "../x", "a/b?c#d&e", "%2e%2e", "..", " "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		got, err := expand.URI("threengram://memory/{id}", map[string]string{"id": v})
		if err != nil {
			return
		}
		u, err := url.Parse(got)
		if err != nil {
			t.Fatalf("%q expanded to unparsable %q", v, got)
		}
		if u.Host != "memory" || strings.Count(u.EscapedPath(), "/") != 1 || u.RawQuery != "" || u.Fragment != "" {
			t.Fatalf("value %q escaped its segment: %q", v, got)
		}
	})
}

func TestTemplateVariables(t *testing.T) {
	got, err := expand.Variables("test://items/{category}/{name}{?q}")
	if err != nil || strings.Join(got, ",") != "category,name,q" {
		t.Errorf("TemplateVariables = %v, %v", got, err)
	}
}
