package access

// The Prospero client: the requests of a ProsperoPlan, each one ARDP
// message (prosperoardp.go), and their replies read as the Prospero
// protocol version 5 writes them ("The Prospero Protocol, Version 5",
// Neuman and Augart, USC/ISI, 1993): lines separated by unquoted LF, tokens
// separated by unquoted spaces or tabs, a token quoted with single quotes
// anywhere in it, a quote inside quotes doubled ("35' bytes'" is the token
// "35 bytes").

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

// ErrNoAccessMethod is matched (errors.Is) by the error for a Prospero file
// whose access methods urlkit cannot follow.
var ErrNoAccessMethod = errors.New("no access method urlkit can follow")

// NoAccessMethodError reports a Prospero object none of whose access
// methods urlkit can follow: each method offered, and why it is not
// followed.
type NoAccessMethodError struct {
	HSOName string
	Offered []string // each method's name
	Why     []string // the reason for each
}

// Error formats the methods and reasons.
func (e *NoAccessMethodError) Error() string {
	if len(e.Offered) == 0 {
		return fmt.Sprintf("prospero: %q: the server offers no access method for this object (no ACCESS-METHOD attribute)", EscapeText(e.HSOName))
	}
	parts := make([]string, len(e.Offered))
	for i := range e.Offered {
		parts[i] = EscapeText(e.Offered[i]) + " (" + e.Why[i] + ")"
	}
	return fmt.Sprintf("prospero: %q: %s; the server offers %s", EscapeText(e.HSOName), ErrNoAccessMethod, strings.Join(parts, ", "))
}

// Is reports whether target is ErrNoAccessMethod.
func (e *NoAccessMethodError) Is(target error) bool { return target == ErrNoAccessMethod }

// prosperoMaxHops bounds the FORWARDED answers followed.
const prosperoMaxHops = 4

func init() {
	registerClient(func(x *execution, p *scheme.ProsperoPlan) (*Resource, error) { return x.prospero(p, 0) })
}

// prospero carries out a Prospero plan: the listing first; for a file, its
// attributes, then its contents through the access method followed.
func (x *execution) prospero(p *scheme.ProsperoPlan, hops int) (*Resource, error) {
	reqs := map[string]scheme.ProsperoRequest{}
	for _, r := range p.Requests {
		reqs[r.When] = r
	}
	first, ok := reqs[scheme.ProsperoFirst]
	if !ok {
		return nil, errors.New("prospero: the plan has no first request")
	}
	for _, r := range p.Requests {
		if strings.ContainsRune(strings.TrimSuffix(r.Message(), "\n"), 0) {
			return nil, fmt.Errorf("prospero: a request holds a NUL byte, which the protocol cannot carry; refusing to send it")
		}
	}
	c, err := x.dialUDP("prospero", p.Addr)
	if err != nil {
		return nil, err
	}
	raw := &ardpSocket{Conn: c}
	stop := x.watch(raw)
	closer := func() error { stop(); return raw.Close() }
	fail := func(err error) (*Resource, error) { closer(); return nil, err }

	// 1. The listing.
	step := "LIST " + strconv.Quote(p.HSOName)
	a, lx, err := x.prosperoSend(raw, p.Addr, step, first, 0)
	if err != nil {
		return fail(err)
	}
	toks, err := lx.firstAnswer(x, step)
	if err != nil {
		return fail(err)
	}
	switch {
	case len(toks) == 0 || toks[0] == "NONE-FOUND" || toks[0] == "LINK":
		l := &prosperoListing{x: x, lx: lx, a: a, p: p, step: step, maxLine: x.opts.maxLine(), pendingLine: toks}
		if len(toks) > 0 && toks[0] == "NONE-FOUND" {
			l.pendingLine = nil
		}
		fmt.Fprintf(&l.out, "%sdirectory %s on %s (URL, target, name, host, hsoname, bytes, last-modified, access methods)\n", prosperoListingHeader, strconv.Quote(EscapeText(p.HSOName)), p.Addr)
		m := x.newMeter(l, "prospero", step)
		body := x.newBody(m, m, "prospero", step, nil, closer)
		return &Resource{ReadCloser: body, Plan: p, Kind: "directory", ContentType: "text/plain; charset=utf-8", Size: -1}, nil
	case toks[0] == "FAILURE" && len(toks) > 1 && toks[1] == "NOT-A-DIRECTORY":
		// a file, or nothing: its attributes say
	case toks[0] == "FORWARDED":
		closer()
		return x.prosperoForward(p, toks, hops, step)
	case toks[0] == "FAILURE" && len(toks) > 1 && toks[1] == "NOT-AUTHORIZED":
		err := prosperoReplyError(step, toks)
		if r, ok := reqs[scheme.ProsperoNotAuthorized]; ok {
			// Most often a name outside the tree the server serves: ask
			// it for its root, as pstatus does, and say which name works.
			if root := x.prosperoRoot(raw, p.Addr, r); root != "" {
				err = &ProsperoRootError{Err: err, Addr: p.Addr, HSOName: p.HSOName, Root: root}
			}
		}
		return fail(err)
	default:
		return fail(prosperoReplyError(step, toks))
	}

	// 2. The attributes.
	info, ok := reqs[scheme.ProsperoNotADirectory]
	if !ok {
		return fail(&ReplyError{Protocol: "prospero", Step: step, Text: "FAILURE NOT-A-DIRECTORY"})
	}
	step = "GET-OBJECT-INFO " + strconv.Quote(p.HSOName)
	_, lx, err = x.prosperoSend(raw, p.Addr, step, info, int64(x.opts.maxReply()))
	if err != nil {
		return fail(err)
	}
	attrs, err := lx.attributes(x, step)
	if err != nil {
		var fw *prosperoForwarded
		if errors.As(err, &fw) {
			closer()
			return x.prosperoForward(p, fw.toks, hops, step)
		}
		return fail(err)
	}
	size := int64(-1)
	var methods [][]string
	for _, at := range attrs {
		switch at.name {
		case "SIZE":
			if v, ok := prosperoSize(at.values); ok {
				size = v
			}
		case "ACCESS-METHOD":
			methods = append(methods, at.values)
		}
	}
	host, port := splitAddr(p.Addr)
	linkHost := host + "(" + strconv.Itoa(port) + ")"
	noAccess := &NoAccessMethodError{HSOName: p.HSOName}
	for _, m := range methods {
		if len(m) == 0 {
			continue
		}
		target, why := prosperoMethodURL(m, linkHost, p.HSOName)
		if m[0] == "PROSPERO-CONTENTS" {
			if c, ok := reqs[scheme.ProsperoContentsMethod]; ok {
				return x.prosperoContents(raw, p, c, size, closer)
			}
			why = "the plan has no contents request"
		}
		if target != "" {
			closer()
			return x.prosperoFollow(target)
		}
		noAccess.Offered = append(noAccess.Offered, m[0])
		noAccess.Why = append(noAccess.Why, why)
	}
	return fail(noAccess)
}

