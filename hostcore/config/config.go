// Package config is the host's list of servers: the config file (read,
// validated, saved atomically), its entries (ServerConfig, their accounts,
// their identity), the model providers' entries beside them, and the
// servers imported from Claude Desktop's and VS Code's files, read each
// time and never written back. It knows nothing of sessions: hostcore
// connects to what it lists.
package config

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/hostcore/redact"
)

// Config is the host's list of servers, read from a JSON file under
// os.UserConfigDir()/attache/ (overridable). Servers from imported Claude
// Desktop or VS Code files are read from those files each time, never copied
// into this one and never written back. Its methods are safe for concurrent
// use (the app edits it while connections read it); the exported fields are
// for loading and for tests, not for concurrent access.
type Config struct {
	Servers []ServerConfig `json:"servers"`
	// Imports names files whose servers are merged in at load time.
	Imports []ImportSource `json:"imports,omitempty"`
	// Providers are the model providers (see models.Provider); never a key.
	Providers []models.Provider `json:"providers,omitempty"`

	mu   sync.RWMutex
	path string
	// imported holds the servers read from Imports, by source.
	imported []ServerConfig
	// importErrors says which imports could not be read.
	importErrors []error
}

// ServerConfig is one MCP server: stdio (Command) or HTTP (URL), the
// latter over Streamable HTTP or the legacy HTTP+SSE transport.
type ServerConfig struct {
	Name  string `json:"name"`
	Title string `json:"title,omitempty"`

	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`

	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Transport is how an HTTP server is reached: TransportAuto (empty),
	// TransportStreamable or TransportSSE.
	Transport string `json:"transport,omitempty"`
	// OAuth is a client pre-registered with the server's authorization
	// server; without one the host uses its Client ID Metadata Document or
	// registers itself (Dynamic Client Registration).
	OAuth *OAuthClient `json:"oauth,omitempty"`

	// Accounts are the server's authorization contexts; the cache keeps
	// private entries apart by account. None means one account, "default".
	Accounts []Account `json:"accounts,omitempty"`

	// Source says where the entry comes from: "config", "builtin", or
	// "claude-desktop:PATH" / "vscode:PATH" for imports. Not stored.
	Source string `json:"-"`
	// Inputs are the VS Code inputs its ${input:ID} placeholders refer to.
	Inputs []Input `json:"-"`
}

// Account is one credential set for a server: environment variables for a
// stdio server, headers for an HTTP one.
type Account struct {
	Name    string            `json:"name"`
	Env     map[string]string `json:"env,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// DefaultAccount is the name of the implicit account of a server that lists
// none.
const DefaultAccount = "default"

// IsHTTP reports whether the server is reached over HTTP (Streamable HTTP
// or HTTP+SSE).
func (s ServerConfig) IsHTTP() bool { return s.URL != "" }

// AccountNames returns the names of the server's accounts.
func (s ServerConfig) AccountNames() []string {
	if len(s.Accounts) == 0 {
		return []string{DefaultAccount}
	}
	var names []string
	for _, a := range s.Accounts {
		names = append(names, a.Name)
	}
	return names
}

// Account returns the named account; "" means the first one.
func (s ServerConfig) Account(name string) (Account, error) {
	if len(s.Accounts) == 0 && (name == "" || name == DefaultAccount) {
		return Account{Name: DefaultAccount}, nil
	}
	for _, a := range s.Accounts {
		if name == "" || a.Name == name {
			return a, nil
		}
	}
	return Account{}, fault.New(fault.KindUsage, nil, "server %q has no account %q (it has %s)",
		s.Name, name, strings.Join(s.AccountNames(), ", "))
}

// Validate checks that the entry names exactly one way to reach the server.
func (s ServerConfig) Validate() error {
	switch {
	case s.Name == "":
		return fault.New(fault.KindUsage, nil, "a server needs a name")
	case (s.Command == "") == (s.URL == ""):
		return fault.New(fault.KindUsage, nil, "server %q needs exactly one of command (stdio) or url (HTTP)", s.Name)
	case s.Transport != TransportAuto && s.Transport != TransportStreamable && s.Transport != TransportSSE:
		return fault.New(fault.KindUsage, nil, "server %q: transport %q is not %q or %q (or empty, to find out)",
			s.Name, s.Transport, TransportStreamable, TransportSSE)
	case s.Transport != TransportAuto && s.URL == "":
		return fault.New(fault.KindUsage, nil, "server %q: transport %q is for a url; a command is reached over stdio", s.Name, s.Transport)
	case s.URL != "":
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fault.New(fault.KindUsage, nil, "server %q: %q is not an http(s) URL", s.Name, redact.URL(s.URL))
		}
	}
	return nil
}

