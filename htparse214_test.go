package urlkit

import (
	"os"
	"strings"
	"testing"
)

// The libwww 2.14 line's HTParse (lynx 2.6 and 2.7.1, 1996-97), which
// ModeLibwww is named after, cannot run as a live oracle: its source is in
// no package CI can install (Debian ships lynx 2.9, whose HTParse moved to
// RFC 3986 dot removal; lynx is the live oracle of internal/testkit/conformance),
// and code from elsewhere does not enter this repository. Its results were
// read once, at development time, from lynx 2.7.1's
// WWW/Library/Implementation/HTParse.c (HTParse with PARSE_ALL, then
// HTSimplify, compiled outside the repository) and are recorded here as
// facts beside urlkit's, class by class. Where the two differ, urlkit's
// result is the one chosen, for the reason given; docs/partial-forms.md
// ("libwww mode is HTParse") and CONFORMANCE.md list the same classes.

// htparseRow is one pair: what urlkit's ModeLibwww gives, and what
// HTParse 2.7.1 gave.
type htparseRow struct {
	base, ref  string
	got        string // urlkit, ModeLibwww: pinned
	htparse    string // lynx 2.7.1 HTParse: a recorded fact
	class      string // "" where the two agree
	reasonHint string // words of the reason, which docs/partial-forms.md must carry
}

// htparseClasses are the differences, with the reason urlkit does not
// follow HTParse 2.7.1 there.
var htparseClasses = map[string]string{
	"fragment of the base": "HTParse 2.7.1 writes the base's fragment after any reference that has none (`g` against `...#f` gives `g#f`), since its callers passed addresses without one; " +
		"RFC 1630 and RFC 1808 2.4.1: the fragment belongs to the reference, so urlkit never carries a base's fragment to another reference",
	"empty fragment": "HTParse 2.7.1 drops an empty `#` (`#` gives the base without fragment); RFC 1630 keeps `#` with an empty fragment as written, so urlkit does",
	"trailing ..": "HTParse 2.7.1's HTSimplify removes `/c/..` at the end with its slash (`..` against `/b/c/d` gives `http://a/b`, a different resource); " +
		"RFC 1808 5.1 and RFC 2396 C.1 give `http://a/b/`, as lynx 2.8 and later do, and so does urlkit",
	"base with no path": "HTParse 2.7.1 appends a relative reference to a base with a host and no path without a `/` (`http://a` + `g` gives `http://ag`, another host); " +
		"urlkit reads the base's path as `/` first, as HTParse itself does for a host-only result (RFC 1808 5.1's rule needs a path to merge with)",
	"dots after ?": "HTParse 2.7.1's HTSimplify runs over the whole result, search part included (`g?y/../x` gives `http://a/b/c/x`); " +
		"RFC 1630's BNF makes the search part not a path, and RFC 2396 C.1 gives `http://a/b/c/g?y/../x`, so urlkit leaves it as written",
}

