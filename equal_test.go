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
		{"mailto:a%40b", "mailto:a%40b"},
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
