package scheme

import (
	"strings"

	"github.com/urlkit/urlkit"
)

// FTP (RFC 1738 3.2; RFC 1630, FTP): ftp://<user>:<password>@<host>:<port>/<cwd1>/.../<cwdN>/<name>;type=<typecode>

func init() {
	registerChecked("ftp", func(u urlkit.URL) (View, error) { return FTPOf(u) }, checkFTP)
}

// FTP is the view of an ftp URL (RFC 1738 3.2). Strings are decoded.
type FTP struct {
	u           urlkit.URL
	Host        string
	Port        int // 21 when the URL names none
	User        string
	Password    string
	HasUser     bool
	HasPassword bool
	escapes     bool     // whether the URL has a "%" at all
	CWD         []string // one CWD argument per segment before the last, in order
	Name        string   // the last segment: the argument of RETR or NLST
	// Type is the ";type=" code in lower case: 'a' (ASCII), 'i' (image)
	// or 'd' (directory listing); 0 when the URL has none and the client
	// must guess (RFC 1738 3.2.3).
	Type byte

	// Room for the CWD arguments of a short path, in the view's own
	// allocation. The raw parts (for error offsets) are recomputed from
	// the URL when needed (parts), which keeps the view small.
	cwdBuf [3]string

	// spare is room for the first plan, in the view's own allocation
	// (ftpBlock, planSpare).
	spare *planSpare[FTPPlan]
}

// ftpBlock is a view and the room for its first plan, allocated together.
type ftpBlock struct {
	view  FTP
	spare planSpare[FTPPlan]
}

// AnonymousUser is the user name of anonymous FTP (RFC 1738 3.2.1).
const AnonymousUser = "anonymous"

// FTPOf checks u against RFC 1738's ftpurl and returns its view:
// fpath = fsegment *[ "/" fsegment ], fsegment = *[ uchar | "?" | ":" |
// "@" | "&" | "=" ], with an optional ";type=" ftptype at the end. Within
// a segment "/" and ";" are reserved (RFC 1738 3.2.2).
func FTPOf(u urlkit.URL) (*FTP, error) {
	// Field by field: a composite literal would be built aside and copied
	// into the block with write barriers.
	b := new(ftpBlock)
	v := &b.view
	v.u, v.Host, v.spare = u, u.Host(), &b.spare
	v.Port, _ = portOf(u, 21)
	v.escapes = strings.IndexByte(u.String(), '%') >= 0
	// Decoding needs no offsets: only errors do, and eachPart recomputes
	// them.
	if s, ok := u.User(); ok {
		v.HasUser = true
		v.User = part{raw: s}.decodeIf(v.escapes)
	}
	if s, ok := u.Password(); ok {
		v.HasPassword = true
		v.Password = part{raw: s}.decodeIf(v.escapes)
	}
	if _, ok := u.Path(); !ok {
		v.CWD = []string{}
		return v, nil // the whole url-path may be omitted (RFC 1738 3.2.2)
	}
	p, typ, err := ftpPath(u)
	if err != nil {
		return nil, err
	}
	raw := p.raw
	v.Type = typ
	v.CWD = v.cwdBuf[:0]
	if n := strings.Count(raw, "/"); n > len(v.cwdBuf) {
		v.CWD = make([]string, 0, n)
	}
	// One pass over the segments: each before the last is a CWD argument.
	for {
		k := strings.IndexByte(raw, '/')
		if k < 0 {
			break
		}
		v.CWD = append(v.CWD, part{raw: raw[:k]}.decodeIf(v.escapes))
		raw = raw[k+1:]
	}
	v.Name = part{raw: raw}.decodeIf(v.escapes)
	return v, nil
}

// eachPart calls f with each raw part of the URL that the plan sends,
// with its name for error messages: the user, the password, each CWD
// argument and the file name. It stops at the first error f returns. The
// parts are recomputed from the URL, which keeps the view small.
func (v *FTP) eachPart(f func(p part, what string) error) error {
	l := locOf(v.u)
	if s, ok := v.u.User(); ok {
		if err := f(part{s, l.user(), urlkit.ComponentUser}, "USER argument"); err != nil {
			return err
		}
	}
	if s, ok := v.u.Password(); ok {
		if err := f(part{s, l.password(), urlkit.ComponentPassword}, "PASS argument"); err != nil {
			return err
		}
	}
	if _, ok := v.u.Path(); !ok {
		return nil
	}
	p, _, err := ftpPath(v.u)
	if err != nil {
		return nil // FTPOf checked the path; this cannot happen
	}
	for start := 0; ; {
		k := strings.IndexByte(p.raw[start:], '/')
		if k < 0 {
			return f(part{p.raw[start:], p.off + start, p.comp}, "file name")
		}
		if err := f(part{p.raw[start : start+k], p.off + start, p.comp}, "CWD argument"); err != nil {
			return err
		}
		start += k + 1
	}
}

