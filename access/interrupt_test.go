package access

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestInterruptible: the call's result when it returns first; ctx's error
// at once when ctx ends first, with the late result handed to late.
func TestInterruptible(t *testing.T) {
	v, err := Interruptible(context.Background(), func() (int, error) { return 7, errors.New("x") }, nil)
	if v != 7 || err == nil || err.Error() != "x" || abandoned(context.Background(), err) {
		t.Errorf("returned first: %d, %v", v, err)
	}

	release := make(chan struct{})
	got := make(chan int, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	v, err = Interruptible(ctx, func() (int, error) { <-release; return 42, nil }, func(v int) { got <- v })
	if v != 0 || !errors.Is(err, context.Canceled) || !abandoned(ctx, err) {
		t.Errorf("abandoned: %d, %v", v, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("returned %v after the cancel", d)
	}
	select {
	case v := <-got:
		t.Errorf("late called with %d before the call returned", v)
	default:
	}
	close(release)
	select {
	case v := <-got:
		if v != 42 {
			t.Errorf("late got %d, want 42", v)
		}
	case <-time.After(5 * time.Second):
		t.Error("late never called")
	}
}
