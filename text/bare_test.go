package text

import (
	"strings"
	"testing"
)

// TestBareScheme holds the first step of a bare URL, the scheme name
// before its ":" (RFC 1738 2.1: a scheme is letters, digits, "+", "-" and
// ".", starting with a letter; 3.1: the Internet schemes go on with "//").
// The ":" is at the "|" of each text, which is taken out.
func TestBareScheme(t *testing.T) {
	for _, tc := range []struct {
		text   string
		final  bool
		scheme string // "" when no bare URL starts there
		ip     bool
		more   bool // the examination waits for more text
	}{
		{"see http|//a.b/", true, "http", true, false},
		{"see news|comp.x", true, "news", false, false},
		{"(mailto|joe@a.b)", true, "mailto", false, false},
		{"9http|//a.b/", true, "http", true, false},              // a digit cannot start a scheme: skipped
		{"xhttp|//a.b/", true, "", false, false},                 // the end of another word
		{"http|a.b", true, "", false, false},                     // an Internet scheme without "//"
		{"imap|//a.b/", true, "", false, false},                  // no scheme of 1994
		{"Note| this", true, "", false, false},                   // a colon in prose
		{"http|", true, "", false, false},                        // nothing after the ":"
		{"http|", false, "", false, true},                        // nothing yet: wait
		{"http|/", false, "", false, true},                       // "//" not yet known: wait
		{"\u00e9http|//a.b/", true, "", false, false},            // a non-ASCII letter before it
		{"\u00bbhttp|//a.b/", true, "http", true, false},         // a quotation mark before it
		{strings.Repeat("a", 40) + "|x", true, "", false, false}, // longer than maxSchemeLen
	} {
		i := strings.IndexByte(tc.text, '|')
		s := tc.text[:i] + ":" + tc.text[i+1:]
		x := extractor{text: s, final: tc.final, line: 1}
		start, ip, next := x.bareScheme(i)
		got := ""
		if next < 0 {
			got = s[start:i]
		}
		if got != tc.scheme || (next < 0 && ip != tc.ip) || x.more != tc.more {
			t.Errorf("%q: scheme %q, ip %v, more %v (next %d); want %q, %v, %v", s, got, ip, x.more, next, tc.scheme, tc.ip, tc.more)
		}
		if next >= 0 && !x.more && next != i+1 {
			t.Errorf("%q: goes on at %d, want %d (just after the \":\")", s, next, i+1)
		}
	}
}

// TestHyphenBreakAfter holds the hyphen rule of RFC 1738's appendix: a
// URL broken after a hyphen goes on on the next line, after any white
// space, unless a blank line or no URL character follows. The hyphen ends
// text[:e] at the "|" of each text, which is taken out.
func TestHyphenBreakAfter(t *testing.T) {
	for _, tc := range []struct {
		text  string
		final bool
		at    int // where the URL goes on, from the "|"; -1 for nowhere
		more  bool
	}{
		{"a-|\n   ternic.net", true, 4, false},
		{"a-|  \n\tternic.net", true, 4, false},
		{"a-|\nternic.net", true, 1, false},
		{"a-| ternic.net", true, -1, false},     // no line break: the URL ends at the hyphen
		{"a-|\n\n ternic.net", true, -1, false}, // a blank line ends it
		{"a-|\n   <x>", true, -1, false},        // no URL character on the next line
		{"a-|\n   ", true, -1, false},
		{"a-|\n   ", false, -1, true}, // the next line has not arrived
		{"a-|  ", false, -1, true},
	} {
		e := strings.IndexByte(tc.text, '|')
		s := tc.text[:e] + tc.text[e+1:]
		x := extractor{text: s, final: tc.final, line: 1}
		k, more := x.hyphenBreakAfter(e, len(s))
		want := tc.at
		if want >= 0 {
			want += e
		}
		if k != want || more != tc.more {
			t.Errorf("%q: %d, more %v; want %d, %v", s, k, more, want, tc.more)
		}
	}
}
