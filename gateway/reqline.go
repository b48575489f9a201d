package gateway

import (
	"bufio"
	"bytes"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Request lines net/http would refuse before the handler sees them (a
// malformed escape, "/gopher://h/0/a%zz"; a target with a space in it;
// anything url.ParseRequestURI rejects) get net/http's bare "400 Bad
// Request" in plain text, without urlkit's words, its offset or a repaired
// link. The gateway's listener reads each request line first: such a
// target is passed on as badTargetPath with the target, escaped, as its
// query, and the handler answers it with the same error page as any URL
// urlkit rejects (badTarget). Only request lines are read: the headers are
// passed on as they are, and after a request with a body the rest of the
// connection is passed on unread.

// badTargetPath is the path a refused request-target is passed on as.
// A client may send it itself: it gets the error page for what it names.
const badTargetPath = "/.urlkit/bad-target"

// requestLineListener wraps each connection accepted in a requestLineConn.
type requestLineListener struct{ net.Listener }

func (l requestLineListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &requestLineConn{Conn: c, br: bufio.NewReaderSize(c, 4096)}, nil
}

// The states of a requestLineConn.
const (
	atRequestLine = iota // the next line is a request line
	inHeader             // a header line, or the blank line ending the header
	passing              // a body, or a line too long to read: pass the rest on
)

// requestLineConn passes on what the client sends with any request line
// net/http would refuse rewritten (see above).
type requestLineConn struct {
	net.Conn
	br    *bufio.Reader
	out   []byte // what is read but not yet passed on
	state int
	body  bool // the request being read has a body
}

func (c *requestLineConn) Read(p []byte) (int, error) {
	if len(c.out) == 0 {
		if c.state == passing {
			return c.br.Read(p)
		}
		line, err := c.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// a line longer than the buffer: net/http answers it (431)
			c.state = passing
		} else if err != nil {
			if len(line) == 0 {
				return 0, err
			}
		} else {
			line = c.next(line)
		}
		c.out = line
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	return n, nil
}

// next follows one whole line and returns it as it is to be passed on.
func (c *requestLineConn) next(line []byte) []byte {
	switch c.state {
	case atRequestLine:
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			return line // net/http skips blank lines before a request
		}
		c.state, c.body = inHeader, false
		return rewriteRequestLine(line)
	case inHeader:
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			c.state = atRequestLine
			if c.body {
				c.state = passing
			}
			return line
		}
		name, _, _ := bytes.Cut(line, []byte(":"))
		name = bytes.TrimSpace(name)
		if bytes.EqualFold(name, []byte("Content-Length")) || bytes.EqualFold(name, []byte("Transfer-Encoding")) {
			c.body = true
		}
	}
	return line
}

// rewriteRequestLine returns line, or for a target net/http would refuse
// the line naming badTargetPath instead. A line that does not end in an
// HTTP version is left to net/http.
func rewriteRequestLine(line []byte) []byte {
	s := strings.TrimRight(string(line), "\r\n")
	method, rest, ok := strings.Cut(s, " ")
	sp := strings.LastIndexByte(rest, ' ')
	if !ok || sp < 0 {
		return line
	}
	target, proto := rest[:sp], rest[sp+1:]
	if _, _, ok := http.ParseHTTPVersion(proto); !ok {
		return line
	}
	if !strings.Contains(target, " ") {
		if _, err := url.ParseRequestURI(target); err == nil {
			return line
		}
	}
	return []byte(method + " " + badTargetPath + "?" + escape(target, "") + " " + proto + "\r\n")
}

// CloseWrite half-closes the connection, as net/http does before closing
// one it answered with an error (so the client reads the answer rather
// than a reset).
func (c *requestLineConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
