package conformance

import (
	_ "embed"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/lenient"
	"golang.org/x/net/idna"
)

// idnaTestV2 holds UTS #46's conformance vectors as web-platform-tests
// keeps them (url/resources/IdnaTestV2.json), reformatted one per line;
// its header names the source, the commit and the licences.
//
//go:embed testdata/idnatestv2.tsv
var idnaTestV2 string

// idnaChanged lists the code points whose IDNA processing differs between
// Unicode 15.0.0's mapping table, which golang.org/x/net/idna uses under
// Go 1.26, and 17.0.0's; its header says how it was found.
//
//go:embed testdata/idna-changed-15-17.txt
var idnaChanged string

// changedAfter15 reports whether s holds a code point of idnaChanged.
func changedAfter15(s string) bool {
	for _, line := range strings.Split(idnaChanged, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		lo, hi, _ := strings.Cut(line, "..")
		if hi == "" {
			hi = lo
		}
		a, err1 := strconv.ParseUint(lo, 16, 32)
		b, err2 := strconv.ParseUint(hi, 16, 32)
		if err1 != nil || err2 != nil {
			panic("idna-changed-15-17.txt: bad line " + strconv.Quote(line))
		}
		for _, r := range s {
			if uint64(r) >= a && uint64(r) <= b {
				return true
			}
		}
	}
	return false
}

// idnaVector is one line of idnaTestV2.
type idnaVector struct {
	input  string
	wpt    *string  // the URL Standard's host, nil for a failure
	codes  []string // UTS #46 status codes the URL Standard's options check
	ignore []string // codes it does not check ("(ignored)")
}

func parseIDNAVectors() ([]idnaVector, error) {
	var out []idnaVector
	for n, line := range strings.Split(idnaTestV2, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			return nil, fmt.Errorf("idnatestv2.tsv line %d: %d fields, want 3", n+1, len(f))
		}
		var v idnaVector
		var err error
		if v.input, err = strconv.Unquote(f[0]); err != nil {
			return nil, fmt.Errorf("idnatestv2.tsv line %d: input: %v", n+1, err)
		}
		if f[1] != "null" {
			o, err := strconv.Unquote(f[1])
			if err != nil {
				return nil, fmt.Errorf("idnatestv2.tsv line %d: output: %v", n+1, err)
			}
			v.wpt = &o
		}
		if f[2] != "-" {
			for _, c := range strings.Split(f[2], ";") {
				c = strings.TrimSpace(c)
				if name, ok := strings.CutSuffix(c, " (ignored)"); ok {
					v.ignore = append(v.ignore, name)
				} else {
					v.codes = append(v.codes, c)
				}
			}
		}
		out = append(out, v)
	}
	return out, nil
}

// labelClass names the kind of labels a domain name has: UTS #46 treats
// an ASCII label, an A-label ("xn--" and Punycode, decoded and validated
// by section 4 step 4) and a label with non-ASCII characters (mapped,
// normalized, then validated) each its own way.
func labelClass(d string) string {
	ascii, alabel := true, false
	for _, lab := range strings.FieldsFunc(d, func(r rune) bool { return r == '.' || r == '\u3002' || r == '\uff0e' || r == '\uff61' }) {
		if len(lab) >= 4 && strings.EqualFold(lab[:4], "xn--") {
			alabel = true
		}
	}
	for i := 0; i < len(d); i++ {
		if d[i] >= 0x80 {
			ascii = false
		}
	}
	switch {
	case ascii && alabel:
		return "A-labels"
	case ascii:
		return "ASCII labels"
	case alabel:
		return "A-labels and non-ASCII labels"
	}
	return "non-ASCII labels"
}

