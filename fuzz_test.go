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
			// parse --json copies a strict URL into JSON unescaped.
			for i := 0; i < len(want); i++ {
				if c := want[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
					t.Fatalf("%q: byte 0x%02X in a URL of the strict syntax", s, c)
				}
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

// FuzzParseExtended checks the extended syntax against the strict one:
// every input Parse accepts, ParseExtended accepts with the same
// components and reports Extended; Parse never reports Extended; an
// accepted input round-trips and re-parses to the same URL; a rejection is
// positioned inside the input; Canonical of an extended URL is extended,
// idempotent, and Equal to the URL.
func FuzzParseExtended(f *testing.F) {
	fuzzSeeds(f)
	for _, s := range []string{"http://[::1]/", "ftp://u:p@[2001:DB8::1]:21/a", "//[::ffff:1.2.3.4]:80?q", "http://[fe80::1%25e]/", "http://[v1.x]/", "http://[::1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, pair := range []struct {
			strict, ext func(string) (URL, error)
		}{{Parse, ParseExtended}, {ParseRef, ParseRefExtended}} {
			u, err := pair.ext(s)
			p, perr := pair.strict(s)
			if perr == nil {
				if p.Extended() {
					t.Fatalf("%q: the strict parser reports Extended", s)
				}
				if err != nil || u.Parts() != func() Parts { q := p.Parts(); q.Extended = true; return q }() {
					t.Fatalf("%q: strict %v, extended %v (%v)", s, p.Parts(), u.Parts(), err)
				}
			}
			if err != nil {
				var se *SyntaxError
				if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(s) || se.Input != s || se.Error() == "" {
					t.Fatalf("%q: bad error %v", s, err)
				}
				continue
			}
			if !u.Extended() || u.String() != strings.TrimPrefix(s, s[:len(s)-len(u.String())]) {
				t.Fatalf("%q: %q, extended %v", s, u, u.Extended())
			}
			v, err := pair.ext(u.String())
			if err != nil || v.Parts() != u.Parts() {
				t.Fatalf("%q: re-parse gives %v, %v", s, v.Parts(), err)
			}
			if u.HostIsIPv6() && (!strings.HasPrefix(u.Host(), "[") || strings.ContainsAny(u.Hostname(), "[]%")) {
				t.Fatalf("%q: host %q hostname %q", s, u.Host(), u.Hostname())
			}
			c := Canonical(u)
			if !c.Extended() || Canonical(c).String() != c.String() || !Equal(u, c) {
				t.Fatalf("%q: canonical %q (extended %v) not stable or not equal", s, c, c.Extended())
			}
			for _, c := range []Component{ComponentUser, ComponentPassword, ComponentHost, ComponentPort, ComponentSearch, ComponentFragment} {
				var text string
				switch c {
				case ComponentUser:
					text, _ = u.User()
				case ComponentPassword:
					text, _ = u.Password()
				case ComponentHost:
					text = u.Host()
				case ComponentPort:
					text, _ = u.RawPort()
				case ComponentSearch:
					text, _ = u.Search()
				case ComponentFragment:
					text, _ = u.Fragment()
				}
				if err := CheckComponentExtended(c, text); err != nil && u.HasAuthority() && c == ComponentHost {
					t.Fatalf("%q: the %s %q fails CheckComponentExtended: %v", s, c, text, err)
				}
			}
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
	f.Add("gopher://h/1a%3f%2F%3B%40?b%2b%3D#%3f")
	f.Add("ftp://u%3a@h/d%2f%3f/a%3D;type%3di?x%26")
	f.Add("news:a%3F%2A@h")
	f.Add("mailto:a%40b%2F%3F")
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
		if !needsCanon(u) && c.String() != u.String() {
			t.Fatalf("Canonical(%q) = %q, but needsCanon said it was canonical", s, c)
		}
		// Decoding never touches a character the scheme reserves (RFC
		// 1738 2.2): the count of each such byte is unchanged.
		sets := decodeSetsOf(u)
		for _, r := range ";/?:@&=" {
			if sets.path[r] || sets.param[r] || sets.search[r] {
				continue
			}
			if strings.Count(u.String(), string(r)) != strings.Count(c.String(), string(r)) && !(r == '/' && u.HasAuthority()) && !(r == ':' && u.IsAbsolute()) {
				t.Fatalf("Canonical(%q) = %q changed the number of %q", s, c, r)
			}
		}
	})
}
