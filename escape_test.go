package urlkit

import (
	"errors"
	"testing"

	"github.com/urlkit/urlkit/internal/chars"
)

func TestEscape(t *testing.T) {
	for _, tt := range []struct {
		name     string
		escape   func(string) string
		in, want string
	}{
		{"none", func(s string) string { return Escape(s, ComponentNone) }, "a b/c", "a%20b%2Fc"},
		{"none", func(s string) string { return Escape(s, ComponentNone) }, "marie-claude", "marie-claude"},
		{"none", func(s string) string { return Escape(s, ComponentNone) }, "100%", "100%25"},
		{"host", func(s string) string { return Escape(s, ComponentHost) }, "\xff\x00~", "%FF%00%7E"},
		// RFC 1738 3.1: within the user and password, ":", "@" and "/" must be encoded.
		{"user", func(s string) string { return Escape(s, ComponentUser) }, "a:b@c/d;e?f&g=h", "a%3Ab%40c%2Fd;e?f&g=h"},
		{"password", func(s string) string { return Escape(s, ComponentPassword) }, "p@ss:w/rd", "p%40ss%3Aw%2Frd"},
		// RFC 1738 3.2.2: "/" and ";" are reserved within a name or CWD component.
		{"segment", EscapeSegment, "/etc;type=a", "%2Fetc%3Btype=a"},
		{"segment", EscapeSegment, "a?b#c", "a%3Fb%23c"},
		{"path", func(s string) string { return Escape(s, ComponentPath) }, "a/b;c?d", "a/b;c%3Fd"},
		{"search", func(s string) string { return Escape(s, ComponentSearch) }, "a=b&c?d e", "a=b&c?d%20e"},
		{"fragment", func(s string) string { return Escape(s, ComponentFragment) }, "sec#2", "sec%232"},
		{"opaque", func(s string) string { return Escape(s, ComponentOpaque) }, "a b@c", "a%20b@c"},
	} {
		if got := tt.escape(tt.in); got != tt.want {
			t.Errorf("escape %s(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
		back, err := Unescape(tt.want)
		if err != nil || back != tt.in {
			t.Errorf("Unescape(%q) = %q, %v; want %q", tt.want, back, err, tt.in)
		}
	}
	// RFC 1630: in a search, real plus signs must be encoded, and "+" is
	// the shorthand for a space.
	for _, tt := range []struct{ in, want string }{
		{"1+1=2&x", "1%2B1%3D2%26x"},
		{"a b", "a+b"},
		{"caf\xc3\xa9 au lait", "caf%C3%A9+au+lait"},
	} {
		got := EscapeSearchWord(tt.in)
		if got != tt.want {
			t.Errorf("EscapeSearchWord(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if back, err := UnescapeSearch(got); err != nil || back != tt.in {
			t.Errorf("UnescapeSearch(%q) = %q, %v; want %q", got, back, err, tt.in)
		}
	}
	for _, set := range chars.Sets {
		if set.Keeps('%') {
			t.Errorf("set %s keeps %%", set.Name())
		}
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
	if n := testing.AllocsPerRun(100, func() { EscapeSegment("plain-text") }); n != 0 {
		t.Errorf("Escape of clean text allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { Unescape("plain-text") }); n != 0 {
		t.Errorf("Unescape of clean text allocates %v times", n)
	}
}
