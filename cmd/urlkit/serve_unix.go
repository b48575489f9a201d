//go:build unix

package main

import "syscall"

// descriptorLimit returns the process's limit on open files (the soft
// RLIMIT_NOFILE, which the Go runtime raises to the hard limit at start),
// or 0 when it cannot be read.
func descriptorLimit() int {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil || r.Cur > 1<<30 {
		return 0
	}
	return int(r.Cur)
}
