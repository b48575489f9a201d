package scheme

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/jsonw"
)

// Gopher (RFC 1738 3.4; RFC 1630, Gopher; RFC 1436):
// gopher://<host>:<port>/<gophertype><selector>%09<search>%09<gopher+_string>

func init() {
	registerChecked("gopher", func(u urlkit.URL) (View, error) { return GopherOf(u) }, checkGopher)
}

// Gopher is the view of a gopher URL. Selector, Search and PlusString are
// decoded.
//
// Reserved: nothing within the gopher-path (RFC 1738 3.4.1), so
// gopher://h/1a%3Fb and gopher://h/1a?b are equal ([urlkit.Equal]): both
// send the selector "a?b". [Info].ReservedChars reports the set.
type Gopher struct {
	u          urlkit.URL
	Host       string
	Port       int // 70 when the URL names none
	Selector   string
	Search     string
	PlusString string
	// Type is the gopher type character: how to read the reply, never
	// sent to the server. It is '1' when the gopher-path is empty (RFC
	// 1738 3.4.1).
	Type      byte
	HasSearch bool
	HasPlus   bool

	// escapes is whether the URL has a "%" at all: without one no part
	// can hold a control character. The raw parts (for error offsets) are
	// recomputed from the URL when needed (gopherParts), which keeps the
	// view small.
	escapes bool

	// Plus is the parsed Gopher+ string, nil without one.
	Plus *GopherPlus

	// wire is the address and the fields, decoded, when the URL has
	// escapes: the selector, search and Gopher+ string are substrings of
	// it, decoded in one allocation, and Plan takes the address from it
	// when it is the view's.
	wire string

	// spare is room for the first plan, in the view's own allocation
	// (gopherBlock, planSpare).
	spare *planSpare[GopherPlan]
}

// gopherBlock is a view and the room for its first plan, allocated
// together.
type gopherBlock struct {
	view  Gopher
	spare planSpare[GopherPlan]
}

// Kinds of Gopher+ string (RFC 1738 3.4.4-3.4.9).
const (
	PlusDefaultView   = "default-view"         // "+": the item's default view (3.4.4)
	PlusAlternateView = "alternate-view"       // "+<view>%20<language>" (3.4.8)
	PlusAsk           = "ask"                  // "?": an item with an electronic form (3.4.4, 3.4.5)
	PlusItemAttrs     = "item-attributes"      // "!" or "!<attr>%20<attr>" (3.4.6, 3.4.7)
	PlusDirAttrs      = "directory-attributes" // "$" or "$<attr>..." (3.4.6, 3.4.7)
	PlusForm          = "form"                 // a filled-in ASK block (3.4.9)
	PlusOther         = "other"                // any other Gopher+ command
)

// GopherPlus is a parsed Gopher+ string.
type GopherPlus struct {
	Kind       string   // one of the Plus* constants
	View       string   // alternate view, e.g. "application/postscript"
	Language   string   // its language, e.g. "Es_ES"
	Attributes []string // named attributes, e.g. "+ABSTRACT"
	Values     []string // the answers of a filled-in form
}

// GopherOf checks u against RFC 1738's gopherurl and splits the
// gopher-path: the first character is the type (an escape counts as one
// character), the selector runs to the first %09, the search to the next,
// and the Gopher+ string is the rest. Within the gopher-path no characters
// are reserved (RFC 1738 3.4.1), so "?" belongs to the selector.
func GopherOf(u urlkit.URL) (*Gopher, error) {
	if err := checkGopher(u); err != nil {
		return nil, err
	}
	// Field by field: a composite literal would be built aside and copied
	// into the block with write barriers.
	b := new(gopherBlock)
	v := &b.view
	v.u, v.Host, v.Type, v.spare = u, u.Host(), '1', &b.spare
	v.Port, _ = portOf(u, 70)
	v.escapes = strings.IndexByte(u.String(), '%') >= 0
	typ, fields, n := gopherSplit(part{raw: u.PathAndSearch()}) // decoding needs no offsets
	if typ.raw == "" {
		return v, nil
	}
	v.Type = typ.decodeIf(v.escapes)[0]
	v.HasSearch, v.HasPlus = n > 1, n > 2
	if !v.escapes {
		v.Selector, v.Search, v.PlusString = fields[0].raw, fields[1].raw, fields[2].raw
	} else {
		// The address and the fields, decoded, in one allocation: the
		// view's strings are substrings of it, and Plan takes the
		// address from it.
		var text [256]byte // on the stack; a long text moves it to the heap
		b := appendHostPort(text[:0], v.Host, v.Port)
		var ends [6]int // where each field starts and ends
		for i := range n {
			ends[2*i] = len(b)
			b = fields[i].appendDecoded(b)
			ends[2*i+1] = len(b)
		}
		wire := string(b)
		v.Selector, v.Search, v.PlusString = wire[ends[0]:ends[1]], wire[ends[2]:ends[3]], wire[ends[4]:ends[5]]
		v.wire = wire
	}
	if v.HasPlus {
		v.Plus = parsePlus(v.PlusString)
	}
	return v, nil
}

