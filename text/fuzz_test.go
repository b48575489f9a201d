package text

import (
	"strings"
	"testing"
	"testing/iotest"

	"github.com/urlkit/urlkit"
)

// FuzzExtract checks that no text makes Extract panic, that every match
// lies within the input and after the one before it, that every match
// that is not ambiguous parses strictly (as written or as repaired), that
// both readings of an ambiguous match parse, and that a Scanner reading
// the same text in small pieces finds the same URLs.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		rfc1738Example,
		"<URL:http://a.b/draft-\n   ietf.txt>",
		"see http://a.b/c. and (http://a.b/f(x)), 'mailto:a@b.c'",
		"<URL:http://a.b/c and <URL:http://d.e/f>",
		"<ftp:\n //a.b/c> <imap://x/y> URL:news:comp.x",
		"http://<host>:<port>/<path> http://a.b/~me/ http://a.b/%zz",
		"<URL:http://a-\n.b/> http://x.y/a-\n\n b",
		"\x00<URL:\xff:>:::<<<>>>://",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Extract(s)
		prev := 0
		for _, m := range got {
			if m.Start < prev || m.End <= m.Start || m.End > len(s) {
				t.Fatalf("match %q spans [%d,%d), after %d, in %d bytes", m.URL.String(), m.Start, m.End, prev, len(s))
			}
			prev = m.End
			if _, err := urlkit.Parse(m.URL.String()); err != nil {
				t.Fatalf("match %q from %q does not parse: %v", m.URL.String(), s[m.Start:m.End], err)
			}
			if m.Ambiguous != (m.Alternatives != nil) || (m.Ambiguous && len(m.Alternatives) != 2) {
				t.Fatalf("match %q: ambiguous=%v alternatives=%v", m.URL.String(), m.Ambiguous, m.Alternatives)
			}
			for _, a := range m.Alternatives {
				if _, err := urlkit.Parse(a.String()); err != nil {
					t.Fatalf("alternative %q does not parse: %v", a.String(), err)
				}
			}
			for _, w := range m.Warnings {
				if w.Offset < m.Start || w.Offset > m.End {
					t.Fatalf("warning %v outside [%d,%d)", w, m.Start, m.End)
				}
			}
		}
		sc := NewScanner(iotest.HalfReader(strings.NewReader(s)))
		sc.chunk = 512
		i := 0
		for sc.Scan() {
			m := sc.Match()
			if i >= len(got) || m.Start != got[i].Start || m.End != got[i].End || m.URL.String() != got[i].URL.String() {
				t.Fatalf("Scanner match %d %q [%d,%d) differs from Extract's", i, m.URL.String(), m.Start, m.End)
			}
			i++
		}
		if i != len(got) || sc.Err() != nil {
			t.Fatalf("Scanner found %d URLs, Extract %d (err %v)", i, len(got), sc.Err())
		}
	})
}
