package access

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/mail"
	"strings"
	"time"
)

// MaxMessageBody bounds the body of a message composed from a mailto URL.
const MaxMessageBody = 10 << 20

// MailMessage is a message composed from a mailto URL (RFC 1738 section
// 3.5: the URL gives the addressee; a subject and body come from the user
// or from parameters).
type MailMessage struct {
	// From is the sender's address, an RFC 822 addr-spec; it is required to
	// send.
	From string
	// To holds the addressees (RFC 822 addr-specs).
	To []string
	// Subject is the Subject field; non-ASCII text is encoded as an RFC
	// 2047 encoded-word.
	Subject string
	// Date is the Date field; the zero time means now.
	Date time.Time
	// Body is the message text, at most MaxMessageBody bytes; every line
	// end (CR LF, a bare LF or a bare CR) is written as CRLF.
	Body []byte
}

// isAddrSpec reports whether a is a bare RFC 822 addr-spec: no display
// name, no angle brackets, no control characters or commas.
func isAddrSpec(a string) bool {
	if a == "" || strings.ContainsAny(a, "\r\n\x00,<>") {
		return false
	}
	p, err := mail.ParseAddress(a)
	return err == nil && p.Name == "" && p.Address == a
}

func (m *MailMessage) validate() error {
	if len(m.To) == 0 {
		return errors.New("mailto: no addressee")
	}
	if m.From != "" && !isAddrSpec(m.From) {
		return fmt.Errorf("mailto: From %q is not an RFC 822 addr-spec (local-part@domain)", EscapeText(m.From))
	}
	for _, a := range m.To {
		if !isAddrSpec(a) {
			return fmt.Errorf("mailto: To %q is not an RFC 822 addr-spec (local-part@domain)", EscapeText(a))
		}
	}
	if strings.ContainsAny(m.Subject, "\r\n\x00") {
		return fmt.Errorf("mailto: Subject holds CR, LF or NUL, which could add header fields; refusing it")
	}
	if len(m.Body) > MaxMessageBody {
		return &LimitError{Protocol: "mailto", Step: "body", Limit: "message size", Value: fmt.Sprintf("%d bytes", MaxMessageBody)}
	}
	return nil
}

// ReadBody reads a message body from r, at most MaxMessageBody bytes. The
// read is abandoned when ctx ends (r, such as a terminal, may block).
func ReadBody(ctx context.Context, r io.Reader) ([]byte, error) {
	b, err := Interruptible(ctx, func() ([]byte, error) { return readAll(r, MaxMessageBody, "reading the body") }, nil)
	if abandoned(ctx, err) {
		return nil, fmt.Errorf("mailto: reading the body: stopped: %w", err)
	}
	return b, err
}

// lines calls f with each line of b without its line end; CR LF, a bare
// LF and a bare CR all end a line (RFC 822 3.1: CR and LF appear only
// together).
func lines(b []byte, f func(line []byte)) {
	for len(b) > 0 {
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			f(b)
			return
		}
		f(b[:i])
		if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			i++
		}
		b = b[i+1:]
	}
}

// WriteMessage writes the message in RFC 822 form: From (when set), To,
// Subject (when set), Date, an empty line and the body with CRLF line ends.
func WriteMessage(w io.Writer, m *MailMessage) error {
	if err := m.validate(); err != nil {
		return err
	}
	return writeMessage(w, m, false)
}

func writeMessage(w io.Writer, m *MailMessage, dotStuff bool) error {
	bw := bufio.NewWriter(w)
	if m.From != "" {
		fmt.Fprintf(bw, "From: %s\r\n", m.From)
	}
	fmt.Fprintf(bw, "To: %s\r\n", strings.Join(m.To, ", "))
	if m.Subject != "" {
		fmt.Fprintf(bw, "Subject: %s\r\n", mime.QEncoding.Encode("utf-8", m.Subject))
	}
	d := m.Date
	if d.IsZero() {
		d = time.Now()
	}
	fmt.Fprintf(bw, "Date: %s\r\n\r\n", d.Format(time.RFC1123Z))
	lines(m.Body, func(l []byte) {
		if dotStuff && len(l) > 0 && l[0] == '.' {
			bw.WriteByte('.')
		}
		bw.Write(l)
		bw.WriteString("\r\n")
	})
	return bw.Flush()
}

