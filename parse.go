package urlkit

import (
	"fmt"
	"strings"

	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/schemes"
)

// okX marks the bytes of RFC 1738's xchar (unreserved | reserved), which may
// appear unencoded in a url-path, a search part, a fragment and the
// scheme-specific part of a URL without "//". "%" is handled separately: it
// must start an escape.
//
// okLogin marks the bytes allowed in a user or password: uchar | ";" | "?" |
// "&" | "=" (RFC 1738 section 5).
//
// okPath is okX without "?", which ends a path.
//
// loginStop marks the bytes the login scanner must look at.
var okX, okLogin, okPath, loginStop [256]bool

func init() {
	for b := 0; b < 256; b++ {
		okX[b] = chars.Table[b]&chars.Xchar != 0
		okPath[b] = okX[b] && b != '?'
		loginStop[b] = strings.IndexByte("/#?@:", byte(b)) >= 0
		okLogin[b] = chars.Table[b]&chars.Unreserved != 0 || strings.IndexByte(";?&=", byte(b)) >= 0
	}
}

// scan returns the index of the first byte of s[i:end] that is neither in
// ok nor part of a valid escape, or end if there is none.
func scan(s string, i, end int, ok *[256]bool) int {
	for i < end {
		c := s[i]
		if ok[c] {
			i++
			continue
		}
		if c == '%' && chars.IsEscape(s, i) && i+2 < end {
			i += 3
			continue
		}
		return i
	}
	return end
}

// Parse parses s as an absolute URL, strictly: it accepts exactly what the
// grammar of RFC 1738 section 5 allows (genericurl, with ip-schemepart for
// the schemes that use the common Internet scheme syntax), followed by an
// optional "#" and fragment identifier as in RFC 1630's fragmentaddress.
// The "URL:" prefix of RFC 1738's appendix is accepted and is not part of
// the result.
//
// Parse checks the syntax shared by all URLs: the scheme name, the login
// (user, password, host and port) of a URL with "//", and that every other
// character is one the grammar allows or a valid escape. What a scheme adds
// on top (the ";type=" of an ftp URL, the group of a news URL) is checked
// by the scheme package.
//
// On failure the error is a *[SyntaxError] giving the byte offset of the
// first offending byte, the component it is in and why it is wrong.
// A successful Parse does not allocate: the URL's components are
// substrings of s.
func Parse(s string) (URL, error) { return parse(s, false) }

// ParseRef parses s as a URL or as a partial URL (RFC 1630, "Partial
// (relative) form"). A string is absolute when it starts with a scheme name
// and a colon that comes before any slash; otherwise it is partial, and may
// be empty, start with "//" and a login, with "/", with "?" or with "#".
// An absolute string is parsed as [Parse] does.
func ParseRef(s string) (URL, error) { return parse(s, true) }

// MustParse is like [Parse] but panics on error. It is meant for URLs
// written into a program, such as test tables and package variables.
func MustParse(s string) URL {
	u, err := Parse(s)
	if err != nil {
		panic("urlkit: MustParse(" + fmt.Sprintf("%q", s) + "): " + err.Error())
	}
	return u
}

// hasURLPrefix reports whether s starts with the "URL:" prefix of RFC 1738's
// appendix (in any case) followed by a URL: a scheme name and ":". So that
// every URL's text parses back to itself, "URL:" is not taken as a prefix
// when what follows is not a URL or starts with "URL:" again; then "url" is
// the scheme.
func hasURLPrefix(s string) bool {
	if len(s) < 6 || s[0]|0x20 != 'u' || s[1]|0x20 != 'r' || s[2]|0x20 != 'l' || s[3] != ':' {
		return false
	}
	i := 4
	for i < len(s) && chars.Table[s[i]]&chars.SchemeChar != 0 {
		i++
	}
	return i > 4 && i < len(s) && s[i] == ':' && !(i == 7 && s[4]|0x20 == 'u' && s[5]|0x20 == 'r' && s[6]|0x20 == 'l')
}

