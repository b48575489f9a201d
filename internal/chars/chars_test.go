package chars

import "testing"

// TestClasses checks the table against the character lists of RFC 1738
// section 5 and RFC 1630 "BNF of Generic URI Syntax", written out here
// independently of the table's construction.
func TestClasses(t *testing.T) {
	members := map[Class]string{
		Safe:         "$-_.+",
		Extra:        "!*'(),",
		National:     "{}|\\^~[]`",
		Punctuation:  "<>#%\"",
		Reserved:     ";/?:@&=",
		HexDigit:     "0123456789ABCDEFabcdef",
		Digit:        "0123456789",
		Safe1630:     "$-_@.&",
		Extra1630:    "!*\"'(),",
		Reserved1630: "=;/#?: ",
		Plus:         "+",
	}
	for cl, chars := range members {
		n := 0
		for b := 0; b < 256; b++ {
			if Is(byte(b), cl) {
				n++
			}
		}
		if n != len(chars) {
			t.Errorf("class %#x has %d members, want %d (%q)", cl, n, len(chars), chars)
		}
		for i := 0; i < len(chars); i++ {
			if !Is(chars[i], cl) {
				t.Errorf("%q not in class %#x", chars[i], cl)
			}
		}
	}
	// RFC 1738 2.2: "only alphanumerics, the special characters
	// "$-_.+!*'(),", and reserved characters ... may be used unencoded".
	for b := 0; b < 256; b++ {
		c := byte(b)
		alnum := ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
		special := alnum || (c != 0 && contains("$-_.+!*'(),", c))
		if Is(c, Unreserved) != special {
			t.Errorf("Unreserved(%q) = %v", c, !special)
		}
		if Is(c, Xchar) != (special || contains(";/?:@&=", c)) {
			t.Errorf("Xchar(%q) wrong", c)
		}
		unsafe := c <= 0x20 || c >= 0x7f || contains("<>\"#%{}|\\^~[]`", c)
		if Is(c, Unsafe) != unsafe {
			t.Errorf("Unsafe(%q) = %v, want %v", c, Is(c, Unsafe), unsafe)
		}
		if Is(c, Xchar) && Is(c, Unsafe) {
			t.Errorf("%q is both xchar and unsafe", c)
		}
	}
	if !Is('+', Xpalpha) || Is('+', Xalpha) || !Is('@', Xalpha) || Is('=', Xalpha) {
		t.Error("RFC 1630 xalpha/xpalpha wrong")
	}
}

func contains(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}
