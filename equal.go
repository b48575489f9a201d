package urlkit

import (
	"net/netip"
	"strconv"
	"strings"
	"sync"

	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/schemes"
)

// canonDecode marks the bytes whose escapes Canonical decodes in a URL
// whose scheme does not say which characters it reserves (and in every
// user, password and fragment): characters that are neither reserved nor
// unsafe. RFC 1630 ("Encoding reserved characters") says a URI may be made
// safer by encoding such characters, or expanded by decoding them, without
// changing it; reserved characters "may NEVER be encoded and unencoded in
// this way".
//
// RFC 1630 also reserves "*" and "!" for special significance within
// specific schemes (news:* names every group), so their escapes are kept;
// "+" is kept encoded in a search part (canonDecodeSearch), where RFC 1630
// makes it the shorthand for a space.
var canonDecode = decodeTable("$-_.+'(),")

var canonDecodeSearch = decodeTable("$-_.'(),")

// decodeTable marks alphanumerics and the bytes of extra.
func decodeTable(extra string) *[256]bool {
	var t [256]bool
	for b := 0; b < 256; b++ {
		t[b] = chars.Table[b]&(chars.Alpha|chars.Digit) != 0 || strings.IndexByte(extra, byte(b)) >= 0
	}
	return &t
}

// decodeSets are the tables of the bytes whose escapes Canonical decodes
// in a URL's url-path and search part.
// param is the path's table after a ";" the scheme reserves, within
// its segment.
type decodeSets struct{ path, param, search *[256]bool }

var genericSets = decodeSets{canonDecode, canonDecode, canonDecodeSearch}

// setsFor returns the tables of a scheme that states its reserved
// characters (RFC 1738 2.2: only ";", "/", "?", ":", "@", "=" and "&" may
// be reserved within a scheme, and each scheme's section says which it
// reserves where): every character that needs no encoding, but for those.
func setsFor(r schemes.Reserved) decodeSets {
	if !r.Stated {
		return genericSets
	}
	const mayReserve = ";/?:@=&"
	table := func(reserved string) *[256]bool {
		t := decodeTable("$-_.+!*'()," + mayReserve)
		for i := 0; i < len(reserved); i++ {
			t[reserved[i]] = false
		}
		return t
	}
	path := table(r.Path)
	param := path
	if r.Param != "" {
		param = table(r.Path + r.Param)
	}
	return decodeSets{path, param, table(r.Search)}
}

var (
	builtinSets = func() (t [len(schemes.Builtin)]decodeSets) {
		for i, info := range schemes.Builtin {
			t[i] = setsFor(info.Reserved)
		}
		return t
	}()
	// addedSets caches the tables of schemes a program registered that
	// state their reserved characters, by lower-case name.
	addedSets sync.Map
)

// decodeSetsOf returns the tables of u's scheme: the scheme's own when it
// says which characters it reserves (a partial URL has no scheme, so the
// generic ones).
func decodeSetsOf(u URL) decodeSets {
	if u.flags&hasScheme == 0 {
		return genericSets
	}
	name := u.RawScheme()
	if i := schemes.BuiltinIndex(name); i >= 0 {
		return builtinSets[i]
	}
	info, ok := schemes.Lookup(name)
	if !ok || !info.Reserved.Stated {
		return genericSets
	}
	if t, ok := addedSets.Load(info.Name); ok {
		return t.(decodeSets)
	}
	t, _ := addedSets.LoadOrStore(info.Name, setsFor(info.Reserved))
	return t.(decodeSets)
}

