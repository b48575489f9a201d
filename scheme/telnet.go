package scheme

import (
	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/jsonw"
)

// TELNET (RFC 1738 3.8): telnet://<user>:<password>@<host>:<port>/
// rlogin and tn3270 (RFC 1630, "Telnet, rlogin, tn3270") are read alike.

func init() {
	for _, name := range []string{"telnet", "tn3270", "rlogin"} {
		registerBuiltin(name, func(u urlkit.URL) (View, error) { return TelnetOf(u) })
	}
}

// Telnet is the view of a telnet, tn3270 or rlogin URL: an interactive
// service, not a data object. The user and password are advice only (RFC
// 1738 3.8).
type Telnet struct {
	u           urlkit.URL
	Program     string // "telnet", "tn3270" or "rlogin"
	Host        string
	Port        int // 23 (rlogin: 513) when the URL names none
	User        string
	Password    string
	HasUser     bool
	HasPassword bool
	user, pass  part
}

// TelnetOf checks u against RFC 1738's telneturl = "telnet://" login
// [ "/" ]: nothing may follow the optional final "/".
func TelnetOf(u urlkit.URL) (*Telnet, error) {
	l := locOf(u)
	if p := u.PathAndSearch(); p != "" {
		return nil, l.err(l.urlPath(), urlkit.ComponentPath, ErrBadPath,
			`a %s URL ends after the login and an optional "/" (RFC 1738 3.8: telnet://<user>:<password>@<host>:<port>/)`, u.Scheme())
	}
	v := &Telnet{u: u, Program: u.Scheme(), Host: u.Host()}
	v.Port, _ = portOf(u, DefaultPort(u.Scheme()))
	if s, ok := u.User(); ok {
		v.user, v.HasUser = part{s, l.user(), urlkit.ComponentUser}, true
		v.User = v.user.decode()
	}
	if s, ok := u.Password(); ok {
		v.pass, v.HasPassword = part{s, l.password(), urlkit.ComponentPassword}, true
		v.Password = v.pass.decode()
	}
	return v, nil
}

// URL returns the URL the view was made from.
func (v *Telnet) URL() urlkit.URL { return v.u }

// Session is the plan of a telnet, tn3270 or rlogin URL: start an
// interactive session and advise the user of the suggested user name and
// password; a client does not type them in by itself (RFC 1738 3.8).
type Session struct {
	Program     string
	Host        string
	Port        int
	User        string
	Password    string
	HasUser     bool
	HasPassword bool
}

// Scheme returns the program name, which is the scheme name.
func (s *Session) Scheme() string { return s.Program }

// Steps returns the session to start, then the advice on the user name
// and the password (not shown).
func (s *Session) Steps() []Step {
	out := []Step{StartSession{Program: s.Program, Addr: hostPort(s.Host, s.Port)}}
	if s.HasUser {
		out = append(out, AdviseUser{Name: s.User})
	}
	if s.HasPassword {
		out = append(out, AdvisePassword{})
	}
	return out
}

// StartSession is the step of a telnet, tn3270 or rlogin plan: start an
// interactive session.
type StartSession struct {
	Program string // "telnet", "tn3270" or "rlogin"
	Addr    string // host:port
}

// Op returns "session".
func (StartSession) Op() string { return "session" }

// Text says which session is started.
func (s StartSession) Text() string {
	return "start an interactive " + s.Program + " session with " + s.Addr
}

// AdviseUser is the step that tells the user the user name a telnet URL
// suggests (advice only: a client does not type it in, RFC 1738 3.8).
type AdviseUser struct {
	Name string
}

// Op returns "advise_user".
func (AdviseUser) Op() string { return "advise_user" }

// Text says what the user is advised.
func (a AdviseUser) Text() string {
	return "advise the user to log in as " + quoteVisible(a.Name) + " (advice only, RFC 1738 3.8)"
}

// AdvisePassword is the step that tells the user the URL suggests a
// password; the text does not show it.
type AdvisePassword struct{}

// Op returns "advise_password".
func (AdvisePassword) Op() string { return "advise_password" }

// Text says the user is advised of a password, without it.
func (AdvisePassword) Text() string {
	return "advise the user of the suggested password (given in the URL; advice only)"
}

func quoteVisible(s string) string { return `"` + s + `"` }

// Plan returns the session. The user name and password may end up on a
// command line (rlogin -l user) or a terminal, so control characters are
// refused (RFC 1738 6).
func (v *Telnet) Plan(Config) (Plan, error) {
	if err := planPort(v.u); err != nil {
		return nil, err
	}
	l := locOf(v.u)
	s := &Session{Program: v.Program, Host: v.Host, Port: v.Port, HasUser: v.HasUser, HasPassword: v.HasPassword}
	var err error
	if v.HasUser {
		if s.User, err = v.user.wire(l, "suggested user name"); err != nil {
			return nil, err
		}
	}
	if v.HasPassword {
		if s.Password, err = v.pass.wire(l, "suggested password"); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (v *Telnet) wireParts() []wirePart {
	var out []wirePart
	if v.HasUser {
		out = append(out, wirePart{v.user, "suggested user name"})
	}
	if v.HasPassword {
		out = append(out, wirePart{v.pass, "suggested password"})
	}
	return out
}

// ---- JSON -----------------------------------------------------------------

// writeJSON writes the members of the view's JSON object (the package
// documentation's "JSON keys").
func (v *Telnet) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("program", v.Program)
	writeLogin(&w, v.Host, v.Port, v.User, v.HasUser, v.Password, v.HasPassword)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *Telnet) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// writeJSON writes the plan's own members of its JSON object, before
// "steps".
func (p *Session) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("program", p.Program)
	w.KStr("addr", hostPort(p.Host, p.Port))
	w.KOpt("user", p.User, p.HasUser)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *Session) MarshalJSON() ([]byte, error) { return planJSON(p) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s StartSession) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("program", s.Program)
	w.KStr("addr", s.Addr)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s StartSession) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s AdviseUser) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("user", s.Name)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s AdviseUser) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s AdvisePassword) MarshalJSON() ([]byte, error) { return stepJSON(s) }