// UTS46 runs UTS #46's conformance vectors through the lenient reading of
// "http://" + input + "/", each input as written and written with
// percent-encoded UTF-8 (the lenient reading decodes a host's escapes
// first): every label class, in the host of a URL.
func UTS46(string) (*Suite, error) {
	vs, err := parseIDNAVectors()
	if err != nil {
		return nil, err
	}
	s := &Suite{
		Name: "UTS #46 IDNA (WPT IdnaTestV2.json) in lenient mode",
		Source: "`internal/testkit/conformance/testdata/idnatestv2.tsv`: UTS #46's conformance vectors (Unicode's IdnaTestV2.txt) as web-platform-tests keeps them in url/resources/IdnaTestV2.json (the copy of ada-url/ada; 2 of its 2671 cases, whose input holds a lone surrogate, have no UTF-8 form and are left out of the file); the other side is UTS #46 section 4 with the URL Standard's options, " +
			"an error being any status code the options check, and the URL Standard's host otherwise.",
		Notes: "Each input goes into `lenient.Parse(\"http://\" + input + \"/\")` twice, as written and with its bytes percent-encoded, and into `lenient.Host` (the host value of `urlkit edit --lenient --set host=`); the three readings must agree. A case agrees when urlkit refuses a vector UTS #46 refuses, or gives the host UTS #46 gives (compared in lower case: an ASCII host is kept as written). " +
			"The strict parser is not run: RFC 1738 3.1 names hosts in ASCII and knows no IDNA, so it takes any ASCII label, \"xn--\" or not. Classes are by the input's labels (ASCII, A-labels, non-ASCII).",
	}
	for _, v := range vs {
		s.Total++
		class := labelClass(v.input)
		in := v.input
		got, _, err := lenient.Parse("http://" + in + "/")
		got2, _, err2 := lenient.Parse("http://" + url.PathEscape(in) + "/")
		h3, _, err3 := lenient.Host(in) // the host value of urlkit edit --lenient --set host=
		if (err == nil) != (err2 == nil) || err == nil && got.Hostname() != got2.Hostname() || (err == nil) != (err3 == nil) || err == nil && h3 != got.Host() {
			s.wrong(in, fmt.Sprintf("written as is: %q, %v; percent-encoded: %q, %v; as a host value (lenient.Host): %q, %v", got.Hostname(), err, got2.Hostname(), err2, h3, err3))
			continue
		}
		refuses := len(v.codes) > 0
		var want string
		if !refuses && v.wpt != nil {
			want = *v.wpt
		}
		wptTakesASCII := refuses && v.wpt != nil
		note := []reasoned{{class + ": both refuse", "UTS #46 section 4 records an error (the case's status codes, such as C1, P4, V6, that the options check), and the lenient reading refuses the host"}}
		if wptTakesASCII {
			note = append(note, reasoned{class + ": the URL Standard takes it as written", "WPT's expected host is the input: the URL Standard now takes an ASCII host name as it is, without decoding its A-labels, where UTS #46 section 4 step 4 decodes each and validates it (4.1), recording an error (the case's status codes); urlkit's lenient reading follows UTS #46 (issue 37)"})
		}
		switch {
		case refuses && err != nil:
			s.agree(in, note)
		case !refuses && err == nil && strings.ToLower(got.Hostname()) == want:
			if class == "ASCII labels" || class == "A-labels" {
				s.agree(in, nil)
			} else {
				s.agree(in, []reasoned{{class + ": mapped", "the lenient reading maps the host by IDNA to UTS #46's result"}})
			}
		case !refuses && err != nil && hostError(err) && !rfc1738Hostname(want):
			s.different(class+": IDNA's result is no RFC 1738 host name", "UTS #46 maps the input to a name that RFC 1738 3.1's hostname = *[ domainlabel \".\" ] toplabel does not take (an empty label, a trailing \".\", a label that starts or ends with \"-\", a last label that starts with a digit, or a byte other than a letter, digit or \"-\"), so the lenient reading refuses the host, as its package comment says", in)
		case changedAfter15(in) || changedAfter15(decodeALabels(in)):
			s.different(class+": IDNA table after Unicode 15.0", "the input holds a code point whose IDNA status or mapping changed after Unicode 15.0.0 (testdata/idna-changed-15-17.txt: Georgian capitals, U+1E9E, code points assigned since): golang.org/x/net/idna uses the mapping table of Unicode 15.0.0 under Go 1.26 (its 17.0.0 table is built from Go 1.27 on), and the vectors follow a later one", in)
		default:
			wantText := "an error (" + strings.Join(v.codes, ", ") + ")"
			if !refuses {
				wantText = strconv.Quote(want)
			}
			s.wrong(in, fmt.Sprintf("lenient reading: host %q, %v; UTS #46: %s", got.Hostname(), err, wantText))
		}
	}
	return s, nil
}

// rfc1738Hostname reports whether h is a host of RFC 1738 3.1, by the
// core parser.
func rfc1738Hostname(h string) bool {
	u, err := urlkit.Parse("http://" + h + "/")
	return err == nil && u.Host() == h
}

// decodeALabels returns d with its A-labels decoded by Punycode alone.
func decodeALabels(d string) string {
	u, _ := idna.Punycode.ToUnicode(strings.ToLower(d))
	return u
}

// hostError reports whether err is the parser's refusal of a host.
func hostError(err error) bool {
	var se *urlkit.SyntaxError
	return errors.As(err, &se) && se.Component == urlkit.ComponentHost
}
