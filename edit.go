package urlkit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/schemes"
)

// ErrConflict is wrapped by the error of an edit whose result would not
// read back as asked: a partial URL whose new path starts with "name:"
// (it would become a scheme), a scheme changed to one whose syntax reads
// the rest differently. Nothing is guessed: the edit is refused.
var ErrConflict = errors.New("edit would change how the URL is read")

// Parts holds the components of a URL as encoded text, each exactly as the
// URL's accessor of that component returns it. [URL.Parts] takes a URL
// apart and [Build] puts one together; Build(u.Parts()) gives u back byte
// for byte.
//
// A component is present when its text is not empty or its Has flag is
// set, so the zero Parts is the empty partial URL and a program building a
// URL sets only the texts it wants. The flags matter only for components
// that are present and empty, such as the user of ftp://@host.com/ (RFC
// 1738 3.1) or the search part of http://host.com/? .
type Parts struct {
	Scheme string // "" for a partial URL
	// Authority says the URL has "//" and a login even when User, Host
	// and Port are empty, as file:///etc/motd has (RFC 1738 3.10).
	Authority   bool
	User        string
	HasUser     bool
	Password    string
	HasPassword bool
	Host        string
	Port        string // decimal digits; a present port is never empty
	// Path is the url-path. For a URL with "//" it is what follows the
	// "/" after the host and port, that "/" not included (RFC 1738 3.1),
	// and HasPath says whether the "/" is there. For other URLs it is the
	// scheme-specific part up to any "?", and is always present.
	Path        string
	HasPath     bool
	Search      string
	HasSearch   bool
	Fragment    string
	HasFragment bool
	// Extended builds by the extended syntax of [ParseExtended]: the
	// host may be an IPv6 literal ("[::1]"), and the URL built reports
	// [URL.Extended]. [URL.Parts] sets it for a URL of that syntax.
	Extended bool
}

// Parts returns the components of u as encoded text.
func (u URL) Parts() Parts {
	p := Parts{Scheme: u.RawScheme(), Authority: u.HasAuthority(), Host: u.Host(), Extended: u.Extended()}
	p.User, p.HasUser = u.User()
	p.Password, p.HasPassword = u.Password()
	p.Port, _ = u.RawPort()
	p.Path, p.HasPath = u.Path()
	p.Search, p.HasSearch = u.Search()
	p.Fragment, p.HasFragment = u.Fragment()
	return p
}

// Build returns the URL made of the parts p, each encoded text as the
// URL's accessors return it. Each part is checked alone first, against
// RFC 1738 section 5's rule for that component, and an error is a
// *[SyntaxError] whose Input is that part's text and whose Offset is in it;
// then the whole is checked as [ParseRef] checks it (an http URL needs a
// host) and must read back into exactly the parts given, or the error
// wraps [ErrConflict].
//
// Build takes encoded text: a "%" must start an escape, and a character
// that a component does not allow, such as a space or a "/" in a user
// name, is an error rather than silently encoded. To put arbitrary data in
// a component, encode it first with [Escape] (or use [URL.SetUnescaped]).
func Build(p Parts) (URL, error) { return build(p, ComponentNone) }

