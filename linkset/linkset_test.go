package linkset

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		in, src string
		opt     Options
		want    Record
	}{
		// RFC 1738 3.1: scheme and host are case-insensitive, and an
		// omitted url-path is written "/" in canonical form.
		{"HTTP://Info.CERN.CH", "RFC 1738 3.1", Options{},
			Record{Status: Valid, URL: "HTTP://Info.CERN.CH", Canonical: "http://info.cern.ch/", Scheme: "http", Host: "info.cern.ch"}},
		// RFC 1630 "Encoding reserved characters": an unreserved character
		// may be encoded or not without changing the URL.
		{"ftp://ftp.funet.fi/pub/%7Ex", "RFC 1630", Options{},
			Record{Status: Valid, URL: "ftp://ftp.funet.fi/pub/%7Ex", Canonical: "ftp://ftp.funet.fi/pub/%7Ex", Scheme: "ftp", Host: "ftp.funet.fi"}},
		{"ftp://ftp.funet.fi/pub/%41", "RFC 1630", Options{},
			Record{Status: Valid, URL: "ftp://ftp.funet.fi/pub/%41", Canonical: "ftp://ftp.funet.fi/pub/A", Scheme: "ftp", Host: "ftp.funet.fi"}},
		// RFC 1738 3.6: news has no host.
		{"news:comp.infosystems.www", "RFC 1738 3.6", Options{},
			Record{Status: Valid, URL: "news:comp.infosystems.www", Canonical: "news:comp.infosystems.www", Scheme: "news"}},
		// RFC 1738 2.2: a space is unsafe and must be encoded.
		{"http://a.b/x y", "RFC 1738 2.2", Options{},
			Record{Status: Rejected, Kind: "unsafe-char", Offset: 12}},
		{"http://a.b/x y", "RFC 1738 2.2, repaired", Options{Lenient: true},
			Record{Status: Repaired, URL: "http://a.b/x%20y", Canonical: "http://a.b/x%20y", Scheme: "http", Host: "a.b", Repairs: 1}},
		{"http://a.b/%zz", "RFC 1738 2.2", Options{},
			Record{Status: Rejected, Kind: "bad-escape", Offset: 11}},
		{"", "empty line", Options{}, Record{Status: Rejected, Kind: "empty"}},
		// RFC 1738 appendix: the "URL:" prefix is not part of the URL.
		{"URL:ftp://ds.internic.net/rfc", "RFC 1738 appendix", Options{Lenient: true},
			Record{Status: Valid, URL: "ftp://ds.internic.net/rfc", Canonical: "ftp://ds.internic.net/rfc", Scheme: "ftp", Host: "ds.internic.net"}},
		// RFC 1630 "Partial (relative) form": meaningful only in a context,
		// so not a URL of a link set, strict or lenient; a partial form
		// with a bad byte is blamed on that byte.
		{"../a%2Db", "RFC 1630 partial form", Options{}, Record{Status: Rejected, Kind: "missing-scheme"}},
		{"//info.cern.ch/a", "RFC 1630 partial form", Options{Lenient: true}, Record{Status: Rejected, Kind: "missing-scheme"}},
		{`"http://a.b/`, "RFC 1738 2.2: <\"> is unsafe", Options{}, Record{Status: Rejected, Kind: "unsafe-char"}},
		{"a_b:y", "RFC 1738 2.1 scheme names", Options{}, Record{Status: Rejected, Kind: "bad-scheme", Offset: 1}},
		// RFC 1738 3.3: an http URL has no user or password.
		{"http://u@a.b/", "RFC 1738 3.3", Options{}, Record{Status: Rejected, Kind: "not-allowed", Offset: 7}},
		// RFC 1738 3.5: mailto holds an RFC 822 addr-spec.
		{"mailto:addr1,%20addr2", "RFC 1738 3.5", Options{}, Record{Status: Rejected, Kind: "bad-address", Offset: 7}},
		// RFC 1738 3.2.2: ftp's type codes are a, i and d.
		{"ftp://a.b/f;type=x", "RFC 1738 3.2.2", Options{}, Record{Status: Rejected, Kind: "bad-type", Offset: 17}},
	}
	for _, tt := range tests {
		got := Classify(tt.in, tt.opt)
		want := tt.want
		want.Input = tt.in
		if got.Status == Rejected {
			if got.Reason == "" {
				t.Errorf("%s: Classify(%q): rejected without a reason", tt.src, tt.in)
			}
			want.Reason = got.Reason
		}
		if got != want {
			t.Errorf("%s: Classify(%q)\n got %+v\nwant %+v", tt.src, tt.in, got, want)
		}
	}
}

