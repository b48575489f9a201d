package gateway

import (
	"bufio"
	"bytes"
	"net"
	"net/http"
	"net/url"

	"github.com/urlkit/urlkit/internal/chars"
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
// HTTP version is left to net/http. A path-form target that plainly
// passes (every escape whole, no control byte) is checked without
// allocating; any other is given to url.ParseRequestURI, net/http's own
// reading.
func rewriteRequestLine(line []byte) []byte {
	body := bytes.TrimRight(line, "\r\n")
	sp1 := bytes.IndexByte(body, ' ')
	sp2 := bytes.LastIndexByte(body, ' ')
	if sp1 < 0 || sp2 <= sp1 {
		return line
	}
	target, proto := body[sp1+1:sp2], body[sp2+1:]
	if !bytes.Equal(proto, http11) && !bytes.Equal(proto, http10) {
		if _, _, ok := http.ParseHTTPVersion(string(proto)); !ok {
			return line
		}
	}
	if plainTarget(target) {
		return line
	}
	if bytes.IndexByte(target, ' ') < 0 {
		if _, err := url.ParseRequestURI(string(target)); err == nil {
			return line
		}
	}
	return []byte(string(body[:sp1]) + " " + badTargetPath + "?" + escape(string(target), "") + " " + string(proto) + "\r\n")
}

var http11, http10 = []byte("HTTP/1.1"), []byte("HTTP/1.0")

// plainTarget reports whether t is a target that url.ParseRequestURI
// plainly takes: a path ("/..."), or an absolute URL whose scheme is
// letters and whose host is a plain name or address (letters, digits,
// ".", "-", "_") with an optional port of digits, followed by a path; in
// either, no control byte (nor space), and each "%" of the path starts an
// escape of two hex digits (the search part's escapes are not read). It
// says false for anything else, which ParseRequestURI then reads.
func plainTarget(t []byte) bool {
	if len(t) > 0 && t[0] != '/' {
		// scheme "://" host [":" port], up to the path's "/"
		i := 0
		for i < len(t) && ('a' <= t[i]|0x20 && t[i]|0x20 <= 'z') {
			i++
		}
		if i == 0 || !bytes.HasPrefix(t[i:], []byte("://")) {
			return false
		}
		i += 3
		h := i
		for i < len(t) && t[i] != '/' && t[i] != ':' {
			if c := t[i]; chars.Table[c]&(chars.LowAlpha|chars.HiAlpha|chars.Digit) == 0 && c != '.' && c != '-' && c != '_' {
				return false
			}
			i++
		}
		if i == h {
			return false
		}
		if i < len(t) && t[i] == ':' {
			for i++; i < len(t) && t[i] != '/'; i++ {
				if t[i] < '0' || t[i] > '9' {
					return false
				}
			}
		}
		t = t[i:]
	}
	if len(t) == 0 || t[0] != '/' {
		return false
	}
	inPath := true
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c <= ' ' || c == 0x7f:
			return false
		case c == '?':
			inPath = false
		case c == '%' && inPath:
			if i+2 >= len(t) || chars.Table[t[i+1]]&chars.HexDigit == 0 || chars.Table[t[i+2]]&chars.HexDigit == 0 {
				return false
			}
		}
	}
	return true
}
