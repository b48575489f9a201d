package text

import (
	"bufio"
	"errors"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/urlkit/urlkit"
)

// rfc1738Example is the example paragraph of RFC 1738's appendix,
// "Recommendations for URLs in Context", as the RFC prints it (the command
// line's extract test reads the same file).
var rfc1738Example = func() string {
	b, err := os.ReadFile("testdata/rfc1738-appendix.txt")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// TestExtractRFC1738Appendix checks the example of RFC 1738's appendix:
// three wrapped URLs, two of them broken across lines, whose whitespace
// "should be ignored when extracting the URL".
func TestExtractRFC1738Appendix(t *testing.T) {
	got := Extract(rfc1738Example)
	want := []struct {
		url, raw string
	}{
		{"ftp://info.cern.ch/pub/www/doc;type=d", "<URL:ftp://info.cern.ch/pub/www/doc;\n      type=d>"},
		{"ftp://ds.internic.net/rfc", "<URL:ftp://ds.in\n      ternic.net/rfc>"},
		{"http://ds.internic.net/instructions/overview.html#WARNING", "<URL:http://ds.internic.\n      net/instructions/overview.html#WARNING>"},
	}
	if len(got) != len(want) {
		t.Fatalf("Extract found %d URLs, want %d: %v", len(got), len(want), got)
	}
	for i, w := range want {
		m := got[i]
		if m.URL.String() != w.url || m.Text != w.url {
			t.Errorf("URL %d = %q (text %q), want %q", i, m.URL.String(), m.Text, w.url)
		}
		if raw := rfc1738Example[m.Start:m.End]; raw != w.raw {
			t.Errorf("URL %d spans %q, want %q", i, raw, w.raw)
		}
		if !m.Wrapped || !m.Prefixed || m.Ambiguous || m.Alternatives != nil || m.Warnings != nil {
			t.Errorf("URL %d: wrapped=%v prefixed=%v ambiguous=%v alternatives=%v warnings=%v, want wrapped and prefixed only",
				i, m.Wrapped, m.Prefixed, m.Ambiguous, m.Alternatives, m.Warnings)
		}
		if _, err := urlkit.Parse(m.URL.String()); err != nil {
			t.Errorf("URL %d does not parse strictly: %v", i, err)
		}
	}
}

type extractWant struct {
	url      string // the URL as it should be used
	raw      string // the input it spans
	wrapped  bool
	prefixed bool
	alts     []string // for an ambiguous match
}

func checkMatches(t *testing.T, in string, got []Match, want []extractWant) {
	t.Helper()
	if len(got) != len(want) {
		var us []string
		for _, m := range got {
			us = append(us, m.URL.String())
		}
		t.Fatalf("Extract(%q) found %q, want %d URLs", in, us, len(want))
	}
	for i, w := range want {
		m := got[i]
		if m.URL.String() != w.url {
			t.Errorf("Extract(%q)[%d] = %q, want %q", in, i, m.URL.String(), w.url)
		}
		if raw := in[m.Start:m.End]; raw != w.raw {
			t.Errorf("Extract(%q)[%d] spans %q, want %q", in, i, raw, w.raw)
		}
		if m.Wrapped != w.wrapped || m.Prefixed != w.prefixed {
			t.Errorf("Extract(%q)[%d]: wrapped=%v prefixed=%v, want %v %v", in, i, m.Wrapped, m.Prefixed, w.wrapped, w.prefixed)
		}
		var alts []string
		for _, a := range m.Alternatives {
			alts = append(alts, a.String())
		}
		if !reflect.DeepEqual(alts, w.alts) || m.Ambiguous != (w.alts != nil) {
			t.Errorf("Extract(%q)[%d]: ambiguous=%v alternatives=%q, want %q", in, i, m.Ambiguous, alts, w.alts)
		}
	}
}

func TestExtract(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []extractWant
	}{
		// RFC 1738 appendix: the "URL:" prefix and the angle brackets are
		// not part of the URL.
		{"wrapper", "see <URL:http://a.b/c> now",
			[]extractWant{{"http://a.b/c", "<URL:http://a.b/c>", true, true, nil}}},
		{"wrapper prefix in any case", "<url:http://a.b/c>",
			[]extractWant{{"http://a.b/c", "<url:http://a.b/c>", true, true, nil}}},
		// RFC 1738 appendix: "the identifier would be placed within the
		// brackets as well".
		{"wrapper with fragment", "<URL:http://a.b/c#frag>.",
			[]extractWant{{"http://a.b/c#frag", "<URL:http://a.b/c#frag>", true, true, nil}}},
		{"wrapper any scheme", "<URL:g:h>",
			[]extractWant{{"g:h", "<URL:g:h>", true, true, nil}}},
		// RFC 1738 appendix: "extra whitespace (spaces, linebreaks, tabs,
		// etc.) ... should be ignored".
		{"wrapper whitespace", "<URL: ftp://a.b/x\r\n\t  /y z >",
			[]extractWant{{"ftp://a.b/x/yz", "<URL: ftp://a.b/x\r\n\t  /y z >", true, true, nil}}},
		{"plain brackets", "(<http://a.b/c>)",
			[]extractWant{{"http://a.b/c", "<http://a.b/c>", true, false, nil}}},
		{"plain brackets broken", "<ftp:\n  //a.b/c>",
			[]extractWant{{"ftp://a.b/c", "<ftp:\n  //a.b/c>", true, false, nil}}},
		{"plain brackets unknown scheme with //", "<imap://a.b/c>",
			[]extractWant{{"imap://a.b/c", "<imap://a.b/c>", true, false, nil}}},
		{"plain brackets need a URL", "<scheme>:<scheme-specific-part> <a@b.c> <foo:bar>", nil},
		// RFC 1738 appendix: the interpreter of a URL with a line break
		// right after a hyphen "should be aware that the hyphen may or may
		// not actually be part of the URL".
		{"hyphen break", "<URL:http://a.b/draft-\n   ietf.txt>",
			[]extractWant{{"http://a.b/draft-ietf.txt", "<URL:http://a.b/draft-\n   ietf.txt>", true, true,
				[]string{"http://a.b/draft-ietf.txt", "http://a.b/draftietf.txt"}}}},
		{"hyphen break with trailing space", "<URL:http://a.b/x-  \r\n  y>",
			[]extractWant{{"http://a.b/x-y", "<URL:http://a.b/x-  \r\n  y>", true, true,
				[]string{"http://a.b/x-y", "http://a.b/xy"}}}},
		{"hyphen without break", "<URL:http://a.b/x- y>",
			[]extractWant{{"http://a.b/x-y", "<URL:http://a.b/x- y>", true, true, nil}}},
		{"bare hyphen break", "get http://a.b/draft-\nietf.txt now",
			[]extractWant{{"http://a.b/draft-ietf.txt", "http://a.b/draft-\nietf.txt", false, false,
				[]string{"http://a.b/draft-ietf.txt", "http://a.b/draftietf.txt"}}}},
		{"hyphen break where only one reading parses", "<URL:http://a-\n.b/>",
			[]extractWant{{"http://a.b/", "<URL:http://a-\n.b/>", true, true, nil}}},
		{"bare", "go to http://a.b/c now",
			[]extractWant{{"http://a.b/c", "http://a.b/c", false, false, nil}}},
		{"bare prefixed", "URL:http://a.b/c",
			[]extractWant{{"http://a.b/c", "URL:http://a.b/c", false, true, nil}}},
		{"bare at end of sentence", "It is at http://a.b/c. Then",
			[]extractWant{{"http://a.b/c", "http://a.b/c", false, false, nil}}},
		{"bare trailing punctuation", "http://a.b/c, ftp://a.b/d; http://a.b/e: http://a.b/f! http://a.b/g? 'http://a.b/h'",
			[]extractWant{
				{"http://a.b/c", "http://a.b/c", false, false, nil},
				{"ftp://a.b/d", "ftp://a.b/d", false, false, nil},
				{"http://a.b/e", "http://a.b/e", false, false, nil},
				{"http://a.b/f", "http://a.b/f", false, false, nil},
				{"http://a.b/g", "http://a.b/g", false, false, nil},
				{"http://a.b/h", "http://a.b/h", false, false, nil},
			}},
		{"bare in quotes", `"http://a.b/c"`,
			[]extractWant{{"http://a.b/c", "http://a.b/c", false, false, nil}}},
		{"bare in parentheses", "(see http://a.b/c).",
			[]extractWant{{"http://a.b/c", "http://a.b/c", false, false, nil}}},
		{"bare with balanced parentheses", "(http://a.b/f(x)).",
			[]extractWant{{"http://a.b/f(x)", "http://a.b/f(x)", false, false, nil}}},
		{"bare search and fragment", "http://a.b/c?d=e&f#g.",
			[]extractWant{{"http://a.b/c?d=e&f#g", "http://a.b/c?d=e&f#g", false, false, nil}}},
		{"bare opaque schemes", "mailto:a@b.c news:comp.x urn:a:b",
			[]extractWant{
				{"mailto:a@b.c", "mailto:a@b.c", false, false, nil},
				{"news:comp.x", "news:comp.x", false, false, nil},
				{"urn:a:b", "urn:a:b", false, false, nil},
			}},
		{"bare scheme in any case", "HTTP://A.B/",
			[]extractWant{{"HTTP://A.B/", "HTTP://A.B/", false, false, nil}}},
		// Bare URLs are only looked for with the schemes urlkit knows.
		{"bare unknown scheme", "ldap://a.b/c tel:+1-816 foo:bar", nil},
		{"bare needs //", `http:g "news:" Note: 10:30 mailto: x`, nil},
		{"bare word boundary", "xhttp://a.b/", nil},
		// RFC 1738 section 3.1 writes templates such as these.
		{"templates", "http://<host>:<port>/<path>?<searchpart> file://<host>/<path>", nil},
		{"bare not joined across lines", "http://a.b/c\nd",
			[]extractWant{{"http://a.b/c", "http://a.b/c", false, false, nil}}},
		{"bare before HTML end tag", "mailto:a@b.c</a>",
			[]extractWant{{"mailto:a@b.c", "mailto:a@b.c", false, false, nil}}},
		// A wrapper that never closes is given up; what follows is found.
		{"unclosed wrapper then wrapper", "<URL:http://a.b/c and <URL:http://d.e/f>",
			[]extractWant{
				{"http://a.b/c", "URL:http://a.b/c", false, true, nil},
				{"http://d.e/f", "<URL:http://d.e/f>", true, true, nil},
			}},
		{"wrapper given up at a blank line", "<URL:http://a.b/c\n\nhttp://d.e/f>",
			[]extractWant{
				{"http://a.b/c", "URL:http://a.b/c", false, true, nil},
				{"http://d.e/f", "http://d.e/f", false, false, nil},
			}},
		{"wrapper too long", "<URL:http://a.b/" + strings.Repeat("x ", MaxSpan/2) + "> http://d.e/f",
			[]extractWant{
				{"http://a.b/x", "URL:http://a.b/x", false, true, nil},
				{"http://d.e/f", "http://d.e/f", false, false, nil},
			}},
		// The inner "http://" of a wrapper is not a second URL.
		{"no URL inside a wrapper", "<URL:http://a.b/?u=http://c.d/>",
			[]extractWant{{"http://a.b/?u=http://c.d/", "<URL:http://a.b/?u=http://c.d/>", true, true, nil}}},
		{"invalid wrapped URL skipped", "<URL:http:g> <URL:http://a.b/>",
			[]extractWant{{"http://a.b/", "<URL:http://a.b/>", true, true, nil}}},
		{"empty wrapper", "<URL:> <> <URL:   >", nil},
		{"too long bare URL", "http://a.b/" + strings.Repeat("x", MaxSpan) + " http://c.d/",
			[]extractWant{{"http://c.d/", "http://c.d/", false, false, nil}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Extract(tt.in)
			checkMatches(t, tt.in, got, tt.want)
			for _, m := range got {
				if !m.Ambiguous && m.Warnings == nil {
					if _, err := urlkit.Parse(m.Text); err != nil {
						t.Errorf("%q: not repaired but does not parse: %v", m.Text, err)
					}
				}
			}
		})
	}
}

