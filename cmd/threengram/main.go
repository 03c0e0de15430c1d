// Command threengram is the reference threengram memory server, over stdio or
// Streamable HTTP, with the sample corpus from assets/.
//
//	threengram --db mem.db --seed --stdio --tenant acme
//	threengram --db mem.db --seed --http 127.0.0.1:8080
//	threengram token --db mem.db --tenant acme
//	threengram erase --db mem.db --tenant acme
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

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/threengram"
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
		mems, toks, err := store.Erase(ctx, *tenant)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "erased %d memories and revoked %d tokens of %s\n", mems, toks, *tenant)
		return nil
	case "serve":
		return serve(ctx, store, *stdio, *httpAddr, *tenant, logger, stderr)
	default:
		return fmt.Errorf("%w: unknown command %q (serve, token, erase)", errUsage, cmd)
	}
}

func serve(ctx context.Context, store *threengram.Store, stdio bool, addr, tenant string, logger *slog.Logger, stderr io.Writer) error {
	switch {
	case stdio == (addr != ""):
		return fmt.Errorf("%w: give exactly one of --stdio or --http ADDR", errUsage)
	case stdio:
		if tenant == "" {
			return fmt.Errorf("%w: --stdio needs --tenant (or $THREENGRAM_TENANT)", errUsage)
		}
		srv := threengram.NewServer(store, &threengram.ServerOptions{Tenant: tenant, Logger: logger})
		return srv.Run(ctx, &mcp.StdioTransport{})
	default:
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "threengram: serving http://%s/mcp\n", ln.Addr())
		hs := &http.Server{Handler: threengram.NewHTTPHandler(store, &threengram.HTTPOptions{Logger: logger})}
		go func() {
			<-ctx.Done()
			hs.Close()
		}()
		if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}
