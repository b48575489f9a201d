package lenient

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/corpus"
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
	var agree, refused, rfc1738, uni int
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
	t.Logf("WPT toascii.json: %d hosts as WPT maps them, %d refused as WPT refuses them; differences: %d WPT hosts that are no RFC 1738 3.1 host name (refused), %d of Unicode 15.1's mapping table", agree, refused, rfc1738, uni)
	if agree < 40 || refused < 15 || uni != len(unicode151) {
		t.Errorf("cases: %d agree, %d refused, %d Unicode 15.1 of %d listed", agree, refused, uni, len(unicode151))
	}
}

// rfc1738Host reports whether h is a host name or number of RFC 1738 3.1,
// checked by the core parser.
func rfc1738Host(h string) bool {
	_, err := urlkit.Parse("http://" + h + "/")
	return err == nil && !strings.ContainsAny(h, "/?#@:")
}