// Canonical returns u brought to one encoding level, so that two URLs that
// differ only in how they are written compare equal as strings:
//
//   - the scheme and host are in lower case;
//   - an escape of a character that is neither reserved nor unsafe is
//     decoded (%2D becomes "-"), except where decoding would change the
//     meaning: "%2E" stays when it would make a path segment "." or ".."
//     (RFC 1630 reserves those). Reserved means reserved by the URL's
//     scheme where its document says which characters it reserves (RFC
//     1738 2.2): in the url-path and search part of an http or https URL
//     "/", ";", "?" and "+" in the search (RFC 1738 3.3, RFC 1630), of an
//     ftp URL "/" and ";" (3.2.2), of a news URL "@" (3.6), and nothing in
//     a gopher or mailto URL (3.4.1, 3.5), so gopher://h/1a%3Fb is
//     gopher://h/1a?b (both send the selector "a?b"). Elsewhere, and for
//     the other schemes, RFC 1630's generic set: ";", "/", "?", ":", "@",
//     "=", "&", "%2B" in a search part (where "+" means a space), and "!"
//     and "*" (RFC 1630 reserves them for the schemes);
//   - every remaining escape is written with upper-case hex digits;
//   - a port with leading zeros loses them, and a port equal to the
//     scheme's default port is dropped;
//   - a file URL's host "localhost" (in any case) is written as the empty
//     host: RFC 1630 says "a void host field is equivalent to
//     "localhost"", and RFC 1738 3.10 gives both the same meaning, the
//     machine the URL is interpreted on;
//   - for the schemes that use the common Internet scheme syntax, an
//     omitted url-path is written as "/", since RFC 1738 lets the "/" be
//     omitted when the path is empty.
//
// Reserved characters are never decoded or encoded: %2F is not "/" (RFC
// 1630, Example 2). Canonical is idempotent. A URL already in canonical form
// is returned as it is, without allocating.
func Canonical(u URL) URL {
	if !needsCanon(u) {
		return u
	}
	decode := mayDecode(u)
	sets := decodeSetsOf(u)
	v, err := parseRefAs(canonString(u, sets, decode), u.flags)
	if decode && (err != nil || v.IsAbsolute() != u.IsAbsolute() || v.HasAuthority() != u.HasAuthority()) {
		// Decoding made a different structure (in a partial URL, "%41:"
		// would become a scheme): keep the escapes.
		v, err = parseRefAs(canonString(u, sets, false), u.flags)
	}
	if err != nil {
		// Decoding only unreserved characters cannot make a valid URL
		// invalid; keep u rather than lose it if that ever failed.
		return u
	}
	v.prefix = 0
	return v
}

// canonString writes u in canonical form, decoding unreserved escapes when
// decode is true: in the url-path and search part those sets marks.
func canonString(u URL, sets decodeSets, decode bool) string {
	var b strings.Builder
	b.Grow(len(u.s))
	if u.flags&hasScheme != 0 {
		b.WriteString(strings.ToLower(u.RawScheme()))
		b.WriteByte(':')
	}
	if u.flags&hasAuthority != 0 {
		b.WriteString("//")
		if u.flags&hasUser != 0 {
			canonPart(&b, u.user.of(u.s), canonDecode, decode)
			if u.flags&hasPassword != 0 {
				b.WriteByte(':')
				canonPart(&b, u.pass.of(u.s), canonDecode, decode)
			}
			b.WriteByte('@')
		}
		switch {
		case u.flags&hostLiteral != 0:
			var buf [64]byte
			b.Write(appendCanonLiteral(buf[:0], u.Host()))
		case !fileLocalhost(u):
			b.WriteString(strings.ToLower(u.Host()))
		}
		if port, ok := canonPort(u); ok {
			b.WriteByte(':')
			b.WriteString(port)
		}
		if u.flags&hasPath == 0 && ipScheme(u) {
			b.WriteByte('/')
		}
	}
	path, search, withSearch := pathAndSearch(u, sets)
	canonPath(&b, path, sets, decode)
	if withSearch {
		b.WriteByte('?')
		canonPart(&b, search, sets.search, decode)
	}
	if u.flags&hasFragment != 0 {
		b.WriteByte('#')
		canonPart(&b, u.frag.of(u.s), canonDecode, decode)
	}
	return b.String()
}

