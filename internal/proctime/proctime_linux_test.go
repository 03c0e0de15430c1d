package proctime

import (
	"testing"
	"time"
)

// The process's start comes from the kernel: before main ran, so before
// any time the test takes, and not long before (a test binary is young).
func TestProcessStart(t *testing.T) {
	now := time.Now()
	start, ok := Start()
	if !ok {
		t.Fatal("Start: /proc did not say")
	}
	if start.After(now) || now.Sub(start) > time.Hour {
		t.Errorf("the process started at %v, %v before now: want a little before", start, now.Sub(start))
	}
}

// The calling thread's CPU time is part of the process's.
func TestCPUTimes(t *testing.T) {
	for i := 0; i < 1e6; i++ { // spend a little CPU
		_ = time.Duration(i).String()
	}
	thread, process, ok := CPUTimes()
	if !ok || thread <= 0 || process < thread {
		t.Errorf("CPUTimes() = %v, %v, %v; want 0 < thread <= process", thread, process, ok)
	}
}