// Set returns u with component c replaced by text, which is encoded text
// as the accessor of c returns it (see [Parts] for what the path is). The
// component becomes present, even when text is empty: Set(ComponentSearch,
// "") gives a URL ending in "?". Setting a password on a URL with no user
// name gives it an empty one, as "//:secret@host" is read. The other
// components are kept byte for byte.
//
// c is one of ComponentScheme, ComponentUser, ComponentPassword,
// ComponentHost, ComponentPort, ComponentPath, ComponentSearch,
// ComponentFragment and ComponentOpaque (the scheme-specific part of a URL
// without "//", search part included). Errors are as [Build]'s, with the
// Input of a *[SyntaxError] being text.
func (u URL) Set(c Component, text string) (URL, error) {
	if c == ComponentOpaque {
		return u.setOpaque(text)
	}
	p := u.Parts()
	switch c {
	case ComponentScheme:
		p.Scheme = text
		if text == "" {
			return URL{}, &SyntaxError{Input: text, Component: c, Err: ErrBadScheme, Detail: "empty scheme name: use Clear(ComponentScheme) for a partial URL (RFC 1738 5: scheme = 1*[ lowalpha | digit | \"+\" | \"-\" | \".\" ])"}
		}
	case ComponentUser:
		p.User, p.HasUser = text, true
	case ComponentPassword:
		p.Password, p.HasPassword, p.HasUser = text, true, true
	case ComponentHost:
		if !p.Authority {
			// The path becomes the url-path after the host: it must
			// start with the "/" that separates them (RFC 1738 3.1).
			switch {
			case p.Path == "":
				p.HasPath = false
			case p.Path[0] == '/':
				p.Path, p.HasPath = p.Path[1:], true
			default:
				return URL{}, &SyntaxError{Input: text, Component: c, Err: ErrConflict,
					Detail: fmt.Sprintf(`the path %q would follow the host: it must start with "/" (RFC 1738 3.1)`, p.Path)}
			}
		}
		p.Host, p.Authority = text, true
	case ComponentPort:
		p.Port = text
		if text == "" {
			return URL{}, &SyntaxError{Input: text, Component: c, Err: ErrEmptyPort, Detail: `empty port: when the port is omitted, the ":" is too (RFC 1738 3.1); use Clear(ComponentPort)`}
		}
	case ComponentPath:
		p.Path, p.HasPath = text, true
	case ComponentSearch:
		p.Search, p.HasSearch = text, true
	case ComponentFragment:
		p.Fragment, p.HasFragment = text, true
	default:
		return URL{}, fmt.Errorf("urlkit: Set: %s is not a component that can be set", c)
	}
	return build(p, c)
}

// SetUnescaped is like [URL.Set] but takes text that is data: it is
// encoded first with [Escape] for component c, so every character the
// component does not allow becomes an escape. A path's "/" and ";" and a
// search part's "=", "&" and "+" are kept as written, meaning what they
// mean there; to put one path segment or one search word of arbitrary data,
// use [URL.JoinPath] or [URL.AddSearch]. The scheme, host and port have no
// escapes, so for them SetUnescaped is Set.
func (u URL) SetUnescaped(c Component, text string) (URL, error) {
	switch c {
	case ComponentScheme, ComponentHost, ComponentPort:
	default:
		text = Escape(text, c)
	}
	return u.Set(c, text)
}

// Clear returns u with component c removed (absent, not empty). Clearing
// the user clears the password too; clearing the host removes the whole
// "//" login (user, password, host and port), which only a partial URL or
// a scheme with the generic syntax can do without; clearing the scheme
// makes a partial URL; clearing the path of a URL without "//" leaves it
// empty, since such a path is always present. The other components are
// kept byte for byte.
func (u URL) Clear(c Component) (URL, error) {
	p := u.Parts()
	switch c {
	case ComponentScheme:
		p.Scheme = ""
	case ComponentUser:
		p.User, p.HasUser, p.Password, p.HasPassword = "", false, "", false
	case ComponentPassword:
		p.Password, p.HasPassword = "", false
	case ComponentHost:
		if p.Authority && p.HasPath {
			p.Path = "/" + p.Path // the "/" after the host stays, now part of the path
		}
		p.Authority, p.User, p.HasUser, p.Password, p.HasPassword, p.Host, p.Port = false, "", false, "", false, "", ""
	case ComponentPort:
		p.Port = ""
	case ComponentPath:
		p.Path, p.HasPath = "", false
	case ComponentSearch:
		p.Search, p.HasSearch = "", false
	case ComponentFragment:
		p.Fragment, p.HasFragment = "", false
	default:
		return URL{}, fmt.Errorf("urlkit: Clear: %s is not a component that can be cleared", c)
	}
	return build(p, c)
}

// SetScheme is Set(ComponentScheme, name).
func (u URL) SetScheme(name string) (URL, error) { return u.Set(ComponentScheme, name) }

// SetUser is Set(ComponentUser, user): user is encoded text.
func (u URL) SetUser(user string) (URL, error) { return u.Set(ComponentUser, user) }

// SetPassword is Set(ComponentPassword, password): password is encoded
// text.
func (u URL) SetPassword(password string) (URL, error) { return u.Set(ComponentPassword, password) }

// SetHost is Set(ComponentHost, host): a host name or host number (RFC
// 1738 3.1), which has no escapes.
func (u URL) SetHost(host string) (URL, error) { return u.Set(ComponentHost, host) }

// SetPort is Set(ComponentPort, port): decimal digits.
func (u URL) SetPort(port string) (URL, error) { return u.Set(ComponentPort, port) }

