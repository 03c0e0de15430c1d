package ctl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/google/shlex"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/attache/attache/cache"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/internal/hostcache"
	"github.com/attache/attache/internal/state"
)

// app is the state of one attachectl run: its flags, and the host they build.
type app struct {
	full           *Full // nil: this binary links no model SDK nor chart library
	stdin          io.Reader
	stdout, stderr io.Writer
	flags          globalFlags
	host           *hostcore.Host
	cache          io.Closer
	state          io.Closer
	st             *state.Store // the state database, once opened (stateStore)
	convs          *hostcore.Conversations
	budget         context.Context // the command's, with its deadline (budget.go)
	endBudget      context.CancelFunc
}

type globalFlags struct {
	stdio   string
	url     string
	headers []string
	account string
	json    bool
	timeout time.Duration
	config  string
	dataDir string
	verbose bool
	maxBody int64
	cacheMB int64
	// authorizeWith says how a sign-in page is shown (see oauth.go).
	authorizeWith string
	// authorizeParams are K=V query parameters added to the page fetched
	// by --authorize-with http-get (a test server's approval parameter).
	authorizeParams []string
	// transport is --transport: auto, streamable or sse, for --url.
	transport string
	// elicit is --elicit: how to answer a server that asks for input
	// (elicit.go).
	elicit string
}

const version = "0.1.0"

// root is the command tree for the command line args: every command, or,
// when args name one (see named), that one alone with its subcommands.
func (a *app) root(args []string) *cobra.Command {
	root := &cobra.Command{
		Use:   "attachectl",
		Short: "Attaché's headless CLI: browse MCP servers, read and attach resources",
		Long: `attachectl does from a terminal what the Attaché app does: list servers,
resources and templates, read resources, expand templates and complete their
variables.

SERVER is a configured server name, or leave it out and give an ad-hoc server
with --stdio "CMD ARGS" or --url URL (with --header K=V, --transport).

--timeout is the budget of the whole command (connecting, every request,
stopping the servers); it must be positive. send, turns and lab run wait on
a model, so their default budget is 10m (each connect and server request
still has the 30s default).

Exit codes: 0 ok, 1 a lab check below its thresholds, 2 usage or invalid
input, 3 not found, 4 unauthorized or forbidden, 5 server fault or protocol
error, 6 transport or timeout, 7 a write that found the disk full; 128+N
when ended by signal N (SIGINT 130, SIGTERM 143, SIGHUP 129).`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentPreRunE = a.startBudget
	f := root.PersistentFlags()
	f.StringVar(&a.flags.stdio, "stdio", "", `ad-hoc stdio server: "CMD ARGS" (split as a shell would)`)
	f.StringVar(&a.flags.url, "url", "", "ad-hoc Streamable HTTP server URL")
	f.StringArrayVar(&a.flags.headers, "header", nil, "K=V header for --url (repeatable)")
	f.StringVar(&a.flags.transport, "transport", "auto", "transport for --url: auto (Streamable HTTP, else legacy HTTP+SSE), streamable or sse")
	f.StringVar(&a.flags.account, "account", "", "account to act as (default: the server's first)")
	f.BoolVar(&a.flags.json, "json", false, "print JSON")
	f.DurationVar(&a.flags.timeout, "timeout", 30*time.Second, "time budget of the whole command: connecting, every request, stopping the servers (send, turns and lab run, which wait on a model: 10m unless given; each connect and server request still 30s)")
	f.StringVar(&a.flags.config, "config", "", "config file (default $ATTACHE_CONFIG, else the user config dir)")
	f.StringVar(&a.flags.dataDir, "data-dir", "", "data directory (default $ATTACHE_DATA_DIR, else the user cache dir)")
	f.BoolVarP(&a.flags.verbose, "verbose", "v", false, "say more, including error details")
	f.Int64Var(&a.flags.maxBody, "max-body-bytes", 32<<20, "refuse a read whose body is larger")
	f.Int64Var(&a.flags.cacheMB, "cache-size-mb", 256, "bound the body cache to this many MiB (least recently used entries go first)")
	f.StringVar(&a.flags.authorizeWith, "authorize-with", "", "how to show a sign-in page: browser, print, or http-get (test servers that approve by themselves); default browser with a display, else print")
	f.StringArrayVar(&a.flags.authorizeParams, "authorize-param", nil, "K=V added to the sign-in page fetched by --authorize-with http-get (a test server's approval parameter)")
	f.MarkHidden("authorize-param")
	f.StringVar(&a.flags.elicit, "elicit", "", "how to answer a server that asks for input: ask (on the terminal), accept (the form's defaults), decline or cancel; default ask on a terminal, else decline")
	a.addCommands(root, args)
	return root
}

func (a *app) close() {
	a.shutdown()
	if a.cache != nil {
		a.cache.Close()
	}
	if a.state != nil {
		a.state.Close()
	}
}

// logger writes warnings (a corrupt cache moved aside, a clamped TTL) to
// stderr; with --verbose, information too.
func (a *app) logger() *slog.Logger {
	level := slog.LevelWarn
	if a.flags.verbose {
		level = slog.LevelInfo
	}
	return slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: level}))
}

