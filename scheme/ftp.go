package scheme

import (
	"strings"

	"github.com/urlkit/urlkit"
)

// FTP (RFC 1738 3.2; RFC 1630, FTP): ftp://<user>:<password>@<host>:<port>/<cwd1>/.../<cwdN>/<name>;type=<typecode>

func init() { registerBuiltin("ftp", func(u urlkit.URL) (View, error) { return FTPOf(u) }) }

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

	// Room for the segments and CWD arguments of a short path, in the
	// view's own allocation.
	segBuf [6]part
	cwdBuf [5]string
}

// AnonymousUser is the user name of anonymous FTP (RFC 1738 3.2.1).
const AnonymousUser = "anonymous"

// FTPOf checks u against RFC 1738's ftpurl and returns its view:
// fpath = fsegment *[ "/" fsegment ], fsegment = *[ uchar | "?" | ":" |
// "@" | "&" | "=" ], with an optional ";type=" ftptype at the end. Within
// a segment "/" and ";" are reserved (RFC 1738 3.2.2).
func FTPOf(u urlkit.URL) (*FTP, error) {
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
	p := part{u.PathAndSearch(), l.urlPath(), urlkit.ComponentPath}
	if k := strings.LastIndex(p.raw, ";type="); k >= 0 && strings.IndexByte(p.raw[k:], '/') < 0 {
		code := p.raw[k+6:]
		if len(code) != 1 || strings.IndexByte("aidAID", code[0]) < 0 {
			return nil, l.err(p.off+k+6, urlkit.ComponentPath, ErrBadType,
				`ftp type code %q: it is one of "a", "i" or "d" (RFC 1738 3.2.2: ftptype = "A" | "I" | "D" | "a" | "i" | "d")`, code)
		}
		v.Type = code[0] | 0x20
		p.raw = p.raw[:k]
	}
	segs := v.segBuf[:0]
	if n := strings.Count(p.raw, "/") + 1; n > len(v.segBuf) {
		segs = make([]part, 0, n)
	}
	segs = p.splitInto(segs, '/')
	for _, s := range segs {
		if i := s.firstNot(ucharOr("?:@&=")); i >= 0 {
			return nil, reservedErr(l, s, i, `RFC 1738 3.2.2: within a name or CWD component, "/" and ";" are reserved and must be encoded`)
		}
	}
	v.segs = segs
	v.CWD = v.cwdBuf[:0]
	if len(segs)-1 > len(v.cwdBuf) {
		v.CWD = make([]string, 0, len(segs)-1)
	}
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
//
// Commands is the whole control-connection dialogue, in order, exactly as
// the access package sends it: the login, one CWD per directory, TYPE (for
// a retrieval), EPSV to open the passive data connection, RETR or NLST,
// and QUIT. Two lines are rules rather than literal text: "PASS <ask the
// user>" (the password is asked for when the server wants one) and "EPSV",
// which is followed by "PASV" when the server refuses EPSV (RFC 2428).
type FTPPlan struct {
	Addr        string   `json:"addr"` // host:port to connect to
	User        string   `json:"user,omitempty"`
	Password    string   `json:"-"` // never serialised; Commands masks nothing, so print Redacted
	HasUser     bool     `json:"has_user"`
	HasPassword bool     `json:"has_password"`
	CWD         []string `json:"cwd"`
	Name        string   `json:"name"`
	// Type is 'a', 'i' or 'd': from ";type=", or guessed from the name
	// when the URL has none (Guessed is then true; RFC 1738 3.2.3).
	Type    byte `json:"-"`
	Guessed bool `json:"type_guessed"`
	// List is true when the plan lists a directory (NLST) rather than
	// retrieving a file: ";type=d", or an empty name with no type (RFC
	// 1630, FTP: a "/" suffix means "use FTP directory list commands").
	List bool `json:"list"`
	// Commands is the exact command sequence (see the type's comment).
	Commands []string `json:"commands"`
}

// PassPrompt is the PASS line of a plan whose URL gives a user and no
// password: the client asks the user when the server wants a password.
const PassPrompt = "PASS <ask the user>"

// Scheme returns "ftp".
func (p *FTPPlan) Scheme() string { return "ftp" }

// Steps describes the plan: the connection, then each command, a
// password from the URL masked.
func (p *FTPPlan) Steps() []string {
	cmds := p.Redacted().Commands
	out := make([]string, 0, len(cmds)+1)
	out = append(out, "connect to "+p.Addr+" (FTP control connection)")
	for _, c := range cmds {
		switch {
		case c == "EPSV":
			c += " (PASV if refused; the data connection goes to the control connection's address)"
		case p.Guessed && strings.HasPrefix(c, "TYPE "):
			c += " (guessed from the name: the URL has no ;type=, RFC 1738 3.2.3)"
		}
		out = append(out, c)
	}
	return out
}

// Redacted returns a copy of the plan whose password is masked in both
// Password and Commands, for printing.
func (p *FTPPlan) Redacted() *FTPPlan {
	q := *p
	if p.HasUser && p.HasPassword {
		q.Password = "****"
		q.Commands = append([]string(nil), p.Commands...)
		for i, c := range q.Commands {
			if strings.HasPrefix(c, "PASS ") {
				q.Commands[i] = "PASS ****"
			}
		}
	}
	return &q
}

// TypeString returns the plan's type code as a string.
func (p *FTPPlan) TypeString() string { return typeString(p.Type) }

// GuessFTPType returns the transfer type used when an ftp URL has no type
// code: 'd' (a listing) when name is empty, since the URL then names a
// directory; 'a' when name's extension marks a text document (.txt, .html,
// .c, .md and the like) or the name is a conventional text file name such
// as README; 'i' otherwise, since an image transfer never alters bytes.
func GuessFTPType(name string) byte {
	if name == "" {
		return 'd'
	}
	lower := strings.ToLower(name)
	switch lower {
	case "readme", "license", "copying", "changes", "changelog", "news", "install", "authors", "todo", "index":
		return 'a'
	}
	if i := strings.LastIndexByte(lower, '.'); i >= 0 && textExtensions[lower[i+1:]] {
		return 'a'
	}
	return 'i'
}

// textExtensions are the file name extensions GuessFTPType treats as text.
var textExtensions = map[string]bool{
	"txt": true, "text": true, "asc": true, "md": true, "rst": true,
	"htm": true, "html": true, "xml": true, "json": true, "csv": true,
	"c": true, "h": true, "go": true, "py": true, "sh": true, "pl": true,
	"tex": true, "diff": true, "patch": true, "readme": true,
	"conf": true, "cfg": true, "ini": true, "rfc": true, "me": true,
	"1": true, "lst": true, "log": true, "faq": true,
}

// Plan returns the FTP command sequence. Every argument is decoded; one
// that would contain a control character (CR, LF, NUL...) is refused with
// an error wrapping [ErrControl], since it could inject a command (RFC
// 1738 6). cfg.Email is the anonymous password.
func (v *FTP) Plan(cfg Config) (Plan, error) {
	if err := planPort(v.u); err != nil {
		return nil, err
	}
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
	if len(v.segs) > 1 {
		p.CWD = make([]string, 0, len(v.segs)-1)
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
	if p.Type == 0 {
		p.Type, p.Guessed = GuessFTPType(p.Name), true
	}
	p.List = p.Type == 'd'
	p.Commands = make([]string, 0, len(p.CWD)+6)
	switch {
	case !v.HasUser:
		email := cfg.Email
		if email == "" || strings.ContainsAny(email, "\r\n\x00") {
			email = "anonymous@localhost"
		}
		p.Commands = append(p.Commands, "USER "+AnonymousUser, "PASS "+email)
	case v.HasPassword:
		p.Commands = append(p.Commands, "USER "+p.User, "PASS "+p.Password)
	default:
		p.Commands = append(p.Commands, "USER "+p.User, PassPrompt)
	}
	for _, c := range p.CWD {
		p.Commands = append(p.Commands, "CWD "+c)
	}
	if p.List {
		p.Commands = append(p.Commands, "EPSV", nlst(p.Name), "QUIT")
	} else {
		p.Commands = append(p.Commands, "TYPE "+string(rune(p.Type&^0x20)), "EPSV", "RETR "+p.Name, "QUIT")
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