// SetPath is Set(ComponentPath, path): path is encoded text, without the
// "/" that follows the host of a URL with "//".
func (u URL) SetPath(path string) (URL, error) { return u.Set(ComponentPath, path) }

// SetSearch is Set(ComponentSearch, search): search is encoded text,
// without the "?".
func (u URL) SetSearch(search string) (URL, error) { return u.Set(ComponentSearch, search) }

// SetFragment is Set(ComponentFragment, fragment): fragment is encoded
// text, without the "#".
func (u URL) SetFragment(fragment string) (URL, error) { return u.Set(ComponentFragment, fragment) }

// JoinPath returns u with the given path segments appended to its path.
// Each segment is data, not encoded text: it is encoded with
// [EscapeSegment], so a "/", ";" or "?" in it stays part of the segment;
// a segment "." or ".." is written "%2E" or "%2E%2E", so that it names a
// file rather than moving up (RFC 1630 gives "." and ".." their special
// meaning only unencoded). When the path ends with "/" (its last segment
// is empty), the first segment takes that empty segment's place; an empty
// segment adds an empty segment.
//
// This differs from net/url's JoinPath, which takes "a/b" as two segments
// and resolves "..": in urlkit one argument is one segment.
func (u URL) JoinPath(segments ...string) (URL, error) {
	if len(segments) == 0 {
		return u, nil
	}
	path, _ := u.Path()
	var b strings.Builder
	b.WriteString(path)
	join := path != "" && !strings.HasSuffix(path, "/")
	if u.HasAuthority() && !u.hasPathSlash() {
		join = false // "//host" + "a" is "//host/a": Set writes the "/"
	}
	for _, seg := range segments {
		if join {
			b.WriteByte('/')
		}
		join = true
		switch seg {
		case ".":
			b.WriteString("%2E")
		case "..":
			b.WriteString("%2E%2E")
		default:
			b.WriteString(EscapeSegment(seg))
		}
	}
	return u.Set(ComponentPath, b.String())
}

func (u URL) hasPathSlash() bool { return u.flags&hasPath != 0 }

// setOpaque replaces the scheme-specific part of a URL.
func (u URL) setOpaque(text string) (URL, error) {
	if i := scanOpaque(text); i < len(text) {
		return URL{}, charError(text, i, ComponentOpaque)
	}
	var b strings.Builder
	if u.flags&hasScheme != 0 {
		b.WriteString(u.RawScheme())
		b.WriteByte(':')
	}
	b.WriteString(text)
	if f, ok := u.Fragment(); ok {
		b.WriteByte('#')
		b.WriteString(f)
	}
	v, err := parseRefAs(b.String(), u.flags)
	if err != nil {
		return URL{}, partError(err, text, len(b.String())-len(text)-fragLen(u), ComponentOpaque)
	}
	if v.Opaque() != text || v.RawScheme() != u.RawScheme() {
		return URL{}, &SyntaxError{Input: text, Component: ComponentOpaque, Err: ErrConflict,
			Detail: fmt.Sprintf("%q would not be read back as this scheme-specific part", v.String())}
	}
	return v, nil
}

func fragLen(u URL) int {
	if f, ok := u.Fragment(); ok {
		return len(f) + 1
	}
	return 0
}

// scanOpaque returns the index of the first byte of s that may not appear
// in a scheme-specific part (xchar or escape; the first "?" starts the
// search part, after which "?" is still an xchar), or len(s).
func scanOpaque(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if okX[c] {
			continue
		}
		if c == '%' && chars.IsEscape(s, i) {
			i += 2
			continue
		}
		return i
	}
	return len(s)
}