// gopherParts splits the gopher-path of u: the type (empty when the path
// is), then the selector and, where present, the search and the Gopher+
// string, raw, n of them.
func gopherParts(u urlkit.URL) (typ part, fields [3]part, n int) {
	return gopherSplit(part{u.PathAndSearch(), locOf(u).urlPath(), urlkit.ComponentPath})
}

// gopherSplit is gopherParts on the gopher-path p.
func gopherSplit(p part) (typ part, fields [3]part, n int) {
	if p.raw == "" {
		return part{"", p.off, p.comp}, [3]part{{"", p.off, p.comp}}, 1
	}
	t := 1
	if p.raw[0] == '%' {
		t = 3
	}
	typ = part{p.raw[:t], p.off, p.comp}
	// At most two %09 separate the fields (any later one belongs to the
	// Gopher+ string).
	n = len(part{p.raw[t:], p.off + t, p.comp}.splitEscapeInto(fields[:0], "%09", 2))
	return typ, fields, n
}

// checkGopher is GopherOf's grammar, shared with [Validate]: a gopher URL
// has no login, and within the gopher-path nothing is reserved.
func checkGopher(u urlkit.URL) error {
	if _, ok := u.User(); !ok {
		return nil
	}
	return noLogin(locOf(u), "RFC 1738 5: gopherurl = \"gopher://\" hostport ...")
}

// parsePlus reads a decoded Gopher+ string.
func parsePlus(s string) *GopherPlus {
	g := &GopherPlus{}
	switch {
	case s == "+":
		g.Kind = PlusDefaultView
	case s == "?":
		g.Kind = PlusAsk
	case strings.HasPrefix(s, "!") || strings.HasPrefix(s, "$"):
		g.Kind = PlusItemAttrs
		if s[0] == '$' {
			g.Kind = PlusDirAttrs
		}
		if f := strings.Fields(s[1:]); len(f) > 0 {
			g.Attributes = f
		}
	case strings.HasPrefix(s, "+\t1\r\n"):
		if vals, ok := formValues(s); ok {
			g.Kind, g.Values = PlusForm, vals
		} else {
			g.Kind = PlusOther
		}
	case strings.HasPrefix(s, "+") && !strings.ContainsAny(s, "\t\r\n"):
		g.Kind = PlusAlternateView
		g.View, g.Language, _ = strings.Cut(s[1:], " ")
	default:
		g.Kind = PlusOther
	}
	return g
}

// formValues reads the filled-in ASK block of RFC 1738 3.4.9:
// "+" TAB "1" CRLF "+-1" CRLF *(value CRLF) "." CRLF.
func formValues(s string) ([]string, bool) {
	rest, ok := strings.CutPrefix(s, "+\t1\r\n+-1\r\n")
	if !ok || !strings.HasSuffix(rest, ".\r\n") {
		return nil, false
	}
	body := strings.TrimSuffix(rest, ".\r\n")
	vals := []string{}
	for body != "" {
		line, after, found := strings.Cut(body, "\r\n")
		if !found || strings.ContainsAny(line, "\r\n") {
			return nil, false
		}
		vals = append(vals, line)
		body = after
	}
	return vals, true
}

// URL returns the URL the view was made from.
func (v *Gopher) URL() urlkit.URL { return v.u }

// GopherPlan is what a gopher client sends and how it reads the reply
// (RFC 1738 3.4.2, 3.4.3; RFC 1436): the address, the request (whose
// fields are the plan's own, so p.Selector is the selector), and how the
// reply is read.
type GopherPlan struct {
	Addr string
	// Type is the gopher type: how the reply is read, never sent.
	Type byte
	GopherRequest
	// Reply says how the reply is read, from the type: "menu", "text",
	// "binary", "cso", "error", or "session" (a telnet or tn3270 item:
	// nothing to fetch). With a Gopher+ string the reply starts with a
	// Gopher+ length line.
	Reply string
}

