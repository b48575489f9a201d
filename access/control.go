package access

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
)

// ctrl is a control connection (FTP, NNTP): lines out, bounded replies in.
type ctrl struct {
	x     *execution
	proto string
	conn  net.Conn // the raw connection
	rw    *deadlineConn
	br    *bufio.Reader
	line  []byte // scratch for long lines
}

func (x *execution) newCtrl(proto string, c net.Conn) *ctrl {
	rw := &deadlineConn{Conn: c, idle: x.opts.readTimeout()}
	return &ctrl{x: x, proto: proto, conn: c, rw: rw, br: bufio.NewReaderSize(rw, 4096)}
}

// send writes line and CRLF; shown is the line as traced and named in
// errors (a password masked).
func (c *ctrl) send(shown, line string) error {
	c.x.opts.traceSent(shown)
	buf := make([]byte, 0, len(line)+2)
	buf = append(append(buf, line...), '\r', '\n')
	if _, err := c.rw.Write(buf); err != nil {
		return c.x.fail(c.proto, shown, err)
	}
	if o := c.x.opts; o.Capture != nil {
		if shown != line { // a password, masked as the plan shows it
			buf = append(append(buf[:0], shown...), '\r', '\n')
		}
		o.sent(c.conn, false, buf)
	}
	return nil
}

// readLine reads one line of a reply, without its line end, refusing a
// line longer than MaxReplyLine. n counts the reply's bytes so far against
// MaxReply.
func (c *ctrl) readLine(step string, n *int) (string, error) {
	max := c.x.opts.maxLine()
	c.line = c.line[:0]
	for {
		frag, err := c.br.ReadSlice('\n')
		*n += len(frag)
		if len(c.line)+len(frag) > max+2 {
			return "", &LimitError{Protocol: c.proto, Step: step, Limit: "reply line", Value: fmt.Sprintf("%d bytes", max)}
		}
		if *n > c.x.opts.maxReply() {
			return "", &LimitError{Protocol: c.proto, Step: step, Limit: "reply size", Value: fmt.Sprintf("%d bytes", c.x.opts.maxReply())}
		}
		if err == bufio.ErrBufferFull {
			c.line = append(c.line, frag...)
			continue
		}
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
				if len(c.line)+len(frag) == 0 {
					err = fmt.Errorf("connection closed by the server")
				}
			}
			return "", c.x.fail(c.proto, step, err)
		}
		var s string
		if len(c.line) == 0 {
			s = string(bytes.TrimRight(frag, "\r\n"))
			if c.x.opts.Capture != nil {
				c.x.opts.received(c.conn, false, frag)
			}
		} else {
			c.line = append(c.line, frag...)
			s = string(bytes.TrimRight(c.line, "\r\n"))
			if c.x.opts.Capture != nil {
				c.x.opts.received(c.conn, false, c.line)
			}
		}
		c.x.opts.traceRecv(s)
		return s, nil
	}
}

// code reads the three-digit code at the start of a reply line.
func replyCode(line string) (int, bool) {
	if len(line) < 3 || (len(line) > 3 && line[3] != ' ' && line[3] != '-') {
		return 0, false
	}
	code, err := strconv.Atoi(line[:3])
	if err != nil || code < 100 || code > 599 {
		return 0, false
	}
	return code, true
}

// reply reads one reply: a single line "ddd text", or an FTP/SMTP
// multi-line reply "ddd-text" ... "ddd text" (RFC 959 4.2), bounded by
// MaxReplyLine and MaxReply. The text of a multi-line reply is its lines
// joined by "\n".
func (c *ctrl) reply(step string) (int, string, error) {
	n := 0
	first, err := c.readLine(step, &n)
	if err != nil {
		return 0, "", err
	}
	code, ok := replyCode(first)
	if !ok {
		return 0, "", &StepError{Protocol: c.proto, Step: step, Err: fmt.Errorf("malformed reply %q: it does not start with a three-digit code", EscapeText(first))}
	}
	if len(first) < 4 || first[3] != '-' {
		return code, strings.TrimPrefix(first[3:], " "), nil
	}
	var text strings.Builder
	text.WriteString(first[4:])
	end := first[:3] + " "
	for {
		l, err := c.readLine(step, &n)
		if err != nil {
			return 0, "", err
		}
		text.WriteByte('\n')
		if strings.HasPrefix(l, end) || l == first[:3] {
			text.WriteString(strings.TrimPrefix(l[3:], " "))
			return code, text.String(), nil
		}
		text.WriteString(l)
	}
}

// cmd sends a line and reads the reply.
func (c *ctrl) cmd(shown, line string) (int, string, error) {
	if err := c.send(shown, line); err != nil {
		return 0, "", err
	}
	return c.reply(shown)
}

// refused is the error for a reply that refuses step.
func (c *ctrl) refused(step string, code int, text string) error {
	return &ReplyError{Protocol: c.proto, Step: step, Code: code, Text: strings.ReplaceAll(text, "\n", " / ")}
}
