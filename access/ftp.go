package access

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"path"
	"strconv"
	"strings"
)

// DefaultAnonymousPassword is sent as the password of an anonymous FTP
// login when FTPRequest.AnonymousPassword is empty. RFC 1738 section 3.2.1
// asks for the end user's Internet e-mail address; callers that know it
// should set AnonymousPassword.
const DefaultAnonymousPassword = "urlkit@localhost"

// FTPRequest is one retrieval as RFC 1738 section 3.2 describes it. The
// strings are already percent-decoded.
type FTPRequest struct {
	// Addr is the server's host:port.
	Addr string
	// User and Password are the URL's user name and password; HasUser and
	// HasPassword tell an empty one from an absent one. Without a user the
	// login is "anonymous" with AnonymousPassword (RFC 1738 section 3.2.1).
	User, Password       string
	HasUser, HasPassword bool
	// AnonymousPassword is the e-mail address sent for an anonymous login;
	// empty means DefaultAnonymousPassword.
	AnonymousPassword string
	// CWD lists the directory components; each is sent, in order, as the
	// argument of one CWD command. An empty element sends "CWD " with an
	// empty argument, as RFC 1738 section 3.2.2 specifies for "//".
	CWD []string
	// Name is the last path component: the file to RETR, or for type 'd'
	// the argument of NLST (empty: NLST with no argument).
	Name string
	// Type is the ";type=" code: 'a' (TYPE A, RETR), 'i' (TYPE I, RETR), 'd'
	// (NLST), or 0 to guess: see GuessFTPType.
	Type byte
	// PasswordPrompt, when set, is called if the server answers USER with
	// 331 and the request has a user but no password (RFC 1738 section
	// 3.2.1: the client should then ask the end user for one).
	PasswordPrompt func(ctx context.Context) (string, error)
}

// GuessFTPType returns the transfer type used when a request has no type
// code: 'd' (a listing) when name is empty, since the URL then names a
// directory; 'a' when name's extension marks a text document (see
// textExtensions: .txt, .html, .c, .md and the like) or the name is a
// conventional text file name such as README; 'i' otherwise, since an
// image transfer never alters bytes.
func GuessFTPType(name string) byte {
	if name == "" {
		return 'd'
	}
	lower := strings.ToLower(name)
	switch lower {
	case "readme", "license", "copying", "changes", "changelog", "news", "install", "authors", "todo", "index":
		return 'a'
	}
	if ext := path.Ext(lower); ext != "" && textExtensions[ext[1:]] {
		return 'a'
	}
	return 'i'
}

// textExtensions are the file name extensions GuessFTPType treats as text.
var textExtensions = map[string]bool{
	"txt": true, "text": true, "asc": true, "md": true, "rst": true,
	"htm": true, "html": true, "xml": true, "json": true, "csv": true,
	"c": true, "h": true, "go": true, "py": true, "sh": true, "pl": true,
	"ps": false, "tex": true, "diff": true, "patch": true, "readme": true,
	"conf": true, "cfg": true, "ini": true, "rfc": true, "me": true,
	"1": true, "doc": false, "lst": true, "log": true, "faq": true,
}

// validate refuses values that would break the command line, before any
// connection is made.
func (r *FTPRequest) validate() error {
	if err := checkArg("ftp", "User", r.User); err != nil {
		return err
	}
	if err := checkArg("ftp", "Password", r.Password); err != nil {
		e := err.(*UnsafeArgumentError)
		e.Value = "(not shown)"
		return e
	}
	if err := checkArg("ftp", "AnonymousPassword", r.AnonymousPassword); err != nil {
		return err
	}
	for i, c := range r.CWD {
		if err := checkArg("ftp", fmt.Sprintf("CWD[%d]", i), c); err != nil {
			return err
		}
	}
	if err := checkArg("ftp", "Name", r.Name); err != nil {
		return err
	}
	switch r.Type {
	case 0, 'a', 'i', 'd', 'A', 'I', 'D':
	default:
		return fmt.Errorf("ftp: unknown type code %q (RFC 1738 allows a, i, d)", r.Type)
	}
	return nil
}

// ftpConn is one control connection.
type ftpConn struct {
	ctx  context.Context
	conn net.Conn
	tp   *textproto.Conn
	opts *Options
}

// cmd sends a command and reads one complete reply. show is the command as
// traced and named in errors (it differs from line for PASS).
func (c *ftpConn) cmd(show, line string) (int, string, error) {
	if strings.HasPrefix(line, "PASS ") {
		c.opts.tracef("C: PASS ****")
	} else {
		c.opts.tracef("C: %s", line)
	}
	if err := c.tp.PrintfLine("%s", line); err != nil {
		return 0, "", &StepError{Protocol: "ftp", Step: show, Err: ctxErr(c.ctx, err)}
	}
	return c.reply(show)
}

