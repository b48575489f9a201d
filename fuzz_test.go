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
			if b, err := Build(u.Parts()); err != nil || b.String() != u.String() {
				t.Fatalf("%q: Build(Parts) = %q, %v", s, b, err)
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

// editComponents are the components Set and Clear take.
var editComponents = []Component{ComponentScheme, ComponentUser, ComponentPassword, ComponentHost, ComponentPort, ComponentPath, ComponentSearch, ComponentFragment, ComponentOpaque}

// FuzzSet checks the setters: set then parse gives the same parts (the set
// one reads back as given, the others are unchanged), or a clear error: a
// *SyntaxError whose Input is the text given and whose Offset is in it.
func FuzzSet(f *testing.F) {
	for i, tt := range parseTests {
		f.Add(tt.in, uint8(i), "x.org", i%3 == 0)
	}
	f.Add("ftp://u@h.com/a?b#c", uint8(3), "p w", false)
	f.Add("/a/b", uint8(5), "h.com", false)
	f.Add("a/b", uint8(6), "x:y", false)
	f.Add("http://h.com/a?q", uint8(6), "", true)
	f.Fuzz(func(t *testing.T, s string, which uint8, text string, clear bool) {
		u, err := ParseRef(s)
		if err != nil {
			return
		}
		c := editComponents[int(which)%len(editComponents)]
		if !clear && c != ComponentScheme && c != ComponentHost && c != ComponentPort {
			// SetUnescaped encodes data so that the part always accepts
			// it: only a structural error is possible, and the part
			// decodes back to the data.
			v, err := u.SetUnescaped(c, text)
			if err != nil {
				for _, kind := range []error{ErrBadChar, ErrUnsafeChar, ErrReservedChar, ErrBadEscape} {
					if errors.Is(err, kind) {
						t.Fatalf("%q: SetUnescaped(%s, %q): %v", s, c, text, err)
					}
				}
			} else {
				got := partText(v.Parts(), c)
				if c == ComponentOpaque {
					got = v.Opaque()
				}
				if d, err := Unescape(got); err != nil || d != text {
					t.Fatalf("%q: SetUnescaped(%s, %q) = %q: the part decodes to %q, %v", s, c, text, v, d, err)
				}
			}
		}
		var v URL
		if clear {
			if c == ComponentOpaque {
				return
			}
			v, err = u.Clear(c)
		} else {
			v, err = u.Set(c, text)
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%q: edit %s %q: error %T %v is not a *SyntaxError", s, c, text, err, err)
			}
			// An oracle apart from the setters: text that the parser takes
			// as a fragment, or as a search part where the URL can have
			// one, must be accepted by Set.
			if !clear && (c == ComponentFragment || c == ComponentSearch) {
				probe, perr := ParseRef("x:?" + text)
				if c == ComponentFragment {
					probe, perr = ParseRef("x:#" + text)
				}
				_, hasPath := u.Path()
				canSearch := c == ComponentFragment || !u.HasAuthority() || hasPath || !u.IsAbsolute()
				if perr == nil && canSearch && partText(probe.Parts(), c) == text {
					t.Fatalf("%q: Set(%s, %q) refused text the parser accepts there: %v", s, c, text, err)
				}
			}
			if se.Offset < 0 || se.Offset > len(se.Input) || se.Err == nil || se.Error() == "" {
				t.Fatalf("%q: edit %s %q: unclear error %+v", s, c, text, se)
			}
			if !clear && se.Component == c && se.Input != text {
				t.Fatalf("%q: Set %s %q: error input %q is not the text", s, c, text, se.Input)
			}
			return
		}
		w, err := ParseRef(v.String())
		if err != nil || w.Parts() != v.Parts() {
			t.Fatalf("%q: edit %s %q gave %q, which parses as %+v, %v", s, c, text, v, w.Parts(), err)
		}
		p, q := u.Parts(), v.Parts()
		if !clear {
			if c == ComponentOpaque {
				if v.Opaque() != text {
					t.Fatalf("%q: Set opaque %q gave %q", s, text, v)
				}
				return
			}
			if got := partText(q, c); got != text {
				t.Fatalf("%q: Set %s %q gave %q, whose %s is %q", s, c, text, v, c, got)
			}
		} else if got := partText(q, c); got != "" && c != ComponentPath {
			t.Fatalf("%q: Clear %s gave %q", s, c, v)
		}
		// The components the edit does not touch are kept.
		if c != ComponentScheme && p.Scheme != q.Scheme {
			t.Fatalf("%q: edit %s changed the scheme: %q", s, c, v)
		}
		if c != ComponentFragment && (p.Fragment != q.Fragment || p.HasFragment != q.HasFragment) {
			t.Fatalf("%q: edit %s changed the fragment: %q", s, c, v)
		}
		if c != ComponentSearch && c != ComponentOpaque && (p.Search != q.Search || p.HasSearch != q.HasSearch) {
			t.Fatalf("%q: edit %s changed the search: %q", s, c, v)
		}
		if c == ComponentSearch || c == ComponentFragment || c == ComponentPort {
			if p.Host != q.Host || p.User != q.User || p.Password != q.Password || p.Path != q.Path {
				t.Fatalf("%q: edit %s changed another component: %q", s, c, v)
			}
		}
	})
}

// FuzzJoinPathAddSearch: appended segments and pairs read back as data.
func FuzzJoinPathAddSearch(f *testing.F) {
	f.Add("http://h.com/a", "b c", "k", "v w")
	f.Add("ftp://h.com/", "..", "a&b", "=")
	f.Add("a?x", "/", "+", "%")
	f.Fuzz(func(t *testing.T, s, seg, key, value string) {
		u, err := ParseRef(s)
		if err != nil {
			return
		}
		if v, err := u.JoinPath(seg); err == nil {
			p, _ := v.Path()
			last := p[strings.LastIndexByte(p, '/')+1:]
			if d, err := Unescape(last); err != nil || d != seg {
				t.Fatalf("%q.JoinPath(%q) = %q: last segment %q decodes to %q, %v", s, seg, v, last, d, err)
			}
		} else {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%q.JoinPath(%q): %v", s, seg, err)
			}
		}
		v, err := u.AddSearch(key, value)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%q.AddSearch: %v", s, err)
			}
			return
		}
		pairs, err := v.SearchPairs()
		if err != nil {
			if _, perr := u.SearchPairs(); perr == nil {
				t.Fatalf("%q.AddSearch(%q, %q) = %q: %v", s, key, value, v, err)
			}
			return
		}
		last := pairs[len(pairs)-1]
		if last.Key != key || last.Value != value {
			t.Fatalf("%q.AddSearch(%q, %q) = %q reads back %q=%q", s, key, value, v, last.Key, last.Value)
		}
	})
}
