// Package lenient is urlkit's one lenient reading of URLs: what browsers,
// mail readers and crawlers take as a URL, repaired into a URL of urlkit's
// extended syntax ([urlkit.ParseExtended]), with every repair reported. The
// command line's --lenient flag (on every command that takes URLs), the
// gateway's URL box, the link-set steps (linkset, and so the Beam
// pipeline) and the free-text extractor all call [Parse] or [ParseRef], so
// that they cannot disagree about what a line means.
//
// It repairs, each repair a [urlkit.Warning] with the byte offset in the
// input:
//
//   - leading and trailing spaces and control characters: removed;
//   - spaces, control characters, national characters ("{", "|", "~"...),
//     "<", ">", <">, non-ASCII bytes and a "#" after the first, in the
//     user, password, path, search part and fragment: percent-encoded, as
//     RFC 1738 section 2.2 says they must be; a ":" or "@" inside a user
//     name or password too (the last "@" ends the login, as browsers read
//     it);
//   - a "%" that does not start an escape: encoded as "%25";
//   - an international host name: mapped to its A-labels by IDNA (UTS #46
//     processing, non-transitional, as the WHATWG URL Standard's "domain
//     to ASCII" does it, through golang.org/x/net/idna); a host written
//     with escapes is decoded first; every A-label ("xn--" and Punycode,
//     in any host, ASCII or not) is decoded and validated as UTS #46
//     section 4 does, so "xn--ab-j1t" (a ZWNJ out of context, C1) is an
//     error, though RFC 1738's grammar takes it;
//   - a host number in one of the forms browsers take (hexadecimal or
//     octal parts, fewer than four parts: "0x7f.1", "2130706433"): written
//     as four decimal parts, the form of RFC 1738 3.1;
//   - a ":" with no port after it: removed;
//   - a search part written straight after the host ("http://host?q"):
//     the "/" that RFC 1738 section 3.1 puts before the url-path is added;
//   - the "?" of a gopher search item (type 7: "gopher://host/7/find?words"),
//     read as lynx reads it: as the start of the search, written %09 (RFC
//     1738 3.4), where the strict reading takes it into the selector.
//
// It accepts, each with a warning saying which later standard it follows:
// an IPv6 literal host ("[::1]", RFC 3986 3.2.2), a user name and password
// in an http or https URL (RFC 3986 3.2.1), and "/" and "?" in an http
// search part (RFC 3986 3.4); the scheme package reports the last two
// (scheme.Relaxed).
//
// What cannot be repaired without guessing stays an error, with its offset
// in the input: a missing scheme, a host that is not a host name even
// after IDNA ("a_b", "exa mple.com", a trailing "."), an IPv6 zone
// identifier, a port that is not digits. The result is what
// [urlkit.ParseExtended] returns for the repaired text, and always reports
// [urlkit.URL.Extended].
//
// Why a package of its own: IDNA needs Unicode's mapping tables, which
// golang.org/x/net/idna keeps up to date, and urlkit's core package depends
// on the standard library only. The core offers the extended syntax (the
// IPv6 literal, parsed without allocating beyond the strict parser's
// path); this package turns real-world text into it.
package lenient

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/scheme"
	"golang.org/x/net/idna"
)

// Parse reads s as an absolute URL leniently (see the package comment). A
// URL that [urlkit.Parse] accepts comes back as it is, with no warnings
// other than the scheme's relaxed rules, except a gopher search item's
// "?" (gopherSearch).
func Parse(s string) (urlkit.URL, []urlkit.Warning, error) { return read(s, false) }

// ParseRef is [Parse] for a URL or a partial URL (RFC 1630's partial
// form, as [urlkit.ParseRef] takes it): a base or a reference to resolve.
func ParseRef(s string) (urlkit.URL, []urlkit.Warning, error) { return read(s, true) }

// Repairs reads s as [Parse] does (as [ParseRef], with partialOK) and
// returns the URL with the number of warnings Parse would return, without
// writing their texts: for a strict reader that says what the lenient
// reading makes of an input it rejects, cheaply enough to say it for every
// rejected line of a stream.
func Repairs(s string, partialOK bool) (urlkit.URL, int, error) {
	u, warns, n, err := readQuiet(s, partialOK, true)
	return u, len(warns) + n, err
}

