package access

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
)

// GopherRequest is one Gopher retrieval as RFC 1738 section 3.4 maps it:
// the item type, then the selector, then optionally a search string and a
// Gopher+ string. The strings are already percent-decoded.
type GopherRequest struct {
	// Addr is the server's host:port.
	Addr string
	// Type is the gopher item type (RFC 1436 section 3.8): it decides how
	// the reply is read. '0' and the other text types and the menus '1' and
	// '7' end with a line holding a lone "."; everything else is read to
	// the end of the connection.
	Type byte
	// Selector is sent first on the request line.
	Selector string
	// Search, when HasSearch, follows the selector after a TAB (type 7
	// search servers).
	Search    string
	HasSearch bool
	// PlusString, when HasPlus, is the Gopher+ string sent after a further
	// TAB (for example "+" or "!"); the reply then starts with a Gopher+
	// length header.
	PlusString string
	HasPlus    bool
}

// GopherSessionError reports a request for an item type that names an
// interactive session (2 CSO, 8 telnet, T tn3270) rather than a document.
type GopherSessionError struct {
	Type byte
}

// Error formats the failure for a person.
func (e *GopherSessionError) Error() string {
	return fmt.Sprintf("gopher: item type %q is a session, not a document to fetch", e.Type)
}

// GopherTextType reports whether items of type t are text that RFC 1436
// ends with a lone "." line and dot-stuffs: 0 (file), 1 (menu), 7 (search
// results, a menu), and the informational types 3 (error) and i, h (HTML)
// kept as text by common practice.
func GopherTextType(t byte) bool {
	switch t {
	case '0', '1', '7', '3', 'i', 'h':
		return true
	}
	return false
}

// line builds the request line without its CRLF.
func (r *GopherRequest) line() (string, error) {
	if err := checkArg("gopher", "Selector", r.Selector); err != nil {
		return "", err
	}
	s := r.Selector
	if r.HasSearch {
		if err := checkArg("gopher", "Search", r.Search); err != nil {
			return "", err
		}
		s += "\t" + r.Search
	}
	if r.HasPlus {
		if err := checkArg("gopher", "PlusString", r.PlusString); err != nil {
			return "", err
		}
		s += "\t" + r.PlusString
	}
	// A TAB inside the selector would shift the fields (RFC 1738 3.4
	// excludes it from selectors).
	if strings.Contains(r.Selector, "\t") {
		return "", &UnsafeArgumentError{Protocol: "gopher", Field: "Selector", Value: r.Selector}
	}
	return s, nil
}

// FetchGopher sends the request line and returns the item: for text types
// (GopherTextType) the lines up to the lone "." terminator, with dot-stuffing
// undone and line ends kept as the server sent them; for other types the
// bytes as sent. A reply that ends without the terminator is accepted as
// complete, since many servers omit it for files. With HasPlus the Gopher+
// header ("+N", "+-1", "+-2"; "-" for an error) decides the length; a server
// that answers without such a header is read as plain Gopher.
func FetchGopher(ctx context.Context, req *GopherRequest, opts *Options) (io.ReadCloser, error) {
	if opts == nil {
		opts = &Options{}
	}
	switch req.Type {
	case '2', '8', 'T':
		return nil, &GopherSessionError{Type: req.Type}
	}
	line, err := req.line()
	if err != nil {
		return nil, err
	}
	raw, err := opts.dial(ctx, "gopher", req.Addr)
	if err != nil {
		return nil, err
	}
	stop := watch(ctx, raw)
	closer := func() error { stop(); return raw.Close() }
	conn := &deadlineConn{Conn: raw, idle: opts.readTimeout()}
	opts.tracef("C: %s", line)
	if _, err := io.WriteString(conn, line+"\r\n"); err != nil {
		closer()
		return nil, &StepError{Protocol: "gopher", Step: "request", Err: ctxErr(ctx, err)}
	}
	br := bufio.NewReaderSize(conn, 32<<10)
	var r io.Reader = br
	text := GopherTextType(req.Type)
	if req.HasPlus {
		r, text, err = gopherPlus(br, text, opts)
		if err != nil {
			closer()
			return nil, ctxErr(ctx, err)
		}
	}
	if text {
		r = &dotReader{r: bufio.NewReader(r)}
	}
	return newBody(ctx, r, opts, nil, closer), nil
}

// gopherPlus reads the Gopher+ header line and returns the reader for the
// data that follows and whether it is dot-terminated.
func gopherPlus(br *bufio.Reader, text bool, opts *Options) (io.Reader, bool, error) {
	peek, _ := br.Peek(1)
	if len(peek) == 0 || (peek[0] != '+' && peek[0] != '-') {
		return br, text, nil // not a Gopher+ server
	}
	// Only treat the line as a header when it parses as one.
	for n := 2; n <= 24; n++ {
		b, err := br.Peek(n)
		if len(b) < n {
			if err != nil {
				return br, text, nil
			}
		}
		if b[n-1] != '\n' {
			continue
		}
		hdr := strings.TrimRight(string(b), "\r\n")
		size, err := strconv.ParseInt(hdr[1:], 10, 64)
		if err != nil || size < -2 {
			return br, text, nil
		}
		br.Discard(n)
		opts.tracef("S: %s", hdr)
		var data io.Reader
		dot := false
		switch size {
		case -1:
			data, dot = br, true
		case -2:
			data = br
		default:
			data = io.LimitReader(br, size)
		}
		if hdr[0] == '-' {
			// Error: the data is "code text" or text lines.
			if dot {
				data = &dotReader{r: bufio.NewReader(data)}
			}
			msg, _ := io.ReadAll(io.LimitReader(data, 4096))
			return nil, false, &ReplyError{Protocol: "gopher", Step: "Gopher+ request", Text: strings.TrimSpace(string(msg))}
		}
		return data, dot, nil
	}
	return br, text, nil
}

