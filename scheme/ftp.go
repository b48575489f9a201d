package scheme

import (
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/jsonw"
)

// FTP (RFC 1738 3.2; RFC 1630, FTP): ftp://<user>:<password>@<host>:<port>/<cwd1>/.../<cwdN>/<name>;type=<typecode>

func init() {
	registerChecked("ftp", func(u urlkit.URL) (View, error) { return FTPOf(u) }, checkFTP)
}

// FTP is the view of an ftp URL (RFC 1738 3.2). Strings are decoded.
//
// Reserved: "/" and ";" in a name or CWD component (RFC 1738 3.2.2), and
// nothing else, so ftp://h/a%3Fb and ftp://h/a?b are equal ([urlkit.Equal]):
// both send RETR a?b. [Info].ReservedChars reports the set.
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

// FTPPlan is the command sequence of RFC 1738 3.2.2 for one ftp URL: the
// address to connect to and the control-connection dialogue as typed
// commands, which the access package sends in order, exactly as they are:
// the login, one CWD per directory, TYPE (for a retrieval), EPSV to open
// the passive data connection (PASV when the server refuses it, RFC
// 2428), RETR or NLST, and QUIT. With Config.FTPListDetails a directory is
// listed with FEAT, then MLSD, which is sent as LIST when the FEAT reply
// does not offer MLST and as NLST when LIST is refused (the command's
// Feature and Else say so). Name, Type, Guessed and List sum up the
// transfer the commands make, for callers that present its result.
type FTPPlan struct {
	Addr string // host:port to connect to
	// Name is the argument of RETR or NLST: the last segment of the path,
	// decoded.
	Name string
	// Type is 'a', 'i' or 'd': from ";type=", or guessed from the name
	// when the URL has none (Guessed is then true; RFC 1738 3.2.3).
	Type    byte
	Guessed bool
	// List is true when the plan lists a directory (NLST, or MLSD with
	// Config.FTPListDetails) rather than
	// retrieving a file: ";type=d", or an empty name with no type (RFC
	// 1630, FTP: a "/" suffix means "use FTP directory list commands").
	List bool
	// Commands is the dialogue, in order.
	Commands []FTPCommand
	// Head is set for a plan made with Config.Head: it asks what is known
	// about the file instead of retrieving it, with SIZE and MDTM after
	// TYPE I (no data connection); for a directory, the CWD commands alone.
	Head bool
	// Directory, when not empty, holds the commands sent in place of the
	// transfer when the server refuses the plan's RETR (SIZE, for a Head
	// plan) with 550 and accepts its first command, "CWD name": the name is
	// then a directory, and it is listed (nothing more, for Head), as lynx
	// reads such a URL. A plan has them when the URL names a file by a name
	// with no ";type=" (the type guessed, RFC 1738 3.2.3), since
	// "ftp://host/pub" may name the directory pub. QUIT ends either way.
	Directory []FTPCommand

	// Room for the commands of a short path, in the plan's own
	// allocation.
	cmdBuf [9]FTPCommand
}

// An FTPVerb is the command of one line of an FTP dialogue (RFC 959 4.1).
type FTPVerb uint8

// The FTP commands of plans. Each takes an argument, takes none, or takes
// one only when it is not empty (NLST): see [FTPCommand.Line].
const (
	FTPUser FTPVerb = iota + 1 // USER name
	FTPPass                    // PASS password (see PassSource)
	FTPCwd                     // CWD directory (an empty argument is sent as "CWD ")
	FTPType                    // TYPE A or TYPE I
	FTPEpsv                    // EPSV: open a passive data connection (RFC 2428)
	FTPPasv                    // PASV: the same, the older way (RFC 959)
	FTPRetr                    // RETR name: the file, on the data connection
	FTPNlst                    // NLST [name]: the names in a directory, on the data connection
	FTPQuit                    // QUIT, sent when the transfer is over
	FTPFeat                    // FEAT: which extensions the server offers (RFC 2389)
	FTPMlsd                    // MLSD [name]: a directory's entries with their facts (RFC 3659 7)
	FTPList                    // LIST [name]: a directory's entries as the server writes them (RFC 959 4.1.3)
	FTPMlst                    // MLST [name]: one entry's facts (RFC 3659 7); as a Feature, MLSD too (7.8)
	FTPSize                    // SIZE name: the file's size in bytes, reply 213 (RFC 3659 4); -I shows it as Content-Length
	FTPMdtm                    // MDTM name: the file's last modification time, reply 213 (RFC 3659 3); -I shows it as Last-Modified
)

