package ctl

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/attache/attache/internal/proctime"
)

// --timeout is the budget of a whole command, from the start of the
// process: connecting, every request, and stopping the servers at the end.
// The command's context carries the deadline, so a connect and the
// requests after it draw on one budget; the last twentieth of the budget
// (at most exitReserve) is kept for the end, when the host is shut down
// within what is left (hostcore's Host.Shutdown): a stdio server that does
// not exit at once is then killed, not waited for. Time spent answering an
// input prompt counts too.
//
// demo-server (a server that runs until its client leaves) and login (a
// person signing in) have no budget.
var unbudgeted = map[string]bool{"demo-server": true, "login": true}

// modelBudget is the default budget of the commands that wait on a model:
// send (a local model's reply, a few tool rounds, a person answering tool
// prompts on the terminal), turns (--replay) and lab run (a live run asks
// a model every turn; a replay makes hundreds of reads) take longer than
// 30 s. An explicit --timeout still bounds them.
const modelBudget = 10 * time.Minute

// waitsOnModel names those commands by their path under attachectl.
var waitsOnModel = map[string]bool{"send": true, "turns": true, "lab run": true}

// commandName is cmd's path under the root command ("lab run").
func commandName(cmd *cobra.Command) string {
	_, name, _ := strings.Cut(cmd.CommandPath(), " ")
	return name
}

// started is when package main was initialized, the last before main
// runs; processStart knows better on Linux.
var started = time.Now()

// processStart returns when the process started: as the kernel saw it
// where it can tell (proctime.Start), so that loading the program counts
// against the budget too; else, or when the kernel's figure is not before
// started or is over a minute old, started.
func processStart() time.Time {
	t, ok := proctime.Start()
	if !ok || t.After(started) || started.Sub(t) > time.Minute {
		return started
	}
	return t
}

// exitReserve is the most of the budget kept for stopping the servers and
// closing the stores.
const exitReserve = 100 * time.Millisecond

// startBudget is the root command's PersistentPreRunE: it refuses a
// --timeout that is not positive, and gives the command its deadline.
func (a *app) startBudget(cmd *cobra.Command, _ []string) error {
	if a.flags.timeout <= 0 {
		return usageError(fmt.Sprintf("--timeout %s is not a positive duration (such as 30s)", a.flags.timeout))
	}
	total := a.flags.timeout
	if waitsOnModel[commandName(cmd)] && !cmd.Flags().Changed("timeout") {
		total = modelBudget // each connect and server request still has 30 s
	}
	a.budget = cmd.Context()
	if unbudgeted[cmd.Name()] {
		return nil
	}
	reserve := min(total/20, exitReserve)
	end := processStart().Add(total)
	if budgetBackstop != nil {
		budgetBackstop(end)
	}
	ctx, cancel := context.WithDeadline(cmd.Context(), end.Add(-reserve))
	a.budget, a.endBudget = ctx, cancel
	cmd.SetContext(ctx)
	return nil
}

// shutdown closes the host within the command's budget (or at once after
// a signal), and ends the budget.
func (a *app) shutdown() {
	ctx := a.budget
	if ctx == nil {
		ctx = context.Background()
	}
	if a.host != nil {
		a.host.Shutdown(ctx)
	}
	if a.endBudget != nil {
		a.endBudget()
	}
}
