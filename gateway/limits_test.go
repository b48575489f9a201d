package gateway

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/internal/testkit/testio"
)

// Upstream slots (issue 21 item 6): one client, or one upstream, holds at
// most its share; a slot given back goes to the first waiting request
// under both caps, in order of arrival.
func TestSlotsFairness(t *testing.T) {
	s := newSlots(4, 2, 2)
	ctx := context.Background()
	id := func(name string) clientID { return clientKey(fmt.Sprintf("192.0.2.%d:1", name[0])) }
	short := func() context.Context {
		c, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		t.Cleanup(cancel)
		return c
	}
	// Client a: two slots, then its third waits.
	if !s.acquire(ctx, id("a"), "t1") || !s.acquire(ctx, id("a"), "t2") {
		t.Fatal("a's first two")
	}
	if s.acquire(short(), id("a"), "t3") {
		t.Error("a third slot for client a")
	}
	// Target t1 has one; b's request for t1 is its second: allowed.
	if !s.acquire(ctx, id("b"), "t1") {
		t.Fatal("b, t1")
	}
	// t1 is at its cap now: c waits for t1 but not for t4.
	if s.acquire(short(), id("c"), "t1") {
		t.Error("a third slot for target t1")
	}
	if !s.acquire(ctx, id("c"), "t4") {
		t.Fatal("c, t4")
	}
	if n := s.inUse(); n != 4 {
		t.Fatalf("%d in use", n)
	}
	// All four taken: d waits, then e (for t1, capped), then f. A slot of
	// a (t2) given back goes to d, the first waiting; e stays capped by t1
	// when b's slot goes back, and f (arrived after e) gets it.
	got := make(chan string, 3)
	var wg sync.WaitGroup
	for _, w := range []struct{ client, target string }{{"d", "t5"}, {"e", "t1"}, {"f", "t6"}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if s.acquire(ctx, id(w.client), w.target) {
				got <- w.client
			}
		}()
		time.Sleep(20 * time.Millisecond) // in this order
	}
	s.release(id("a"), "t2")
	if w := <-got; w != "d" {
		t.Errorf("the freed slot went to %s, want d", w)
	}
	s.release(id("c"), "t4") // t1 still has a and b: e waits, f goes
	if w := <-got; w != "f" {
		t.Errorf("the freed slot went to %s, want f (e's target is at its cap)", w)
	}
	s.release(id("a"), "t1")
	if w := <-got; w != "e" {
		t.Errorf("the freed slot went to %s, want e", w)
	}
	wg.Wait()
	for _, h := range []struct{ c, t string }{{"b", "t1"}, {"d", "t5"}, {"e", "t1"}, {"f", "t6"}} {
		s.release(id(h.c), h.t)
	}
	if n := s.inUse(); n != 0 || len(s.byClient) != 0 || len(s.byTarget) != 0 || len(s.waiting) != 0 {
		t.Errorf("after all: %d in use, %v, %v, %d waiting", n, s.byClient, s.byTarget, len(s.waiting))
	}
}

