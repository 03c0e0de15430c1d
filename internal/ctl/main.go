// Package ctl is Attaché's headless CLI, attachectl: everything the app
// does with servers and resources, from a terminal or a script. It imports
// no Fyne, no model SDK and no chart library: cmd/attachectl runs it as it
// is, and cmd/attachectl-full runs it with those (see Full), for the
// commands that talk to models or draw charts, which attachectl hands to
// attachectl-full (see delegate.go).
//
// Exit codes: 0 ok, 1 a lab check below its thresholds, 2 usage or invalid input, 3 not found, 4 unauthorized or
// forbidden, 5 server fault or protocol error, 6 transport or timeout, 7 a
// write that found the disk full; a
// command ended by SIGINT, SIGTERM or SIGHUP ends killed by that signal
// (128+N in a shell), once every server it started is stopped.
package ctl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/signin"
)

// Main runs the command line of this process and exits. full is what the
// binary links of the model SDKs and the chart libraries: nil in
// attachectl, which then runs FullCommand for the commands that need them.
func Main(full *Full) {
	budgetBackstop = endAtBudget
	ctx, exitOnSignal := interruptible()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, full)
	exitOnSignal()
	os.Exit(code)
}

// run executes one command line and returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, full *Full) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, full: full}
	defer a.close()
	root := a.root(args)
	if full == nil {
		if code, handed := handOver(root, args, stderr); handed {
			return code
		}
	}
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	// Every command is the person's own: one that meets a server asking
	// for a sign-in may start one (as --authorize-with says).
	err := root.ExecuteContext(signin.MayStart(ctx))
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
	exitDiskFull     = 7
)

func exitCode(err error) int {
	if isShortfall(err) {
		return exitThreshold
	}
	if errors.Is(err, fault.ErrDiskFull) { // a store's error, or a host's
		return exitDiskFull
	}
	var he *fault.Error
	if !errors.As(err, &he) {
		return exitUsage // cobra's own errors: unknown command, bad flag
	}
	switch he.Kind() {
	case fault.KindNotFound:
		return exitNotFound
	case fault.KindUnauthorized, fault.KindForbidden, fault.KindNotApproved:
		return exitUnauthorized
	case fault.KindServerFault, fault.KindProtocol, fault.KindVersionMismatch:
		return exitServer
	case fault.KindTransport, fault.KindTimeout, fault.KindCanceled:
		return exitTransport
	default:
		return exitUsage
	}
}

// report prints err as one clear line; with --verbose, the detail, what to
// do next and the last lines a failed stdio server wrote to stderr.
// Messages carry what servers said, so they are printed escaped (see
// terminal.go).
func (a *app) report(err error) {
	var he *fault.Error
	if !errors.As(err, &he) {
		if errors.Is(err, fault.ErrDiskFull) { // the state store's, which is no *fault.Error
			he = hostcore.NewDiskFullError("saving the change", err)
			fmt.Fprintf(a.stderr, "attachectl: %s (%s)\n", a.line(he.Message()), he.Kind())
			a.details(he)
			return
		}
		fmt.Fprintf(a.stderr, "attachectl: %s\n", a.line(err.Error()))
		return
	}
	fmt.Fprintf(a.stderr, "attachectl: %s (%s)\n", a.line(message(he)), he.Kind())
	a.details(he)
}

// details prints, with --verbose, an error's detail, what to do next and
// the last lines a failed stdio server wrote to stderr.
func (a *app) details(he *fault.Error) {
	if a.flags.verbose {
		if cause := errors.Unwrap(he); cause != nil {
			fmt.Fprintf(a.stderr, "  detail: %s\n", a.line(cause.Error()))
		}
		if hint := he.Hint(); hint != "" {
			fmt.Fprintf(a.stderr, "  next: %s\n", hint)
		}
		for _, l := range he.Stderr() { // the server's own words on what went wrong
			fmt.Fprintf(a.stderr, "  server stderr: %s\n", a.line(l))
		}
	}
}

// message is what report says of he: its message and, for a usage error
// whose cause is the reason (a config entry that fails validation, a config
// that is not JSON), that reason too, without --verbose. Other causes are
// detail, for --verbose.
func message(he *fault.Error) string {
	msg := he.Message()
	if he.Kind() != fault.KindUsage {
		return msg
	}
	cause := errors.Unwrap(he)
	var reason *fault.Error
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(cause, &reason) && reason.Message() != "":
		return msg + ": " + reason.Message()
	case errors.As(cause, &syntax), errors.As(cause, &typ):
		return msg + ": " + cause.Error()
	}
	return msg
}
