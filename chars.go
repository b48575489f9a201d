package urlkit

// Class is a set of byte classes from the grammars of RFC 1738 section 5
// and RFC 1630 ("BNF of Generic URI Syntax"). Classes are bit flags and may
// be combined with |; [Is] reports whether a byte belongs to any of them.
//
// Every character test in urlkit goes through one 256-entry table built from
// these definitions, so a test is one load and one AND.
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

// table holds the classes of every byte.
var table = func() (t [256]Class) {
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
func Is(c byte, cl Class) bool {
	return table[c]&cl != 0
}

// unhex returns the value of a hex digit; it must only be called on a byte
// in HexDigit.
func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

// isEscape reports whether s[i:] starts with "%" hex hex.
func isEscape(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && table[s[i+1]]&HexDigit != 0 && table[s[i+2]]&HexDigit != 0
}

const upperHex = "0123456789ABCDEF"