// ftpVerbs holds each verb's text, whether it takes an argument, and the
// document that defines it.
var ftpVerbs = [...]struct {
	name string
	arg  argRule
	doc  string
}{
	FTPUser: {"USER", argAlways, "RFC 959 4.1.1"}, FTPPass: {"PASS", argAlways, "RFC 959 4.1.1"}, FTPCwd: {"CWD", argAlways, "RFC 959 4.1.1"},
	FTPType: {"TYPE", argAlways, "RFC 959 4.1.2"}, FTPEpsv: {"EPSV", argNever, "RFC 2428 3"}, FTPPasv: {"PASV", argNever, "RFC 959 4.1.2"},
	FTPRetr: {"RETR", argAlways, "RFC 959 4.1.3"}, FTPNlst: {"NLST", argIfAny, "RFC 959 4.1.3"}, FTPQuit: {"QUIT", argNever, "RFC 959 4.1.1"},
	FTPFeat: {"FEAT", argNever, "RFC 2389"}, FTPMlsd: {"MLSD", argIfAny, "RFC 3659 7"}, FTPList: {"LIST", argIfAny, "RFC 959 4.1.3"},
	FTPMlst: {"MLST", argIfAny, "RFC 3659 7"}, FTPSize: {"SIZE", argAlways, "RFC 3659 4"}, FTPMdtm: {"MDTM", argAlways, "RFC 3659 3"},
}

// argRule says when a command line has an argument.
type argRule uint8

const (
	argNever  argRule = iota // the verb alone
	argAlways                // verb, space, argument (which may be empty)
	argIfAny                 // the verb alone when the argument is empty
)

// String returns the verb as sent, e.g. "USER"; "" for an unknown verb.
func (v FTPVerb) String() string {
	if int(v) < len(ftpVerbs) {
		return ftpVerbs[v].name
	}
	return ""
}

// Doc returns the document and section that define the verb, e.g. "RFC
// 3659 7" for MLSD; "" for an unknown verb.
func (v FTPVerb) Doc() string {
	if int(v) < len(ftpVerbs) {
		return ftpVerbs[v].doc
	}
	return ""
}

// A PassSource says where the argument of a PASS command comes from.
type PassSource uint8

const (
	// PassURL: the password written in the URL. It is masked wherever the
	// command is shown.
	PassURL PassSource = iota + 1
	// PassAnonymous: the end user's e-mail address, the password of
	// anonymous FTP (RFC 1738 3.2.1; Config.Email).
	PassAnonymous
	// PassAsk: the URL gives a user and no password, so the client asks
	// the end user when the server wants one (RFC 1738 3.2.1). The
	// command's Arg is empty in the plan: the access package asks
	// (Options.PasswordPrompt) and sends the answer.
	PassAsk
)

// String returns "url", "anonymous" or "ask".
func (s PassSource) String() string {
	switch s {
	case PassURL:
		return "url"
	case PassAnonymous:
		return "anonymous"
	case PassAsk:
		return "ask"
	}
	return ""
}

// FTPCommand is one command of an FTP plan.
type FTPCommand struct {
	Verb FTPVerb
	// Arg is the argument, decoded, exactly as sent; "" for a verb that
	// takes none.
	Arg string
	// Pass says where a PASS argument comes from; 0 for other verbs.
	Pass PassSource
	// Feature, when set, is the extension the server's FEAT reply (RFC
	// 2389) must offer for Verb to be sent, named by its command (a
	// feature line starts with the command's name, RFC 2389 3.2): MLST
	// for MLSD (RFC 3659 7.8). Without it Else[0] is sent in Verb's
	// place. A plan with such a command sends FEAT before it.
	Feature FTPVerb
	// Else holds the verbs sent instead, in order, with the same argument:
	// each when the server refuses the one before it, the first also when
	// the server does not offer Feature. PASV after EPSV (RFC 2428); LIST,
	// then NLST, after MLSD. Unused entries are 0.
	Else [2]FTPVerb
	// Guessed marks a TYPE whose argument the client chose because the
	// URL has no ";type=" (RFC 1738 3.2.3).
	Guessed bool
}

