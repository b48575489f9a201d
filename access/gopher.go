package access

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"net"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/urlkit/urlkit/scheme"
)

// GopherSessionError reports a plan for an item type that names an
// interactive session (8 telnet, T tn3270) or a CSO phone book (2) rather
// than a document.
type GopherSessionError struct {
	Type byte
}

// Error formats the failure for a person.
func (e *GopherSessionError) Error() string {
	return fmt.Sprintf("gopher: item type %q is a session, not a document to fetch", e.Type)
}

// gopherContentType maps a gopher item type to a media type.
func gopherContentType(t byte) string {
	switch t {
	case '0':
		return "text/plain"
	case '1', '7':
		return "text/x-gopher-menu"
	case 'h':
		return "text/html"
	case 'g':
		return "image/gif"
	case 'I':
		return "image/*"
	case '4':
		return "application/mac-binhex40"
	case '6':
		return "text/x-uuencode"
	}
	return "application/octet-stream"
}

func init() { registerClient((*execution).gopher) }

// gopher sends the plan's request line and returns the item. Text replies
// (p.Reply "text" or "menu", RFC 1436) end at a line holding a lone "."
// and have their dot-stuffing undone, line ends kept as the server sent
// them; a text reply that ends without the terminator is accepted, since
// many servers omit it. Other replies are the bytes as sent. With a
// Gopher+ string the reply's first line ("+N", "+-1", "+-2", or "-" for an
// error) decides the framing; a declared length is enforced: fewer bytes
// is an error, bytes after it are not read. A server that answers without
// such a line is read as plain Gopher.
func (x *execution) gopher(p *scheme.GopherPlan) (*Resource, error) {
	switch p.Reply {
	case "session", "cso":
		return nil, &GopherSessionError{Type: p.Type}
	}
	if err := checkGopherRequest(p.GopherRequest); err != nil {
		return nil, err
	}
	line := p.Line()
	raw, err := x.dial("gopher", p.Addr)
	if err != nil {
		return nil, err
	}
	stop := x.watch(raw)
	// The buffers come from gopherBufs and go back when the connection
	// is closed (body.Close; a closed body reads nothing more).
	var bufs [2]*bufio.Reader
	closer := func() error {
		stop()
		err := raw.Close()
		for i, b := range bufs {
			if b != nil {
				putGopherBuf(b)
				bufs[i] = nil
			}
		}
		return err
	}
	conn := &deadlineConn{Conn: raw, idle: x.opts.readTimeout()}
	step := "selector " + strconv.Quote(p.Selector)
	// Traced line by line: a filled-in form is several.
	for _, l := range strings.SplitAfter(strings.TrimSuffix(line, "\r\n"), "\r\n") {
		x.opts.traceSent(strings.TrimSuffix(l, "\r\n"))
	}
	if _, err := io.WriteString(conn, line); err != nil {
		closer()
		return nil, x.fail("gopher", step, err)
	}
	if x.opts.Capture != nil {
		x.opts.sent(raw, false, []byte(line))
	}
	m := x.newMeter(conn, "gopher", step)
	br := getGopherBuf(m)
	bufs[0] = br
	var r io.Reader = br
	text := p.Reply == "text" || p.Reply == "menu" || p.Reply == "error" || p.Reply == scheme.GopherAttributes
	size := int64(-1)
	if p.Reply == scheme.GopherAttributes {
		// Only a Gopher+ server answers with a header line first; any
		// other reads "selector TAB !" as a search and answers with
		// something that is no attribute block.
		if b, err := br.Peek(1); err != nil || b[0] != '+' && b[0] != '-' {
			closer()
			if err != nil {
				return nil, x.fail("gopher", step+" (Gopher+ attributes)", err)
			}
			return nil, &StepError{Protocol: "gopher", Step: step + " (Gopher+ attributes)", Err: errors.New("the server does not speak Gopher+: its reply starts without a +LENGTH line, so it has no attributes to give (RFC 1738 3.4.6)")}
		}
	}
	if p.HasPlus {
		r, text, size, err = x.gopherPlus(raw, br, text, step)
		if err != nil {
			closer()
			return nil, err
		}
	}
	if text {
		// The reader is the buffered one above unless a Gopher+ length
		// wraps it: it is buffered once, not twice.
		tb, ok := r.(*bufio.Reader)
		if !ok {
			tb = getGopherBuf(r)
			bufs[1] = tb
		}
		r = &dotReader{r: tb, start: true}
	}
	kind := "file"
	switch p.Reply {
	case "menu":
		kind = "menu"
	case scheme.GopherAttributes:
		kind = "attributes"
	}
	b := x.newBody(r, m, "gopher", step, nil, closer)
	return &Resource{ReadCloser: b, Plan: p, Kind: kind, ContentType: gopherContentType(p.Type), Size: size}, nil
}

