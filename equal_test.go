package urlkit

import "testing"

func TestEqual(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
		src  string
	}{
		{"http://info.cern.ch/albert/bertram/marie-claude", "http://info.cern.ch/albert/bertram/marie%2Dclaude", true, "RFC 1630 Example 1"},
		{"http://info.cern.ch/albert/bertram/marie-claude", "http://info.cern.ch/albert/bertram%2Fmarie-claude", false, "RFC 1630 Example 2"},
		{"HTTP://INFO.CERN.CH/x", "http://info.cern.ch/x", true, "RFC 1738 5: scheme case-ignore; host names (RFC 1034)"},
		{"http://info.cern.ch/X", "http://info.cern.ch/x", false, "paths are case-sensitive"},
		{"http://h:80/x", "http://h/x", true, "RFC 1738 3.3: port defaults to 80"},
		{"http://h:0080/x", "http://h/x", true, "port is decimal digits"},
		{"ftp://h:21/x", "ftp://h/x", true, "RFC 1738 3.2: port defaults to 21"},
		{"gopher://h:70/", "gopher://h", true, "RFC 1738 3.4: port 70; empty path"},
		{"http://h:8000/x", "http://h/x", false, "non-default port"},
		{"http://h", "http://h/", true, "RFC 1738 3.3: the / may be omitted"},
		{"http://h/%7e", "http://h/%7E", true, "hex case"},
		{"http://h/a%3Bb", "http://h/a;b", false, "reserved ; keeps its meaning"},
		{"http://h/a?b%2Bc", "http://h/a?b+c", false, "RFC 1630: + in a search means space"},
		{"http://h/a%2Bb", "http://h/a+b", true, "+ is safe in a path"},
		{"news:%2A", "news:*", false, "RFC 1630: * is reserved for the schemes"},
		{"http://h/%2E%2E/x", "http://h/../x", false, "RFC 1630: .. is reserved"},
		{"http://h/%2E%2Ex/x", "http://h/..x/x", true, "..x is not a dot segment"},
		{"http://h/x#%41", "http://h/x#A", true, "fragments are canonicalised too"},
		{"http://h/x#a", "http://h/x#b", false, "fragments take part"},
		{"ftp://U%41@h/", "ftp://UA@h/", true, "user"},
		{"URL:http://h/", "http://h/", true, "RFC 1738 appendix: the prefix is not part of the URL"},
		{"file:///etc/motd", "file://localhost/etc/motd", true, `RFC 1630 "a void host field is equivalent to localhost"; RFC 1738 3.10`},
		{"file:///etc/motd", "file://LocalHost/etc/motd", true, "RFC 1738 3.10; host names ignore case"},
		{"FILE://localhost/", "file:///", true, "RFC 1738 3.10"},
		{"file:///etc/motd", "file://otherhost/etc/motd", false, "RFC 1738 3.10: another host"},
		{"ftp://localhost/x", "ftp://127.0.0.1/x", false, "no name resolution"},
	} {
		a, b := MustParse(tt.a), MustParse(tt.b)
		if got := Equal(a, b); got != tt.want {
			t.Errorf("%s: Equal(%q, %q) = %v (canonical %q, %q)", tt.src, tt.a, tt.b, got, Canonical(a), Canonical(b))
		}
		if Equal(b, a) != Equal(a, b) {
			t.Errorf("Equal not symmetric for %q, %q", tt.a, tt.b)
		}
		for _, u := range []URL{a, b} {
			c := Canonical(u)
			if cc := Canonical(c); cc.String() != c.String() {
				t.Errorf("Canonical not idempotent: %q -> %q -> %q", u, c, cc)
			}
			if _, err := Parse(c.String()); err != nil {
				t.Errorf("Canonical(%q) = %q does not parse: %v", u, c, err)
			}
		}
	}
}