// reply reads one reply, skipping 1yz preliminary replies only when asked
// by the caller (it returns them otherwise).
func (c *ftpConn) reply(step string) (int, string, error) {
	code, msg, err := c.tp.ReadResponse(0)
	if err != nil {
		return 0, "", &StepError{Protocol: "ftp", Step: step, Err: ctxErr(c.ctx, err)}
	}
	return code, msg, nil
}

func ftpRefused(step string, code int, msg string) error {
	return &ReplyError{Protocol: "ftp", Step: step, Code: code, Text: strings.ReplaceAll(msg, "\n", " / ")}
}

func quoteStep(cmd, arg string) string { return cmd + " " + strconv.Quote(arg) }

// FetchFTP logs in, changes directory once per CWD element, and starts the
// transfer: NLST for type 'd', otherwise TYPE A or TYPE I then RETR, over a
// passive data connection (EPSV, falling back to PASV). The returned stream
// delivers the data connection's bytes unchanged; at its end the server's
// completion reply is checked, and Close sends QUIT.
func FetchFTP(ctx context.Context, req *FTPRequest, opts *Options) (io.ReadCloser, error) {
	if opts == nil {
		opts = &Options{}
	}
	if err := req.validate(); err != nil {
		return nil, err
	}
	raw, err := opts.dial(ctx, "ftp", req.Addr)
	if err != nil {
		return nil, err
	}
	stop := watch(ctx, raw)
	rw := controlRW(raw, opts)
	c := &ftpConn{ctx: ctx, conn: raw, tp: textproto.NewConn(struct {
		io.Reader
		io.Writer
		io.Closer
	}{rw, rw, raw}), opts: opts}
	fail := func(err error) (io.ReadCloser, error) {
		var re *ReplyError
		if errors.As(err, &re) && ctx.Err() == nil {
			// The connection still works: end the session politely.
			c.cmd("QUIT", "QUIT")
		}
		stop()
		raw.Close()
		return nil, err
	}

	// Greeting: 220, possibly after 120 "service ready in nnn minutes".
	for {
		code, msg, err := c.reply("greeting")
		if err != nil {
			return fail(err)
		}
		if code == 120 {
			continue
		}
		if code != 220 {
			return fail(ftpRefused("greeting", code, msg))
		}
		break
	}
	if err := c.login(req); err != nil {
		return fail(err)
	}
	for _, dir := range req.CWD {
		step := quoteStep("CWD", dir)
		code, msg, err := c.cmd(step, "CWD "+dir)
		if err != nil {
			return fail(err)
		}
		if code/100 != 2 {
			return fail(ftpRefused(step, code, msg))
		}
	}

	typ := req.Type | 0x20 // lower case; 0 stays ' ' below
	if req.Type == 0 {
		typ = GuessFTPType(req.Name)
	}
	var xfer string
	switch typ {
	case 'd':
		xfer = "NLST"
		if req.Name != "" {
			xfer += " " + req.Name
		}
	default:
		t := "TYPE I"
		if typ == 'a' {
			t = "TYPE A"
		}
		code, msg, err := c.cmd(t, t)
		if err != nil {
			return fail(err)
		}
		if code/100 != 2 {
			return fail(ftpRefused(t, code, msg))
		}
		xfer = "RETR " + req.Name
	}
	xferStep := xfer
	if req.Name != "" {
		xferStep = quoteStep(strings.Fields(xfer)[0], req.Name)
	}

	data, err := c.passive(ctx)
	if err != nil {
		return fail(err)
	}
	stopData := watch(ctx, data)
	code, msg, err := c.cmd(xferStep, xfer)
	if err == nil && code/100 != 1 && code/100 != 2 {
		err = ftpRefused(xferStep, code, msg)
	}
	if err != nil {
		stopData()
		data.Close()
		return fail(err)
	}
	if n, ok := sizeIn150(code, msg); ok && opts != nil && opts.Size != nil {
		opts.Size(n)
	}
	finished := code/100 == 2 // some servers complete before we read
	atEOF := func() error {
		data.Close()
		if finished {
			return nil
		}
		finished = true
		code, msg, err := c.reply(xferStep)
		if err != nil {
			return err
		}
		if code/100 != 2 {
			return ftpRefused(xferStep, code, msg)
		}
		return nil
	}
	closer := func() error {
		stopData()
		data.Close()
		if finished && ctx.Err() == nil {
			// Polite end; the reply does not matter.
			c.cmd("QUIT", "QUIT")
		}
		stop()
		return raw.Close()
	}
	dr := &deadlineConn{Conn: data, idle: opts.readTimeout()}
	return newBody(ctx, bufio.NewReaderSize(dr, 32<<10), opts, atEOF, closer), nil
}

