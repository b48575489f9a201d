package urlkit

import (
	"errors"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/chars"
)

// fuzzSeeds are the RFC examples and corner cases every fuzz target starts
// from.
func fuzzSeeds(f *testing.F) {
	for _, tt := range parseTests {
		f.Add(tt.in)
	}
	for _, tt := range parseErrorTests {
		f.Add(tt.in)
	}
	for _, s := range []string{"g", "//g", "?y", "#s", "../g", " http://h/a b ", "http://h:/", "http://h?q", "URL:", "%", "a:%4", "x-y://@:@/#"} {
		f.Add(s)
	}
}

// FuzzParse checks that Parse never panics, that every accepted input
// round-trips through String and re-parses to the same URL, and that every
// rejection is a positioned *SyntaxError inside the input.
func FuzzParse(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		for _, parse := range []func(string) (URL, error){Parse, ParseRef} {
			u, err := parse(s)
			if err != nil {
				var se *SyntaxError
				if !errors.As(err, &se) {
					t.Fatalf("%q: error %v is not a *SyntaxError", s, err)
				}
				if se.Offset < 0 || se.Offset > len(s) || se.Input != s {
					t.Fatalf("%q: offset %d outside input", s, se.Offset)
				}
				if se.Error() == "" || se.Unwrap() == nil {
					t.Fatalf("%q: empty error", s)
				}
				continue
			}
			want := s
			if u.Prefixed() {
				want = s[4:]
			}
			if u.String() != want {
				t.Fatalf("%q: String() = %q", s, u.String())
			}
			v, err := parse(u.String())
			if err != nil {
				t.Fatalf("%q: re-parse of %q failed: %v", s, u.String(), err)
			}
			if got(v) != got(u) || v.HasAuthority() != u.HasAuthority() || v.IsAbsolute() != u.IsAbsolute() {
				t.Fatalf("%q: re-parse differs: %+q vs %+q", s, got(v), got(u))
			}
			// Components are substrings of the URL, in order.
			if u.IsAbsolute() && !strings.HasPrefix(u.String(), u.RawScheme()+":") {
				t.Fatalf("%q: scheme %q not at the start", s, u.RawScheme())
			}
			if !strings.Contains(u.String(), u.Host()) || !strings.Contains(u.String(), u.PathWithSlash()) {
				t.Fatalf("%q: host or path not in the text", s)
			}
		}
	})
}

// FuzzParseLenient checks that ParseLenient never panics, that its result
// always parses strictly, that it agrees with Parse on valid input, and that
// its warnings and errors lie inside the input.
func FuzzParseLenient(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		u, warns, err := ParseLenient(s)
		for _, w := range warns {
			if w.Offset < 0 || w.Offset > len(s) {
				t.Fatalf("%q: warning offset %d outside input", s, w.Offset)
			}
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(s) || se.Input != s {
				t.Fatalf("%q: bad error %v", s, err)
			}
			if _, perr := Parse(s); perr == nil {
				t.Fatalf("%q: Parse accepts what ParseLenient rejects", s)
			}
			return
		}
		v, perr := Parse(u.String())
		if perr != nil {
			t.Fatalf("%q: lenient result %q does not parse strictly: %v", s, u, perr)
		}
		if v.String() != u.String() {
			t.Fatalf("%q: %q re-parses as %q", s, u, v)
		}
		if p, perr := Parse(s); perr == nil && (p.String() != u.String() || len(warns) != 0) {
			t.Fatalf("%q: valid input changed to %q with %d warnings", s, u, len(warns))
		}
	})
}

