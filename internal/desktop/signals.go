package desktop

import (
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"fyne.io/fyne/v2"
)

// quitOnSignal quits the app on SIGINT, SIGTERM or SIGHUP, so that main
// goes on to close the host, which stops every stdio server and kills its
// process group, before the process ends. (Were the host killed outright,
// hostcore's watchdog and parent-death signal would end the servers.) It
// returns the exit code to end with: 128+N after signal N, else code.
// closeApp runs first, on the main goroutine while Fyne's loop still runs,
// as a close of the window would: it stops the app's background work, so
// that nothing it started lands on widgets after the loop has ended.
func quitOnSignal(fa fyne.App, closeApp func()) func(code int) int {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	var caught atomic.Int32
	go func() {
		s := <-sigs
		caught.Store(int32(s.(syscall.Signal)))
		fyne.Do(func() {
			closeApp()
			fa.Quit()
		})
	}()
	return func(code int) int {
		if n := caught.Load(); n != 0 {
			return 128 + int(n)
		}
		return code
	}
}