// prosperoSize reads a SIZE attribute's value: "364737 bytes", as dirsrv
// writes it.
func prosperoSize(values []string) (int64, bool) {
	if len(values) != 1 {
		return 0, false
	}
	n, unit, ok := strings.Cut(values[0], " ")
	if !ok || unit != "bytes" {
		return 0, false
	}
	v, err := strconv.ParseInt(n, 10, 64)
	return v, err == nil && v >= 0
}

// ProsperoRootError is a refusal (FAILURE NOT-AUTHORIZED) of an hsoname
// outside the tree the server serves, with the root the server reports
// (its STATUS, as pstatus shows it) and the URL that names the same path
// under it (URL).
type ProsperoRootError struct {
	Err     error  // the refusal
	Addr    string // the server, host:port
	HSOName string // the name refused
	Root    string // the server's Root
}

func (e *ProsperoRootError) Error() string {
	return e.Err.Error() + "; the server serves the tree under " + strconv.Quote(e.Root) + " (its STATUS's Root, as pstatus reports it): try " + e.URL()
}

func (e *ProsperoRootError) Unwrap() error { return e.Err }

// URL is the prospero URL of the refused name under the server's root:
// the root itself for a name above it ("", "/", a prefix of the root),
// the name after the root otherwise ("pub" and "/pub" become ROOT/pub).
func (e *ProsperoRootError) URL() string {
	root := strings.TrimSuffix(e.Root, "/")
	name := strings.Trim(e.HSOName, "/")
	hso := root
	if name != "" && !strings.HasPrefix(root+"/", "/"+name+"/") {
		hso = root + "/" + name
	}
	host, port := splitAddr(e.Addr)
	return ProsperoURL(host+"("+strconv.Itoa(port)+")", hso)
}

// prosperoRoot sends the STATUS request r and returns the Root its reply
// names, "" when it names none or the server does not answer.
func (x *execution) prosperoRoot(conn *ardpSocket, addr string, r scheme.ProsperoRequest) string {
	_, lx, err := x.prosperoSend(conn, addr, "STATUS", r, int64(x.opts.maxReply()))
	if err != nil {
		return ""
	}
	for {
		line, err := lx.r.ReadString('\n')
		if root, ok := strings.CutPrefix(strings.TrimSpace(line), "Root:"); ok {
			root = strings.TrimSpace(root)
			if strings.HasPrefix(root, "/") && !strings.ContainsAny(root, "\x00\r\n") {
				return root
			}
		}
		if err != nil {
			return ""
		}
	}
}

