package urlkit

import (
	"errors"
	"testing"

	"github.com/urlkit/urlkit/internal/corpus"
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

// FuzzParseDifferential checks that the fast parser and the straightforward
// one agree on every input, as absolute URLs and as partial ones, and that
// Check agrees with Parse.
func FuzzParseDifferential(f *testing.F) {
	fuzzSeeds(f)
	for _, s := range []string{"http://a.b.c:80/x?y#z", "http://1.2.3.4/", "http://1.2.3/", "http://a-.b/", "http://a..b/", "http://u@h/", "file:///x", "file://:1/", "x://h:1:2/", "http://h:8a/", "http://9a.b9/", "https://h.-x/", "http://h.co?x"} {
		f.Add(s)
	}
	f.Fuzz(compareParsers)
}

func compareParsers(t *testing.T, s string) {
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
			if !errors.As(err, &se) || !errors.As(oldErr, &oe) || *se != *oe || se.Error() != oe.Error() {
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