// gopherBufSize is the size of the buffer a gopher reply is read through.
const gopherBufSize = 32 << 10

// gopherBufs holds the buffered readers of gopher replies, reused from
// fetch to fetch: a 32 KiB buffer a fetch was most of the bytes a gopher
// request allocated.
var gopherBufs = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, gopherBufSize) }}

// getGopherBuf returns a pooled reader of gopherBufSize bytes reading r.
func getGopherBuf(r io.Reader) *bufio.Reader {
	b := gopherBufs.Get().(*bufio.Reader)
	b.Reset(r)
	return b
}

// putGopherBuf returns b to the pool, holding no reference to its last
// reader. Its caller reads nothing through b afterwards.
func putGopherBuf(b *bufio.Reader) {
	b.Reset(nil)
	gopherBufs.Put(b)
}

// checkGopherRequest refuses a request that is not one CRLF-ended line
// (RFC 1738 6; scheme's plans never make one): a selector or search
// holding TAB, CR, LF or NUL, a Gopher+ string holding NUL, or CR or LF
// outside a filled-in form, or a form that does not end with CRLF.
func checkGopherRequest(r scheme.GopherRequest) error {
	bad := func(s string) bool { return strings.ContainsAny(s, "\t\r\n\x00") }
	if bad(r.Selector) || (r.HasSearch && bad(r.Search)) || strings.IndexByte(r.PlusString, 0) >= 0 ||
		(r.HasPlus && !r.Form && strings.ContainsAny(r.PlusString, "\r\n")) ||
		(r.HasPlus && r.Form && !strings.HasSuffix(r.PlusString, "\r\n")) {
		return fmt.Errorf("gopher: request %q is not one CRLF-ended line; refusing to send it (RFC 1738 6)", EscapeText(r.Line()))
	}
	return nil
}

// gopherPlus reads the Gopher+ header line (at most 24 bytes) and returns
// the reader for the data that follows, whether it is dot-terminated, and
// the declared length (-1 when none).
func (x *execution) gopherPlus(raw net.Conn, br *bufio.Reader, text bool, step string) (io.Reader, bool, int64, error) {
	peek, err := br.Peek(1)
	if err != nil {
		return nil, false, -1, x.fail("gopher", step, err)
	}
	if peek[0] != '+' && peek[0] != '-' {
		return br, text, -1, nil // not a Gopher+ server
	}
	b, _ := br.Peek(24)
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return br, text, -1, nil
	}
	hdr := strings.TrimRight(string(b[:i]), "\r")
	size, err := strconv.ParseInt(hdr[1:], 10, 64)
	if err != nil || size < -2 {
		return br, text, -1, nil
	}
	if x.opts.Capture != nil {
		x.opts.received(raw, false, b[:i+1])
	}
	br.Discard(i + 1)
	x.opts.traceRecv(hdr)
	var data io.Reader
	dot := false
	switch size {
	case -1:
		data, dot = br, true
	case -2:
		data = br
	default:
		if x.opts.MaxSize > 0 && size > x.opts.MaxSize {
			return nil, false, -1, &LimitError{Protocol: "gopher", Step: step + " (Gopher+ length +" + strconv.FormatInt(size, 10) + ")",
				Limit: "max-size", Value: fmt.Sprintf("%d bytes", x.opts.MaxSize)}
		}
		data = &exactReader{r: br, left: size, want: size, step: step}
	}
	if hdr[0] == '-' {
		// Error: the data is "code text" or text lines.
		if dot {
			data = &dotReader{r: bufio.NewReader(data), start: true}
		}
		msg, _ := io.ReadAll(io.LimitReader(data, 4096))
		return nil, false, -1, &ReplyError{Protocol: "gopher", Step: step + " (Gopher+)", Text: strings.TrimSpace(string(msg))}
	}
	if size < 0 {
		size = -1
	}
	return data, dot, size, nil
}