// RepairsRejected is [Repairs] for a text that the strict parser has
// rejected ([urlkit.Parse], or [urlkit.ParseRef] with partialOK), as a
// strict reader's hint has it: the same answer, without first reading s
// by the extended syntax when that would fail too (s holds no "[": the
// extended syntax adds only the IPv6 literal host). TestRepairsRejected
// holds it to Repairs.
func RepairsRejected(s string, partialOK bool) (urlkit.URL, int, error) {
	u, warns, n, err := readRejected(s, partialOK, true, true)
	return u, len(warns) + n, err
}

// profile is IDNA as the WHATWG URL Standard's "domain to ASCII" runs it:
// UTS #46 with CheckHyphens, UseSTD3ASCIIRules, Transitional_Processing
// and VerifyDnsLength off, CheckBidi and CheckJoiners on. The host that
// comes out must still be a host name of RFC 1738 3.1, which the core
// parser checks afterwards.
var profile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.Transitional(false),
	idna.CheckHyphens(false),
	idna.CheckJoiners(true),
	idna.StrictDomainName(false),
	idna.VerifyDNSLength(false),
)

// ToASCII maps a host name to ASCII as the lenient reading does: UTS #46
// processing as the WHATWG URL Standard's "domain to ASCII" runs it. It
// does not check RFC 1738's host rule.
func ToASCII(host string) (string, error) { return profile.ToASCII(host) }

// reader holds one lenient reading under way.
type reader struct {
	in    string
	out   []byte
	orig  []int // the input offset each byte of out came from
	warns []urlkit.Warning
	// idnaErr is IDNA's refusal of the host, reported when the parser
	// refuses the host too.
	idnaErr *urlkit.SyntaxError
	// labelErr is UTS #46's refusal of an A-label ("xn--...") of a host
	// that RFC 1738's grammar accepts: reported even when the parser
	// accepts the host.
	labelErr *urlkit.SyntaxError
	// quiet: count the warnings in n instead of writing them (Repairs).
	quiet bool
	n     int
}

// readers holds idle readers with their buffers.
var readers = sync.Pool{New: func() any { return new(reader) }}

// maxPooled is the largest buffer a reader keeps when it goes back to the
// pool: a rare long line does not pin its buffers.
const maxPooled = 4 << 10

// release empties r and returns it to the pool. The warnings went to the
// caller and are not reused.
func (r *reader) release() {
	out, orig := r.out[:0], r.orig[:0]
	if cap(out) > maxPooled {
		out, orig = nil, nil
	}
	*r = reader{out: out, orig: orig}
	readers.Put(r)
}

func (r *reader) warn(off int, c urlkit.Component, format string, args ...any) {
	if r.quiet {
		r.n++
		return
	}
	r.warns = append(r.warns, urlkit.Warning{Offset: off, Component: c, Reason: fmt.Sprintf(format, args...)})
}

// put appends text to out, every byte from input offset from.
func (r *reader) put(from int, text string) {
	r.out = append(r.out, text...)
	o := r.grow(len(text))
	for k := range o {
		o[k] = from
	}
}

// copyIn appends r.in[i:j] to out, byte for byte.
func (r *reader) copyIn(i, j int) {
	r.out = append(r.out, r.in[i:j]...)
	o := r.grow(j - i)
	for k := range o {
		o[k] = i + k
	}
}

// grow lengthens orig by n and returns the new entries to fill.
func (r *reader) grow(n int) []int {
	l := len(r.orig)
	r.orig = slices.Grow(r.orig, n)[:l+n]
	return r.orig[l:]
}

func read(s string, partialOK bool) (urlkit.URL, []urlkit.Warning, error) {
	u, warns, _, err := readQuiet(s, partialOK, false)
	return u, warns, err
}

// readQuiet is read; with quiet, the warnings of the repairs are only
// counted (the count is returned, the warnings are those of relaxed).
func readQuiet(s string, partialOK, quiet bool) (urlkit.URL, []urlkit.Warning, int, error) {
	return readRejected(s, partialOK, quiet, false)
}

