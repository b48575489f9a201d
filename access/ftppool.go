package access

import (
	"bufio"
	"errors"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/urlkit/urlkit/scheme"
)

// FTPSessions keeps FTP control connections open between retrievals so
// that the next retrieval from the same server, as the same user, in the
// same directory, skips the connection, the greeting, USER, PASS and the
// CWD commands: it sends only what the plan asks beyond the state the
// session is already in (TYPE when it differs, then EPSV and RETR or
// NLST). A gateway sets it (Options.FTPSessions); urlkit get does not.
//
// A session is kept only in a state known exactly: logged in as the plan's
// user, its working directory the one the plan's CWD commands reached, its
// transfer type the last TYPE sent, after a transfer whose completion
// reply was 2xx, with nothing unread on the connection and the context not
// ended. Sessions are keyed by address, user, password and the CWD lines,
// so a session is never reused for another login or another directory. A
// kept session that the server has since closed is noticed before use (a
// read that does not block finds EOF or data) and dropped; a reused
// session that fails before its transfer starts is dropped and the plan is
// carried out again on a new connection. The zero value is ready to use.
//
// What is kept is bounded three ways (MaxIdle per key, MaxIdlePerHost per
// server address, MaxIdleTotal in all; the oldest idle session gives way
// to a newer one) and in time: a reaper closes each session IdleTimeout
// after it was put back, sending QUIT first, so a burst of requests leaves
// no connection open once it is over. Close closes them all the same way.
type FTPSessions struct {
	// MaxIdle is the most idle sessions kept per key: one server, login
	// and directory (zero: DefaultFTPIdlePerKey).
	MaxIdle int
	// MaxIdlePerHost is the most kept per server address, whatever the
	// login and directory (zero: DefaultFTPIdlePerHost).
	MaxIdlePerHost int
	// MaxIdleTotal is the most kept in all (zero: DefaultFTPIdleTotal).
	MaxIdleTotal int
	// IdleTimeout is how long an idle session is kept (zero:
	// DefaultFTPIdleTimeout), well under the idle timeouts FTP servers
	// apply (vsftpd: 300 s).
	IdleTimeout time.Duration

	mu      sync.Mutex
	idle    map[string][]*ftpIdle // by key, oldest first
	perHost map[string]int
	total   int
	timer   *time.Timer // the reaper's next run; nil when nothing is kept
	closed  bool
	quits   sync.WaitGroup // sessions being closed (QUIT, then close)
}

// Defaults of FTPSessions' zero fields.
const (
	DefaultFTPIdlePerKey  = 4
	DefaultFTPIdlePerHost = 8
	DefaultFTPIdleTotal   = 32
	DefaultFTPIdleTimeout = 15 * time.Second
)

// ftpIdle is one kept session.
type ftpIdle struct {
	key   string
	host  string // the server address, the key's first part
	conn  net.Conn
	typ   string   // the argument of the last TYPE sent
	feat  []string // what the server's FEAT reply offered; nil when not asked
	since time.Time
}

// has reports whether the kept session is in the state cmd would put it
// in: logged in and in the directory (the key says so), or of the type.
func (it *ftpIdle) has(cmd scheme.FTPCommand) bool {
	switch cmd.Verb {
	case scheme.FTPUser, scheme.FTPPass, scheme.FTPCwd:
		return true
	case scheme.FTPType:
		return cmd.Arg == it.typ
	}
	return false
}

// ftpSessionKey is the state a plan's prefix (login and CWD commands)
// leaves a session in; "" for a plan whose password is asked, which is
// never pooled.
func ftpSessionKey(p *scheme.FTPPlan) string {
	var b strings.Builder
	b.WriteString(p.Addr)
	for _, c := range p.Commands {
		switch c.Verb {
		case scheme.FTPUser, scheme.FTPPass, scheme.FTPCwd:
			if c.Pass == scheme.PassAsk {
				return ""
			}
			b.WriteByte(0)
			b.WriteString(c.Line())
		}
	}
	return b.String()
}

func (s *FTPSessions) timeout() time.Duration {
	if s.IdleTimeout <= 0 {
		return DefaultFTPIdleTimeout
	}
	return s.IdleTimeout
}

func orDefault(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}

// take returns a live idle session for key, or nil.
func (s *FTPSessions) take(key string) *ftpIdle {
	if s == nil || key == "" {
		return nil
	}
	for {
		s.mu.Lock()
		list := s.idle[key]
		if len(list) == 0 {
			s.mu.Unlock()
			return nil
		}
		it := list[len(list)-1]
		s.remove(it)
		s.mu.Unlock()
		switch {
		case !alive(it.conn):
			it.conn.Close() // closed by the server, or stray data
		case time.Since(it.since) >= s.timeout():
			s.quit([]*ftpIdle{it}) // the reaper has not come yet
		default:
			return it
		}
	}
}