// exactReader delivers exactly the declared Gopher+ length: an early end of
// the connection is an error, and nothing after the length is read.
type exactReader struct {
	r          io.Reader
	left, want int64
	step       string
}

func (e *exactReader) Read(p []byte) (int, error) {
	if e.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > e.left {
		p = p[:e.left]
	}
	n, err := e.r.Read(p)
	e.left -= int64(n)
	if err == io.EOF && e.left > 0 {
		return n, &StepError{Protocol: "gopher", Step: e.step, Err: fmt.Errorf("the Gopher+ header declared %d bytes and the server closed the connection after %d", e.want, e.want-e.left)}
	}
	if e.left == 0 && err == nil {
		err = io.EOF
	}
	return n, err
}

// dotReader undoes RFC 1436 and RFC 977 text framing: it stops at a line
// holding only "." and removes the first "." of a line starting with "..".
// Only the start of a line is examined: a line longer than the buffer is
// passed on in pieces, and a piece that does not begin a line is never
// taken for a terminator. When strict, the end of the stream before the
// terminator is an error (NNTP); otherwise it ends the text (Gopher
// servers often omit the terminator).
type dotReader struct {
	r       *bufio.Reader
	start   bool // the next byte begins a line
	strict  bool
	done    bool
	pending []byte
}

// errNoTerminator is the error of a strict dotReader whose stream ended
// before the terminating "." line.
var errNoTerminator = errors.New(`the connection ended before the terminating "." line`)

func (d *dotReader) Read(p []byte) (int, error) {
	if err := d.fill(); err != nil {
		return 0, err
	}
	n := copy(p, d.pending)
	d.pending = d.pending[n:]
	return n, nil
}

// readLine returns the next line as it is (lineReader), its dot-stuffing
// undone: a piece of a line longer than the buffer with
// bufio.ErrBufferFull.
func (d *dotReader) readLine() ([]byte, error) {
	if len(d.pending) == 0 && !d.done {
		// A whole line that is neither the terminator nor stuffed (most
		// are): what fill would make pending, given at once.
		line, err := d.r.ReadSlice('\n')
		if err == nil && !(d.start && line[0] == '.') {
			d.start = true
			return line, nil
		}
		if err := d.took(line, err); err != nil {
			return nil, err
		}
	}
	if err := d.fill(); err != nil {
		return nil, err
	}
	line := d.pending
	d.pending = nil
	if line[len(line)-1] != '\n' && !d.done {
		return line, bufio.ErrBufferFull
	}
	return line, nil
}

// fill makes d.pending the rest of the current line, or the next line,
// unstuffed; it returns io.EOF at the terminator.
func (d *dotReader) fill() error {
	for len(d.pending) == 0 {
		if d.done {
			return io.EOF
		}
		line, err := d.r.ReadSlice('\n')
		if err := d.took(line, err); err != nil {
			return err
		}
	}
	return nil
}

// took makes line, just read with err by ReadSlice, what is pending: a
// piece of a long line, or a line unstuffed; or it returns the end (io.EOF
// at the terminator) or the error.
func (d *dotReader) took(line []byte, err error) error {
	switch {
	case err == bufio.ErrBufferFull:
		// A piece of a long line; the buffer holds at least 16 bytes, so
		// a leading ".." is wholly inside it.
		if d.start && len(line) >= 2 && line[0] == '.' && line[1] == '.' {
			line = line[1:]
		}
		d.start = false
		d.pending = line
		return nil
	case err == io.EOF:
		d.done = true
		if d.strict {
			return errNoTerminator
		}
		if len(line) == 0 {
			return io.EOF
		}
	case err != nil:
		return err
	}
	if d.start {
		if (len(line) == 2 && line[0] == '.' && line[1] == '\n') || (len(line) == 3 && string(line) == ".\r\n") {
			d.done = true
			return io.EOF
		}
		if len(line) >= 2 && line[0] == '.' && line[1] == '.' {
			line = line[1:]
		}
	}
	d.start = len(line) > 0 && line[len(line)-1] == '\n'
	d.pending = line
	return nil
}

