package main

import (
	"context"
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
func interruptible() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	caught := make(chan syscall.Signal, 1)
	go func() {
		s := <-sigs
		caught <- s.(syscall.Signal)
		cancel()
	}()
	return ctx, func() {
		signal.Stop(sigs)
		select {
		case sig := <-caught:
			signal.Reset(sig)
			syscall.Kill(os.Getpid(), sig)
			time.Sleep(time.Second) // the signal is on its way
			os.Exit(128 + int(sig))
		default:
		}
	}
}