// GopherRequest is the one message of a gopher plan, the request line
// (RFC 1436 2; RFC 1738 3.4.2-3.4.9): the selector, then for a search a
// TAB and the search words, then for a Gopher+ item a TAB and the Gopher+
// string, then CRLF. Every field is decoded, as sent.
type GopherRequest struct {
	Selector   string
	Search     string
	PlusString string
	HasSearch  bool
	HasPlus    bool
	// Form is set when the Gopher+ string is a filled-in form (RFC 1738
	// 3.4.9), which ends with its own CRLF: Line adds none.
	Form bool
}

// Line returns the request exactly as sent, CRLF included.
func (r GopherRequest) Line() string {
	n := len(r.Selector) + 2
	if r.HasSearch {
		n += 1 + len(r.Search)
	}
	if r.HasPlus {
		n += 1 + len(r.PlusString)
	}
	b := make([]byte, 0, n)
	b = append(b, r.Selector...)
	if r.HasSearch {
		b = append(append(b, '\t'), r.Search...)
	}
	if r.HasPlus {
		b = append(append(b, '\t'), r.PlusString...)
	}
	if !(r.HasPlus && r.Form) {
		b = append(b, "\r\n"...)
	}
	return string(b)
}

// Op returns "request".
func (GopherRequest) Op() string { return "request" }

// Text returns "send: " and the line, TAB, CR and LF shown as \t, \r, \n.
func (r GopherRequest) Text() string { return "send: " + visible(r.Line()) }

// GopherRead is the last step of a gopher plan: how the reply is read.
type GopherRead struct {
	Type byte   // the gopher type
	As   string // GopherPlan.Reply
	Plus bool   // a Gopher+ header line comes first
}

// Op returns "read".
func (GopherRead) Op() string { return "read" }

// Text says how the reply is read.
func (r GopherRead) Text() string {
	if r.As == GopherAttributes {
		return "read the reply as the item's Gopher+ attribute block (+INFO, +ADMIN, +VIEWS...), after a Gopher+ header line (+<length>, -1 or -2)"
	}
	s := "read the reply as " + r.As + " (gopher type " + string(rune(r.Type)) + ")"
	if r.Plus {
		s += ", after a Gopher+ header line (+<length>, -1 or -2)"
	}
	return s
}

// Scheme returns "gopher".
func (p *GopherPlan) Scheme() string { return "gopher" }

// Steps returns the connection, the request and how the reply is read.
func (p *GopherPlan) Steps() []Step {
	return []Step{Connect{Addr: p.Addr}, p.GopherRequest, GopherRead{Type: p.Type, As: p.Reply, Plus: p.HasPlus}}
}

// visible shows TAB, CR and LF as \t, \r, \n.
func visible(s string) string {
	return strings.NewReplacer("\t", `\t`, "\r", `\r`, "\n", `\n`).Replace(s)
}

// GopherAttributes is the Reply of a plan that asks for an item's
// Gopher+ attributes (Config.Head): a block of "+NAME:" lines after a
// Gopher+ header line; a server that answers without that line does not
// speak Gopher+.
const GopherAttributes = "attributes"

// GopherReply returns how the reply to an item of gopher type t is read
// (RFC 1436 3.8 item types, plus the common "g", "I" and "h").
func GopherReply(t byte) string {
	switch t {
	case '1', '7':
		return "menu"
	case '0', '4', '6', 'h':
		return "text"
	case '2':
		return "cso"
	case '3':
		return "error"
	case '8', 'T':
		return "session"
	default: // '5', '9', 'g', 'I', 's' and unknown types
		return "binary"
	}
}

