package text

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/corpus"
)

// extractAll runs Extract with the options given and returns the URLs and
// the rejections.
func extractAll(in string, lenient bool) ([]string, []Rejection) {
	var rej []Rejection
	var urls []string
	for _, m := range (Extractor{Lenient: lenient, Rejected: func(r Rejection) { rej = append(rej, r) }}).Extract(in) {
		urls = append(urls, m.URL.String())
	}
	return urls, rej
}

// TestExtractNonASCII checks that a non-ASCII letter never ends a URL
// early (RFC 1738 2.2: non-ASCII octets must be encoded, so the writer's
// URL is not the part before the letter), and that non-ASCII white space,
// punctuation and symbols end a bare URL as ASCII ones do.
func TestExtractNonASCII(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		strict    []string // URLs found without Lenient
		lenient   []string // with Lenient
		rejectAt  string   // the input from the first rejection's offset on (strict)
		rejectErr error    // its kind (strict)
	}{
		{"host", "see https://bücher.de/ now", nil, []string{"https://xn--bcher-kva.de/"}, "ücher.de/ now", ErrNonASCII},
		{"host in Latin-1", "see http://b\xfccher.de/ now", nil, nil, "\xfccher.de/ now", ErrNonASCII},
		{"path", "see http://a.example/bücher/x.", nil, []string{"http://a.example/b%C3%BCcher/x"}, "ücher/x.", ErrNonASCII},
		{"letter before the scheme", "ähttp://a.example/ and xhttp://a.example/", nil, nil, "", nil},
		{"curly quotes", "“http://a.example/c” «ftp://a.example/d»", []string{"http://a.example/c", "ftp://a.example/d"}, []string{"http://a.example/c", "ftp://a.example/d"}, "", nil},
		{"no-break space and arrow", "http://a.example/d\u00a0next http://a.example/e→f", []string{"http://a.example/d", "http://a.example/e"}, []string{"http://a.example/d", "http://a.example/e"}, "", nil},
		{"right after the colon", "mailto:üser@a.example", nil, []string{"mailto:%C3%BCser@a.example"}, "üser@a.example", ErrNonASCII},
		{"wrapper", "<URL:http://a.example/bü>", nil, []string{"http://a.example/b%C3%BC"}, "ü>", ErrNonASCII},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rej := extractAll(tt.in, false)
			if strings.Join(got, " ") != strings.Join(tt.strict, " ") {
				t.Errorf("strict: found %q, want %q", got, tt.strict)
			}
			if tt.rejectErr == nil {
				if len(rej) != 0 {
					t.Errorf("strict: rejected %v, want nothing", rej)
				}
			} else if len(rej) != 1 || !errors.Is(rej[0].Err, tt.rejectErr) || tt.in[rej[0].Offset:] != tt.rejectAt {
				t.Errorf("strict: rejected %v, want one %v at %q", rej, tt.rejectErr, tt.rejectAt)
			}
			got, _ = extractAll(tt.in, true)
			if strings.Join(got, " ") != strings.Join(tt.lenient, " ") {
				t.Errorf("lenient: found %q, want %q", got, tt.lenient)
			}
		})
	}
}

// TestExtractLenientHost checks that Lenient maps an international host
// name by IDNA (UTS #46, the lenient reading) and reports it, and that a
// host in Latin-1, which is no UTF-8 and so no name IDNA can map, is still
// given up with the host error at its first byte.
func TestExtractLenientHost(t *testing.T) {
	ms := Extractor{Lenient: true}.Extract("see https://bücher.de/")
	if len(ms) != 1 || ms[0].URL.String() != "https://xn--bcher-kva.de/" || len(ms[0].Warnings) != 1 ||
		ms[0].Warnings[0].Offset != 12 || ms[0].Warnings[0].Component != urlkit.ComponentHost {
		t.Fatalf("got %v", ms)
	}
	in := "https://b\xfccher.de/"
	got, rej := extractAll(in, true)
	var se *urlkit.SyntaxError
	if got != nil || len(rej) != 1 || !errors.As(rej[0].Err, &se) || se.Component != urlkit.ComponentHost || rej[0].Offset != 9 {
		t.Fatalf("found %q, rejected %v; want nothing found and one host error at offset 9", got, rej)
	}
}

// TestExtractLenientWarnings checks that each percent-encoded byte is
// reported at its offset in the input.
func TestExtractLenientWarnings(t *testing.T) {
	in := "x http://a.example/é y"
	ms := Extractor{Lenient: true}.Extract(in)
	if len(ms) != 1 || ms[0].URL.String() != "http://a.example/%C3%A9" || ms[0].Text != "http://a.example/é" {
		t.Fatalf("got %v", ms)
	}
	if w := ms[0].Warnings; len(w) != 2 || w[0].Offset != 19 || w[1].Offset != 20 {
		t.Errorf("warnings %v, want the two bytes of é at 19 and 20", w)
	}
}

