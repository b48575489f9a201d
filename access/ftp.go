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
		if err := x.reuse(Connection{Protocol: "ftp", Name: p.Addr, Network: "tcp"}, kept.conn); err != nil {
			// The follow rule refuses its server: kept for others.
			x.opts.FTPSessions.put(key, kept.conn, kept.typ, kept.feat)
			return nil, err
		}
		r, err := x.runFTP(p, key, kept)
		var re *ReplyError
		if err == nil || errors.As(err, &re) || x.ctx.Err() != nil {
			return r, err
		}
		x.opts.tracef("* kept session failed (%v): a new connection", err)
	}
	return x.runFTP(p, key, nil)
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

// ftpState is where an FTP session is in its plan. runFTP calls the
// state's method, which carries out one step and sets the next state:
//
//	ftpGreeting  --220-->                                        ftpCommands
//	ftpCommands  --RETR (SIZE) refused with 550, CWD accepted--> ftpDirectory
//	ftpCommands  --transfer started, or a Head plan's end-->     ftpDone
//	ftpDirectory --transfer started, or a Head plan's end-->     ftpDone
//
// Any step's error ends the session (ftpSession.fail).
type ftpState uint8

const (
	ftpGreeting  ftpState = iota // awaiting the server's 220
	ftpCommands                  // the plan's commands, but QUIT, in order
	ftpDirectory                 // the name is a directory: p.Directory's commands after its CWD
	ftpDone                      // the resource is the caller's: a transfer's stream, or a Head plan's header
)

// ftpSession is one control connection carrying out a plan: what the
// steps so far have left it in.
type ftpSession struct {
	x    *execution
	p    *scheme.FTPPlan
	key  string   // Options.FTPSessions' key for the session
	kept *ftpIdle // the kept session reused, or nil on a new connection
	raw  net.Conn
	c    *ctrl
	stop func() bool // ends the context's watch on raw

	state ftpState
	todo  []scheme.FTPCommand // the commands left in this state

	loggedIn bool
	typ      string   // the argument of the last TYPE sent
	feat     []string // what the server's FEAT reply offered (RFC 2389); nil until asked
	data     net.Conn // the data connection opened by the last EPSV or PASV, until a transfer takes it
	passive  scheme.FTPCommand
	header   http.Header // the SIZE and MDTM replies of a Head plan
	res      *Resource   // the resource, once done
}

// runFTP carries out p on a new connection, or on a kept session
// (skipping the greeting and the login and CWD commands, and TYPE when the
// session's type is the same).
func (x *execution) runFTP(p *scheme.FTPPlan, key string, kept *ftpIdle) (*Resource, error) {
	s := &ftpSession{x: x, p: p, key: key, kept: kept, state: ftpGreeting, todo: p.Commands[:len(p.Commands)-1]}
	if kept != nil {
		s.raw, s.feat, s.state = kept.conn, kept.feat, ftpCommands // x.reuse noted its server
		x.opts.tracef("* reusing a logged-in session to %s", p.Addr)
		if x.opts.Capture != nil {
			// The exchange of this retrieval starts on a session opened
			// for an earlier one: it is reported as connected now.
			s.raw = x.opts.connected(Connection{Protocol: "ftp", Name: p.Addr}, s.raw)
		}
	} else {
		var err error
		if s.raw, err = x.dial("ftp", p.Addr); err != nil {
			return nil, err
		}
	}
	s.stop = x.watch(s.raw)
	s.c = x.newCtrl("ftp", s.raw)
	for {
		var err error
		switch s.state {
		case ftpGreeting:
			err = s.greeting()
		case ftpCommands, ftpDirectory:
			err = s.command()
		case ftpDone:
			return s.res, nil
		}
		if err != nil {
			return s.fail(err)
		}
	}
}

// fail ends the session after err: QUIT when the server refused a step
// (it is still talking), then both connections closed.
func (s *ftpSession) fail(err error) (*Resource, error) {
	var re *ReplyError
	if errors.As(err, &re) {
		s.quit()
	}
	if s.data != nil {
		s.data.Close()
	}
	s.stop()
	s.raw.Close()
	return nil, err
}

