// Package chars holds the character classes of RFC 1738 section 5 and RFC
// 1630 ("BNF of Generic URI Syntax") as one 256-entry table, and the escape
// sets built on them. It is shared by the core parser, the scheme package
// and the text extraction package; programs use the few functions the core
// exports instead ([urlkit.Escape] and its neighbours).
//
// A character test is one array load and one AND: Table[c]&cl != 0.
package chars

import (
	"strings"
	"unsafe"
)

// Class is a set of byte classes. Classes are bit flags and may be combined
// with |; [Is] reports whether a byte belongs to any of them.
type Class uint32

// The byte classes. Unless a comment says otherwise, the definition is the
// one of RFC 1738 section 5.
const (
	// LowAlpha is "a" to "z".
	LowAlpha Class = 1 << iota
	// HiAlpha is "A" to "Z".
	HiAlpha
	// Digit is "0" to "9".
	Digit
	// Safe is "$" | "-" | "_" | "." | "+".
	Safe
	// Extra is "!" | "*" | "'" | "(" | ")" | ",".
	Extra
	// National is "{" | "}" | "|" | "\" | "^" | "~" | "[" | "]" | "`".
	National
	// Punctuation is "<" | ">" | "#" | "%" | <">.
	Punctuation
	// Reserved is ";" | "/" | "?" | ":" | "@" | "&" | "=".
	Reserved
	// HexDigit is digit | "A"-"F" | "a"-"f".
	HexDigit
	// Control is the octets 00-1F and 7F, which RFC 1738 section 2.2 says
	// must be encoded.
	Control
	// Space is the octet 20, unsafe by RFC 1738 section 2.2.
	Space
	// NonASCII is the octets 80-FF, which are not US-ASCII and must be
	// encoded (RFC 1738 section 2.2; RFC 1630 "Unsafe characters").
	NonASCII
	// Safe1630 is RFC 1630's safe: "$" | "-" | "_" | "@" | "." | "&".
	Safe1630
	// Extra1630 is RFC 1630's extra: "!" | "*" | <"> | "'" | "(" | ")" | ",".
	Extra1630
	// Reserved1630 is RFC 1630's reserved: "=" | ";" | "/" | "#" | "?" |
	// ":" | space.
	Reserved1630
	// Plus is "+" alone; RFC 1630 adds it to xalpha to make xpalpha, and
	// reserves it as the space shorthand inside a search.
	Plus
	// SchemeChar is a character RFC 1738 allows in a scheme name:
	// lowalpha | digit | "+" | "-" | ".". Upper-case letters are included
	// too, because the RFC tells interpreters to ignore case.
	SchemeChar
)

// Derived classes.
const (
	// Alpha is lowalpha | hialpha.
	Alpha = LowAlpha | HiAlpha
	// AlphaDigit is alpha | digit, RFC 1738's alphadigit.
	AlphaDigit = Alpha | Digit
	// Unreserved is alpha | digit | safe | extra (RFC 1738).
	Unreserved = Alpha | Digit | Safe | Extra
	// Uchar is unreserved; an escape ("%" hex hex) is also a uchar, but
	// escapes are three bytes long and are tested separately.
	Uchar = Unreserved
	// Xchar is unreserved | reserved; like Uchar, it also admits escapes.
	Xchar = Unreserved | Reserved
	// Unsafe is every byte RFC 1738 section 2.2 says must always be
	// encoded: space, controls, non-ASCII, national and punctuation
	// characters.
	Unsafe = National | Punctuation | Control | Space | NonASCII
	// Xalpha is RFC 1630's xalpha: alpha | digit | safe | extra | escape,
	// with RFC 1630's own safe and extra sets.
	Xalpha = Alpha | Digit | Safe1630 | Extra1630
	// Xpalpha is RFC 1630's xpalpha: xalpha | "+".
	Xpalpha = Xalpha | Plus
)

// Table holds the classes of every byte. It is filled once at start-up and
// never written again.
var Table = func() (t [256]Class) {
	set := func(c Class, chars string) {
		for i := 0; i < len(chars); i++ {
			t[chars[i]] |= c
		}
	}
	for b := 'a'; b <= 'z'; b++ {
		t[b] |= LowAlpha | SchemeChar
	}
	for b := 'A'; b <= 'Z'; b++ {
		t[b] |= HiAlpha | SchemeChar
	}
	for b := '0'; b <= '9'; b++ {
		t[b] |= Digit | HexDigit | SchemeChar
	}
	set(HexDigit, "abcdefABCDEF")
	set(Safe, "$-_.+")
	set(Extra, "!*'(),")
	set(National, "{}|\\^~[]`")
	set(Punctuation, "<>#%\"")
	set(Reserved, ";/?:@&=")
	set(Safe1630, "$-_@.&")
	set(Extra1630, "!*\"'(),")
	set(Reserved1630, "=;/#?: ")
	set(SchemeChar, "+-.")
	set(Plus, "+")
	for b := 0; b < 0x20; b++ {
		t[b] |= Control
	}
	t[0x7f] |= Control
	t[' '] |= Space
	for b := 0x80; b < 0x100; b++ {
		t[b] |= NonASCII
	}
	return t
}()

