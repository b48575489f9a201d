package lenient

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/corpus"
)

// wptCase is one case of web-platform-tests' url/resources/toascii.json
// (the copy ada-url/ada keeps, ../shared/corpora/wpt-url/toascii.json):
// a host and what the URL Standard's "domain to ASCII" makes of it, null
// for a failure.
type wptCase struct {
	Input  string  `json:"input"`
	Output *string `json:"output"`
}

// unicode151 are the WPT cases whose expected output follows the IDNA
// mapping table of Unicode 15.1 or later, while golang.org/x/net/idna
// under Go 1.26 uses that of Unicode 15.0 (its tables17.0.0.go is built
// only from Go 1.27 on): the mapping changed for these code points.
var unicode151 = map[string]string{
	"look\u180eout.net": "U+180E MONGOLIAN VOWEL SEPARATOR: disallowed in 15.0, ignored from 15.1",
	"look\u206bout.net": "U+206B ACTIVATE SYMMETRIC SWAPPING: disallowed in 15.0, ignored from 15.1",
	"\u04c0.com":        "U+04C0 CYRILLIC LETTER PALOCHKA: disallowed in 15.0, mapped to U+04CF from 15.1",
	"\U0002f868.com":    "U+2F868 CJK COMPATIBILITY IDEOGRAPH: disallowed in 15.0, mapped to U+36FC from 15.1",
	"\u2183.com":        "U+2183 ROMAN NUMERAL REVERSED ONE HUNDRED: disallowed in 15.0, mapped to U+2184 from 15.1",
	"\u1e9e.com":        "U+1E9E LATIN CAPITAL LETTER SHARP S: mapped to \"ss\" in 15.0, to U+00DF from 15.1",
	"\u1e9e.foo.com":    "U+1E9E, as above",
}

// uts46ALabels are the WPT cases whose input is an ASCII host with an
// A-label that UTS #46 section 4 refuses once decoded (step 4: Punycode,
// then the validity criteria of 4.1), while toascii.json, which follows
// the URL Standard, expects the host as written: the URL Standard takes
// an ASCII host name without decoding it. The lenient reading follows UTS
// #46 (issue 37); the UTS #46 vectors (internal/testkit/conformance, IdnaTestV2)
// give the same verdicts from Unicode's status codes.
var uts46ALabels = map[string]string{
	"xn--a":           "P4/V7: \"a\" is no Punycode of a valid label (it decodes to U+0080, a control)",
	"xn--a.xn--zca":   "as xn--a",
	"xn--1ug.example": "C2: U+200D ZERO WIDTH JOINER alone (CheckJoiners)",
	"xn--a-yoc":       "V3/V5: decodes to a label that starts with a combining mark",
	"xn--zn7c.com":    "V7: decodes to U+FFFD, which is disallowed",
	"xn--0.com":       "P4: \"0\" is no Punycode",
}

