package text

import (
	"io"
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
		"https://bücher.de/ “http://a.b/c” <URL:http://a.b/x\u00a0y> ähttp://a.b/ http://[::1]/ news:a%zz",
		"<URL:ftp://info.cern.ch./x>\n<URL: >\n<URL:http://a.b/c\n\nd",
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
		// The Scanner finds the same, and rejects the same, whether the
		// text comes in pieces or one byte at a time, with and without
		// Lenient.
		for _, lenient := range []bool{false, true} {
			var want []Rejection
			x := Extractor{Lenient: lenient, Rejected: func(r Rejection) { want = append(want, r) }}
			if lenient {
				got = x.Extract(s)
			} else {
				x.Extract(s)
			}
			for _, r := range want {
				if r.Start > r.Offset || r.Offset > r.End || r.End > len(s) || r.Err == nil || r.Line < 1 {
					t.Fatalf("rejection %+v of %q", r, s)
				}
			}
			for _, r := range []io.Reader{iotest.HalfReader(strings.NewReader(s)), iotest.OneByteReader(strings.NewReader(s))} {
				var rej []Rejection
				sc := Extractor{Lenient: lenient, Rejected: func(r Rejection) { rej = append(rej, r) }}.NewScanner(r)
				sc.chunk = 512
				i := 0
				for sc.Scan() {
					m := sc.Match()
					if i >= len(got) || m.Start != got[i].Start || m.End != got[i].End || m.Line != got[i].Line || m.URL.String() != got[i].URL.String() {
						t.Fatalf("Scanner match %d %q [%d,%d) differs from Extract's", i, m.URL.String(), m.Start, m.End)
					}
					i++
				}
				if i != len(got) || sc.Err() != nil {
					t.Fatalf("Scanner found %d URLs, Extract %d (err %v)", i, len(got), sc.Err())
				}
				if len(rej) != len(want) {
					t.Fatalf("Scanner rejected %d, Extract %d", len(rej), len(want))
				}
				for k := range rej {
					if rej[k].Start != want[k].Start || rej[k].Offset != want[k].Offset || rej[k].Text != want[k].Text || rej[k].Line != want[k].Line {
						t.Fatalf("Scanner rejection %v, Extract's %v", rej[k], want[k])
					}
				}
			}
		}
	})
}
