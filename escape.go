package urlkit

import (
	"github.com/urlkit/urlkit/internal/chars"
)

// Escape returns s percent-encoded as the data of component c: every byte
// that may not appear as itself in that component is written as "%" and two
// upper-case hex digits (RFC 1738 section 2.2), and "%" always is. It
// returns s itself, without allocating, when nothing needs encoding.
//
// What each component keeps unencoded (RFC 1738 section 5):
//
//   - [ComponentUser], [ComponentPassword]: uchar | ";" | "?" | "&" | "=",
//     so ":", "@" and "/" are encoded (section 3.1);
//   - [ComponentPath]: a whole url-path whose "/" and ";" are meant: xchar
//     except "?"; use [EscapeSegment] for one segment;
//   - [ComponentSearch]: every xchar, "+" included, which RFC 1630 reads as
//     a space there; use [EscapeSearchWord] for one key or value;
//   - [ComponentFragment], [ComponentOpaque]: every xchar;
//   - any other component ([ComponentNone], host, port, scheme, which have
//     no escapes): only the unreserved characters, alpha | digit | safe |
//     extra, are kept: the safe choice for data of any component.
func Escape(s string, c Component) string { return chars.Escape(s, escapeSet(c)) }

// escapeSet returns the escape set of component c.
func escapeSet(c Component) *chars.Set {
	switch c {
	case ComponentUser, ComponentPassword:
		return chars.EscLogin
	case ComponentPath:
		return chars.EscPath
	case ComponentSearch:
		return chars.EscSearch
	case ComponentFragment:
		return chars.EscFragment
	case ComponentOpaque:
		return chars.EscOpaque
	}
	return chars.EscUnreserved
}

// EscapeSegment returns s percent-encoded as one path segment of any
// scheme: it keeps the characters that both RFC 1738's fsegment and
// hsegment allow (uchar | ":" | "@" | "&" | "=") and encodes "/", ";" and
// "?", which would make a segment boundary, a parameter or a search part
// (RFC 1738 3.2.2: a "/" within a CWD argument must be encoded).
func EscapeSegment(s string) string { return chars.Escape(s, chars.EscSegment) }

// EscapeSearchWord returns s percent-encoded as one word (a key or a value)
// of a search part: the reserved characters and "+" are encoded, and a
// space is written as "+", the shorthand RFC 1630 defines ("Within the
// query string, the plus sign is reserved as shorthand notation for a
// space. Therefore, real plus signs must be encoded."). [UnescapeSearch]
// decodes it.
func EscapeSearchWord(s string) string { return chars.Escape(s, chars.EscSearchWord) }

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
	n, escapes := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '%':
			if !chars.IsEscape(s, i) {
				return "", charError(s, i, ComponentNone) // explained as Parse explains a bad escape
			}
			n++
			escapes++
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
	var text [128]byte // on the stack; a longer result is built on the heap
	buf := text[:0]
	if n := len(s) - 2*escapes; n > len(text) {
		buf = make([]byte, 0, n)
	}
	if !plus {
		buf, _ = chars.AppendUnescape(buf, s) // every escape is checked above
		return string(buf), nil
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '%':
			buf = append(buf, chars.Unhex(s[i+1])<<4|chars.Unhex(s[i+2]))
			i += 2
		case '+':
			buf = append(buf, ' ')
		default:
			buf = append(buf, c)
		}
	}
	return string(buf), nil
}
