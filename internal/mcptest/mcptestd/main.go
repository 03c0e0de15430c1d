// Command mcptestd runs one of the internal/mcptest servers, for tests that
// need a real server process:
//
//	mcptestd --mode v2026 --stdio
//	mcptestd --mode paged --resources 50000 --page-size 100 --http 127.0.0.1:0
//
// Over HTTP the first line of stdout is the endpoint, http://HOST:PORT/mcp.
// It exits 0 on SIGTERM or interrupt, and in stdio mode when stdin closes;
// 2 on a usage error; 3 when die-on-read dies. The modes are described in
// the mcptest package doc.
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
	"syscall"

	"github.com/attache/attache/internal/mcptest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcptestd:", err)
		if errors.Is(err, errUsage) || errors.Is(err, mcptest.ErrUnknownMode) ||
			errors.Is(err, mcptest.ErrUnsupportedTransport) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("mcptestd", flag.ContinueOnError)
	mode := fs.String("mode", "", fmt.Sprintf("server mode, one of %v", mcptest.ModeNames()))
	stdio := fs.Bool("stdio", false, "serve over stdin/stdout")
	addr := fs.String("http", "", "serve Streamable HTTP at this address (endpoint /mcp)")
	o := mcptest.Options{Exit: os.Exit, Stderr: os.Stderr}
	fs.IntVar(&o.Resources, "resources", mcptest.DefaultResources, "paged: number of resources")
	fs.IntVar(&o.PageSize, "page-size", mcptest.DefaultPageSize, "paged: page size")
	fs.IntVar(&o.Templates, "templates", mcptest.DefaultTemplates, "paged: number of templates")
	fs.DurationVar(&o.ListTTL, "list-ttl", 0, "paged: ttl of the list pages (public), so that a host caches them; 0: none")
	fs.Int64Var(&o.BodyBytes, "body-bytes", mcptest.DefaultBodyBytes, "oversize: text body length")
	fs.DurationVar(&o.Delay, "delay", mcptest.DefaultDelay, "slow: delay before a read is answered")
	verbose := fs.Bool("v", false, "log to stderr")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *verbose {
		o.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	switch {
	case *stdio && *addr == "":
		return mcptest.ServeStdio(ctx, *mode, os.Stdin, os.Stdout, &o)
	case *addr != "" && !*stdio:
		return serveHTTP(ctx, *mode, *addr, os.Stdout, &o)
	}
	return fmt.Errorf("%w: give exactly one of --stdio and --http ADDR", errUsage)
}

// serveHTTP listens on addr, prints the endpoint URL and serves until ctx
// is done.
func serveHTTP(ctx context.Context, mode, addr string, stdout io.Writer, o *mcptest.Options) error {
	h, err := mcptest.Handler(mode, o)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	fmt.Fprintf(stdout, "http://%s/mcp\n", ln.Addr())
	srv := &http.Server{Handler: h}
	go func() {
		<-ctx.Done()
		srv.Close() // streams stay open for ever: close, do not drain
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serving HTTP: %w", err)
	}
	return nil
}
