package access

import (
	"context"
	"errors"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/scheme"
)

// A silent Prospero server and 16 concurrent requests with a deadline,
// while every CPU is kept busy (issue 34, finding 1: under load the
// context's timer fires late, and a receive loop that trusted ctx.Err()
// alone resent the request in a busy loop at the deadline, hundreds of
// datagrams a socket). Each request's datagrams are counted at the server
// by source address (one connected socket a request): at most
// ardpMaxSends, the documented bound; and each receive loop woke up for a
// bounded number of read timeouts (a loop spinning on a deadline already
// past wakes thousands of times without sending).
//
// The second round retransmits every 20 ms (doubling), so that the hard
// count is reached before the deadline: it must hold there too.
func TestARDPNoStormAtDeadline(t *testing.T) {
	for _, first := range []time.Duration{ardpFirstRetry, 20 * time.Millisecond} {
		t.Run(first.String(), func(t *testing.T) {
			defer func(d time.Duration) { ardpFirstRetry = d }(ardpFirstRetry)
			ardpFirstRetry = first
			ardpStorm(t)
		})
	}
}

func ardpStorm(t *testing.T) {
	const (
		requests = 16
		bound    = 4 // the documented bound (ardpMaxSends)
	)
	var mu sync.Mutex
	per := map[string]int{}
	s := hostile.ServeUDP(t, func(_ *hostile.UDPServer, from net.Addr, _ []byte) {
		mu.Lock()
		per[from.String()]++
		mu.Unlock()
	})
	var wakeups []int
	ardpStats = func(sends, w int) {
		mu.Lock()
		wakeups = append(wakeups, w)
		mu.Unlock()
	}
	defer func() { ardpStats = nil }()

	// Busy CPUs: a spinning goroutine per processor.
	var stop atomic.Bool
	var spinners sync.WaitGroup
	for i := 0; i < runtime.GOMAXPROCS(0); i++ {
		spinners.Add(1)
		go func() {
			defer spinners.Done()
			n := 0
			for !stop.Load() {
				n++
			}
		}()
	}
	defer func() { stop.Store(true); spinners.Wait() }()

	plan := planFor(t, "prospero://"+s.Addr+"//x", scheme.Config{})
	var wg sync.WaitGroup
	errs := make([]error, requests)
	for i := range requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// As the gateway's per-request timeout: a context deadline
			// (max-time is another).
			ctx, cancel := context.WithTimeout(context.Background(), 1200*time.Millisecond)
			defer cancel()
			_, errs[i] = Execute(ctx, plan, &Options{ReadTimeout: 5 * time.Second})
		}()
	}
	wg.Wait()
	stop.Store(true)
	time.Sleep(100 * time.Millisecond) // datagrams in flight arrive
	for i, err := range errs {
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("request %d: %v, want the deadline's error", i, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	total := 0
	for from, n := range per {
		total += n
		if n > bound {
			t.Errorf("%s sent %d datagrams, more than the bound of %d", from, n, bound)
		}
	}
	if len(per) != requests {
		t.Errorf("%d sockets sent, want %d", len(per), requests)
	}
	for _, w := range wakeups {
		if w > bound+2 {
			t.Errorf("a receive loop woke up %d times for %d sends at most: it spins", w, bound)
		}
	}
	if len(wakeups) != requests {
		t.Errorf("%d receive loops reported, want %d", len(wakeups), requests)
	}
	t.Logf("%d requests sent %d datagrams (at most %d each); wakeups %v", requests, total, bound, wakeups)
}