// The idle call (the gateway gives its memory back after a burst,
// gateway.go): made once the last slot has been given back and none has
// been taken for idleAfter, not while a slot is held, and counted from the
// last release, not the first.
func TestSlotsIdle(t *testing.T) {
	s := newSlots(4, 4, 4)
	calls := make(chan time.Time, 8)
	s.idle, s.idleAfter = func() { calls <- time.Now() }, 150*time.Millisecond
	ctx, c := context.Background(), clientKey("192.0.2.1:1")
	use := func() { s.acquire(ctx, c, "t"); s.release(c, "t") }
	start := time.Now()
	use()
	// Released again at 100 ms: the call waits until 250 ms at least.
	time.Sleep(100 * time.Millisecond)
	last := time.Now()
	use()
	select {
	case at := <-calls:
		if at.Sub(last) < s.idleAfter {
			t.Errorf("called %v after the last release, %v after the first; want %v after the last", at.Sub(last), at.Sub(start), s.idleAfter)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("never called")
	}
	// Held across the timer: no call while it is held, one after.
	s.acquire(ctx, c, "t")
	s.release(c, "t")
	s.acquire(ctx, c, "t")
	select {
	case <-calls:
		t.Fatal("called while a slot is held")
	case <-time.After(2 * s.idleAfter):
	}
	s.release(c, "t")
	select {
	case <-calls:
	case <-time.After(5 * time.Second):
		t.Fatal("never called after the slot was given back")
	}
	select {
	case <-calls:
		t.Error("called twice for one idle time")
	case <-time.After(2 * s.idleAfter):
	}
}

// dialFrom connects to addr from the loopback address from (127.0.0.x:
// another client, as the gateway counts them), or skips the test where
// such addresses cannot be used.
func dialFrom(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		if strings.Contains(err.Error(), "assign requested address") {
			t.Skipf("cannot connect from %s: %v", from, err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// get sends one keep-alive request on c and reads the response.
func get(t *testing.T, c net.Conn, br *bufio.Reader, host, target string) (int, string) {
	t.Helper()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, host)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return 0, err.Error()
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, string(b)
}

// serveCapped runs g as urlkit serve does: HTTPServer on Listener.
func serveCapped(t *testing.T, g *Gateway) string {
	t.Helper()
	s := httptest.NewUnstartedServer(g)
	s.Config = g.HTTPServer()
	s.Listener = g.Listener(s.Listener)
	s.Start()
	t.Cleanup(s.Close)
	return s.Listener.Addr().String()
}

// The case: requests to a silent upstream hold no more than their
// share of the slots, so another client's request, and the same client's
// request to another server, are served at once.
func TestSlowUpstreamFairness(t *testing.T) {
	silent := hostile.Serve(t, hostile.Silent)
	good := gopherServer(t, map[string][]byte{"/a": []byte("good")})
	cfg := allow(silent.Addr, good)
	cfg.MaxUpstream, cfg.ReadTimeout, cfg.Timeout = 8, 20*time.Second, 20*time.Second
	cfg.MaxConnsPerClient = 32 // 16 connections held and one more, from one client
	g := New(cfg)
	addr := serveCapped(t, g)
	for i := 0; i < 16; i++ {
		c := dialFrom(t, "127.0.0.2", addr)
		fmt.Fprintf(c, "GET /gopher://%s/0x%d HTTP/1.1\r\nHost: %s\r\n\r\n", silent.Addr, i, addr)
	}
	if !testio.Eventually(func() bool { return silent.Accepted() >= 1 }) {
		t.Fatalf("%s: not within 5 s", "the silent requests are accepted")
	}
	time.Sleep(100 * time.Millisecond)
	if n := g.slots.inUse(); n > 1 {
		t.Errorf("%d slots held by requests to one silent server, want 1 (MaxUpstream/8)", n)
	}
	for _, from := range []string{"127.0.0.3", "127.0.0.2"} {
		c := dialFrom(t, from, addr)
		start := time.Now()
		status, body := get(t, c, bufio.NewReader(c), addr, "/gopher://"+good+"/9/a")
		if status != 200 || body != "good" || time.Since(start) > 2*time.Second {
			t.Errorf("from %s: %d %q after %v", from, status, body, time.Since(start))
		}
	}
}

// Client connections (issue 21 item 6): one client's idle keep-alive
// connections give way to its new ones beyond MaxConnsPerClient, and
// anyone's beyond MaxConns; when none is idle, a new connection is
// answered 503 before anything is read from it. Other clients are served
// throughout.
func TestConnectionCaps(t *testing.T) {
	up := gopherServer(t, map[string][]byte{"/a": []byte("a")})
	cfg := allow(up)
	cfg.MaxConns, cfg.MaxConnsPerClient = 12, 5
	g := New(cfg)
	addr := serveCapped(t, g)
	target := "/gopher://" + up + "/9/a"
	// 20 keep-alive connections from one client, each used once and left
	// idle: at most 5 stay open.
	var idle []net.Conn
	for i := 0; i < 20; i++ {
		c := dialFrom(t, "127.0.0.2", addr)
		idle = append(idle, c)
		if status, body := get(t, c, bufio.NewReader(c), addr, target); status != 200 {
			t.Fatalf("connection %d: %d %q", i, status, body)
		}
	}
	if !testio.Eventually(func() bool { return g.conns.open() <= 5 }) {
		t.Fatalf("%s: not within 5 s", "one client's idle connections give way")
	}
	// Other clients fill the gateway with idle connections: it keeps 12.
	for i := 0; i < 20; i++ {
		c := dialFrom(t, fmt.Sprintf("127.0.0.%d", 3+i%4), addr)
		idle = append(idle, c)
		if status, body := get(t, c, bufio.NewReader(c), addr, target); status != 200 {
			t.Fatalf("other client %d: %d %q", i, status, body)
		}
	}
	if !testio.Eventually(func() bool { return g.conns.open() <= 12 }) {
		t.Fatalf("%s: not within 5 s", "the gateway's idle connections give way")
	}
	for _, c := range idle {
		c.Close()
	}
	if !testio.Eventually(func() bool { return g.conns.open() == 0 }) {
		t.Fatalf("%s: not within 5 s", "closed connections forgotten")
	}
	// Twelve connections busy (header half sent: active, not idle): the
	// thirteenth is answered 503, and served once one is free.
	var busyConns []net.Conn
	for i := 0; i < 12; i++ {
		c := dialFrom(t, fmt.Sprintf("127.0.0.%d", 10+i%4), addr)
		fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n", target, addr) // no blank line yet
		busyConns = append(busyConns, c)
	}
	if !testio.Eventually(func() bool { return g.conns.open() == 12 && idleConns(g) == 0 }) {
		t.Fatalf("%s: not within 5 s", "twelve connections counted, none idle")
	}
	c := dialFrom(t, "127.0.0.20", addr)
	status, body := get(t, c, bufio.NewReader(c), addr, target)
	if status != 503 || !strings.Contains(body, "too many connections") {
		t.Errorf("beyond the cap with none idle: %d %q, want 503", status, body)
	}
	for _, b := range busyConns {
		b.Close()
	}
	if !testio.Eventually(func() bool { return g.conns.open() == 0 }) {
		t.Fatalf("%s: not within 5 s", "closed connections forgotten")
	}
	c = dialFrom(t, "127.0.0.20", addr)
	if status, body := get(t, c, bufio.NewReader(c), addr, target); status != 200 {
		t.Errorf("after: %d %q", status, body)
	}
}

// idleConns counts the client connections doing nothing (idle, or
// nothing sent yet): those that may give way.
func idleConns(g *Gateway) int {
	g.conns.mu.Lock()
	defer g.conns.mu.Unlock()
	n := 0
	for _, in := range g.conns.conns {
		if in.doingNothing() {
			n++
		}
	}
	return n
}

// The descriptor budget: one per client connection, two per slot, the
// kept ftp sessions and 32 more; FitDescriptors lowers MaxConns to fit a
// limit and says so, and says when even 16 connections do not fit.
func TestFitDescriptors(t *testing.T) {
	if n := (Config{}).Descriptors(); n != 256+2*64+32+32 {
		t.Errorf("defaults: %d descriptors", n)
	}
	c := Config{}
	if note := c.FitDescriptors(1024); note != "" || c.MaxConns != 0 {
		t.Errorf("1024: %q, MaxConns %d", note, c.MaxConns)
	}
	if note := c.FitDescriptors(300); c.MaxConns != 108 || !strings.Contains(note, "capped at 108") || c.Descriptors() != 300 {
		t.Errorf("300: %q, MaxConns %d, %d descriptors", note, c.MaxConns, c.Descriptors())
	}
	c = Config{MaxUpstream: 8}
	if note := c.FitDescriptors(50); c.MaxConns != 16 || !strings.Contains(note, "below what the gateway needs") {
		t.Errorf("50: %q, MaxConns %d", note, c.MaxConns)
	}
}
