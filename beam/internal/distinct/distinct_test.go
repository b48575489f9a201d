package distinct

import (
	"testing"

	"github.com/urlkit/urlkit"
)

// TestLine: the segment goes where the authority ends (RFC 1738 section
// 3.1: "//<user>:<password>@<host>:<port>/<url-path>"), before a path, a
// search part or a fragment, and a line without an authority is left as
// it is.
func TestLine(t *testing.T) {
	for _, c := range []struct {
		base string
		n    uint64
		want string
	}{
		{"http://a.example/b/c", 5, "http://a.example/d5/b/c"},
		{"http://a.example", 35, "http://a.example/dz"},
		{"http://a.example?q", 36, "http://a.example/d10?q"},
		{"http://u@a.example:8080#f", 1, "http://u@a.example:8080/d1#f"},
		{"file:///etc/hosts", 2, "file:///d2/etc/hosts"},
		{"\ufeffhttps://a.example/", 3, "\ufeffhttps://a.example/d3/"},
		{"mailto:a@b.example", 4, "mailto:a@b.example"},
		{"node:url", 4, "node:url"},
		{"not a url://x", 4, "not a url://x"},
		{"://x", 4, "://x"},
	} {
		if got := string(Line(nil, c.base, c.n)); got != c.want {
			t.Errorf("Line(%q, %d) = %q, want %q", c.base, c.n, got, c.want)
		}
	}
}

// TestDistinctCanonical: two bases with one canonical form (RFC 1630
// equivalence: the host's case, an escaped unreserved character, the default port) give
// different canonical forms once made different by n, and the same base
// with two n too.
func TestDistinctCanonical(t *testing.T) {
	canon := func(s string) string {
		u, err := urlkit.Parse(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		return urlkit.Canonical(u).String()
	}
	bases := []string{"http://A.example/%41x", "http://a.example/Ax", "http://a.example:80/Ax"}
	seen := map[string]string{}
	for i, b := range bases {
		for _, n := range []uint64{uint64(i), uint64(i + 10), uint64(i + 100)} {
			line := string(Line(nil, b, n))
			c := canon(line)
			if other, ok := seen[c]; ok {
				t.Errorf("%q and %q have one canonical form %q", line, other, c)
			}
			seen[c] = line
		}
	}
}
