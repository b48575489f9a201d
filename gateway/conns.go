package gateway

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/urlkit/urlkit/access"
)

// Client connections are bounded: at most MaxConns open at once and at
// most MaxConnsPerClient from one client address (MaxConns/16 by default,
// so that a handful of addresses cannot fill the gateway). A connection
// beyond a cap first makes room by closing a connection that is doing
// nothing: an idle keep-alive connection, or one that has sent nothing
// yet (a connection held open without a request, as a flood holds it).
// For the per-client cap it is that client's oldest; for MaxConns, the
// oldest of the client holding the most connections. When none can give
// way, the new connection is answered 503: the answer is written, the
// sending side shut, and whatever the client sent is read (for a moment,
// a bounded number at once) before the close, so that the client reads
// the 503 rather than a reset. The header and idle timeouts of
// HTTPServer end the connections that send nothing. Listener applies the
// caps; HTTPServer's ConnState tells it which connections are idle.

// Defaults of the client-connection limits of Config.
const (
	DefaultMaxConns = 256
	// DefaultMaxConnsPerClient is MaxConns/16 for the default MaxConns;
	// a MaxConns of another size gets MaxConns/16 (at least 4).
	DefaultMaxConnsPerClient = DefaultMaxConns / 16
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
	// idle and since change with each request (connState), without the
	// tracker's lock.
	idle  atomic.Bool  // between requests of a keep-alive connection
	since atomic.Int64 // when it was accepted, or last became idle (monoNow)
	sent  atomic.Bool  // a byte has been read from it
}

// doingNothing reports whether the connection may give way to a new
// one: idle between requests, or nothing sent since it was accepted.
func (in *connInfo) doingNothing() bool { return in.idle.Load() || !in.sent.Load() }

// monoEpoch and monoNow give the times connections are ordered by: the
// monotonic clock's nanoseconds since the package started.
var monoEpoch = time.Now()

func monoNow() int64 { return int64(time.Since(monoEpoch)) }

// trackedConn is a client connection as Listener returns it: its first
// byte read is noted (connInfo.sent).
type trackedConn struct {
	net.Conn
	in *connInfo
}

func (c *trackedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && !c.in.sent.Load() {
		c.in.sent.Store(true)
	}
	return n, err
}

// CloseWrite shuts the sending side, as net/http does after a response
// it closes the connection for.
func (c *trackedConn) CloseWrite() error {
	if cw, ok := socket(c.Conn).(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// socket returns the connection under the listener's wrappers (the
// request-line reader, reqline.go): the socket itself, to write the
// refusal to and to shut.
func socket(c net.Conn) net.Conn {
	for {
		switch w := c.(type) {
		case *trackedConn:
			c = w.Conn
		case *requestLineConn:
			c = w.Conn
		default:
			return c
		}
	}
}

func newConnTracker(max, perClient int) *connTracker {
	return &connTracker{max: max, perClient: perClient, conns: map[net.Conn]*connInfo{}, byClient: map[clientID]int{}}
}

// admit decides on a connection just accepted: it is counted and
// returned, tracked, after closing a connection doing nothing that makes
// room for it if a cap is reached; or nil is returned when none can give
// way.
func (t *connTracker) admit(raw net.Conn) net.Conn {
	c := &trackedConn{Conn: raw, in: &connInfo{}}
	c.in.since.Store(monoNow())
	client := clientKey(c.RemoteAddr().String())
	c.in.client = client
	var victims []net.Conn
	t.mu.Lock()
	if t.byClient[client] >= t.perClient {
		v := t.victim(client, false)
		if v == nil {
			t.mu.Unlock()
			return nil
		}
		victims = append(victims, v)
		t.forget(v)
	}
	if len(t.conns) >= t.max {
		v := t.victim(clientID{}, true)
		if v == nil {
			t.mu.Unlock()
			for _, v := range victims {
				v.Close()
			}
			return nil
		}
		victims = append(victims, v)
		t.forget(v)
	}
	t.conns[c] = c.in
	t.byClient[client]++
	t.mu.Unlock()
	for _, v := range victims {
		v.Close() // its serving goroutine sees the close and ends
	}
	return c
}

// victim returns the connection to close to make room: of those doing
// nothing (idle keep-alive, or nothing sent yet), client's oldest; or,
// with any set, the oldest of the client holding the most connections.
// t.mu is held.
func (t *connTracker) victim(client clientID, any bool) net.Conn {
	var best net.Conn
	var bestIn *connInfo
	for c, in := range t.conns {
		if !in.doingNothing() || !any && in.client != client {
			continue
		}
		if best == nil {
			best, bestIn = c, in
			continue
		}
		if any {
			n, bn := t.byClient[in.client], t.byClient[bestIn.client]
			if n != bn {
				if n > bn {
					best, bestIn = c, in
				}
				continue
			}
		}
		if in.since.Load() < bestIn.since.Load() {
			best, bestIn = c, in
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
// active and idle, and forgets it when it is closed. The connection is
// the one Listener returned: its record is marked without the tracker's
// lock, which is taken once for each connection, not for each request.
func (t *connTracker) connState(c net.Conn, s http.ConnState) {
	switch s {
	case http.StateActive, http.StateIdle:
		if tc, ok := c.(*trackedConn); ok {
			if s == http.StateIdle {
				tc.in.since.Store(monoNow())
			}
			tc.in.idle.Store(s == http.StateIdle)
		}
	case http.StateClosed, http.StateHijacked:
		t.mu.Lock()
		t.forget(c)
		t.mu.Unlock()
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
		if tc := l.t.admit(c); tc != nil {
			return tc, nil
		}
		l.refuse(c)
	}
}

// Bounds of the refusals' lingering: how many connections answered 503
// are read from at once, for how long and how much.
const (
	maxLingering  = 64
	lingerTime    = time.Second
	lingerReadMax = 64 << 10
)

// lingering counts the refused connections being read from.
var lingering = make(chan struct{}, maxLingering)

// refuse answers c 503 and closes it. Closing a socket whose received
// data is unread makes the kernel send a reset, which may reach the
// client before the answer is read (and the answer is lost): so the
// sending side is shut after the answer (the client reads it, then end
// of file), and what the client sent is read until it closes, for at
// most lingerTime and lingerReadMax bytes, then the socket is closed.
// At most maxLingering refused connections linger at once; beyond that
// they are closed at once.
func (l *limitListener) refuse(c net.Conn) {
	c = socket(c)
	// A fresh socket's send buffer is empty: this write does not block.
	c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
	c.Write(busy)
	cw, ok := c.(interface{ CloseWrite() error })
	if !ok {
		c.Close()
		return
	}
	select {
	case lingering <- struct{}{}:
	default:
		c.Close()
		return
	}
	cw.CloseWrite()
	go func() {
		defer func() { <-lingering }()
		defer c.Close()
		c.SetReadDeadline(time.Now().Add(lingerTime))
		io.Copy(io.Discard, io.LimitReader(c, lingerReadMax))
	}()
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