// Is reports whether the byte c belongs to any of the classes in cl.
func Is(c byte, cl Class) bool { return Table[c]&cl != 0 }

// Unhex returns the value of a hex digit; it must only be called on a byte
// in HexDigit.
func Unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

// IsEscape reports whether s[i:] starts with "%" hex hex.
func IsEscape(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && Table[s[i+1]]&HexDigit != 0 && Table[s[i+2]]&HexDigit != 0
}

// AppendUnescape appends s to b with every escape decoded, and reports
// whether every "%" in s starts an escape; if one does not, it returns b
// as it was and false.
func AppendUnescape(b []byte, s string) ([]byte, bool) {
	start := len(b)
	for {
		k := strings.IndexByte(s, '%')
		if k < 0 {
			return append(b, s...), true
		}
		if !IsEscape(s, k) {
			return b[:start], false
		}
		b = append(append(b, s[:k]...), Unhex(s[k+1])<<4|Unhex(s[k+2]))
		s = s[k+3:]
	}
}

// UpperHex are the digits escapes are written with (RFC 1738 2.2 allows
// either case; upper case is the canonical choice).
const UpperHex = "0123456789ABCDEF"

// A Set says which bytes [Escape] leaves as they are; every other byte is
// written as "%" and two upper-case hex digits.
type Set struct {
	name      string
	keep      [256]bool
	plusSpace bool // write " " as "+" (RFC 1630's shorthand in a search)
}

// NewSet returns a set that keeps the bytes of the given classes and the
// bytes of extra unencoded, and encodes every other byte. "%" is always
// encoded, because it is used only for escapes (RFC 1630).
func NewSet(name string, classes Class, extra string) *Set {
	e := &Set{name: name}
	for b := 0; b < 256; b++ {
		e.keep[b] = Table[b]&classes != 0
	}
	for i := 0; i < len(extra); i++ {
		e.keep[extra[i]] = true
	}
	e.keep['%'] = false
	return e
}

// Name returns the set's name, as used by the command line ("segment").
func (e *Set) Name() string { return e.name }

// Keeps reports whether the set leaves byte b unencoded.
func (e *Set) Keeps(b byte) bool { return e.keep[b] }

// PlusSpace reports whether the set writes a space as "+".
func (e *Set) PlusSpace() bool { return e.plusSpace }

// The predefined escape sets, following the component rules of RFC 1738
// section 5.
var (
	// EscUnreserved keeps only RFC 1738's unreserved characters (alpha,
	// digit, safe, extra) and encodes everything else, reserved characters
	// included.
	EscUnreserved = NewSet("unreserved", Unreserved, "")
	// EscLogin is for a user name or password: uchar | ";" | "?" | "&" |
	// "=" (RFC 1738 section 5), so ":", "@" and "/" are encoded.
	EscLogin = NewSet("login", Unreserved, ";?&=")
	// EscSegment is for one path segment of any scheme: it keeps the
	// characters that both fsegment and hsegment allow (uchar | ":" | "@"
	// | "&" | "="), and encodes "/", ";" and "?".
	EscSegment = NewSet("segment", Unreserved, ":@&=")
	// EscPath is for a whole url-path whose "/" and ";" are meant: it
	// keeps xchar except "?", which would start a search part.
	EscPath = NewSet("path", Unreserved, ":@&=/;")
	// EscSearch is for a search part: it keeps every xchar.
	EscSearch = NewSet("search", Xchar, "")
	// EscSearchWord is for one word (a key or a value) of a search part:
	// it encodes the reserved characters and "+" (RFC 1630: "real plus
	// signs must be encoded"), and writes a space as "+", RFC 1630's
	// shorthand.
	EscSearchWord = func() *Set {
		s := NewSet("searchword", Unreserved&^Safe, "$-_.")
		s.plusSpace = true
		return s
	}()
	// EscFragment is for a fragment identifier: every xchar is kept.
	EscFragment = NewSet("fragment", Xchar, "")
	// EscOpaque is for the scheme-specific part of a URL without "//":
	// every xchar is kept.
	EscOpaque = NewSet("opaque", Xchar, "")
)

// Sets lists the predefined sets.
var Sets = [...]*Set{EscUnreserved, EscLogin, EscSegment, EscPath, EscSearch, EscSearchWord, EscFragment, EscOpaque}

// Escape returns s with every byte that set does not keep written as "%"
// followed by two upper-case hex digits (RFC 1738 section 2.2), and a
// space as "+" when the set says so. It returns s itself, without
// allocating, when nothing needs encoding.
func Escape(s string, set *Set) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if !set.keep[s[i]] {
			n++
		}
	}
	if n == 0 {
		return s
	}
	b := AppendEscape(make([]byte, 0, len(s)+2*n), s, set)
	// b is never written again: the string shares it, as strings.Builder's
	// String does (one allocation).
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// AppendEscape appends s to b encoded as Escape encodes it.
func AppendEscape[T ~string | ~[]byte](b []byte, s T, set *Set) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if set.keep[c] {
			continue
		}
		b = append(b, s[start:i]...)
		if c == ' ' && set.plusSpace {
			b = append(b, '+')
		} else {
			b = append(b, '%', UpperHex[c>>4], UpperHex[c&15])
		}
		start = i + 1
	}
	return append(b, s[start:]...)
}