// prosperoSend sends one request and returns its reply's lexer.
func (x *execution) prosperoSend(conn *ardpSocket, addr, step string, r scheme.ProsperoRequest, limit int64) (*ardpConn, *prosperoLexer, error) {
	msg := r.Message()
	for _, l := range strings.Split(strings.TrimSuffix(msg, "\n"), "\n") {
		x.opts.traceSent(l)
	}
	a, err := x.ardp(conn, addr, step, []byte(msg), limit)
	if err != nil {
		return nil, nil, err
	}
	return a, &prosperoLexer{r: bufio.NewReaderSize(a, 8<<10), x: x, step: step}, nil
}

// prosperoContents asks for the file's contents (PROSPERO-CONTENTS) and
// streams them: the DATA token of "ATTRIBUTE OBJECT INTRINSIC CONTENTS
// SEQUENCE DATA token", unquoted as it arrives.
func (x *execution) prosperoContents(conn *ardpSocket, p *scheme.ProsperoPlan, r scheme.ProsperoRequest, size int64, closer func() error) (*Resource, error) {
	step := "GET-OBJECT-INFO 'CONTENTS' " + strconv.Quote(p.HSOName)
	if x.opts.MaxSize > 0 && size > x.opts.MaxSize {
		closer()
		return nil, &LimitError{Protocol: "prospero", Step: step, Limit: "max-size", Value: fmt.Sprintf("%d bytes (the server gives SIZE %d bytes)", x.opts.MaxSize, size)}
	}
	a, lx, err := x.prosperoSend(conn, p.Addr, step, r, 0)
	if err != nil {
		closer()
		return nil, err
	}
	// Skip what comes before the contents; read its leading tokens.
	want := []string{"ATTRIBUTE", "OBJECT", "INTRINSIC", "CONTENTS", "SEQUENCE", "DATA"}
	others := 0 // ATTRIBUTE lines of other attributes
	for {
		// Empty lines are skipped, as lexer.line skips them; the end of
		// the reply comes here (a token read at the end is "", not
		// io.EOF).
		lx.start()
		eol, err := lx.skipSpace()
		if err == io.EOF {
			closer()
			what := "it held no ATTRIBUTE line"
			if others > 0 {
				what = fmt.Sprintf("after %d ATTRIBUTE lines of other attributes", others)
			}
			return nil, &StepError{Protocol: "prospero", Step: step, Err: fmt.Errorf("the reply ended without the file's CONTENTS attribute (%s)", what)}
		}
		if err != nil {
			closer()
			return nil, err
		}
		if eol {
			continue
		}
		tok, eol, err := lx.smallToken(x.opts.maxLine())
		if err != nil {
			closer()
			return nil, err
		}
		if tok == "ATTRIBUTE" && !eol {
			ok := true
			for _, w := range want[1:] {
				t, e, err := lx.smallToken(x.opts.maxLine())
				if err != nil {
					closer()
					return nil, err
				}
				if t != w || e {
					ok = false
					others++
					if !e {
						lx.skipLine()
					}
					break
				}
			}
			if ok {
				break
			}
			continue
		}
		line := []string{tok}
		if !eol {
			rest, err := lx.rest(x.opts.maxLine())
			if err != nil {
				closer()
				return nil, err
			}
			line = append(line, rest...)
		}
		switch line[0] {
		case "VERSION", "AUTHENTICATED", "WARNING":
			x.opts.traceRecv(strings.Join(line, " "))
			continue
		}
		closer()
		return nil, prosperoReplyError(step, line)
	}
	x.opts.traceRecv("ATTRIBUTE OBJECT INTRINSIC CONTENTS SEQUENCE DATA (the file's bytes follow)")
	tr := &prosperoTokenReader{lx: lx, a: a, step: step, size: size}
	m := x.newMeter(tr, "prospero", step)
	body := x.newBody(m, m, "prospero", step, nil, closer)
	return &Resource{ReadCloser: body, Plan: p, Kind: "file", Size: size}, nil
}

// prosperoFollow carries out the plan of an access method's URL (an ftp
// or gopher URL) in the same execution: the same options, dialler and
// deadline.
func (x *execution) prosperoFollow(target string) (*Resource, error) {
	u, err := urlkit.Parse(target)
	if err != nil {
		return nil, fmt.Errorf("prospero: the access method's URL %q: %w", target, err)
	}
	plan, err := scheme.PlanOf(u, scheme.Config{})
	if err != nil {
		return nil, fmt.Errorf("prospero: the access method's URL %q: %w", target, err)
	}
	x.opts.tracef("* following the access method: %s", target)
	if x.opts.OnPlan != nil {
		x.opts.OnPlan(plan)
	}
	switch plan := plan.(type) {
	case *scheme.FTPPlan:
		return x.ftp(plan)
	case *scheme.GopherPlan:
		return x.gopher(plan)
	}
	return nil, fmt.Errorf("prospero: the access method's URL %q is not one urlkit follows", target)
}

