package gateway

import (
	"bufio"
	"bytes"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

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
type requestLineListener struct {
	net.Listener
	g *Gateway
}

func (l requestLineListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &requestLineConn{Conn: c, br: bufio.NewReaderSize(c, 4096), g: l.g}, nil
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
	// accept is the Accept header of the request being read, for the
	// answers net/http writes itself (Write); its buffer is reused.
	accept []byte
	g      *Gateway
}

// Read passes on the next line, and with it the following lines of the
// same header that have already arrived, as many as p holds (net/http's
// reader asks once for each Read rather than once for each line). It
// never reads past the blank line that ends a header, so that the Accept
// kept is always that of the request net/http is reading.
func (c *requestLineConn) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(c.out) == 0 {
			if n > 0 && (c.state != inHeader || !c.lineBuffered()) {
				break
			}
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
		k := copy(p[n:], c.out)
		c.out = c.out[k:]
		n += k
	}
	return n, nil
}

// lineBuffered reports whether a whole line has arrived and is buffered,
// so that reading it does not wait.
func (c *requestLineConn) lineBuffered() bool {
	b, _ := c.br.Peek(c.br.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

// CloseWrite half-closes the connection, as net/http does before closing
// one it answered with an error and the caps do after a 503 (so the client
// reads the answer rather than a reset).
func (c *requestLineConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// next follows one whole line and returns it as it is to be passed on.
func (c *requestLineConn) next(line []byte) []byte {
	switch c.state {
	case atRequestLine:
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			return line // net/http skips blank lines before a request
		}
		c.state, c.body, c.accept = inHeader, false, c.accept[:0]
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
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")) || bytes.EqualFold(name, []byte("Transfer-Encoding")):
			c.body = true
		case bytes.EqualFold(name, []byte("Accept")):
			if _, v, ok := bytes.Cut(line, []byte(":")); ok && len(v) < 1024 {
				c.accept = append(c.accept[:0], bytes.TrimSpace(v)...)
			}
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

// Answers net/http writes itself, before any handler (a header too large,
// no Host header, an HTTP version it does not speak, a malformed header):
// one Write of the status line, errorHeaders and the status again as the
// body, after which it closes the connection (net/http's conn.serve).
// The connection replaces such an answer with urlkit's error page for the
// same status: HTML for a request whose Accept prefers it, one plain line
// for the others, the reason in plain words.
const netHTTPErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

func (c *requestLineConn) Write(p []byte) (int, error) {
	// Only an answer with a status of 4xx or 5xx can be one of net/http's
	// own (a document's 200 is not read further).
	if c.g != nil && len(p) > len("HTTP/1.1 ") && (p[9] == '4' || p[9] == '5') && bytes.HasPrefix(p, []byte("HTTP/1.1 ")) {
		if page, ok := c.ownAnswer(p); ok {
			if _, err := c.Conn.Write(page); err != nil {
				return 0, err
			}
			return len(p), nil
		}
	}
	return c.Conn.Write(p)
}

// ownAnswer returns urlkit's answer in place of p when p is one of
// net/http's own error answers.
func (c *requestLineConn) ownAnswer(p []byte) ([]byte, bool) {
	status, rest, ok := bytes.Cut(p[len("HTTP/1.1 "):], []byte(netHTTPErrorHeaders))
	if !ok || len(status) < 4 || status[3] != ' ' || bytes.IndexByte(status, '\n') >= 0 {
		return nil, false
	}
	code, err := strconv.Atoi(string(status[:3]))
	if err != nil || code < 400 || code > 599 {
		return nil, false
	}
	text := string(status[4:])
	if !bytes.Equal(rest, status) && string(rest) != "Unsupported transfer encoding" {
		return nil, false
	}
	_, why, _ := strings.Cut(text, ": ")
	msg := "the request was refused before it reached the gateway: "
	switch {
	case code == http.StatusRequestHeaderFieldsTooLarge:
		msg += "its header is larger than the gateway takes (" + strconv.Itoa(MaxHeaderBytes>>10) + " KiB)"
	case code == http.StatusHTTPVersionNotSupported:
		msg += "its HTTP version is not one the gateway speaks (HTTP/1.0 and HTTP/1.1)"
	case code == http.StatusNotImplemented:
		msg += "it names a transfer coding the gateway does not read (RFC 9112 6.1)"
	case why == "missing required Host header":
		msg += "it has no Host header, which HTTP/1.1 requires (RFC 9112 3.2)"
	case why != "":
		msg += "it is not a well-formed HTTP request (" + why + ")"
	default:
		msg += "it is not a well-formed HTTP request"
	}
	rec := &bufferedAnswer{h: http.Header{}}
	req := &http.Request{Header: http.Header{}, RequestURI: "/"}
	if len(c.accept) > 0 {
		req.Header.Set("Accept", string(c.accept))
	}
	c.g.errorPage(rec, req, problem{Status: code, Message: msg})
	if g := c.g; g.cfg.Log != nil || g.cfg.LogJSON != nil {
		// The log has its line too: no request line to show ("- - -"),
		// the reason as a note.
		lw := &logWriter{status: code, bytes: int64(rec.body.Len()), note: msg}
		g.logRequest(lw, &http.Request{Method: "-", RequestURI: "-", Proto: "-", RemoteAddr: c.RemoteAddr().String()}, g.now())
	}
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 " + strconv.Itoa(code) + " " + http.StatusText(code) + "\r\n")
	rec.h.Set("Connection", "close")
	rec.h.Set("X-Content-Type-Options", "nosniff")
	rec.h.Write(&b)
	b.WriteString("\r\n")
	b.Write(rec.body.Bytes())
	return b.Bytes(), true
}

// bufferedAnswer is a ResponseWriter that keeps what is written.
type bufferedAnswer struct {
	h    http.Header
	body bytes.Buffer
}

func (a *bufferedAnswer) Header() http.Header         { return a.h }
func (a *bufferedAnswer) Write(p []byte) (int, error) { return a.body.Write(p) }
func (a *bufferedAnswer) WriteHeader(int)             {}
