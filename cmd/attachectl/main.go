// Command attachectl is Attaché's headless CLI: everything the app does with
// servers and resources, from a terminal or a script. It imports no Fyne.
//
// Exit codes: 0 ok, 2 usage or invalid input, 3 not found, 4 unauthorized or
// forbidden, 5 server fault or protocol error, 6 transport or timeout.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/attache/attache/hostcore"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command line and returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr}
	defer a.close()
	root := a.root()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	a.report(err)
	return exitCode(err)
}

// Exit codes, documented in the README.
const (
	exitOK           = 0
	exitUsage        = 2
	exitNotFound     = 3
	exitUnauthorized = 4
	exitServer       = 5
	exitTransport    = 6
)

func exitCode(err error) int {
	var he *hostcore.Error
	if !errors.As(err, &he) {
		return exitUsage // cobra's own errors: unknown command, bad flag
	}
	switch he.Kind() {
	case hostcore.KindNotFound:
		return exitNotFound
	case hostcore.KindUnauthorized, hostcore.KindForbidden:
		return exitUnauthorized
	case hostcore.KindServerFault, hostcore.KindProtocol, hostcore.KindVersionMismatch:
		return exitServer
	case hostcore.KindTransport, hostcore.KindTimeout, hostcore.KindCanceled:
		return exitTransport
	default:
		return exitUsage
	}
}

// report prints err as one clear line; with --verbose, the detail and what
// to do next.
func (a *app) report(err error) {
	var he *hostcore.Error
	if !errors.As(err, &he) {
		fmt.Fprintf(a.stderr, "attachectl: %v\n", err)
		return
	}
	fmt.Fprintf(a.stderr, "attachectl: %s (%s)\n", he.Message(), he.Kind())
	if a.flags.verbose {
		if cause := errors.Unwrap(he); cause != nil {
			fmt.Fprintf(a.stderr, "  detail: %v\n", cause)
		}
		if hint := he.Hint(); hint != "" {
			fmt.Fprintf(a.stderr, "  next: %s\n", hint)
		}
	}
}