// prosperoForwarded carries a FORWARDED answer out of a reader.
type prosperoForwarded struct{ toks []string }

func (e *prosperoForwarded) Error() string { return "FORWARDED " + strings.Join(e.toks[1:], " ") }

// prosperoForward follows "FORWARDED host-type host-name hsoname-type
// hsoname version": the same requests to the new host and name.
func (x *execution) prosperoForward(p *scheme.ProsperoPlan, toks []string, hops int, step string) (*Resource, error) {
	if hops >= prosperoMaxHops {
		return nil, &ReplyError{Protocol: "prospero", Step: step, Text: fmt.Sprintf("forwarded more than %d times", prosperoMaxHops)}
	}
	if len(toks) < 5 || toks[1] != "INTERNET-D" || toks[3] != "ASCII" {
		return nil, prosperoReplyError(step, toks)
	}
	host, port, ok := prosperoHostPort(toks[2], scheme.DefaultPort("prospero"))
	if !ok {
		return nil, prosperoReplyError(step, toks)
	}
	np := *p
	np.Addr = net.JoinHostPort(host, strconv.Itoa(port))
	np.HSOName = toks[4]
	np.Requests = nil
	for _, r := range p.Requests {
		nr := r
		nr.Commands = nil
		for _, c := range r.Commands {
			switch c := c.(type) {
			case scheme.ProsperoDirectory:
				c.HSOName = toks[4]
				nr.Commands = append(nr.Commands, c)
			case scheme.ProsperoGetObjectInfo:
				c.HSOName = toks[4]
				nr.Commands = append(nr.Commands, c)
			default:
				nr.Commands = append(nr.Commands, c)
			}
		}
		np.Requests = append(np.Requests, nr)
	}
	x.opts.tracef("* the server forwards the object to %s %q", np.Addr, EscapeText(np.HSOName))
	if x.opts.OnPlan != nil {
		x.opts.OnPlan(&np)
	}
	return x.prospero(&np, hops+1)
}

// prosperoReplyError is the error for a reply line that refuses a request
// (FAILURE, ERROR, NONE-FOUND, ...).
func prosperoReplyError(step string, toks []string) error {
	text := strings.Join(toks, " ")
	switch {
	case len(toks) == 0:
		text = "an empty reply"
	case strings.Trim(text, " ") == "":
		text = fmt.Sprintf("a line of %d empty token(s) ('') where the server's answer was expected", len(toks))
	case toks[0] == "NONE-FOUND":
		text = "NONE-FOUND: no such object"
	case toks[0] == "FAILURE" && len(toks) > 1 && toks[1] == "NOT-FOUND":
		text += ": no such object"
	case toks[0] == "FAILURE" && len(toks) > 1 && toks[1] == "NOT-AUTHORIZED":
		text += ": the server does not let this client read it"
	}
	return &ReplyError{Protocol: "prospero", Step: step, Text: text}
}

// splitAddr splits host:port.
func splitAddr(addr string) (string, int) {
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return addr, 0
	}
	n, _ := strconv.Atoi(p)
	return h, n
}

// ---- the reply's lines and tokens ----------------------------------------

// prosperoLexer reads a reply's tokens.
type prosperoLexer struct {
	r       *bufio.Reader
	x       *execution
	step    string
	n       int  // bytes of the current line so far
	quoted  bool // inside quotes (kept while a token is read in pieces)
	scratch []byte
}

// start begins a new line (for the line length bound).
func (l *prosperoLexer) start() { l.n = 0 }

// readByte reads one byte; io.EOF at the end of the reply.
func (l *prosperoLexer) readByte() (byte, error) { return l.r.ReadByte() }

// skipSpace skips spaces, tabs and carriage returns before a token; it
// reports whether the line (or the reply) ended instead.
func (l *prosperoLexer) skipSpace() (eol bool, err error) {
	for {
		c, err := l.readByte()
		if err != nil {
			return true, err
		}
		switch c {
		case ' ', '\t', '\r':
			continue
		case '\n':
			return true, nil
		}
		l.r.UnreadByte()
		return false, nil
	}
}

