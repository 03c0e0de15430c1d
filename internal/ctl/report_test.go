package ctl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/testbin"
)

// TestConfigReasonAlwaysShown: why a config is refused is part of the one
// line, without -v.
func TestConfigReasonAlwaysShown(t *testing.T) {
	for _, tt := range []struct {
		name, config, says string
	}{
		{"entry with no way to reach it", `{"servers":[{"name":"bad"}]}`, `server "bad" needs exactly one of command (stdio) or url (HTTP)`},
		{"entry with a bad url", `{"servers":[{"name":"u","url":"ftp://example.com/mcp"}]}`, `"ftp://example.com/mcp" is not an http(s) URL`},
		{"not JSON", `{"servers":[}`, `invalid character '}'`},
		{"wrong type", `{"servers":[{"name":3}]}`, `cannot unmarshal number`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := privateEnv(t)
			path := strings.TrimPrefix(env[0], "ATTACHE_CONFIG=")
			if err := os.WriteFile(path, []byte(tt.config), 0o600); err != nil {
				t.Fatal(err)
			}
			r := ctl(t, env, "servers")
			if r.code != exitUsage || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tt.says) ||
				!strings.Contains(r.stderr, filepath.Base(path)) {
				t.Errorf("exit %d, stderr %q; want exit 2 and one line naming the file and saying %q", r.code, r.stderr, tt.says)
			}
		})
	}
}

// TestListingLimitsThroughCLI: a server whose cursors go a→b→a stops the
// listing with a protocol error (exit 5) naming the server, after the
// items of one round; --max-items stops a long listing with exit 2.
func TestListingLimitsThroughCLI(t *testing.T) {
	mcptestd := testbin.Build(t, "internal/mcptest/mcptestd")
	env := privateEnv(t)
	r := ctl(t, env, "resources", "--stdio", mcptestd+" --mode "+mcptest.ModeCycle+" --stdio")
	if r.code != exitServer || strings.Count(r.stdout, "\n") != 3 || strings.Count(r.stderr, "\n") != 1 ||
		!strings.Contains(r.stderr, "ad-hoc") || !strings.Contains(r.stderr, "cycle") {
		t.Errorf("cursor cycle: %+v; want 3 items, exit 5 and one line naming the server", r)
	}
	paged := mcptestd + " --mode " + mcptest.ModePaged + " --stdio --resources 300 --page-size 100"
	r = ctl(t, env, "resources", "--stdio", paged, "--max-items", "150")
	if r.code != exitUsage || strings.Count(r.stdout, "\n") != 150 || !strings.Contains(r.stderr, "more than 150 items") {
		t.Errorf("--max-items 150: exit %d, %d lines, stderr %q; want 150 lines, exit 2 naming the bound",
			r.code, strings.Count(r.stdout, "\n"), r.stderr)
	}
	if r = ctl(t, env, "resources", "--stdio", paged); r.code != 0 || strings.Count(r.stdout, "\n") != 300 {
		t.Errorf("default bound: exit %d, %d lines; want all 300", r.code, strings.Count(r.stdout, "\n"))
	}
}
