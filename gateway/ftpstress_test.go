package gateway

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/internal/testkit/testio"
)

// Issue 36's ftp stall report: through urlkit serve's own server set-up
// (HTTPServer on Listener), many keep-alive clients fetch ftp files with
// every limit on the way small, so that requests wait for upstream slots
// and the kept ftp sessions are evicted all the time (FTPIdle 2, far
// fewer than the clients: about 40% of the requests log in, as at 32
// clients in bench/gateway). Some clients hang up mid-response, and some
// requests go to a server whose transfers stall. It checks what a hang
// would break: every request is answered within the request deadline
// (Timeout) and a margin, every complete body is the file exactly (a
// session kept in an unknown state, with its completion reply unread,
// RFC 959 5.4's 150-then-226 sequence cut short, would give the next
// request a reply to another command), and afterwards every upstream
// slot is given back, no more sessions are kept than FTPIdle, and every
// upstream control connection left open is a kept one. On a stall the
// goroutines are dumped, to show where it waits.
func TestFTPSessionsUnderStress(t *testing.T) {
	small := bytes.Repeat([]byte("small file, kept session.\n"), 80) // 2 KB: read whole before the answer
	big := bytes.Repeat([]byte("big file, streamed..\n"), 5000)      // 105 KB: more than prefetch, streamed
	other := []byte("in another directory\n")
	huge := bytes.Repeat([]byte("huge file, left mid-way\n"), 40000) // 1 MB: more than the sockets hold
	srv, err := fakeservers.FTP(map[string][]byte{"/pub/small.txt": small, "/pub/big.txt": big, "/etc/other.txt": other, "/pub/huge.txt": huge})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	stall := hostile.Serve(t, (&hostile.FTP{StallData: true, Files: map[string][]byte{"slow.bin": []byte("never sent")}}).Serve).Addr

	const timeout = 2 * time.Second
	cfg := allow(srv.Addr(), stall)
	cfg.Timeout = timeout
	cfg.MaxUpstream = 16
	cfg.MaxUpstreamPerTarget = 2 // requests wait for slots
	cfg.MaxConnsPerClient = 64
	cfg.FTPIdle = 2
	g := New(cfg)
	hs := g.HTTPServer()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(g.Listener(ln))
	defer func() {
		hs.Close()
		g.Close()
	}()
	addr := ln.Addr().String()

	files := []struct {
		url  string
		body []byte
	}{
		{"ftp://" + srv.Addr() + "/pub/small.txt", small},
		{"ftp://" + srv.Addr() + "/pub/big.txt", big},
		{"ftp://" + srv.Addr() + "/etc/other.txt", other},
		{"ftp://joe:pw@" + srv.Addr() + "/pub/small.txt", small},
	}
	const (
		clients  = 24
		requests = 40 // each
	)
	// A stalled request is answered 504 at the deadline; the margin
	// covers a loaded machine (and the race detector's slowness).
	limit := timeout + 3*time.Second
	if raceEnabled {
		limit = timeout + 8*time.Second
	}
	var (
		mu       sync.Mutex
		problems []string
		dumped   bool
	)
	report := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(problems) < 20 {
			problems = append(problems, fmt.Sprintf(format, args...))
		}
		if !dumped && strings.Contains(format, "stalled for") {
			dumped = true
			var b strings.Builder
			pprof.Lookup("goroutine").WriteTo(&b, 1)
			problems = append(problems, "goroutines at the stall:\n"+b.String())
		}
	}
	var wg sync.WaitGroup
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var c net.Conn
			var br *bufio.Reader
			defer func() {
				if c != nil {
					c.Close()
				}
			}()
			for k := 0; k < requests; k++ {
				f := files[(i+k)%len(files)]
				stalls := i%12 == 0 && k == 0  // two clients start with a stalled transfer
				hangUp := i%5 == 1 && k%4 == 1 // and some leave in the middle of the huge file
				target := f.url
				if stalls {
					target = "ftp://" + stall + "/slow.bin"
				} else if hangUp {
					target = "ftp://" + srv.Addr() + "/pub/huge.txt"
				}
				if c != nil && hangUp {
					c.Close()
					c = nil
				}
				if c == nil {
					var err error
					if c, err = net.Dial("tcp", addr); err != nil {
						report("dial: %v", err)
						return
					}
					br = bufio.NewReader(c)
					if hangUp {
						// A small window: the huge file fills it and the
						// gateway is still writing when the client leaves.
						c.(*net.TCPConn).SetReadBuffer(8 << 10)
					}
				}
				start := time.Now()
				c.SetDeadline(start.Add(limit))
				fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: gw\r\n\r\n", target)
				resp, err := http.ReadResponse(br, nil)
				if err == nil && hangUp {
					io.ReadFull(resp.Body, make([]byte, 100))
					c.Close() // mid-response: the gateway's request ends
					c = nil
					continue
				}
				var body []byte
				if err == nil {
					body, err = io.ReadAll(resp.Body)
				}
				took := time.Since(start)
				switch {
				case err != nil:
					if ne, ok := err.(net.Error); ok && ne.Timeout() {
						report("client %d request %d: %s stalled for %v", i, k, target, took)
					} else {
						report("client %d request %d: %s: %v", i, k, target, err)
					}
					c.Close()
					c = nil
					continue
				case stalls:
					if resp.StatusCode != http.StatusGatewayTimeout {
						report("client %d: the transfer that stalls got %d %q, want 504", i, resp.StatusCode, body)
					}
				case resp.StatusCode != 200 || !bytes.Equal(body, f.body):
					report("client %d request %d: %s: %d, %d bytes %.60q (want the file's %d)", i, k, target, resp.StatusCode, len(body), body, len(f.body))
				}
				if resp.Close {
					c.Close()
					c = nil
				}
			}
		}(i)
	}
	wg.Wait()
	for _, p := range problems {
		t.Error(p)
	}
	// Everything given back: the slots, the client connections, and no
	// upstream control connection open but the kept sessions.
	if !testio.Eventually(func() bool { return g.slots.inUse() == 0 }) {
		t.Errorf("%d upstream slots still taken after every request ended", g.slots.inUse())
	}
	if n := g.sessions.Len(); n > cfg.FTPIdle {
		t.Errorf("%d ftp sessions kept, more than FTPIdle (%d)", n, cfg.FTPIdle)
	}
	if !testio.Eventually(func() bool { return srv.Open() == g.sessions.Len() }) {
		t.Errorf("%d ftp control connections open upstream, %d sessions kept", srv.Open(), g.sessions.Len())
	}
	t.Logf("%d logins for %d requests", srv.Logins.Load(), clients*requests)
}