// readRejected is readQuiet; rejected says that the strict parser
// (urlkit.Parse, or ParseRef with partialOK) has refused s, so that the
// extended syntax is not tried on s as it is when it cannot accept it
// either: it differs from the strict one only in the IPv6 literal host,
// "[" address "]", and a text without "[" fails both alike.
func readRejected(s string, partialOK, quiet, rejected bool) (urlkit.URL, []urlkit.Warning, int, error) {
	parse := urlkit.ParseExtended
	if partialOK {
		parse = urlkit.ParseRefExtended
	}
	if !rejected || strings.IndexByte(s, '[') >= 0 {
		if u, err := parse(s); err == nil {
			if h := u.Host(); hasALabel(h) {
				at, _, _ := u.Span(urlkit.ComponentHost)
				if err := checkALabels(s, at, h); err != nil {
					return urlkit.URL{}, nil, 0, err
				}
			}
			var warns []urlkit.Warning
			n := 0
			if gu, q, ok := gopherSearch(u, parse); ok {
				u, n = gu, 1
				if !quiet {
					warns = append(warns, gopherSearchWarning(q))
				}
			}
			return u, append(warns, relaxed(u, nil)...), n, nil
		}
	}
	// The reader and its buffers come from a pool: finish copies what it
	// keeps (the repaired text) and hands the warnings over, so a reading
	// costs no allocation of its own beyond those (Repairs runs on every
	// line a strict reader rejects).
	r := readers.Get().(*reader)
	defer r.release()
	r.in, r.quiet = s, quiet

	// What surrounds the URL.
	start, end := 0, len(s)
	for start < end && chars.Table[s[start]]&(chars.Space|chars.Control) != 0 {
		start++
	}
	for end > start && chars.Table[s[end-1]]&(chars.Space|chars.Control) != 0 {
		end--
	}
	if start > 0 {
		r.warn(0, urlkit.ComponentNone, "removed %d leading space or control bytes", start)
	}
	if end < len(s) {
		r.warn(end, urlkit.ComponentNone, "removed %d trailing space or control bytes", len(s)-end)
	}

	// The scheme (after any "URL:" prefix), then the login when there is
	// "//" in a scheme that has one.
	i := start
	if end-i > 4 && strings.EqualFold(s[i:i+4], "url:") && schemeEnd(s, i+4, end) > 0 {
		r.copyIn(i, i+4)
		i += 4
	}
	ipSyntax := false
	if k := schemeEnd(s, i, end); k > 0 {
		r.copyIn(i, k+1)
		name := s[i:k]
		i = k + 1
		if sc, _ := scheme.Lookup(name); sc != nil {
			switch sc.Info().Syntax {
			case scheme.SyntaxOpaque:
				// mailto:, news: and the like: no login to read.
				r.rest(i, end)
				return r.finishQuiet(parse)
			case scheme.SyntaxIP, scheme.SyntaxIPOptionalHost:
				ipSyntax = true
			}
		}
	} else if !partialOK {
		// No scheme: nothing to repair without guessing; the parser's
		// error says what is missing.
		r.rest(i, end)
		return r.finishQuiet(parse)
	}
	if end-i >= 2 && s[i] == '/' && s[i+1] == '/' {
		r.copyIn(i, i+2)
		i = r.login(i+2, end, ipSyntax)
	}
	r.rest(i, end)
	return r.finishQuiet(parse)
}

// finishQuiet is finish, with the count of the warnings only counted.
func (r *reader) finishQuiet(parse func(string) (urlkit.URL, error)) (urlkit.URL, []urlkit.Warning, int, error) {
	u, warns, err := r.finish(parse)
	return u, warns, r.n, err
}

// schemeEnd returns the offset of the ":" ending a scheme name that starts
// at i, or -1.
func schemeEnd(s string, i, end int) int {
	k := i
	for k < end && chars.Table[s[k]]&chars.SchemeChar != 0 {
		k++
	}
	if k == i || k == end || s[k] != ':' || chars.Table[s[i]]&chars.Alpha == 0 {
		return -1
	}
	return k
}

// loginBytes are the bytes a user name or password holds unencoded:
// uchar | ";" | "?" | "&" | "=" (RFC 1738 5).
var loginBytes = func() (t [256]bool) {
	for b := range t {
		t[b] = chars.Table[b]&chars.Unreserved != 0 || strings.IndexByte(";?&=", byte(b)) >= 0
	}
	return
}()

