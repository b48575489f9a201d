package access

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/smtp"
	"strings"
	"time"
)

// MailMessage is a message composed from a mailto URL (RFC 1738 section
// 3.5: the URL gives the addressee; a subject and body come from the user
// or from parameters).
type MailMessage struct {
	// From is the sender's address; it is required to send.
	From string
	// To holds the addressees (RFC 822 addr-specs).
	To []string
	// Subject is the Subject field; non-ASCII text is encoded as an RFC
	// 2047 encoded-word.
	Subject string
	// Date is the Date field; the zero time means now.
	Date time.Time
	// Body is the message text; its line ends are written as CRLF.
	Body io.Reader
}

func (m *MailMessage) validate() error {
	if len(m.To) == 0 {
		return errors.New("mailto: no addressee")
	}
	for _, a := range append([]string{m.From}, m.To...) {
		if strings.ContainsAny(a, "\r\n\x00,") {
			return &UnsafeArgumentError{Protocol: "mailto", Field: "address", Value: a}
		}
	}
	if err := checkArg("mailto", "Subject", m.Subject); err != nil {
		return err
	}
	return nil
}

// WriteMessage writes the message in RFC 822 form: From (when set), To,
// Subject (when set), Date, an empty line and the body with CRLF line ends.
// Header values holding CR, LF or NUL are refused (they could add fields).
func WriteMessage(w io.Writer, m *MailMessage) error {
	if err := m.validate(); err != nil {
		return err
	}
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
	if m.Body != nil {
		br := bufio.NewReader(m.Body)
		for {
			line, err := br.ReadString('\n')
			if len(line) > 0 {
				line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
				bw.WriteString(line)
				bw.WriteString("\r\n")
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				return fmt.Errorf("mailto: reading body: %w", err)
			}
		}
	}
	return bw.Flush()
}

// SendMail delivers the message through the SMTP server at addr
// (host:port), with net/smtp: EHLO/HELO, MAIL FROM, one RCPT TO per
// addressee, DATA. STARTTLS is used when the server offers it. Cancelling
// ctx closes the connection.
func SendMail(ctx context.Context, addr string, m *MailMessage, opts *Options) error {
	if opts == nil {
		opts = &Options{}
	}
	if err := m.validate(); err != nil {
		return err
	}
	if m.From == "" {
		return errors.New("mailto: a From address is needed to send")
	}
	raw, err := opts.dial(ctx, "smtp", addr)
	if err != nil {
		return err
	}
	stop := watch(ctx, raw)
	defer stop()
	defer raw.Close()
	host, _, _ := net.SplitHostPort(addr)
	c, err := smtp.NewClient(&deadlineConn{Conn: raw, idle: opts.readTimeout()}, host)
	if err != nil {
		return &StepError{Protocol: "smtp", Step: "greeting", Err: ctxErr(ctx, err)}
	}
	step := func(name string, err error) error {
		if err == nil {
			return nil
		}
		return &StepError{Protocol: "smtp", Step: name, Err: ctxErr(ctx, err)}
	}
	if err := step("HELO", c.Hello("localhost")); err != nil {
		return err
	}
	if ok, _ := c.Extension("STARTTLS"); ok {
		if err := step("STARTTLS", c.StartTLS(&tls.Config{ServerName: host})); err != nil {
			return err
		}
	}
	if err := step("MAIL FROM", c.Mail(m.From)); err != nil {
		return err
	}
	for _, to := range m.To {
		if err := step("RCPT TO "+to, c.Rcpt(to)); err != nil {
			return err
		}
	}
	w, err := c.Data()
	if err := step("DATA", err); err != nil {
		return err
	}
	if err := WriteMessage(w, m); err != nil {
		return err
	}
	if err := step("DATA", w.Close()); err != nil {
		return err
	}
	return step("QUIT", c.Quit())
}
