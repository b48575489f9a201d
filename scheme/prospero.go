package scheme

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/jsonw"
)

// PROSPERO (RFC 1738 3.11; RFC 1630, Prospero; 1993 URL draft):
//   prospero://<host>:<port>/<hsoname>;<field>=<value>
//   prospero://<host>:<port>/<hsoname>%00<version>[%00<attribute>...]   (older form)

func init() {
	registerBuiltin("prospero", func(u urlkit.URL) (View, error) { return ProsperoOf(u) })
}

// Prospero is the view of a prospero URL. Strings are decoded.
type Prospero struct {
	u    urlkit.URL
	Host string
	Port int // 1525 when the URL names none
	// HSOName is the host-specific object name; "/" in it has no
	// significance the client may assume (RFC 1738 3.11).
	HSOName string
	Fields  []ProsperoField
	// Version and Attributes come from the older form of RFC 1630 and
	// the 1993 draft, where "%00" separates them from the name.
	Version    string
	HasVersion bool
	Attributes []string
	name       part
}

// ProsperoField is one ";field=value" pair of a Prospero link.
type ProsperoField struct {
	Name  string
	Value string
}

// ProsperoOf checks u against RFC 1738's prosperourl = "prospero://"
// hostport "/" ppath *[ fieldspec ], fieldspec = ";" fieldname "="
// fieldvalue, psegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]; any
// escape, "%00" too, is accepted there. The older form, hsoname "%00"
// version ["%00" attribute...] (RFC 1630; the 1993 draft allows several
// attributes), is read as information when the path has its shape:
// version is digits, possibly empty when attributes follow, and an
// attribute is alphanumeric. Otherwise the whole path is the hsoname,
// and a "%00" in it is a NUL that Plan refuses to send and Check reports
// (RFC 1738 6).
func ProsperoOf(u urlkit.URL) (*Prospero, error) {
	l := locOf(u)
	if err := noLogin(l, "RFC 1738 3.11: no username or password is allowed"); err != nil {
		return nil, err
	}
	v := &Prospero{u: u, Host: u.Host()}
	v.Port, _ = portOf(u, 1525)
	if _, ok := u.Path(); !ok {
		return nil, l.err(l.end(), urlkit.ComponentPath, ErrMissing, "a prospero URL names an object: prospero://<host>:<port>/<hsoname> (RFC 1738 3.11)")
	}
	p := part{u.PathAndSearch(), l.urlPath(), urlkit.ComponentPath}
	specs := p.split(';')
	name := specs[0]
	for _, f := range specs[1:] {
		eq := strings.IndexByte(f.raw, '=')
		if eq < 0 {
			return nil, l.err(f.off, f.comp, ErrBadPath, `field %q has no "=": fieldspec = ";" fieldname "=" fieldvalue (RFC 1738 3.11)`, f.raw)
		}
		n, val := part{f.raw[:eq], f.off, f.comp}, part{f.raw[eq+1:], f.off + eq + 1, f.comp}
		for _, x := range []part{n, val} {
			if i := x.firstNot(ucharOr("?:@&")); i >= 0 {
				return nil, reservedErr(l, x, i, `RFC 1738 5: fieldname and fieldvalue are *[ uchar | "?" | ":" | "@" | "&" ]`)
			}
		}
		v.Fields = append(v.Fields, ProsperoField{n.decode(), val.decode()})
	}
	for _, s := range name.split('/') {
		if i := s.firstNot(ucharOr("?:@&=")); i >= 0 {
			return nil, reservedErr(l, s, i, `RFC 1738 5: psegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]`)
		}
	}
	// RFC 1738 decides what is accepted: a psegment is any uchar, "%00"
	// included. RFC 1630's reading, hsoname "%00" version, is taken as
	// information when the rest has its shape.
	if old := name.splitEscape("%00", 1<<20); len(old) > 1 && prosperoVersionForm(old[1:]) {
		name = old[0]
		v.HasVersion, v.Version = true, old[1].raw
		for _, a := range old[2:] {
			v.Attributes = append(v.Attributes, a.raw)
		}
	}
	v.name = name
	v.HSOName = name.decode()
	return v, nil
}