// TestExtractRepaired checks that a bare URL with a character RFC 1738
// section 2.2 calls unsafe is given repaired, with the repair located in
// the input.
func TestExtractRepaired(t *testing.T) {
	in := "Home: http://a.b/~me/ and <URL:http://a.b/\n x~y>"
	got := Extract(in)
	if len(got) != 2 {
		t.Fatalf("found %d URLs, want 2: %v", len(got), got)
	}
	for i, want := range []struct{ url, text string }{
		{"http://a.b/%7Eme/", "http://a.b/~me/"},
		{"http://a.b/x%7Ey", "http://a.b/x~y"},
	} {
		m := got[i]
		if m.URL.String() != want.url || m.Text != want.text {
			t.Errorf("[%d] = %q (text %q), want %q (text %q)", i, m.URL.String(), m.Text, want.url, want.text)
		}
		if len(m.Warnings) != 1 {
			t.Fatalf("[%d] warnings %v, want one", i, m.Warnings)
		}
		if off := m.Warnings[0].Offset; in[off] != '~' {
			t.Errorf("[%d] warning at offset %d (%q), want the offset of the \"~\"", i, off, in[off:])
		}
	}
}

// TestExtractZeroCopy checks that a URL with nothing to remove is a
// substring of the input.
func TestExtractZeroCopy(t *testing.T) {
	in := "x <URL:http://a.b/c> y"
	m := Extract(in)[0]
	if u := m.URL.String(); u != in[7:19] {
		t.Fatalf("URL %q, want %q", u, in[7:19])
	}
	allocs := testing.AllocsPerRun(100, func() { Extract(in) })
	if allocs > 1 {
		t.Errorf("Extract of one wrapped URL allocates %v times, want 1 (the result slice)", allocs)
	}
}

