package urlkit

import (
	"fmt"
	"math/bits"
	"net/netip"
	"strings"

	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/schemes"
)

// The classes of the parser's own table, ptab: one load tells everything
// the parser needs to know about a byte in any component, so that the host
// is checked during the scan of the authority and the path, search and
// fragment are scanned eight bytes per branch.
const (
	cLetter uint8 = 1 << iota // a letter: in a host label, and starts a top label
	cDigit                    // a digit: in a host label or a port
	cHyphen                   // "-": inside a host label (4: parseFast depends on it)
	cDot                      // ".": separates host labels (8: parseFast depends on it)
	cPath                     // xchar but "?": unencoded in a url-path or an opaque part
	cX                        // xchar (RFC 1738 5): unencoded in a search part or fragment
	cLogin                    // uchar | ";" | "?" | "&" | "=": unencoded in a user or password (RFC 1738 5)
	cScheme                   // lowalpha | hialpha | digit | "+" | "-" | ".": a scheme name
)

// cLabel is the bytes of a host name label (RFC 1738 5: alphadigit and "-").
const cLabel = cLetter | cDigit | cHyphen

// ptab holds the parser's classes of every byte, derived from table. "%"
// is in none of them: it must start an escape, which is tested apart.
var ptab = func() (t [256]uint8) {
	for b := 0; b < 256; b++ {
		c := chars.Table[b]
		set := func(cl uint8, ok bool) {
			if ok {
				t[b] |= cl
			}
		}
		set(cLetter, c&chars.Alpha != 0)
		set(cDigit, c&chars.Digit != 0)
		set(cHyphen, b == '-')
		set(cDot, b == '.')
		set(cPath, c&chars.Xchar != 0 && b != '?')
		set(cX, c&chars.Xchar != 0)
		set(cLogin, c&chars.Unreserved != 0 || strings.IndexByte(";?&=", byte(b)) >= 0)
		set(cScheme, c&chars.SchemeChar != 0)
	}
	return t
}()

// loginStop marks the bytes the general login scanner must look at.
var loginStop = func() (t [256]bool) {
	for _, c := range "/#?@:" {
		t[c] = true
	}
	return t
}()