// URL returns the URL the view was made from.
func (v *Prospero) URL() urlkit.URL { return v.u }

// ProsperoPlan is the access plan of a prospero URL: the requests a
// Prospero client sends to the directory server over UDP (ARDP; the
// Prospero protocol version 5), each one message of typed commands, and
// when each is sent: first the directory listing; when the server answers
// FAILURE NOT-A-DIRECTORY the object is a file, and its attributes are
// asked for; when they offer the PROSPERO-CONTENTS access method, its
// contents (RFC 1738 3.11: the server is asked "to determine appropriate
// access methods for a resource").
type ProsperoPlan struct {
	Addr     string // host:port (UDP)
	HSOName  string
	Requests []ProsperoRequest
}

// When a request of a Prospero plan is sent.
const (
	ProsperoFirst          = "first"           // always, first
	ProsperoNotADirectory  = "not-a-directory" // the listing was answered FAILURE NOT-A-DIRECTORY
	ProsperoContentsMethod = "contents-method" // the attributes offer the PROSPERO-CONTENTS access method
	ProsperoNotAuthorized  = "not-authorized"  // the listing was answered FAILURE NOT-AUTHORIZED
)

// ProsperoRequest is one request: the commands of one ARDP message, sent
// when When says, and how its reply is read.
type ProsperoRequest struct {
	When     string
	Commands []ProsperoCommand
	Reply    string
}

// Text describes the request: when it is sent and how its reply is read.
func (r ProsperoRequest) Text() string {
	switch r.When {
	case ProsperoFirst:
		return "request (first): " + r.Reply
	case ProsperoNotADirectory:
		return "request (when the server answers FAILURE NOT-A-DIRECTORY): " + r.Reply
	case ProsperoContentsMethod:
		return "request (when the object offers the PROSPERO-CONTENTS access method): " + r.Reply
	case ProsperoNotAuthorized:
		return "request (when the server answers FAILURE NOT-AUTHORIZED): " + r.Reply
	}
	return "request (" + r.When + "): " + r.Reply
}

// Op returns "request".
func (ProsperoRequest) Op() string { return "request" }

// Message returns the request's text as sent: each command's line, and the
// SELECT lines of a DIRECTORY or GET-OBJECT-INFO after it, each line ended
// by LF (Prospero protocol: "Commands ... are separated by an unquoted
// ASCII LF character").
func (r ProsperoRequest) Message() string {
	var b strings.Builder
	for _, l := range r.Lines() {
		b.WriteString(l.Text())
		b.WriteByte('\n')
	}
	return b.String()
}

// Lines returns the request's lines in order: each command, then its
// SELECT lines.
func (r ProsperoRequest) Lines() []Step {
	out := make([]Step, 0, len(r.Commands))
	for _, c := range r.Commands {
		out = append(out, c)
		switch c := c.(type) {
		case ProsperoDirectory:
			for _, s := range c.Select {
				out = append(out, s)
			}
		case ProsperoGetObjectInfo:
			for _, s := range c.Select {
				out = append(out, s)
			}
		}
	}
	return out
}

// ProsperoCommand is one command of a request: ProsperoVersion,
// ProsperoAuthenticate, ProsperoDirectory, ProsperoList or
// ProsperoGetObjectInfo. Text is the command's line as sent (the SELECT
// lines of a DIRECTORY or GET-OBJECT-INFO follow it, see
// ProsperoRequest.Lines).
type ProsperoCommand interface {
	Step
	prosperoCommand()
}

// ProsperoVersion is "VERSION version-number": the protocol version the
// request speaks.
type ProsperoVersion struct {
	Version int
}

func (ProsperoVersion) prosperoCommand() {}

// Op returns "version".
func (ProsperoVersion) Op() string { return "version" }

// Text is the command line.
func (c ProsperoVersion) Text() string { return "VERSION " + strconv.Itoa(c.Version) }

// ProsperoAuthenticate is "AUTHENTICATE options authenticator-type
// authentication-data": for UNAUTHENTICATED, the data is the name of the
// user running the client (Prospero protocol v5, AUTHENTICATE).
type ProsperoAuthenticate struct {
	Type string
	Data string
}

func (ProsperoAuthenticate) prosperoCommand() {}