// TestExtractCorpusSample checks every hand-annotated URL of
// testdata/sample.tsv against the corpus: each must be found
// exactly, on its line and in its form.
func TestExtractCorpusSample(t *testing.T) {
	corpus := readCorpus(t)
	f, err := os.Open("testdata/sample.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type key struct {
		file string
		line int
		url  string
	}
	found := map[string]map[key]Match{}
	rows := 0
	sc := bufio.NewScanner(f)
	header := true
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		if header {
			header = false
			continue
		}
		col := strings.Split(line, "\t")
		if len(col) != 4 {
			t.Fatalf("bad sample row %q", line)
		}
		rows++
		name, form, url := col[0], col[2], col[3]
		n, err := strconv.Atoi(col[1])
		if err != nil {
			t.Fatalf("bad line number in %q", line)
		}
		text, ok := corpus[name]
		if !ok {
			t.Fatalf("sample names %s, which is not in the corpus", name)
		}
		if found[name] == nil {
			found[name] = map[key]Match{}
			for _, m := range Extract(text) {
				ln := 1 + strings.Count(text[:m.Start], "\n")
				found[name][key{name, ln, m.URL.String()}] = m
			}
		}
		m, ok := found[name][key{name, n, url}]
		if !ok {
			t.Errorf("%s:%d: %s not found", name, n, url)
			continue
		}
		var gotForm string
		switch {
		case m.Wrapped && m.Prefixed:
			gotForm = "URL:"
		case m.Wrapped:
			gotForm = "<>"
		default:
			gotForm = "bare"
		}
		if gotForm != form {
			t.Errorf("%s:%d: %s found as %s, want %s", name, n, url, gotForm, form)
		}
	}
	if rows < 100 {
		t.Errorf("the sample has %d URLs, want at least 100", rows)
	}
}

