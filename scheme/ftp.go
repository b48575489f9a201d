package scheme

import (
	"strings"

	"github.com/urlkit/urlkit"
)

// FTP (RFC 1738 3.2; RFC 1630, FTP): ftp://<user>:<password>@<host>:<port>/<cwd1>/.../<cwdN>/<name>;type=<typecode>

func init() { registerBuiltin("ftp", func(u urlkit.URL) (View, error) { return ParseFTP(u) }) }

// FTP is the view of an ftp URL (RFC 1738 3.2). Strings are decoded.
type FTP struct {
	u           urlkit.URL
	Host        string   `json:"host"`
	Port        int      `json:"port"` // 21 when the URL names none
	User        string   `json:"user,omitempty"`
	Password    string   `json:"password,omitempty"`
	HasUser     bool     `json:"has_user"`
	HasPassword bool     `json:"has_password"`
	CWD         []string `json:"cwd"`  // one CWD argument per segment before the last, in order
	Name        string   `json:"name"` // the last segment: the argument of RETR or NLST
	// Type is the ";type=" code in lower case: 'a' (ASCII), 'i' (image)
	// or 'd' (directory listing); 0 when the URL has none and the client
	// must guess (RFC 1738 3.2.3).
	Type byte `json:"-"`

	user, pass part
	segs       []part
}

// AnonymousUser is the user name of anonymous FTP (RFC 1738 3.2.1).
const AnonymousUser = "anonymous"

// ParseFTP checks u against RFC 1738's ftpurl and returns its view:
// fpath = fsegment *[ "/" fsegment ], fsegment = *[ uchar | "?" | ":" |
// "@" | "&" | "=" ], with an optional ";type=" ftptype at the end. Within
// a segment "/" and ";" are reserved (RFC 1738 3.2.2).
func ParseFTP(u urlkit.URL) (*FTP, error) {
	l := locOf(u)
	v := &FTP{u: u, Host: u.Host(), CWD: []string{}}
	v.Port, _ = portOf(u, 21)
	if s, ok := u.User(); ok {
		v.HasUser = true
		v.user = part{s, l.user(), urlkit.ComponentUser}
		v.User = v.user.decode()
	}
	if s, ok := u.Password(); ok {
		v.HasPassword = true
		v.pass = part{s, l.password(), urlkit.ComponentPassword}
		v.Password = v.pass.decode()
	}
	if _, ok := u.Path(); !ok {
		return v, nil // the whole url-path may be omitted (RFC 1738 3.2.2)
	}
	// The url-path includes any "?": fsegment allows it.
	p := part{u.URLPath(), l.urlPath(), urlkit.ComponentPath}
	if k := strings.LastIndex(p.raw, ";type="); k >= 0 && strings.IndexByte(p.raw[k:], '/') < 0 {
		code := p.raw[k+6:]
		if len(code) != 1 || strings.IndexByte("aidAID", code[0]) < 0 {
			if hint := rfc1630Type(code); hint != "" {
				return nil, l.err(p.off+k+6, urlkit.ComponentPath, ErrBadType,
					`ftp type code %q is RFC 1630's form (ftptype = A formcode | E formcode | I | L digits, formcode = N | T | C), which RFC 1738 3.2.2 replaced by "a", "i" or "d": %s`, code, hint)
			}
			return nil, l.err(p.off+k+6, urlkit.ComponentPath, ErrBadType,
				`ftp type code %q: it is one of "a", "i" or "d" (RFC 1738 3.2.2: ftptype = "A" | "I" | "D" | "a" | "i" | "d")`, code)
		}
		v.Type = code[0] | 0x20
		p.raw = p.raw[:k]
	}
	segs := p.split('/')
	for _, s := range segs {
		if i := s.firstNot(ucharOr("?:@&=")); i >= 0 {
			return nil, reservedErr(l, s, i, `RFC 1738 3.2.2: within a name or CWD component, "/" and ";" are reserved and must be encoded`)
		}
	}
	v.segs = segs
	for _, s := range segs[:len(segs)-1] {
		v.CWD = append(v.CWD, s.decode())
	}
	v.Name = segs[len(segs)-1].decode()
	return v, nil
}

// URL returns the URL the view was made from.
func (v *FTP) URL() urlkit.URL { return v.u }

// FTPPlan is the command sequence of RFC 1738 3.2.2 for one ftp URL. Its
// fields are those an FTP client needs, decoded: User and Password as the
// URL gives them (HasUser false means anonymous FTP), one CWD argument per
// directory segment, the file Name, and the transfer Type.
type FTPPlan struct {
	Addr        string   `json:"addr"` // host:port to connect to
	User        string   `json:"user,omitempty"`
	Password    string   `json:"password,omitempty"`
	HasUser     bool     `json:"has_user"`
	HasPassword bool     `json:"has_password"`
	CWD         []string `json:"cwd"`
	Name        string   `json:"name"`
	// Type is 'a', 'i' or 'd' from ";type=", or 0 when the client must
	// guess between 'a' and 'i' (RFC 1738 3.2.3).
	Type byte `json:"-"`
	// List is true when the plan lists a directory (NLST) rather than
	// retrieving a file: ";type=d", or an empty name with no type (RFC
	// 1630, FTP: a "/" suffix means "use FTP directory list commands").
	List bool `json:"list"`
	// Commands is the exact command sequence, anonymous login included
	// when the URL gives no user (RFC 1738 3.2.1). When the URL gives a
	// user but no password, the PASS line is "PASS" followed by the
	// placeholder <ask the user>.
	Commands []string `json:"commands"`
}

