package hostcore_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
)

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestConfigRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "attache", "config.json")
	c, err := config.LoadConfig(path) // missing file: empty config
	if err != nil || len(c.Servers) != 0 {
		t.Fatalf("LoadConfig(missing) = %+v, %v", c, err)
	}
	want := config.ServerConfig{Name: "docs", URL: "https://example.com/mcp",
		Accounts: []config.Account{{Name: "me", Headers: map[string]string{"Authorization": "Bearer x"}}}}
	if err := c.Upsert(want); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm() != 0o600 {
		t.Errorf("config mode %v; want 0600 (it may hold credentials)", info.Mode().Perm())
	}
	c2, err := config.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]config.ServerConfig{want}, c2.Servers, cmpopts.IgnoreFields(config.ServerConfig{}, "Source")); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestConfigRejectsBadEntries(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"not json": `{"servers": [`,
		"both":     `{"servers":[{"name":"x","command":"a","url":"http://h/mcp"}]}`,
		"neither":  `{"servers":[{"name":"x"}]}`,
		"bad url":  `{"servers":[{"name":"x","url":"ftp://h"}]}`,
		"no name":  `{"servers":[{"command":"a"}]}`,
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".json")
		writeFile(t, path, body)
		if _, err := config.LoadConfig(path); !errors.Is(err, fault.ErrUsage) {
			t.Errorf("%s: LoadConfig = %v; want a usage error", name, err)
		}
	}
}

func TestIdentity(t *testing.T) {
	a := config.ServerConfig{Name: "a", URL: "HTTPS://Example.com:443/mcp/"}
	b := config.ServerConfig{Name: "b", URL: "https://example.com/mcp"}
	if a.Identity() != b.Identity() {
		t.Errorf("%s != %s", a.Identity(), b.Identity())
	}
	s1 := config.ServerConfig{Name: "s", Command: "srv", Args: []string{"--x"}, Env: map[string]string{"TOKEN": "secret1"}}
	s2 := s1
	s2.Env = map[string]string{"TOKEN": "secret2"}
	if s1.Identity() != s2.Identity() {
		t.Error("a stdio identity depends on env values; it must use names only")
	}
	if strings.Contains(s1.Identity(), "secret") {
		t.Error("identity leaks a secret")
	}
	s3 := s1
	s3.Args = []string{"--y"}
	if s1.Identity() == s3.Identity() {
		t.Error("different command lines share an identity")
	}
}

func TestImportClaudeDesktopWithoutRewriting(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "claude_desktop_config.json")
	body := `{"mcpServers": {
		"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
		"remote": {"url": "https://mcp.example.com/mcp", "headers": {"X-Key": "k"}}
	}, "otherSetting": true}`
	writeFile(t, src, body)
	c, _ := config.LoadConfig(filepath.Join(dir, "attache.json"))
	servers, err := c.AddImport(context.Background(), config.ImportSource{Kind: "claude-desktop", Path: src})
	if err != nil {
		t.Fatal(err)
	}
	if len(servers) != 2 || servers[0].Name != "fs" || servers[0].Command != "npx" || servers[1].URL == "" {
		t.Fatalf("imported %+v", servers)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(src); string(got) != body {
		t.Error("the Claude Desktop file was rewritten")
	}
	c2, _ := config.LoadConfig(filepath.Join(dir, "attache.json"))
	if s, err := c2.Find("remote"); err != nil || !strings.HasPrefix(s.Source, "claude-desktop:") {
		t.Errorf("after reload, remote = %+v, %v", s, err)
	}
}

func TestImportVSCodeInputsPromptedNotStored(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "mcp.json")
	writeFile(t, src, `{
		// VS Code allows comments
		"inputs": [{"type": "promptString", "id": "tenant", "description": "Tenant", "password": true}],
		"servers": {
			"tg": {"type": "stdio", "command": "`+binary(t, "cmd/threengram")+`",
			       "args": ["--db", "`+filepath.Join(dir, "tg.db")+`", "--seed", "--stdio"],
			       "env": {"THREENGRAM_TENANT": "${input:tenant}"}},
		},
	}`)
	cfgPath := filepath.Join(dir, "attache.json")
	c, _ := config.LoadConfig(cfgPath)
	servers, err := c.AddImport(context.Background(), config.ImportSource{Kind: "vscode", Path: src})
	if err != nil {
		t.Fatal(err)
	}
	if len(servers[0].Inputs) != 1 || !servers[0].Inputs[0].Password {
		t.Fatalf("inputs = %+v", servers[0].Inputs)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	asked := 0
	h := hostcore.NewHost(c, withInProcess(&hostcore.HostOptions{PromptInput: func(_ context.Context, server string, in config.Input) (string, error) {
		asked++
		return "acme", nil
	}}))
	defer h.Close()
	cn, err := h.Conn("tg", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(someIDs(t, cn)) == 0 {
		t.Fatal("no memories through the imported server")
	}
	if asked != 1 {
		t.Errorf("asked %d times; want once", asked)
	}
	saved, _ := os.ReadFile(cfgPath)
	if strings.Contains(string(saved), "acme") {
		t.Errorf("the input's value was written to the config:\n%s", saved)
	}
}