// TestExtractUnicodeSpace checks that white space other than ASCII is
// ignored inside a wrapper as RFC 1738's appendix says of white space:
// "The whitespace should be ignored when extracting the URL." RFC 1630
// ("white space characters") names the "inter-conversion of various
// forms of white space" in character code conversion as the reason.
func TestExtractUnicodeSpace(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<URL:http://a.example/x\u00a0y>", "http://a.example/xy"},
		{"<URL:\u3000http://a.example/\u2003z\u202f>", "http://a.example/z"},
		{"<URL:ftp://a.exa\u0085mple/\u2028x>", "ftp://a.example/x"},
		{"<URL:http://a.example/x\u00a0\r\n\u00a0y>", "http://a.example/xy"},
	}
	for _, tt := range tests {
		got, rej := extractAll(tt.in, false)
		if len(got) != 1 || got[0] != tt.want || rej != nil {
			t.Errorf("Extract(%q) = %q (rejected %v), want %q", tt.in, got, rej, tt.want)
		}
	}
	// A hyphen then a line break with a no-break space before it: both
	// readings (RFC 1738 appendix).
	ms := Extract("<URL:http://a.example/long-\u00a0\n\u00a0path>")
	if len(ms) != 1 || !ms[0].Ambiguous || ms[0].Alternatives[1].String() != "http://a.example/longpath" {
		t.Errorf("hyphen break with U+00A0: %+v", ms)
	}
}

// TestExtractRejected checks what is reported for each kind of candidate
// given up, and where.
func TestExtractRejected(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		found []string
		err   error  // the kind of the one rejection
		at    string // the input from its offset on
		line  int
	}{
		// The 1993 URL draft writes "ftp://info.cern.ch./pub/..."; RFC
		// 1738 section 5 ends a host name with a toplabel.
		{"trailing dot", "one\ntwo <URL:ftp://info.cern.ch./pub/www/doc> three", nil, urlkit.ErrBadHost, "./pub/www/doc> three", 2},
		{"plain wrapper reported once", "<ftp://info.cern.ch./x>", nil, urlkit.ErrBadHost, "./x>", 1},
		{"unclosed at a blank line", "<URL:http://a.example/c\n\nhttp://d.example/", []string{"http://a.example/c", "http://d.example/"}, ErrUnclosed, "\n\nhttp://d.example/", 1},
		{"unclosed at a <", "x\n<URL:http://a.example/ <b>", []string{"http://a.example/"}, ErrUnclosed, "<b>", 2},
		{"empty", "<URL: \n >", nil, ErrEmpty, ">", 1},
		{"too long", "http://a.example/" + strings.Repeat("x", MaxSpan) + " ok", nil, ErrTooLong, strings.Repeat("x", 17) + " ok", 1},
		{"bad escape (RFC 1630 example 3)", "news:12345667123%asdghfh@info.cern.ch", nil, urlkit.ErrBadEscape, "%asdghfh@info.cern.ch", 1},
		{"IPv6 literal (RFC 2732)", "  http://[::192.9.5.5]/ipng", nil, nil, "[::192.9.5.5]/ipng", 1},
		{"grammar's optional part", "telnet://[user@] hostport", nil, nil, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rej := extractAll(tt.in, false)
			if strings.Join(got, " ") != strings.Join(tt.found, " ") {
				t.Errorf("found %q, want %q", got, tt.found)
			}
			if tt.at == "" {
				if len(rej) != 0 {
					t.Errorf("rejected %v, want nothing", rej)
				}
				return
			}
			if len(rej) != 1 {
				t.Fatalf("rejected %v, want one", rej)
			}
			r := rej[0]
			if tt.err != nil && !errors.Is(r.Err, tt.err) {
				t.Errorf("rejection %v, want %v", r, tt.err)
			}
			if tt.in[r.Offset:] != tt.at || r.Line != tt.line {
				t.Errorf("rejection at offset %d (%q), line %d; want %q, line %d", r.Offset, tt.in[r.Offset:], r.Line, tt.at, tt.line)
			}
			if r.Start > r.Offset || r.Offset > r.End || r.End > len(tt.in) || r.Reason() == "" {
				t.Errorf("rejection %+v: span or reason", r)
			}
		})
	}
}

// TestExtractLines checks Match.Line, which counts from 1.
func TestExtractLines(t *testing.T) {
	in := "http://a.example/\n\n<URL:http://b.\n example/> x\r\nmailto:c@d.example"
	want := []int{1, 3, 5}
	ms := Extract(in)
	if len(ms) != len(want) {
		t.Fatalf("got %v", ms)
	}
	for i, m := range ms {
		if m.Line != want[i] {
			t.Errorf("%s on line %d, want %d", m.URL.String(), m.Line, want[i])
		}
	}
}