func (a *app) configPath() (string, error) {
	if a.flags.config != "" {
		return a.flags.config, nil
	}
	if p := os.Getenv("ATTACHE_CONFIG"); p != "" {
		return p, nil
	}
	return config.DefaultConfigPath()
}

func (a *app) dataDir() (string, error) {
	if a.flags.dataDir != "" {
		return a.flags.dataDir, nil
	}
	if d := os.Getenv("ATTACHE_DATA_DIR"); d != "" {
		return d, nil
	}
	return hostcore.DefaultDataDir()
}

// hostFor loads the config and builds the host, once.
func (a *app) hostFor() (*hostcore.Host, error) {
	if a.host != nil {
		return a.host, nil
	}
	path, err := a.configPath()
	if err != nil {
		return nil, err
	}
	cfg, err := config.LoadConfigContext(a.ctx(), path)
	if err != nil {
		return nil, err
	}
	for _, e := range cfg.ImportErrors() {
		fmt.Fprintf(a.stderr, "attachectl: warning: %v\n", e)
	}
	dataDir, err := a.dataDir()
	if err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	bodies, err := a.openCache(dataDir)
	if err != nil {
		return nil, err
	}
	oauth, err := a.oauthOptions(path)
	if err != nil {
		return nil, err
	}
	elicit, err := a.elicitMode()
	if err != nil {
		return nil, err
	}
	a.host = hostcore.NewHost(cfg, &hostcore.HostOptions{
		OAuth:            oauth,
		Cache:            bodies,
		MaxBodyBytes:     a.flags.maxBody,
		Logger:           a.logger(),
		ConnectTimeout:   a.flags.timeout,
		RequestTimeout:   a.flags.timeout,
		Builtin:          []config.ServerConfig{hostcore.DemoServer(exe, dataDir)},
		BuiltinProviders: []models.Provider{models.DemoProvider()},
		PromptInput:      a.promptInput,
		Elicit:           a.elicitor(elicit),
		Grants:           lazyGrants{a},
	})
	return a.host, nil
}

// openCache opens the body cache in dataDir. On a disk too full to open it
// at all (not even read-only: a first run, with no cache file yet), the
// command runs without one, saying so: reads then go to the servers.
func (a *app) openCache(dataDir string) (hostcore.BodyCache, error) {
	store, bodies, err := hostcache.Open(dataDir, a.flags.cacheMB<<20, a.logger())
	switch {
	case errors.Is(err, cache.ErrDiskFull):
		fmt.Fprintf(a.stderr, "attachectl: warning: the disk is full: running without the cache in %s\n", dataDir)
		return nil, nil
	case err != nil:
		return nil, hostcore.NewUsageError(fmt.Sprintf("opening the cache in %s: %v", dataDir, err))
	}
	a.cache = store
	if store.ReadOnly() {
		fmt.Fprintf(a.stderr, "attachectl: warning: the disk is full: the cache in %s serves what it holds and stores nothing new\n", dataDir)
	}
	return bodies, nil
}

// ctx is the command's context, with its budget: what file reads and
// other waits outside a command's own code run under.
func (a *app) ctx() context.Context {
	if a.budget == nil {
		return context.Background()
	}
	return a.budget
}

// adHoc reports whether --stdio or --url names the server.
func (a *app) adHoc() bool { return a.flags.stdio != "" || a.flags.url != "" }