// quit is the polite end, bounded: the reply does not matter.
func (s *ftpSession) quit() {
	if s.x.ctx.Err() == nil {
		s.raw.SetDeadline(time.Now().Add(2 * time.Second))
		if s.c.send("QUIT", "QUIT") == nil {
			s.c.reply("QUIT")
		}
	}
}

// greeting awaits 220, possibly after 120 "service ready in nnn minutes"
// (at most a few of those: a server repeating it forever is refused).
func (s *ftpSession) greeting() error {
	for n := 0; ; n++ {
		code, msg, err := s.c.reply("greeting")
		if err != nil {
			return err
		}
		if code == 120 && n < 5 {
			continue
		}
		if code != 220 {
			return s.c.refused("greeting", code, msg)
		}
		s.state = ftpCommands
		return nil
	}
}

// command carries out the next command of the state's list; with none
// left, a Head plan is answered, and any other plan has lost its
// transfer.
func (s *ftpSession) command() error {
	if len(s.todo) == 0 {
		if !s.p.Head {
			return fmt.Errorf("ftp: plan ends before its transfer")
		}
		s.res, s.state = s.answer(), ftpDone
		return nil
	}
	cmd := s.todo[0]
	s.todo = s.todo[1:]
	if s.state == ftpCommands && s.kept != nil && s.kept.has(cmd) {
		return nil // the kept session is in this state already
	}
	switch cmd.Verb {
	case scheme.FTPUser:
		return s.user(cmd)
	case scheme.FTPPass:
		return s.pass(cmd)
	case scheme.FTPCwd, scheme.FTPType:
		return s.set(cmd)
	case scheme.FTPSize, scheme.FTPMdtm:
		return s.ask(cmd)
	case scheme.FTPFeat:
		return s.features(cmd)
	case scheme.FTPEpsv, scheme.FTPPasv:
		return s.openData(cmd)
	case scheme.FTPRetr, scheme.FTPNlst, scheme.FTPMlsd, scheme.FTPList:
		return s.transfer(cmd)
	}
	return fmt.Errorf("ftp: plan command %q is not one this client carries out", EscapeText(cmd.Redacted()))
}

// user sends USER: 230 (or 202) logs in without PASS, 331 asks for it,
// 332 asks for an account, which this client does not give.
func (s *ftpSession) user(cmd scheme.FTPCommand) error {
	show := cmd.Redacted()
	code, msg, err := s.c.cmd(show, cmd.Line())
	if err != nil {
		return err
	}
	switch code {
	case 230, 202:
		s.loggedIn = true
		s.x.opts.tracef("* logged in without a password: PASS is not sent")
		return nil
	case 331:
		return nil
	case 332:
		return s.c.refused(show, code, msg+" (accounts are not supported)")
	}
	return s.c.refused(show, code, msg)
}

// pass sends PASS unless USER logged in already, asking
// Options.PasswordPrompt for a password to be asked (scheme.PassAsk).
func (s *ftpSession) pass(cmd scheme.FTPCommand) error {
	if s.loggedIn {
		return nil
	}
	show := cmd.Redacted()
	if cmd.Pass == scheme.PassAsk {
		pw, err := s.x.askPassword()
		if err != nil {
			return err
		}
		cmd.Arg = pw
	}
	code, msg, err := s.c.cmd(show, cmd.Line())
	if err != nil {
		return err
	}
	if code != 230 && code != 202 {
		return s.c.refused("PASS", code, msg)
	}
	s.loggedIn = true
	return nil
}

// set sends CWD or TYPE, which a 2xx reply accepts.
func (s *ftpSession) set(cmd scheme.FTPCommand) error {
	show := cmd.Redacted()
	code, msg, err := s.c.cmd(show, cmd.Line())
	if err != nil {
		return err
	}
	if code/100 != 2 {
		return s.c.refused(show, code, msg)
	}
	if cmd.Verb == scheme.FTPType {
		s.typ = cmd.Arg
	}
	return nil
}

