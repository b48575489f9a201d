// Package access carries out the access plans of the scheme package over
// the real protocols: FTP as RFC 1738 section 3.2 prescribes, Gopher (RFC
// 1436, with Gopher+ length headers), NNTP (RFC 977/3977), HTTP, local
// files, WAIS (RFC 1625: Z39.50-1988 with the WAIS extensions, over TCP),
// Prospero (the Prospero protocol version 5 over ARDP, UDP), and the
// session-oriented schemes (telnet, rlogin, tn3270, mailto) as advisory
// text, a command to start or a message to send.
//
// There is one description of each protocol sequence: the plan. [Execute]
// takes a [scheme.Plan] and carries out its typed steps in order, by their
// fields (FTPPlan.Commands by verb, GopherPlan's request, NNTPPlan.Commands,
// HTTPPlan's request, WAISPlan.Messages encoded as APDUs,
// ProsperoPlan.Requests each one ARDP message), sending each command's line exactly as the step
// gives it and never reading the plan's text back; what `urlkit plan`
// prints is what `urlkit get` sends.
//
// Everything read from a server is bounded: control reply lines and whole
// replies ([Options.MaxReplyLine], [Options.MaxReply]), menu and listing
// lines, the resource ([Options.MaxSize]), the time between reads
// ([Options.ReadTimeout]), the whole operation ([Options.MaxTime]) and the
// transfer rate ([Options.SpeedLimit] over [Options.SpeedTime]). A limit
// that is hit is a *LimitError naming the limit and the protocol step.
// Every call takes a context.Context: cancelling it closes the connections.
package access

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"reflect"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/urlkit/urlkit/scheme"
)

// Defaults used when the corresponding Options field is zero. They follow
// curl where curl has a limit of its own.
const (
	DefaultConnectTimeout = 30 * time.Second
	DefaultReadTimeout    = 60 * time.Second
	// DefaultMaxReplyLine bounds one line of a control reply (FTP, NNTP,
	// SMTP, an HTTP header line) and one line of a gopher menu.
	DefaultMaxReplyLine = 16 << 10
	// DefaultMaxReply bounds one whole control reply (a multi-line FTP or
	// SMTP reply, an HTTP response header), as curl stops at 300 KB.
	DefaultMaxReply = 300 << 10
	// DefaultSpeedTime is the window of SpeedLimit when SpeedTime is zero
	// (curl's --speed-time default).
	DefaultSpeedTime = 30 * time.Second
	// DefaultMaxRedirects is the number of HTTP redirects followed when
	// FollowRedirects is set and MaxRedirects is zero.
	DefaultMaxRedirects = 10
)