// login repairs the login that starts at i (after "//") and returns where
// it ends: at the first "/", "?" or "#", as browsers end it.
func (r *reader) login(i, end int, ipSyntax bool) int {
	s := r.in
	e := i
	for e < end && s[e] != '/' && s[e] != '?' && s[e] != '#' {
		e++
	}
	h := i
	if at := strings.LastIndexByte(s[i:e], '@'); at >= 0 {
		// user [":" password] "@": the first ":" separates them, the last
		// "@" ends the login; anything else the login may not hold is
		// encoded.
		at += i
		colon := strings.IndexByte(s[i:at], ':')
		if colon >= 0 {
			colon += i
		}
		for k := i; k < at; k++ {
			c := s[k]
			if loginBytes[c] {
				// A run of bytes that stay as they are (":" is not one
				// of them, so the run stops at the colon).
				j := k
				for j < at && loginBytes[s[j]] {
					j++
				}
				if j > k {
					r.copyIn(k, j)
					k = j - 1
					continue
				}
			}
			comp := urlkit.ComponentUser
			if colon >= 0 && k > colon {
				comp = urlkit.ComponentPassword
			}
			switch {
			case k == colon:
				r.copyIn(k, k+1)
			case c == '%' && chars.IsEscape(s[:at], k):
				r.copyIn(k, k+3)
				k += 2
			case c == '%':
				r.warn(k, comp, `"%%" not followed by two hex digits: encoded as %%25`)
				r.put(k, "%25")
			case loginBytes[c]:
				r.copyIn(k, k+1)
			default:
				r.encode(k, comp)
			}
		}
		r.copyIn(at, at+1)
		h = at + 1
	}
	// The host, then any port.
	p := e // the ":" before the port, or e
	if h < e && s[h] == '[' {
		if rb := strings.IndexByte(s[h:e], ']'); rb >= 0 {
			p = h + rb + 1
		}
		r.copyIn(h, p)
	} else {
		if c := strings.IndexByte(s[h:e], ':'); c >= 0 {
			p = h + c
		}
		r.host(h, p)
	}
	switch {
	case p == e:
	case p+1 == e:
		r.warn(p, urlkit.ComponentPort, `removed ":" with no port after it`)
	default:
		r.copyIn(p, e)
	}
	if e < end && s[e] == '?' && ipSyntax {
		r.warn(e, urlkit.ComponentHost, `inserted "/" before the search part`)
		r.put(e, "/")
	}
	return e
}

// host repairs the host s[h:e]: an international name (or one written
// with escapes) is mapped by IDNA, a host number in a browser's form is
// written in RFC 1738's. Anything else is copied for the parser to judge.
func (r *reader) host(h, e int) {
	s := r.in
	name := s[h:e]
	if name == "" || validHost(name) {
		r.copyIn(h, e)
		if hasALabel(name) {
			r.labelErr = checkALabels(s, h, name)
		}
		return
	}
	mapped := name
	if strings.IndexByte(name, '%') >= 0 || !isASCII(name) {
		decoded := name
		if strings.IndexByte(name, '%') >= 0 {
			b, ok := chars.AppendUnescape(nil, name)
			if !ok {
				r.copyIn(h, e) // a bad escape: the parser explains
				return
			}
			decoded = string(b)
		}
		if !utf8.ValidString(decoded) {
			r.copyIn(h, e)
			at := h
			if decoded == name {
				for at < e {
					c, n := utf8.DecodeRuneInString(s[at:e])
					if c == utf8.RuneError && n <= 1 {
						break
					}
					at += n
				}
			}
			r.idnaErr = &urlkit.SyntaxError{Input: s, Offset: at, Component: urlkit.ComponentHost, Err: urlkit.ErrBadHost,
				Detail: fmt.Sprintf("%q is not UTF-8: IDNA maps the Unicode characters of a host name, and RFC 1738 3.1 allows only letters, digits, \"-\" and \".\"", name)}
			return
		}
		a, err := profile.ToASCII(decoded)
		if err == nil {
			err = checkV4(a)
		}
		if err != nil || a == "" {
			r.copyIn(h, e) // the parser names the first byte it refuses
			if err != nil {
				r.idnaErr = &urlkit.SyntaxError{Input: s, Offset: h, Component: urlkit.ComponentHost, Err: urlkit.ErrBadHost,
					Detail: fmt.Sprintf("%q is not a host name IDNA can map (UTS #46): %v", name, err)}
			}
			return
		}
		mapped = a
	}
	if v4, ok := ipv4(mapped); ok && !validHost(mapped) {
		r.warn(h, urlkit.ComponentHost, "host number %q read as %s, as browsers read it (hexadecimal, octal and short forms; RFC 1738 3.1 writes four decimal parts)", name, v4)
		r.put(h, v4)
		return
	}
	if mapped == name {
		r.copyIn(h, e) // the parser names the first byte it refuses
		return
	}
	r.warn(h, urlkit.ComponentHost, "host name %q mapped to %q by IDNA (UTS #46; RFC 1738 3.1 names hosts in ASCII)", name, mapped)
	r.put(h, mapped)
}

