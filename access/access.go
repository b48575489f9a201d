// Package access carries out the retrieval that a URL describes, over the
// real protocol: FTP as RFC 1738 section 3.2 prescribes, Gopher (RFC 1436,
// with Gopher+ length headers), NNTP (RFC 977/3977), HTTP through net/http,
// local files, and the session-oriented schemes (telnet, rlogin, tn3270,
// mailto) as advisory text, a command to start or a message to send.
//
// Each protocol has a request type whose fields are the protocol-level
// values a URL's parts map onto (already percent-decoded), so a caller that
// has parsed a URL can fill one in without this package knowing about URL
// syntax. Every fetch takes a context.Context: cancelling it closes the
// connection. Resources come back as an io.ReadCloser that counts bytes,
// reports Progress, enforces Options.MaxSize and applies the idle read
// timeout to each read.
//
// Arguments that would end up on a protocol's command line are checked for
// CR, LF and NUL (RFC 1738 section 6 warns that such characters in a URL can
// smuggle extra commands to a server); such a request is refused with an
// *UnsafeArgumentError before any connection is made.
package access

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"
)

// Default timeouts used when the corresponding Options field is zero.
const (
	DefaultConnectTimeout = 30 * time.Second
	DefaultReadTimeout    = 60 * time.Second
)

