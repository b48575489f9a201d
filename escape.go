package urlkit

import (
	"fmt"
	"strings"
)

// An EscapeSet says which bytes [Escape] leaves as they are; every other
// byte is written as "%" and two upper-case hex digits. The predefined sets
// follow the component rules of RFC 1738 section 5.
type EscapeSet struct {
	name string
	keep [256]bool
}

// NewEscapeSet returns a set that keeps the bytes of the given classes and
// the bytes of extra unencoded, and encodes every other byte. "%" is always
// encoded, because it is used only for escapes (RFC 1630).
func NewEscapeSet(name string, classes Class, extra string) *EscapeSet {
	e := &EscapeSet{name: name}
	for b := 0; b < 256; b++ {
		e.keep[b] = table[b]&classes != 0
	}
	for i := 0; i < len(extra); i++ {
		e.keep[extra[i]] = true
	}
	e.keep['%'] = false
	return e
}

// Name returns the set's name, as used by the command line ("segment").
func (e *EscapeSet) Name() string { return e.name }

// Keeps reports whether the set leaves byte b unencoded.
func (e *EscapeSet) Keeps(b byte) bool { return e.keep[b] }

// The predefined escape sets.
var (
	// EscapeUnreserved keeps only RFC 1738's unreserved characters
	// (alpha, digit, safe, extra) and encodes everything else, reserved
	// characters included: the safe choice for data of any component.
	EscapeUnreserved = NewEscapeSet("unreserved", Unreserved, "")
	// EscapeLogin is for a user name or password: uchar | ";" | "?" | "&"
	// | "=" (RFC 1738 section 5), so ":", "@" and "/" are encoded.
	EscapeLogin = NewEscapeSet("login", Unreserved, ";?&=")
	// EscapeSegment is for one path segment of any scheme: it keeps the
	// characters that both fsegment and hsegment allow (uchar | ":" | "@"
	// | "&" | "="), and encodes "/", ";" and "?".
	EscapeSegment = NewEscapeSet("segment", Unreserved, ":@&=")
	// EscapePath is for a whole url-path whose "/" and ";" are meant: it
	// keeps xchar except "?", which would start a search part.
	EscapePath = NewEscapeSet("path", Unreserved, ":@&=/;")
	// EscapeSearch is for a search part: it keeps every xchar. A "+" is
	// kept too; in a search RFC 1630 reads it as a space, so encode a
	// real plus with EscapeSearchWord.
	EscapeSearch = NewEscapeSet("search", Xchar, "")
	// EscapeSearchWord is for one word of a search part: it encodes the
	// reserved characters and "+" (RFC 1630: "real plus signs must be
	// encoded").
	EscapeSearchWord = NewEscapeSet("searchword", Unreserved&^Safe, "$-_.")
	// EscapeFragment is for a fragment identifier: every xchar is kept.
	EscapeFragment = NewEscapeSet("fragment", Xchar, "")
	// EscapeOpaque is for the scheme-specific part of a URL without "//":
	// every xchar is kept.
	EscapeOpaque = NewEscapeSet("opaque", Xchar, "")
)

// EscapeSets lists the predefined sets, for lookup by name.
var EscapeSets = []*EscapeSet{EscapeUnreserved, EscapeLogin, EscapeSegment, EscapePath, EscapeSearch, EscapeSearchWord, EscapeFragment, EscapeOpaque}

// LookupEscapeSet returns the predefined set with the given name.
func LookupEscapeSet(name string) (*EscapeSet, bool) {
	for _, e := range EscapeSets {
		if e.name == name {
			return e, true
		}
	}
	return nil, false
}

// Escape returns s with every byte that set does not keep written as "%"
// followed by two upper-case hex digits (RFC 1738 section 2.2). It returns
// s itself, without allocating, when nothing needs encoding.
func Escape(s string, set *EscapeSet) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if !set.keep[s[i]] {
			n++
		}
	}
	if n == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if set.keep[c] {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(upperHex[c>>4])
		b.WriteByte(upperHex[c&15])
	}
	return b.String()
}

// Unescape decodes every escape ("%" hex hex) in s. A "%" that is not
// followed by two hex digits is an error giving its offset (RFC 1630: such
// sequences are reserved for future extension). "+" is left alone; use
// [UnescapeSearch] where it stands for a space. Unescape returns s itself,
// without allocating, when s holds no escape.
func Unescape(s string) (string, error) { return unescape(s, false) }

// UnescapeSearch is like [Unescape] but also turns "+" into a space, as
// RFC 1630 defines for a search part.
func UnescapeSearch(s string) (string, error) { return unescape(s, true) }

func unescape(s string, plus bool) (string, error) {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '%':
			if !isEscape(s, i) {
				end := i + 3
				if end > len(s) {
					end = len(s)
				}
				return "", &SyntaxError{Input: s, Offset: i, Component: ComponentNone, Err: ErrBadEscape,
					Detail: fmt.Sprintf("%q is not a valid escape (RFC 1630: %% must be followed by two hex digits)", s[i:end])}
			}
			n++
			i += 2
		case '+':
			if plus {
				n++
			}
		}
	}
	if n == 0 {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s) - 2*n)
	if plus {
		for i := 0; i < len(s); i++ {
			switch c := s[i]; c {
			case '%':
				b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
				i += 2
			case '+':
				b.WriteByte(' ')
			default:
				b.WriteByte(c)
			}
		}
		return b.String(), nil
	}
	for len(s) > 0 {
		k := strings.IndexByte(s, '%')
		if k < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:k])
		b.WriteByte(unhex(s[k+1])<<4 | unhex(s[k+2]))
		s = s[k+3:]
	}
	return b.String(), nil
}
