package urlkit

import (
	"errors"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/corpus"
)

// TestCheck checks that Check gives the offset, component and kind of
// every rejection of parseErrorTests, and -1 for every valid URL of
// parseTests, without allocating either way.
func TestCheck(t *testing.T) {
	for _, tt := range parseErrorTests {
		off, c, kind := Check(tt.in)
		if off != tt.offset || c != tt.comp || !errors.Is(kind, tt.kind) {
			t.Errorf("Check(%q) = %d, %v, %v; want %d, %v, %v (%s)", tt.in, off, c, kind, tt.offset, tt.comp, tt.kind, tt.src)
		}
		if n := testing.AllocsPerRun(20, func() { Check(tt.in) }); n != 0 {
			t.Errorf("Check(%q) allocates %v times", tt.in, n)
		}
	}
	for _, tt := range parseTests {
		if off, c, kind := Check(tt.in); off != -1 || c != ComponentNone || kind != nil {
			t.Errorf("Check(%q) = %d, %v, %v; want -1 (%s)", tt.in, off, c, kind, tt.src)
		}
	}
}

// TestParseAgreesWithOldParser runs the fast parser and the straightforward
// one it replaced (oldparse_test.go) over the corpora and the test tables.
func TestParseAgreesWithOldParser(t *testing.T) {
	var in []string
	for _, tt := range parseTests {
		in = append(in, tt.in)
	}
	for _, tt := range parseErrorTests {
		in = append(in, tt.in)
	}
	for _, name := range []string{"ada-url-datasets/kasztp.txt", "ada-url-datasets/node_files.txt", "ada-url-datasets/isaacs_files.txt", "ada-url-datasets/userbait.txt"} {
		in = append(in, corpus.Lines(t, name)...)
	}
	for _, s := range in {
		compareParsers(t, s)
	}
}

// fastLogins are logins at the edges of parseFast's plain-byte login:
// empty user or password, a second ":" or "@", escapes, a "?" in the user,
// a port-like password, an empty or bad host after the "@", and bad bytes
// after a valid login.
var fastLogins = []string{
	"ftp://u@h.dom/", "ftp://u:p@h.dom:21/a;type=i", "ftp://@h.dom/", "ftp://:@h.dom/", "ftp://u:@h.dom/",
	"ftp://:p@h.dom/", "ftp://u:p:q@h.dom/", "ftp://u@v@h.dom/", "ftp://u%20x:p@h.dom/", "ftp://u:p%3A@h.dom/",
	"ftp://u?x@h.dom/", "http://h.dom?x@y/", "http://h.dom:80@x.dom/", "ftp://u:p@/", "file://u@/x", "file://u:p@",
	"ftp://u@h.dom", "ftp://u@h.dom:/", "ftp://u@-h.dom/", "ftp://u@1.2.3.4/", "ftp://u@h.dom/a b", "http://u@h.dom/x?a b",
	"http://u:p@h.dom#f", "http://u;x=y&z@h.dom/", "x-y://u:p@h.dom/\\", "news://u@h.dom/", "mailto://u@h.dom", "ftp://u:p",
	"ftp://u@h.dom?x", "ftp://u:p@h.dom:21", "ftp://u@h.dom@x/", "telnet://u:p@h.dom:23/", "ftp://u/@h.dom/", "ftp://u#@h.dom/",
}

// TestParseFastLogin checks parseFast's logins against the old parser.
func TestParseFastLogin(t *testing.T) {
	for _, s := range fastLogins {
		compareParsers(t, s)
		compareParsers(t, "URL:"+s)
	}
}

// FuzzParseDifferential checks that the fast parser and the straightforward
// one agree on every input, as absolute URLs and as partial ones, and that
// Check agrees with Parse.
func FuzzParseDifferential(f *testing.F) {
	fuzzSeeds(f)
	for _, s := range []string{"http://a.b.c:80/x?y#z", "http://1.2.3.4/", "http://1.2.3/", "http://a-.b/", "http://a..b/", "http://u@h/", "file:///x", "file://:1/", "x://h:1:2/", "http://h:8a/", "http://9a.b9/", "https://h.-x/", "http://h.co?x", "http://a_b.example/", "http://a.b-/", "http://1.2.3.4./", "http://a.9/"} {
		f.Add(s)
	}
	for _, s := range fastLogins {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > maxDifferentialInput {
			t.Skip("longer than the reference's bound (maxDifferentialInput)")
		}
		compareParsers(t, s)
	})
}