// Identity is the server's cache identity: the canonical URL of an HTTP
// server, or a hash of a stdio server's command line, working directory and
// environment variable names (never their values, which may be secrets). Two
// entries that would start the same server share it.
func (s ServerConfig) Identity() string {
	if s.URL != "" {
		return CanonicalURL(s.URL)
	}
	h := sha256.New()
	for _, part := range append([]string{s.Command, s.Cwd}, s.Args...) {
		fmt.Fprintf(h, "%d:%s;", len(part), part)
	}
	names := make([]string, 0, len(s.Env))
	for k := range s.Env {
		names = append(names, k)
	}
	sort.Strings(names)
	fmt.Fprintf(h, "env:%s", strings.Join(names, ","))
	return "stdio:" + hex.EncodeToString(h.Sum(nil))[:32]
}

// CanonicalURL lowercases scheme and host, drops a default port, the
// fragment and any userinfo, and a trailing slash.
func CanonicalURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	if (u.Scheme == "http" && u.Port() == "80") || (u.Scheme == "https" && u.Port() == "443") {
		u.Host = u.Hostname()
	}
	u.User, u.Fragment = nil, ""
	u.Path = strings.TrimSuffix(u.Path, "/")
	return u.String()
}

// DefaultConfigPath returns os.UserConfigDir()/attache/config.json.
func DefaultConfigPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding the config directory: %w", err)
	}
	return filepath.Join(dir, "attache", "config.json"), nil
}

// LoadConfig is LoadConfigContext with no deadline.
func LoadConfig(path string) (*Config, error) {
	return LoadConfigContext(context.Background(), path)
}

// LoadConfigContext reads the config at path, and the files it imports,
// for no longer than ctx lasts. A missing file is an empty config, so a
// first run works. The config and every import must be a regular file of
// at most MaxConfigBytes (see readNamedFile): a FIFO or a device is
// refused, never waited on. Imports that cannot be read are reported by
// ImportErrors, not fatal: one broken import must not hide every server.
func LoadConfigContext(ctx context.Context, path string) (*Config, error) {
	c := &Config{path: path}
	removeStaleConfigTemps(path, time.Now())
	data, err := readNamedFile(ctx, "config", path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return c, nil
	case err != nil:
		return nil, err
	}
	if err := json.Unmarshal(data, c); err != nil {
		return nil, fault.New(fault.KindUsage, err, "config %s is not valid JSON", path)
	}
	for i := range c.Servers {
		c.Servers[i].Source = "config"
		if err := c.Servers[i].Validate(); err != nil {
			return nil, fault.New(fault.KindUsage, err, "config %s", path)
		}
	}
	if err := validateProviders(c.Providers); err != nil {
		return nil, fault.New(fault.KindUsage, err, "config %s", path)
	}
	if err := c.loadImports(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// Save writes the config (without imported servers) atomically and
// durably: a crash leaves either the old file or the new one, and
// concurrent Saves, from this process or others, each leave a whole file
// (the last one wins).
func (c *Config) Save() error {
	c.mu.RLock()
	data, err := json.MarshalIndent(c, "", "  ")
	c.mu.RUnlock()
	if c.path == "" {
		return errors.New("config has no path")
	}
	if err != nil {
		return err
	}
	if err := replaceFile(c.path, append(data, '\n')); err != nil {
		return fmt.Errorf("saving config %s: %w", c.path, err)
	}
	return nil
}

// replaceFile makes path hold data (mode 0600), whole or not at all. It
// writes a temporary file of its own beside path, syncs it, renames it
// over path and syncs the directory, so that after a crash path holds the
// old bytes or the new, and concurrent savers (goroutines or processes)
// never write into each other's file: the last rename wins. On error the
// temporary file is removed; one that a killed process left is removed
// by a later load (removeStaleConfigTemps).
func replaceFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, configTempPattern(path))
	if err != nil {
		return err
	}
	renamed := false
	defer func() {
		if !renamed {
			f.Close() // a second Close only returns an error
			os.Remove(f.Name())
		}
	}()
	if err := f.Chmod(0o600); err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return err
	}
	renamed = true
	return syncDir(dir)
}

