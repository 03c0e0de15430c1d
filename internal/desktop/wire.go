package desktop

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"fyne.io/fyne/v2"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/icon"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/hostcore/signin"
	"github.com/attache/attache/internal/hostcache"
	"github.com/attache/attache/internal/secretstore"
	"github.com/attache/attache/internal/startup"
	"github.com/attache/attache/internal/state"
	"github.com/attache/attache/ui"
)

// flags are the app's command line. --measure-startup is for the startup
// measurement and is left out of the usage text, as are the flags a
// scripted command adds (Options.Flags).
type flags struct {
	config, dataDir string
	verbose         bool
	measure         bool
}

func parseFlags(args []string, opts *Options) (flags, error) {
	var f flags
	fs := flag.NewFlagSet(opts.name(), flag.ContinueOnError)
	fs.StringVar(&f.config, "config", "", "config file (default $ATTACHE_CONFIG, else the user config dir)")
	fs.StringVar(&f.dataDir, "data-dir", "", "data directory: cache, conversations, demo database (default $ATTACHE_DATA_DIR, else the user cache dir)")
	fs.BoolVar(&f.verbose, "v", false, "log to stderr")
	hidden := flag.NewFlagSet("", flag.ContinueOnError)
	hidden.BoolVar(&f.measure, "measure-startup", false, "print the time from launch to the first frame and to the demo being ready, then quit")
	if opts.Flags != nil {
		opts.Flags(hidden)
	}
	hidden.VisitAll(func(fl *flag.Flag) { fs.Var(fl.Value, fl.Name, fl.Usage) })
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s [--config FILE] [--data-dir DIR] [-v]\n", opts.name())
		fs.VisitAll(func(fl *flag.Flag) {
			if hidden.Lookup(fl.Name) == nil {
				fmt.Fprintf(fs.Output(), "  --%s\t%s\n", fl.Name, fl.Usage)
			}
		})
	}
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("unexpected argument %q (see --help)", fs.Arg(0))
	}
	if opts.Check != nil {
		return f, opts.Check()
	}
	return f, nil
}

// wiring is the app and what it is built on, to close in order on exit.
type wiring struct {
	app     *ui.App
	host    *hostcore.Host
	closers []io.Closer
	code    int
	// scripted is a run of a script (Options.Script) or of
	// --measure-startup: the script, not a browser, answers sign-in pages.
	scripted bool
}

// wire builds the host over the config, the body cache and the state
// database, and the window over the host, once warmed (ui.WarmFonts) has
// closed. timing marks its parts.
func wire(fa fyne.App, f flags, opts *Options, logger *slog.Logger, timing *startup.Timing, warmed <-chan struct{}) (*wiring, error) {
	cfgPath, err := pick(f.config, "ATTACHE_CONFIG", config.DefaultConfigPath)
	if err != nil {
		return nil, err
	}
	dataDir, err := pick(f.dataDir, "ATTACHE_DATA_DIR", hostcore.DefaultDataDir)
	if err != nil {
		return nil, err
	}
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return nil, err
	}
	timing.Mark("config")
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	w := &wiring{scripted: opts.Script != nil || f.measure}
	bodies, st, err := w.openStores(dataDir, logger)
	if err != nil {
		return nil, err
	}
	timing.Mark("stores")
	builtin := []config.ServerConfig{hostcore.DemoServer(exe, dataDir)}
	if d, err := startDemoOAuth(demoOAuthAddr, hostcore.DemoDatabase(dataDir), logger); err != nil {
		logger.Warn("the demo over HTTP with OAuth is off", "err", err)
	} else {
		w.closers = append(w.closers, d)
		builtin = append(builtin, hostcore.DemoOAuthServer(d.endpoint))
	}
	w.host = hostcore.NewHost(cfg, &hostcore.HostOptions{Cache: bodies, Logger: logger,
		Builtin: builtin, BuiltinProviders: []models.Provider{models.DemoProvider()},
		PromptInput: w.promptInput, Elicit: w.elicit, OAuth: w.oauthOptions(cfgPath, logger)})
	timing.Mark("demo oauth server, host")
	cv := hostcore.NewConversations(w.host, st)
	newModel, keys := providerModels(cfgPath, logger)
	timing.Mark("providers")
	w.app = ui.New(fa, cv, &ui.Options{
		Icons: &icon.Fetcher{}, RefreshEvery: time.Second, Logger: logger, Ready: timing.Ready,
		AfterFirstFrame: timing.AfterFirstFrame, FontsWarmed: warmed, Chat: newChat(cv, st), Models: newModel, Keys: keys,
		OpenURL: w.opener(opts), FirstConversation: firstConversation(opts, cv), WrapContent: timing.Wrap})
	timing.Mark("window built")
	timing.Watch(fa, w.app.Window())
	w.script(f, opts, timing)
	return w, nil
}

