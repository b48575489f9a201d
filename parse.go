package urlkit

import (
	"fmt"
	"strings"
)

// okX marks the bytes of RFC 1738's xchar (unreserved | reserved), which may
// appear unencoded in a url-path, a search part, a fragment and the
// scheme-specific part of a URL without "//". "%" is handled separately: it
// must start an escape.
//
// okLogin marks the bytes allowed in a user or password: uchar | ";" | "?" |
// "&" | "=" (RFC 1738 section 5).
var okX, okLogin [256]bool

func init() {
	for b := 0; b < 256; b++ {
		okX[b] = table[b]&Xchar != 0
		okLogin[b] = table[b]&Unreserved != 0 || strings.IndexByte(";?&=", byte(b)) >= 0
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
		if c == '%' && isEscape(s, i) && i+2 < end {
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

func hasURLPrefix(s string) bool {
	return len(s) >= 4 && s[0]|0x20 == 'u' && s[1]|0x20 == 'r' && s[2]|0x20 == 'l' && s[3] == ':'
}

func parse(input string, partialOK bool) (URL, error) {
	var u URL
	s := input
	if hasURLPrefix(s) {
		s = s[4:]
		u.prefix = 4
	}
	u.s = s
	base := int(u.prefix)
	fail := func(off int, c Component, err error, detail string) (URL, error) {
		return URL{}, &SyntaxError{Input: input, Offset: base + off, Component: c, Err: err, Detail: detail}
	}
	if len(s) == 0 && (!partialOK || u.prefix != 0) {
		return fail(0, ComponentNone, ErrEmpty, "empty URL")
	}

	// The fragment: everything after the first "#" (RFC 1630 fragmentaddress).
	end := len(s)
	if h := strings.IndexByte(s, '#'); h >= 0 {
		if i := scan(s, h+1, len(s), &okX); i < len(s) {
			return URL{}, charErrorAt(input, base, i, ComponentFragment)
		}
		u.flags |= hasFragment
		u.frag = span{int32(h + 1), int32(len(s))}
		end = h
	} else {
		u.frag = span{int32(end), int32(end)}
	}

	// The scheme: scheme chars up to ":" (RFC 1738 section 5).
	i := 0
	for i < end && table[s[i]]&SchemeChar != 0 {
		i++
	}
	p := 0 // start of the scheme-specific part
	syntax := SyntaxGeneric
	if i < end && s[i] == ':' && i > 0 {
		u.flags |= hasScheme
		u.scheme = span{0, int32(i)}
		p = i + 1
		syntax = schemeSyntax(s[:i])
	} else if !partialOK {
		switch {
		case i < end && s[i] == ':':
			return fail(0, ComponentScheme, ErrBadScheme, `empty scheme name before ":" (RFC 1738 5: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ])`)
		case i == end && i > 0:
			return fail(i, ComponentScheme, ErrMissingScheme, fmt.Sprintf(`no ":" after the scheme name %q: a URL is <scheme>:<scheme-specific-part> (RFC 1738 2.1)`, s[:i]))
		case i > 0 && s[i] != '/':
			return fail(i, ComponentScheme, ErrBadScheme, fmt.Sprintf(`%q is not allowed in a scheme name (RFC 1738 5: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ])`, s[i:i+1]))
		default:
			return fail(0, ComponentScheme, ErrMissingScheme, "a URL must start with a scheme name and \":\" (RFC 1738 2.1); this looks like a partial URL, which needs a base")
		}
	}

	// The scheme-specific part s[p:end].
	if end-p >= 2 && s[p] == '/' && s[p+1] == '/' && syntax != SyntaxOpaque {
		v := u
		err := v.parseLogin(input, base, p+2, end, syntax, partialOK && u.flags&hasScheme == 0)
		if err == nil {
			return v, nil
		}
		if syntax != SyntaxGeneric || u.flags&hasScheme == 0 {
			return URL{}, err
		}
		// An unknown scheme may use *xchar instead of ip-schemepart.
		if !opaqueOK(s, p, end) {
			return URL{}, err
		}
	} else if syntax == SyntaxIP || syntax == SyntaxIPOptionalHost {
		return fail(p, ComponentOpaque, ErrMissingSlashes, fmt.Sprintf(`%s URLs use the common Internet scheme syntax %s://<host>/<url-path> (RFC 1738 3.1)`, u.Scheme(), u.Scheme()))
	}
	if err := u.parsePathSearch(input, base, p, end, ComponentOpaque); err != nil {
		return URL{}, err
	}
	u.flags |= hasPath
	return u, nil
}

func charErrorAt(input string, base, i int, c Component) *SyntaxError {
	return charError(input, base+i, c)
}

// opaqueOK reports whether s[p:end] is *xchar with valid escapes.
func opaqueOK(s string, p, end int) bool { return scan(s, p, end, &okX) == end }

// parsePathSearch fills path and search from s[p:end]: a path of xchar up
// to the first "?", then the search part.
func (u *URL) parsePathSearch(input string, base, p, end int, c Component) error {
	s := u.s
	q := end
	if k := strings.IndexByte(s[p:end], '?'); k >= 0 {
		q = p + k
		if i := scan(s, q+1, end, &okX); i < end {
			return charErrorAt(input, base, i, ComponentSearch)
		}
		u.flags |= hasSearch
		u.search = span{int32(q + 1), int32(end)}
	} else {
		u.search = span{int32(end), int32(end)}
	}
	if i := scan(s, p, q, &okX); i < q {
		if c == ComponentOpaque && u.flags&hasScheme == 0 {
			c = ComponentPath
		}
		return charErrorAt(input, base, i, c)
	}
	u.path = span{int32(p), int32(q)}
	return nil
}

// parseLogin parses "//" login ["/" url-path] starting after the "//" at a.
func (u *URL) parseLogin(input string, base, a, end int, syntax Syntax, partial bool) error {
	s := u.s
	u.flags |= hasAuthority
	authEnd := end
	if k := strings.IndexByte(s[a:authEnd], '/'); k >= 0 {
		authEnd = a + k
	}
	hostStart := a
	if k := strings.IndexByte(s[a:authEnd], '@'); k >= 0 {
		at := a + k
		u.flags |= hasUser
		userEnd := at
		if c := strings.IndexByte(s[a:at], ':'); c >= 0 {
			userEnd = a + c
			u.flags |= hasPassword
			u.pass = span{int32(userEnd + 1), int32(at)}
			if i := scan(s, userEnd+1, at, &okLogin); i < at {
				return charErrorAt(input, base, i, ComponentPassword)
			}
		} else {
			u.pass = span{int32(at), int32(at)}
		}
		u.user = span{int32(a), int32(userEnd)}
		if i := scan(s, a, userEnd, &okLogin); i < userEnd {
			return charErrorAt(input, base, i, ComponentUser)
		}
		hostStart = at + 1
	} else {
		u.user = span{int32(a), int32(a)}
		u.pass = u.user
	}
	hostEnd := authEnd
	if hostStart < authEnd && s[hostStart] == '[' {
		return &SyntaxError{Input: input, Offset: base + hostStart, Component: ComponentHost, Err: ErrBadHost, Detail: hostCharReason('[')}
	}
	if k := strings.IndexByte(s[hostStart:authEnd], ':'); k >= 0 {
		hostEnd = hostStart + k
		u.flags |= hasPort
		u.port = span{int32(hostEnd + 1), int32(authEnd)}
		if hostEnd+1 == authEnd {
			return &SyntaxError{Input: input, Offset: base + hostEnd, Component: ComponentPort, Err: ErrEmptyPort,
				Detail: `":" with no port after it: when the port is omitted, the ":" is too (RFC 1738 3.1)`}
		}
		for i := hostEnd + 1; i < authEnd; i++ {
			if table[s[i]]&Digit == 0 {
				if c := s[i]; c == ':' || c == '@' {
					return charErrorAt(input, base, i, ComponentPort)
				}
				return &SyntaxError{Input: input, Offset: base + i, Component: ComponentPort, Err: ErrBadPort,
					Detail: fmt.Sprintf("%q in port: a port is decimal digits (RFC 1738 3.1)", s[i:i+1])}
			}
		}
	} else {
		u.port = span{int32(authEnd), int32(authEnd)}
	}
	u.host = span{int32(hostStart), int32(hostEnd)}
	if hostStart == hostEnd {
		if syntax != SyntaxIPOptionalHost && !partial {
			return &SyntaxError{Input: input, Offset: base + hostStart, Component: ComponentHost, Err: ErrMissingHost,
				Detail: "missing host: the common Internet scheme syntax needs a host after \"//\" (RFC 1738 3.1)"}
		}
	} else if off, detail := checkHost(s, hostStart, hostEnd); off >= 0 {
		return &SyntaxError{Input: input, Offset: base + off, Component: ComponentHost, Err: ErrBadHost, Detail: detail}
	}
	if authEnd == end {
		u.path = span{int32(end), int32(end)}
		u.search = u.path
		return nil
	}
	u.flags |= hasPath
	return u.parsePathSearch(input, base, authEnd, end, ComponentPath)
}

// checkHost checks s[start:end] against RFC 1738's host = hostname |
// hostnumber. It returns the offset of the first offending byte and a
// reason, or -1.
func checkHost(s string, start, end int) (int, string) {
	labels := 0
	numeric := true
	last := start
	for i := start; ; {
		ls := i
		for i < end && s[i] != '.' {
			c := s[i]
			if table[c]&AlphaDigit == 0 && c != '-' {
				return i, hostCharReason(c)
			}
			if table[c]&Digit == 0 {
				numeric = false
			}
			i++
		}
		if i == ls {
			return ls, `empty label in host name: labels are separated by single "." (RFC 1738 3.1)`
		}
		if s[ls] == '-' {
			return ls, `a host name label must start with a letter or digit, not "-" (RFC 1738 3.1)`
		}
		if s[i-1] == '-' {
			return i - 1, `a host name label must end with a letter or digit, not "-" (RFC 1738 3.1)`
		}
		labels++
		last = ls
		if i == end {
			break
		}
		i++ // the "."
		if i == end {
			return i - 1, `a host name must not end with "." (RFC 1738 5: hostname ends with a toplabel)`
		}
	}
	if numeric {
		if labels == 4 {
			return -1, ""
		}
		return last, fmt.Sprintf("a host number has exactly four decimal parts separated by \".\", not %d (RFC 1738 3.1)", labels)
	}
	if table[s[last]]&Alpha == 0 {
		return last, "the last label of a host name must start with a letter (RFC 1738 3.1: it tells domain names from IP addresses)"
	}
	return -1, ""
}

func hostCharReason(c byte) string {
	switch {
	case c == '[' || c == ']':
		return `"[" and "]" are not allowed in a host: IPv6 literals came later (RFC 2732) and are not part of RFC 1738`
	case c == '%':
		return `escapes are not allowed in a host: a host is letters, digits, "-" and "." (RFC 1738 3.1)`
	case c == '_':
		return `"_" is not allowed in a host name: labels are letters, digits and "-" (RFC 1738 3.1, RFC 1034 3.5)`
	case table[c]&(Space|Control|NonASCII) != 0:
		return fmt.Sprintf("byte 0x%02X is not allowed in a host name: labels are letters, digits and \"-\" (RFC 1738 3.1)", c)
	case c == '?' || c == ';':
		return fmt.Sprintf("%q is not allowed in a host name: the url-path, and any search part, must start with \"/\" (RFC 1738 3.1)", string(rune(c)))
	}
	return fmt.Sprintf("%q is not allowed in a host name: labels are letters, digits and \"-\" (RFC 1738 3.1)", string(rune(c)))
}

// schemeSyntax returns the syntax of a scheme name in any case, without
// allocating.
func schemeSyntax(name string) Syntax {
	for i := range builtinSchemes {
		if len(builtinSchemes[i].Name) == len(name) && strings.EqualFold(builtinSchemes[i].Name, name) {
			return builtinSchemes[i].Syntax
		}
	}
	if m := registered.Load(); m != nil {
		for k, v := range *m {
			if strings.EqualFold(k, name) {
				return v.Syntax
			}
		}
	}
	return SyntaxGeneric
}