// dotReader undoes RFC 1436 (and RFC 977) text framing: it stops at a line
// holding only "." and removes the first "." of lines starting with "..".
type dotReader struct {
	r    *bufio.Reader
	buf  []byte
	done bool
}

func (d *dotReader) Read(p []byte) (int, error) {
	for len(d.buf) == 0 {
		if d.done {
			return 0, io.EOF
		}
		line, err := d.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A long line: pass it through as is.
			d.buf = append(d.buf[:0], line...)
			break
		}
		if err != nil && err != io.EOF {
			return 0, err
		}
		if err == io.EOF {
			d.done = true
			if len(line) == 0 {
				return 0, io.EOF
			}
		}
		trimmed := bytes.TrimRight(line, "\r\n")
		if len(line) > len(trimmed) && string(trimmed) == "." {
			d.done = true
			return 0, io.EOF
		}
		if bytes.HasPrefix(line, []byte("..")) {
			line = line[1:]
		}
		d.buf = append(d.buf[:0], line...)
	}
	n := copy(p, d.buf)
	d.buf = d.buf[n:]
	return n, nil
}

// MenuItem is one line of a gopher menu (RFC 1436 section 3.8): the item
// type, the display string, the selector, host and port, and the optional
// Gopher+ field that follows the port.
type MenuItem struct {
	Type     byte
	Display  string
	Selector string
	Host     string
	Port     string
	Plus     string
}

// ParseMenu reads a menu as FetchGopher delivers it (terminator already
// removed; a lone "." line also ends the menu). Lines without the four
// TAB-separated fields are kept as informational items (type 'i') holding
// the whole line as Display, since servers send such lines.
func ParseMenu(r io.Reader) ([]MenuItem, error) {
	var items []MenuItem
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		l := strings.TrimRight(sc.Text(), "\r")
		if l == "." {
			break
		}
		if l == "" {
			continue
		}
		f := strings.Split(l[1:], "\t")
		if len(f) < 4 {
			items = append(items, MenuItem{Type: 'i', Display: l})
			continue
		}
		it := MenuItem{Type: l[0], Display: f[0], Selector: f[1], Host: f[2], Port: f[3]}
		if len(f) > 4 {
			it.Plus = f[4]
		}
		items = append(items, it)
	}
	if err := sc.Err(); err != nil {
		return items, fmt.Errorf("gopher: reading menu: %w", err)
	}
	return items, nil
}

// FetchGopherMenu fetches a menu (req.Type should be '1' or '7') and parses it.
func FetchGopherMenu(ctx context.Context, req *GopherRequest, opts *Options) ([]MenuItem, error) {
	if !GopherTextType(req.Type) {
		return nil, fmt.Errorf("gopher: item type %q is not a menu", req.Type)
	}
	rc, err := FetchGopher(ctx, req, opts)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	items, err := ParseMenu(rc)
	if err != nil {
		var se *SizeLimitError
		if errors.As(err, &se) {
			return items, se
		}
	}
	return items, err
}

// URL returns the item as a gopher URL (RFC 1738 section 3.4):
// gopher://host:port/<type><selector>, the selector percent-encoded where
// RFC 1738 forbids the octet in a URL. Informational and error items
// (types 'i' and '3') have no URL; URL returns "" for them.
func (m MenuItem) URL() string {
	if m.Type == 'i' || m.Type == '3' {
		return ""
	}
	host := m.Host
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return "gopher://" + host + ":" + m.Port + "/" + EscapeRFC1738(string([]byte{m.Type})+m.Selector)
}

// EscapeRFC1738 percent-encodes exactly the octets RFC 1738 section 2.2
// does not allow to appear bare in a URL: controls (00-1F, 7F), octets
// 80-FF, space, the unsafe characters < > " # % { } | \ ^ ~ [ ] and `.
// Reserved characters (; / ? : @ = &) are left alone: a gopher selector
// may hold them as they are.
func EscapeRFC1738(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= 0x20 || c >= 0x7f || strings.IndexByte("<>\"#%{}|\\^~[]`", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// WriteMenuListing writes a menu as a listing, one item a line: the item's
// URL, a TAB and its display string. Informational items are written as
// "# " followed by the text; error items (type 3) as "# error: " and the text.
func WriteMenuListing(w io.Writer, items []MenuItem) error {
	bw := bufio.NewWriter(w)
	for _, it := range items {
		switch it.Type {
		case 'i':
			fmt.Fprintf(bw, "# %s\n", it.Display)
		case '3':
			fmt.Fprintf(bw, "# error: %s\n", it.Display)
		default:
			fmt.Fprintf(bw, "%s\t%s\n", it.URL(), it.Display)
		}
	}
	return bw.Flush()
}

// Addr joins a menu item's host and port into a dial address.
func (m MenuItem) Addr() string { return net.JoinHostPort(m.Host, m.Port) }
