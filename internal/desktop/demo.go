package desktop

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/internal/threengram"
)

// serveDemo serves the embedded threengram demo over stdio until the host
// closes the connection: "attache demo-server --db PATH", with the tenant in
// THREENGRAM_TENANT (an account's credential). It returns the exit code.
func serveDemo(args []string) int {
	fs := flag.NewFlagSet(hostcore.DemoCommand, flag.ContinueOnError)
	db := fs.String("db", "", "database path")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := threengram.ServeStdio(ctx, *db, os.Getenv("THREENGRAM_TENANT"), assets.Corpus, nil); err != nil {
		fmt.Fprintln(os.Stderr, "attache demo-server:", err)
		return 1
	}
	return 0
}
