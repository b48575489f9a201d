package main

import (
	"context"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// stopSignals are the signals that stop get cleanly: the transfer is
// abandoned, its temporary file removed (or kept as NAME.part with
// --keep-partial) and the target left as it was. Ctrl-C sends SIGINT;
// kill sends SIGTERM; closing the terminal sends SIGHUP.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// stopOnSignals returns a context that ends at the first of stopSignals,
// a function giving the exit status for it (128 plus the signal's number,
// as a shell reports a process the signal ended: 130 for SIGINT, 143 for
// SIGTERM, 129 for SIGHUP; 0 when none came), and a function that stops
// watching.
func stopOnSignals() (ctx context.Context, status func() int, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, stopSignals...)
	var got atomic.Int32
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			if n, ok := s.(syscall.Signal); ok {
				got.Store(int32(n))
			}
			cancel()
		case <-done:
		}
	}()
	status = func() int {
		if n := got.Load(); n != 0 {
			return 128 + int(n)
		}
		return exitInterrupted
	}
	stop = func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
	return ctx, status, stop
}
