package ctl

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/testbin"
)

func TestOneLine(t *testing.T) {
	long := strings.Repeat("é", 400) // 800 bytes
	for _, tt := range []struct {
		name, in, want string
		all            bool
	}{
		{"plain", "readme.md", "readme.md", false},
		{"non-ASCII kept", "café ☕", "café ☕", false},
		{"OSC", "a" + mcptest.HostileOSC, `a\x1b]0;pwned\x07`, false},
		{"CSI", mcptest.HostileCSI, `\x1b[2J`, false},
		{"C1", mcptest.HostileC1, `\u009b2J`, false},
		{"newlines and tabs", "a\r\nb\tc", `a\r\nb\tc`, false},
		{"DEL and backspace", "a\x7f\x08", `a\x7f\x08`, false},
		{"invalid UTF-8", "a\xffb", `a\xffb`, false},
		{"bidi override", "abc\u202edcb", `abc\u202edcb`, false},
		{"line separator", "a\u2028b", `a\u2028b`, false},
		{"cut on a rune", long, strings.Repeat("é", 250) + "…(300 more bytes; -v shows all)", false},
		{"all with -v", long, long, true},
		{"cut before an escape", strings.Repeat("x", 498) + "\x1b", strings.Repeat("x", 498) + "…(1 more bytes; -v shows all)", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := oneLine(tt.in, tt.all); got != tt.want {
				t.Errorf("oneLine(%q) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestBodyText(t *testing.T) {
	got := bodyText(mcptest.HostileBody)
	want := "line one \\x1b]0;pwned\\x07\nline two \\x1b[2J\\u009b2J\r\nline three\n"
	if got != want {
		t.Errorf("bodyText = %q; want %q", got, want)
	}
	if got := bodyText("a\rb\tc\n"); got != `a\rb`+"\tc\n" {
		t.Errorf("a lone CR: %q; want it escaped, the tab and newline kept", got)
	}
}

func TestJSONTextMeansTheSame(t *testing.T) {
	in := map[string]string{"name": mcptest.HostileName + "\u202e"}
	b, _ := json.Marshal(in)
	out := jsonText(b)
	if bytes.ContainsRune(out, 0x9b) || bytes.ContainsRune(out, 0x202e) || bytes.ContainsRune(out, 0x1b) {
		t.Errorf("jsonText left a control raw: %q", out)
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil || back["name"] != in["name"] {
		t.Errorf("jsonText changed the meaning: %q, %v", back["name"], err)
	}
}

// raw reports the first terminal control in s that must never reach a
// terminal from a server: ESC, a C1 control, a CR, or any C0 but the
// newlines and tabs attachectl writes itself.
func raw(s string) (rune, bool) {
	for _, r := range s {
		if r == 0x1b || r >= 0x80 && r <= 0x9f || r == '\r' || r < 0x20 && r != '\n' && r != '\t' {
			return r, true
		}
	}
	return 0, false
}

// TestHostileServerThroughCLI runs attachectl against a server whose every
// string carries terminal escapes and forged lines: everything it prints
// is escaped, one line per item, bounded unless -v; bodies sent to a pipe
// or a file are the server's bytes exactly.
func TestHostileServerThroughCLI(t *testing.T) {
	stdio := testbin.Build(t, "internal/mcptest/mcptestd") + " --mode " + mcptest.ModeHostile + " --stdio"
	env := privateEnv(t)
	clean := func(t *testing.T, what, s string) {
		t.Helper()
		if r, ok := raw(s); ok {
			t.Errorf("%s printed %U raw: %.300q", what, r, s)
		}
	}
	t.Run("info", func(t *testing.T) {
		r := ctl(t, env, "info", "--stdio", stdio)
		clean(t, "info", r.stdout+r.stderr)
		if r.code != 0 || strings.Count(r.stdout, "\n") != 9 || !strings.Contains(r.stdout, `mcptest-hostile\x1b]0;pwned\x07 1.0\u009b`) ||
			!strings.Contains(r.stdout, `instructions:     Obey.\n\x1b]0;pwned\x07Really\r\nattachectl: all good`) {
			t.Errorf("info: %+v", r)
		}
	})
	t.Run("resources", func(t *testing.T) {
		r := ctl(t, env, "resources", "--stdio", stdio)
		clean(t, "resources", r.stdout+r.stderr)
		if r.code != 0 || r.stdout != mcptest.HostileURI+"\t"+`Title\x1b[2J\r\nattachectl: all good`+"\t"+`text/plain\u009b2J`+"\n" {
			t.Errorf("resources: %+v", r)
		}
	})
	t.Run("resources --json", func(t *testing.T) {
		r := ctl(t, env, "resources", "--stdio", stdio, "--json")
		clean(t, "resources --json", r.stdout)
		var got []struct{ Name, Description string }
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || len(got) != 1 ||
			got[0].Name != mcptest.HostileName || got[0].Description != mcptest.HostileLong() {
			t.Errorf("resources --json does not decode to what the server sent: %v %+v", err, got)
		}
	})
	t.Run("templates cut and -v", func(t *testing.T) {
		r := ctl(t, env, "templates", "--stdio", stdio)
		clean(t, "templates", r.stdout)
		cut := strings.Count(r.stdout, "\n") == 1 && strings.Contains(r.stdout, "…(") &&
			strings.Contains(r.stdout, " more bytes; -v shows all)") && utf8.RuneCountInString(r.stdout) < 700
		if r.code != 0 || !cut {
			t.Errorf("templates: exit %d, %d bytes: %.700q; want one line, the long title cut", r.code, len(r.stdout), r.stdout)
		}
		r = ctl(t, env, "templates", "--stdio", stdio, "-v")
		clean(t, "templates -v", r.stdout)
		if r.code != 0 || strings.Count(r.stdout, "\n") != 1 || strings.Contains(r.stdout, "more bytes") ||
			!strings.Contains(r.stdout, strings.Repeat("x", 4000)+`\x1b]0;pwned\x07`) {
			t.Errorf("templates -v: exit %d, %d bytes; want the whole title, escaped", r.code, len(r.stdout))
		}
	})
	t.Run("complete", func(t *testing.T) {
		r := ctl(t, env, "complete", "--stdio", stdio, mcptest.HostileTemplate, "name", "")
		clean(t, "complete", r.stdout)
		if r.code != 0 || r.stdout != `one\x1b]0;pwned\x07`+"\n"+`two\r\nattachectl: all good`+"\n" {
			t.Errorf("complete: %+v", r)
		}
	})
	t.Run("error message", func(t *testing.T) {
		r := ctl(t, env, "read", "--stdio", stdio, "test://hostile/other")
		clean(t, "the error", r.stderr)
		if r.code != exitServer || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, `boom \x1b]0;pwned\x07\x1b[2J\u009b2J\r\nattachectl: all good`) {
			t.Errorf("read error: %+v; want one escaped line", r)
		}
	})
	t.Run("body to a pipe and a file", func(t *testing.T) {
		r := ctl(t, env, "read", "--stdio", stdio, mcptest.HostileURI)
		if r.code != 0 || r.stdout != mcptest.HostileBody {
			t.Errorf("read to a pipe: %q; want the server's bytes exactly", r.stdout)
		}
		out := filepath.Join(t.TempDir(), "body")
		r = ctl(t, env, "read", "--stdio", stdio, mcptest.HostileURI, "--out", out)
		if b, err := os.ReadFile(out); r.code != 0 || err != nil || string(b) != mcptest.HostileBody {
			t.Errorf("read --out: %+v %q %v; want the server's bytes exactly", r, b, err)
		}
	})
}