// token appends the next token's bytes, unquoted, to dst and returns it.
// It stops at unquoted space (eol false) or LF or the end of the reply
// (eol true); or, when stop is positive, once dst holds stop bytes (more
// true: the token goes on, and the next call continues it). max bounds
// the line's bytes (0: no bound).
func (l *prosperoLexer) token(dst []byte, max, stop int) (out []byte, eol, more bool, err error) {
	for {
		if stop > 0 && len(dst) >= stop {
			return dst, false, true, nil
		}
		c, err := l.r.ReadByte()
		if err == io.EOF {
			if l.quoted {
				return dst, true, false, &StepError{Protocol: "prospero", Step: l.step, Err: errors.New("the reply ends inside a quoted token")}
			}
			return dst, true, false, nil
		}
		if err != nil {
			return dst, true, false, err
		}
		l.n++
		if max > 0 && l.n > max {
			return dst, true, false, &LimitError{Protocol: "prospero", Step: l.step, Limit: "reply line", Value: fmt.Sprintf("%d bytes", max)}
		}
		if l.quoted {
			if c == '\'' {
				if nx, err := l.r.Peek(1); err == nil && nx[0] == '\'' {
					l.r.ReadByte()
					l.n++
				} else {
					l.quoted = false
					continue
				}
			}
		} else {
			switch c {
			case '\'':
				l.quoted = true
				continue
			case ' ', '\t':
				// the rest of the line may be empty
				eol, err := l.skipSpace()
				if err == io.EOF {
					err = nil
				}
				return dst, eol, false, err
			case '\r':
				if nx, err := l.r.Peek(1); err == nil && nx[0] == '\n' {
					continue
				}
			case '\n':
				return dst, true, false, nil
			}
		}
		dst = append(dst, c)
	}
}

// smallToken reads the next token of a line as a string.
func (l *prosperoLexer) smallToken(max int) (string, bool, error) {
	b, eol, _, err := l.token(l.scratch[:0], max, 0)
	l.scratch = b[:0]
	return string(b), eol, err
}

// rest reads the remaining tokens of a line.
func (l *prosperoLexer) rest(max int) ([]string, error) {
	var toks []string
	for {
		t, eol, err := l.smallToken(max)
		if err != nil && err != io.EOF {
			return nil, err
		}
		toks = append(toks, t)
		if eol || err == io.EOF {
			return toks, nil
		}
	}
}

// skipLine reads to the end of the line.
func (l *prosperoLexer) skipLine() error {
	for {
		b, eol, more, err := l.token(l.scratch[:0], 0, 4096)
		l.scratch = b[:0]
		if (eol && !more) || err != nil {
			return err
		}
	}
}

// line reads the next line's tokens; nil, io.EOF at the end of the reply.
func (l *prosperoLexer) line(max int) ([]string, error) {
	for {
		l.start()
		eol, err := l.skipSpace()
		if err == io.EOF {
			return nil, io.EOF
		}
		if err != nil {
			return nil, err
		}
		if eol {
			continue // an empty line
		}
		return l.rest(max)
	}
}

// answer reads the next reply line that is not the server's VERSION,
// AUTHENTICATED or WARNING (those are traced and skipped), tracing it;
// io.EOF at the end of the reply.
func (l *prosperoLexer) answer(x *execution) ([]string, error) {
	for {
		toks, err := l.line(x.opts.maxLine())
		if err != nil {
			return nil, err
		}
		if x.opts.Trace != nil {
			x.opts.traceRecv(joinTokens(toks))
		}
		switch toks[0] {
		case "VERSION", "AUTHENTICATED", "WARNING":
			continue
		}
		return toks, nil
	}
}

// firstAnswer reads the first line that answers the request (see
// answer); nil at the end of an empty reply.
func (l *prosperoLexer) firstAnswer(x *execution, step string) ([]string, error) {
	toks, err := l.answer(x)
	switch {
	case err == io.EOF:
		return nil, nil
	case err != nil:
		return nil, err
	case toks[0] == "VERSION-NOT-SUPPORTED":
		return nil, prosperoReplyError(step, toks)
	}
	return toks, nil
}

// prosperoAttr is one ATTRIBUTE line: "ATTRIBUTE applies-to namespace name
// [value-type] value...".
type prosperoAttr struct {
	appliesTo, namespace, name, valueType string
	values                                []string
}

// parseAttr reads an ATTRIBUTE line's tokens.
func parseAttr(toks []string) (prosperoAttr, bool) {
	if len(toks) < 4 || !strings.HasPrefix(toks[0], "ATTRIBUTE") {
		return prosperoAttr{}, false
	}
	a := prosperoAttr{appliesTo: toks[1], namespace: toks[2], name: toks[3]}
	rest := toks[4:]
	if a.namespace != "FIELD" && len(rest) > 0 {
		a.valueType, rest = rest[0], rest[1:]
	} else if len(rest) > 0 && (rest[0] == "SEQUENCE" || rest[0] == "LINK" || rest[0] == "FILTER") {
		a.valueType, rest = rest[0], rest[1:]
	}
	a.values = rest
	return a, true
}

