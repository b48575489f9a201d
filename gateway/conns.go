package gateway

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/urlkit/urlkit/access"
)

// Client connections are bounded: at most MaxConns open at once and at
// most MaxConnsPerClient from one client address. A connection beyond a
// cap first makes room by closing the oldest idle keep-alive connection
// (of that client, for the per-client cap); when none is idle, the new
// connection is answered 503 and closed before any request is read from
// it. The header and idle timeouts of HTTPServer end the connections that
// send nothing. Listener applies the caps; HTTPServer's ConnState tells it
// which connections are idle.

// Defaults of the client-connection limits of Config.
const (
	DefaultMaxConns          = 256
	DefaultMaxConnsPerClient = 64
	DefaultHeaderTimeout     = 10 * time.Second
	DefaultIdleTimeout       = 30 * time.Second
	// MaxHeaderBytes bounds a request's header (net/http adds 4 KiB).
	MaxHeaderBytes = 32 << 10
)

// connTracker knows each open client connection's client and state.
type connTracker struct {
	max, perClient int

	mu       sync.Mutex
	conns    map[net.Conn]*connInfo
	byClient map[clientID]int
}

type connInfo struct {
	client clientID
	idle   bool
	since  time.Time // when it became idle
}

func newConnTracker(max, perClient int) *connTracker {
	return &connTracker{max: max, perClient: perClient, conns: map[net.Conn]*connInfo{}, byClient: map[clientID]int{}}
}

// admit decides on a connection just accepted: it is counted and true
// returned, after closing the oldest idle connection that makes room for
// it if a cap is reached; or false when no idle connection can give way.
func (t *connTracker) admit(c net.Conn) bool {
	client := clientKey(c.RemoteAddr().String())
	var victims []net.Conn
	t.mu.Lock()
	if t.byClient[client] >= t.perClient {
		v := t.oldestIdle(client, false)
		if v == nil {
			t.mu.Unlock()
			return false
		}
		victims = append(victims, v)
		t.forget(v)
	}
	if len(t.conns) >= t.max {
		v := t.oldestIdle(clientID{}, true)
		if v == nil {
			t.mu.Unlock()
			for _, v := range victims {
				v.Close()
			}
			return false
		}
		victims = append(victims, v)
		t.forget(v)
	}
	t.conns[c] = &connInfo{client: client}
	t.byClient[client]++
	t.mu.Unlock()
	for _, v := range victims {
		v.Close() // its serving goroutine sees the close and ends
	}
	return true
}

// oldestIdle returns the connection idle the longest, of client unless
// any is set; t.mu is held.
func (t *connTracker) oldestIdle(client clientID, any bool) net.Conn {
	var best net.Conn
	var since time.Time
	for c, in := range t.conns {
		if in.idle && (any || in.client == client) && (best == nil || in.since.Before(since)) {
			best, since = c, in.since
		}
	}
	return best
}

// forget stops counting c; t.mu is held.
func (t *connTracker) forget(c net.Conn) {
	in, ok := t.conns[c]
	if !ok {
		return
	}
	delete(t.conns, c)
	if t.byClient[in.client]--; t.byClient[in.client] <= 0 {
		delete(t.byClient, in.client)
	}
}

// connState is http.Server.ConnState: it follows each connection between
// active and idle, and forgets it when it is closed.
func (t *connTracker) connState(c net.Conn, s http.ConnState) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch s {
	case http.StateActive:
		if in := t.conns[c]; in != nil {
			in.idle = false
		}
	case http.StateIdle:
		if in := t.conns[c]; in != nil {
			in.idle, in.since = true, time.Now()
		}
	case http.StateClosed, http.StateHijacked:
		t.forget(c)
	}
}

// open returns the number of client connections counted.
func (t *connTracker) open() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.conns)
}

// limitListener applies the tracker's caps to each connection accepted.
type limitListener struct {
	net.Listener
	t *connTracker
}

// busy is the answer to a connection beyond the caps.
var busy = func() []byte {
	const body = "urlkit gateway: 503 Service Unavailable: too many connections, none idle; try again in a moment\n"
	return []byte(fmt.Sprintf("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(body), body))
}()

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.t.admit(c) {
			return c, nil
		}
		// A fresh socket's send buffer is empty: this write does not block.
		c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
		c.Write(busy)
		c.Close()
	}
}

// Listener returns ln with the gateway's client-connection caps applied,
// and the request lines net/http would refuse passed on to the handler
// (reqline.go): serve HTTPServer on it (urlkit serve does).
func (g *Gateway) Listener(ln net.Listener) net.Listener {
	return &limitListener{Listener: requestLineListener{ln, g}, t: g.conns} // reqline.go
}

// Descriptors returns the most file descriptors a gateway with c uses
// (its zero fields read as their defaults): a client connection each, two
// upstream connections per upstream slot (an ftp control and data
// connection), the kept ftp sessions, and 32 for the listener, the log
// and the runtime.
func (c Config) Descriptors() int {
	d := c.withDefaults()
	ftp := d.FTPIdle
	if ftp <= 0 {
		ftp = access.DefaultFTPIdleTotal
	}
	return d.MaxConns + 2*d.MaxUpstream + ftp + 32
}

// FitDescriptors lowers c.MaxConns, if it must, so that the gateway stays
// within limit descriptors (the process's RLIMIT_NOFILE), and says what it
// did; it leaves at least 16 client connections, and says so when even
// that does not fit.
func (c *Config) FitDescriptors(limit int) string {
	need := c.Descriptors()
	if need <= limit {
		return ""
	}
	conns := c.withDefaults().MaxConns
	fit := conns - (need - limit)
	if fit < 16 {
		c.MaxConns = 16
		return fmt.Sprintf("the descriptor limit (%d) is below what the gateway needs even with 16 client connections (%d); raise it (ulimit -n) or lower --max-upstream", limit, need-conns+16)
	}
	c.MaxConns = fit
	return fmt.Sprintf("client connections capped at %d to stay within the descriptor limit (%d; ulimit -n)", fit, limit)
}