func TestCanonical(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"HTTP://Info.CERN.ch:0080/a%2d%7e%2f?q%2b%41#F%6f", "http://info.cern.ch/a-%7E%2F?q%2BA#Fo"},
		{"ftp://h:2121", "ftp://h:2121/"},
		{"x-y://H/p", "x-y://h/p"},
		{"mailto:a%40b", "mailto:a@b"}, // RFC 1738 3.5: within mailto URLs, there are no reserved characters
		{"gopher://H/1a%2Fb%3F%2B", "gopher://h/1a/b?+"},
		{"x-y://h/a%3Fb", "x-y://h/a%3Fb"},
		{"../%61", "../a"},
	} {
		u, err := ParseRef(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := Canonical(u).String(); got != tt.want {
			t.Errorf("Canonical(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	u := MustParse("http://h/x")
	if n := testing.AllocsPerRun(100, func() { Canonical(u) }); n != 0 {
		t.Errorf("Canonical of a canonical URL allocates %v times", n)
	}
}

// TestEqualReservedByScheme: an escape changes a URL's meaning only when
// its scheme reserves the character there (RFC 1738 2.2: "encoding a
// character reserved for a particular scheme may change the semantics of
// a URL"; "No other characters may be reserved within a scheme"). Each
// scheme's section says which it reserves; a scheme that says nothing
// keeps RFC 1630's generic set.
func TestEqualReservedByScheme(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
		src  string
	}{
		// RFC 1738 3.4.1: "Within the <gopher-path>, no characters are reserved."
		{"gopher://h/1a?b", "gopher://h/1a%3Fb", true, "RFC 1738 3.4.1: no characters reserved in the gopher-path"},
		{"gopher://h/1a/b", "gopher://h/1a%2Fb", true, "RFC 1738 3.4.1"},
		{"gopher://h/1a;b:c@d=e&f", "gopher://h/1a%3Bb%3Ac%40d%3De%26f", true, "RFC 1738 3.4.1"},
		{"gopher://h/1a?b+c", "gopher://h/1a?b%2Bc", true, "RFC 1738 3.4.1: \"+\" is data in a selector, not RFC 1630's space"},
		{"gopher://h/1a!*", "gopher://h/1a%21%2A", true, "RFC 1738 3.4.1, 2.2: no other characters may be reserved"},
		{"gopher://h/1a%09b", "gopher://h/1a%09c", false, "RFC 1738 3.4: the %09 separates selector and search; different data"},
		// RFC 1738 3.2.2: "Within a name or CWD component, the characters "/" and ";" are reserved".
		{"ftp://h/a?b", "ftp://h/a%3Fb", true, "RFC 1738 3.2.2: only / and ; are reserved in ftp names"},
		{"ftp://h/a:b@c=d&e", "ftp://h/a%3Ab%40c%3Dd%26e", true, "RFC 1738 3.2.2"},
		{"ftp://h/a/b", "ftp://h/a%2Fb", false, "RFC 1738 3.2.2: / is reserved"},
		{"ftp://h/a;type=i", "ftp://h/a%3Btype=i", false, "RFC 1738 3.2.2: ; is reserved"},
		{"ftp://h/a;type=i", "ftp://h/a;type%3Di", false, "RFC 1738 3.2.2: after the reserved \";\", \"=\" is ;type='s"},
		{"ftp://h/a=b;type=i", "ftp://h/a%3Db;type=i", true, "RFC 1738 3.2.2: \"=\" in a name is data"},
		{"ftp://h/d%3F/a;type=i", "ftp://h/d?/a;type%3Di", false, "RFC 1738 3.2.2: the search part is part of the fpath, ;type= included"},
		{"ftp://h/d%3F/a%3D;type=i", "ftp://h/d?/a=;type=i", true, "RFC 1738 3.2.2: ? and = are data in names"},
		{"gopher://h/1a%3Fb?c", "gopher://h/1a?b?c", true, "RFC 1738 3.4.1: the whole selector is data"},
		{"ftp://u%3Ab@h/", "ftp://u:b@h/", false, "RFC 1738 3.1: within the user and password field, \":\", \"@\" or \"/\" must be encoded"},
		// RFC 1738 3.3: "Within the <path> and <searchpart> components, "/", ";", "?" are reserved."
		{"http://h/a@b", "http://h/a%40b", true, "RFC 1738 3.3: @ is not reserved in http paths"},
		{"http://h/a?b=c&d:e@f", "http://h/a?b%3Dc%26d%3Ae%40f", true, "RFC 1738 3.3: searchpart reserves /, ;, ? only"},
		{"http://h/a?b", "http://h/a%3Fb", false, "RFC 1738 3.3: ? is reserved"},
		{"http://h/a;b", "http://h/a%3Bb", false, "RFC 1738 3.3: ; is reserved"},
		{"http://h/a?b/c", "http://h/a?b%2Fc", false, "RFC 1738 3.3: / is reserved in the searchpart"},
		{"http://h/a?b+c", "http://h/a?b%2Bc", false, "RFC 1630: within the query string, + is shorthand for a space"},
		{"https://h/a@b", "https://h/a%40b", true, "RFC 2818 2.4: https is http's syntax"},
		// RFC 1738 3.6: "@" tells a message-id from a group; "No additional characters are reserved".
		{"news:a?b@h.example", "news:a%3Fb@h.example", true, "RFC 1738 3.6: no additional characters are reserved"},
		{"news:a/b;c@h.example", "news:a%2Fb%3Bc@h.example", true, "RFC 1738 3.6"},
		{"news:a@h.example", "news:a%40h.example", false, "RFC 1738 3.6: @ marks a message-id"},
		{"news:*", "news:%2A", false, "RFC 1738 3.6: news:* is all groups"},
		// RFC 1738 3.5: "Within mailto URLs, there are no reserved characters."
		{"mailto:a@b.example", "mailto:a%40b.example", true, "RFC 1738 3.5"},
		{"mailto:a?b@c.example", "mailto:a%3Fb@c.example", true, "RFC 1738 3.5"},
		// A scheme whose section says nothing: RFC 1630's generic set.
		{"prospero://h/a@b", "prospero://h/a%40b", false, "RFC 1630: @ is reserved (generic set)"},
		{"x-y://h/a?b", "x-y://h/a%3Fb", false, "RFC 1630: ? is reserved (generic set)"},
		{"x-y://h/a*", "x-y://h/a%2A", false, "RFC 1630: * is reserved for the schemes"},
		{"x-y://h/a-", "x-y://h/a%2D", true, "RFC 1630 Example 1"},
		{"wais://h/d?a@b", "wais://h/d?a%40b", false, "RFC 1630 (generic set): RFC 1738 3.9 does not say"},
	} {
		a, b := MustParse(tt.a), MustParse(tt.b)
		if got := Equal(a, b); got != tt.want {
			t.Errorf("%s: Equal(%q, %q) = %v (canonical %q, %q)", tt.src, tt.a, tt.b, got, Canonical(a), Canonical(b))
		}
		for _, u := range []URL{a, b} {
			c := Canonical(u)
			if cc := Canonical(c); cc.String() != c.String() {
				t.Errorf("Canonical not idempotent: %q -> %q -> %q", u, c, cc)
			}
			if needsCanon(c) {
				t.Errorf("needsCanon(Canonical(%q) = %q) is true", u, c)
			}
		}
	}
}
