package urlkit

import (
	"testing"

	"github.com/urlkit/urlkit/internal/resolve"
)

// removeDots1630Rescan is RFC 1630's simplification written directly from
// its words: find the leftmost removal, make it, step back one element and
// look again. It takes quadratic time (it was the implementation until
// issue 10) and is kept as the reference for internal/resolve's one-pass dots1630.
func removeDots1630Rescan(p []byte) int {
	n := len(p)
	for i := 0; i < n; {
		// "/." where "." is a complete element and the "/" is not part of a
		// longer run (an element after "//" starts a section).
		if p[i] == '/' && i+1 < n && p[i+1] == '.' && (i+2 == n || p[i+2] == '/') && (i == 0 || p[i-1] != '/') {
			copy(p[i:], p[i+2:n])
			n -= 2
			i = prevElementRescan(p, i)
			continue
		}
		// "xxx/../" or a final "xxx/..", xxx an element that does not start
		// a section.
		if p[i] != '/' && (i == 0 || p[i-1] == '/') && !(i >= 2 && p[i-2] == '/') {
			e := i
			for e < n && p[e] != '/' {
				e++
			}
			xxx := p[i:e]
			if e+2 < n && p[e+1] == '.' && p[e+2] == '.' && (e+3 == n || p[e+3] == '/') &&
				!(len(xxx) == 1 && xxx[0] == '.') && !(len(xxx) == 2 && xxx[0] == '.' && xxx[1] == '.') {
				cut := e + 4
				if e+3 == n {
					cut = n
				}
				copy(p[i:], p[cut:n])
				n -= cut - i
				i = prevElementRescan(p, i)
				continue
			}
			i = e
			continue
		}
		i++
	}
	return n
}

// prevElement returns the start of the element before index i (the place
// from which a new match may begin after a removal at i).
func prevElementRescan(p []byte, i int) int {
	for i > 0 && p[i-1] == '/' {
		i--
	}
	for i > 0 && p[i-1] != '/' {
		i--
	}
	return i
}

// TestRemoveDots1630Exhaustive compares the one-pass dots1630 (internal/resolve) with
// the rule applied by rescanning, on every path of up to 12 bytes over
// "a", "." and "/", and on some longer elements.
func TestRemoveDots1630Exhaustive(t *testing.T) {
	alpha := []byte("a./")
	n := 0
	var rec func(p []byte, depth int)
	rec = func(p []byte, depth int) {
		n++
		a := append([]byte(nil), p...)
		b := append([]byte(nil), p...)
		if got, want := string(a[:resolve.Dots(a, resolve.RFC1630)]), string(b[:removeDots1630Rescan(b)]); got != want {
			t.Fatalf("resolve.Dots(%q, RFC1630) = %q, the rescanning rule gives %q", p, got, want)
		}
		if depth == 0 {
			return
		}
		for _, c := range alpha {
			rec(append(p, c), depth-1)
		}
	}
	rec(nil, 12)
	for _, s := range []string{"//host/abc/../d", "/x/ab/../../cd/./e/..", "a//bc/../d", "/.../../x", "/..a/../b/.a/./c"} {
		a, b := []byte(s), []byte(s)
		if got, want := string(a[:resolve.Dots(a, resolve.RFC1630)]), string(b[:removeDots1630Rescan(b)]); got != want {
			t.Errorf("resolve.Dots(%q, RFC1630) = %q, the rescanning rule gives %q", s, got, want)
		}
	}
	t.Logf("%d paths agree", n)
}