// escapers are the exported escaping functions and the set each uses.
var escapers = []struct {
	name   string
	escape func(string) string
	set    *chars.Set
}{
	{"Escape(none)", func(s string) string { return Escape(s, ComponentNone) }, chars.EscUnreserved},
	{"Escape(user)", func(s string) string { return Escape(s, ComponentUser) }, chars.EscLogin},
	{"Escape(password)", func(s string) string { return Escape(s, ComponentPassword) }, chars.EscLogin},
	{"Escape(host)", func(s string) string { return Escape(s, ComponentHost) }, chars.EscUnreserved},
	{"Escape(path)", func(s string) string { return Escape(s, ComponentPath) }, chars.EscPath},
	{"Escape(search)", func(s string) string { return Escape(s, ComponentSearch) }, chars.EscSearch},
	{"Escape(fragment)", func(s string) string { return Escape(s, ComponentFragment) }, chars.EscFragment},
	{"Escape(opaque)", func(s string) string { return Escape(s, ComponentOpaque) }, chars.EscOpaque},
	{"EscapeSegment", EscapeSegment, chars.EscSegment},
	{"EscapeSearchWord", EscapeSearchWord, chars.EscSearchWord},
}

// FuzzEscape checks that Unescape inverts Escape for every set, that Escape
// output holds only kept bytes and upper-case escapes, and that Unescape
// errors are positioned.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "a b", "%", "%zz", "100%", "\x00\xff", "a/b;c?d#e", "%41%2f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range escapers {
			e := c.escape(s)
			for i := 0; i < len(e); i++ {
				switch {
				case e[i] == '%':
					if !chars.IsEscape(e, i) || strings.ToUpper(e[i+1:i+3]) != e[i+1:i+3] {
						t.Fatalf("%s(%q) = %q: bad escape at %d", c.name, s, e, i)
					}
					i += 2
				case e[i] == '+' && c.set.PlusSpace():
				case !c.set.Keeps(e[i]):
					t.Fatalf("%s(%q) = %q keeps %q", c.name, s, e, e[i])
				}
			}
			unescape := Unescape
			if c.set.PlusSpace() {
				unescape = UnescapeSearch
			}
			d, err := unescape(e)
			if err != nil || d != s {
				t.Fatalf("unescape(%s(%q)) = %q, %v", c.name, s, d, err)
			}
		}
		if a, b := UnescapeSearch(s); b == nil {
			if p, _ := Unescape(strings.ReplaceAll(s, "+", "%20")); p != a {
				t.Fatalf("UnescapeSearch(%q) = %q, want %q", s, a, p)
			}
		}
		if _, err := Unescape(s); err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset >= len(s) || s[se.Offset] != '%' {
				t.Fatalf("Unescape(%q): bad error %v", s, err)
			}
		}
	})
}

// FuzzCanonical checks that Canonical is idempotent and keeps URLs valid,
// and that Equal is reflexive, symmetric and consistent with Canonical.
func FuzzCanonical(f *testing.F) {
	fuzzSeeds(f)
	f.Add("http://h/%41%2d%2e%2E/%2a?%2b#%7e")
	f.Fuzz(func(t *testing.T, s string) {
		u, err := ParseRef(s)
		if err != nil {
			return
		}
		c := Canonical(u)
		if _, err := ParseRef(c.String()); err != nil {
			t.Fatalf("Canonical(%q) = %q is invalid: %v", s, c, err)
		}
		if cc := Canonical(c); cc.String() != c.String() {
			t.Fatalf("Canonical not idempotent: %q -> %q -> %q", s, c, cc)
		}
		if !Equal(u, u) || !Equal(u, c) || !Equal(c, u) {
			t.Fatalf("Equal not reflexive/consistent for %q (canonical %q)", s, c)
		}
		// Decoding never touches a reserved character: the count of each
		// reserved byte, and of %2F, is unchanged.
		for _, r := range ";/?:@&=" {
			if strings.Count(u.String(), string(r)) != strings.Count(c.String(), string(r)) && !(r == '/' && u.HasAuthority()) && !(r == ':' && u.IsAbsolute()) {
				t.Fatalf("Canonical(%q) = %q changed the number of %q", s, c, r)
			}
		}
	})
}
