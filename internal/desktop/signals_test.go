package desktop

import (
	"os"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

// A signal closes the app (its background work stops, on the main
// goroutine, before the quit), and the process ends with 128+N. Without the close first, work in
// flight landed on widgets after the loop and printed "should have been
// called in fyne.Do" for each.
func TestSignalClosesTheAppFirst(t *testing.T) {
	fa := test.NewTempApp(t)
	var closed atomic.Bool
	exitCode := quitOnSignal(fa, func() { closed.Store(true) })
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !closed.Load() {
		if time.Now().After(deadline) {
			t.Fatal("SIGHUP did not close the app")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if got := exitCode(0); got != 128+int(syscall.SIGHUP) {
		t.Errorf("exit code after SIGHUP = %d, want %d", got, 128+int(syscall.SIGHUP))
	}
}
