package access

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/urlkit/urlkit/scheme"
)

func init() { registerClient((*execution).ftp) }

// ftp carries out an FTP plan (RFC 1738 3.2): each of p.Commands in
// order, by its verb. USER is answered 230 (logged in, PASS is then
// skipped), 331 or 332; a PASS whose password is to be asked
// (scheme.PassAsk) asks Options.PasswordPrompt; EPSV opens the passive
// data connection (its Else, PASV, when EPSV is refused; the data
// connection always goes to the control connection's peer, whatever
// address a PASV reply names, so a server cannot point the client at a
// third host); RETR or NLST starts the transfer, whose completion reply is
// checked when the stream ends; QUIT is sent on Close.
func (x *execution) ftp(p *scheme.FTPPlan) (*Resource, error) {
	if err := checkFTPPlan(p); err != nil {
		return nil, err
	}
	// Options.FTPSessions (ftppool.go): a kept session first; if it fails
	// before its transfer starts, the plan again on a new connection.
	key := ""
	if x.opts.FTPSessions != nil {
		key = ftpSessionKey(p)
	}
	if kept := x.opts.FTPSessions.take(key); kept != nil {
		r, err := x.ftpSession(p, key, kept)
		var re *ReplyError
		if err == nil || errors.As(err, &re) || x.ctx.Err() != nil {
			return r, err
		}
		x.opts.tracef("* kept session failed (%v): a new connection", err)
	}
	return x.ftpSession(p, key, nil)
}

// checkFTPPlan refuses a plan this client cannot carry out as it stands:
// one that does not end with a transfer and QUIT, has a verb it does not
// know, or whose arguments hold CR, LF or NUL (RFC 1738 6; scheme's plans
// never do).
func checkFTPPlan(p *scheme.FTPPlan) error {
	n := len(p.Commands)
	if n < 3 || p.Commands[n-1].Verb != scheme.FTPQuit || !p.Head && !ftpTransferVerb(p.Commands[n-2].Verb) {
		return fmt.Errorf("ftp: plan has no transfer before QUIT: %q", redactedLines(p))
	}
	if len(p.Directory) > 0 && p.Directory[0].Verb != scheme.FTPCwd {
		return fmt.Errorf("ftp: plan's commands for a directory do not start with CWD: %q", EscapeText(p.Directory[0].Redacted()))
	}
	for i, c := range append(p.Commands[:n:n], p.Directory...) {
		if c.Verb.String() == "" {
			return fmt.Errorf("ftp: plan command %d has no verb this client knows (%d)", i+1, c.Verb)
		}
		if strings.ContainsAny(c.Arg, "\r\n\x00") {
			return fmt.Errorf("ftp: plan command %d %q holds CR, LF or NUL; refusing to send it (RFC 1738 6)", i+1, EscapeText(c.Redacted()))
		}
	}
	return nil
}

// ftpTransferVerb reports whether v starts a transfer on the data
// connection.
func ftpTransferVerb(v scheme.FTPVerb) bool {
	return v == scheme.FTPRetr || v == scheme.FTPNlst || v == scheme.FTPMlsd || v == scheme.FTPList
}

// redactedLines returns each command's Redacted line, for messages.
func redactedLines(p *scheme.FTPPlan) []string {
	out := make([]string, len(p.Commands))
	for i, c := range p.Commands {
		out[i] = c.Redacted()
	}
	return out
}