var htparse214 = []htparseRow{
	// Agreement, for the record: the common cases.
	{"http://a/b/c/d;p?q", "g", "http://a/b/c/g", "http://a/b/c/g", "", ""},
	{"http://a/b/c/d;p?q", ".", "http://a/b/c/", "http://a/b/c/", "", ""},
	{"http://a/b/c/d;p?q", "g/.", "http://a/b/c/g/", "http://a/b/c/g/", "", ""},
	{"http://a/b/c/d;p?q", "../", "http://a/b/", "http://a/b/", "", ""},
	{"http://a/b/c/d;p?q", "../../g", "http://a/g", "http://a/g", "", ""},
	{"http://a/b/c/d;p?q", "g#s", "http://a/b/c/g#s", "http://a/b/c/g#s", "", ""},
	{"http://a/b/c/d;p?q#f", "", "http://a/b/c/d;p?q#f", "http://a/b/c/d;p?q#f", "", ""},
	// A trailing ".." segment.
	{"http://a/b/c/d;p?q", "..", "http://a/b/", "http://a/b", "trailing ..", "RFC 2396 C.1"},
	{"http://a/b/c/d;p?q", "../..", "http://a/", "http://a", "trailing ..", "RFC 2396 C.1"},
	{"http://a/b/c/d;p?q", "g/..", "http://a/b/c/", "http://a/b/c", "trailing ..", "RFC 2396 C.1"},
	{"http://a/b/c/d;p?q", "g/../..", "http://a/b/", "http://a/b", "trailing ..", "RFC 2396 C.1"},
	{"http://a/", "g/..", "http://a/", "http://a", "trailing ..", "RFC 2396 C.1"},
	// A base with no path.
	{"http://a", "g", "http://a/g", "http://ag", "base with no path", "http://ag"},
	{"http://a", ".", "http://a/", "http://a.", "base with no path", "http://ag"},
	{"http://a", "..", "http://a/..", "http://a..", "base with no path", "http://ag"},
	{"http://a", "?y", "http://a/?y", "http://a?y", "base with no path", "http://ag"},
	{"http://a", "g#s", "http://a/g#s", "http://ag#s", "base with no path", "http://ag"},
	// Dot segments after "?".
	{"http://a/b/c/d;p?q", "g?y/../x", "http://a/b/c/g?y/../x", "http://a/b/c/x", "dots after ?", "search part"},
	{"http://a/b/c/d;p?q", "g?y/./x", "http://a/b/c/g?y/./x", "http://a/b/c/g?y/x", "dots after ?", "search part"},
	{"http://a/", "?y/../x", "http://a/?y/../x", "http://a/x", "dots after ?", "search part"},
	{"http://a/", "d;p?q/../x", "http://a/d;p?q/../x", "http://a/x", "dots after ?", "search part"},
	// Fragments.
	{"http://a/b/c/d;p?q#f", "g", "http://a/b/c/g", "http://a/b/c/g#f", "fragment of the base", "RFC 1808 2.4.1"},
	{"http://a/b/c/d;p?q#f", "..", "http://a/b/", "http://a/b#f", "fragment of the base", "RFC 1808 2.4.1"},
	{"http://a/b/c/d;p?q#f", "?y", "http://a/b/c/?y", "http://a/b/c/?y#f", "fragment of the base", "RFC 1808 2.4.1"},
	{"http://a/b/c/d;p?q#f", "/g", "http://a/g", "http://a/g#f", "fragment of the base", "RFC 1808 2.4.1"},
	{"http://a/b/c/d;p?q#f", "#", "http://a/b/c/d;p?q#", "http://a/b/c/d;p?q", "empty fragment", "keeps `#`"},
	{"http://a/b/c/d;p?q", "g#", "http://a/b/c/g#", "http://a/b/c/g", "empty fragment", "keeps `#`"},
}

// TestHTParse214 pins ModeLibwww on the libwww 2.14 line's HTParse: the
// result urlkit chose for each pair, and, where HTParse 2.7.1 differs, a
// documented class whose reason docs/partial-forms.md carries.
func TestHTParse214(t *testing.T) {
	readme, err := os.ReadFile("docs/partial-forms.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range htparse214 {
		u, err := ResolveString(r.base, r.ref, ModeLibwww)
		if err != nil && !IsResolveWarning(err) {
			t.Errorf("%q + %q: %v", r.base, r.ref, err)
			continue
		}
		if got := u.String(); got != r.got {
			t.Errorf("%q + %q = %q, pinned %q (HTParse 2.7.1: %q)", r.base, r.ref, got, r.got, r.htparse)
		}
		switch {
		case r.class == "" && r.got != r.htparse:
			t.Errorf("%q + %q: urlkit %q and HTParse %q differ, but no class says why", r.base, r.ref, r.got, r.htparse)
		case r.class != "" && r.got == r.htparse:
			t.Errorf("%q + %q: classed %q, but urlkit and HTParse agree", r.base, r.ref, r.class)
		case r.class != "":
			seen[r.class]++
			if _, ok := htparseClasses[r.class]; !ok {
				t.Errorf("%q + %q: class %q has no reason", r.base, r.ref, r.class)
			}
			if !strings.Contains(string(readme), r.reasonHint) {
				t.Errorf("%q + %q: docs/partial-forms.md does not carry %q of the reason", r.base, r.ref, r.reasonHint)
			}
		}
	}
	for class := range htparseClasses {
		if seen[class] == 0 {
			t.Errorf("class %q pins no pair", class)
		}
		if !strings.Contains(string(readme), "*"+class+"*") {
			t.Errorf("docs/partial-forms.md's list of differences from HTParse 2.7.1 does not name *%s*", class)
		}
	}
}