// Plan returns the request line. The selector and search are decoded and
// may not contain control characters: an encoded TAB, CR or LF there would
// change the request (RFC 1738 3.4.1, 6). The Gopher+ string may carry CR
// LF only as the structure of a filled-in form (RFC 1738 3.4.9).
func (v *Gopher) Plan(cfg Config) (Plan, error) {
	if rp, ok := v.u.RawPort(); ok && len(rp) > 4 { // four digits are below 65536
		if err := planPort(v.u); err != nil {
			return nil, err
		}
	}
	// Every escape of the parts sent is one of the URL's: a URL with no
	// escape that decodes to a control character needs no closer look.
	// The selector and the search hold no %09 (it separates them), so
	// without a Gopher+ string that escape is no reason to look either.
	if v.escapes {
		ok := byte('\t')
		if v.HasPlus {
			ok = 0x80
		}
		if i, _ := firstControlBut(v.u.String(), ok); i >= 0 {
			if err := v.noControl(); err != nil {
				return nil, err
			}
		}
	}
	p := v.spare.take() // zero: set field by field, without a composite literal's copy
	p.Type, p.Reply = v.Type, GopherReply(v.Type)
	p.Selector, p.HasSearch, p.HasPlus = v.Selector, v.HasSearch, v.HasPlus
	if v.HasSearch {
		p.Search = v.Search
	}
	if v.HasPlus {
		p.PlusString, p.Form = v.PlusString, v.Plus.Kind == PlusForm
	}
	if cfg.Head {
		// The Gopher+ item attribute request (RFC 1738 3.4.6): the
		// selector, TAB, "!"; no search words.
		p.HasSearch, p.Search = false, ""
		p.HasPlus, p.PlusString, p.Form = true, "!", false
		p.Reply = GopherAttributes
	}
	// The request is the view's strings; only the address is written,
	// unless the URL or the view's decoded text holds it already.
	var text [64]byte // on the stack; a long host moves it to the heap
	b := appendHostPort(text[:0], v.Host, v.Port)
	if len(v.wire) >= len(b) && v.wire[:len(b)] == string(b) {
		p.Addr = v.wire[:len(b)]
	} else {
		p.Addr = addrOf(v.u, v.Host, v.Port)
	}
	return p, nil
}

// noControl checks the selector, the search and the Gopher+ string for
// escapes that decode to control characters.
func (v *Gopher) noControl() error {
	l := locOf(v.u)
	_, fields, _ := gopherParts(v.u)
	if err := fields[0].noControl(l, "gopher selector"); err != nil {
		return err
	}
	if v.HasSearch {
		if err := fields[1].noControl(l, "gopher search"); err != nil {
			return err
		}
	}
	if v.HasPlus {
		if v.Plus.Kind == PlusForm {
			for _, val := range v.Plus.Values {
				if i := strings.IndexFunc(val, func(r rune) bool { return r < 0x20 || r == 0x7f }); i >= 0 {
					return plusControlErr(l, fields[2])
				}
			}
		} else if i, _ := firstControl(fields[2].raw); i >= 0 {
			return plusControlErr(l, fields[2])
		}
	}
	return nil
}

// plusControlErr reports the first control escape of the Gopher+ string
// plus that is not part of a form's structure.
func plusControlErr(l loc, plus part) error {
	raw := plus.raw
	// Skip the escapes the form structure allows: the TAB after the
	// leading "+" and every CR LF pair.
	for i := 0; i+2 < len(raw); i++ {
		if raw[i] != '%' {
			continue
		}
		b := part{raw[i : i+3], 0, 0}.decode()[0]
		if isControl(b) {
			pair := (b == '\r' && i+5 < len(raw)+0 && strings.EqualFold(raw[i+3:min(i+6, len(raw))], "%0A")) ||
				(b == '\n' && i >= 3 && strings.EqualFold(raw[i-3:i], "%0D"))
			if !pair && !(b == '\t' && i == 1) {
				return l.err(plus.off+i, plus.comp, ErrControl,
					"%%%02X decodes to control character 0x%02X in the Gopher+ string outside a form's line structure (RFC 1738 3.4.9, 6)", b, b)
			}
		}
		i += 2
	}
	i, b := firstControl(raw)
	return l.err(plus.off+max(i, 0), plus.comp, ErrControl,
		"%%%02X decodes to control character 0x%02X in the Gopher+ string, which is not a well-formed form (RFC 1738 3.4.9, 6)", b, b)
}

// wireParts lists the selector and search; the Gopher+ string, which may
// hold CR LF as a form's structure, is checked by Plan.
func (v *Gopher) wireParts() []wirePart {
	_, fields, _ := gopherParts(v.u)
	out := []wirePart{{fields[0], "gopher selector"}}
	if v.HasSearch {
		out = append(out, wirePart{fields[1], "gopher search"})
	}
	return out
}

// ErrBadMenuItem: a gopher menu item whose fields cannot form a valid
// gopher URL (an empty or malformed host, a port that is not 1 to 65535, a
// control character in the selector).
var ErrBadMenuItem = errors.New("gopher menu item cannot form a valid gopher URL")