// Op returns "authenticate".
func (ProsperoAuthenticate) Op() string { return "authenticate" }

// Text is the command line.
func (c ProsperoAuthenticate) Text() string {
	return "AUTHENTICATE '' " + ProsperoQuote(c.Type) + " " + ProsperoQuote(c.Data)
}

// ProsperoSelect is a SELECT line after a DIRECTORY or GET-OBJECT-INFO
// command: "SELECT applies-to namespace attribute-name value-type value",
// here a link field of the URL (RFC 1738 3.11: the fields "serve to
// identify the target of the URL").
type ProsperoSelect struct {
	AppliesTo string // LINK
	Namespace string // FIELD
	Name      string
	ValueType string // SEQUENCE
	Value     string
}

// Op returns "select".
func (ProsperoSelect) Op() string { return "select" }

// Text is the SELECT line.
func (s ProsperoSelect) Text() string {
	return "SELECT " + s.AppliesTo + " " + s.Namespace + " " + ProsperoQuote(s.Name) + " " + s.ValueType + " " + ProsperoQuote(s.Value)
}

// ProsperoDirectory is "DIRECTORY hsoname-type hsoname [object-version]"
// and its SELECT lines: the directory the LIST that follows reads.
type ProsperoDirectory struct {
	HSONameType   string // ASCII
	HSOName       string
	ObjectVersion string
	Select        []ProsperoSelect
}

func (ProsperoDirectory) prosperoCommand() {}

// Op returns "directory".
func (ProsperoDirectory) Op() string { return "directory" }

// Text is the command line (its SELECT lines follow it).
func (c ProsperoDirectory) Text() string {
	s := "DIRECTORY " + c.HSONameType + " " + ProsperoQuote(c.HSOName)
	if c.ObjectVersion != "" {
		s += " " + c.ObjectVersion
	}
	return s
}

// ProsperoList is "LIST options COMPONENTS [name-component...]": with no
// component, every link of the directory.
type ProsperoList struct {
	Options    string
	Components []string
}

func (ProsperoList) prosperoCommand() {}

// Op returns "list".
func (ProsperoList) Op() string { return "list" }

// Text is the command line.
func (c ProsperoList) Text() string {
	s := "LIST " + ProsperoQuote(c.Options) + " COMPONENTS"
	for _, n := range c.Components {
		s += " " + ProsperoQuote(n)
	}
	return s
}

// ProsperoStatus is "STATUS", a request of its own (no VERSION, no
// AUTHENTICATE), as Prospero's pstatus sends it: the server answers with
// lines of text about itself, among them "Root: PATH", the directory
// whose tree it serves, under which every hsoname it answers lies
// (../shared/servers/prospero/transcripts/prospero-status-vls).
type ProsperoStatus struct{}

func (ProsperoStatus) prosperoCommand() {}

// Op returns "status".
func (ProsperoStatus) Op() string { return "status" }

// Text is the command line.
func (ProsperoStatus) Text() string { return "STATUS" }

// ProsperoGetObjectInfo is "GET-OBJECT-INFO requested-attributes
// hsoname-type hsoname object-version" and its SELECT lines.
type ProsperoGetObjectInfo struct {
	Attributes    []string
	HSONameType   string
	HSOName       string
	ObjectVersion string
	Select        []ProsperoSelect
}

func (ProsperoGetObjectInfo) prosperoCommand() {}

// Op returns "get_object_info".
func (ProsperoGetObjectInfo) Op() string { return "get_object_info" }

// Text is the command line (its SELECT lines follow it).
func (c ProsperoGetObjectInfo) Text() string {
	return "GET-OBJECT-INFO " + ProsperoQuote(strings.Join(c.Attributes, "+")) + " " + c.HSONameType + " " +
		ProsperoQuote(c.HSOName) + " " + c.ObjectVersion
}

// ProsperoQuote returns s as one protocol token: as it is when it needs no
// quoting, else between single quotes with each quote doubled (Prospero
// protocol v5, "Spaces, quoting, and line-feeds"; the null string is
// written ”).
func ProsperoQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n\r'/\x00") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// Scheme returns "prospero".
func (p *ProsperoPlan) Scheme() string { return "prospero" }