// Line returns the command line exactly as sent, without its CRLF: the
// verb, then a space and Arg when the verb takes an argument. A password
// is in clear; use [FTPCommand.Redacted] to show it.
func (c FTPCommand) Line() string { return c.line(c.Arg) }

func (c FTPCommand) line(arg string) string {
	v := c.Verb.String()
	if int(c.Verb) >= len(ftpVerbs) {
		return arg
	}
	switch ftpVerbs[c.Verb].arg {
	case argAlways:
		return v + " " + arg
	case argIfAny:
		if arg != "" {
			return v + " " + arg
		}
	}
	return v
}

// Redacted returns Line with a password from the URL or from the user
// masked as "****": the line as the access package traces it and names it
// in errors.
func (c FTPCommand) Redacted() string {
	if c.Verb == FTPPass && (c.Pass == PassURL || c.Pass == PassAsk) {
		return c.line("****")
	}
	return c.Line()
}

// Op returns the verb in lower case, e.g. "user".
func (c FTPCommand) Op() string {
	if int(c.Verb) < len(ftpOps) {
		return ftpOps[c.Verb]
	}
	return ""
}

// ftpOps holds each verb's Op, computed once.
var ftpOps = func() (ops [len(ftpVerbs)]string) {
	for v := range ops {
		ops[v] = strings.ToLower(ftpVerbs[v].name)
	}
	return ops
}()

// Text returns the command as `urlkit plan` shows it: Redacted, with
// "PASS <ask the user>" for a password to be asked, and a note for a rule:
// the verbs sent instead (Feature, Else), a guessed type, why FEAT is
// asked.
func (c FTPCommand) Text() string {
	e0, e1 := c.Else[0].String(), c.Else[1].String()
	switch {
	case c.Verb == FTPPass && c.Pass == PassAsk:
		return "PASS <ask the user>"
	case c.Feature != 0 && e0 != "":
		s := c.Redacted() + " (" + c.Verb.Doc() + "; sent as " + e0 + ", " + c.Else[0].Doc() + ", when the FEAT reply does not offer " + c.Feature.String()
		if e1 != "" {
			s += ", and as " + e1 + " when " + e0 + " is refused"
		}
		return s + ")"
	case e0 != "":
		s := c.Redacted() + " (" + e0 + " if refused"
		if e1 != "" {
			s += ", " + e1 + " if " + e0 + " is refused"
		}
		if c.Verb == FTPEpsv {
			s += "; the data connection goes to the control connection's address"
		}
		return s + ")"
	case c.Guessed:
		return c.Redacted() + " (guessed from the name: the URL has no ;type=, RFC 1738 3.2.3)"
	case c.Verb == FTPFeat:
		return "FEAT (asks which extensions the server offers, RFC 2389)"
	case c.Verb == FTPSize:
		return c.Redacted() + " (RFC 3659 4: the size in bytes, shown as Content-Length)"
	case c.Verb == FTPMdtm:
		return c.Redacted() + " (RFC 3659 3: the time of the last change, shown as Last-Modified; a refusal only leaves it out)"
	}
	return c.Redacted()
}

// FTPIfDirectory is the step of an FTP plan that starts its Directory
// commands: what the client sends when the server refuses Verb (RETR, or
// SIZE for a Head plan) with 550, the name it asked for being perhaps a
// directory.
type FTPIfDirectory struct {
	Verb FTPVerb // the command whose refusal leads here
	Name string  // the name that may be a directory
}

// Op returns "if_directory".
func (FTPIfDirectory) Op() string { return "if_directory" }

