package ui

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/icon"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/hostcore/signin"
	"github.com/attache/attache/internal/hostcache"
	"github.com/attache/attache/internal/state"
	"github.com/attache/attache/internal/testbin"
)

// The screens are tested against real servers over real stdio (the
// threengram reference server with its seeded corpus, mcptestd's image
// mode), real SQLite stores in t.TempDir() and Fyne's test driver. The only
// stand-ins are at the UI's edge: the test driver for the display, and a
// fixed clock so that elapsed times, TTLs and "checked ago" render the same
// on every run.

func TestMain(m *testing.M) { testbin.Main(m) }

// testNow is the fixed time of every test.
var testNow = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

func fixedClock() time.Time { return testNow }

// waitTimeout bounds every wait for the window to settle.
const waitTimeout = 60 * time.Second

// harness is one window over a real host.
type harness struct {
	t    *testing.T
	fa   fyne.App
	dir  string
	host *hostcore.Host
	cv   *hostcore.Conversations
	st   *state.Store // the state database behind cv, which keeps the turns too
	app  *App
	// extra are built-in servers beside the usual ones, and oauth the
	// host's sign-in options (nil: off); set them before open.
	extra []config.ServerConfig
	oauth *signin.Options
	// transport is the host's HostOptions.Transport (nil: every server
	// started or dialed); set it before open.
	transport hostcore.TransportFactory
	// openURL is Options.OpenURL: the browser the sign-in pages go to.
	openURL func(*url.URL) error
	opened  atomic.Int32 // pages opened in the browser
	// afterFirstFrame is Options.AfterFirstFrame (nil: the work starts in
	// New); set it before open.
	afterFirstFrame func(start func())
	// demo makes the host offer the demo model and the window open a
	// first launch on the demo conversation, as the app does; set it
	// before open.
	demo bool
}

// demoServer is the reference server as the built-in demo: two accounts on
// two tenants, a fresh seeded database in dir (relative to its working
// directory, so that what the servers panel shows is the same on every run).
func demoServer(t *testing.T, dir string) config.ServerConfig {
	return config.ServerConfig{
		Name: hostcore.DemoServerName, Title: "threengram demo", Source: "builtin",
		Command: testbin.Build(t, "cmd/threengram"), Args: []string{"--db", "demo.db", "--seed", "--stdio"}, Cwd: dir,
		Accounts: []config.Account{
			{Name: "acme", Env: map[string]string{"THREENGRAM_TENANT": "acme"}},
			{Name: "globex", Env: map[string]string{"THREENGRAM_TENANT": "globex"}},
		},
	}
}

// imageServer is mcptestd's image mode: a PNG and a JPEG as blobs, each with
// a data: icon.
func imageServer(t *testing.T) config.ServerConfig {
	return config.ServerConfig{Name: "images", Title: "images", Source: "builtin",
		Command: testbin.Build(t, "internal/mcptest/mcptestd"), Args: []string{"--mode", "image", "--stdio"}}
}

// eraServer is mcptestd's 2026-07-28 mode: annotated resources, resource
// subscriptions, and a touch tool that says a resource changed.
func eraServer(t *testing.T) config.ServerConfig {
	return config.ServerConfig{Name: "era", Title: "era", Source: "builtin",
		Command: testbin.Build(t, "internal/mcptest/mcptestd"), Args: []string{"--mode", "v2026", "--stdio"}}
}

// pagedServer is mcptestd's paged mode: n resources, 100 a page.
func pagedServer(t *testing.T, name string, n int) config.ServerConfig {
	return config.ServerConfig{Name: name, Title: name, Source: "builtin",
		Command: testbin.Build(t, "internal/mcptest/mcptestd"),
		Args:    []string{"--mode", "paged", "--resources", fmt.Sprint(n), "--page-size", "100", "--stdio"}}
}

// newHarness opens the stores and the host in a fresh directory and the
// window over them, and waits for the first screen.
func newHarness(t *testing.T) *harness {
	t.Helper()
	h := &harness{t: t, fa: test.NewTempApp(t), dir: t.TempDir()}
	h.open()
	return h
}