// conn resolves the server (a name in args[0], or --stdio/--url) and returns
// its connection and the remaining arguments.
func (a *app) conn(args []string) (*hostcore.Conn, []string, error) {
	h, err := a.hostFor()
	if err != nil {
		return nil, nil, err
	}
	if !a.adHoc() {
		if len(args) == 0 {
			return nil, nil, usageError("name a SERVER, or give --stdio or --url")
		}
		c, err := h.Conn(args[0], a.flags.account)
		return c, args[1:], err
	}
	sc, err := a.adHocServer()
	if err != nil {
		return nil, nil, err
	}
	c, err := h.ConnFor(sc, a.flags.account)
	return c, args, err
}

func (a *app) adHocServer() (config.ServerConfig, error) {
	if a.flags.stdio != "" && a.flags.url != "" {
		return config.ServerConfig{}, usageError("give --stdio or --url, not both")
	}
	if a.flags.url != "" {
		headers, err := keyValues(a.flags.headers)
		if err != nil {
			return config.ServerConfig{}, err
		}
		transport := a.flags.transport
		if transport == "auto" {
			transport = config.TransportAuto
		}
		return hostcore.AdHoc(config.ServerConfig{URL: a.flags.url, Headers: headers, Transport: transport}), nil
	}
	if a.flags.transport != "auto" {
		return config.ServerConfig{}, usageError("--transport is for --url; a --stdio server is reached over stdio")
	}
	words, err := shlex.Split(a.flags.stdio)
	env, words := assignments(words)
	if err != nil || len(words) == 0 {
		return config.ServerConfig{}, usageError(fmt.Sprintf("--stdio %q is not a command line", a.flags.stdio))
	}
	return hostcore.AdHoc(config.ServerConfig{Command: words[0], Args: words[1:], Env: env}), nil
}

// assignments takes the NAME=value words that lead a command line off it,
// as a shell does: they set the command's environment (NAME is a letter or
// underscore, then letters, digits and underscores). The rest is the
// command and its arguments.
func assignments(words []string) (map[string]string, []string) {
	var env map[string]string
	for len(words) > 0 {
		name, value, ok := strings.Cut(words[0], "=")
		if !ok || !isEnvName(name) {
			break
		}
		if env == nil {
			env = map[string]string{}
		}
		env[name] = value
		words = words[1:]
	}
	return env, words
}

func isEnvName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// keyValues parses K=V arguments.
func keyValues(args []string) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range args {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, usageError(fmt.Sprintf("%q is not NAME=VALUE", kv))
		}
		out[k] = v
	}
	return out, nil
}

// promptInput asks for a VS Code input on the terminal. As in VS Code, a
// password input is not echoed: when stdin is a terminal it is read with
// echo off; other inputs are echoed so a person sees what they typed. When
// stdin is not a terminal (a pipe, a script), a line is read as is.
func (a *app) promptInput(_ context.Context, server string, in config.Input) (string, error) {
	fmt.Fprintf(a.stderr, "%s needs %s (%s): ", a.line(server), a.line(in.ID), a.line(in.Description))
	if f, ok := a.stdin.(*os.File); ok && in.Password && term.IsTerminal(int(f.Fd())) {
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(a.stderr) // the newline typed was not echoed either
		if err != nil || len(b) == 0 {
			return "", usageError("no value given for input " + in.ID)
		}
		return string(b), nil
	}
	var v string
	if _, err := fmt.Fscanln(a.stdin, &v); err != nil {
		return "", usageError("no value given for input " + in.ID)
	}
	return v, nil
}

func usageError(msg string) error {
	return hostcore.NewUsageError(msg)
}

// printJSON writes v as indented JSON.
func (a *app) printJSON(v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = a.stdout.Write(append(jsonText(b), '\n'))
	return err
}

// exactArgs is cobra.ExactArgs counting the SERVER argument only when no
// ad-hoc server is given.
func (a *app) serverArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		want := n
		if !a.adHoc() {
			want++
		}
		if len(args) != want {
			return usageError(fmt.Sprintf("%s takes %d arguments, got %d (see --help)", cmd.Name(), want, len(args)))
		}
		return nil
	}
}
