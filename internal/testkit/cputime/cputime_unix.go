//go:build unix

// Package cputime reads the process's CPU time, for tests and benchmarks
// that bound work by CPU time or by a ratio of CPU times rather than by
// wall time, which a loaded machine (or the race detector) stretches.
package cputime

import (
	"syscall"
	"time"
)

// Now returns the process's user and system CPU time so far.
func Now() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