func TestKindsCoverSentinels(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range Kinds() {
		if seen[k] {
			t.Errorf("kind %q listed twice", k)
		}
		seen[k] = true
	}
	if Kind(nil) != "other" {
		t.Errorf("Kind(nil) = %q", Kind(nil))
	}
}

func TestDedupKey(t *testing.T) {
	a, b := DedupKey("http://a/"), DedupKey("http://b/")
	if len(a) != 16 || a == b || a != DedupKey("http://a/") {
		t.Fatalf("DedupKey: %x %x", a, b)
	}
}

func TestField(t *testing.T) {
	for in, want := range map[string]string{
		"http://a/":  "http://a/",
		"a\tb":       `"a\tb"`,
		"bücher":     "bücher",
		"\xff":       `"\xff"`,
		`"quoted"`:   `"\"quoted\""`,
		`back\slash`: `"back\\slash"`,
	} {
		if got := Field(in); got != want {
			t.Errorf("Field(%q) = %s, want %s", in, got, want)
		}
	}
	if got := RejectedLine(Classify("http://a.b/%zz", Options{})); !strings.HasPrefix(got, "http://a.b/%zz\tbad-escape\t11\t") {
		t.Errorf("RejectedLine = %q", got)
	}
	// Each field as Field writes it, the offset in decimal.
	r := Record{Input: "a\tb", Status: Rejected, Kind: "unsafe-char", Offset: 12, Reason: `"~" is unsafe`}
	if got, want := RejectedLine(r), `"a\tb"`+"\tunsafe-char\t12\t"+`"\"~\" is unsafe"`; got != want {
		t.Errorf("RejectedLine = %s, want %s", got, want)
	}
}

func TestExtractLines(t *testing.T) {
	// RFC 1738 appendix: the wrapper and the white space that breaks a
	// wrapped URL across lines are not part of it; the 1993 draft wrote
	// host names with a trailing dot, which RFC 1738 3.1 does not allow.
	in := "See <URL:ftp://ftp.funet.fi/pub/\n  x.txt> and <URL:http://info.cern.ch./> or http://a.b/c."
	var got []string
	var rej []Record
	err := ExtractLines(strings.NewReader(in), Options{}, func(u string) { got = append(got, u) }, func(r Record) { rej = append(rej, r) })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != "ftp://ftp.funet.fi/pub/x.txt http://a.b/c" {
		t.Errorf("urls = %q", got)
	}
	if len(rej) != 1 || rej[0].Status != Rejected || rej[0].Kind != "bad-host" || rej[0].Input != "http://info.cern.ch./" {
		t.Errorf("rejected = %+v", rej)
	}
}

// TestLine: Line is strings.TrimSpace and a test for blankness, its
// fast path included, on lines at the edges of ASCII and Unicode spaces.
func TestLine(t *testing.T) {
	for _, s := range []string{"", " ", "\t", "a", " a", "a ", "\u00a0a", "a\u00a0", "\u0085", "a\u2003", "~", "\x7f", "\x80", "é", "a b", "\r\n"} {
		got, ok := Line(s)
		if want := strings.TrimSpace(s); got != want || ok != (want != "") {
			t.Errorf("Line(%q) = %q, %v; want %q, %v", s, got, ok, want, want != "")
		}
	}
}

// Kind's fast path (a syntax error wrapping a sentinel, compared rather
// than matched with errors.Is) names every error as the errors.Is walk
// over the table does.
func TestKindFastPathAgrees(t *testing.T) {
	slow := func(err error) string {
		for _, k := range kinds {
			if errors.Is(err, k.err) {
				return k.name
			}
		}
		return "other"
	}
	var errs []error
	for _, k := range kinds {
		errs = append(errs,
			&urlkit.SyntaxError{Input: "x", Err: k.err},
			&urlkit.SyntaxError{Input: "x", Err: fmt.Errorf("wrapped: %w", k.err)},
			fmt.Errorf("outer: %w", &urlkit.SyntaxError{Input: "x", Err: k.err}),
			&urlkit.SyntaxError{Input: "x", Err: errors.Join(errors.New("first"), k.err)})
	}
	errs = append(errs, &urlkit.SyntaxError{Input: "x"}, &urlkit.SyntaxError{Input: "x", Err: errors.New("none of them")})
	for _, s := range []string{"http://a b/", "http://h:x/", "ftp://h/%zz", "x", "", "http://[::1]/", "news:a@", "gopher://h/1\x01"} {
		if _, err := urlkit.Parse(s); err != nil {
			errs = append(errs, err)
		}
	}
	for _, err := range errs {
		if got, want := Kind(err), slow(err); got != want {
			t.Errorf("Kind(%v) = %q, the errors.Is walk says %q", err, got, want)
		}
	}
}