// firstConversation is what a first launch opens on: the demo
// conversation (three memories attached, the demo model to ask). A
// scene that scripts its own conversation starts from an empty one
// (Options.EmptyFirstConversation), so that its shot shows only what it
// attached.
func firstConversation(opts *Options, cv *hostcore.Conversations) func(context.Context) (hostcore.Conversation, error) {
	if opts.EmptyFirstConversation != nil && opts.EmptyFirstConversation() {
		return nil
	}
	return cv.CreateDemoConversation
}

// openStores opens the body cache and the conversations in dataDir; w
// closes them.
func (w *wiring) openStores(dataDir string, logger *slog.Logger) (hostcore.BodyCache, *state.Store, error) {
	cache, bodies, err := hostcache.Open(dataDir, 0, logger)
	if err != nil {
		return nil, nil, fmt.Errorf("opening the cache in %s: %w", dataDir, err)
	}
	w.closers = append(w.closers, cache)
	st, err := state.Open(state.DefaultPath(dataDir), nil)
	if err != nil {
		w.close()
		return nil, nil, fmt.Errorf("opening the conversations in %s: %w", dataDir, err)
	}
	w.closers = append(w.closers, st)
	if cache.ReadOnly() || st.ReadOnly() {
		logger.Warn("the disk is full: cached bodies and conversations can be read; nothing new is stored until the app is started with room to write",
			"dir", dataDir, "cache read-only", cache.ReadOnly(), "conversations read-only", st.ReadOnly())
	}
	return bodies, st, nil
}

// script starts what the command's script or --measure-startup ask for.
func (w *wiring) script(f flags, opts *Options, timing *startup.Timing) {
	switch {
	case opts.Script != nil:
		go func() {
			w.code = opts.Script(&Run{App: w.app, Host: w.host, start: timing})
			w.exit()
		}()
	case f.measure:
		go func() {
			timing.Report(os.Stdout)
			w.exit()
		}()
	}
}

// configBudget bounds reading the config and its imports at start-up: a
// FIFO or a device named there is refused at once, and a file that does
// not answer (a hung network mount) ends the start with an error rather
// than a window that never comes.
const configBudget = 10 * time.Second

// loadConfig reads the config at path within configBudget.
func loadConfig(path string) (*config.Config, error) {
	ctx, cancel := context.WithTimeout(context.Background(), configBudget)
	defer cancel()
	return config.LoadConfigContext(ctx, path)
}

// pick is the flag's value, else the environment variable's, else the
// default.
func pick(flagValue, env string, def func() (string, error)) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if v := os.Getenv(env); v != "" {
		return v, nil
	}
	return def()
}

func newLogger(verbose bool) *slog.Logger {
	level := slog.LevelWarn
	if verbose {
		level = slog.LevelInfo
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
}

// promptInput asks for a VS Code input through the window.
func (w *wiring) promptInput(ctx context.Context, server string, in config.Input) (string, error) {
	return w.app.PromptInput(ctx, server, in)
}

// elicit asks the person, in a dialog, for the input a server asks for
// (form elicitation).
func (w *wiring) elicit(ctx context.Context, req hostcore.ElicitRequest) (hostcore.ElicitAnswer, error) {
	return w.app.Elicit(ctx, req)
}

// oauthOptions are the app's sign-in settings: grants in the OS keyring,
// or a 0600 file beside the config (ATTACHE_TOKEN_STORE=file says so
// anyway), where attachectl keeps them too, so the two share sign-ins; the
// page opens in the system browser, and the server's card shows the wait
// (with the address to copy, and Cancel) until the sign-in ends.
func (w *wiring) oauthOptions(cfgPath string, logger *slog.Logger) *signin.Options {
	store := secretstore.Open(filepath.Dir(cfgPath), &secretstore.Options{
		File: os.Getenv("ATTACHE_TOKEN_STORE") == "file",
		Warn: func(msg string) { logger.Warn(msg) },
	})
	present := func(ctx context.Context, page signin.Page) error { return w.app.PresentSignIn(ctx, page) }
	return &signin.Options{Tokens: store, Present: present, ClientMetadataURL: os.Getenv("ATTACHE_CLIENT_METADATA_URL")}
}

// opener opens sign-in pages (ui.Options.OpenURL): the command's own
// (Options.OpenURL), else none for a scripted run, which plays the browser
// itself, else the system browser.
func (w *wiring) opener(opts *Options) func(*url.URL) error {
	switch {
	case opts.OpenURL != nil:
		return opts.OpenURL
	case w.scripted:
		return func(*url.URL) error { return nil }
	}
	return openBrowser
}

// exit ends a scripted run from its goroutine. It does not close the window:
// Fyne 2.7's GLFW driver can crash on a pointer event that arrives for a
// window being closed, which under Xvfb (the pointer rests inside the
// window) happens every time.
func (w *wiring) exit() {
	fyne.DoAndWait(w.app.Close)
	os.Exit(w.close())
}

// close ends every server process and closes the stores; it returns the
// process's exit code.
func (w *wiring) close() int {
	if w.host != nil {
		w.host.Close()
	}
	for i := len(w.closers) - 1; i >= 0; i-- {
		w.closers[i].Close()
	}
	return w.code
}