func parse(input string, partialOK bool) (URL, error) {
	var u URL
	s := input
	if hasURLPrefix(s) {
		s = s[4:]
		u.prefix = 4
	}
	u.s = s
	n := len(s)
	base := int(u.prefix)
	fail := func(off int, c Component, err error, detail string) (URL, error) {
		return URL{}, &SyntaxError{Input: input, Offset: base + off, Component: c, Err: err, Detail: detail}
	}
	if n == 0 && (!partialOK || u.prefix != 0) {
		return fail(0, ComponentNone, ErrEmpty, "empty URL")
	}

	// The scheme: scheme chars up to ":" (RFC 1738 section 5).
	i := 0
	for i < n && chars.Table[s[i]]&chars.SchemeChar != 0 {
		i++
	}
	p := 0 // start of the scheme-specific part
	syntax := schemes.Generic
	if i < n && s[i] == ':' && i > 0 {
		u.flags |= hasScheme
		u.scheme = span{0, int32(i)}
		p = i + 1
		syntax = schemeSyntax(s[:i])
	} else if !partialOK {
		switch {
		case i < n && s[i] == ':':
			return fail(0, ComponentScheme, ErrBadScheme, `empty scheme name before ":" (RFC 1738 5: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ])`)
		case i > 0 && (i == n || s[i] == '#'):
			return fail(i, ComponentScheme, ErrMissingScheme, fmt.Sprintf(`no ":" after the scheme name %q: a URL is <scheme>:<scheme-specific-part> (RFC 1738 2.1)`, s[:i]))
		case i > 0 && s[i] != '/':
			return fail(i, ComponentScheme, ErrBadScheme, fmt.Sprintf(`%q is not allowed in a scheme name (RFC 1738 5: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ])`, s[i:i+1]))
		default:
			return fail(0, ComponentScheme, ErrMissingScheme, "a URL must start with a scheme name and \":\" (RFC 1738 2.1); this looks like a partial URL, which needs a base")
		}
	}

	// The scheme-specific part s[p:].
	partial := u.flags&hasScheme == 0
	if n-p >= 2 && s[p] == '/' && s[p+1] == '/' && syntax != schemes.Opaque {
		v := u
		err := v.parseLogin(input, base, p+2, syntax, partial)
		if err == nil {
			return v, nil
		}
		if syntax != schemes.Generic || partial {
			return URL{}, err
		}
		// An unknown scheme may use *xchar instead of ip-schemepart.
		if u.parseTail(input, base, p, ComponentOpaque) != nil {
			return URL{}, err
		}
		return u, nil
	}
	if syntax == schemes.IP || syntax == schemes.IPOptionalHost {
		return fail(p, ComponentOpaque, ErrMissingSlashes, fmt.Sprintf(`%s URLs use the common Internet scheme syntax %s://<host>/<url-path> (RFC 1738 3.1)`, u.Scheme(), u.Scheme()))
	}
	pc := ComponentOpaque
	if partial {
		pc = ComponentPath
	}
	if err := u.parseTail(input, base, p, pc); err != nil {
		return URL{}, err
	}
	return u, nil
}

func charErrorAt(input string, base, i int, c Component) *SyntaxError {
	return charError(input, base+i, c)
}

// parseTail parses s[i:] as a path of xchar up to the first "?", a search
// part up to the first "#", and a fragment. The path's errors are reported
// in component pc.
func (u *URL) parseTail(input string, base, i int, pc Component) error {
	s := u.s
	n := len(s)
	start := i
	for i < n {
		c := s[i]
		if okPath[c] {
			i++
			continue
		}
		if c == '%' && chars.IsEscape(s, i) {
			i += 3
			continue
		}
		if c == '?' || c == '#' {
			break
		}
		return charErrorAt(input, base, i, pc)
	}
	u.flags |= hasPath
	u.path = span{int32(start), int32(i)}
	if i < n && s[i] == '?' {
		i++
		start = i
		if i = scanUntilHash(s, i); i < n && s[i] != '#' {
			return charErrorAt(input, base, i, ComponentSearch)
		}
		u.flags |= hasSearch
		u.search = span{int32(start), int32(i)}
	} else {
		u.search = span{int32(i), int32(i)}
	}
	if i < n {
		// s[i] is "#".
		i++
		start = i
		if i = scanUntilHash(s, i); i < n {
			return charErrorAt(input, base, i, ComponentFragment)
		}
		u.flags |= hasFragment
		u.frag = span{int32(start), int32(n)}
	} else {
		u.frag = span{int32(n), int32(n)}
	}
	return nil
}

// scanUntilHash returns the index of the first byte of s[i:] that is
// neither xchar nor part of a valid escape (a "#" in particular), or len(s).
func scanUntilHash(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if okX[c] {
			i++
			continue
		}
		if c == '%' && chars.IsEscape(s, i) {
			i += 3
			continue
		}
		return i
	}
	return i
}