// Steps returns the UDP socket, then each request: its description, then
// its lines as sent.
func (p *ProsperoPlan) Steps() []Step {
	out := []Step{Connect{Addr: p.Addr, For: "UDP: ARDP; Prospero protocol version 5, RFC 1738 3.11; each request one message"}}
	for _, r := range p.Requests {
		out = append(out, r)
		out = append(out, r.Lines()...)
	}
	return out
}

// The attributes a Prospero plan asks for: all the object's attributes
// (the access methods among them), then its contents.
const (
	ProsperoAllAttributes = "#ALL"
	ProsperoContents      = "CONTENTS"
)

// Plan returns the requests. The name is sent decoded between quotes, so
// control characters in it are refused (RFC 1738 6). The principal of the
// UNAUTHENTICATED authentication is the local part of cfg.Email, as the
// anonymous ftp password names the user, or "anonymous" without one. A
// ";OBJECT-VERSION=n" field, or RFC 1630's "%00" version, is the commands'
// object-version; every other field is a SELECT line.
func (v *Prospero) Plan(cfg Config) (Plan, error) {
	if err := planPort(v.u); err != nil {
		return nil, err
	}
	l := locOf(v.u)
	name, err := v.name.wire(l, "hsoname")
	if err != nil {
		return nil, err
	}
	version := v.Version
	var sel []ProsperoSelect
	for _, f := range v.Fields {
		if i, b := firstControlIn(f.Name + f.Value); i >= 0 {
			return nil, l.err(l.urlPath(), urlkit.ComponentPath, ErrControl, "control character 0x%02X in the field %q: it would be sent in the request and could inject a command (RFC 1738 6)", b, f.Name)
		}
		if strings.EqualFold(f.Name, "OBJECT-VERSION") {
			if f.Value == "" || strings.Trim(f.Value, "0123456789") != "" {
				return nil, l.err(l.urlPath(), urlkit.ComponentPath, ErrBadPath, "OBJECT-VERSION=%q: an object version is a number (Prospero protocol v5, Versions)", f.Value)
			}
			version = f.Value
			continue
		}
		sel = append(sel, ProsperoSelect{AppliesTo: "LINK", Namespace: "FIELD", Name: f.Name, ValueType: "SEQUENCE", Value: f.Value})
	}
	objVersion := version
	if objVersion == "" {
		objVersion = "0" // the current version
	}
	user := "anonymous"
	if local, _, ok := strings.Cut(cfg.Email, "@"); ok && local != "" {
		user = local
	} else if !ok && cfg.Email != "" {
		user = cfg.Email
	}
	if i, b := firstControlIn(user); i >= 0 {
		return nil, fmt.Errorf("prospero: control character 0x%02X in the user name %q", b, user)
	}
	head := []ProsperoCommand{ProsperoVersion{Version: 5}, ProsperoAuthenticate{Type: "UNAUTHENTICATED", Data: user}}
	with := func(cmds ...ProsperoCommand) []ProsperoCommand {
		return append(append(make([]ProsperoCommand, 0, len(head)+len(cmds)), head...), cmds...)
	}
	attrs := []string{ProsperoAllAttributes}
	if len(v.Attributes) > 0 {
		attrs = v.Attributes
	}
	p := &ProsperoPlan{Addr: addrOf(v.u, v.Host, v.Port), HSOName: name}
	p.Requests = []ProsperoRequest{
		{When: ProsperoFirst, Commands: with(
			ProsperoDirectory{HSONameType: "ASCII", HSOName: name, ObjectVersion: version, Select: sel},
			ProsperoList{Options: "ATTRIBUTES"}),
			Reply: "the directory's LINK lines, each with its ATTRIBUTE lines (size, last-modified, access methods: what vls -A shows); FAILURE NOT-A-DIRECTORY: the object is a file"},
		{When: ProsperoNotADirectory, Commands: with(
			ProsperoGetObjectInfo{Attributes: attrs, HSONameType: "ASCII", HSOName: name, ObjectVersion: objVersion, Select: sel}),
			Reply: "the object's ATTRIBUTE lines; follow an ACCESS-METHOD: PROSPERO-CONTENTS (next request), AFTP (through ftp), GOPHER (through gopher)"},
		{When: ProsperoContentsMethod, Commands: with(
			ProsperoGetObjectInfo{Attributes: []string{ProsperoContents}, HSONameType: "ASCII", HSOName: name, ObjectVersion: objVersion, Select: sel}),
			Reply: "ATTRIBUTE OBJECT INTRINSIC CONTENTS SEQUENCE DATA and the file's bytes as one token"},
		{When: ProsperoNotAuthorized, Commands: []ProsperoCommand{ProsperoStatus{}},
			Reply: "the server's status, as pstatus shows it: its Root: line names the tree it serves, where the hsoname is looked for"},
	}
	return p, nil
}

