// Package secretstore keeps the host's OAuth grants between runs: in the
// OS keyring (the Secret Service on Linux, the Keychain on macOS, the
// Credential Manager on Windows) through github.com/zalando/go-keyring,
// or, where no keyring answers (a headless Linux machine, CI), in a file of
// mode 0600 in the config directory, saying so once. It implements
// signin.TokenStore; cmd/ wires it in.
//
// Grants never go into the config, the cache or the state database. Beside
// the keyring entries, an index file names which grants exist (resource
// and account, never a token), because a keyring cannot be listed.
package secretstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/attache/attache/hostcore/signin"
)

// service is the keyring service the grants are kept under.
const service = "attache-oauth"

// Options configure a Store. The zero value is usable.
type Options struct {
	// File keeps grants in the private file even if a keyring answers.
	File bool
	// Warn is told, once, when the store falls back to the file.
	Warn func(msg string)
	// ProbeTimeout bounds the first keyring call; 0 means 3 s.
	ProbeTimeout time.Duration
}

// Store is a signin.TokenStore. It is safe for concurrent use, and for
// use by several processes at once (a lock file orders their writes).
type Store struct {
	dir  string
	opts Options

	once    sync.Once
	useFile bool
	why     error // why the keyring is not used
	warned  sync.Once
	mu      sync.Mutex

	keysWarned sync.Once // for API keys (apikey.go)
	swept      sync.Once // stale temporary files removed (removeStaleTemps)
}

// Open returns the store of the config directory dir.
func Open(dir string, opts *Options) *Store {
	s := &Store{dir: dir}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.ProbeTimeout <= 0 {
		s.opts.ProbeTimeout = 3 * time.Second
	}
	return s
}

// FilePath is the fallback file.
func (s *Store) FilePath() string { return filepath.Join(s.dir, "oauth-tokens.json") }

func (s *Store) indexPath() string { return filepath.Join(s.dir, "oauth-index.json") }

// InKeyring reports whether grants go to the OS keyring.
func (s *Store) InKeyring() bool { s.decide(); return !s.useFile }

// decide probes the keyring once, bounded in time: a Secret Service that
// never answers must not hang a command.
func (s *Store) decide() {
	s.once.Do(func() {
		if s.opts.File {
			s.useFile = true
			return
		}
		done := make(chan error, 1)
		go func() {
			_, err := keyring.Get(service, "probe")
			done <- err
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(s.opts.ProbeTimeout):
			err = errors.New("the keyring did not answer")
		}
		if err == nil || errors.Is(err, keyring.ErrNotFound) {
			return
		}
		s.useFile, s.why = true, err
	})
}

// warn says, once, where a grant is written when no keyring answered.
func (s *Store) warn() {
	if s.why == nil || s.opts.Warn == nil {
		return
	}
	s.warned.Do(func() {
		s.opts.Warn(fmt.Sprintf("no OS keyring (%v): sign-ins are kept in %s (mode 0600)", s.why, s.FilePath()))
	})
}

func user(k signin.GrantKey) string { return k.Account + " at " + k.Resource }

// Load implements signin.TokenStore.
func (s *Store) Load(_ context.Context, k signin.GrantKey) (*signin.Grant, error) {
	s.decide()
	if s.useFile {
		var g *signin.Grant
		err := s.withFile(false, func(all map[string]signin.Grant) bool {
			if v, ok := all[user(k)]; ok {
				g = &v
			}
			return false
		})
		return g, err
	}
	v, err := keyring.Get(service, user(k))
	if errors.Is(err, keyring.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the keyring: %w", err)
	}
	var g signin.Grant
	if err := json.Unmarshal([]byte(v), &g); err != nil {
		return nil, fmt.Errorf("a keyring entry of %s is damaged: %w", service, err)
	}
	return &g, nil
}