// attributes reads a GET-OBJECT-INFO reply: its ATTRIBUTE lines.
func (l *prosperoLexer) attributes(x *execution, step string) ([]prosperoAttr, error) {
	var out []prosperoAttr
	for {
		toks, err := l.answer(x)
		if err == io.EOF {
			if len(out) == 0 {
				return nil, &ReplyError{Protocol: "prospero", Step: step, Text: "an empty reply (no attributes)"}
			}
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if toks[0] == "FORWARDED" {
			return nil, &prosperoForwarded{toks: toks}
		}
		a, ok := parseAttr(toks)
		if !ok {
			return nil, prosperoReplyError(step, toks)
		}
		out = append(out, a)
	}
}

// joinTokens writes tokens for a trace line, quoting those that need it.
func joinTokens(toks []string) string {
	s := make([]string, len(toks))
	for i, t := range toks {
		s[i] = scheme.ProsperoQuote(t)
	}
	return strings.Join(s, " ")
}

// prosperoTokenReader streams one token: a file's contents.
type prosperoTokenReader struct {
	lx    *prosperoLexer
	a     *ardpConn
	step  string
	size  int64 // the SIZE the server gave, -1 when none
	n     int64
	ended bool
	err   error
}

func (t *prosperoTokenReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if t.err != nil {
		return 0, t.err
	}
	if t.ended {
		t.err = t.finish()
		if t.err == nil {
			t.err = io.EOF
		}
		return 0, t.err
	}
	b, _, more, err := t.lx.token(p[:0], 0, len(p))
	t.n += int64(len(b))
	if err != nil {
		t.err = err
	} else if !more {
		t.ended = true
	}
	if len(b) == 0 && t.err == nil {
		return t.Read(p)
	}
	return len(b), t.err
}

// finish reads the rest of the reply and checks it is complete and that
// the contents have the size the server announced.
func (t *prosperoTokenReader) finish() error {
	if _, err := io.Copy(io.Discard, io.LimitReader(t.lx.r, 1<<20)); err != nil {
		return err
	}
	if !t.a.complete() {
		return &StepError{Protocol: "prospero", Step: t.step, Err: errors.New("the reply goes on after the contents")}
	}
	if t.size >= 0 && t.n != t.size {
		return &StepError{Protocol: "prospero", Step: t.step, Err: fmt.Errorf("the server announced SIZE %d bytes and sent %d", t.size, t.n)}
	}
	return nil
}

// ---- directory listings ---------------------------------------------------

// prosperoListingHeader starts a listing.
const prosperoListingHeader = "# Prospero "

// ProsperoEntry is one link of a Prospero directory listing.
type ProsperoEntry struct {
	URL     string // the prospero URL of the object, or for an EXTERNAL link the URL of its access method; "" when there is none
	Target  string // FILE, DIRECTORY, DIRECTORY+FILE, OBJECT, SYMBOLIC, EXTERNAL, UNION (a union link)
	Name    string
	Host    string // as the server writes it: HOST(PORT)
	HSOName string
	// What the server's attributes say of the object (vls -A shows
	// them): SIZE in bytes (-1 when not given), LAST-MODIFIED as the
	// server writes it (YYYYMMDDHHMMSSZ, "" when not given) and the names
	// of its ACCESS-METHODs (PROSPERO-CONTENTS, AFTP, GOPHER, LOCAL...).
	Size     int64
	Modified string
	Access   []string
	Note     string // for a line of the listing that is a note, not an entry
}

// prosperoListing turns LINK lines into listing lines as they arrive: the
// entry's URL (RFC 1738 3.11; "-" when none), target, name, host,
// hsoname, size, last-modified and access methods (comma-separated),
// separated by TABs, the texts escaped with EscapeText, "-" for what the
// server did not give.
type prosperoListing struct {
	x           *execution
	lx          *prosperoLexer
	a           *ardpConn
	p           *scheme.ProsperoPlan
	step        string
	maxLine     int
	pendingLine []string // a line read but not yet used
	pending     *ProsperoEntry
	out         bytes.Buffer
	eof         bool
}

func (l *prosperoListing) Read(b []byte) (int, error) {
	for l.out.Len() == 0 {
		if l.eof {
			return 0, io.EOF
		}
		if err := l.more(); err != nil {
			return 0, err
		}
	}
	return l.out.Read(b)
}

// more reads the next reply line.
func (l *prosperoListing) more() error {
	toks := l.pendingLine
	l.pendingLine = nil
	if toks == nil {
		var err error
		toks, err = l.lx.line(l.maxLine)
		if err == io.EOF {
			l.flush()
			l.eof = true
			return nil
		}
		if err != nil {
			return err
		}
		if l.x.opts.Trace != nil {
			l.x.opts.traceRecv(joinTokens(toks))
		}
	}
	switch {
	case toks[0] == "LINK":
		l.flush()
		e, err := l.entry(toks)
		if err != nil {
			return err
		}
		l.pending = &e
	case strings.HasPrefix(toks[0], "ATTRIBUTE"):
		// An EXTERNAL link's access method names its URL (RFC 1738
		// 3.11: "External Prospero links are represented as URLs of the
		// underlying access method").
		if a, ok := parseAttr(toks); ok && l.pending != nil {
			l.pending.attr(a)
		}
	case toks[0] == "UNRESOLVED", toks[0] == "WARNING", toks[0] == "VERSION", toks[0] == "AUTHENTICATED", toks[0] == "NONE-FOUND":
		l.flush()
		if toks[0] == "UNRESOLVED" || toks[0] == "WARNING" {
			fmt.Fprintf(&l.out, "# %s\n", EscapeText(strings.Join(toks, " ")))
		}
	default:
		return prosperoReplyError(l.step, toks)
	}
	return nil
}

// flush writes the pending entry.
func (l *prosperoListing) flush() {
	e := l.pending
	if e == nil {
		return
	}
	l.pending = nil
	orDash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	size := "-"
	if e.Size >= 0 {
		size = strconv.FormatInt(e.Size, 10)
	}
	fmt.Fprintf(&l.out, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", orDash(e.URL), EscapeText(e.Target), EscapeText(e.Name), EscapeText(e.Host), EscapeText(e.HSOName),
		size, orDash(EscapeText(e.Modified)), orDash(EscapeText(strings.Join(e.Access, ","))))
}

// attr takes what the listing shows of one of the entry's ATTRIBUTE
// lines (Prospero protocol v5, the LIST command's ATTRIBUTES option): its
// size, its last modification, its access methods; an EXTERNAL link's
// access method also names its URL (RFC 1738 3.11: "External Prospero
// links are represented as URLs of the underlying access method").
func (e *ProsperoEntry) attr(a prosperoAttr) {
	switch a.name {
	case "SIZE":
		if v, ok := prosperoSize(a.values); ok {
			e.Size = v
		}
	case "LAST-MODIFIED":
		if len(a.values) == 1 {
			e.Modified = a.values[0]
		}
	case "ACCESS-METHOD":
		if len(a.values) > 0 && a.values[0] != "" && !slices.Contains(e.Access, a.values[0]) {
			e.Access = append(e.Access, a.values[0])
		}
		if e.Target == "EXTERNAL" && e.URL == "" {
			if u, _ := prosperoMethodURL(a.values, e.Host, e.HSOName); u != "" {
				e.URL = u
			}
		}
	}
}

// entry reads "LINK link-type target name-component host-type host-name
// hsoname-type hsoname object-version ...".
func (l *prosperoListing) entry(toks []string) (ProsperoEntry, error) {
	if len(toks) < 9 {
		return ProsperoEntry{}, &StepError{Protocol: "prospero", Step: l.step, Err: fmt.Errorf("a LINK line of %d tokens; it has at least 9: %q", len(toks), EscapeText(strings.Join(toks, " ")))}
	}
	e := ProsperoEntry{Target: toks[2], Name: toks[3], Host: toks[5], HSOName: toks[7], Size: -1}
	if toks[1] == "U" {
		e.Target = "UNION"
	}
	if toks[4] == "INTERNET-D" && toks[6] == "ASCII" && e.Target != "EXTERNAL" {
		e.URL = ProsperoURL(e.Host, e.HSOName)
	}
	return e, nil
}

// ProsperoURL returns the prospero URL of the object hsoname on the
// Prospero server host (as a link names it: HOST or HOST(PORT)), or "" when
// the host is not a name or address with an optional port. An hsoname
// that begins with "/" gives a double slash after the host (RFC 1738
// 3.11: "<URL:prospero://host.dom//pros/name> designates a <hsoname> of
// "/pros/name""); ";" and the characters RFC 1738 does not allow bare are
// percent-encoded, "/" is kept.
func ProsperoURL(host, hsoname string) string {
	h, port, ok := prosperoHostPort(host, scheme.DefaultPort("prospero"))
	if !ok {
		return ""
	}
	hp := h
	if port != scheme.DefaultPort("prospero") {
		hp = net.JoinHostPort(h, strconv.Itoa(port))
	}
	return "prospero://" + hp + "/" + escapeSegments(hsoname)
}

// escapeSegments percent-encodes each "/"-separated segment of p as one
// path segment (urlkit.EscapeSegment: ";", "?" and what RFC 1738 does not
// allow bare are encoded), keeping the "/"s.
func escapeSegments(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = urlkit.EscapeSegment(s)
	}
	return strings.Join(segs, "/")
}