// TestScannerStreams checks that a Scanner yields each URL as soon as the
// byte that ends it has arrived, before the input ends.
func TestScannerStreams(t *testing.T) {
	for _, tt := range []struct{ first, url string }{
		{"see http://a.example/c now", "http://a.example/c"},
		{"see <URL:ftp://a.example/\n  pub/x> and", "ftp://a.example/pub/x"},
		{"first line http://a.example/last\n", "http://a.example/last"},
		{"“http://a.example/é”", ""}, // given up: no match, but no wait either
	} {
		pr, pw := io.Pipe()
		go func() {
			pw.Write([]byte(tt.first))
			// The rest comes much later; the match must not wait for it.
		}()
		found := make(chan string, 1)
		sc := NewScanner(pr)
		go func() {
			if sc.Scan() {
				found <- sc.Match().URL.String()
			} else {
				found <- ""
			}
		}()
		if tt.url == "" {
			// Nothing is found; the scanner waits for more.
			select {
			case u := <-found:
				t.Errorf("%q: found %q", tt.first, u)
			case <-time.After(50 * time.Millisecond):
			}
			pw.Close()
			if u := <-found; u != "" {
				t.Errorf("%q: found %q at the end", tt.first, u)
			}
			continue
		}
		select {
		case u := <-found:
			if u != tt.url {
				t.Errorf("%q: found %q, want %q", tt.first, u, tt.url)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%q: no URL before the end of input", tt.first)
		}
		pw.Close()
	}
}

// TestScannerWaitsForTheEnd checks that a bare URL at the end of what has
// arrived is not cut there: it is found whole once the rest arrives.
func TestScannerWaitsForTheEnd(t *testing.T) {
	r := iotest.OneByteReader(strings.NewReader("see http://a.example/long/path/x-\n  y.html and <URL:ftp://b.example/\n c> http://c.example"))
	var got []string
	sc := NewScanner(r)
	for sc.Scan() {
		got = append(got, sc.Match().URL.String())
	}
	want := "http://a.example/long/path/x-y.html ftp://b.example/c http://c.example"
	if strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestScannerRejectionsMatchExtract checks that a Scanner reports the same
// rejections as Extract, at the same offsets and lines, however the reads
// split the text.
func TestScannerRejectionsMatchExtract(t *testing.T) {
	in := strings.Repeat("a\n<URL:ftp://info.cern.ch./x> http://b\xfccher.de/ <URL:http://a.example/c\n\nb https://bücher.de/\u00a0and <URL:http://x.example/\u00a0y> news:a%zz@b\n", 50)
	var want []Rejection
	wantM := Extractor{Rejected: func(r Rejection) { want = append(want, r) }}.Extract(in)
	if len(want) != 250 {
		t.Fatalf("Extract rejected %d, want 250", len(want))
	}
	for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in)), iotest.HalfReader(strings.NewReader(in))} {
		var got []Rejection
		sc := Extractor{Rejected: func(r Rejection) { got = append(got, r) }}.NewScanner(r)
		n := 0
		for sc.Scan() {
			if m := sc.Match(); m.Start != wantM[n].Start || m.Line != wantM[n].Line {
				t.Fatalf("match %d: %+v, want %+v", n, m, wantM[n])
			}
			n++
		}
		if n != len(wantM) || len(got) != len(want) {
			t.Fatalf("Scanner found %d and rejected %d; Extract %d and %d", n, len(got), len(wantM), len(want))
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.Text != w.Text || g.Start != w.Start || g.End != w.End || g.Offset != w.Offset || g.Line != w.Line || g.Reason() != w.Reason() {
				t.Fatalf("rejection %d: %v, want %v", i, g, w)
			}
		}
	}
}

// TestExtractDraft1993 runs over the 1993 URL Internet-Draft, whose
// references wrap URLs as "URL=<...>", one with a host ending in ".".
func TestExtractDraft1993(t *testing.T) {
	path := filepath.Join(filepath.Dir(corpus.Dir()), "spec", "url-internet-draft-1993.txt")
	b, err := os.ReadFile(path)
	if err != nil {
		skipNoCorpus(t, path)
	}
	var rej []Rejection
	ms := Extractor{Rejected: func(r Rejection) { rej = append(rej, r) }}.Extract(string(b))
	var wrapped int
	for _, m := range ms {
		if m.Wrapped {
			wrapped++
		}
		// "Abo ut%20Gopher": a space inside a wrapper is ignored.
		if m.Line == 413 && strings.HasPrefix(m.URL.String(), "gopher:") && m.URL.String() != "gopher://gopher.micro.umn.edu/00/Information%20About%20Gopher/About%20Gopher" {
			t.Errorf("line 413: %s", m.URL.String())
		}
	}
	if wrapped != 11 {
		t.Errorf("found %d wrapped URLs, want the 11 of the references that parse", wrapped)
	}
	found := false
	for _, r := range rej {
		if r.Line == 414 && r.Wrapped && errors.Is(r.Err, urlkit.ErrBadHost) && r.Text == "ftp://info.cern.ch./pub/www/doc/http-spec.txt" {
			found = true
		}
	}
	if !found {
		t.Errorf("the wrapper with host info.cern.ch. on line 414 is not reported: %v", rej)
	}
}