// hasALabel reports whether a label of the host name h starts with the
// ACE prefix "xn--" (in any case): an A-label, which UTS #46 decodes and
// validates.
func hasALabel(h string) bool {
	for i := 0; i+4 <= len(h); i++ {
		if (i == 0 || h[i-1] == '.') && h[i+2] == '-' && h[i+3] == '-' && h[i]|0x20 == 'x' && h[i+1]|0x20 == 'n' {
			return true
		}
	}
	return false
}

// checkALabels validates the A-labels of name, an ASCII host name at
// offset h of s, as UTS #46 section 4 (Processing) does each label that
// starts with "xn--": decoded by Punycode, then held to the validity
// criteria of section 4.1 and the rules CheckJoiners and CheckBidi
// (RFC 5892 appendix A, RFC 5893) bring in, the checks the lenient
// reading's profile makes (golang.org/x/net/idna). RFC 1738 3.1 knows no
// IDNA, so the strict parser takes any such label; the lenient reading,
// which maps international names by IDNA, refuses the ones IDNA refuses
// (WPT's IdnaTestV2: "xn--ab-j1t" is an error, C1). It returns nil when
// they are valid.
func checkALabels(s string, h int, name string) *urlkit.SyntaxError {
	_, err := profile.ToASCII(name)
	if err == nil {
		err = checkV4(name)
	}
	if err == nil {
		return nil
	}
	// Name the first A-label refused on its own; a rule over the whole
	// name (CheckBidi) is put at the host's start.
	at, label := h, name
	for off := 0; off < len(name); {
		lab, _, _ := strings.Cut(name[off:], ".")
		if hasALabel(lab) {
			if _, e := profile.ToASCII(lab); e != nil || checkV4(lab) != nil {
				if e == nil {
					e = checkV4(lab)
				}
				at, label, err = h+off, lab, e
				break
			}
		}
		off += len(lab) + 1
	}
	return &urlkit.SyntaxError{Input: s, Offset: at, Component: urlkit.ComponentHost, Err: urlkit.ErrBadHost,
		Detail: fmt.Sprintf("%q starts with \"xn--\", so IDNA reads it as an A-label, and UTS #46 (section 4) refuses it: %v", label, err)}
}