// GopherItemURL returns the gopher URL of a menu item (RFC 1436 3.8: type,
// selector, host, port; RFC 1738 3.4): gopher://host:port/<type><selector>,
// the type and selector escaped where RFC 1738 forbids the octet bare. A
// host that is an IPv6 address ("::1", from a server on IPv6) is written
// in brackets, RFC 3986 3.2.2's IP-literal, and that URL is of the
// extended syntax (urlkit.ParseExtended). An item that cannot form a valid
// gopher URL is an error wrapping [ErrBadMenuItem] that says which field is
// wrong, never an invalid URL. [GopherItemURLs] forms the URLs of a whole
// menu the same way without allocating.
func GopherItemURL(typ byte, selector, host, port string) (string, error) {
	var c GopherItemURLs
	b, err := c.Append(nil, typ, selector, host, port)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// GopherItemURLs forms the URLs of one menu's items, as GopherItemURL
// does, appended to a buffer. The server part, "gopher://host:port/", is
// checked by parsing it strictly (by the extended syntax for an IPv6
// host) with the gopher grammar; the rest of the URL is the type and the
// selector escaped with the path's escape set, valid by construction once
// the selector holds no control character. The zero value is ready to
// use; it remembers the last server it found valid, so a menu whose items
// name one server (the usual case) has that server parsed once, not once
// an item. It is not safe for concurrent use.
type GopherItemURLs struct {
	host, port string // the last server found valid
	server     string // its part of a URL: "gopher://host:port/", an IPv6 host in brackets
}

// Append appends the URL of the item (typ, selector, host, port) to dst,
// or returns dst unchanged and the error GopherItemURL returns.
func (c *GopherItemURLs) Append(dst []byte, typ byte, selector, host, port string) ([]byte, error) {
	if host == "" || host != c.host || port != c.port {
		if err := c.remember(host, port); err != nil {
			return dst, err
		}
	}
	return appendItem(c, dst, typ, selector)
}

// AppendBytes is Append for an item whose fields are bytes (the views of
// access.MenuReader.NextLine): nothing of them is kept, and nothing is
// allocated while the server stays the same.
func (c *GopherItemURLs) AppendBytes(dst []byte, typ byte, selector, host, port []byte) ([]byte, error) {
	if len(host) == 0 || string(host) != c.host || string(port) != c.port {
		if err := c.remember(string(host), string(port)); err != nil {
			return dst, err
		}
	}
	return appendItem(c, dst, typ, selector)
}

// Server returns the part of the URL of every item of the server (host,
// port) before the item's type: "gopher://host:port/", an IPv6 host in
// brackets; or the error Append returns for any of its items. An item
// whose type and selector hold only bytes the path keeps bare
// (chars.EscPath) has this part, its type and its selector, as they are,
// as its URL: a caller that checked them writes the URL without Append.
func (c *GopherItemURLs) Server(host, port []byte) (string, error) {
	if len(host) == 0 || string(host) != c.host || string(port) != c.port {
		if err := c.remember(string(host), string(port)); err != nil {
			return "", err
		}
	}
	return c.server, nil
}

// remember checks the server (host, port) and, if it is valid, makes it
// the one c holds.
func (c *GopherItemURLs) remember(host, port string) error {
	bracket, err := checkGopherServer(host, port)
	if err != nil {
		return err
	}
	shown := host
	if bracket {
		shown = "[" + host + "]"
	}
	c.host, c.port, c.server = host, port, "gopher://"+shown+":"+port+"/"
	return nil
}

// appendItem appends the URL of an item of the server c holds (the host
// and port checked), as Append does.
func appendItem[T ~string | ~[]byte](c *GopherItemURLs, dst []byte, typ byte, selector T) ([]byte, error) {
	bad := func(format string, args ...any) ([]byte, error) {
		return dst, fmt.Errorf("%w: "+format, append([]any{ErrBadMenuItem}, args...)...)
	}
	if isControl(typ) || typ >= 0x80 {
		return bad("item type 0x%02X is not a printable character", typ)
	}
	orig := len(dst)
	dst = append(dst, c.server...)
	// Escaped byte by byte: the type and the selector apart, without
	// joining them first.
	if chars.EscPath.Keeps(typ) {
		dst = append(dst, typ)
	} else {
		dst = append(dst, '%', chars.UpperHex[typ>>4], chars.UpperHex[typ&15])
	}
	n := len(dst)
	dst = chars.AppendEscape(dst, selector, chars.EscPath)
	if len(dst)-n != len(selector) {
		// Some byte was encoded: it may be a control character, which
		// the path's escape set never keeps (a selector without encoded
		// bytes has none).
		for i := 0; i < len(selector); i++ {
			if isControl(selector[i]) {
				dst = dst[:orig]
				return bad("selector holds control character 0x%02X at byte %d", selector[i], i)
			}
		}
	}
	return dst, nil
}

// checkGopherServer checks the host and port of a menu item: the port a
// number from 1 to 65535, "gopher://host:port/" a valid gopher URL whose
// host is host. It reports whether the host is an IPv6 address, written
// in brackets.
func checkGopherServer(host, port string) (bracket bool, err error) {
	bad := func(format string, args ...any) (bool, error) {
		return false, fmt.Errorf("%w: "+format, append([]any{ErrBadMenuItem}, args...)...)
	}
	if host == "" {
		return bad("empty host")
	}
	if port == "" {
		return bad("empty port for host %q", host)
	}
	n := 0
	for i := 0; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' || n > 65535 {
			return bad("port %q is not a number from 1 to 65535", port)
		}
		n = n*10 + int(port[i]-'0')
	}
	if n < 1 || n > 65535 {
		return bad("port %q is not a number from 1 to 65535", port)
	}
	// An IPv6 address (a menu of a server on IPv6 names one) is written
	// as RFC 3986 3.2.2's IP-literal, in brackets, and the URL is read by
	// the extended syntax (urlkit.ParseExtended); every other host by
	// RFC 1738's.
	parse, shown := urlkit.Parse, host
	if strings.IndexByte(host, ':') >= 0 { // only an IPv6 address has one; others skip ParseAddr's error
		if a, err := netip.ParseAddr(host); err == nil && a.Is6() && a.Zone() == "" {
			shown, parse, bracket = "["+host+"]", urlkit.ParseExtended, true
		}
	}
	u, err := parse("gopher://" + shown + ":" + port + "/")
	if err != nil {
		return bad("host %q: %v", shown, err)
	}
	if u.Host() != shown {
		return bad("host %q is not a host name or address", shown)
	}
	// The gopher grammar beyond the generic one (checkGopher, Validate's);
	// what a plan adds, the control characters and the port's range, is
	// checked here and by Append. Menus list thousands of items: building
	// a view or a plan for each would cost more than reading the menu.
	if err := checkGopher(u); err != nil {
		return bad("%v", err)
	}
	return bracket, nil
}