// build checks each part of p alone, assembles the URL and checks that it
// reads back into p. edited is the component being set, or ComponentNone.
func build(p Parts, edited Component) (URL, error) {
	if p.Password != "" {
		p.HasPassword = true
	}
	if p.HasPassword || p.User != "" {
		p.HasUser = true
	}
	if p.HasUser || p.Host != "" || p.Port != "" {
		p.Authority = true
	}
	if p.Path != "" || !p.Authority {
		p.HasPath = true
	}
	if p.Search != "" {
		p.HasSearch = true
	}
	if p.Fragment != "" {
		p.HasFragment = true
	}
	if err := checkParts(p); err != nil {
		var se *SyntaxError
		if edited != ComponentNone && errors.As(err, &se) && se.Component != edited &&
			(errors.Is(err, ErrConflict) || errors.Is(err, ErrMissingSlashes)) {
			return URL{}, &SyntaxError{Input: partText(p, edited), Component: edited, Err: se.Err, Detail: se.Detail}
		}
		return URL{}, err
	}

	var b strings.Builder
	var at [ComponentFragment + 1]int // where each part starts in b
	n := len(p.Scheme) + len(p.User) + len(p.Password) + len(p.Host) + len(p.Port) + len(p.Path) + len(p.Search) + len(p.Fragment) + 8
	b.Grow(n)
	if p.Scheme != "" {
		b.WriteString(p.Scheme)
		b.WriteByte(':')
	}
	if p.Authority {
		b.WriteString("//")
		if p.HasUser {
			at[ComponentUser] = b.Len()
			b.WriteString(p.User)
			if p.HasPassword {
				b.WriteByte(':')
				at[ComponentPassword] = b.Len()
				b.WriteString(p.Password)
			}
			b.WriteByte('@')
		}
		at[ComponentHost] = b.Len()
		b.WriteString(p.Host)
		if p.Port != "" {
			b.WriteByte(':')
			at[ComponentPort] = b.Len()
			b.WriteString(p.Port)
		}
		if p.HasPath {
			b.WriteByte('/')
		}
	}
	at[ComponentPath] = b.Len()
	b.WriteString(p.Path)
	if p.HasSearch {
		b.WriteByte('?')
		at[ComponentSearch] = b.Len()
		b.WriteString(p.Search)
	}
	if p.HasFragment {
		b.WriteByte('#')
		at[ComponentFragment] = b.Len()
		b.WriteString(p.Fragment)
	}
	s := b.String()
	ext := uint16(0)
	if p.Extended {
		ext = extSyntax
	}
	v, err := parseRefAs(s, ext)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) && se.Component >= ComponentUser && se.Component <= ComponentFragment {
			text := partText(p, se.Component)
			return URL{}, partError(err, text, at[se.Component], se.Component)
		}
		if edited == ComponentNone {
			return URL{}, err
		}
		return URL{}, partError(err, partText(p, edited), -1, edited)
	}
	if q := v.Parts(); q != p {
		c := firstDifference(p, q)
		if (c == ComponentScheme && p.Scheme == "") || (c == ComponentHost && !p.Authority) {
			c = ComponentPath // the path was read as a scheme or a login
		}
		if edited != ComponentNone {
			c = edited
		}
		return URL{}, &SyntaxError{Input: partText(p, c), Component: c, Err: ErrConflict,
			Detail: fmt.Sprintf("the result %q would not read back as written: %s", s, describeDifference(p, q))}
	}
	return v, nil
}

// partError rewrites a parse error of an assembled URL as an error about
// one part, text, which starts at offset start of the URL (or -1 when the
// error is not inside it: then the offset is 0).
func partError(err error, text string, start int, c Component) error {
	var se *SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	off := 0
	if start >= 0 {
		off = se.Offset - start
		if off < 0 || off > len(text) {
			off = 0
		}
	}
	detail := se.Reason()
	if start < 0 {
		detail = fmt.Sprintf("the result %q is not a URL: %s", se.Input, se.Error())
	}
	return &SyntaxError{Input: text, Offset: off, Component: c, Err: se.Err, Detail: detail}
}

// partText returns the text of component c in p.
func partText(p Parts, c Component) string {
	switch c {
	case ComponentScheme:
		return p.Scheme
	case ComponentUser:
		return p.User
	case ComponentPassword:
		return p.Password
	case ComponentHost:
		return p.Host
	case ComponentPort:
		return p.Port
	case ComponentPath:
		return p.Path
	case ComponentSearch:
		return p.Search
	case ComponentFragment:
		return p.Fragment
	}
	return ""
}