// scanLogin returns the index of the first byte of s[i:end] that is neither
// a login byte nor part of a valid escape ending before end, or end.
func scanLogin(s string, i, end int) int {
	for i < end {
		c := s[i]
		if ptab[c]&cLogin != 0 {
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

// ones has the lowest bit of every byte of a word set: c*ones repeats the
// byte c eight times.
const ones = 0x0101010101010101

// classes8 returns the classes in t of the first eight bytes of b, the
// class of b[k] in byte k of the result, so that a class bit can be tested
// in eight bytes at once; b must have at least eight bytes.
func classes8(t *[256]uint8, b string) uint64 {
	return uint64(t[b[7]])<<56 | uint64(t[b[6]])<<48 | uint64(t[b[5]])<<40 | uint64(t[b[4]])<<32 |
		uint64(t[b[3]])<<24 | uint64(t[b[2]])<<16 | uint64(t[b[1]])<<8 | uint64(t[b[0]])
}

// skip returns the index of the first byte of s at or after i that is
// neither in class c (a single bit of ptab) nor part of a valid escape, or
// len(s); i must be at most len(s). It looks at eight bytes per step and
// finds the offending byte of a step without a branch per byte.
func skip(s string, i int, c uint8) int {
	if simd && len(s) >= 32 && (c == cPath || c == cX) {
		return skip32(s, i, c)
	}
	want := uint64(c) * ones
	for {
		for len(s)-i >= 8 {
			if t := s[i : i+8]; ptab[t[0]]&ptab[t[1]]&ptab[t[2]]&ptab[t[3]]&ptab[t[4]]&ptab[t[5]]&ptab[t[6]]&ptab[t[7]]&c == 0 {
				i += bits.TrailingZeros64(classes8(&ptab, t)&want^want) >> 3
				goto escape
			}
			i += 8
		}
		if len(s) >= 8 {
			// The last eight bytes of s, shifted so that the bytes before
			// i drop out; the zero bytes shifted in stand for the end.
			w := classes8(&ptab, s[len(s)-8:]) & want >> (8 * (8 - uint(len(s)-i)))
			i += bits.TrailingZeros64(w^want) >> 3
		} else {
			for i < len(s) && ptab[s[i]]&c != 0 {
				i++
			}
		}
	escape:
		if chars.IsEscape(s, i) {
			i += 3
			continue
		}
		return i
	}
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
func Parse(s string) (URL, error) { return parseFastFirst(s, false, 0) }

// parseFastFirst tries the fast path on s as it is, then the general
// parser. An input the fast path accepts or rejects is absolute (a scheme
// name and "://", no "URL:" prefix), so it is parsed the same way whether
// partial forms are allowed or not, and by either syntax: the fast path
// defers a host that starts with "[" to the general parser. ext is 0 for
// RFC 1738's syntax or extSyntax for the extended one (see
// ParseExtended).
func parseFastFirst(s string, partialOK bool, ext uint16) (u URL, err error) {
	u.s = s
	u.flags = ext
	switch r := u.parseFast(); {
	case r == fastOK:
		return u, nil
	case r >= 0:
		return URL{}, charError(s, r>>4, Component(r&15))
	}
	return parse(s, partialOK, ext)
}

// ParseRef parses s as a URL or as a partial URL (RFC 1630, "Partial
// (relative) form"). A string is absolute when it starts with a scheme name
// and a colon that comes before any slash; otherwise it is partial, and may
// be empty, start with "//" and a login, with "/", with "?" or with "#".
// An absolute string is parsed as [Parse] does.
func ParseRef(s string) (URL, error) { return parseFastFirst(s, true, 0) }

// ParseExtended parses s as [Parse] does, by RFC 1738's syntax with one
// addition from its successors: the host may be an IPv6 address in
// brackets, RFC 3986 section 3.2.2's IP-literal (first defined by RFC
// 2732), such as http://[2001:db8::1]:8080/. A zone identifier
// ("[fe80::1%25eth0]", RFC 6874) and the IPvFuture form ("[v1.x]") are
// refused: browsers refuse both, and neither names one host for everyone.
//
// The URL it returns reports [URL.Extended]: the scheme package then also
// relaxes the rules of RFC 1738 that later practice lifted (a user name
// and password in an http URL, RFC 3986 3.2.1), and every URL derived from
// it (by [URL.Set], [Resolve], [Canonical]...) is read by the same
// syntax. It repairs nothing: the lenient reading of real-world input,
// which maps international host names by IDNA and percent-encodes what
// must be encoded, is the package lenient, which ends with this function.
func ParseExtended(s string) (URL, error) { return parseFastFirst(s, false, extSyntax) }

// ParseRefExtended is [ParseRef] by the syntax of [ParseExtended]: a URL
// or a partial URL, whose host may be an IPv6 literal.
func ParseRefExtended(s string) (URL, error) { return parseFastFirst(s, true, extSyntax) }

// parseRefAs parses s as ParseRef does, by the extended syntax when ext
// (extSyntax) is set: the reading of a text derived from URLs of that
// syntax.
func parseRefAs(s string, ext uint16) (URL, error) { return parseFastFirst(s, true, ext&extSyntax) }

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

// Check reports whether s is a URL by the rules of [Parse], without
// allocating, valid or not. For a valid URL it returns -1, ComponentNone
// and nil; otherwise the byte offset of the first offending byte, the
// component it is in and the kind of problem, one of the sentinel errors
// (ErrBadEscape, ErrBadHost...): the same three that [Parse]'s
// *[SyntaxError] would give, without its explanation.
func Check(s string) (offset int, c Component, kind error) {
	u := URL{s: s}
	switch r := u.parseFast(); {
	case r == fastOK:
		return -1, ComponentNone, nil
	case r >= 0:
		return r >> 4, Component(r & 15), charKind(s[r>>4])
	}
	u = URL{}
	f := u.parse(s, false, 0)
	if f.code == fOK {
		return -1, ComponentNone, nil
	}
	return int(f.off), f.comp, f.kind(s)
}

// parse parses input with the general parser (see URL.parse).
func parse(input string, partialOK bool, ext uint16) (u URL, err error) {
	if f := u.parse(input, partialOK, ext); f.code != fOK {
		return URL{}, f.err(input)
	}
	return u, nil
}

// A failure is a rejection found by the parser, made without allocating:
// where, in which component, and what is wrong. [failure.err] turns it into
// the *SyntaxError that Parse returns.
type failure struct {
	off  int32 // byte offset in the input
	n    int32 // a number the explanation quotes
	comp Component
	code failCode
	why  why
}

// failCode says what a failure is.
type failCode uint8

const (
	fOK             failCode = iota
	fChar                    // a byte not allowed unencoded in comp: see charError
	fEmpty                   // ErrEmpty
	fEmptyScheme             // ErrBadScheme: ":" first
	fSchemeChar              // ErrBadScheme: a byte not allowed in a scheme name
	fNoColon                 // ErrMissingScheme: a scheme name and no ":"
	fPartial                 // ErrMissingScheme: what looks like a partial URL
	fMissingSlashes          // ErrMissingSlashes; n is the length of the scheme name
	fHost                    // ErrBadHost, explained by why and n
	fMissingHost             // ErrMissingHost
	fEmptyPort               // ErrEmptyPort
	fBadPort                 // ErrBadPort
)

var failKinds = [...]error{
	fEmpty:          ErrEmpty,
	fEmptyScheme:    ErrBadScheme,
	fSchemeChar:     ErrBadScheme,
	fNoColon:        ErrMissingScheme,
	fPartial:        ErrMissingScheme,
	fMissingSlashes: ErrMissingSlashes,
	fHost:           ErrBadHost,
	fMissingHost:    ErrMissingHost,
	fEmptyPort:      ErrEmptyPort,
	fBadPort:        ErrBadPort,
}

// kind returns the sentinel error of a failure in input.
func (f failure) kind(input string) error {
	if f.code == fChar {
		return charKind(input[f.off])
	}
	return failKinds[f.code]
}

// err returns the *SyntaxError of a failure in input.
func (f failure) err(input string) *SyntaxError {
	off := int(f.off)
	e := &SyntaxError{Input: input, Offset: off, Component: f.comp, Err: f.kind(input), why: f.why, n: f.n}
	switch f.code {
	case fEmpty:
		e.Detail = "empty URL"
	case fEmptyScheme:
		e.Detail = `empty scheme name before ":" (RFC 1738 5: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ])`
	case fNoColon:
		e.Detail = fmt.Sprintf(`no ":" after the scheme name %q: a URL is <scheme>:<scheme-specific-part> (RFC 1738 2.1)`, input[:off])
	case fSchemeChar:
		e.Detail = fmt.Sprintf(`%q is not allowed in a scheme name (RFC 1738 5: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ])`, input[off:off+1])
	case fPartial:
		e.Detail = "a URL must start with a scheme name and \":\" (RFC 1738 2.1); this looks like a partial URL, which needs a base"
	case fMissingSlashes:
		name := schemes.Lower(input[off-1-int(f.n) : off-1])
		e.Detail = fmt.Sprintf(`%s URLs use the common Internet scheme syntax %s://<host>/<url-path> (RFC 1738 3.1)`, name, name)
		e.n = 0
	}
	return e
}

// charFail is the failure of a byte not allowed, unencoded, in component c.
func charFail(i int, c Component) failure {
	return failure{off: int32(i), comp: c, code: fChar}
}

// parse parses input into u with the general parser, once parseFast has
// deferred input as it is; after a "URL:" prefix, the fast path is tried
// on the rest. Offsets in the failure are offsets in input. ext is
// extSyntax for the extended syntax (see ParseExtended), else 0.
func (u *URL) parse(input string, partialOK bool, ext uint16) failure {
	*u = URL{flags: ext}
	s := input
	if len(s) >= 6 && s[0]|0x20 == 'u' && hasURLPrefix(s) {
		s = s[4:]
		u.prefix = 4
	}
	u.s = s
	if len(s) == 0 && (!partialOK || u.prefix != 0) {
		return failure{off: u.prefix, comp: ComponentNone, code: fEmpty}
	}
	if u.prefix != 0 {
		switch r := u.parseFast(); {
		case r == fastOK:
			return failure{}
		case r >= 0:
			return charFail(r>>4+int(u.prefix), Component(r&15))
		}
		*u = URL{s: s, prefix: u.prefix, flags: ext}
	}
	f := u.parseScheme(partialOK, false)
	f.off += u.prefix
	return f
}

// parseGeneric parses input as ParseRef does, but reads every scheme by
// the generic syntax (RFC 1738 section 5 genericurl), ignoring the rules a
// known scheme adds; see ParseGeneric in resolve.go.
func parseGeneric(input string, ext uint16) (URL, error) {
	u := URL{s: input, flags: ext & extSyntax}
	if len(input) >= 6 && input[0]|0x20 == 'u' && hasURLPrefix(input) {
		u.s, u.prefix = input[4:], 4
	}
	f := failure{off: u.prefix, comp: ComponentNone, code: fEmpty}
	if u.s != "" || u.prefix == 0 {
		f = u.parseScheme(true, true)
		f.off += u.prefix
	}
	if f.code != fOK {
		return URL{}, f.err(input)
	}
	return u, nil
}

// The results of parseFast that are not a failure.
const (
	fastOK    = -1
	fastDefer = -2
)

// parseFast parses u.s in the common case, in one function: a scheme with
// "//" that is not opaque, an optional login of plain bytes (user
// [":" password] "@", no escapes), a valid host name or host
// number (or none, where the scheme allows that), an optional non-empty
// decimal port, then a valid path, search part and fragment. Where the
// vector scans run (simd.go), the host and most paths are checked on the
// masks of one 64-byte classification; otherwise the host is checked
// during its scan, and the path, search part and fragment are scanned
// eight bytes per step. It returns fastOK for a valid URL, and
// offset<<4 | component for a byte the general parser would reject as
// charFail(offset, component); it returns fastDefer, leaving u for the
// general parser to start again, when the input is anything else.
func (u *URL) parseFast() int {
	s := u.s
	i := 0
	syntax := schemes.IP
	switch {
	case len(s) >= 8 && s[:8] == "https://":
		i = 5
	case len(s) >= 7 && s[:7] == "http://":
		i = 4
	default:
		for i < len(s) && ptab[s[i]]&cScheme != 0 {
			i++
		}
		if i == 0 || len(s)-i < 3 || s[i] != ':' || s[i+1] != '/' || s[i+2] != '/' {
			return fastDefer
		}
		if i == 4 && s[:4] == "file" {
			syntax = schemes.IPOptionalHost
		} else if syntax = schemes.SyntaxOf(s[:i]); syntax == schemes.Opaque {
			return fastDefer
		}
	}
	a := i + 3 // the start of the login
	// Most URLs have no login: the host and port are read from a, and
	// only when they are not followed by the end, "/" or "#" (where the
	// general parser's login ends) is a login of plain bytes looked for.
	h, userEnd, at := a, a, -1
	hostEnd, i, port, pathEnd := hostLong, 0, false, -1
	if simd {
		hostEnd, i, port, pathEnd = fastHost64(s, h, syntax)
	}
	if hostEnd == hostLong {
		hostEnd, i, port = fastHostPort(s, h, syntax)
	}
	if i < 0 || (i < len(s) && s[i] != '/' && s[i] != '#') {
		if userEnd, at = fastLogin(s, a); at < 0 {
			return fastDefer
		}
		h, pathEnd = at+1, -1
		if hostEnd, i, port = fastHostPort(s, h, syntax); i < 0 {
			return fastDefer
		}
		u.flags |= hasUser
		if userEnd < at {
			u.flags |= hasPassword
		}
	}
	if port {
		u.flags |= hasPort
	}
	authEnd := i
	u.scheme = span{0, int32(a - 3)}
	switch {
	case at < 0:
		u.user = span{int32(a), int32(a)}
		u.pass = u.user
	case userEnd < at:
		u.user = span{int32(a), int32(userEnd)}
		u.pass = span{int32(userEnd + 1), int32(at)}
	default:
		u.user = span{int32(a), int32(at)}
		u.pass = span{int32(at), int32(at)}
	}
	u.host = span{int32(h), int32(hostEnd)}
	if u.flags&hasPort != 0 {
		u.port = span{int32(hostEnd + 1), int32(authEnd)}
	} else {
		u.port = span{int32(authEnd), int32(authEnd)}
	}
	u.flags |= hasScheme | hasAuthority

	// The path, from the "/" after the login. Once the login is known to
	// be valid, a bad byte in a scheme of the common Internet scheme
	// syntax is the failure the general parser would report; in another
	// scheme, the general parser tries the scheme-specific part as *xchar.
	if i < len(s) && s[i] == '/' {
		u.flags |= hasPath
		if pathEnd < 0 || pathEnd < len(s) && s[pathEnd] == '%' {
			i = skip(s, max(i, pathEnd), cPath)
		} else {
			i = pathEnd
		}
		if i < len(s) && s[i] != '?' && s[i] != '#' && syntax != schemes.Generic {
			return i<<4 | int(ComponentPath)
		}
	}
	u.path = span{int32(authEnd), int32(i)}
	u.search = span{int32(i), int32(i)}
	if i < len(s) && s[i] == '?' {
		if authEnd == i {
			return fastDefer // a "?" may not end the login
		}
		i++
		start := i
		if i = skip(s, i, cX); i < len(s) && s[i] != '#' && syntax != schemes.Generic {
			return i<<4 | int(ComponentSearch)
		}
		u.flags |= hasSearch
		u.search = span{int32(start), int32(i)}
	}
	u.frag = span{int32(len(s)), int32(len(s))}
	if i < len(s) {
		if s[i] != '#' {
			return fastDefer
		}
		i++
		start := i
		if i = skip(s, i, cX); i < len(s) {
			if syntax != schemes.Generic {
				return i<<4 | int(ComponentFragment)
			}
			return fastDefer
		}
		u.flags |= hasFragment
		u.frag = span{int32(start), int32(len(s))}
	}
	return fastOK
}

// fastLogin returns the end of the user and the offset of the "@" of a
// login of plain bytes from a: user [":" password] "@", where user and
// password hold only login bytes (no escape, no second ":"). The "@" is -1
// when s has no such login at a.
func fastLogin(s string, a int) (userEnd, at int) {
	i := a
	for i < len(s) && ptab[s[i]]&cLogin != 0 {
		i++
	}
	userEnd = i
	if i < len(s) && s[i] == ':' {
		for i++; i < len(s) && ptab[s[i]]&cLogin != 0; i++ {
		}
	}
	if i < len(s) && s[i] == '@' {
		return userEnd, i
	}
	return userEnd, -1
}

// fastHostPort reads a host name (or no host, where syntax allows that)
// and an optional non-empty decimal port from h. It returns the end of the
// host, the end of the authority and whether there is a port, or an end of
// -1 when the input needs the general parser.
//
// Its one pass over the host is an accelerator of checkHost, the host
// rule, as the vector scan (fastHost64) is: it takes a host name checkHost
// takes and leaves every other host, host numbers included, to the
// general parser, which applies checkHost. TestHostAccelerators and
// FuzzHostAccelerators hold both to checkHost (measured: checkHost here
// cost 35% of Parse's CPU without the vector scans).
func fastHostPort(s string, h int, syntax schemes.Syntax) (hostEnd, end int, port bool) {
	if end, empty := emptyHost(s, h, syntax); empty {
		return h, end, false
	}
	i := h
	// One pass over the host checks every byte and every pair of bytes: a
	// "." next to a "." or a "-" ends or starts a label wrongly (RFC 1738
	// 5: hostname = *[ domainlabel "." ] toplabel). With cHyphen = 4 and
	// cDot = 8, the sum of the two bytes' bits plus 4 has bit 16 set for
	// exactly "..", ".-" and "-.".
	var prev, bad uint8
	for ; i < len(s); i++ {
		k := ptab[s[i]]
		if k&(cLabel|cDot) == 0 {
			break
		}
		cur := k & (cDot | cHyphen)
		bad |= prev + cur + 4
		prev = cur
	}
	hostEnd = i
	if i == h || bad&16 != 0 || ptab[s[h]]&(cLetter|cDigit) == 0 || prev != 0 {
		return hostEnd, -1, false // an empty host or label, or one that starts or ends with "-" or "."
	}
	// A host name's top label starts with a letter. A host number is left
	// to the general parser.
	top := hostEnd - 1
	for top > h && s[top-1] != '.' {
		top--
	}
	if ptab[s[top]]&cLetter == 0 {
		return hostEnd, -1, false
	}
	end, port = fastPort(s, hostEnd)
	return hostEnd, end, port
}

// hostSpan returns the end of the bytes from i that a host may hold:
// letters, digits, "-" and ".".
func hostSpan(s string, i int) int {
	for i < len(s) && ptab[s[i]]&(cLabel|cDot) != 0 {
		i++
	}
	return i
}

// emptyHost reports whether the authority at h has no host (the end, "/"
// or "#" follows at once), and then returns its end: h where the syntax
// allows no host (file), -1 where the general parser explains.
func emptyHost(s string, h int, syntax schemes.Syntax) (end int, empty bool) {
	if h < len(s) && s[h] != '/' && s[h] != '#' {
		return 0, false
	}
	if syntax != schemes.IPOptionalHost {
		return -1, true
	}
	return h, true
}

// fastPort reads an optional ":" and non-empty decimal port at i, the end
// of a host. It returns the end of the authority and whether there is a
// port, or an end of -1 for ":" with no digits, which the general parser
// explains.
func fastPort(s string, i int) (end int, port bool) {
	if i == len(s) || s[i] != ':' {
		return i, false
	}
	j := i + 1
	for j < len(s) && ptab[s[j]]&cDigit != 0 {
		j++
	}
	if j == i+1 {
		return -1, false
	}
	return j, true
}

// parseScheme parses u.s: the scheme name up to ":" (RFC 1738 section 5),
// then the scheme-specific part.
//
// With generic, every scheme is read as schemes.Generic.
func (u *URL) parseScheme(partialOK, generic bool) failure {
	s := u.s
	i := 0
	for i < len(s) && ptab[s[i]]&cScheme != 0 {
		i++
	}
	p := 0 // start of the scheme-specific part
	syntax := schemes.Generic
	if i < len(s) && s[i] == ':' && i > 0 {
		u.flags |= hasScheme
		u.scheme = span{0, int32(i)}
		p = i + 1
		// The common schemes first, without the general lookup.
		switch {
		case generic:
		case i == 4 && s[:4] == "http", i == 5 && s[:5] == "https":
			syntax = schemes.IP
		case i == 4 && s[:4] == "file":
			syntax = schemes.IPOptionalHost
		default:
			syntax = schemes.SyntaxOf(s[:i])
		}
	} else if !partialOK {
		switch {
		case i < len(s) && s[i] == ':':
			return failure{off: 0, comp: ComponentScheme, code: fEmptyScheme}
		case i > 0 && (i == len(s) || s[i] == '#'):
			return failure{off: int32(i), comp: ComponentScheme, code: fNoColon}
		case i > 0 && s[i] != '/':
			return failure{off: int32(i), comp: ComponentScheme, code: fSchemeChar}
		default:
			return failure{off: 0, comp: ComponentScheme, code: fPartial}
		}
	}

	// The scheme-specific part s[p:].
	partial := u.flags&hasScheme == 0
	if len(s)-p >= 2 && s[p] == '/' && s[p+1] == '/' && syntax != schemes.Opaque {
		f := u.parseLogin(p+2, syntax, partial)
		if f.code == fOK || syntax != schemes.Generic || partial {
			return f
		}
		// An unknown scheme may use *xchar instead of ip-schemepart. When
		// neither reading holds, the error is the one further along: the
		// first byte that no reading allows.
		*u = URL{s: s, prefix: u.prefix, flags: hasScheme | u.flags&extSyntax, scheme: u.scheme}
		if g := u.parseTail(p, ComponentOpaque); g.code != fOK {
			if g.off > f.off {
				return g
			}
			return f
		}
		return failure{}
	}
	if syntax == schemes.IP || syntax == schemes.IPOptionalHost {
		return failure{off: int32(p), n: int32(i), comp: ComponentOpaque, code: fMissingSlashes}
	}
	pc := ComponentOpaque
	if partial {
		pc = ComponentPath
	}
	return u.parseTail(p, pc)
}

// parseTail parses u.s[i:] as a path of xchar up to the first "?", a
// search part up to the first "#", and a fragment. The path's failures are
// reported in component pc.
func (u *URL) parseTail(i int, pc Component) failure {
	s := u.s
	start := i
	i = skip(s, i, cPath)
	u.flags |= hasPath
	u.path = span{int32(start), int32(i)}
	if i < len(s) && s[i] == '?' {
		i++
		start = i
		i = skip(s, i, cX)
		u.flags |= hasSearch
		u.search = span{int32(start), int32(i)}
	} else {
		u.search = span{int32(i), int32(i)}
		if i < len(s) && s[i] != '#' {
			return charFail(i, pc)
		}
	}
	if i < len(s) {
		if s[i] != '#' {
			return charFail(i, ComponentSearch)
		}
		i++
		start = i
		if i = skip(s, i, cX); i < len(s) {
			return charFail(i, ComponentFragment)
		}
		u.flags |= hasFragment
		u.frag = span{int32(start), int32(len(s))}
	} else {
		u.frag = span{int32(len(s)), int32(len(s))}
	}
	return failure{}
}

// parseLogin parses login ["/" url-path] ["#" fragment] from a, just after
// "//". In a partial URL the host may be empty and a "?" also ends the
// login, as in RFC 1808's net_loc.
func (u *URL) parseLogin(a int, syntax schemes.Syntax, partial bool) failure {
	s := u.s
	u.flags |= hasAuthority
	authEnd := -1
	if !partial {
		authEnd = u.fastAuthority(a, syntax)
	}
	if authEnd < 0 {
		var f failure
		if authEnd, f = u.parseAuthority(a, syntax, partial); f.code != fOK {
			return f
		}
	}
	if authEnd < len(s) && s[authEnd] == '/' {
		return u.parseTail(authEnd, ComponentPath)
	}
	// No url-path: what follows is a search part (partial URLs only) or a
	// fragment.
	f := u.parseTail(authEnd, ComponentPath)
	u.flags &^= hasPath
	return f
}

// fastAuthority parses the authority of an absolute URL from a in the
// common case: no user or password, a valid host name or host number (or
// none, where the scheme allows that), an optional non-empty decimal port,
// then "/", "#" or the end. The host is checked by checkHost, the one host
// rule. It returns the end of the authority, or -1 when the input needs
// the general parseAuthority, which also explains any error.
func (u *URL) fastAuthority(a int, syntax schemes.Syntax) int {
	s := u.s
	i := a
	if i >= len(s) || s[i] == '/' || s[i] == '#' {
		if syntax != schemes.IPOptionalHost {
			return -1
		}
		u.user, u.pass, u.host, u.port = span{int32(a), int32(a)}, span{int32(a), int32(a)}, span{int32(a), int32(a)}, span{int32(a), int32(a)}
		return a
	}
	// The host's bytes, then RFC 1738's host rule over them (checkHost).
	i = hostSpan(s, i)
	if off, _, _ := checkHost(s, a, i); i == a || off >= 0 {
		return -1
	}
	hostEnd := i
	u.port = span{int32(i), int32(i)}
	if i < len(s) && s[i] == ':' {
		i++
		for i < len(s) && ptab[s[i]]&cDigit != 0 {
			i++
		}
		if i == hostEnd+1 {
			return -1
		}
		u.flags |= hasPort
		u.port = span{int32(hostEnd + 1), int32(i)}
	}
	if i < len(s) && s[i] != '/' && s[i] != '#' {
		return -1
	}
	u.user = span{int32(a), int32(a)}
	u.pass = u.user
	u.host = span{int32(a), int32(hostEnd)}
	return i
}

// parseAuthority parses the login from a in general: user, password, host
// and port, with every error explained. It returns the end of the login.
func (u *URL) parseAuthority(a int, syntax schemes.Syntax, partial bool) (int, failure) {
	s := u.s
	n := len(s)
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
	u.flags &^= hasUser | hasPassword | hasPort
	if at >= 0 {
		u.flags |= hasUser
		userEnd := at
		if colon >= 0 {
			userEnd = colon
		}
		// The user first: the error names the first offending byte.
		u.user = span{int32(a), int32(userEnd)}
		if j := scanLogin(s, a, userEnd); j < userEnd {
			return 0, charFail(j, ComponentUser)
		}
		if colon >= 0 {
			u.flags |= hasPassword
			u.pass = span{int32(colon + 1), int32(at)}
			if j := scanLogin(s, colon+1, at); j < at {
				return 0, charFail(j, ComponentPassword)
			}
		} else {
			u.pass = span{int32(at), int32(at)}
		}
		hostStart = at + 1
	} else {
		u.user = span{int32(a), int32(a)}
		u.pass = u.user
	}
	hostEnd := authEnd
	literal := hostStart < authEnd && s[hostStart] == '['
	if literal {
		if u.flags&extSyntax == 0 {
			return 0, failure{off: int32(hostStart), comp: ComponentHost, code: fHost, why: whyHostChar}
		}
		end, f := ipLiteral(s, hostStart, authEnd)
		if f.code != fOK {
			return 0, f
		}
		u.flags |= hostLiteral
		portColon = -1
		if end < authEnd {
			if s[end] != ':' {
				return 0, failure{off: int32(end), comp: ComponentHost, code: fHost, why: whyLiteralAfter}
			}
			portColon = end
		}
		hostEnd = end
	}
	if portColon >= 0 {
		hostEnd = portColon
	}
	// The host before the port: the error names the first offending byte.
	u.host = span{int32(hostStart), int32(hostEnd)}
	if hostStart == hostEnd {
		if syntax != schemes.IPOptionalHost && !partial {
			return 0, failure{off: int32(hostStart), comp: ComponentHost, code: fMissingHost, why: whyMissingHost}
		}
		if portColon >= 0 && !partial {
			// A file URL may have no host, but a port is a host's
			// (hostport = host [ ":" port ]).
			return 0, failure{off: int32(hostStart), comp: ComponentHost, code: fMissingHost, why: whyPortNoHost}
		}
	} else if literal {
		// checked by ipLiteral
	} else if off, w, k := checkHost(s, hostStart, hostEnd); off >= 0 {
		return 0, failure{off: int32(off), n: int32(k), comp: ComponentHost, code: fHost, why: w}
	}
	if portColon >= 0 {
		u.flags |= hasPort
		u.port = span{int32(hostEnd + 1), int32(authEnd)}
		if hostEnd+1 == authEnd {
			return 0, failure{off: int32(hostEnd), comp: ComponentPort, code: fEmptyPort, why: whyEmptyPort}
		}
		for j := hostEnd + 1; j < authEnd; j++ {
			if ptab[s[j]]&cDigit == 0 {
				if c := s[j]; c == ':' || c == '@' {
					return 0, charFail(j, ComponentPort)
				}
				return 0, failure{off: int32(j), comp: ComponentPort, code: fBadPort, why: whyBadPort}
			}
		}
	} else {
		u.port = span{int32(authEnd), int32(authEnd)}
	}
	return authEnd, failure{}
}

// ipLiteral checks the IP-literal of RFC 3986 3.2.2 that starts with the
// "[" at s[start], within the login that ends at end: "[" IPv6address "]"
// (RFC 4291 2.2's text forms, the one RFC 3986 copies), without a zone
// identifier and not IPvFuture. It returns the offset after the "]".
func ipLiteral(s string, start, end int) (int, failure) {
	fail := func(off int, w why) (int, failure) {
		return 0, failure{off: int32(off), comp: ComponentHost, code: fHost, why: w}
	}
	rb := strings.IndexByte(s[start:end], ']')
	if rb < 0 {
		return fail(start, whyLiteralUnclosed)
	}
	rb += start
	text := s[start+1 : rb]
	if i := strings.IndexByte(text, '%'); i >= 0 {
		return fail(start+1+i, whyLiteralZone)
	}
	if text != "" && text[0]|0x20 == 'v' {
		return fail(start+1, whyLiteralFuture)
	}
	a, err := netip.ParseAddr(text)
	if err != nil || !a.Is6() {
		return fail(start+1, whyLiteralAddr)
	}
	return rb + 1, failure{}
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
		if i < end && s[i] == '-' {
			// Refused at once: no label starts with "-" (RFC 1738 5:
			// domainlabel and toplabel start with alphadigit), whatever
			// follows.
			return ls, whyHostLabelStart, 0
		}
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