// maxDifferentialInput bounds the inputs FuzzParseDifferential compares.
// The reference finds where a refused host dies with an Earley recognizer
// of RFC 1738 5's host rule, whose repetitions are right-recursive, so a
// long label costs it quadratic time: 0.09 s for a 1,000-byte host, 0.9 s
// for 3,000 and 3.5 s for 6,000 on an idle machine, which under CI's load
// and the fuzzer's instrumentation passed the fuzz engine's 10 s limit
// for an input (the worker was reported hung). Longer inputs take no other
// path of the fast parser: its scans go 32 and 64 bytes at a time
// (TestScans, TestFastPathEdges and TestFastPathGuardPage hold them on long inputs).
const maxDifferentialInput = 1024

// compareParsers compares the parsers on s with the fast path's 32-byte
// scans off, and on where they can run (simd.go).
func compareParsers(t *testing.T, s string) {
	defer func(on bool) { simd = on }(simd)
	simd = false
	compareParsers1(t, s)
	if simdAvailable {
		scalar := URL{s: s}
		r := scalar.parseFast()
		simd = true
		compareParsers1(t, s)
		// The same decision, not only the same result: a scan that sent
		// more inputs to the general parser would pass the comparisons
		// above and lose the speed.
		if u := (URL{s: s}); u.parseFast() != r || (r == fastOK && u != scalar) {
			t.Fatalf("%q: parseFast with the 32-byte scans gives %d %+v, without %d %+v", s, u.parseFast(), u, r, scalar)
		}
	}
}

func compareParsers1(t *testing.T, s string) {
	refGrammar(t)
	for _, partial := range []bool{false, true} {
		parse := Parse
		if partial {
			parse = ParseRef
		}
		u, err := parse(s)
		v, oldErr := oldParse(s, partial)
		if (err == nil) != (oldErr == nil) {
			t.Fatalf("%q (partial %v): new parser says %v, old parser %v", s, partial, err, oldErr)
		}
		if err == nil {
			if u != v {
				t.Fatalf("%q (partial %v): new parser gives %+v, old parser %+v", s, partial, u, v)
			}
		} else {
			var se, oe *SyntaxError
			if !errors.As(err, &se) || !errors.As(oldErr, &oe) {
				t.Fatalf("%q (partial %v): new parser's error %#v, old parser's %#v", s, partial, err, oldErr)
			}
			if oe.Component == ComponentHost && oe.Err == ErrBadHost {
				// The reference knows where RFC 1738 5's host rule dies:
				// the parser must refuse the host there, or at an earlier
				// byte of a label that cannot end well (RFC 1738 5 leaves
				// the choice: "a-.b" is refused at the "-" or the "."),
				// and exactly there when that byte can be in no host.
				if se.Component != ComponentHost || se.Err != ErrBadHost || se.Offset > oe.Offset ||
					(oe.Detail == "" && !refHostByte(s[oe.Offset]) && se.Offset != oe.Offset) {
					t.Fatalf("%q (partial %v): new parser's error %#v, RFC 1738 5's host rule refuses at %d", s, partial, err, oe.Offset)
				}
			} else if *se != *oe || se.Error() != oe.Error() {
				t.Fatalf("%q (partial %v): new parser's error %#v, old parser's %#v", s, partial, err, oldErr)
			}
		}
		if partial {
			continue
		}
		off, c, kind := Check(s)
		switch {
		case err == nil && off != -1:
			t.Fatalf("%q: Parse accepts, Check says %d %v %v", s, off, c, kind)
		case err != nil:
			se := err.(*SyntaxError)
			if off != se.Offset || c != se.Component || kind != se.Err {
				t.Fatalf("%q: Check says %d %v %v, Parse %d %v %v", s, off, c, kind, se.Offset, se.Component, se.Err)
			}
		}
	}
}
