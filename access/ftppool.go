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
type FTPSessions struct {
	// MaxIdle is the most idle sessions kept per key (zero: 8).
	MaxIdle int
	// IdleTimeout is how long an idle session is kept (zero: 15 s), well
	// under the idle timeouts FTP servers apply (vsftpd: 300 s).
	IdleTimeout time.Duration

	mu   sync.Mutex
	idle map[string][]*ftpIdle
}

// ftpIdle is one kept session.
type ftpIdle struct {
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

// take returns a live idle session for key, or nil.
func (s *FTPSessions) take(key string) *ftpIdle {
	if s == nil || key == "" {
		return nil
	}
	timeout := s.IdleTimeout
	if timeout <= 0 {
		timeout = 15 * time.Second
	}
	for {
		s.mu.Lock()
		list := s.idle[key]
		if len(list) == 0 {
			s.mu.Unlock()
			return nil
		}
		it := list[len(list)-1]
		s.idle[key] = list[:len(list)-1]
		s.mu.Unlock()
		if time.Since(it.since) < timeout && alive(it.conn) {
			return it
		}
		it.conn.Close()
	}
}

// put keeps a session for key, or closes it when the key has enough.
func (s *FTPSessions) put(key string, conn net.Conn, typ string, feat []string) {
	max := s.MaxIdle
	if max <= 0 {
		max = 8
	}
	conn.SetDeadline(time.Time{})
	s.mu.Lock()
	if s.idle == nil {
		s.idle = map[string][]*ftpIdle{}
	}
	if len(s.idle[key]) < max {
		s.idle[key] = append(s.idle[key], &ftpIdle{conn: conn, typ: typ, feat: feat, since: time.Now()})
		conn = nil
	}
	s.mu.Unlock()
	if conn != nil {
		conn.Close()
	}
}

// Close closes every idle session.
func (s *FTPSessions) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, list := range s.idle {
		for _, it := range list {
			it.conn.Close()
		}
		delete(s.idle, k)
	}
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