// Save implements signin.TokenStore.
func (s *Store) Save(_ context.Context, g *signin.Grant) error {
	s.decide()
	k := user(g.Key())
	if s.useFile {
		s.warn()
		return s.withFile(true, func(all map[string]signin.Grant) bool { all[k] = *g; return true })
	}
	b, err := json.Marshal(g)
	if err != nil {
		return err
	}
	if err := keyring.Set(service, k, string(b)); err != nil {
		return fmt.Errorf("writing the keyring: %w", err)
	}
	return s.withIndex(true, func(idx map[string]signin.GrantKey) { idx[k] = g.Key() })
}

// Delete implements signin.TokenStore.
func (s *Store) Delete(_ context.Context, key signin.GrantKey) error {
	s.decide()
	k := user(key)
	if s.useFile {
		return s.withFile(true, func(all map[string]signin.Grant) bool {
			_, ok := all[k]
			delete(all, k)
			return ok
		})
	}
	if err := keyring.Delete(service, k); err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return fmt.Errorf("deleting from the keyring: %w", err)
	}
	return s.withIndex(true, func(idx map[string]signin.GrantKey) { delete(idx, k) })
}

// List implements signin.TokenStore.
func (s *Store) List(ctx context.Context) ([]signin.Grant, error) {
	s.decide()
	var out []signin.Grant
	if s.useFile {
		err := s.withFile(false, func(all map[string]signin.Grant) bool {
			for _, g := range all {
				out = append(out, g)
			}
			return false
		})
		sortGrants(out)
		return out, err
	}
	var keys []signin.GrantKey
	if err := s.withIndex(false, func(idx map[string]signin.GrantKey) {
		for _, k := range idx {
			keys = append(keys, k)
		}
	}); err != nil {
		return nil, err
	}
	for _, k := range keys {
		g, err := s.Load(ctx, k)
		if err != nil {
			return nil, err
		}
		if g != nil {
			out = append(out, *g)
		}
	}
	sortGrants(out)
	return out, nil
}

func sortGrants(gs []signin.Grant) {
	sort.Slice(gs, func(i, j int) bool {
		if gs[i].Resource != gs[j].Resource {
			return gs[i].Resource < gs[j].Resource
		}
		return gs[i].Account < gs[j].Account
	})
}

// withFile runs f on the fallback file's grants under the lock, and writes
// them back when f says it changed them.
func (s *Store) withFile(write bool, f func(map[string]signin.Grant) bool) error {
	all := map[string]signin.Grant{}
	return s.locked(s.FilePath(), write, &all, func() bool { return f(all) })
}

// withIndex runs f on the keyring index under the lock, and writes it back
// when write says f changed it.
func (s *Store) withIndex(write bool, f func(map[string]signin.GrantKey)) error {
	idx := map[string]signin.GrantKey{}
	return s.locked(s.indexPath(), write, &idx, func() bool { f(idx); return write })
}

// locked reads path into v, runs f, and, when write and f say so, writes v
// back atomically with mode 0600. A lock file orders processes.
func (s *Store) locked(path string, write bool, v any, f func() bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	lock, err := os.OpenFile(filepath.Join(s.dir, ".oauth.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("locking %s: %w", path, err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	s.swept.Do(s.removeStaleTemps)
	data, err := s.readPrivate(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return err
	default:
		if err := json.Unmarshal(data, v); err != nil {
			return fmt.Errorf("%s is damaged (%v); remove it and sign in again", path, err)
		}
	}
	if !f() || !write {
		return nil
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.dir, tempPattern)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(out); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// tempPattern names the files a write fills before renaming one into place.
const tempPattern = ".oauth-*.tmp"

// removeStaleTemps removes the temporary files that a process killed
// between its write and its rename left behind: they hold tokens or keys.
// It runs under the store's lock, which every writer holds from creating
// its temporary file to renaming it, so none of them is in use.
func (s *Store) removeStaleTemps() {
	stale, _ := filepath.Glob(filepath.Join(s.dir, tempPattern))
	for _, p := range stale {
		if err := os.Remove(p); err != nil && s.opts.Warn != nil {
			s.opts.Warn(fmt.Sprintf("could not remove the leftover %s: %v", p, err))
		}
	}
}

var _ signin.TokenStore = (*Store)(nil)