// TestWPTToASCII runs the WPT IDNA cases through the lenient reading of
// "http://INPUT/" and compares the host it gives (or its refusal) with
// WPT's output before classing the differences:
//
//   - agree: the host is WPT's output (compared as Hostname, in lower
//     case: the URL keeps an ASCII host as written), or both refuse;
//   - RFC 1738: WPT's output is no host name of RFC 1738 3.1 ("aa--",
//     "-x", "x..y", "xn--ls8h="), and the lenient reading refuses the
//     URL with ErrBadHost; ToASCII itself must still give WPT's output
//     (or, for an ASCII "xn--" label that is not valid Punycode, refuse
//     it: x/net/idna checks A-labels, which the lenient reading never
//     maps, since an ASCII host name is taken as written);
//   - Unicode 15.1: the cases of unicode151, each named with its reason.
//
// Anything else fails: a profile that is too lenient (accepting what WPT
// refuses), too strict (refusing a host name WPT maps) or that maps
// differently ("faß.de" must be "xn--fa-hia.de", not transitional
// "fass.de") turns it red.
func TestWPTToASCII(t *testing.T) {
	data, err := os.ReadFile(corpus.Path(t, "wpt-url/toascii.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	var agree, refused, rfc1738, uni, alabel int
	for _, r := range raw {
		var c wptCase
		if json.Unmarshal(r, &c) != nil || c.Input == "" && c.Output == nil {
			continue // a comment string
		}
		u, _, perr := Parse("http://" + c.Input + "/")
		switch {
		case c.Output == nil && perr != nil:
			refused++
		case c.Output != nil && perr == nil && u.Hostname() == *c.Output:
			agree++
		case unicode151[c.Input] != "":
			uni++
		case uts46ALabels[c.Input] != "" && c.Output != nil && perr != nil && errors.Is(perr, urlkit.ErrBadHost):
			alabel++
		case c.Output != nil && perr != nil && errors.Is(perr, urlkit.ErrBadHost) && !rfc1738Host(*c.Output):
			a, mapErr := ToASCII(c.Input)
			if (mapErr != nil || a != *c.Output) && !(isASCII(c.Input) && strings.Contains(c.Input, "xn--")) {
				t.Errorf("%q: ToASCII = %q, %v; WPT: %q", c.Input, a, mapErr, *c.Output)
			}
			rfc1738++
		default:
			out := "failure"
			if c.Output != nil {
				out = *c.Output
			}
			t.Errorf("%q: lenient reading %q, %v; WPT: %s", c.Input, u, perr, out)
		}
	}
	t.Logf("WPT toascii.json: %d hosts as WPT maps them, %d refused as WPT refuses them; differences: %d WPT hosts that are no RFC 1738 3.1 host name (refused), %d of Unicode 15.1's mapping table, %d A-labels UTS #46 refuses", agree, refused, rfc1738, uni, alabel)
	if agree < 40 || refused < 15 || uni != len(unicode151) || alabel != len(uts46ALabels) {
		t.Errorf("cases: %d agree, %d refused, %d Unicode 15.1 of %d listed, %d A-labels of %d listed", agree, refused, uni, len(unicode151), alabel, len(uts46ALabels))
	}
}

// rfc1738Host reports whether h is a host name or number of RFC 1738 3.1,
// checked by the core parser.
func rfc1738Host(h string) bool {
	_, err := urlkit.Parse("http://" + h + "/")
	return err == nil && !strings.ContainsAny(h, "/?#@:")
}

// TestALabels: the lenient reading decodes and validates every A-label
// of a host, as UTS #46 section 4 step 4 does, also when RFC 1738's
// grammar takes the host as it is; the strict parser does not (RFC 1738
// 3.1 knows no IDNA). Cases from UTS #46's IdnaTestV2 (the status code in
// the comment), as web-platform-tests' IdnaTestV2.json gave them before
// the URL Standard stopped decoding ASCII hosts.
func TestALabels(t *testing.T) {
	for _, tt := range []struct {
		host string
		ok   bool
		at   int // offset of the label named in the error
		src  string
	}{
		{"xn--ab-j1t", false, 7, "IdnaTestV2 C1: decodes to a U+200C b"},
		{"xn--ab-m1t", false, 7, "IdnaTestV2 C2: U+200D"},
		{"xn--u-ccb", false, 7, "IdnaTestV2 V1: not in NFC"},
		{"xn--acom-0w1b", false, 7, "IdnaTestV2 V6/V7: U+2488 is disallowed"},
		{"xn--a-ecp.ru", false, 7, "IdnaTestV2 V6/V7"},
		{"xn--0.pt", false, 7, "IdnaTestV2 P4: no Punycode"},
		{"xn--a.pt", false, 7, "IdnaTestV2 V6/V7: decodes to U+0080"},
		{"www.XN--A.pt", false, 11, "the label is named, in any case"},
		{"xn--xn--a--gua.pt", false, 7, "IdnaTestV2 V4: decodes to a label beginning with xn--"},
		{"xn--bcher-kva.de", true, 0, "IdnaTestV2: bücher.de"},
		{"XN--BCHER-KVA.DE", true, 0, "IdnaTestV2: case does not matter"},
		{"xn--ab-fsf604u", true, 0, "IdnaTestV2: U+200C after a virama (C1 satisfied)"},
		{"a.xn--zca", true, 0, "IdnaTestV2: ß"},
		{"axn--a.pt", true, 0, "not an A-label: xn-- must start the label"},
		{"ab--c.de", true, 0, "not an A-label (CheckHyphens off)"},
	} {
		in := "http://" + tt.host + "/"
		u, _, err := Parse(in)
		if tt.ok != (err == nil) {
			t.Errorf("%s: Parse(%q) = %q, %v", tt.src, in, u, err)
			continue
		}
		var se *urlkit.SyntaxError
		if err != nil && (!errors.As(err, &se) || se.Offset != tt.at || !errors.Is(err, urlkit.ErrBadHost)) {
			t.Errorf("%s: Parse(%q): %v, want ErrBadHost at offset %d", tt.src, in, err, tt.at)
		}
		// The percent-encoded form and a partial URL say the same.
		if _, _, err2 := ParseRef("//" + tt.host + "/"); (err2 == nil) != tt.ok {
			t.Errorf("%s: ParseRef(%q): %v", tt.src, "//"+tt.host+"/", err2)
		}
		if _, err := urlkit.Parse(in); err != nil {
			t.Errorf("the strict parser refuses %q: %v (RFC 1738 3.1 takes any such label)", in, err)
		}
	}
}