// syncDir makes a rename in dir durable. Windows cannot sync a directory
// (FlushFileBuffers refuses a directory handle), so there the rename is as
// durable as the file system makes it on its own.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	return errors.Join(err, d.Close())
}

// Path returns the file the config was loaded from.
func (c *Config) Path() string { return c.path }

// ImportErrors returns why imports could not be read.
func (c *Config) ImportErrors() []error {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return append([]error(nil), c.importErrors...)
}

// All returns every server: configured, then imported, then built in.
// A configured server shadows an imported or built-in one of the same name.
func (c *Config) All(builtin ...ServerConfig) []ServerConfig {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []ServerConfig
	seen := map[string]bool{}
	for _, group := range [][]ServerConfig{c.Servers, c.imported, builtin} {
		for _, s := range group {
			if !seen[s.Name] {
				seen[s.Name] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// Find returns the server named name among All(builtin...).
func (c *Config) Find(name string, builtin ...ServerConfig) (ServerConfig, error) {
	all := c.All(builtin...)
	i := slices.IndexFunc(all, func(s ServerConfig) bool { return s.Name == name })
	if i < 0 {
		var names []string
		for _, s := range all {
			names = append(names, s.Name)
		}
		return ServerConfig{}, fault.New(fault.KindUsage, nil, "no server named %q (known: %s)", name, strings.Join(names, ", "))
	}
	return all[i], nil
}

// Upsert adds or replaces a configured server.
func (c *Config) Upsert(s ServerConfig) error {
	if err := s.Validate(); err != nil {
		return err
	}
	s.Source = "config"
	c.mu.Lock()
	defer c.mu.Unlock()
	if i := slices.IndexFunc(c.Servers, func(x ServerConfig) bool { return x.Name == s.Name }); i >= 0 {
		c.Servers[i] = s
	} else {
		c.Servers = append(c.Servers, s)
	}
	return nil
}

// Remove deletes a configured server; it reports whether there was one.
func (c *Config) Remove(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.Servers)
	c.Servers = slices.DeleteFunc(c.Servers, func(s ServerConfig) bool { return s.Name == name })
	return len(c.Servers) != n
}

// The values of ServerConfig.Transport.
const (
	// TransportAuto tries Streamable HTTP and falls back to HTTP+SSE.
	TransportAuto = ""
	// TransportStreamable is Streamable HTTP only.
	TransportStreamable = "streamable"
	// TransportSSE is the legacy HTTP+SSE transport only.
	TransportSSE = "sse"
	// TransportStdio is how a command is reached; only hostcore's ConnInfo says it.
	TransportStdio = "stdio"
)

// OAuthClient is a client pre-registered with a server's authorization
// server, from the config. Its secret may be a ${input:} or ${env:}
// placeholder, so that the config file keeps none.
type OAuthClient struct {
	ClientID     string   `json:"clientId"`
	ClientSecret string   `json:"clientSecret,omitempty"`
	Scopes       []string `json:"scopes,omitempty"`
}