// checkV4 applies UTS #46's validity criterion V4 (section 4.1, since
// Unicode 15.1), which golang.org/x/net/idna does not: with CheckHyphens
// off, a label must not begin with "xn--", so an A-label must not decode
// to one that does ("xn--xn--a--gua" decodes to "xn--a-ä").
func checkV4(name string) error {
	for _, lab := range strings.Split(name, ".") {
		if !hasALabel(lab) {
			continue
		}
		if u, err := idna.Punycode.ToUnicode(strings.ToLower(lab)); err == nil && hasALabel(u) {
			return fmt.Errorf("the label decodes to %q, which begins with \"xn--\" (UTS #46 4.1, V4)", u)
		}
	}
	return nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// validHost reports whether h is a host RFC 1738 3.1 accepts.
func validHost(h string) bool {
	return urlkit.CheckComponent(urlkit.ComponentHost, h) == nil
}

// ipv4 reads h as the WHATWG URL Standard's IPv4 parser does (the forms of
// inet_aton: one to four parts, each decimal, octal with a leading "0" or
// hexadecimal with "0x"; the last part fills the remaining bytes), when the
// last label is a number. It returns the address as four decimal parts.
func ipv4(h string) (string, bool) {
	h = strings.TrimSuffix(h, ".")
	parts := strings.Split(h, ".")
	if len(parts) > 4 || !isNumber(parts[len(parts)-1]) {
		return "", false
	}
	var n []uint64
	for _, p := range parts {
		v, ok := ipv4Number(p)
		if !ok {
			return "", false
		}
		n = append(n, v)
	}
	var addr uint64
	for k, v := range n[:len(n)-1] {
		if v > 255 {
			return "", false
		}
		addr |= v << (8 * (3 - k))
	}
	last := n[len(n)-1]
	if last >= 1<<(8*(5-len(n))) {
		return "", false
	}
	addr |= last
	return fmt.Sprintf("%d.%d.%d.%d", addr>>24, addr>>16&255, addr>>8&255, addr&255), true
}

// isNumber is the URL Standard's "ends in a number" test of one label.
func isNumber(p string) bool {
	if p == "" {
		return false
	}
	if len(p) >= 2 && p[0] == '0' && p[1]|0x20 == 'x' {
		for i := 2; i < len(p); i++ {
			if chars.Table[p[i]]&chars.HexDigit == 0 {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return false
		}
	}
	return true
}

// ipv4Number reads one part of a host number as the URL Standard does.
func ipv4Number(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(p) >= 2 && p[0] == '0' && p[1]|0x20 == 'x':
		p, base = p[2:], 16
		if p == "" {
			return 0, true
		}
	case len(p) >= 2 && p[0] == '0':
		p, base = p[1:], 8
	}
	v, err := strconv.ParseUint(p, base, 64)
	if err != nil || v > 1<<32 {
		return 0, false
	}
	return v, true
}

// rest repairs the url-path, search part and fragment (or the
// scheme-specific part) from i: every byte RFC 1738 does not allow
// unencoded is encoded.
func (r *reader) rest(i, end int) {
	s := r.in
	inFragment := false
	for ; i < end; i++ {
		// A run of bytes that stay as they are, copied at once.
		if j := i; chars.Table[s[j]]&chars.Xchar != 0 {
			for j < end && chars.Table[s[j]]&chars.Xchar != 0 {
				j++
			}
			r.copyIn(i, j)
			i = j - 1
			continue
		}
		c := s[i]
		switch {
		case c == '#' && !inFragment:
			inFragment = true
			r.copyIn(i, i+1)
		case c == '%':
			if chars.IsEscape(s[:end], i) {
				r.copyIn(i, i+3)
				i += 2
				continue
			}
			r.warn(i, urlkit.ComponentNone, `"%%" not followed by two hex digits: encoded as %%25`)
			r.put(i, "%25")
		default:
			r.encode(i, urlkit.ComponentNone)
		}
	}
}

// encode writes the byte at i as an escape, with its warning.
func (r *reader) encode(i int, comp urlkit.Component) {
	c := r.in[i]
	r.out = append(r.out, '%', chars.UpperHex[c>>4], chars.UpperHex[c&15])
	r.orig = append(r.orig, i, i, i)
	if r.quiet {
		r.n++
		return
	}
	what := "unsafe character"
	switch {
	case chars.Table[c]&chars.Space != 0:
		what = "space"
	case chars.Table[c]&chars.Control != 0:
		what = "control character"
	case chars.Table[c]&chars.NonASCII != 0:
		what = "non-ASCII byte"
	case c == '#':
		what = `second "#"`
	case c == ':' || c == '@':
		what = fmt.Sprintf("%q in the login", string(rune(c)))
	}
	r.warn(i, comp, "%s 0x%02X encoded as %%%02X", what, c, c)
}

// finish parses the repaired text and puts the warnings in the
// components their bytes ended up in.
func (r *reader) finish(parse func(string) (urlkit.URL, error)) (urlkit.URL, []urlkit.Warning, error) {
	text := string(r.out)
	u, err := parse(text)
	if err != nil {
		var se *urlkit.SyntaxError
		if hostErr := r.idnaErr; r.labelErr != nil || hostErr != nil {
			if hostErr == nil {
				hostErr = r.labelErr
			}
			if errors.As(err, &se) && se.Component == urlkit.ComponentHost {
				return urlkit.URL{}, r.warns, hostErr
			}
		}
		return urlkit.URL{}, r.warns, r.mapError(err)
	}
	if r.labelErr != nil {
		return urlkit.URL{}, r.warns, r.labelErr
	}
	for k := range r.warns {
		w := &r.warns[k]
		if w.Component != urlkit.ComponentNone {
			continue
		}
		// orig never decreases: the first output byte from the warning's
		// offset is found by binary search.
		if j, ok := search(r.orig, w.Offset); ok {
			w.Component = componentAt(u, j)
		}
	}
	if gu, q, ok := gopherSearch(u, parse); ok {
		u = gu
		if r.quiet {
			r.n++
		} else {
			r.warns = append(r.warns, gopherSearchWarning(r.origAt(q)))
		}
	}
	return u, relaxed(u, r), nil
}

// gopherSearch reads the "?" of a gopher search item's URL (type 7) as
// the start of its search, as lynx and Floodgap's users write one
// ("gopher://host/7/search?words"): RFC 1738 3.4 has no "?" in a gopher
// URL (a selector may hold one, and the search follows %09), so the
// strict reading sends "/search?words" as the selector. It returns the
// URL with that "?" written as %09 and the "?"'s offset in u, or false
// when u is not such a URL (another type, or a search already after
// %09).
func gopherSearch(u urlkit.URL, parse func(string) (urlkit.URL, error)) (urlkit.URL, int, bool) {
	if u.Scheme() != "gopher" {
		return u, 0, false
	}
	p, _ := u.Path()
	if _, has := u.Search(); !has || len(p) == 0 || p[0] != '7' || strings.Contains(p, "%09") {
		return u, 0, false
	}
	start, _, _ := u.Span(urlkit.ComponentSearch)
	s := u.String()
	q := strings.LastIndexByte(s[:start], '?')
	if q < 0 {
		return u, 0, false
	}
	gu, err := parse(s[:q] + "%09" + s[q+1:])
	if err != nil {
		return u, 0, false
	}
	return gu, q, true
}

// gopherSearchWarning is the repair gopherSearch makes, at offset off of
// the input.
func gopherSearchWarning(off int) urlkit.Warning {
	return urlkit.Warning{Offset: off, Component: urlkit.ComponentPath,
		Reason: `"?" of a gopher search item (type 7) read as the start of its search, written %09, as lynx reads it (RFC 1738 3.4: the search follows %09)`}
}

// relaxed appends the warnings of what u takes from later standards: an
// IPv6 literal host, then the scheme's relaxed rules (scheme.Relaxed,
// which come last), with offsets brought back to the input when r
// repaired it.
func relaxed(u urlkit.URL, r *reader) []urlkit.Warning {
	var warns []urlkit.Warning
	if r != nil {
		warns = r.warns
	}
	if u.HostIsIPv6() {
		off, _, _ := u.Span(urlkit.ComponentHost)
		if r != nil {
			off = r.origAt(off)
		}
		warns = append(warns, urlkit.Warning{Offset: off, Component: urlkit.ComponentHost,
			Reason: "IPv6 literal host: RFC 1738 has none; read as RFC 3986 3.2.2 writes it"})
	}
	for _, w := range scheme.Relaxed(u) {
		if r != nil {
			w.Offset = r.origAt(w.Offset)
		}
		warns = append(warns, w)
	}
	return warns
}

func search(orig []int, off int) (int, bool) {
	lo, hi := 0, len(orig)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if orig[m] < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(orig) && orig[lo] == off
}

// origAt maps an offset in the repaired text to the input.
func (r *reader) origAt(off int) int {
	if off >= 0 && off < len(r.orig) {
		return r.orig[off]
	}
	return len(r.in)
}

// mapError rewrites a SyntaxError about the repaired text so that it
// speaks of the input.
func (r *reader) mapError(err error) error {
	var se *urlkit.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	c := *se
	c.Input = r.in
	c.Offset = r.origAt(se.Offset)
	if c.Detail == "" {
		// The derived explanation quotes the byte at the offset: fix it
		// now, from the repaired text it was about.
		c.Detail = se.Reason()
	}
	return &c
}

// componentAt returns the component that byte off of the text u was
// parsed from (any "URL:" prefix included) lies in, by the parser's
// offsets (urlkit.URL.Span).
func componentAt(u urlkit.URL, off int) urlkit.Component {
	last := urlkit.ComponentOpaque // the scheme-specific part of a URL without "//"
	if u.HasAuthority() || !u.IsAbsolute() {
		last = urlkit.ComponentPath
	}
	for _, c := range [...]urlkit.Component{urlkit.ComponentPrefix, urlkit.ComponentScheme, urlkit.ComponentUser, urlkit.ComponentPassword,
		urlkit.ComponentHost, urlkit.ComponentPort, urlkit.ComponentSearch, urlkit.ComponentFragment, last} {
		if start, end, ok := u.Span(c); ok && start <= off && off < end {
			return c
		}
	}
	return urlkit.ComponentNone
}
