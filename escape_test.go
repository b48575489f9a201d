package urlkit

import (
	"errors"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, tt := range []struct {
		set      *EscapeSet
		in, want string
	}{
		{EscapeUnreserved, "a b/c", "a%20b%2Fc"},
		{EscapeUnreserved, "marie-claude", "marie-claude"},
		{EscapeUnreserved, "100%", "100%25"},
		{EscapeUnreserved, "\xff\x00~", "%FF%00%7E"},
		// RFC 1738 3.1: within the user and password, ":", "@" and "/" must be encoded.
		{EscapeLogin, "a:b@c/d;e?f&g=h", "a%3Ab%40c%2Fd;e?f&g=h"},
		// RFC 1738 3.2.2: "/" and ";" are reserved within a name or CWD component.
		{EscapeSegment, "/etc;type=a", "%2Fetc%3Btype=a"},
		{EscapeSegment, "a?b#c", "a%3Fb%23c"},
		{EscapePath, "a/b;c?d", "a/b;c%3Fd"},
		{EscapeSearch, "a=b&c?d e", "a=b&c?d%20e"},
		// RFC 1630: in a search, real plus signs must be encoded.
		{EscapeSearchWord, "1+1=2&x", "1%2B1%3D2%26x"},
		{EscapeFragment, "sec#2", "sec%232"},
	} {
		if got := Escape(tt.in, tt.set); got != tt.want {
			t.Errorf("Escape(%q, %s) = %q, want %q", tt.in, tt.set.Name(), got, tt.want)
		}
		back, err := Unescape(tt.want)
		if err != nil || back != tt.in {
			t.Errorf("Unescape(%q) = %q, %v; want %q", tt.want, back, err, tt.in)
		}
	}
	for _, s := range EscapeSets {
		if got, ok := LookupEscapeSet(s.Name()); !ok || got != s {
			t.Errorf("LookupEscapeSet(%q) failed", s.Name())
		}
		if s.Keeps('%') {
			t.Errorf("set %s keeps %%", s.Name())
		}
	}
	if _, ok := LookupEscapeSet("nope"); ok {
		t.Error("LookupEscapeSet(nope) succeeded")
	}
}

func TestUnescape(t *testing.T) {
	for _, tt := range []struct{ in, want, search string }{
		{"marie%2Dclaude", "marie-claude", "marie-claude"},
		{"%2f%2F", "//", "//"},
		{"a+b%2B", "a+b+", "a b+"},
		{"", "", ""},
		{"%00%ff", "\x00\xff", "\x00\xff"},
		{"+", "+", " "}, // found by FuzzView: a lone "+" once made a negative buffer size
		{"++%41", "++A", "  A"},
	} {
		if got, err := Unescape(tt.in); err != nil || got != tt.want {
			t.Errorf("Unescape(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
		if got, err := UnescapeSearch(tt.in); err != nil || got != tt.search {
			t.Errorf("UnescapeSearch(%q) = %q, %v; want %q", tt.in, got, err, tt.search)
		}
	}
	// RFC 1630 Example 3: "%*" and "%as" have no decoding.
	for _, tt := range []struct {
		in  string
		off int
	}{{"asdf%*.fred", 4}, {"12345667123%asdghfh", 11}, {"abc%", 3}, {"%4", 0}, {"ok%41%4g", 5}} {
		_, err := Unescape(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset != tt.off || !errors.Is(err, ErrBadEscape) {
			t.Errorf("Unescape(%q) = %v, want ErrBadEscape at %d", tt.in, err, tt.off)
		}
	}
}

func TestEscapeAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { Escape("plain-text", EscapeSegment) }); n != 0 {
		t.Errorf("Escape of clean text allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { Unescape("plain-text") }); n != 0 {
		t.Errorf("Unescape of clean text allocates %v times", n)
	}
}
