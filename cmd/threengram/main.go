// Command threengram is the reference threengram memory server, over stdio or
// Streamable HTTP, with the sample corpus from assets/.
//
//	threengram --db mem.db --seed --stdio --tenant acme
//	threengram --db mem.db --seed --http 127.0.0.1:8080
//	threengram --db mem.db --seed --http 127.0.0.1:8080 --oauth [--access-token-ttl 10m] [--issuer URL]
//	threengram token --db mem.db --tenant acme
//	threengram erase --db mem.db --tenant acme
//
// With --oauth the server is also the OAuth authorization server of its
// tenants (see the README). For tests only, --oauth-auto-approve lets
// /authorize?...&tenant=NAME sign in as NAME with no person at the login
// page, and --oauth-loopback-client-ids accepts http client ID metadata
// document URLs on loopback hosts.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/internal/threengram"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "threengram:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("threengram "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "threengram.db", "path of the SQLite database")
	tenant := fs.String("tenant", os.Getenv("THREENGRAM_TENANT"),
		"tenant (stdio: the tenant of every request; token, erase: the tenant acted on); default $THREENGRAM_TENANT")
	seed := fs.Bool("seed", false, "load the bundled sample corpus into an empty database")
	stdio := fs.Bool("stdio", false, "serve MCP over stdin/stdout")
	httpAddr := fs.String("http", "", "serve MCP over Streamable HTTP at this address (endpoint /mcp)")
	scopes := fs.String("scopes", threengram.ScopeRead+" "+threengram.ScopeWrite, "token: space-separated scopes")
	verbose := fs.Bool("v", false, "log to stderr")
	hideFetch := fs.String("hide-fetch-tool-from", "", "--stdio: hide get_memories from these clients (clientInfo names, comma-separated) and from clients that declare "+threengram.SurfacesResourcesCapability)
	var oauth oauthFlags
	fs.BoolVar(&oauth.on, "oauth", false, "--http: be the OAuth authorization server of the tenants too (login page, DCR, client ID metadata documents)")
	fs.StringVar(&oauth.issuer, "issuer", "", "--oauth: the base URL clients reach the server at; default http://ADDR as listening")
	fs.DurationVar(&oauth.accessTTL, "access-token-ttl", threengram.DefaultAccessTokenTTL, "--oauth: life of an access token")
	fs.BoolVar(&oauth.autoApprove, "oauth-auto-approve", false, "--oauth, TESTS ONLY: /authorize?...&tenant=NAME approves NAME with no person")
	fs.BoolVar(&oauth.loopbackClientIDs, "oauth-loopback-client-ids", false, "--oauth, TESTS ONLY: accept http client ID metadata document URLs on loopback hosts")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	logger := slog.New(slog.DiscardHandler)
	if *verbose {
		logger = slog.New(slog.NewTextHandler(stderr, nil))
	}
	store, err := threengram.OpenStore(*db, nil)
	if err != nil {
		return err
	}
	defer store.Close()
	if *seed {
		n, err := store.Seed(ctx, assets.Corpus)
		if err != nil {
			return err
		}
		if n > 0 {
			logger.Info("loaded sample corpus", "memories", n)
		}
	}
	switch cmd {
	case "token":
		if *tenant == "" {
			return fmt.Errorf("%w: token needs --tenant", errUsage)
		}
		tok, err := store.IssueToken(ctx, *tenant, strings.Fields(*scopes))
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, tok)
		return nil
	case "erase":
		if *tenant == "" {
			return fmt.Errorf("%w: erase needs --tenant", errUsage)
		}
		e, err := store.Erase(ctx, *tenant)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s of %s\n", e, *tenant)
		return nil
	case "serve":
		return serve(ctx, store, *stdio, *httpAddr, *tenant, threengram.ParseFetchToolGate(*hideFetch), oauth, logger, stderr)
	default:
		return fmt.Errorf("%w: unknown command %q (serve, token, erase)", errUsage, cmd)
	}
}

// oauthFlags are the flags of the OAuth mode.
type oauthFlags struct {
	on                bool
	issuer            string
	accessTTL         time.Duration
	autoApprove       bool
	loopbackClientIDs bool
}

// options are the OAuth options the flags say, for a server listening at
// the base URL listening.
func (f oauthFlags) options(listening string) (*threengram.OAuthOptions, error) {
	o := &threengram.OAuthOptions{
		Issuer:            listening,
		AccessTokenTTL:    f.accessTTL,
		AutoApprove:       f.autoApprove,
		LoopbackClientIDs: f.loopbackClientIDs,
	}
	if f.issuer != "" {
		o.Issuer = strings.TrimSuffix(f.issuer, "/")
	}
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return o, nil
}

func serve(ctx context.Context, store *threengram.Store, stdio bool, addr, tenant string, gate threengram.FetchToolGate, oauth oauthFlags, logger *slog.Logger, stderr io.Writer) error {
	switch {
	case stdio == (addr != ""):
		return fmt.Errorf("%w: give exactly one of --stdio or --http ADDR", errUsage)
	case oauth.on && stdio:
		return fmt.Errorf("%w: --oauth is for --http", errUsage)
	case stdio:
		if tenant == "" {
			return fmt.Errorf("%w: --stdio needs --tenant (or $THREENGRAM_TENANT)", errUsage)
		}
		srv := threengram.NewServer(store, &threengram.ServerOptions{Tenant: tenant, Logger: logger, FetchGate: gate})
		return srv.Run(ctx, &mcp.StdioTransport{})
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	opts := &threengram.HTTPOptions{Logger: logger}
	base := baseURL(ln.Addr())
	if oauth.on {
		if opts.OAuth, err = oauth.options(base); err != nil {
			return err
		}
		base = opts.OAuth.Issuer
	}
	// Tests read these lines to learn the port of --http 127.0.0.1:0.
	fmt.Fprintf(stderr, "threengram: serving %s/mcp\n", base)
	if oauth.on {
		fmt.Fprintf(stderr, "threengram: OAuth issuer %s\n", base)
	}
	hs := &http.Server{Handler: threengram.NewHTTPHandler(store, opts)}
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// baseURL is http:// and the address ln listens on, with an unspecified
// IP (0.0.0.0, ::) replaced by loopback, which is at least reachable.
func baseURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}