// ftpSession carries out p on a new connection, or on a kept session
// (skipping the greeting and the login and CWD commands, and TYPE when the
// session's type is the same).
func (x *execution) ftpSession(p *scheme.FTPPlan, key string, kept *ftpIdle) (*Resource, error) {
	var raw net.Conn
	var err error
	if kept != nil {
		raw = kept.conn
		x.connected(raw)
		x.opts.tracef("* reusing a logged-in session to %s", p.Addr)
		if x.opts.Capture != nil {
			// The exchange of this retrieval starts on a session opened
			// for an earlier one: it is reported as connected now.
			raw = x.opts.connected(Connection{Protocol: "ftp", Name: p.Addr}, raw)
		}
	} else if raw, err = x.dial("ftp", p.Addr); err != nil {
		return nil, err
	}
	stop := x.watch(raw)
	c := x.newCtrl("ftp", raw)
	var data net.Conn
	quit := func() {
		// Polite end, bounded: the reply does not matter.
		if x.ctx.Err() == nil {
			raw.SetDeadline(time.Now().Add(2 * time.Second))
			if c.send("QUIT", "QUIT") == nil {
				c.reply("QUIT")
			}
		}
	}
	fail := func(err error) (*Resource, error) {
		var re *ReplyError
		if errors.As(err, &re) {
			quit()
		}
		if data != nil {
			data.Close()
		}
		stop()
		raw.Close()
		return nil, err
	}
	typ := ""
	// feat is what the server's FEAT reply offered (RFC 2389), nil until
	// it is asked.
	var feat []string
	if kept != nil {
		feat = kept.feat
	}
	// Greeting: 220, possibly after 120 "service ready in nnn minutes"
	// (at most a few of those: a server repeating it forever is refused).
	for n := 0; kept == nil; n++ {
		code, msg, err := c.reply("greeting")
		if err != nil {
			return fail(err)
		}
		if code == 120 && n < 5 {
			continue
		}
		if code != 220 {
			return fail(c.refused("greeting", code, msg))
		}
		break
	}
	loggedIn := false
	var passive scheme.FTPCommand // the command that opened the data connection
	cmds := p.Commands[:len(p.Commands)-1]
	header := http.Header{} // the SIZE and MDTM replies of a Head plan
	// dir is set once the server has refused the plan's RETR (SIZE) with
	// 550 and accepted CWD to its name: the plan's Directory commands
	// replace the rest (toDirectory).
	dir := false
	toDirectory := func(refused error) bool {
		var re *ReplyError
		if dir || len(p.Directory) == 0 || !errors.As(refused, &re) || re.Code != 550 {
			return false
		}
		cwd := p.Directory[0]
		code, _, err := c.cmd(cwd.Redacted(), cwd.Line())
		if err != nil || code/100 != 2 {
			return false // not a directory either: the refusal stands
		}
		x.opts.tracef("* %s is a directory (%s refused with 550, CWD accepted)", EscapeText(cwd.Arg), re.Step)
		dir, cmds = true, p.Directory[1:]
		return true
	}
	for i := 0; i < len(cmds); i++ {
		cmd := cmds[i]
		if kept != nil && !dir && kept.has(cmd) {
			continue // the kept session is in this state already
		}
		line, show := cmd.Line(), cmd.Redacted()
		switch cmd.Verb {
		case scheme.FTPUser:
			code, msg, err := c.cmd(show, line)
			if err != nil {
				return fail(err)
			}
			switch code {
			case 230, 202:
				loggedIn = true
				x.opts.tracef("* logged in without a password: PASS is not sent")
			case 331:
			case 332:
				return fail(c.refused(show, code, msg+" (accounts are not supported)"))
			default:
				return fail(c.refused(show, code, msg))
			}
		case scheme.FTPPass:
			if loggedIn {
				continue
			}
			if cmd.Pass == scheme.PassAsk {
				pw, err := x.askPassword()
				if err != nil {
					return fail(err)
				}
				cmd.Arg = pw
				line = cmd.Line()
			}
			code, msg, err := c.cmd(show, line)
			if err != nil {
				return fail(err)
			}
			if code != 230 && code != 202 {
				return fail(c.refused("PASS", code, msg))
			}
			loggedIn = true
		case scheme.FTPCwd, scheme.FTPType:
			code, msg, err := c.cmd(show, line)
			if err != nil {
				return fail(err)
			}
			if code/100 != 2 {
				return fail(c.refused(show, code, msg))
			}
			if cmd.Verb == scheme.FTPType {
				typ = cmd.Arg
			}
		case scheme.FTPSize, scheme.FTPMdtm:
			code, msg, err := c.cmd(show, line)
			if err != nil {
				return fail(err)
			}
			if code != 213 && cmd.Verb == scheme.FTPMdtm {
				x.opts.tracef("* MDTM refused (%d): no Last-Modified", code)
				continue
			}
			if code != 213 {
				refused := c.refused(show, code, msg)
				if toDirectory(refused) {
					i = -1
					continue
				}
				return fail(refused)
			}
			if err := ftpHeader(header, cmd.Verb, msg); err != nil {
				if cmd.Verb == scheme.FTPSize {
					return fail(&StepError{Protocol: "ftp", Step: show, Err: err})
				}
				x.opts.tracef("* MDTM: %v: no Last-Modified", err)
			}
		case scheme.FTPFeat:
			if feat != nil {
				continue // the kept session's server answered it already
			}
			// RFC 2389 3: 211 and the features, one a line; a server
			// without FEAT refuses it (500, 502) and offers none.
			code, msg, err := c.cmd(show, line)
			if err != nil {
				return fail(err)
			}
			feat = []string{}
			if code == 211 {
				feat = featFeatures(msg)
			}
		case scheme.FTPEpsv, scheme.FTPPasv:
			if data, err = x.passive(c, cmd, p.Addr); err != nil {
				return fail(err)
			}
			passive = cmd
		case scheme.FTPRetr, scheme.FTPNlst, scheme.FTPMlsd, scheme.FTPList:
			if data == nil {
				return fail(fmt.Errorf("ftp: plan command %q comes before EPSV or PASV", show))
			}
			keep := func() {
				if typ == "" && kept != nil {
					typ = kept.typ
				}
				x.opts.FTPSessions.put(key, raw, typ, feat)
			}
			if dir {
				keep = nil // the session is in another directory than its key says
			}
			// A refusal comes back here unanswered (no QUIT yet): it may
			// send the plan to its Directory commands.
			unanswered := func(err error) (*Resource, error) { return nil, err }
			r, err := x.ftpTransfer(p, c, raw, data, cmd, passive, feat, stop, unanswered, keep)
			if err != nil {
				data = nil // ftpTransfer closed it
				if cmd.Verb == scheme.FTPRetr && toDirectory(err) {
					i = -1
					continue
				}
				return fail(err)
			}
			r.Directory = dir
			return r, nil
		default:
			return fail(fmt.Errorf("ftp: plan command %q is not one this client carries out", EscapeText(show)))
		}
	}
	if !p.Head {
		return fail(fmt.Errorf("ftp: plan ends before its transfer"))
	}
	// A Head plan: what the replies said, as a header, and no body.
	quit()
	stop()
	raw.Close()
	b := x.newBody(strings.NewReader(""), nil, "ftp", "QUIT", nil, nil)
	return &Resource{ReadCloser: b, Plan: p, Kind: "head", Size: -1, Header: header, Directory: dir}, nil
}

