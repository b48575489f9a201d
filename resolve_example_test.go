package urlkit_test

import (
	"errors"
	"fmt"

	"github.com/urlkit/urlkit"
)

// RFC 1630's own example table, in its context magic://a/b/c//d/e/f. The
// rule as written and the printed examples differ on "/g".
func ExampleResolve() {
	base := urlkit.MustParse("magic://a/b/c//d/e/f")
	for _, r := range []string{"g", "/g", "//g", "../g", "g:h"} {
		ref, _ := urlkit.ParseRef(r)
		rule, _ := urlkit.Resolve(base, ref, urlkit.ModeRFC1630)
		practice, _ := urlkit.Resolve(base, ref, urlkit.ModeLibwww)
		fmt.Printf("%-5s %-22s %s\n", r, rule, practice)
	}
	// Output:
	// g     magic://a/b/c//d/e/g   magic://a/b/c//d/e/g
	// /g    magic://a/b/c//d/g     magic://a/g
	// //g   magic://g              magic://g/
	// ../g  magic://a/b/c//d/g     magic://a/b/c//d/g
	// g:h   g:h                    g:h
}

// The modes differ on queries and on dot segments that climb above the
// root.
func ExampleResolveString() {
	for _, m := range urlkit.Modes() {
		a, _ := urlkit.ResolveString("http://a/b/c/d;p?q", "?y", m)
		b, _ := urlkit.ResolveString("http://a/b/c/d;p?q", "../../../g", m)
		fmt.Printf("%-7s %-20s %s\n", m, a, b)
	}
	// Output:
	// rfc1630 http://a/b/c/?y      http://a/../g
	// libwww  http://a/b/c/?y      http://a/../g
	// rfc3986 http://a/b/c/d;p?y   http://a/g
	// rfc1808 http://a/b/c/d;p?y   http://a/../g
}

// A news article may refer to another article by its message identifier
// alone (RFC 1630, News).
func ExampleResolveString_news() {
	u, _ := urlkit.ResolveString("news:12345@info.cern.ch", "67890@info.cern.ch", urlkit.ModeRFC1630)
	fmt.Println(u)
	// Output: news:67890@info.cern.ch
}

// A bad reference gets an error that says where the problem is.
func ExampleResolveString_error() {
	_, err := urlkit.ResolveString("http://a/b/c", "g h", urlkit.ModeRFC3986)
	fmt.Println(err)
	// Output: resolve "g h" against "http://a/b/c" (rfc3986): reference: offset 1 in path: space must be encoded as %20 (RFC 1738 2.2: unsafe)
}

func ExampleRelative() {
	base := urlkit.MustParse("http://a/b/c/d;p?q")
	for _, t := range []string{"http://a/b/c/g", "http://a/b/g?y", "http://a/x", "http://h/b", "ftp://a/b"} {
		r, _ := urlkit.Relative(base, urlkit.MustParse(t), urlkit.ModeRFC3986)
		fmt.Printf("%-16s %q\n", t, r)
	}
	// Output:
	// http://a/b/c/g   "g"
	// http://a/b/g?y   "../g?y"
	// http://a/x       "/x"
	// http://h/b       "//h/b"
	// ftp://a/b        "ftp://a/b"
}

func ExampleRemoveDotSegments() {
	for _, m := range urlkit.Modes() {
		fmt.Printf("%-7s %s\n", m, urlkit.RemoveDotSegments("/s//a/b/../../../g/.", m))
	}
	// Output:
	// rfc1630 /s//a/../../g
	// libwww  /s//a/../../g/
	// rfc3986 /s/g/
	// rfc1808 /s/g/
}

// A base that breaks only its scheme's rules (http URLs need a host)
// still resolves: the partial form works on the generic syntax. The
// result comes with a *ResolveWarning, which tells a warning from a
// failure; a caller that treats every error as a failure stays strict.
func ExampleResolveWarning() {
	u, err := urlkit.ResolveString("http:///s//a/b/c", "../g", urlkit.ModeRFC1630)
	var w *urlkit.ResolveWarning
	switch {
	case errors.As(err, &w):
		fmt.Println("result:", u)
		for _, f := range w.Findings {
			fmt.Println("warning:", f.Part, f.Err)
		}
	case err != nil:
		fmt.Println("failed:", err)
	}
	// A reference whose "scheme" is no scheme name is a failure.
	_, err = urlkit.ResolveString("http://a/b/c/d", "a_b:y", urlkit.ModeRFC1630)
	fmt.Println(urlkit.IsResolveWarning(err), errors.Is(err, urlkit.ErrBadScheme))
	// Output:
	// result: http:///s//a/g
	// warning: base offset 7 in host: missing host: the common Internet scheme syntax needs a host after "//" (RFC 1738 3.1)
	// warning: result offset 7 in host: missing host: the common Internet scheme syntax needs a host after "//" (RFC 1738 3.1)
	// false true
}