// parts returns the parts eachPart visits.
func (v *FTP) parts() []wirePart {
	var out []wirePart
	v.eachPart(func(p part, what string) error {
		out = append(out, wirePart{p, what})
		return nil
	})
	return out
}

// checkFTP is FTPOf's grammar, shared with [Validate]: it builds nothing.
func checkFTP(u urlkit.URL) error {
	if _, ok := u.Path(); !ok {
		return nil
	}
	_, _, err := ftpPath(u)
	return err
}

// ftpPath checks the url-path of u, which is present, and returns it
// without its ";type=" suffix, with the type code in lower case (0 when
// there is none).
func ftpPath(u urlkit.URL) (part, byte, error) {
	l := locOf(u)
	// The url-path includes any "?": fsegment allows it.
	p := part{u.PathAndSearch(), l.urlPath(), urlkit.ComponentPath}
	var typ byte
	// The suffix is the last ";type=" with no "/" after it. A path that
	// ends in ";type=" and one letter has it there (none can start within
	// the last six bytes); a path without ";" has none.
	k := -1
	switch n := len(p.raw); {
	case n >= 7 && p.raw[n-7:n-1] == ";type=":
		k = n - 7
	case strings.IndexByte(p.raw, ';') >= 0:
		if k = strings.LastIndex(p.raw, ";type="); k >= 0 && strings.IndexByte(p.raw[k:], '/') >= 0 {
			k = -1
		}
	}
	if k >= 0 {
		code := p.raw[k+6:]
		if len(code) != 1 || strings.IndexByte("aidAID", code[0]) < 0 {
			if hint := rfc1630Type(code); hint != "" {
				return p, 0, l.err(p.off+k+6, urlkit.ComponentPath, ErrBadType,
					`ftp type code %q is RFC 1630's form (ftptype = A formcode | E formcode | I | L digits, formcode = N | T | C), which RFC 1738 3.2.2 replaced by "a", "i" or "d": %s`, code, hint)
			}
			return p, 0, l.err(p.off+k+6, urlkit.ComponentPath, ErrBadType,
				`ftp type code %q: it is one of "a", "i" or "d" (RFC 1738 3.2.2: ftptype = "A" | "I" | "D" | "a" | "i" | "d")`, code)
		}
		typ = code[0] | 0x20
		p.raw = p.raw[:k]
	}
	// Segment by segment, "/" separating them: the first reserved byte of
	// the whole path is the first of the first segment holding one.
	if i := p.firstNotIn(&fpathChars); i >= 0 {
		return p, 0, reservedErr(l, p, i, `RFC 1738 3.2.2: within a name or CWD component, "/" and ";" are reserved and must be encoded`)
	}
	return p, typ, nil
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
// and QUIT. Three lines are rules rather than literal text: "PASS <ask the
// user>" (the password is asked for when the server wants one), "EPSV",
// which is followed by "PASV" when the server refuses EPSV (RFC 2428), and
// "MLSD" (with Config.FTPListDetails, after "FEAT"), which is sent as
// "LIST" when the FEAT reply does not offer MLST and as "NLST" when LIST
// is refused (each with the same argument).
type FTPPlan struct {
	Addr        string `json:"addr"` // host:port to connect to
	User        string `json:"user,omitempty"`
	Password    string `json:"-"` // never serialised; Commands masks nothing, so print Redacted
	HasUser     bool   `json:"has_user"`
	HasPassword bool   `json:"has_password"`
	// CWD holds the argument of each CWD line. It may share its array
	// with the CWD of the view the plan was made from: change neither.
	CWD  []string `json:"cwd"`
	Name string   `json:"name"`
	// Type is 'a', 'i' or 'd': from ";type=", or guessed from the name
	// when the URL has none (Guessed is then true; RFC 1738 3.2.3).
	Type    byte `json:"-"`
	Guessed bool `json:"type_guessed"`
	// List is true when the plan lists a directory (NLST, or FEAT and
	// MLSD with Config.FTPListDetails) rather than
	// retrieving a file: ";type=d", or an empty name with no type (RFC
	// 1630, FTP: a "/" suffix means "use FTP directory list commands").
	List bool `json:"list"`
	// Commands is the exact command sequence (see the type's comment).
	Commands []string `json:"commands"`

	// Room for the commands of a short path, in the plan's own
	// allocation.
	cmdBuf [9]string
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
		case c == "FEAT":
			c += " (asks which listing commands the server offers, RFC 2389)"
		case c == "MLSD" || strings.HasPrefix(c, "MLSD "):
			c += " (RFC 3659 7; sent as LIST, RFC 959 4.1.3, when the FEAT reply does not offer MLST, and as NLST when LIST is refused)"
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
	if rp, ok := v.u.RawPort(); ok && len(rp) > 4 { // four digits are below 65536
		if err := planPort(v.u); err != nil {
			return nil, err
		}
	}
	// Every argument is checked for control characters (only an escape
	// can make one); the view holds its decoded text already. Every escape
	// of an argument is one of the URL's, so a URL with no escape that
	// decodes to a control character needs no closer look.
	if v.escapes {
		if i, _ := firstControl(v.u.String()); i >= 0 {
			if err := v.noControl(locOf(v.u)); err != nil {
				return nil, err
			}
		}
	}
	p := v.spare.take() // zero: set field by field, without a composite literal's copy
	p.HasUser, p.HasPassword, p.Type, p.Name = v.HasUser, v.HasPassword, v.Type, v.Name
	if v.HasUser {
		p.User = v.User
	}
	if v.HasPassword {
		p.Password = v.Password
	}
	if p.Type == 0 {
		p.Type, p.Guessed = GuessFTPType(p.Name), true
	}
	p.List = p.Type == 'd'

	// Each command line is a constant, or is written into one string after
	// the address and the lines written before it. The text is put
	// together on the stack (a long one moves to the heap) and copied into
	// the string; the plan's other strings are substrings of it.
	type line struct {
		fixed string // the line, when it is a constant
		end   int    // otherwise where it ends in the text
	}
	var text [256]byte
	b := appendHostPort(text[:0], v.Host, v.Port)
	addrEnd := len(b)
	var room [15]line // room for fifteen lines (ten CWDs)
	lines := room[:0]
	switch {
	case !v.HasUser:
		lines = append(lines, line{fixed: "USER " + AnonymousUser})
		if email := cfg.Email; email == "" || strings.ContainsAny(email, "\r\n\x00") {
			lines = append(lines, line{fixed: "PASS anonymous@localhost"})
		} else {
			b = append(append(b, "PASS "...), email...)
			lines = append(lines, line{end: len(b)})
		}
	case v.HasPassword:
		b = append(append(b, "USER "...), p.User...)
		lines = append(lines, line{end: len(b)})
		b = append(append(b, "PASS "...), p.Password...)
		lines = append(lines, line{end: len(b)})
	default:
		b = append(append(b, "USER "...), p.User...)
		lines = append(lines, line{end: len(b)}, line{fixed: PassPrompt})
	}
	for _, c := range v.CWD {
		b = append(append(b, "CWD "...), c...)
		lines = append(lines, line{end: len(b)})
	}
	cwds := len(lines) - 2
	switch {
	case p.List && cfg.FTPListDetails && p.Name == "":
		lines = append(lines, line{fixed: "FEAT"}, line{fixed: "EPSV"}, line{fixed: "MLSD"}, line{fixed: "QUIT"})
	case p.List && cfg.FTPListDetails:
		b = append(append(b, "MLSD "...), p.Name...)
		lines = append(lines, line{fixed: "FEAT"}, line{fixed: "EPSV"}, line{end: len(b)}, line{fixed: "QUIT"})
	case p.List && p.Name == "":
		lines = append(lines, line{fixed: "EPSV"}, line{fixed: "NLST"}, line{fixed: "QUIT"})
	case p.List:
		b = append(append(b, "NLST "...), p.Name...)
		lines = append(lines, line{fixed: "EPSV"}, line{end: len(b)}, line{fixed: "QUIT"})
	default:
		switch t := p.Type &^ 0x20; t {
		case 'A':
			lines = append(lines, line{fixed: "TYPE A"})
		case 'I':
			lines = append(lines, line{fixed: "TYPE I"})
		default:
			b = append(append(b, "TYPE "...), upperType[t-'A'])
			lines = append(lines, line{end: len(b)})
		}
		b = append(append(b, "RETR "...), p.Name...)
		lines = append(lines, line{fixed: "EPSV"}, line{end: len(b)}, line{fixed: "QUIT"})
	}
	all := string(b)
	p.Addr = all[:addrEnd]
	if len(lines) > len(p.cmdBuf) {
		p.Commands = make([]string, len(lines))
	} else {
		p.Commands = p.cmdBuf[:len(lines)]
	}
	at := addrEnd
	for i, l := range lines {
		if l.fixed != "" {
			p.Commands[i] = l.fixed
		} else {
			p.Commands[i], at = all[at:l.end], l.end
		}
	}
	switch {
	case cwds == 0:
		p.CWD = []string{}
	case cwds == len(v.CWD):
		// The arguments of the CWD lines are the view's: the plan shares
		// its array (capped, so that an append cannot write into it).
		p.CWD = v.CWD[:cwds:cwds]
	default: // only when a planted bug dropped a CWD line
		p.CWD = make([]string, cwds)
		for i := range p.CWD {
			p.CWD[i] = p.Commands[2+i][len("CWD "):]
		}
	}
	return p, nil
}

// noControl checks every part the plan sends for an escape that decodes
// to a control character.
func (v *FTP) noControl(l loc) error {
	return v.eachPart(func(p part, what string) error { return p.noControl(l, what) })
}

// upperType holds the upper-case type codes, so that a TYPE argument is a
// substring rather than a new string.
const upperType = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

func (v *FTP) wireParts() []wirePart { return v.parts() }

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