// SendMail delivers the message through the SMTP server at addr
// (host:port), RFC 5321: EHLO (HELO when refused), STARTTLS when offered,
// MAIL FROM, one RCPT TO per addressee, DATA with the message
// dot-stuffed, QUIT. Replies are bounded like every control reply
// (Options.MaxReplyLine, MaxReply); cancelling ctx closes the connection.
func SendMail(ctx context.Context, addr string, m *MailMessage, opts *Options) error {
	if err := m.validate(); err != nil {
		return err
	}
	if m.From == "" {
		return errors.New("mailto: a From address is needed to send")
	}
	x := newExec(ctx, opts)
	defer x.cancel(nil)
	raw, err := x.dial("smtp", addr)
	if err != nil {
		return err
	}
	stop := x.watch(raw)
	defer stop()
	defer raw.Close()
	c := x.newCtrl("smtp", raw)
	expect := func(step string, code int, msg string, err error, want ...int) error {
		if err != nil {
			return err
		}
		for _, w := range want {
			if code == w {
				return nil
			}
		}
		return c.refused(step, code, msg)
	}
	code, msg, err := c.reply("greeting")
	if err := expect("greeting", code, msg, err, 220); err != nil {
		return err
	}
	code, msg, err = c.cmd("EHLO localhost", "EHLO localhost")
	if err == nil && code/100 == 5 {
		code, msg, err = c.cmd("HELO localhost", "HELO localhost")
	}
	if err := expect("EHLO", code, msg, err, 250); err != nil {
		return err
	}
	if hasExtension(msg, "STARTTLS") {
		code, msg, err = c.cmd("STARTTLS", "STARTTLS")
		if err := expect("STARTTLS", code, msg, err, 220); err != nil {
			return err
		}
		host, _, _ := net.SplitHostPort(addr)
		tc := tls.Client(c.rw.Conn, &tls.Config{ServerName: host})
		if err := tc.HandshakeContext(x.ctx); err != nil {
			return x.fail("smtp", "STARTTLS handshake", err)
		}
		c.rw = &deadlineConn{Conn: tc, idle: x.opts.readTimeout()}
		c.br = bufio.NewReaderSize(c.rw, 4096)
		code, msg, err = c.cmd("EHLO localhost", "EHLO localhost")
		if err := expect("EHLO", code, msg, err, 250); err != nil {
			return err
		}
	}
	line := "MAIL FROM:<" + m.From + ">"
	code, msg, err = c.cmd(line, line)
	if err := expect(line, code, msg, err, 250); err != nil {
		return err
	}
	for _, to := range m.To {
		line := "RCPT TO:<" + to + ">"
		code, msg, err = c.cmd(line, line)
		if err := expect(line, code, msg, err, 250, 251); err != nil {
			return err
		}
	}
	code, msg, err = c.cmd("DATA", "DATA")
	if err := expect("DATA", code, msg, err, 354); err != nil {
		return err
	}
	var buf bytes.Buffer
	writeMessage(&buf, m, true)
	buf.WriteString(".\r\n")
	x.opts.tracef("* message: %d bytes", buf.Len())
	if _, err := c.rw.Write(buf.Bytes()); err != nil {
		return x.fail("smtp", "DATA (message)", err)
	}
	code, msg, err = c.reply("DATA (end of message)")
	if err := expect("DATA (end of message)", code, msg, err, 250); err != nil {
		return err
	}
	code, msg, err = c.cmd("QUIT", "QUIT")
	return expect("QUIT", code, msg, err, 221)
}

// hasExtension reports whether an EHLO reply's text (lines joined by
// "\n") names the extension.
func hasExtension(text, ext string) bool {
	for _, l := range strings.Split(text, "\n") {
		if f := strings.Fields(l); len(f) > 0 && strings.EqualFold(f[0], ext) {
			return true
		}
	}
	return false
}
