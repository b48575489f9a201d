package urlkit

import (
	"net/netip"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/schemes"
)

// canonDecode marks the bytes whose escapes Canonical decodes: characters
// that are neither reserved nor unsafe. RFC 1630 ("Encoding reserved
// characters") says a URI may be made safer by encoding such characters, or
// expanded by decoding them, without changing it; reserved characters "may
// NEVER be encoded and unencoded in this way".
//
// RFC 1630 also reserves "*" and "!" for special significance within
// specific schemes (news:* names every group), so their escapes are kept;
// "+" is kept encoded in a search part, where RFC 1630 makes it the
// shorthand for a space.
var canonDecode = func() (t [256]bool) {
	for b := 0; b < 256; b++ {
		t[b] = chars.Table[b]&(chars.Alpha|chars.Digit) != 0 || strings.IndexByte("$-_.+'(),", byte(b)) >= 0
	}
	return t
}()

// Canonical returns u brought to one encoding level, so that two URLs that
// differ only in how they are written compare equal as strings:
//
//   - the scheme and host are in lower case;
//   - an escape of a character that is neither reserved nor unsafe is
//     decoded (%2D becomes "-"), except where decoding would change the
//     meaning: "%2E" stays when it would make a path segment "." or ".."
//     (RFC 1630 reserves those), "%2B" stays in a search part (where "+"
//     means a space), and "%21" and "%2A" stay (RFC 1630 reserves "!" and
//     "*" for the schemes);
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
	v, err := parseRefAs(canonString(u, decode), u.flags)
	if decode && (err != nil || v.IsAbsolute() != u.IsAbsolute() || v.HasAuthority() != u.HasAuthority()) {
		// Decoding made a different structure (in a partial URL, "%41:"
		// would become a scheme): keep the escapes.
		v, err = parseRefAs(canonString(u, false), u.flags)
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
// decode is true.
func canonString(u URL, decode bool) string {
	var b strings.Builder
	b.Grow(len(u.s))
	if u.flags&hasScheme != 0 {
		b.WriteString(strings.ToLower(u.RawScheme()))
		b.WriteByte(':')
	}
	if u.flags&hasAuthority != 0 {
		b.WriteString("//")
		if u.flags&hasUser != 0 {
			canonPart(&b, u.user.of(u.s), false, decode)
			if u.flags&hasPassword != 0 {
				b.WriteByte(':')
				canonPart(&b, u.pass.of(u.s), false, decode)
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
	canonPath(&b, u.path.of(u.s), decode)
	if u.flags&hasSearch != 0 {
		b.WriteByte('?')
		canonPart(&b, u.search.of(u.s), true, decode)
	}
	if u.flags&hasFragment != 0 {
		b.WriteByte('#')
		canonPart(&b, u.frag.of(u.s), false, decode)
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
	for i := 0; i < len(u.s); i++ {
		if u.s[i] == '%' && i+2 < len(u.s) {
			c := chars.Unhex(u.s[i+1])<<4 | chars.Unhex(u.s[i+2])
			if decode && canonDecode[c] || u.s[i+1] > 'F' || u.s[i+2] > 'F' {
				return true
			}
			i += 2
		}
	}
	return false
}

// canonPart writes s with unreserved escapes decoded and the others in
// upper case. In a search part "+" stays encoded. With decode false, only
// the hex digits are brought to upper case.
func canonPart(b *strings.Builder, s string, search, decode bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' || i+2 >= len(s) {
			b.WriteByte(c)
			continue
		}
		d := chars.Unhex(s[i+1])<<4 | chars.Unhex(s[i+2])
		i += 2
		if decode && canonDecode[d] && !(search && d == '+') {
			b.WriteByte(d)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(chars.UpperHex[d>>4])
		b.WriteByte(chars.UpperHex[d&15])
	}
}

// canonPath writes a path segment by segment, keeping "%2E" where decoding
// it would make the segment "." or "..".
func canonPath(b *strings.Builder, p string, decode bool) {
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
		canonPart(b, seg, false, decode)
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