// ---- JSON -----------------------------------------------------------------

// writeJSON writes the members of the view's JSON object (the package
// documentation's "JSON keys").
func (v *Gopher) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("host", v.Host)
	w.KNum("port", v.Port)
	w.KStr("type", typeString(v.Type))
	w.KStr("selector", v.Selector)
	w.KOpt("search", v.Search, v.HasSearch)
	w.KOpt("plus", v.PlusString, v.HasPlus)
	if p := v.Plus; p != nil {
		w.Key("plus_parsed")
		w.Open()
		w.KStr("kind", p.Kind)
		w.KNonEmpty("view", p.View)
		w.KNonEmpty("language", p.Language)
		if len(p.Attributes) > 0 {
			w.KStrs("attributes", p.Attributes)
		}
		if len(p.Values) > 0 {
			w.KStrs("values", p.Values)
		}
		w.Close()
	}
	return w
}

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *Gopher) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// writeJSON writes the plan's own members of its JSON object, before
// "steps".
func (p *GopherPlan) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("addr", p.Addr)
	w.KStr("type", typeString(p.Type))
	w.KStr("selector", p.Selector)
	w.KOpt("search", p.Search, p.HasSearch)
	w.KOpt("plus", p.PlusString, p.HasPlus)
	w.KStr("reply", p.Reply)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *GopherPlan) MarshalJSON() ([]byte, error) { return planJSON(p) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s GopherRequest) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("selector", s.Selector)
	w.KOpt("search", s.Search, s.HasSearch)
	w.KOpt("plus", s.PlusString, s.HasPlus)
	if s.Form {
		w.KBool("form", true)
	}
	w.KStr("line", s.Line())
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s GopherRequest) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s GopherRead) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("type", typeString(s.Type))
	w.KStr("as", s.As)
	if s.Plus {
		w.KBool("plus_header", true)
	}
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s GopherRead) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// fileName is the last "/"-segment of the selector.
func (v *Gopher) fileName() (string, error) {
	return v.Selector[strings.LastIndexByte(v.Selector, '/')+1:], nil
}

// asksHead marks the plan as one Config.Head turns into the Gopher+
// attribute request (headPlan).
func (p *GopherPlan) asksHead() {}