// Options holds the settings shared by every protocol client. The zero value
// is ready to use: default bounds, no size limit, no redirects followed.
type Options struct {
	// ConnectTimeout bounds establishing each TCP connection (control and
	// data), name resolution included. Zero means DefaultConnectTimeout;
	// negative means no timeout.
	ConnectTimeout time.Duration
	// ReadTimeout is the idle timeout: the longest wait for any single read
	// or write on a connection. Zero means DefaultReadTimeout; negative
	// means no timeout.
	ReadTimeout time.Duration
	// MaxTime, when positive, bounds the whole operation, from the first
	// connection to the last byte of the resource.
	MaxTime time.Duration
	// SpeedLimit, when positive, is the lowest transfer rate in bytes per
	// second accepted over SpeedTime (zero: DefaultSpeedTime) while the
	// resource is read; a slower transfer is stopped.
	SpeedLimit   int64
	SpeedTime    time.Duration
	MaxSize      int64 // when positive, the most bytes of the resource received
	MaxReplyLine int   // zero: DefaultMaxReplyLine
	MaxReply     int   // zero: DefaultMaxReply
	// FollowRedirects makes an HTTP 3xx answer with a Location be followed,
	// up to MaxRedirects hops (zero: DefaultMaxRedirects). Each hop is a
	// new plan (see OnPlan); a hop to a scheme other than http or https, or
	// from https to http, is refused.
	FollowRedirects bool
	MaxRedirects    int
	// Lenient reads a redirect's Location with the lenient reading
	// (package lenient), as browsers read it: a space or an international
	// host name in it is repaired, each repair noted in the trace. Without
	// it the Location must be a URL or partial URL of RFC 1738 (of the
	// extended syntax, IPv6 hosts included, when the URL redirected from
	// is). Either way it is resolved by RFC 3986 section 5.2, as browsers
	// resolve it.
	Lenient bool
	// Progress, when set, is called after each read of the resource with the
	// total number of bytes received so far.
	Progress func(n int64)
	// Trace, when set, receives the protocol exchange: each line sent as
	// "> line" (a password masked), each line received as "< line" with
	// control characters and invalid UTF-8 escaped (see EscapeText), and
	// notes as "* text".
	Trace io.Writer
	// OnPlan, when set, is called with each plan carried out: the first,
	// and one per redirect hop.
	OnPlan func(scheme.Plan)
	// PasswordPrompt, when set, is asked for the password of an ftp URL
	// that gives a user and no password, when the server wants one (RFC
	// 1738 3.2.1). It must return when its context ends.
	PasswordPrompt func(ctx context.Context) (string, error)
	// ListDetails asks a gateway (FetchViaProxy) for ftp directories
	// with each file's kind, size and date, as scheme.Config.FTPListDetails
	// asks a server.
	ListDetails bool
	// FTPSessions, when set, keeps FTP control connections open between
	// retrievals and reuses them (see FTPSessions). A gateway sets it.
	FTPSessions *FTPSessions
	// Dial, when set, replaces the default dialer (a net.Dialer with
	// ConnectTimeout). It lets tests and callers route connections. Its
	// network is "tcp", or "udp" for Prospero's datagrams.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Policy, when set, is asked about every connection a client is about
	// to open (see Connection), FTP data connections included, with the
	// address actually dialled after name resolution; an error refuses
	// the connection before it is attempted (a *RefusedError wrapping it).
	// With Dial set, Policy is asked about the address Dial connected to,
	// before anything is sent.
	Policy func(Connection) error
	// Warn, when set, is told of what a retrieval found wrong without
	// failing: a resource longer than its server announced (a
	// *SizeError), which is delivered whole.
	Warn func(error)
	// Origin, when valid, is the address of the server whose answer
	// named the URL being retrieved (Resource.ServerAddr of a page whose
	// link a crawler follows): every connection of the retrieval, the
	// first included, is then held to the follow rule against it (see
	// MayFollow). When it is not valid, the first connection is the
	// user's own choice; every later one was named by a server (a
	// Prospero FORWARDED answer or access method, an HTTP redirect, an
	// FTP data connection) and is held to the rule against the address
	// of the server that named it. A refused connection is a
	// *RefusedError wrapping a *FollowError, before anything is sent.
	Origin netip.Addr
	// AllowPrivateFollow turns the follow rule off: servers may then
	// steer the retrieval to any address (urlkit get
	// --allow-private-follow).
	AllowPrivateFollow bool
	// Capture, when set, receives the protocol exchange as it happens:
	// each connection opened, and the bytes sent and received on it that
	// are not the resource's (see Exchange), exactly as on the wire but
	// for a password, masked as `urlkit plan` masks it. The resource
	// itself is the stream Execute returns. Package archive writes WARC
	// records from it. It is called from the goroutine reading the
	// stream, and must not keep Data.
	Capture func(Exchange)
	// KeepAlive is the TCP keep-alive period of the default dialer (as
	// net.Dialer's: zero means the system default of 15 s, negative turns
	// the probes off).
	KeepAlive time.Duration
}

func (o *Options) connectTimeout() time.Duration {
	if o.ConnectTimeout == 0 {
		return DefaultConnectTimeout
	}
	return o.ConnectTimeout
}

func (o *Options) readTimeout() time.Duration {
	if o.ReadTimeout == 0 {
		return DefaultReadTimeout
	}
	return o.ReadTimeout
}

func (o *Options) maxLine() int {
	if o.MaxReplyLine <= 0 {
		return DefaultMaxReplyLine
	}
	return o.MaxReplyLine
}

func (o *Options) maxReply() int {
	if o.MaxReply <= 0 {
		return DefaultMaxReply
	}
	return o.MaxReply
}

