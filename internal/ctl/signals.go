package ctl

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// interruptible returns a context that SIGINT, SIGTERM and SIGHUP cancel,
// and the function to call once the command has ended and the host is
// closed (every server it started is then stopped, its process group
// killed). After a signal that function ends the process the way the
// signal would have, killed by it (a shell reports 128+N), so that a
// script or a shell loop sees the interruption; otherwise it returns.
//
// Should the command not have ended stopGrace after the signal (a system
// call that the kernel does not interrupt, such as a read on a hung
// network file system), the process ends all the same, by the signal: a
// signal always ends a command. The servers it started die with it
// (parent-death signal and watchdog, see hostcore).
func interruptible() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	caught := make(chan syscall.Signal, 1)
	go func() {
		s := <-sigs
		sig := s.(syscall.Signal)
		caught <- sig
		cancel()
		time.AfterFunc(stopGrace, func() {
			fmt.Fprintf(os.Stderr, "attachectl: %s: the command did not stop within %s; ending it\n", signalName(sig), stopGrace)
			dieBy(sig)
		})
	}()
	return ctx, func() {
		signal.Stop(sigs)
		select {
		case sig := <-caught:
			dieBy(sig)
		default:
		}
	}
}

// stopGrace is how long a command has, after a signal or past its budget,
// to end on its own before the process is ended for it.
const stopGrace = 500 * time.Millisecond

// dieBy ends the process killed by sig, or with 128+sig should it
// survive its own signal.
func dieBy(sig syscall.Signal) {
	signal.Reset(sig)
	syscall.Kill(os.Getpid(), sig)
	time.Sleep(time.Second) // the signal is on its way
	os.Exit(128 + int(sig))
}

func signalName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return sig.String()
}

// budgetBackstop, when set (by main, never by tests that call run), is
// told the end of each command's budget (see startBudget): should the
// command still be running stopGrace past it, the process ends with the
// timeout's exit code. Every wait of a command is bounded by its context;
// this bounds the ones the kernel does not let go of.
var budgetBackstop func(end time.Time)

// endAtBudget is main's budgetBackstop.
func endAtBudget(end time.Time) {
	time.AfterFunc(time.Until(end.Add(stopGrace)), func() {
		fmt.Fprintf(os.Stderr, "attachectl: the time budget (--timeout) ran out %s ago and the command did not stop; ending it\n", stopGrace)
		os.Exit(exitTransport)
	})
}