// TestExtractCorpus runs over every file of the corpus: every match lies
// within the input, does not overlap the one before, and parses.
func TestExtractCorpus(t *testing.T) {
	for name, text := range readCorpus(t) {
		prev := 0
		for _, m := range Extract(text) {
			checkMatchInvariants(t, name, text, m, prev)
			prev = m.End
		}
	}
}

func checkMatchInvariants(t *testing.T, name, text string, m Match, prev int) {
	t.Helper()
	if m.Start < prev || m.End <= m.Start || m.End > len(text) {
		t.Fatalf("%s: match %q spans [%d,%d), after %d in %d bytes", name, m.URL.String(), m.Start, m.End, prev, len(text))
	}
	if _, err := urlkit.Parse(m.URL.String()); err != nil {
		t.Errorf("%s: match %q does not parse: %v", name, m.URL.String(), err)
	}
	if m.Warnings == nil && m.Text != m.URL.String() {
		t.Errorf("%s: text %q differs from URL %q without a repair", name, m.Text, m.URL.String())
	}
	// The text is what the span holds, less whitespace, wrapper and prefix
	// (and, for the second reading of an ambiguous match, hyphens).
	squeezed := strings.Join(strings.Fields(text[m.Start:m.End]), "")
	if m.Wrapped {
		squeezed = strings.TrimSuffix(squeezed[1:], ">")
	}
	if m.Prefixed {
		squeezed = squeezed[4:]
	}
	if squeezed != m.Text && !m.Ambiguous {
		t.Errorf("%s: text %q, but the span holds %q", name, m.Text, text[m.Start:m.End])
	}
	for _, w := range m.Warnings {
		if w.Offset < m.Start || w.Offset >= m.End {
			t.Errorf("%s: warning %v outside the match [%d,%d)", name, w, m.Start, m.End)
		}
	}
}

func scanAll(t testing.TB, r io.Reader, chunk int) ([]Match, error) {
	t.Helper()
	sc := NewScanner(r)
	if chunk > 0 {
		sc.chunk = chunk
	}
	var out []Match
	for sc.Scan() {
		out = append(out, sc.Match())
	}
	return out, sc.Err()
}