// MenuItem is one line of a gopher menu (RFC 1436 section 3.8): the item
// type, the display string, the selector, host and port, and the optional
// Gopher+ field that follows the port. The strings are as the server sent
// them: escape Display (EscapeText) before showing it.
type MenuItem struct {
	Type     byte
	Display  string
	Selector string
	Host     string
	Port     string
	Plus     string
}

// URL returns the item's gopher URL through the scheme layer
// (scheme.GopherItemURL), or an error saying why the item cannot form a
// valid one. Informational and error items (types 'i' and '3') have no URL.
func (m MenuItem) URL() (string, error) {
	if m.Type == 'i' || m.Type == '3' {
		return "", fmt.Errorf("gopher: item type %q is information, not a link", m.Type)
	}
	return scheme.GopherItemURL(m.Type, m.Selector, m.Host, m.Port)
}

// MenuReader reads a gopher menu item by item, holding one line at a time:
// a menu of any size is read in constant memory.
type MenuReader struct {
	br    *bufio.Reader
	lines *body // r's stream when it gives lines itself (a gopher menu)
	max   int
	line  []byte // a long line, gathered
	chunk []byte // the block item strings are cut from (str)
	n     int    // lines read
}

// NewMenuReader reads the menu from r (a Resource of Kind "menu": the
// terminator already removed). Lines longer than maxLine bytes (zero:
// DefaultMaxReplyLine) are an error. A gopher menu's Resource is read
// line by line as its reader unstuffs them, not through a second buffer.
func NewMenuReader(r io.Reader, maxLine int) *MenuReader {
	if maxLine <= 0 {
		maxLine = DefaultMaxReplyLine
	}
	if res, ok := r.(*Resource); ok {
		if b, ok := res.ReadCloser.(*body); ok && b.lines != nil {
			return &MenuReader{lines: b, max: maxLine}
		}
	}
	return &MenuReader{br: bufio.NewReaderSize(r, 4096), max: maxLine}
}

// Next returns the next item, or io.EOF at the end of the menu. Lines
// without the four TAB-separated fields are informational items (type 'i')
// holding the whole line as Display, since servers send such lines; empty
// lines are skipped.
func (mr *MenuReader) Next() (MenuItem, error) {
	var v MenuLine
	if err := mr.NextLine(&v); err != nil {
		return MenuItem{}, err
	}
	return v.itemIn(mr.str(v.line)), nil
}

// MenuLine is one item of a menu as [MenuReader.NextLine] gives it: the
// fields of a [MenuItem], as the server sent them, but as views into the
// reader's buffer rather than strings. The zero value is an item whose
// type byte is zero, its fields empty.
type MenuLine struct {
	Type byte
	line []byte
	at   [5][2]int // where each field is in line: display, selector, host, port, Gopher+
}

// Display returns the item's display string.
func (l *MenuLine) Display() []byte { return l.line[l.at[0][0]:l.at[0][1]] }

// Selector returns the item's selector.
func (l *MenuLine) Selector() []byte { return l.line[l.at[1][0]:l.at[1][1]] }

// Host returns the item's host.
func (l *MenuLine) Host() []byte { return l.line[l.at[2][0]:l.at[2][1]] }

// Port returns the item's port, white space trimmed as strings.TrimSpace
// trims.
func (l *MenuLine) Port() []byte { return l.line[l.at[3][0]:l.at[3][1]] }

// Plus returns the item's Gopher+ field, empty when it has none.
func (l *MenuLine) Plus() []byte { return l.line[l.at[4][0]:l.at[4][1]] }

// Item returns the item l is, its fields copied into strings.
func (l *MenuLine) Item() MenuItem { return l.itemIn(string(l.line)) }

// itemIn returns the item l is with its fields cut from s, a copy of the
// line as a string: one string for the line, the fields where they are
// in it.
func (l *MenuLine) itemIn(s string) MenuItem {
	f := func(i int) string { return s[l.at[i][0]:l.at[i][1]] }
	return MenuItem{Type: l.Type, Display: f(0), Selector: f(1), Host: f(2), Port: f(3), Plus: f(4)}
}