// Scheme returns "ftp".
func (p *FTPPlan) Scheme() string { return "ftp" }

// Steps describes the plan: the connection, then each command.
func (p *FTPPlan) Steps() []string {
	out := []string{"connect to " + p.Addr + " (FTP control connection)"}
	out = append(out, p.Commands...)
	if p.Type == 0 && !p.List {
		out = append(out, "(no ;type=: the client guesses TYPE A or TYPE I from the name, RFC 1738 3.2.3)")
	}
	return out
}

// TypeString returns the plan's type code as a string, or "" when it must
// be guessed.
func (p *FTPPlan) TypeString() string {
	if p.Type == 0 {
		return ""
	}
	return string(rune(p.Type))
}

// Plan returns the FTP command sequence. Every argument is decoded; one
// that would contain a control character (CR, LF, NUL...) is refused with
// an error wrapping [ErrControl], since it could inject a command (RFC
// 1738 6). cfg.Email is the anonymous password.
func (v *FTP) Plan(cfg Config) (Plan, error) {
	l := locOf(v.u)
	p := &FTPPlan{Addr: hostPort(v.Host, v.Port), HasUser: v.HasUser, HasPassword: v.HasPassword, Type: v.Type, CWD: []string{}}
	var err error
	if v.HasUser {
		if p.User, err = v.user.wire(l, "USER argument"); err != nil {
			return nil, err
		}
	}
	if v.HasPassword {
		if p.Password, err = v.pass.wire(l, "PASS argument"); err != nil {
			return nil, err
		}
	}
	for i, s := range v.segs {
		what := "CWD argument"
		if i == len(v.segs)-1 {
			what = "file name"
		}
		d, err := s.wire(l, what)
		if err != nil {
			return nil, err
		}
		if i == len(v.segs)-1 {
			p.Name = d
		} else {
			p.CWD = append(p.CWD, d)
		}
	}
	switch {
	case !v.HasUser:
		email := cfg.Email
		if email == "" || strings.ContainsAny(email, "\r\n") {
			email = "anonymous@localhost"
		}
		p.Commands = append(p.Commands, "USER "+AnonymousUser, "PASS "+email)
	case v.HasPassword:
		p.Commands = append(p.Commands, "USER "+p.User, "PASS "+p.Password)
	default:
		p.Commands = append(p.Commands, "USER "+p.User, "PASS <ask the user>")
	}
	for _, c := range p.CWD {
		p.Commands = append(p.Commands, "CWD "+c)
	}
	switch {
	case v.Type == 'd':
		p.List = true
		p.Commands = append(p.Commands, nlst(p.Name))
	case v.Type == 0 && p.Name == "":
		p.List = true
		p.Commands = append(p.Commands, nlst(p.Name))
	case v.Type == 0:
		p.Commands = append(p.Commands, "RETR "+p.Name)
	default:
		p.Commands = append(p.Commands, "TYPE "+string(rune(v.Type&^0x20)), "RETR "+p.Name)
	}
	return p, nil
}

func nlst(name string) string {
	if name == "" {
		return "NLST"
	}
	return "NLST " + name
}

func (v *FTP) wireParts() []wirePart {
	var out []wirePart
	if v.HasUser {
		out = append(out, wirePart{v.user, "USER argument"})
	}
	if v.HasPassword {
		out = append(out, wirePart{v.pass, "PASS argument"})
	}
	for i, s := range v.segs {
		what := "CWD argument"
		if i == len(v.segs)-1 {
			what = "file name"
		}
		out = append(out, wirePart{s, what})
	}
	return out
}

// rfc1630Type says what to write instead of an RFC 1630 ftptype that RFC
// 1738 does not allow (A or E with a format code, or L with a byte size),
// or "" when code is not one. RFC 1738 3.2.2 keeps only "a" and "i" (and
// adds "d"): the format code and the local byte size have no URL form, so
// urlkit rejects them, with the nearest RFC 1738 code (issue 10, README
// "Deliberate strictness and divergences").
func rfc1630Type(code string) string {
	switch {
	case len(code) == 2 && (code[0] == 'A' || code[0] == 'a') && strings.IndexByte("NTCntc", code[1]) >= 0:
		return `write ";type=a" (ASCII; the format code has no RFC 1738 form)`
	case len(code) == 2 && (code[0] == 'E' || code[0] == 'e') && strings.IndexByte("NTCntc", code[1]) >= 0,
		code == "E" || code == "e":
		return "EBCDIC has no RFC 1738 type code: omit ;type= or use \";type=i\" to transfer the bytes unchanged"
	case len(code) >= 2 && (code[0] == 'L' || code[0] == 'l') && strings.Trim(code[1:], "0123456789") == "":
		return `write ";type=i" (image; RFC 959 local byte size 8 is the same transfer)`
	}
	return ""
}