func sameMatches(a, b []Match) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.URL.String() != y.URL.String() || x.Text != y.Text || x.Start != y.Start || x.End != y.End || x.Line != y.Line ||
			x.Wrapped != y.Wrapped || x.Prefixed != y.Prefixed || x.Ambiguous != y.Ambiguous ||
			len(x.Alternatives) != len(y.Alternatives) || !reflect.DeepEqual(x.Warnings, y.Warnings) {
			return false
		}
	}
	return true
}

// TestScannerMatchesExtract checks that streaming finds exactly what
// Extract finds, wherever the reads happen to split the text.
func TestScannerMatchesExtract(t *testing.T) {
	texts := map[string]func(*testing.T) string{
		"example": func(*testing.T) string { return rfc1738Example },
		"unclosed": func(*testing.T) string {
			return strings.Repeat("<URL:http://a.b/c "+strings.Repeat("y", 3000)+" http://d.e/f-\n g ", 40)
		},
		"non-ASCII": func(*testing.T) string {
			return strings.Repeat("“http://a.b/c” https://bücher.de/ <URL:http://a.b/\u00a0x\n y> http://b\xfccher/ ", 300)
		},
		"corpus": func(t *testing.T) string {
			corpus := readCorpus(t)
			var all strings.Builder
			for _, name := range []string{"rfc1738.txt", "rfc2368.txt", "minutes-SJ.txt", "rfc1630.txt", "rfc3986.txt"} {
				all.WriteString(corpus[name])
			}
			return all.String()
		},
	}
	for name, get := range texts {
		t.Run(name, func(t *testing.T) {
			text := get(t)
			want := Extract(text)
			for _, chunk := range []int{0, 1000, 4097, 7777} {
				got, err := scanAll(t, strings.NewReader(text), chunk)
				if err != nil {
					t.Fatal(err)
				}
				if !sameMatches(got, want) {
					t.Errorf("chunk %d: Scanner found %d URLs, Extract %d, or they differ", chunk, len(got), len(want))
				}
			}
			got, err := scanAll(t, iotest.OneByteReader(strings.NewReader(text)), 0)
			if err != nil || !sameMatches(got, want) {
				t.Errorf("one byte at a time: Scanner found %d URLs, Extract %d, or they differ (%v)", len(got), len(want), err)
			}
		})
	}
}

// endless is a stream of n bytes repeating a pattern.
type endless struct {
	pattern string
	n, off  int
}

func (e *endless) Read(p []byte) (int, error) {
	if e.off >= e.n {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && e.off < e.n {
		c := copy(p[k:min(len(p), k+e.n-e.off)], e.pattern[e.off%len(e.pattern):])
		k += c
		e.off += c
	}
	return k, nil
}

// TestScannerBoundedMemory streams 32 MiB holding wrappers that never close
// and checks that the Scanner's buffer stays bounded and that no URL is
// lost.
func TestScannerBoundedMemory(t *testing.T) {
	pattern := "<URL:http://a.b/never " + strings.Repeat("z", 1000) + " closed. See <URL:http://c.d/\n e> and http://f.g/h.\n"
	const size = 32 << 20
	sc := NewScanner(&endless{pattern: pattern, n: size})
	n, maxCap := 0, 0
	for sc.Scan() {
		m := sc.Match()
		switch m.URL.String() {
		case "http://a.b/never", "http://c.d/e", "http://f.g/h":
		default:
			t.Fatalf("unexpected match %q at %d", m.URL.String(), m.Start)
		}
		n++
		maxCap = max(maxCap, cap(sc.buf))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if want := 3 * (size / len(pattern)); n < want {
		t.Errorf("found %d URLs, want at least %d", n, want)
	}
	if limit := chunkSize + lookahead + lookback; maxCap > limit {
		t.Errorf("buffer grew to %d bytes, want at most %d", maxCap, limit)
	}
}

// TestScannerReadError checks that the URLs before a read error are found
// and the error is reported with its offset, wrapping the reader's error.
func TestScannerReadError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("see http://a.b/c and <URL:ftp://d.e/f>"), iotest.ErrReader(boom))
	got, err := scanAll(t, r, 0)
	if len(got) != 2 || got[0].URL.String() != "http://a.b/c" || got[1].URL.String() != "ftp://d.e/f" {
		t.Errorf("found %v before the error", got)
	}
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "offset 38") {
		t.Errorf("Err() = %v, want an error at offset 38 wrapping %v", err, boom)
	}
}