func (o *Options) tracef(format string, args ...any) {
	if o.Trace == nil {
		return
	}
	fmt.Fprintf(o.Trace, format+"\n", args...)
}

// traceSent logs a line sent; shown is the line with any password masked.
func (o *Options) traceSent(shown string) {
	if o.Trace != nil {
		fmt.Fprintf(o.Trace, "> %s\n", EscapeText(shown))
	}
}

// traceRecv logs a line received, escaped.
func (o *Options) traceRecv(line string) {
	if o.Trace != nil {
		fmt.Fprintf(o.Trace, "< %s\n", EscapeText(line))
	}
}

// EscapeText returns s fit for a terminal: control characters (C0, DEL and
// C1), and bytes that are not valid UTF-8, are written as \xNN (TAB as \t),
// so that text from a server cannot move the cursor, change colours or
// retitle the window; invisible formatting characters (IsFormatControl:
// the bidirectional controls, zero-width and other invisible format
// characters) are written as \uNNNN, so that a name cannot read
// reordered ("gpj.exe" behind U+202E reads "exe.jpg") or hide part of
// itself. Other text is unchanged.
func EscapeText(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || (r == utf8.RuneError && n == 1) || r >= 0xad && IsFormatControl(r) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || (r == utf8.RuneError && n == 1):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r >= 0x80 && r < 0xa0:
			for j := 0; j < n; j++ {
				fmt.Fprintf(&b, `\x%02x`, s[i+j])
			}
		case IsFormatControl(r):
			if r > 0xffff {
				fmt.Fprintf(&b, `\U%08x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// IsFormatControl reports whether r is an invisible formatting character
// that text from a server could use to disguise itself: the bidirectional
// controls, which reorder what follows them (the embeddings and overrides
// U+202A-202E, the isolates U+2066-2069, the marks U+200E, U+200F and
// U+061C), and the other invisible format characters that hide or split
// text (soft hyphen U+00AD, Mongolian vowel separator U+180E, zero width
// space U+200B, word joiner and invisible operators U+2060-2064, the
// deprecated format characters U+206A-206F, the byte order mark U+FEFF,
// the interlinear annotation characters U+FFF9-FFFB and the tag
// characters U+E0000-E007F). Zero width non-joiner and joiner (U+200C,
// U+200D) are not among them: Arabic and Indic scripts and emoji need
// them, and they reorder nothing. It is the one rule for such characters:
// EscapeText writes them escaped on a terminal, and the gateway's pages
// show them as visible marks.
func IsFormatControl(r rune) bool {
	switch {
	case r < 0xad:
		return false
	case r == 0x00ad, r == 0x061c, r == 0x180e, r == 0x200b, r == 0x200e, r == 0x200f,
		r >= 0x202a && r <= 0x202e, r >= 0x2060 && r <= 0x206f, r == 0xfeff,
		r >= 0xfff9 && r <= 0xfffb, r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	return false
}

// ---- errors ------------------------------------------------------------

// ErrNotRetrievable is wrapped by the error Execute returns for a plan that
// names no retrieval this package carries out: an interactive session
// (telnet, tn3270, rlogin), a message to compose (mailto), or a protocol
// urlkit has no client for (mid, cid).
var ErrNotRetrievable = errors.New("protocol not supported for retrieval")

// ErrLimit is matched (errors.Is) by every *LimitError.
var ErrLimit = errors.New("limit reached")

// LimitError reports a bound that was hit. The operation is stopped when it
// is returned.
type LimitError struct {
	Protocol string // "ftp", "gopher", "nntp", "http", "smtp", "file"
	Step     string // the protocol step, e.g. `RETR "x"` or "greeting"
	Limit    string // the option, e.g. "max-size", "max-time", "speed-limit", "reply line"
	Value    string // the bound, e.g. "1000 bytes"
}

// Error formats the failure for a person.
func (e *LimitError) Error() string {
	return fmt.Sprintf("%s: %s: %s limit of %s reached", e.Protocol, e.Step, e.Limit, e.Value)
}

// Is reports whether target is ErrLimit.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }

// SizeError reports a resource whose length differs from the length its
// server announced beforehand (an FTP 150 reply's "(N bytes)"): fewer
// bytes is the stream's error (it matches io.ErrUnexpectedEOF) and the
// transfer is never passed off as complete; more is delivered whole and
// reported to Options.Warn.
type SizeError struct {
	Protocol  string
	Step      string
	Announced int64
	Received  int64
}

// Error formats the mismatch for a person.
func (e *SizeError) Error() string {
	if e.Received < e.Announced {
		return fmt.Sprintf("%s: %s: the server announced %d bytes and sent %d: the transfer is incomplete", e.Protocol, EscapeText(e.Step), e.Announced, e.Received)
	}
	return fmt.Sprintf("%s: %s: the server announced %d bytes and sent %d, more than it announced (all delivered)", e.Protocol, EscapeText(e.Step), e.Announced, e.Received)
}

// Unwrap returns io.ErrUnexpectedEOF for a short resource.
func (e *SizeError) Unwrap() error {
	if e.Received < e.Announced {
		return io.ErrUnexpectedEOF
	}
	return nil
}

// checkAnnounced compares the bytes received with the length announced
// (-1: none): fewer is a *SizeError, more is one passed to Options.Warn.
func (x *execution) checkAnnounced(proto, step string, announced, received int64) error {
	if announced < 0 || received == announced {
		return nil
	}
	e := &SizeError{Protocol: proto, Step: step, Announced: announced, Received: received}
	if received < announced {
		return e
	}
	if x.opts.Warn != nil {
		x.opts.Warn(e)
	}
	return nil
}

// ConnectError reports a failure to establish a connection.
type ConnectError struct {
	Protocol string
	Addr     string
	Err      error
}

// Error formats the failure for a person.
func (e *ConnectError) Error() string {
	return fmt.Sprintf("%s: connect to %s: %v", e.Protocol, e.Addr, e.Err)
}

// Unwrap returns the underlying dial error.
func (e *ConnectError) Unwrap() error { return e.Err }

// ReplyError reports a server reply that refused a protocol step. Step
// names the command (a password never appears); Code and Text are the
// server's reply code and text, escaped when formatted.
type ReplyError struct {
	Protocol string // "ftp", "nntp", "gopher", "smtp"
	Step     string // e.g. "CWD pub"
	Code     int
	Text     string
}

// Error formats the failure for a person.
func (e *ReplyError) Error() string {
	if e.Code == 0 {
		text := EscapeText(e.Text)
		if strings.TrimSpace(e.Text) == "" {
			text = "an empty reply line where the server's answer was expected"
		}
		return fmt.Sprintf("%s: %s: %s", e.Protocol, EscapeText(e.Step), text)
	}
	return fmt.Sprintf("%s: %s: %d %s", e.Protocol, EscapeText(e.Step), e.Code, EscapeText(e.Text))
}

// StepError reports an I/O or protocol failure (not a refusing reply)
// during a named step, such as a timeout or a malformed reply.
type StepError struct {
	Protocol string
	Step     string
	Err      error
}

// Error formats the failure for a person.
func (e *StepError) Error() string {
	return fmt.Sprintf("%s: %s: %v", e.Protocol, EscapeText(e.Step), e.Err)
}

// Unwrap returns the underlying error.
func (e *StepError) Unwrap() error { return e.Err }

// ErrPasswordRequired is returned (wrapped) when an FTP server asks for a
// password that neither the plan nor a PasswordPrompt supplies.
var ErrPasswordRequired = errors.New("password required but none given and no password prompt set")

// ---- Execute -----------------------------------------------------------

// Resource is a resource being read: the stream, and what is known about
// it. Read it to the end (io.EOF means complete and checked: an FTP
// completion reply, a Gopher+ length, an NNTP terminator), then Close it.
type Resource struct {
	io.ReadCloser
	// Plan is the plan carried out: for HTTP after redirects, the last
	// hop's.
	Plan scheme.Plan
	// Kind says what the stream holds: "file", "directory" (a listing of
	// names, one a line; for prospero, of links, see
	// NewProsperoListReader), "menu" (a gopher menu as sent, terminator
	// removed), "article", "overview", "groups", "search" (the hits of a
	// WAIS search, see ReadWAISHits).
	Kind string
	// ListFormat is how the lines of an FTP directory listing are
	// written: which of NLST, MLSD and LIST was sent (see ParseListLine).
	ListFormat ListFormat
	// ContentType is the media type when known (HTTP Content-Type, the
	// gopher item type, a file's extension), else "".
	ContentType string
	// Size is the length in bytes when announced (Content-Length, a
	// Gopher+ length, FTP's 150 reply, a file's size), else -1.
	// It is what the server said, not a verified length: an FTP 150
	// reply's figure is checked when the stream ends (see SizeError).
	Size int64
	// Status and Header are an HTTP response's status line ("HTTP/1.0 200
	// OK") and header. For an ftp plan made with scheme.Config.Head
	// (Kind "head", no body), Header holds the SIZE and MDTM replies as
	// Content-Length and Last-Modified. Empty otherwise.
	Status string
	Header http.Header
	// ServerAddr is the IP address of the server the resource came from
	// (after redirects and forwards, the last one's), invalid when it is
	// not known (a connection through Options.Dial that reports none). A
	// crawler following a link found in the resource passes it as
	// Options.Origin (see MayFollow).
	ServerAddr netip.Addr
	// Directory is set when the plan named a file and the server refused
	// its RETR (SIZE, for a Head plan) with 550 while accepting the name
	// as a directory (CWD): the stream is that directory's listing (none,
	// for a Head plan), as lynx shows such a URL (scheme.FTPPlan.Directory).
	// The URL of the directory ends with "/".
	Directory bool
}

// Execute carries out an access plan of the scheme package and returns the
// resource as a stream: an *scheme.FTPPlan, *scheme.GopherPlan,
// *scheme.NNTPPlan, *scheme.HTTPPlan, *scheme.FilePlan, *scheme.WAISPlan
// (a search as a listing of hits, see ReadWAISHits; a document) or
// *scheme.ProsperoPlan (a directory as a listing, see
// NewProsperoListReader; a file). Any other plan gives an error wrapping
// ErrNotRetrievable. opts may be nil.
//
// The returned Resource must be closed; closing it early stops the
// transfer. When opts.MaxTime is set, the deadline covers reading the
// stream too.
func Execute(ctx context.Context, p scheme.Plan, opts *Options) (*Resource, error) {
	x := newExec(ctx, opts)
	opts = x.opts
	cancel := x.cancel
	if opts.OnPlan != nil {
		opts.OnPlan(p)
	}
	var (
		r   *Resource
		err error
	)
	run, ok := clients[reflect.TypeOf(p)]
	switch {
	case ok:
		r, err = run(x, p)
	case p == nil:
		err = errors.New("access: no plan")
	default:
		err = fmt.Errorf("access: %s: %w", p.Scheme(), ErrNotRetrievable)
	}
	if err != nil {
		cancel(nil)
		return nil, err
	}
	r.ServerAddr = x.server
	return r, nil
}

// clients maps a plan's type to the client that carries it out over its
// protocol. Each client registers itself in its own file (registerClient
// in an init function), so a scheme's client is one file of this package.
var clients = map[reflect.Type]func(x *execution, p scheme.Plan) (*Resource, error){}

// registerClient makes run the client of the plans of type P.
func registerClient[P scheme.Plan](run func(x *execution, p P) (*Resource, error)) {
	clients[reflect.TypeFor[P]()] = func(x *execution, p scheme.Plan) (*Resource, error) { return run(x, p.(P)) }
}

// Retrievable reports whether [Execute] has a client for p: false for a
// plan no protocol client carries out (a telnet session, a mail to compose,
// a message-id to look up), which Execute refuses with ErrNotRetrievable.
func Retrievable(p scheme.Plan) bool {
	_, ok := clients[reflect.TypeOf(p)]
	return ok
}

// newExec starts an execution: its context ends with MaxTime, and its
// cancel function must be called when it is over.
func newExec(ctx context.Context, opts *Options) *execution {
	if opts == nil {
		opts = &Options{}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	if opts.MaxTime > 0 {
		var c2 context.CancelFunc
		ctx, c2 = context.WithTimeoutCause(ctx, opts.MaxTime, errMaxTime)
		prev := cancel
		cancel = func(err error) { prev(err); c2() }
	}
	return &execution{ctx: ctx, cancel: cancel, opts: opts}
}

// errMaxTime is the cause of a context ended by Options.MaxTime.
var errMaxTime = errors.New("max-time")

// execution is one execution of a plan.
type execution struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	opts   *Options
	// server is the address of the server last connected to (invalid
	// before the first connection): the follow rule holds the next
	// connection to it.
	server netip.Addr
}

// fail turns an I/O error during step into the error to report: the
// context's cause when the context has ended (max-time, speed-limit,
// cancellation), else a StepError.
func (x *execution) fail(proto, step string, err error) error {
	if err == nil {
		return nil
	}
	var le *LimitError
	var re *ReplyError
	var se *StepError
	if errors.As(err, &le) || errors.As(err, &re) || errors.As(err, &se) {
		return err
	}
	if x.ctx.Err() != nil {
		return x.ctxErr(proto, step)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return &LimitError{Protocol: proto, Step: step, Limit: "timeout", Value: x.opts.readTimeout().String() + " between reads"}
	}
	return &StepError{Protocol: proto, Step: step, Err: err}
}

// ctxErr is the error for a context that has ended during step.
func (x *execution) ctxErr(proto, step string) error {
	cause := context.Cause(x.ctx)
	switch {
	case errors.Is(cause, errMaxTime):
		return &LimitError{Protocol: proto, Step: step, Limit: "max-time", Value: x.opts.MaxTime.String()}
	case errors.As(cause, new(*LimitError)):
		le := *cause.(*LimitError)
		le.Protocol, le.Step = proto, step
		return &le
	}
	return &StepError{Protocol: proto, Step: step, Err: fmt.Errorf("stopped: %w", x.ctx.Err())}
}

// watch closes c when the execution's context ends; stop ends the watch.
func (x *execution) watch(c io.Closer) (stop func() bool) {
	return context.AfterFunc(x.ctx, func() { c.Close() })
}

// deadlineConn applies the idle timeout to every read and write.
type deadlineConn struct {
	net.Conn
	idle time.Duration
}

func (c *deadlineConn) Read(p []byte) (int, error) {
	if c.idle > 0 {
		c.Conn.SetReadDeadline(time.Now().Add(c.idle))
	}
	return c.Conn.Read(p)
}

func (c *deadlineConn) Write(p []byte) (int, error) {
	if c.idle > 0 {
		c.Conn.SetWriteDeadline(time.Now().Add(c.idle))
	}
	return c.Conn.Write(p)
}

// meter counts the bytes of the resource as they are received, reports
// progress and enforces MaxSize.
type meter struct {
	r     io.Reader
	n     atomic.Int64
	limit int64
	opts  *Options
	proto string
	step  string
}

func (m *meter) Read(p []byte) (int, error) {
	if m.limit > 0 {
		left := m.limit - m.n.Load()
		if left <= 0 {
			// One more byte than allowed is asked for, to tell a resource of
			// exactly the limit from a larger one.
			left = 0
		}
		if int64(len(p)) > left+1 {
			p = p[:left+1]
		}
	}
	n, err := m.r.Read(p)
	total := m.n.Add(int64(n))
	if m.limit > 0 && total > m.limit {
		m.n.Store(m.limit)
		return n - int(total-m.limit), &LimitError{Protocol: m.proto, Step: m.step, Limit: "max-size", Value: fmt.Sprintf("%d bytes", m.limit)}
	}
	if n > 0 && m.opts.Progress != nil {
		m.opts.Progress(total)
	}
	return n, err
}

// newMeter returns a meter over r for the resource read during step.
func (x *execution) newMeter(r io.Reader, proto, step string) *meter {
	return &meter{r: r, limit: x.opts.MaxSize, opts: x.opts, proto: proto, step: step}
}

// body is the stream handed to callers: it maps errors to the context's
// cause, runs a finish function at EOF and a cleanup on Close, and watches
// the transfer rate.
type body struct {
	x      *execution
	r      io.Reader
	lines  lineReader // r, when it gives lines itself
	m      *meter
	proto  string
	step   string
	err    error // sticky
	atEOF  func() error
	closer func() error
	closed bool
	stopSp func()
}

// newBody returns the resource stream; r reads the resource through m.
func (x *execution) newBody(r io.Reader, m *meter, proto, step string, atEOF, closer func() error) *body {
	b := &body{x: x, r: r, m: m, proto: proto, step: step, atEOF: atEOF, closer: closer}
	b.lines, _ = r.(lineReader)
	if x.opts.SpeedLimit > 0 && m != nil {
		b.stopSp = x.speedWatch(m)
	}
	return b
}

// speedWatch cancels the execution when fewer than SpeedLimit bytes a
// second arrive over a SpeedTime window.
func (x *execution) speedWatch(m *meter) func() {
	window := x.opts.SpeedTime
	if window <= 0 {
		window = DefaultSpeedTime
	}
	tick := min(window, time.Second)
	t := time.NewTicker(tick)
	done := make(chan struct{})
	go func() {
		defer t.Stop()
		start, n0 := time.Now(), m.n.Load()
		for {
			select {
			case <-done:
				return
			case <-x.ctx.Done():
				return
			case now := <-t.C:
				el := now.Sub(start)
				if el < window {
					continue
				}
				got := m.n.Load() - n0
				if float64(got)/el.Seconds() < float64(x.opts.SpeedLimit) {
					x.cancel(&LimitError{Limit: "speed-limit", Value: fmt.Sprintf("%d bytes/s over %s", x.opts.SpeedLimit, window)})
					return
				}
				start, n0 = now, m.n.Load()
			}
		}
	}()
	var once atomic.Bool
	return func() {
		if once.CompareAndSwap(false, true) {
			close(done)
		}
	}
}

func (b *body) Read(p []byte) (int, error) {
	if err := b.ready(); err != nil {
		return 0, err
	}
	n, err := b.r.Read(p)
	return n, b.after(err)
}

// lineReader is a resource stream that can also give its next line
// without copying it (the gopher text and menu reader, dotReader).
type lineReader interface {
	// readLine returns the next line, its end included, as
	// bufio.Reader.ReadSlice('\n') does: valid until the next read, a
	// piece of a long line with bufio.ErrBufferFull, a last line without
	// an end with nil, then io.EOF.
	readLine() ([]byte, error)
}

// readLine reads the next line from a stream that gives lines (see
// lineReader), with Read's checks and errors.
func (b *body) readLine() ([]byte, error) {
	if err := b.ready(); err != nil {
		return nil, err
	}
	line, err := b.lines.readLine()
	if err == nil || err == bufio.ErrBufferFull {
		return line, err // a line, or a piece of a long line: the caller reads on
	}
	return line, b.after(err)
}

// ready returns the error a read must return at once: an earlier failure,
// or the stream closed.
func (b *body) ready() error {
	if b.err != nil {
		return b.err
	}
	if b.closed {
		return errors.New("access: read after close")
	}
	return nil
}

// after returns what a read that ended with err returns: at the stream's
// end the protocol's last check (atEOF), a failure said for the protocol
// step (the context's end as the cause when it ended the read). A failure
// is kept for every later read.
func (b *body) after(err error) error {
	if err == io.EOF && b.atEOF != nil {
		f := b.atEOF
		b.atEOF = nil
		if ferr := f(); ferr != nil {
			err = ferr
		}
	}
	if err != nil && err != io.EOF {
		err = b.x.fail(b.proto, b.step, err)
		if b.x.ctx.Err() != nil {
			var le *LimitError
			if !errors.As(err, &le) || le.Limit == "timeout" {
				err = b.x.ctxErr(b.proto, b.step)
			}
		}
	}
	if err != nil {
		b.err = err
		if b.stopSp != nil {
			b.stopSp()
		}
	}
	return err
}

// Close ends the transfer and releases the connections.
func (b *body) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	if b.stopSp != nil {
		b.stopSp()
	}
	var err error
	if b.closer != nil {
		err = b.closer()
	}
	b.x.cancel(nil)
	return err
}