// ask sends SIZE or MDTM (a Head plan's) and records the 213 reply in the
// header. A refused SIZE is the plan's error, or sends the plan to its
// Directory commands; a refused or unreadable MDTM only leaves
// Last-Modified out.
func (s *ftpSession) ask(cmd scheme.FTPCommand) error {
	show := cmd.Redacted()
	code, msg, err := s.c.cmd(show, cmd.Line())
	if err != nil {
		return err
	}
	if code != 213 && cmd.Verb == scheme.FTPMdtm {
		s.x.opts.tracef("* MDTM refused (%d): no Last-Modified", code)
		return nil
	}
	if code != 213 {
		refused := s.c.refused(show, code, msg)
		if s.toDirectory(refused) {
			return nil
		}
		return refused
	}
	if s.header == nil {
		s.header = http.Header{}
	}
	if err := ftpHeader(s.header, cmd.Verb, msg); err != nil {
		if cmd.Verb == scheme.FTPSize {
			return &StepError{Protocol: "ftp", Step: show, Err: err}
		}
		s.x.opts.tracef("* MDTM: %v: no Last-Modified", err)
	}
	return nil
}

// features sends FEAT, unless the kept session's server answered it
// already. RFC 2389 3: 211 and the features, one a line; a server without
// FEAT refuses it (500, 502) and offers none.
func (s *ftpSession) features(cmd scheme.FTPCommand) error {
	if s.feat != nil {
		return nil
	}
	code, msg, err := s.c.cmd(cmd.Redacted(), cmd.Line())
	if err != nil {
		return err
	}
	s.feat = []string{}
	if code == 211 {
		s.feat = featFeatures(msg)
	}
	return nil
}

// openData opens the data connection as cmd (EPSV or PASV) says.
func (s *ftpSession) openData(cmd scheme.FTPCommand) error {
	var err error
	if s.data, err = s.x.passive(s.c, cmd, s.p.Addr); err != nil {
		return err
	}
	s.passive = cmd
	return nil
}

// transfer starts the transfer on the data connection: the session is
// then done, its stream the caller's. A RETR refused with 550 may send
// the plan to its Directory commands instead.
func (s *ftpSession) transfer(cmd scheme.FTPCommand) error {
	if s.data == nil {
		return fmt.Errorf("ftp: plan command %q comes before EPSV or PASV", cmd.Redacted())
	}
	data := s.data
	s.data = nil // the transfer closes it, whatever happens
	r, err := s.startTransfer(cmd, data)
	if err != nil {
		if cmd.Verb == scheme.FTPRetr && s.toDirectory(err) {
			return nil
		}
		return err
	}
	r.Directory = s.state == ftpDirectory
	s.res, s.state = r, ftpDone
	return nil
}

// toDirectory reports whether the server's refusal of the plan's RETR
// (SIZE) with 550 makes its name a directory: the plan has Directory
// commands and the server accepts the first, CWD to the name. The
// session then carries out the others in place of the rest of the plan.
func (s *ftpSession) toDirectory(refused error) bool {
	var re *ReplyError
	if s.state == ftpDirectory || len(s.p.Directory) == 0 || !errors.As(refused, &re) || re.Code != 550 {
		return false
	}
	cwd := s.p.Directory[0]
	code, _, err := s.c.cmd(cwd.Redacted(), cwd.Line())
	if err != nil || code/100 != 2 {
		return false // not a directory either: the refusal stands
	}
	s.x.opts.tracef("* %s is a directory (%s refused with 550, CWD accepted)", EscapeText(cwd.Arg), re.Step)
	s.state, s.todo = ftpDirectory, s.p.Directory[1:]
	return true
}