// Equal reports whether a and b are the same URL once both are brought to
// the same encoding level with [Canonical] (RFC 1630: "Before two URIs can
// be compared, it is therefore necessary to bring them to the same encoding
// level"). Fragments take part in the comparison.
func Equal(a, b URL) bool {
	if a.s == b.s {
		return true
	}
	return Canonical(a).s == Canonical(b).s
}

// mayDecode reports whether Canonical may decode u's unreserved escapes. An
// unknown scheme's "//..." that is not a login keeps its escapes (but for
// hex case): decoding could turn it into a login.
func mayDecode(u URL) bool {
	return u.flags&hasAuthority != 0 || !strings.HasPrefix(u.Opaque(), "//")
}

func ipScheme(u URL) bool {
	s := schemes.SyntaxOf(u.RawScheme())
	return u.flags&hasScheme != 0 && (s == schemes.IP || s == schemes.IPOptionalHost)
}

// canonPort returns the port as Canonical writes it, and whether to write
// one.
func canonPort(u URL) (string, bool) {
	p, ok := u.RawPort()
	if !ok {
		return "", false
	}
	p = strings.TrimLeft(p, "0")
	if p == "" {
		p = "0"
	}
	if d := schemes.DefaultPort(u.RawScheme()); d != 0 && p == strconv.Itoa(d) {
		return "", false
	}
	return p, true
}

// needsCanon reports whether Canonical would change u.
func needsCanon(u URL) bool {
	if u.prefix != 0 {
		return true
	}
	for i := 0; i < len(u.RawScheme()); i++ {
		if c := u.s[i]; 'A' <= c && c <= 'Z' {
			return true
		}
	}
	if fileLocalhost(u) {
		return true
	}
	host := u.Host()
	if u.flags&hostLiteral != 0 {
		var buf [64]byte
		if string(appendCanonLiteral(buf[:0], host)) != host {
			return true
		}
	}
	for i := 0; i < len(host); i++ {
		if c := host[i]; 'A' <= c && c <= 'Z' {
			return true
		}
	}
	if p, ok := u.RawPort(); ok {
		if q, keep := canonPort(u); !keep || q != p {
			return true
		}
	}
	if u.flags&hasAuthority != 0 && u.flags&hasPath == 0 && ipScheme(u) {
		return true
	}
	decode := mayDecode(u)
	sets := decodeSetsOf(u)
	// The path and search part by the scheme's tables; what comes before
	// them (the login) and the fragment by the generic one.
	path, search, withSearch := pathAndSearch(u, sets)
	end := len(u.s)
	switch {
	case u.flags&hasPath != 0:
		end = int(u.path.start)
	case u.flags&hasSearch != 0:
		end = int(u.search.start) - 1
	case u.flags&hasFragment != 0:
		end = int(u.frag.start) - 1
	}
	return needsPart(u.s[:end], canonDecode, decode) ||
		needsPath(path, sets, decode) ||
		withSearch && needsPart(search, sets.search, decode) ||
		needsPart(u.frag.of(u.s), canonDecode, decode)
}

// pathAndSearch returns u's url-path and search part as Canonical reads
// them: for a scheme that does not reserve "?" in its path, the search part
// is part of the path (ftp's fsegment, gopher's selector, news's article
// and mailto's address take "?" as data), so the path runs to the end of
// the search part and there is no search.
func pathAndSearch(u URL, sets decodeSets) (path, search string, withSearch bool) {
	path = u.path.of(u.s)
	if u.flags&hasSearch == 0 {
		return path, "", false
	}
	if !sets.path['?'] {
		return path, u.search.of(u.s), true
	}
	start := u.path.start
	if u.flags&hasPath == 0 {
		start = u.search.start - 1
	}
	return u.s[start:u.search.end], "", false
}