// checkParts checks each part of p alone against its rule in RFC 1738
// section 5, giving offsets inside the part.
func checkParts(p Parts) error {
	for i := 0; i < len(p.Scheme); i++ {
		if chars.Table[p.Scheme[i]]&chars.SchemeChar == 0 {
			return &SyntaxError{Input: p.Scheme, Offset: i, Component: ComponentScheme, Err: ErrBadScheme,
				Detail: fmt.Sprintf(`%q is not allowed in a scheme name (RFC 1738 5: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ])`, p.Scheme[i:i+1])}
		}
	}
	if j := scanLogin(p.User, 0, len(p.User)); j < len(p.User) {
		return charError(p.User, j, ComponentUser)
	}
	if j := scanLogin(p.Password, 0, len(p.Password)); j < len(p.Password) {
		return charError(p.Password, j, ComponentPassword)
	}
	if p.Host != "" {
		if p.Host[0] == '[' {
			if !p.Extended {
				return &SyntaxError{Input: p.Host, Offset: 0, Component: ComponentHost, Err: ErrBadHost, why: whyHostChar}
			}
			end, f := ipLiteral(p.Host, 0, len(p.Host))
			if f.code == fOK && end < len(p.Host) {
				f = failure{off: int32(end), comp: ComponentHost, code: fHost, why: whyLiteralAfter}
			}
			if f.code != fOK {
				return f.err(p.Host)
			}
			return checkRest(p)
		}
		if off, w, k := checkHost(p.Host, 0, len(p.Host)); off >= 0 {
			return &SyntaxError{Input: p.Host, Offset: off, Component: ComponentHost, Err: ErrBadHost, why: w, n: int32(k)}
		}
	}
	return checkRest(p)
}

// checkRest is checkParts after the scheme, login and host.
func checkRest(p Parts) error {
	for j := 0; j < len(p.Port); j++ {
		if chars.Table[p.Port[j]]&chars.Digit == 0 {
			return &SyntaxError{Input: p.Port, Offset: j, Component: ComponentPort, Err: ErrBadPort, why: whyBadPort}
		}
	}
	if j := skip(p.Path, 0, cPath); j < len(p.Path) {
		return charError(p.Path, j, ComponentPath)
	}
	if j := skip(p.Search, 0, cX); j < len(p.Search) {
		return charError(p.Search, j, ComponentSearch)
	}
	if j := skip(p.Fragment, 0, cX); j < len(p.Fragment) {
		return charError(p.Fragment, j, ComponentFragment)
	}
	if p.Scheme != "" && !p.Authority {
		switch schemes.SyntaxOf(p.Scheme) {
		case schemes.IP, schemes.IPOptionalHost:
			return &SyntaxError{Input: p.Path, Component: ComponentPath, Err: ErrMissingSlashes,
				Detail: fmt.Sprintf(`%s URLs use the common Internet scheme syntax %s://<host>/<url-path> (RFC 1738 3.1)`, lowerScheme(p.Scheme), lowerScheme(p.Scheme))}
		}
	}
	if p.Authority && !p.HasPath && p.HasSearch && p.Scheme != "" {
		return &SyntaxError{Input: p.Search, Component: ComponentSearch, Err: ErrConflict,
			Detail: `a search part after a host needs the "/" of a url-path before its "?" (RFC 1738 3.1)`}
	}
	if p.Authority && p.Scheme != "" && schemes.SyntaxOf(p.Scheme) == schemes.Opaque {
		return &SyntaxError{Input: p.Host, Component: ComponentHost, Err: ErrConflict,
			Detail: fmt.Sprintf(`a %s URL has no "//" and no host (RFC 1738 5)`, lowerScheme(p.Scheme))}
	}
	return nil
}

// firstDifference returns the first component whose text or presence
// differs between p and q.
func firstDifference(p, q Parts) Component {
	switch {
	case p.Scheme != q.Scheme:
		return ComponentScheme
	case p.User != q.User || p.HasUser != q.HasUser:
		return ComponentUser
	case p.Password != q.Password || p.HasPassword != q.HasPassword:
		return ComponentPassword
	case p.Host != q.Host || p.Authority != q.Authority:
		return ComponentHost
	case p.Port != q.Port:
		return ComponentPort
	case p.Path != q.Path || p.HasPath != q.HasPath:
		return ComponentPath
	case p.Search != q.Search || p.HasSearch != q.HasSearch:
		return ComponentSearch
	}
	return ComponentFragment
}

// describeDifference says how q, what a URL reads back as, differs from p.
func describeDifference(p, q Parts) string {
	c := firstDifference(p, q)
	if c == ComponentHost && p.Authority != q.Authority {
		if p.Authority {
			return `the "//" would not start a login`
		}
		return `the path would start a "//" login`
	}
	if c == ComponentScheme {
		if q.Scheme == "" {
			return fmt.Sprintf("the scheme %q would be lost", p.Scheme)
		}
		return fmt.Sprintf("the path would start with a scheme %q", q.Scheme)
	}
	return fmt.Sprintf("the %s would be %q, not %q", c, partText(q, c), partText(p, c))
}