// remove takes it out of the pool; s.mu is held.
func (s *FTPSessions) remove(it *ftpIdle) {
	list := s.idle[it.key]
	for i, x := range list {
		if x == it {
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(s.idle, it.key)
	} else {
		s.idle[it.key] = list
	}
	if s.perHost[it.host]--; s.perHost[it.host] <= 0 {
		delete(s.perHost, it.host)
	}
	s.total--
}

// oldest returns the idle session put back longest ago among those match
// accepts; s.mu is held.
func (s *FTPSessions) oldest(match func(*ftpIdle) bool) *ftpIdle {
	var o *ftpIdle
	for _, list := range s.idle {
		for _, it := range list {
			if match(it) && (o == nil || it.since.Before(o.since)) {
				o = it
			}
		}
	}
	return o
}

// put keeps a session for key. When a cap is reached the oldest idle
// session of the key, the server or the pool is closed to make room.
func (s *FTPSessions) put(key string, conn net.Conn, typ string, feat []string) {
	conn.SetDeadline(time.Time{})
	host, _, _ := strings.Cut(key, "\x00")
	it := &ftpIdle{key: key, host: host, conn: conn, typ: typ, feat: feat, since: time.Now()}
	var evict []*ftpIdle
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		s.quit([]*ftpIdle{it})
		return
	}
	if s.idle == nil {
		s.idle, s.perHost = map[string][]*ftpIdle{}, map[string]int{}
	}
	if list := s.idle[key]; len(list) >= orDefault(s.MaxIdle, DefaultFTPIdlePerKey) {
		evict = append(evict, list[0])
		s.remove(list[0])
	}
	if s.perHost[host] >= orDefault(s.MaxIdlePerHost, DefaultFTPIdlePerHost) {
		o := s.oldest(func(x *ftpIdle) bool { return x.host == host })
		evict = append(evict, o)
		s.remove(o)
	}
	if s.total >= orDefault(s.MaxIdleTotal, DefaultFTPIdleTotal) {
		o := s.oldest(func(*ftpIdle) bool { return true })
		evict = append(evict, o)
		s.remove(o)
	}
	s.idle[key] = append(s.idle[key], it)
	s.perHost[host]++
	s.total++
	if s.timer == nil {
		s.timer = time.AfterFunc(s.timeout(), s.reap)
	}
	s.mu.Unlock()
	s.quit(evict)
}

// reap closes the sessions idle for IdleTimeout and sets the next run for
// the oldest remaining one; with none left, it stops until the next put.
func (s *FTPSessions) reap() {
	now := time.Now()
	var expired []*ftpIdle
	s.mu.Lock()
	for {
		o := s.oldest(func(*ftpIdle) bool { return true })
		if o == nil {
			s.timer = nil
			break
		}
		if left := s.timeout() - now.Sub(o.since); left > 0 {
			s.timer = time.AfterFunc(left, s.reap)
			break
		}
		expired = append(expired, o)
		s.remove(o)
	}
	if s.closed && s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	s.mu.Unlock()
	s.quit(expired)
}

// quit ends each session politely, in the background: QUIT, the reply
// awaited at most 2 s, then the connection is closed.
func (s *FTPSessions) quit(list []*ftpIdle) {
	for _, it := range list {
		s.quits.Add(1)
		go func(c net.Conn) {
			defer s.quits.Done()
			c.SetDeadline(time.Now().Add(2 * time.Second))
			if _, err := c.Write([]byte("QUIT\r\n")); err == nil {
				var b [512]byte
				c.Read(b[:])
			}
			c.Close()
		}(it.conn)
	}
}

// Len returns the number of idle sessions kept.
func (s *FTPSessions) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

// Close closes every idle session, sending QUIT first, and waits until
// they are closed; sessions given back later are closed at once.
func (s *FTPSessions) Close() {
	s.mu.Lock()
	s.closed = true
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	var all []*ftpIdle
	for _, list := range s.idle {
		all = append(all, list...)
	}
	s.idle, s.perHost, s.total = nil, nil, 0
	s.mu.Unlock()
	s.quit(all)
	s.quits.Wait()
}

// alive reports whether an idle connection is still open with nothing
// waiting on it: a read that returns at once with a timeout.
func alive(c net.Conn) bool {
	c.SetReadDeadline(time.Now().Add(-time.Second))
	var b [1]byte
	n, err := c.Read(b[:])
	c.SetReadDeadline(time.Time{})
	var ne net.Error
	return n == 0 && errors.As(err, &ne) && ne.Timeout()
}

// keepable reports whether the control connection can be kept after a
// completed transfer: nothing buffered beyond the completion reply.
func keepable(br *bufio.Reader) bool { return br.Buffered() == 0 }