// ftpHeader records the 213 reply to SIZE (RFC 3659 4: the size in
// bytes) as Content-Length, or to MDTM (RFC 3659 3: time-val, UTC,
// YYYYMMDDHHMMSS with optional fractions) as Last-Modified in HTTP's date
// form, as curl -I shows them.
func ftpHeader(h http.Header, v scheme.FTPVerb, msg string) error {
	val := strings.TrimSpace(msg)
	switch v {
	case scheme.FTPSize:
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("malformed SIZE reply %q (RFC 3659 4: a decimal number of bytes)", EscapeText(val))
		}
		h.Set("Content-Length", strconv.FormatInt(n, 10))
	case scheme.FTPMdtm:
		digits, _, _ := strings.Cut(val, ".")
		t, err := time.Parse("20060102150405", digits)
		if err != nil {
			return fmt.Errorf("malformed MDTM reply %q (RFC 3659 2.3: YYYYMMDDHHMMSS)", EscapeText(val))
		}
		h.Set("Last-Modified", t.UTC().Format(http.TimeFormat))
	}
	return nil
}

// ftpTransfer sends the transfer command (RETR, NLST, MLSD or LIST) and
// returns the data connection's stream. The command's rule decides what
// is sent: Else[0] in its place when the FEAT reply feat does not offer
// its Feature; and each verb of Else in turn when the server refuses the
// one before as a command it does not carry out (500, 501, 502, 504), on
// a new data connection opened as passive says.
//
// keep, called on Close after a complete transfer when sessions are kept,
// hands the control connection to Options.FTPSessions instead of QUIT.
func (x *execution) ftpTransfer(p *scheme.FTPPlan, c *ctrl, raw, data net.Conn, cmd scheme.FTPCommand, passive scheme.FTPCommand, feat []string, stop func() bool, fail func(error) (*Resource, error), keep func()) (*Resource, error) {
	next := cmd.Else[:]
	if cmd.Feature != 0 && !offers(feat, cmd.Feature) && next[0] != 0 {
		cmd.Verb, next = next[0], next[1:]
	}
	show, line := cmd.Redacted(), cmd.Line()
	stopData := x.watch(data)
	code, msg, err := c.cmd(show, line)
	for err == nil && (code == 500 || code == 501 || code == 502 || code == 504) && len(next) > 0 && next[0] != 0 {
		x.opts.tracef("* %s refused (%d): %s", cmd.Verb, code, next[0])
		stopData()
		data.Close()
		if data, err = x.passive(c, passive, p.Addr); err != nil {
			return fail(err)
		}
		cmd.Verb, next = next[0], next[1:]
		show, line = cmd.Redacted(), cmd.Line()
		stopData = x.watch(data)
		code, msg, err = c.cmd(show, line)
	}
	if err == nil && code/100 != 1 && code/100 != 2 {
		err = c.refused(show, code, msg)
	}
	if err != nil {
		stopData()
		data.Close()
		return fail(err)
	}
	size := int64(-1)
	if code == 150 {
		size = parse150Size(msg)
	}
	finished := code/100 == 2 // some servers complete before we read
	complete := false         // read to the end and the completion reply was 2xx
	var m *meter
	atEOF := func() error {
		data.Close()
		if !finished {
			finished = true
			code, msg, err := c.reply(show)
			if err != nil {
				return err
			}
			if code/100 != 2 {
				return c.refused(show, code, msg)
			}
		}
		// The length the 150 reply announced: fewer bytes is an error
		// (and the session is not kept), more is delivered with a warning.
		if err := x.checkAnnounced("ftp", show, size, m.n.Load()); err != nil {
			return err
		}
		complete = true
		return nil
	}
	closer := func() error {
		stopData()
		data.Close()
		if complete && keep != nil && x.opts.FTPSessions != nil && x.ctx.Err() == nil && keepable(c.br) && stop() {
			keep()
			return nil
		}
		if finished && x.ctx.Err() == nil {
			raw.SetDeadline(time.Now().Add(2 * time.Second))
			if c.send("QUIT", "QUIT") == nil {
				c.reply("QUIT")
			}
		}
		stop()
		return raw.Close()
	}
	m = x.newMeter(&deadlineConn{Conn: data, idle: x.opts.readTimeout()}, "ftp", show)
	b := x.newBody(bufio.NewReaderSize(m, 32<<10), m, "ftp", show, atEOF, closer)
	r := &Resource{ReadCloser: b, Plan: p, Kind: "file", Size: size}
	switch cmd.Verb {
	case scheme.FTPNlst:
		r.Kind, r.ListFormat = "directory", ListNames
	case scheme.FTPMlsd:
		r.Kind, r.ListFormat = "directory", ListFacts
	case scheme.FTPList:
		r.Kind, r.ListFormat = "directory", ListLong
	}
	return r, nil
}