// answer ends a Head plan: QUIT, and what the replies said, as a header,
// with no body.
func (s *ftpSession) answer() *Resource {
	s.quit()
	s.stop()
	s.raw.Close()
	if s.header == nil {
		s.header = http.Header{}
	}
	b := s.x.newBody(strings.NewReader(""), nil, "ftp", "QUIT", nil, nil)
	return &Resource{ReadCloser: b, Plan: s.p, Kind: "head", Size: -1, Header: s.header, Directory: s.state == ftpDirectory}
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

// startTransfer sends the transfer command (RETR, NLST, MLSD or LIST)
// and returns the data connection's stream. The command's rule decides
// what is sent: Else[0] in its place when the FEAT reply does not offer
// its Feature; and each verb of Else in turn when the server refuses the
// one before as a command it does not carry out (500, 501, 502, 504), on
// a new data connection opened as the session's passive command says.
// On an error, data is closed and the refusal is left unanswered (no
// QUIT yet): it may send the plan to its Directory commands.
func (s *ftpSession) startTransfer(cmd scheme.FTPCommand, data net.Conn) (*Resource, error) {
	x, c := s.x, s.c
	next := cmd.Else[:]
	if cmd.Feature != 0 && !offers(s.feat, cmd.Feature) && next[0] != 0 {
		cmd.Verb, next = next[0], next[1:]
	}
	show, line := cmd.Redacted(), cmd.Line()
	stopData := x.watch(data)
	code, msg, err := c.cmd(show, line)
	for err == nil && (code == 500 || code == 501 || code == 502 || code == 504) && len(next) > 0 && next[0] != 0 {
		x.opts.tracef("* %s refused (%d): %s", cmd.Verb, code, next[0])
		stopData()
		data.Close()
		if data, err = x.passive(c, s.passive, s.p.Addr); err != nil {
			return nil, err
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
		return nil, err
	}
	t := &ftpStream{s: s, data: data, stopData: stopData, show: show, size: -1,
		finished: code/100 == 2, // some servers complete before we read
		// Not in the directory state: the session is then in another
		// directory than its key says. Not without a key: a password
		// asked is never pooled (ftpSessionKey).
		keep: s.state != ftpDirectory && s.key != "",
	}
	if code == 150 {
		t.size = parse150Size(msg)
	}
	t.m = x.newMeter(&deadlineConn{Conn: data, idle: x.opts.readTimeout()}, "ftp", show)
	b := x.newBody(bufio.NewReaderSize(t.m, 32<<10), t.m, "ftp", show, t.atEOF, t.close)
	r := &Resource{ReadCloser: b, Plan: s.p, Kind: "file", Size: t.size}
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

// ftpStream is a transfer in progress: the data connection its stream
// reads, and what the stream's end does on the control connection.
type ftpStream struct {
	s        *ftpSession
	data     net.Conn
	stopData func() bool
	show     string // the transfer command, as shown
	size     int64  // what the 150 reply announced, or -1
	m        *meter
	finished bool // the completion reply is read, or came first
	complete bool // read to the end, and the completion reply was 2xx
	keep     bool // the session may be kept (Options.FTPSessions) after a complete transfer
}

// atEOF reads the completion reply at the end of the data and checks the
// length the 150 reply announced: fewer bytes is an error (and the
// session is not kept), more is delivered with a warning.
func (t *ftpStream) atEOF() error {
	t.data.Close()
	if !t.finished {
		t.finished = true
		code, msg, err := t.s.c.reply(t.show)
		if err != nil {
			return err
		}
		if code/100 != 2 {
			return t.s.c.refused(t.show, code, msg)
		}
	}
	if err := t.s.x.checkAnnounced("ftp", t.show, t.size, t.m.n.Load()); err != nil {
		return err
	}
	t.complete = true
	return nil
}

// close ends the stream: after a complete transfer, the control
// connection goes to Options.FTPSessions when sessions are kept and
// nothing is left unread on it; else QUIT (when the server is known to
// be listening) and close.
func (t *ftpStream) close() error {
	s, x := t.s, t.s.x
	t.stopData()
	t.data.Close()
	if t.complete && t.keep && x.opts.FTPSessions != nil && x.ctx.Err() == nil && keepable(s.c.br) && s.stop() {
		typ := s.typ
		if typ == "" && s.kept != nil {
			typ = s.kept.typ
		}
		x.opts.FTPSessions.put(s.key, s.raw, typ, s.feat)
		return nil
	}
	if t.finished {
		s.quit()
	}
	s.stop()
	return s.raw.Close()
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