// open builds the host and the window over h.dir (again, for a restart).
func (h *harness) open() {
	t := h.t
	cfg, err := config.LoadConfig(filepath.Join(h.dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	cache, bodies, err := hostcache.Open(h.dir, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := state.Open(state.DefaultPath(h.dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	h.host = hostcore.NewHost(cfg, &hostcore.HostOptions{Cache: bodies, Now: fixedClock, OAuth: h.oauth,
		Builtin: append([]config.ServerConfig{demoServer(t, h.dir), imageServer(t), eraServer(t),
			pagedServer(t, "paged", 2000), pagedServer(t, "huge", 1_000_000)}, h.extra...), BuiltinProviders: h.builtinProviders(),
		Transport: h.transport})
	h.st, h.cv = st, hostcore.NewConversations(h.host, st)
	opts := &Options{Icons: &icon.Fetcher{}, Now: fixedClock, CompleteDelay: 20 * time.Millisecond,
		AfterFirstFrame: h.afterFirstFrame, OpenURL: h.openURL}
	if h.demo {
		opts.FirstConversation = h.cv.CreateDemoConversation
	}
	h.do(func() { h.app = New(h.fa, h.cv, opts) })
	host, app := h.host, h.app
	t.Cleanup(func() {
		h.do(app.Close)
		host.Close()
		st.Close()
		cache.Close()
	})
	h.settle()
}

// builtinProviders are the host's built-in providers: the demo model when
// h.demo is set.
func (h *harness) builtinProviders() []models.Provider {
	if h.demo {
		return []models.Provider{models.DemoProvider()}
	}
	return nil
}

// settle waits until the window shows the outcome of everything it started.
func (h *harness) settle() {
	h.t.Helper()
	h.waitFor("the window to settle", h.app.Idle)
}

// waitFor polls cond until it holds or the deadline passes.
func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// do runs f as the main goroutine would: one at a time with what
// background work delivers (see mainMu). Every interaction goes through it.
func (h *harness) do(f func()) {
	mainMu.Lock()
	defer mainMu.Unlock()
	f()
}

// try is do for a function that can fail.
func (h *harness) try(f func() error) error {
	var err error
	h.do(func() { err = f() })
	return err
}

// memoryIDs returns n ids of the account's tenant, from the server's own
// completion.
func (h *harness) memoryIDs(account, prefix string, n int) []string {
	h.t.Helper()
	c, err := h.host.Conn(hostcore.DemoServerName, account)
	if err != nil {
		h.t.Fatal(err)
	}
	got, err := c.Complete(context.Background(), "threengram://memory/{id}", "id", prefix, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	if len(got.Values) < n {
		h.t.Fatalf("%s has %d memories starting with %q, want %d", account, len(got.Values), prefix, n)
	}
	return got.Values[:n]
}

// shortcut presses a main-menu shortcut, as the window does for a key
// combination: the menu item with that shortcut runs.
func (h *harness) shortcut(s fyne.Shortcut) {
	h.t.Helper()
	for _, m := range h.app.Window().MainMenu().Items {
		for _, it := range m.Items {
			if it.Shortcut != nil && it.Shortcut.ShortcutName() == s.ShortcutName() {
				h.do(it.Action)
				return
			}
		}
	}
	h.t.Fatalf("no menu item has the shortcut %s", s.ShortcutName())
}

// memoryMeta reads a memory's metadata as the account sees it, straight
// from a host of its own (no cache), to compare with what the window shows.
func (h *harness) memoryMeta(account, uri string) hostcore.MemoryMeta {
	h.t.Helper()
	host := hostcore.NewHost(nil, nil)
	defer host.Close()
	sc, err := h.host.Conn(hostcore.DemoServerName, account)
	if err != nil {
		h.t.Fatal(err)
	}
	c, err := host.ConnFor(sc.Server, account)
	if err != nil {
		h.t.Fatal(err)
	}
	m, ok, err := c.MemoryMeta(context.Background(), uri)
	if err != nil || !ok {
		h.t.Fatalf("reading %s as %s: ok %v, %v", uri, account, ok, err)
	}
	return m
}