// NextLine is Next without copying: it sets l to the next item, whose
// fields are views into the reader's buffer, valid only until the next
// call to Next or NextLine and while the menu's Resource is open (its
// buffer is reused once it is closed): copy what is kept. A caller that renders
// each item as it arrives (the gateway's menu pages) saves a copy of
// every line.
func (mr *MenuReader) NextLine(l *MenuLine) error {
	for {
		b, err := mr.readLine()
		if err != nil {
			return err
		}
		mr.n++
		for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
			b = b[:len(b)-1]
		}
		if len(b) == 1 && b[0] == '.' {
			return io.EOF
		}
		if len(b) == 0 {
			continue
		}
		splitMenuLine(b, l)
		return nil
	}
}

// splitMenuLine sets l to the item of line b: its type byte, then the
// TAB-separated fields after it, the first five (a sixth and more are
// dropped), found in one pass that tests eight bytes at a time for a TAB;
// the port is trimmed of white space as strings.TrimSpace trims. A line
// of fewer than four fields is an info item holding the whole line.
// Only offsets are stored besides the line: no write barrier a field.
func splitMenuLine(b []byte, l *MenuLine) {
	var tab [5]int // where each TAB is
	const (
		lo   = 0x0101010101010101
		low7 = 0x7F7F7F7F7F7F7F7F
	)
	n, i := 0, 1
	for ; i+8 <= len(b); i += 8 {
		// The high bit of each byte of m is set exactly where the byte
		// is a TAB (a zero byte of x; no borrow crosses bytes). Most
		// words of a line hold none.
		x := binary.LittleEndian.Uint64(b[i:]) ^ ('\t' * lo)
		m := ^((x&low7 + low7) | x | low7)
		if m == 0 {
			continue
		}
		for ; m != 0; m &= m - 1 {
			tab[n] = i + bits.TrailingZeros64(m)/8
			if n++; n == len(tab) {
				goto split
			}
		}
	}
	for ; i < len(b); i++ {
		if b[i] == '\t' {
			tab[n] = i
			if n++; n == len(tab) {
				break
			}
		}
	}
split:
	l.line = b
	if n < 3 {
		l.Type = 'i'
		e := len(b)
		l.at = [5][2]int{{0, e}, {e, e}, {e, e}, {e, e}, {e, e}}
		return
	}
	// Each field set where it is found, rather than the five built and
	// copied at once.
	l.Type = b[0]
	l.at[0] = [2]int{1, tab[0]}
	l.at[1] = [2]int{tab[0] + 1, tab[1]}
	l.at[2] = [2]int{tab[1] + 1, tab[2]}
	ps, pe := tab[2]+1, len(b)
	switch n {
	case 3: // no fifth field
		l.at[4] = [2]int{len(b), len(b)}
	case 4: // the fifth field is the rest
		pe = tab[3]
		l.at[4] = [2]int{tab[3] + 1, len(b)}
	default:
		pe = tab[3]
		l.at[4] = [2]int{tab[3] + 1, tab[4]}
	}
	if ps < pe && (b[ps] >= utf8.RuneSelf || asciiSpace[b[ps]] != 0 || b[pe-1] >= utf8.RuneSelf || asciiSpace[b[pe-1]] != 0) {
		s, e := trimSpace(b[ps:pe])
		ps, pe = ps+s, ps+e
	}
	l.at[3] = [2]int{ps, pe}
}

// trimSpace returns where b is without its leading and trailing white
// space, as strings.TrimSpace trims (Unicode's).
func trimSpace(b []byte) (s, e int) {
	e = len(b)
	for s < e {
		if c := b[s]; c < utf8.RuneSelf {
			if asciiSpace[c] == 0 {
				break
			}
			s++
			continue
		}
		r, size := utf8.DecodeRune(b[s:e])
		if !unicode.IsSpace(r) {
			break
		}
		s += size
	}
	for e > s {
		if c := b[e-1]; c < utf8.RuneSelf {
			if asciiSpace[c] == 0 {
				break
			}
			e--
			continue
		}
		r, size := utf8.DecodeLastRune(b[s:e])
		if !unicode.IsSpace(r) {
			break
		}
		e -= size
	}
	return s, e
}

// asciiSpace marks the ASCII bytes unicode.IsSpace reports.
var asciiSpace = [utf8.RuneSelf]uint8{'\t': 1, '\n': 1, '\v': 1, '\f': 1, '\r': 1, ' ': 1}

