package access

import "context"

// Interruptible calls f on a goroutine of its own and returns its result,
// or ctx's error as soon as ctx ends, whichever comes first: for a call
// that nothing else can interrupt (opening a FIFO no one writes, reading a
// terminal or a pipe that never closes). An abandoned call runs on until
// it returns; then late, when not nil, is given its result, to release
// what it holds (close the file it opened).
//
// The error is ctx.Err() itself exactly when the call was abandoned, so a
// caller tells the two apart with ctx.Err() != nil && err == ctx.Err().
// The file client opens FIFOs with it, ReadBody reads a mail body with
// it, and the command line reads a password from the terminal with it.
func Interruptible[T any](ctx context.Context, f func() (T, error), late func(T)) (T, error) {
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := f()
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		if late != nil {
			go func() { late((<-ch).v) }()
		}
		var zero T
		return zero, ctx.Err()
	}
}

// abandoned reports whether err is the error Interruptible returns for a
// call it abandoned when ctx ended.
func abandoned(ctx context.Context, err error) bool {
	return err != nil && err == ctx.Err()
}
