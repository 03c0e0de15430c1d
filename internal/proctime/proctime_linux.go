//go:build linux

package proctime

import (
	"bytes"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// userHZ is the unit of /proc's clock ticks: USER_HZ, 100 on every Linux
// architecture Go runs on.
const userHZ = 100

// Start is when the kernel started this process: /proc/self/stat's
// starttime (clock ticks since boot) set against CLOCK_BOOTTIME. Ticks are
// whole, so it is up to 10 ms early, never late: a figure measured from it
// includes the exec, the dynamic linking and the initialisation of the
// runtime and of every package. ok is false if /proc cannot say.
func Start() (start time.Time, ok bool) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return time.Time{}, false
	}
	// The command's name, field 2, is in parentheses and may hold spaces:
	// the fields are counted after its closing one. starttime is field 22.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return time.Time{}, false
	}
	fields := bytes.Fields(b[i+1:])
	if len(fields) < 20 {
		return time.Time{}, false
	}
	ticks, err := strconv.ParseInt(string(fields[19]), 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	var boot unix.Timespec
	now := time.Now()
	if err := unix.ClockGettime(unix.CLOCK_BOOTTIME, &boot); err != nil {
		return time.Time{}, false
	}
	age := time.Duration(boot.Nano()) - time.Duration(ticks)*time.Second/userHZ
	if age < 0 {
		return time.Time{}, false
	}
	return now.Add(-age), true
}

// CPUTimes returns the CPU time used so far by the calling thread and by
// the whole process. On Fyne's main goroutine, which is locked to the
// process's first thread, the first is the CPU the window's own thread has
// spent: the part of the start-up that no other core can take on.
func CPUTimes() (thread, process time.Duration, ok bool) {
	var t, p unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &t) != nil || unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &p) != nil {
		return 0, 0, false
	}
	return time.Duration(t.Nano()), time.Duration(p.Nano()), true
}