// parseLogin parses login ["/" url-path] ["#" fragment] from a, just after
// "//". In a partial URL the host may be empty and a "?" also ends the
// login, as in RFC 1808's net_loc.
func (u *URL) parseLogin(input string, base, a int, syntax schemes.Syntax, partial bool) error {
	s := u.s
	n := len(s)
	u.flags |= hasAuthority
	at, colon, portColon := -1, -1, -1
	i := a
	for ; i < n; i++ {
		c := s[i]
		if !loginStop[c] {
			continue
		}
		switch c {
		case '/', '#':
			goto done
		case '?':
			if partial {
				goto done
			}
		case '@':
			if at < 0 {
				at = i
				portColon = -1
			}
		case ':':
			if colon < 0 && at < 0 {
				colon = i
			}
			if portColon < 0 {
				portColon = i
			}
		}
	}
done:
	authEnd := i
	hostStart := a
	if at >= 0 {
		u.flags |= hasUser
		userEnd := at
		if colon >= 0 {
			userEnd = colon
			u.flags |= hasPassword
			u.pass = span{int32(colon + 1), int32(at)}
			if j := scan(s, colon+1, at, &okLogin); j < at {
				return charErrorAt(input, base, j, ComponentPassword)
			}
		} else {
			u.pass = span{int32(at), int32(at)}
		}
		u.user = span{int32(a), int32(userEnd)}
		if j := scan(s, a, userEnd, &okLogin); j < userEnd {
			return charErrorAt(input, base, j, ComponentUser)
		}
		hostStart = at + 1
	} else {
		u.user = span{int32(a), int32(a)}
		u.pass = u.user
	}
	hostEnd := authEnd
	if hostStart < authEnd && s[hostStart] == '[' {
		return &SyntaxError{Input: input, Offset: base + hostStart, Component: ComponentHost, Err: ErrBadHost, why: whyHostChar}
	}
	if portColon >= 0 {
		hostEnd = portColon
		u.flags |= hasPort
		u.port = span{int32(hostEnd + 1), int32(authEnd)}
		if hostEnd+1 == authEnd {
			return &SyntaxError{Input: input, Offset: base + hostEnd, Component: ComponentPort, Err: ErrEmptyPort, why: whyEmptyPort}
		}
		for j := hostEnd + 1; j < authEnd; j++ {
			if chars.Table[s[j]]&chars.Digit == 0 {
				if c := s[j]; c == ':' || c == '@' {
					return charErrorAt(input, base, j, ComponentPort)
				}
				return &SyntaxError{Input: input, Offset: base + j, Component: ComponentPort, Err: ErrBadPort, why: whyBadPort}
			}
		}
	} else {
		u.port = span{int32(authEnd), int32(authEnd)}
	}
	u.host = span{int32(hostStart), int32(hostEnd)}
	if hostStart == hostEnd {
		if syntax != schemes.IPOptionalHost && !partial {
			return &SyntaxError{Input: input, Offset: base + hostStart, Component: ComponentHost, Err: ErrMissingHost, why: whyMissingHost}
		}
	} else if off, w, k := checkHost(s, hostStart, hostEnd); off >= 0 {
		return &SyntaxError{Input: input, Offset: base + off, Component: ComponentHost, Err: ErrBadHost, why: w, n: k}
	}
	if authEnd < n && s[authEnd] == '/' {
		return u.parseTail(input, base, authEnd, ComponentPath)
	}
	// No url-path: what follows is a search part (partial URLs only) or a
	// fragment.
	end := int32(authEnd)
	u.path = span{end, end}
	if err := u.parseTail(input, base, authEnd, ComponentPath); err != nil {
		return err
	}
	u.flags &^= hasPath
	return nil
}

// checkHost checks s[start:end] against RFC 1738's host = hostname |
// hostnumber. It returns the offset of the first offending byte, the
// explanation and a number it quotes, or -1.
func checkHost(s string, start, end int) (int, why, int) {
	labels := 0
	var seen uint8 // the hostTab kinds seen in the whole host
	last := start
	for i := start; ; {
		ls := i
		for i < end {
			k := hostTab[s[i]]
			if k == hostDot {
				break
			}
			if k == 0 {
				return i, whyHostChar, 0
			}
			seen |= k
			i++
		}
		if i == ls {
			return ls, whyHostEmptyLabel, 0
		}
		if s[ls] == '-' {
			return ls, whyHostLabelStart, 0
		}
		if s[i-1] == '-' {
			return i - 1, whyHostLabelEnd, 0
		}
		labels++
		last = ls
		if i == end {
			break
		}
		i++ // the "."
		if i == end {
			return i - 1, whyHostTrailingDot, 0
		}
	}
	if seen == hostDigit {
		if labels == 4 {
			return -1, 0, 0
		}
		return last, whyHostNumber, labels
	}
	if hostTab[s[last]] != hostLetter {
		return last, whyHostTopLabel, 0
	}
	return -1, 0, 0
}

// The kinds of byte in a host, for checkHost.
const (
	hostLetter uint8 = 1 << iota
	hostDigit
	hostHyphen
	hostDot
)

var hostTab = func() (t [256]uint8) {
	for b := 0; b < 256; b++ {
		switch c := byte(b); {
		case chars.Table[c]&chars.Alpha != 0:
			t[b] = hostLetter
		case chars.Table[c]&chars.Digit != 0:
			t[b] = hostDigit
		case c == '-':
			t[b] = hostHyphen
		case c == '.':
			t[b] = hostDot
		}
	}
	return t
}()