// Text says when the commands after it are sent.
func (s FTPIfDirectory) Text() string {
	then := "it is listed, as lynx does"
	if s.Verb == FTPSize {
		then = "it is a directory, and nothing more is asked"
	}
	return "when " + s.Verb.String() + " is refused with 550, " + strconv.Quote(s.Name) +
		" may be a directory (the URL has no ;type= and no final /): if the server accepts CWD to it, " + then
}

// Scheme returns "ftp".
func (p *FTPPlan) Scheme() string { return "ftp" }

// Steps returns the connection, then each command; a plan with Directory
// commands has them, after an FTPIfDirectory step, before its QUIT.
func (p *FTPPlan) Steps() []Step {
	connect := Connect{Addr: p.Addr, For: "FTP control connection"}
	n := len(p.Commands)
	if len(p.Directory) == 0 || n == 0 || p.Commands[n-1].Verb != FTPQuit {
		return stepsAfter(connect, p.Commands)
	}
	v := FTPRetr
	if p.Head {
		v = FTPSize
	}
	out := stepsAfter(connect, p.Commands[:n-1])
	out = append(out, FTPIfDirectory{Verb: v, Name: p.Name})
	for _, d := range p.Directory {
		out = append(out, d)
	}
	return append(out, p.Commands[n-1])
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
	p.Type, p.Name = v.Type, v.Name
	if p.Type == 0 {
		p.Type, p.Guessed = GuessFTPType(p.Name), true
	}
	p.List = p.Type == 'd'
	// Every argument is a string the view holds already: the commands
	// need no text of their own, only the address does.
	cmds := p.cmdBuf[:0]
	if n := len(v.CWD) + 6; n > len(p.cmdBuf) {
		cmds = make([]FTPCommand, 0, n)
	}
	switch {
	case !v.HasUser:
		email := cfg.Email
		if email == "" || holdsLineBreak(email) {
			email = "anonymous@localhost"
		}
		cmds = append(cmds, FTPCommand{Verb: FTPUser, Arg: AnonymousUser}, FTPCommand{Verb: FTPPass, Arg: email, Pass: PassAnonymous})
	case v.HasPassword:
		cmds = append(cmds, FTPCommand{Verb: FTPUser, Arg: v.User}, FTPCommand{Verb: FTPPass, Arg: v.Password, Pass: PassURL})
	default:
		cmds = append(cmds, FTPCommand{Verb: FTPUser, Arg: v.User}, FTPCommand{Verb: FTPPass, Pass: PassAsk})
	}
	for _, c := range v.CWD {
		cmds = append(cmds, FTPCommand{Verb: FTPCwd, Arg: c})
	}
	p.Head = cfg.Head
	switch {
	case p.List && cfg.Head:
		// What is known of a directory: that the server accepts it.
		if p.Name != "" {
			cmds = append(cmds, FTPCommand{Verb: FTPCwd, Arg: p.Name})
		}
	case p.List:
		cmds = appendListing(cmds, p.Name, cfg)
	case cfg.Head:
		// SIZE counts the bytes of the current type (RFC 3659 4): TYPE I,
		// the bytes as stored, as curl -I sends.
		cmds = append(cmds, FTPCommand{Verb: FTPType, Arg: "I"}, FTPCommand{Verb: FTPSize, Arg: p.Name}, FTPCommand{Verb: FTPMdtm, Arg: p.Name})
	default:
		cmds = append(cmds, FTPCommand{Verb: FTPType, Arg: typeArg(p.Type), Guessed: p.Guessed}, ftpEpsv, FTPCommand{Verb: FTPRetr, Arg: p.Name})
	}
	p.Commands = append(cmds, FTPCommand{Verb: FTPQuit})
	if !p.List && p.Guessed && p.Name != "" {
		// "ftp://host/pub" may name the directory pub (lynx lists it).
		p.Directory = []FTPCommand{{Verb: FTPCwd, Arg: p.Name}}
		if !cfg.Head {
			p.Directory = appendListing(p.Directory, "", cfg)
		}
	}
	p.Addr = addrOf(v.u, v.Host, v.Port)
	return p, nil
}