// needsPath reports whether canonPath would change p's escapes.
func needsPath(p string, sets decodeSets, decode bool) bool {
	if sets.param == sets.path || strings.IndexByte(p, ';') < 0 {
		return needsPart(p, sets.path, decode)
	}
	for len(p) > 0 {
		seg, rest, _ := strings.Cut(p, "/")
		k := strings.IndexByte(seg, ';')
		if k < 0 {
			k = len(seg)
		}
		if needsPart(seg[:k], sets.path, decode) || needsPart(seg[k:], sets.param, decode) {
			return true
		}
		p = rest
	}
	return false
}

// needsPart reports whether canonPart would change s.
func needsPart(s string, t *[256]bool, decode bool) bool {
	for i := strings.IndexByte(s, '%'); i >= 0 && i+2 < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		c := chars.Unhex(s[i+1])<<4 | chars.Unhex(s[i+2])
		if decode && t[c] || s[i+1] > 'F' || s[i+2] > 'F' {
			return true
		}
		i += 2
	}
	return false
}

// canonPart writes s with the escapes of the bytes t marks decoded and
// the others in upper case. With decode false, only the hex digits are
// brought to upper case.
func canonPart(b *strings.Builder, s string, t *[256]bool, decode bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' || i+2 >= len(s) {
			b.WriteByte(c)
			continue
		}
		d := chars.Unhex(s[i+1])<<4 | chars.Unhex(s[i+2])
		i += 2
		if decode && t[d] {
			b.WriteByte(d)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(chars.UpperHex[d>>4])
		b.WriteByte(chars.UpperHex[d&15])
	}
}

// canonPath writes a path segment by segment, keeping "%2E" where decoding
// it would make the segment "." or "..", and after a ";" the scheme
// reserves, decoding by the parameter's table.
func canonPath(b *strings.Builder, p string, sets decodeSets, decode bool) {
	for len(p) > 0 {
		k := strings.IndexByte(p, '/')
		seg := p
		if k >= 0 {
			seg = p[:k+1]
		}
		p = p[len(seg):]
		body := strings.TrimSuffix(seg, "/")
		if isDotSegment(body) {
			for i := 0; i < len(body); i++ {
				if body[i] == '%' {
					b.WriteString("%2E")
					i += 2
				} else {
					b.WriteByte('.')
				}
			}
			b.WriteString(seg[len(body):])
			continue
		}
		if k := strings.IndexByte(seg, ';'); k >= 0 && !sets.path[';'] {
			canonPart(b, seg[:k], sets.path, decode)
			canonPart(b, seg[k:], sets.param, decode)
			continue
		}
		canonPart(b, seg, sets.path, decode)
	}
}

// isDotSegment reports whether seg, decoded, is "." or "..", written with
// at least one escape.
func isDotSegment(seg string) bool {
	n, esc := 0, false
	for i := 0; i < len(seg); i++ {
		switch {
		case seg[i] == '.':
		case seg[i] == '%' && i+2 < len(seg) && seg[i+1] == '2' && (seg[i+2] == 'E' || seg[i+2] == 'e'):
			esc = true
			i += 2
		default:
			return false
		}
		n++
	}
	return esc && (n == 1 || n == 2)
}

// fileLocalhost reports whether u is a file URL whose host is "localhost",
// which Canonical writes as the empty host (RFC 1630, RFC 1738 3.10).
func fileLocalhost(u URL) bool {
	return u.flags&hasAuthority != 0 && strings.EqualFold(u.Host(), "localhost") && strings.EqualFold(u.RawScheme(), "file")
}

// appendCanonLiteral appends an IPv6 literal host ("[2001:DB8:0::1]") in
// the text form of RFC 5952 section 4: lower-case hex, no leading zeros,
// the longest run of two or more zero fields as "::" (the first of equal
// runs), and an IPv4-mapped address with its IPv4 part dotted (section 5).
// net/netip writes exactly that form.
func appendCanonLiteral(b []byte, h string) []byte {
	a, err := netip.ParseAddr(h[1 : len(h)-1])
	if err != nil {
		return append(b, h...) // the parser has checked it; keep it should that ever fail
	}
	return append(a.AppendTo(append(b, '[')), ']')
}