// login sends USER and, when asked, PASS (RFC 1738 section 3.2.1).
func (c *ftpConn) login(req *FTPRequest) error {
	user, pass, havePass := req.User, req.Password, req.HasPassword
	if !req.HasUser {
		user = "anonymous"
		pass, havePass = req.AnonymousPassword, true
		if pass == "" {
			pass = DefaultAnonymousPassword
		}
	}
	step := quoteStep("USER", user)
	code, msg, err := c.cmd(step, "USER "+user)
	if err != nil {
		return err
	}
	switch {
	case code == 230 || code == 202:
		return nil
	case code == 331 || code == 332:
	default:
		return ftpRefused(step, code, msg)
	}
	if code == 332 {
		return ftpRefused(step, code, msg+" (accounts are not supported)")
	}
	if !havePass {
		if req.PasswordPrompt == nil {
			return &StepError{Protocol: "ftp", Step: "PASS", Err: fmt.Errorf("server asked for a password (%d %s): %w", code, msg, ErrPasswordRequired)}
		}
		p, err := req.PasswordPrompt(c.ctx)
		if err != nil {
			return &StepError{Protocol: "ftp", Step: "PASS", Err: fmt.Errorf("password prompt: %w", err)}
		}
		if err := checkArg("ftp", "Password", p); err != nil {
			err.(*UnsafeArgumentError).Value = "(not shown)"
			return err
		}
		pass = p
	}
	code, msg, err = c.cmd("PASS ****", "PASS "+pass)
	if err != nil {
		return err
	}
	if code == 230 || code == 202 {
		return nil
	}
	return ftpRefused("PASS", code, msg)
}

// passive opens the data connection: EPSV (RFC 2428) first, then PASV. The
// data connection always goes to the control connection's peer address;
// the address inside a PASV reply is ignored so that a server cannot point
// the client at a third host.
func (c *ftpConn) passive(ctx context.Context) (net.Conn, error) {
	host, _, err := net.SplitHostPort(c.conn.RemoteAddr().String())
	if err != nil {
		return nil, &StepError{Protocol: "ftp", Step: "EPSV", Err: err}
	}
	var port int
	code, msg, err := c.cmd("EPSV", "EPSV")
	if err != nil {
		return nil, err
	}
	if code == 229 {
		port, err = parseEPSV(msg)
		if err != nil {
			return nil, &StepError{Protocol: "ftp", Step: "EPSV", Err: err}
		}
	} else {
		code, msg, err = c.cmd("PASV", "PASV")
		if err != nil {
			return nil, err
		}
		if code != 227 {
			return nil, ftpRefused("PASV", code, msg)
		}
		port, err = parsePASV(msg)
		if err != nil {
			return nil, &StepError{Protocol: "ftp", Step: "PASV", Err: err}
		}
	}
	return c.opts.dial(ctx, "ftp", net.JoinHostPort(host, strconv.Itoa(port)))
}

// parseEPSV extracts the port from "Entering Extended Passive Mode (|||port|)".
func parseEPSV(msg string) (int, error) {
	i := strings.IndexByte(msg, '(')
	j := strings.LastIndexByte(msg, ')')
	if i < 0 || j < i+5 {
		return 0, fmt.Errorf("malformed EPSV reply %q", msg)
	}
	inner := msg[i+1 : j]
	d := inner[0]
	parts := strings.Split(inner, string(d))
	if len(parts) != 5 {
		return 0, fmt.Errorf("malformed EPSV reply %q", msg)
	}
	p, err := strconv.Atoi(parts[3])
	if err != nil || p < 1 || p > 65535 {
		return 0, fmt.Errorf("malformed EPSV port in %q", msg)
	}
	return p, nil
}

// parsePASV extracts the port from "Entering Passive Mode (h1,h2,h3,h4,p1,p2)".
func parsePASV(msg string) (int, error) {
	start := strings.IndexFunc(msg, func(r rune) bool { return r >= '0' && r <= '9' })
	if start < 0 {
		return 0, fmt.Errorf("malformed PASV reply %q", msg)
	}
	s := msg[start:]
	end := strings.IndexFunc(s, func(r rune) bool { return !(r >= '0' && r <= '9' || r == ',') })
	if end >= 0 {
		s = s[:end]
	}
	f := strings.Split(s, ",")
	if len(f) != 6 {
		return 0, fmt.Errorf("malformed PASV reply %q", msg)
	}
	var n [6]int
	for i, x := range f {
		v, err := strconv.Atoi(x)
		if err != nil || v < 0 || v > 255 {
			return 0, fmt.Errorf("malformed PASV reply %q", msg)
		}
		n[i] = v
	}
	p := n[4]<<8 | n[5]
	if p == 0 {
		return 0, errors.New("PASV reply gives port 0")
	}
	return p, nil
}

// sizeIn150 reads the size a server states in its 150 reply to RETR, as in
// "150 Opening BINARY mode data connection for motd (59 bytes)."
func sizeIn150(code int, msg string) (int64, bool) {
	if code != 150 {
		return 0, false
	}
	end := strings.LastIndex(msg, " bytes)")
	if end < 0 {
		return 0, false
	}
	start := strings.LastIndexByte(msg[:end], '(')
	if start < 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(msg[start+1:end], 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}