// ftpEpsv opens the passive data connection: EPSV, PASV if refused.
var ftpEpsv = FTPCommand{Verb: FTPEpsv, Else: [2]FTPVerb{FTPPasv}}

// appendListing appends the commands that list the directory name (the
// current one when empty): EPSV and NLST (RFC 1738 3.2.2), or with
// cfg.FTPListDetails FEAT, EPSV and MLSD (RFC 3659 7.8: MLST "indicates
// that both MLST and MLSD are supported"), sent as LIST where FEAT offers
// no MLST and as NLST where LIST is refused.
func appendListing(cmds []FTPCommand, name string, cfg Config) []FTPCommand {
	if cfg.FTPListDetails {
		return append(cmds, FTPCommand{Verb: FTPFeat}, ftpEpsv,
			FTPCommand{Verb: FTPMlsd, Arg: name, Feature: FTPMlst, Else: [2]FTPVerb{FTPList, FTPNlst}})
	}
	return append(cmds, ftpEpsv, FTPCommand{Verb: FTPNlst, Arg: name})
}

// typeArg returns the argument of TYPE for a type code: the code in upper
// case, a substring of a constant for a letter.
func typeArg(t byte) string {
	if u := t &^ 0x20; u >= 'A' && u <= 'Z' {
		return upperType[u-'A' : u-'A'+1]
	}
	return string(rune(t))
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

// ---- JSON -----------------------------------------------------------------

// writeJSON writes the members of the view's JSON object (the package
// documentation's "JSON keys").
func (v *FTP) writeJSON(w jsonw.Writer) jsonw.Writer {
	writeLogin(&w, v.Host, v.Port, v.User, v.HasUser, v.Password, v.HasPassword)
	w.KStrs("cwd", v.CWD)
	w.KStr("name", v.Name)
	w.KStr("type", typeString(v.Type))
	return w
}

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *FTP) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// writeJSON writes the plan's own members of its JSON object, before
// "steps".
func (p *FTPPlan) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("addr", p.Addr)
	w.Key("cwd")
	w.OpenArray()
	for _, c := range p.Commands {
		if c.Verb == FTPCwd {
			w.Str(c.Arg)
		}
	}
	w.CloseArray()
	w.KStr("name", p.Name)
	w.KStr("type", typeString(p.Type))
	w.KBool("type_guessed", p.Guessed)
	w.KBool("list", p.List)
	if p.Head {
		w.KBool("head", true)
	}
	return w
}

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *FTPPlan) MarshalJSON() ([]byte, error) { return planJSON(p) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s FTPCommand) writeJSON(w jsonw.Writer) jsonw.Writer {
	if s.hasArg() && s.Pass != PassURL && s.Pass != PassAsk {
		w.KStr("arg", s.Arg)
	}
	if s.Pass != 0 {
		w.KStr("source", s.Pass.String())
	}
	if s.Feature != 0 {
		w.KStr("feature", FTPCommand{Verb: s.Feature}.Op())
	}
	if s.Else[0] != 0 {
		w.Key("else")
		w.OpenArray()
		for _, e := range s.Else {
			if e != 0 {
				w.Str(FTPCommand{Verb: e}.Op())
			}
		}
		w.CloseArray()
	}
	if s.Guessed {
		w.KBool("guessed", true)
	}
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s FTPCommand) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s FTPIfDirectory) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("refused", FTPCommand{Verb: s.Verb}.Op())
	w.KStr("name", s.Name)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s FTPIfDirectory) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// hasArg reports whether the command's line carries its argument.
func (c FTPCommand) hasArg() bool {
	if int(c.Verb) >= len(ftpVerbs) {
		return false
	}
	switch ftpVerbs[c.Verb].arg {
	case argAlways:
		return true
	case argIfAny:
		return c.Arg != ""
	}
	return false
}

// fileName is the name RETR asks for (RFC 1738 3.2.2: the last segment).
func (v *FTP) fileName() (string, error) { return v.Name, nil }

// asksHead marks the plan as one Config.Head turns into SIZE and MDTM
// (RFC 3659 4, 3): headPlan.
func (p *FTPPlan) asksHead() {}