// prosperoMethodURL returns the URL of an access method ("method host-type
// host hsoname-type hsoname ..."; an empty host or hsoname is the link's),
// or "" and why it cannot be followed. PROSPERO-CONTENTS has no URL of its
// own (the contents come from the Prospero server) and gives "".
func prosperoMethodURL(m []string, linkHost, linkHSO string) (string, string) {
	if len(m) < 5 {
		return "", fmt.Sprintf("an access method of %d elements; it has at least 5", len(m))
	}
	host, hso := m[2], m[4]
	if m[1] == "" && host == "" {
		host = linkHost
	}
	if m[3] == "" && hso == "" {
		hso = linkHSO
	}
	switch m[0] {
	case "PROSPERO-CONTENTS":
		return "", "the contents come from the Prospero server"
	case "AFTP":
		h, port, ok := prosperoHostPort(host, 21)
		if !ok {
			return "", fmt.Sprintf("host %q is not a host name", EscapeText(host))
		}
		// "hsoname tokens in the AFTP access method are pathnames relative
		// to the root of the anonymous FTP area" (Prospero protocol v5).
		u := "ftp://" + hostPortText(h, port, 21) + "/" + escapeSegments(strings.TrimPrefix(hso, "/"))
		if len(m) > 5 {
			switch m[5] {
			case "TEXT":
				u += ";type=a"
			case "BINARY":
				u += ";type=i"
			}
		}
		return u, ""
	case "GOPHER":
		h, port, ok := prosperoHostPort(host, 70)
		if !ok {
			return "", fmt.Sprintf("host %q is not a host name", EscapeText(host))
		}
		// The item type is the sixth element, or the selector's first
		// character (Prospero protocol v5, access-method).
		var t byte
		if len(m) > 5 && len(m[5]) == 1 {
			t = m[5][0]
		} else if hso != "" {
			t = hso[0]
		}
		u, err := scheme.GopherItemURL(t, hso, h, strconv.Itoa(port))
		if err != nil {
			return "", err.Error()
		}
		return u, ""
	case "LOCAL":
		return "", "a file on the server's own file system"
	case "FTP":
		return "", "full FTP needs an account on the host"
	case "NFS":
		return "", "an NFS mount"
	case "AFS":
		return "", "an AFS client"
	case "WAIS":
		return "", "a WAIS document-id this client cannot rebuild from the method's elements"
	}
	return "", "a method urlkit has no client for"
}