// Options holds the settings shared by every protocol client. The zero value
// is ready to use: default timeouts, no size limit, no hooks.
type Options struct {
	// ConnectTimeout bounds establishing each TCP connection (control and
	// data). Zero means DefaultConnectTimeout; negative means no timeout.
	ConnectTimeout time.Duration
	// ReadTimeout is the idle timeout: the longest wait for any single read
	// or write on a connection. Zero means DefaultReadTimeout; negative
	// means no timeout.
	ReadTimeout time.Duration
	// MaxSize, when positive, is the largest resource, in bytes, that a
	// fetch will deliver; reading past it fails with a *SizeLimitError and
	// the transfer is stopped.
	MaxSize int64
	// Progress, when set, is called after each read of the resource with the
	// total number of bytes delivered so far.
	Progress func(n int64)
	// Size, when set, is called once, before the resource's first byte,
	// with its size in bytes when the protocol announces it: the HTTP
	// Content-Length, or the "(N bytes)" an FTP server puts in its 150
	// reply to RETR (RFC 959 leaves that text free; vsftpd, wu-ftpd and
	// most others state the size there). It is not called otherwise.
	Size func(n int64)
	// Trace, when set, receives a log of the protocol exchange, one line per
	// command ("C: ...") or reply line ("S: ..."). Passwords are masked.
	Trace io.Writer
	// Dial, when set, replaces the default dialer (a net.Dialer with
	// ConnectTimeout). It lets tests and callers route connections.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

func (o *Options) connectTimeout() time.Duration {
	if o == nil || o.ConnectTimeout == 0 {
		return DefaultConnectTimeout
	}
	return o.ConnectTimeout
}

func (o *Options) readTimeout() time.Duration {
	if o == nil || o.ReadTimeout == 0 {
		return DefaultReadTimeout
	}
	return o.ReadTimeout
}

func (o *Options) dial(ctx context.Context, proto, addr string) (net.Conn, error) {
	if d := o.connectTimeout(); d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	var (
		c   net.Conn
		err error
	)
	if o != nil && o.Dial != nil {
		c, err = o.Dial(ctx, "tcp", addr)
	} else {
		var d net.Dialer
		c, err = d.DialContext(ctx, "tcp", addr)
	}
	if err != nil {
		return nil, &ConnectError{Protocol: proto, Addr: addr, Err: err}
	}
	return c, nil
}

func (o *Options) tracef(format string, args ...any) {
	if o == nil || o.Trace == nil {
		return
	}
	fmt.Fprintf(o.Trace, format+"\n", args...)
}

// UnsafeArgumentError reports a request argument containing CR, LF or NUL,
// which could inject protocol commands (RFC 1738 section 6). It is returned
// before any connection is made.
type UnsafeArgumentError struct {
	Protocol string // "ftp", "gopher", "nntp", "mailto"...
	Field    string // the request field, e.g. "CWD[1]" or "Selector"
	Value    string
}

// Error formats the failure for a person.
func (e *UnsafeArgumentError) Error() string {
	return fmt.Sprintf("%s: %s %q contains CR, LF or NUL; refusing to send it", e.Protocol, e.Field, e.Value)
}

// checkArg returns an *UnsafeArgumentError when v holds CR, LF or NUL.
func checkArg(proto, field, v string) error {
	if strings.ContainsAny(v, "\r\n\x00") {
		return &UnsafeArgumentError{Protocol: proto, Field: field, Value: v}
	}
	return nil
}

// SizeLimitError reports that a resource grew past Options.MaxSize. The
// transfer is stopped when it is returned.
type SizeLimitError struct {
	Limit int64
}

// Error formats the failure for a person.
func (e *SizeLimitError) Error() string {
	return fmt.Sprintf("access: resource exceeds the size limit of %d bytes", e.Limit)
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
// names the command (with its argument quoted, passwords omitted); Code and
// Text are the server's reply code and text.
type ReplyError struct {
	Protocol string // "ftp", "nntp", "gopher"
	Step     string // e.g. `CWD "pub"`
	Code     int
	Text     string
}

// Error formats the failure for a person.
func (e *ReplyError) Error() string {
	if e.Code == 0 {
		return fmt.Sprintf("%s: %s: %s", e.Protocol, e.Step, e.Text)
	}
	return fmt.Sprintf("%s: %s: %d %s", e.Protocol, e.Step, e.Code, e.Text)
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
	return fmt.Sprintf("%s: %s: %v", e.Protocol, e.Step, e.Err)
}

// Unwrap returns the underlying error.
func (e *StepError) Unwrap() error { return e.Err }

// ErrPasswordRequired is returned (wrapped) when an FTP server asks for a
// password that neither the request nor a PasswordPrompt supplies.
var ErrPasswordRequired = errors.New("password required but none given and no password prompt set")

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

// watch closes c when ctx is done; the returned stop function ends the
// watch and reports whether it had already fired.
func watch(ctx context.Context, c io.Closer) (stop func() bool) {
	s := context.AfterFunc(ctx, func() { c.Close() })
	return func() bool { return !s() }
}

// body is the stream handed to callers: it counts bytes, reports progress,
// enforces the size limit, turns errors after cancellation into the
// context's error, and runs a finish function at EOF and a cleanup on Close.
type body struct {
	ctx    context.Context
	r      io.Reader
	opts   *Options
	n      int64
	err    error // sticky
	atEOF  func() error
	closer func() error
	closed bool
}

func newBody(ctx context.Context, r io.Reader, opts *Options, atEOF, closer func() error) *body {
	return &body{ctx: ctx, r: r, opts: opts, atEOF: atEOF, closer: closer}
}

func (b *body) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.closed {
		return 0, errors.New("access: read after close")
	}
	limit := int64(0)
	if b.opts != nil {
		limit = b.opts.MaxSize
	}
	if limit > 0 && int64(len(p)) > limit-b.n+1 {
		p = p[:limit-b.n+1]
	}
	n, err := b.r.Read(p)
	if limit > 0 && b.n+int64(n) > limit {
		n = int(limit - b.n)
		b.n = limit
		b.err = &SizeLimitError{Limit: limit}
		b.progress()
		return n, b.err
	}
	b.n += int64(n)
	if n > 0 {
		b.progress()
	}
	if err == io.EOF {
		if b.atEOF != nil {
			if ferr := b.atEOF(); ferr != nil {
				err = ferr
			}
			b.atEOF = nil
		}
	}
	if err != nil && err != io.EOF {
		if cerr := b.ctx.Err(); cerr != nil {
			err = fmt.Errorf("access: transfer stopped: %w", cerr)
		}
	}
	if err != nil {
		b.err = err
	}
	return n, err
}

func (b *body) progress() {
	if b.opts != nil && b.opts.Progress != nil {
		b.opts.Progress(b.n)
	}
}

// Close ends the transfer and releases the connection.
func (b *body) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	if b.closer != nil {
		return b.closer()
	}
	return nil
}

// ctxErr prefers the context's error when the context has ended, since a
// closed connection is then only the consequence of the cancellation.
func ctxErr(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil && err != nil {
		return fmt.Errorf("%w (%v)", cerr, err)
	}
	return err
}

// traceConn logs each complete line read from a control connection as
// "S: line" to the trace writer.
type traceConn struct {
	io.ReadWriter
	opts *Options
	part []byte
}

func (t *traceConn) Read(p []byte) (int, error) {
	n, err := t.ReadWriter.Read(p)
	t.part = append(t.part, p[:n]...)
	for {
		i := bytes.IndexByte(t.part, '\n')
		if i < 0 {
			break
		}
		t.opts.tracef("S: %s", strings.TrimRight(string(t.part[:i]), "\r"))
		t.part = t.part[i+1:]
	}
	return n, err
}

// controlRW wraps a control connection with the idle timeout and, when
// tracing, the reply logger.
func controlRW(c net.Conn, opts *Options) io.ReadWriter {
	var rw io.ReadWriter = &deadlineConn{Conn: c, idle: opts.readTimeout()}
	if opts.Trace != nil {
		rw = &traceConn{ReadWriter: rw, opts: opts}
	}
	return rw
}
