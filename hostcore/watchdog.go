package hostcore

import (
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"sync"
	"syscall"
)

// A watchdog kills the process groups of a host's stdio servers when the
// host dies without closing them: killed with SIGKILL, by the OOM killer,
// crashed. Pdeathsig (see procAttr) ends a server with the host on Linux,
// but not the children the server started (npx's node, a shell's
// pipeline), which live in its process group; nothing in a dead process
// can kill them, so another process must.
//
// The watchdog is a shell, started with the first stdio server, in its own
// process group (a ^C at the terminal does not reach it) and deaf to the
// signals a terminal sends. It reads "add PGID" and "del PGID" lines on
// its stdin; at EOF, which the kernel delivers when the host's end of the
// pipe closes however the host ends, it sends SIGKILL to every group still
// listed and exits. A group is listed from its start until the host has
// killed it (process.kill). Its methods are safe on nil and for concurrent
// use; if the shell cannot start, the host runs without one.
type watchdog struct {
	log *slog.Logger

	mu      sync.Mutex
	started bool
	closed  bool
	in      io.WriteCloser
	cmd     *exec.Cmd
	exited  chan struct{} // closed once the shell has been waited for
}

// watchdogScript is the watchdog: a POSIX shell script.
const watchdogScript = `trap '' HUP INT QUIT TERM PIPE
groups=' '
while read -r op pg; do
	case $op in
	add) groups="$groups$pg " ;;
	del) case $groups in *" $pg "*) groups="${groups%% $pg *} ${groups#* $pg }" ;; esac ;;
	esac
done
for pg in $groups; do kill -s KILL -- "-$pg" 2>/dev/null; done
`

// ready starts the watchdog, if it is not running yet.
func (w *watchdog) ready() {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.started && !w.closed {
		w.start()
	}
}

// add lists the process group pgid.
func (w *watchdog) add(pgid int) { w.send("add", pgid) }

// remove unlists the process group pgid.
func (w *watchdog) remove(pgid int) { w.send("del", pgid) }

func (w *watchdog) send(op string, pgid int) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.started && !w.closed {
		w.start()
	}
	if w.in == nil {
		return
	}
	if _, err := fmt.Fprintf(w.in, "%s %d\n", op, pgid); err != nil {
		w.log.Warn("the stdio servers' watchdog is gone; servers may outlive a crash of the host", "err", err)
		w.in.Close()
		w.in = nil
	}
}

// start starts the shell; w.mu is held.
func (w *watchdog) start() {
	w.started = true
	cmd := exec.Command("/bin/sh", "-c", watchdogScript)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	in, err := cmd.StdinPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		w.log.Warn("no watchdog for stdio servers; they may outlive a crash of the host", "err", err)
		return
	}
	w.in, w.cmd, w.exited = in, cmd, make(chan struct{})
	go func() {
		cmd.Wait()
		close(w.exited)
	}()
}

// close ends the watchdog, which then kills any group still listed, and
// waits for the shell to exit.
func (w *watchdog) close() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.closed = true
	if w.in != nil {
		w.in.Close()
		w.in = nil
	}
	exited := w.exited
	w.mu.Unlock()
	if exited != nil {
		<-exited
	}
}