// hostPortText is host, or host:port when port is not def.
func hostPortText(h string, port, def int) string {
	if port == def {
		return h
	}
	return net.JoinHostPort(h, strconv.Itoa(port))
}

// ProsperoListReader reads a Prospero directory listing (a Resource of
// Kind "directory" from a prospero plan) line by line, as it arrives.
type ProsperoListReader struct{ sc *bufio.Scanner }

// NewProsperoListReader returns a reader of the listing r; a line may be
// DefaultMaxReply bytes long at most.
func NewProsperoListReader(r io.Reader) *ProsperoListReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), DefaultMaxReply)
	return &ProsperoListReader{sc: sc}
}

// Next returns the next entry, or a note the server added (a warning,
// unresolved components) as an entry with only Note set; io.EOF at the
// end.
func (l *ProsperoListReader) Next() (ProsperoEntry, error) {
	for l.sc.Scan() {
		line := l.sc.Text()
		if strings.HasPrefix(line, prosperoListingHeader) {
			continue
		}
		if n, ok := strings.CutPrefix(line, "# "); ok {
			return ProsperoEntry{Note: n}, nil
		}
		f := strings.Split(line, "\t")
		if len(f) != 8 && len(f) != 5 {
			return ProsperoEntry{}, fmt.Errorf("prospero: listing line %q has %d fields, not 8 (or 5, without the attributes)", EscapeText(line), len(f))
		}
		for i, v := range f {
			if v == "-" {
				f[i] = ""
			}
		}
		e := ProsperoEntry{URL: f[0], Target: f[1], Name: f[2], Host: f[3], HSOName: f[4], Size: -1}
		if len(f) == 8 {
			if n, err := strconv.ParseInt(f[5], 10, 64); err == nil && n >= 0 {
				e.Size = n
			}
			e.Modified = f[6]
			if f[7] != "" {
				e.Access = strings.Split(f[7], ",")
			}
		}
		return e, nil
	}
	if err := l.sc.Err(); err != nil {
		return ProsperoEntry{}, err
	}
	return ProsperoEntry{}, io.EOF
}

// ReadProsperoListing reads a whole Prospero directory listing: its
// entries, and the notes the server added.
func ReadProsperoListing(r io.Reader) (entries []ProsperoEntry, notes []string, err error) {
	l := NewProsperoListReader(r)
	for {
		e, err := l.Next()
		switch {
		case err == io.EOF:
			return entries, notes, nil
		case err != nil:
			return entries, notes, err
		case e.Note != "":
			notes = append(notes, e.Note)
		default:
			entries = append(entries, e)
		}
	}
}
