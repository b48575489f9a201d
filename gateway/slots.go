package gateway

import (
	"context"
	"net/netip"
	"sync"
	"time"
)

// slots are the upstream slots: at most max requests are served upstream
// at once, at most perClient of them for one client address and at most
// perTarget for one upstream address. A request that cannot have a slot
// waits; when one is given back it goes to the first waiting request, in
// order of arrival, whose client and target are under their caps, so one
// client or one slow upstream never holds every slot while others wait.
type slots struct {
	max, perClient, perTarget int
	// idle, when set, is called when the last slot has been given back
	// and none has been taken for idleAfter.
	idle      func()
	idleAfter time.Duration

	mu        sync.Mutex
	idleTimer *time.Timer
	idleArmed bool      // idleTimer is set
	idleSince time.Time // when the last slot taken was given back
	used      int
	byClient  map[clientID]int
	byTarget  map[string]int
	waiting   []*slotWaiter
}

type slotWaiter struct {
	client  clientID
	target  string
	ready   chan struct{}
	granted bool
}

func newSlots(max, perClient, perTarget int) *slots {
	return &slots{max: max, perClient: perClient, perTarget: perTarget,
		byClient: map[clientID]int{}, byTarget: map[string]int{}}
}

// can reports whether a request of client for target may have a slot
// now; s.mu is held.
func (s *slots) can(client clientID, target string) bool {
	return s.used < s.max && s.byClient[client] < s.perClient && s.byTarget[target] < s.perTarget
}

func (s *slots) take(client clientID, target string) {
	s.used++
	s.byClient[client]++
	s.byTarget[target]++
}

// acquire takes a slot for client and target, waiting until ctx ends; it
// reports whether it got one. Every waiting request is under a cap (a
// release grants the others), so one that can take a slot takes it
// without queueing behind them.
func (s *slots) acquire(ctx context.Context, client clientID, target string) bool {
	s.mu.Lock()
	if s.can(client, target) {
		s.take(client, target)
		s.mu.Unlock()
		return true
	}
	w := &slotWaiter{client: client, target: target, ready: make(chan struct{})}
	s.waiting = append(s.waiting, w)
	s.mu.Unlock()
	select {
	case <-w.ready:
		return true
	case <-ctx.Done():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if w.granted {
		return true // granted as the deadline came: the caller releases it
	}
	for i, x := range s.waiting {
		if x == w {
			s.waiting = append(s.waiting[:i], s.waiting[i+1:]...)
			break
		}
	}
	return false
}

// release gives back a slot of client and target and grants the waiting
// requests that may now have one.
func (s *slots) release(client clientID, target string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.used--
	if s.byClient[client]--; s.byClient[client] <= 0 {
		delete(s.byClient, client)
	}
	if s.byTarget[target]--; s.byTarget[target] <= 0 {
		delete(s.byTarget, target)
	}
	if s.used == 0 && s.idle != nil {
		// The time is noted; the timer is set only when it is not set
		// already (resetting it at each release cost more than the rest
		// of the release), and whenIdle waits on for what is left.
		s.idleSince = time.Now()
		if !s.idleArmed {
			s.idleArmed = true
			if s.idleTimer == nil {
				s.idleTimer = time.AfterFunc(s.idleAfter, s.whenIdle)
			} else {
				s.idleTimer.Reset(s.idleAfter)
			}
		}
	}
	for i := 0; i < len(s.waiting) && s.used < s.max; {
		w := s.waiting[i]
		if !s.can(w.client, w.target) {
			i++
			continue
		}
		s.take(w.client, w.target)
		w.granted = true
		close(w.ready)
		s.waiting = append(s.waiting[:i], s.waiting[i+1:]...)
	}
}

// whenIdle calls idle if no slot has been taken for idleAfter: a slot
// taken now makes it wait for the next release, one given back since the
// timer was set makes it wait for the rest of idleAfter from then.
func (s *slots) whenIdle() {
	s.mu.Lock()
	if s.used > 0 {
		s.idleArmed = false // the release that ends this use sets it again
		s.mu.Unlock()
		return
	}
	if left := s.idleAfter - time.Since(s.idleSince); left > 0 {
		s.idleTimer.Reset(left)
		s.mu.Unlock()
		return
	}
	s.idleArmed = false
	s.mu.Unlock()
	s.idle()
}

// inUse returns the number of slots taken.
func (s *slots) inUse() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
}

// clientKey is the client a request is counted against: its IP address,
// an IPv6 address by its /64 (the block one site is given); an address
// that does not parse counts as one unknown client.
type clientID = netip.Prefix

func clientKey(remoteAddr string) clientID {
	ap, err := netip.ParseAddrPort(remoteAddr)
	if err != nil {
		return clientID{}
	}
	ip := ap.Addr().Unmap().WithZone("")
	bits := 32
	if ip.Is6() {
		bits = 64
	}
	p, _ := ip.Prefix(bits)
	return p
}