// readLine returns the next line, its end included; a line longer than
// the reader's buffer is gathered in mr.line.
func (mr *MenuReader) readLine() ([]byte, error) {
	frag, err := mr.piece()
	if err == nil && len(frag) <= mr.max+2 {
		return frag, nil // the whole line in one piece (most lines): not copied
	}
	mr.line = mr.line[:0]
	for {
		if len(mr.line)+len(frag) > mr.max+2 {
			return nil, &LimitError{Protocol: "gopher", Step: fmt.Sprintf("menu line %d", mr.n+1), Limit: "menu line", Value: fmt.Sprintf("%d bytes", mr.max)}
		}
		if err == bufio.ErrBufferFull {
			mr.line = append(mr.line, frag...)
			frag, err = mr.piece()
			continue
		}
		if err != nil && (err != io.EOF || len(mr.line)+len(frag) == 0) {
			return nil, err
		}
		if len(mr.line) == 0 {
			return frag, nil
		}
		return append(mr.line, frag...), nil
	}
}

// piece returns the next line or the next piece of a long line, as
// bufio.Reader.ReadSlice('\n') does.
func (mr *MenuReader) piece() ([]byte, error) {
	if mr.lines != nil {
		return mr.lines.readLine()
	}
	return mr.br.ReadSlice('\n')
}

// menuChunk is the size of the blocks the strings of a menu's items are
// cut from.
const menuChunk = 4 << 10

// str returns b as a string cut from mr's current block: one allocation
// for many lines rather than one a line. A block's bytes are never
// written again once a string is made of them (it is only appended to),
// so the strings are as immutable as any; an item kept keeps its block.
func (mr *MenuReader) str(b []byte) string {
	if len(b) > cap(mr.chunk)-len(mr.chunk) {
		mr.chunk = make([]byte, 0, max(menuChunk, len(b)))
	}
	start := len(mr.chunk)
	mr.chunk = append(mr.chunk, b...)
	return unsafe.String(&mr.chunk[start], len(b))
}

// GopherErrorMenu reports a menu of error items only (type 3, RFC 1436
// 3.8: "Item is an error"; informational items aside): how a gopher
// server says it has nothing for a selector.
type GopherErrorMenu struct {
	Text []string // the error items' display strings (the first four), escaped
}

func (e *GopherErrorMenu) Error() string {
	return "gopher: the server answered with an error item only: " + strings.Join(e.Text, "; ")
}

// WriteMenuListing copies a menu from r to w as a listing, one item a line,
// as it arrives: the item's URL, a TAB and its display string. Display
// strings are escaped (EscapeText). Informational items are written as
// "# " and the text, error items (type 3) as "# error: " and the text, and
// an item that cannot form a valid gopher URL as "# invalid item: " with
// the reason and its display string. It returns the number of items.
// A menu whose items are all error items (besides informational ones) is
// the server refusing the selector: it is written, and a *GopherErrorMenu
// returned.
func WriteMenuListing(w io.Writer, r io.Reader, maxLine int) (int, error) {
	mr := NewMenuReader(r, maxLine)
	bw := bufio.NewWriter(w)
	n, errs, others := 0, []string(nil), 0
	for {
		it, err := mr.Next()
		if err == io.EOF {
			if err := bw.Flush(); err != nil {
				return n, err
			}
			if len(errs) > 0 && others == 0 {
				return n, &GopherErrorMenu{Text: errs}
			}
			return n, nil
		}
		if err != nil {
			bw.Flush()
			return n, err
		}
		n++
		switch it.Type {
		case 'i':
			fmt.Fprintf(bw, "# %s\n", EscapeText(it.Display))
		case '3':
			fmt.Fprintf(bw, "# error: %s\n", EscapeText(it.Display))
			if len(errs) < 4 {
				errs = append(errs, EscapeText(it.Display))
			}
		default:
			others++
			u, err := it.URL()
			if err != nil {
				fmt.Fprintf(bw, "# invalid item (%s): %s\n", EscapeText(err.Error()), EscapeText(it.Display))
			} else {
				fmt.Fprintf(bw, "%s\t%s\n", u, EscapeText(it.Display))
			}
		}
		if bw.Buffered() > 16<<10 {
			if err := bw.Flush(); err != nil {
				return n, err
			}
		}
	}
}