// firstControlIn returns the index and value of the first control
// character in s, or -1.
func firstControlIn(s string) (int, byte) {
	for i := 0; i < len(s); i++ {
		if isControl(s[i]) {
			return i, s[i]
		}
	}
	return -1, 0
}

func (v *Prospero) wireParts() []wirePart { return []wirePart{{v.name, "hsoname"}} }

// prosperoVersionForm reports whether the parts after the first "%00" of
// a path have the shape of RFC 1630's version and the 1993 draft's
// attributes: digits, empty only when attributes follow, then non-empty
// alphanumerics.
func prosperoVersionForm(tail []part) bool {
	if tail[0].raw == "" && len(tail) == 1 {
		return false
	}
	for k, p := range tail {
		if k > 0 && p.raw == "" {
			return false
		}
		for i := 0; i < len(p.raw); i++ {
			if k == 0 && !chars.Is(p.raw[i], chars.Digit) || k > 0 && !chars.Is(p.raw[i], chars.AlphaDigit) {
				return false
			}
		}
	}
	return true
}

// ---- JSON -----------------------------------------------------------------

// writeJSON writes the members of the view's JSON object (the package
// documentation's "JSON keys").
func (v *Prospero) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("host", v.Host)
	w.KNum("port", v.Port)
	w.KStr("hsoname", v.HSOName)
	writePairs(&w, "fields", "name", "value", len(v.Fields), func(i int) (string, string) { return v.Fields[i].Name, v.Fields[i].Value })
	w.KOpt("version", v.Version, v.HasVersion)
	if len(v.Attributes) > 0 {
		w.KStrs("attributes", v.Attributes)
	}
	return w
}

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *Prospero) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// writeJSON writes the plan's own members of its JSON object, before
// "steps".
func (p *ProsperoPlan) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("addr", p.Addr)
	w.KStr("hsoname", p.HSOName)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *ProsperoPlan) MarshalJSON() ([]byte, error) { return planJSON(p) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s ProsperoRequest) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("when", s.When)
	w.KStr("reply", s.Reply)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s ProsperoRequest) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s ProsperoVersion) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KNum("version", s.Version)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s ProsperoVersion) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s ProsperoAuthenticate) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("type", s.Type)
	w.KStr("data", s.Data)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s ProsperoAuthenticate) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s ProsperoDirectory) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("hsoname_type", s.HSONameType)
	w.KStr("hsoname", s.HSOName)
	w.KNonEmpty("object_version", s.ObjectVersion)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s ProsperoDirectory) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s ProsperoList) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("options", s.Options)
	if len(s.Components) > 0 {
		w.KStrs("components", s.Components)
	}
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s ProsperoList) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s ProsperoGetObjectInfo) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStrs("attributes", s.Attributes)
	w.KStr("hsoname_type", s.HSONameType)
	w.KStr("hsoname", s.HSOName)
	w.KStr("object_version", s.ObjectVersion)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s ProsperoGetObjectInfo) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s ProsperoSelect) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("applies_to", s.AppliesTo)
	w.KStr("namespace", s.Namespace)
	w.KStr("name", s.Name)
	w.KStr("value_type", s.ValueType)
	w.KStr("value", s.Value)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s ProsperoSelect) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s ProsperoStatus) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// fileName is the hsoname's last "/"-segment: no structure may be assumed
// (RFC 1738 3.11), but the name a server gives a file is its last segment
// in every hsoname dirsrv writes.
func (v *Prospero) fileName() (string, error) {
	return v.HSOName[strings.LastIndexByte(v.HSOName, '/')+1:], nil
}