// featFeatures returns the features a FEAT reply's text offers (RFC 2389
// 3.2: one a line, each indented by a space, its first word the command's
// name), in upper case; the first line ("Features:") and the last ("End")
// are not features.
func featFeatures(msg string) []string {
	out := []string{}
	for _, l := range strings.Split(msg, "\n") {
		if !strings.HasPrefix(l, " ") {
			continue
		}
		if f := strings.Fields(l); len(f) > 0 {
			out = append(out, strings.ToUpper(f[0]))
		}
	}
	return out
}

// offers reports whether the features of a FEAT reply include the one
// named by the command v.
func offers(feat []string, v scheme.FTPVerb) bool {
	for _, f := range feat {
		if f == v.String() {
			return true
		}
	}
	return false
}

// parse150Size reads the "(N bytes)" many servers put in a 150 reply.
func parse150Size(msg string) int64 {
	i := strings.LastIndexByte(msg, '(')
	if i < 0 {
		return -1
	}
	f := strings.Fields(msg[i+1:])
	if len(f) < 2 || !strings.HasPrefix(f[1], "bytes") {
		return -1
	}
	n, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// askPassword asks Options.PasswordPrompt (RFC 1738 3.2.1: the client
// should ask the end user when the URL gives a user and no password).
func (x *execution) askPassword() (string, error) {
	if x.opts.PasswordPrompt == nil {
		return "", &StepError{Protocol: "ftp", Step: "PASS", Err: ErrPasswordRequired}
	}
	pw, err := x.opts.PasswordPrompt(x.ctx)
	if err != nil {
		if x.ctx.Err() != nil {
			return "", x.ctxErr("ftp", "PASS (password prompt)")
		}
		return "", &StepError{Protocol: "ftp", Step: "PASS", Err: fmt.Errorf("password prompt: %w", err)}
	}
	if strings.ContainsAny(pw, "\r\n\x00") {
		return "", &StepError{Protocol: "ftp", Step: "PASS", Err: errors.New("the password holds CR, LF or NUL; refusing to send it")}
	}
	return pw, nil
}

// passive opens the data connection as cmd says: EPSV (RFC 2428), then
// its Else (PASV) when EPSV is refused; or PASV alone. It goes through the
// same dial step as the control connection (named control there), marked
// as a data connection, so Options.Policy sees its port, which the server
// chose.
func (x *execution) passive(c *ctrl, cmd scheme.FTPCommand, control string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(c.conn.RemoteAddr().String())
	if err != nil {
		return nil, &StepError{Protocol: "ftp", Step: cmd.Redacted(), Err: err}
	}
	var port int
	code, msg := 0, ""
	if cmd.Verb == scheme.FTPEpsv {
		if code, msg, err = c.cmd("EPSV", "EPSV"); err != nil {
			return nil, err
		}
		if code == 229 {
			if port, err = parseEPSV(msg); err != nil {
				return nil, &StepError{Protocol: "ftp", Step: "EPSV", Err: err}
			}
			return x.dialConn(Connection{Protocol: "ftp", Name: net.JoinHostPort(host, strconv.Itoa(port)), Data: true, Control: control})
		}
		if cmd.Else[0] != scheme.FTPPasv {
			return nil, c.refused("EPSV", code, msg)
		}
	}
	code, msg, err = c.cmd("PASV", "PASV")
	if err != nil {
		return nil, err
	}
	if code != 227 {
		return nil, c.refused("PASV", code, msg)
	}
	if port, err = parsePASV(msg); err != nil {
		return nil, &StepError{Protocol: "ftp", Step: "PASV", Err: err}
	}
	return x.dialConn(Connection{Protocol: "ftp", Name: net.JoinHostPort(host, strconv.Itoa(port)), Data: true, Control: control})
}

// parseEPSV extracts the port from "Entering Extended Passive Mode (|||port|)".
func parseEPSV(msg string) (int, error) {
	i := strings.IndexByte(msg, '(')
	j := strings.LastIndexByte(msg, ')')
	if i < 0 || j < i+5 {
		return 0, fmt.Errorf("malformed EPSV reply %q", EscapeText(msg))
	}
	inner := msg[i+1 : j]
	d := inner[0]
	parts := strings.Split(inner, string(d))
	if len(parts) != 5 {
		return 0, fmt.Errorf("malformed EPSV reply %q", EscapeText(msg))
	}
	p, err := strconv.Atoi(parts[3])
	if err != nil || p < 1 || p > 65535 {
		return 0, fmt.Errorf("malformed EPSV port in %q", EscapeText(msg))
	}
	return p, nil
}

// parsePASV extracts the port from "Entering Passive Mode (h1,h2,h3,h4,p1,p2)".
func parsePASV(msg string) (int, error) {
	start := strings.IndexFunc(msg, func(r rune) bool { return r >= '0' && r <= '9' })
	if start < 0 {
		return 0, fmt.Errorf("malformed PASV reply %q", EscapeText(msg))
	}
	s := msg[start:]
	end := strings.IndexFunc(s, func(r rune) bool { return !(r >= '0' && r <= '9' || r == ',') })
	if end >= 0 {
		s = s[:end]
	}
	f := strings.Split(s, ",")
	if len(f) != 6 {
		return 0, fmt.Errorf("malformed PASV reply %q", EscapeText(msg))
	}
	var n [6]int
	for i, v := range f {
		k, err := strconv.Atoi(v)
		if err != nil || k < 0 || k > 255 {
			return 0, fmt.Errorf("malformed PASV reply %q", EscapeText(msg))
		}
		n[i] = k
	}
	p := n[4]<<8 | n[5]
	if p == 0 {
		return 0, errors.New("PASV reply gives port 0")
	}
	return p, nil
}
