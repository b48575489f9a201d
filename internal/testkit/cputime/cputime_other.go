//go:build !unix

// Package cputime reads the process's CPU time, for tests and benchmarks
// that bound work by CPU time or by a ratio of CPU times rather than by
// wall time, which a loaded machine (or the race detector) stretches.
package cputime

import "time"

var start = time.Now()

// Now returns the wall time since the program started, where the CPU time
// cannot be read.
func Now() time.Duration { return time.Since(start) }
