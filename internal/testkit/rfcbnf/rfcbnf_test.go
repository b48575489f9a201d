package rfcbnf_test

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/rfcbnf"
	"github.com/urlkit/urlkit/internal/testkit/rfcbnf/urlcheck"
	"github.com/urlkit/urlkit/scheme"
)

// grammar returns the grammar read from RFC 1738's text in ../shared/spec,
// skipping the test when the text is absent (failing under
// URLKIT_REQUIRE_CORPORA=1, as in CI).
func grammar(tb testing.TB) *rfcbnf.Grammar {
	tb.Helper()
	if _, err := os.Stat(rfcbnf.SpecPath()); err != nil {
		msg := "RFC 1738's text not found at " + rfcbnf.SpecPath() + " (../shared/spec beside the repository, or set URLKIT_SPEC_DIR)"
		if os.Getenv("URLKIT_REQUIRE_CORPORA") == "1" {
			tb.Fatal(msg + "; URLKIT_REQUIRE_CORPORA=1 requires it")
		}
		tb.Skip(msg)
	}
	g, err := urlcheck.Grammar()
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// TestSection5 checks the reading of RFC 1738 section 5: every rule of the
// section is read (67), the page breaks inside it are not, gopherurl's
// unquoted "/" is a literal, and <"> is the double quote.
func TestSection5(t *testing.T) {
	g := grammar(t)
	n := 0
	for _, name := range g.Order {
		if g.Rules[name].Source == "RFC 1738 5" {
			n++
		}
	}
	if n != 67 {
		t.Errorf("%d rules read from section 5, want 67", n)
	}
	for _, name := range []string{"genericurl", "ip-schemepart", "hostnumber", "ftptype", "gopher+_string", "prosperourl", "fieldvalue", "punctuation", "digits"} {
		if !g.Has(name) {
			t.Errorf("rule %s not read", name)
		}
	}
	if r := g.Rules["punctuation"]; !strings.Contains(r.Text, `<">`) || !g.Match("punctuation", `"`).OK {
		t.Errorf("punctuation: %s; <\"> must read the double quote", r.Text)
	}
	if !strings.Contains(g.Rules["gopherurl"].Text, "[ / [") || !g.Match("gopherurl", "gopher://h/1sel").OK || g.Match("gopherurl", "gopher://h/%").OK {
		t.Error(`gopherurl's unquoted "/" is not read as the literal "/"`)
	}
	if g.Category('~') != "national" || g.Category('=') != "reserved" || g.Category('%') != "punctuation" || g.Category(0) != "" {
		t.Errorf("categories: ~ %s, = %s, %% %s", g.Category('~'), g.Category('='), g.Category('%'))
	}
	// The section's own text, taken apart: no rule from a page break.
	lines, err := rfcbnf.Section5("\n5. BNF for specific URL schemes\n\na = \"x\" |\n\f\nBerners-Lee, Masinter & McCahill                               [Page 17]\n\nRFC 1738            Uniform Resource Locators (URL)        December 1994\n\n    \"y\" ; comment\n\n6. Security Considerations\n")
	if err != nil || len(lines) != 1 || lines[0] != `a = "x" | "y" ; comment` {
		t.Errorf("page break: %q %v", lines, err)
	}
}

// TestRecognizer checks RFC 1738's own examples (accepted by their
// scheme's rule) and refusals with the offset and the rule in force.
func TestRecognizer(t *testing.T) {
	g := grammar(t)
	for _, in := range []string{
		"ftp://myname@host.dom/%2Fetc/motd",                    // RFC 1738 3.2.2
		"ftp://myname@host.dom/etc/motd",                       // RFC 1738 3.2.2
		"file://vms.host.edu/disk$user/my/notes/note12345.txt", // RFC 1738 3.10
		"prospero://host.dom//pros/name",                       // RFC 1738 3.11
		"ftp://@host.com/",                                     // RFC 1738 3.2.1: an empty user
		"http://h.dom/a;b=c/d?e=f&g",                           // RFC 1738 3.3: hsegment and search
		"gopher://h.dom/0sel%09search%09plus",                  // RFC 1738 3.4
		"news:comp.infosystems.www", "news:*", "nntp://h.dom/g.x/12", "telnet://u:p@h.dom/",
		"wais://h.dom:210/db?words", "wais://h.dom/db/TEXT/0%3Dabc%3B", "mailto:a@b.dom",
		"https://h.dom/", "x-y:anything%20at;all",
	} {
		if v := g.Full(in); !v.OK {
			t.Errorf("%q: refused at %d in %s, want accepted", in, v.Dead, v.Result.Rule)
		}
	}
	for _, tt := range []struct {
		in, rule string
		dead     int
		full     bool
	}{
		{"http://h/a~b", "hsegment", 10, true},
		{"http://h/a~b", "urlpath", 10, false},
		{"http://h:x/", "password", 10, false}, // "h:x" may be user:password until "/" ends the login
		{"http://h:x/", "digits", 9, true},     // httpurl has no login: port = digits
		{"ftp://h/a;type=x", "ftpurl", 15, true},
		{"wais://h/db/t/a=b", "wpath", 15, true},
		{"wais://h/db/t/a=b", "", -1, false}, // the generic syntax allows it
		{"http://a_b/", "hostport", 8, true},
		{"http://h/a%zz", "", 11, false},
		{"news:a b", "", 6, true},
		{"http://1.2.3/", "", 12, true},
	} {
		v := g.Core(tt.in)
		if tt.full {
			v = g.Full(tt.in)
		}
		if v.Dead != tt.dead || tt.rule != "" && v.Result.Rule != tt.rule {
			t.Errorf("%q (full %v): dead %d in %q, want %d in %q", tt.in, tt.full, v.Dead, v.Result.Rule, tt.dead, tt.rule)
		}
	}
}

// urlRules are the rules URLs are generated from, one per scheme: RFC
// 1738 5's, https (RFC 2818) and otherurl.
var urlRules = []string{"httpurl", "httpsurl", "ftpurl", "newsurl", "nntpurl", "telneturl", "gopherurl", "waisurl", "mailtourl", "fileurl", "prosperourl", "otherurl"}

// generate makes a URL from rule with c, with a fragment when c says so.
func generate(g *rfcbnf.Grammar, rule string, c rfcbnf.Chooser) string {
	s := g.Generate(rule, c, 12, 80)
	if c.Intn(3) == 0 {
		s += "#" + g.Generate("fragment", c, 6, 16)
	}
	return s
}

// mutationBytes are what a mutation inserts or puts in place of a byte:
// one of each kind RFC 1738 2.2 names, escapes' parts, controls and a
// non-ASCII byte.
const mutationBytes = "aZ09-._+!*'(),$;/?:@&=%#~|{}[]^`\\\"<> \x00\x09\x7f\xc3"

// mutate changes s once, as c says: a byte inserted, deleted or replaced.
func mutate(s string, c rfcbnf.Chooser) string {
	k := c.Intn(len(s) + 1)
	b := string(mutationBytes[c.Intn(len(mutationBytes))])
	switch c.Intn(3) {
	case 0:
		return s[:k] + b + s[k:]
	case 1:
		if k < len(s) {
			return s[:k] + s[k+1:]
		}
	case 2:
		if k < len(s) {
			return s[:k] + b + s[k+1:]
		}
	}
	return s + b
}

// agreement is the outcome of one comparison.
type agreement struct {
	agreed     bool
	divergence string // the documented divergence that explains a disagreement
	problem    string // an unexplained disagreement
}

// compare compares urlkit with the grammar on in: urlkit.Parse with the
// generic syntax (Core), scheme.Parse with the scheme's rule (Full).
// Acceptance must agree, and a rejection must be where the grammar
// refuses the input (urlcheck.Reject), unless a documented divergence
// explains it.
func compare(g *rfcbnf.Grammar, in string) []agreement {
	var out []agreement
	_, cerr := urlkit.Parse(in)
	_, ferr := scheme.Parse(in)
	for _, level := range []struct {
		err     error
		reading urlcheck.Reading
		v       rfcbnf.Verdict
		name    string
	}{
		{cerr, urlcheck.ReadParse, g.Core(in), "urlkit.Parse"},
		{ferr, urlcheck.ReadScheme, g.Full(in), "scheme.Parse"},
	} {
		full := level.reading == urlcheck.ReadScheme
		switch {
		case level.err == nil && level.v.OK:
			out = append(out, agreement{agreed: true})
		case level.err == nil:
			if d, ok := urlcheck.Divergence(in, level.v, full); ok {
				out = append(out, agreement{divergence: d.Name})
			} else {
				out = append(out, agreement{problem: fmt.Sprintf("%s accepts %q; RFC 1738 5 refuses it at offset %d (%s)", level.name, in, level.v.Dead, urlcheck.ClassOf(g, in, level.v))})
			}
		default:
			if full && cerr != nil {
				// The generic syntax already refused it: judged above.
				out = append(out, agreement{agreed: true})
				continue
			}
			j := urlcheck.Reject(g, in, level.err, level.reading)
			switch {
			case !j.Holds && full && !errors.Is(level.err, urlkit.ErrUnsafeChar) && !level.v.OK:
				// The scheme layer's errors name the part that is wrong
				// (a path segment, a field), not always the first byte
				// the grammar refuses: both must refuse.
				out = append(out, agreement{agreed: true})
			case !j.Holds:
				out = append(out, agreement{problem: fmt.Sprintf("%s %q: %s (%v)", level.name, in, j.Why, level.err)})
			case strings.HasPrefix(j.Class, "grammar divergence: "):
				out = append(out, agreement{divergence: strings.TrimPrefix(j.Class, "grammar divergence: ")})
			default:
				out = append(out, agreement{agreed: true})
			}
		}
	}
	return out
}

// TestGrammarAgreement generates URLs from each scheme's rule (urlkit must
// accept every one), mutates as many once each, and compares urlkit with
// the grammar on all of them; every disagreement must be a documented
// divergence, and every documented divergence must be met. The figures
// are logged (go test -v -run TestGrammarAgreement ./internal/testkit/rfcbnf/).
func TestGrammarAgreement(t *testing.T) {
	g := grammar(t)
	r := rand.New(rand.NewSource(26))
	const perRule = 400
	var cases, agreed int
	divs := map[string]int{}
	var problems []string
	record := func(in string, as []agreement) {
		for _, a := range as {
			cases++
			switch {
			case a.agreed:
				agreed++
			case a.divergence != "":
				divs[a.divergence]++
			default:
				problems = append(problems, a.problem)
			}
		}
	}
	for _, rule := range urlRules {
		for i := 0; i < perRule; i++ {
			s := generate(g, rule, r)
			if !g.Full(s).OK || !g.Core(s).OK {
				t.Fatalf("%s generated %q, which the recognizer refuses", rule, s)
			}
			record(s, compare(g, s))
			m := mutate(s, r)
			record(m, compare(g, m))
		}
	}
	// The documented divergences, met by the inputs they name.
	for _, s := range []string{"rlogin:host", "tn3270:x", "afs:/cell/f", "nfs:x", "mailto:r", "mailto:a@b@c"} {
		record(s, compare(g, s))
	}
	sort.Strings(problems)
	for i, p := range problems {
		if i == 20 {
			t.Errorf("... and %d more", len(problems)-20)
			break
		}
		t.Error(p)
	}
	for _, d := range rfcbnf.Divergences {
		if divs[d.Name] == 0 {
			t.Errorf("documented divergence %q met by no case: the list is stale", d.Name)
		}
	}
	t.Logf("%d URLs generated from %d rules and %d mutated; %d comparisons (urlkit.Parse and scheme.Parse each), %d agreed, divergences %v, unexplained %d",
		perRule*len(urlRules), len(urlRules), perRule*len(urlRules), cases, agreed, divs, len(problems))
	// docs/conformance.md's figures (the grammar oracle).
	if cases != 19212 || agreed != 18725 || divs["mailto is an RFC 822 addr-spec"] != 483 || divs["RFC 1630 schemes with a login"] != 4 {
		t.Errorf("figures moved: %d comparisons, %d agreed, %v; docs/conformance.md says 19,212, 18,725, 483 and 4: rerun and update it", cases, agreed, divs)
	}
}

// FuzzGrammarValid generates a URL from a scheme's rule of RFC 1738 5,
// choosing by the fuzzer's bytes: urlkit.Parse must accept it, and
// scheme.Parse too unless a documented divergence says otherwise.
func FuzzGrammarValid(f *testing.F) {
	g := grammar(f)
	for i := range urlRules {
		f.Add([]byte{byte(i), 1, 2, 3, 4, 5, 6, 7, 8, 9, 200, 100, 50})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		c := &rfcbnf.Bytes{B: data[1:]}
		s := generate(g, urlRules[int(data[0])%len(urlRules)], c)
		if _, err := urlkit.Parse(s); err != nil {
			t.Fatalf("RFC 1738 5 generated %q; urlkit.Parse: %v", s, err)
		}
		if _, err := scheme.Parse(s); err != nil {
			if _, ok := urlcheck.Divergence(s, g.Full(s), true); !ok {
				t.Fatalf("RFC 1738 5 generated %q; scheme.Parse: %v", s, err)
			}
		}
	})
}

// FuzzGrammarMutate generates a URL as FuzzGrammarValid does and changes
// it at a place and in a way the fuzzer's bytes choose: urlkit and the
// grammar must agree (compare), except by a documented divergence.
func FuzzGrammarMutate(f *testing.F) {
	g := grammar(f)
	for i := range urlRules {
		f.Add([]byte{byte(i), 3, 1, 4, 1, 5, 9, 2, 6}, []byte{7, 20, 1})
	}
	f.Fuzz(func(t *testing.T, data, mut []byte) {
		if len(data) == 0 {
			return
		}
		s := generate(g, urlRules[int(data[0])%len(urlRules)], &rfcbnf.Bytes{B: data[1:]})
		c := &rfcbnf.Bytes{B: mut}
		for n := 1 + c.Intn(3); n > 0; n-- {
			s = mutate(s, c)
		}
		for _, a := range compare(g, s) {
			if a.problem != "" {
				t.Fatal(a.problem)
			}
		}
	})
}

// TestDivergencesDocumented requires docs/strictness.md's list of
// deliberate divergences to name every documented divergence.
func TestDivergencesDocumented(t *testing.T) {
	readme, err := os.ReadFile("../../../docs/strictness.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range rfcbnf.Divergences {
		if !strings.Contains(string(readme), "*"+d.Name+"*") {
			t.Errorf("docs/strictness.md does not name the divergence %q (as *%s*)", d.Name, d.Name)
		}
	}
}

// TestRegexp: the regular expressions of RFC 1738 5's host, user and port
// rules accept what the recognizer accepts.
func TestRegexp(t *testing.T) {
	g := grammar(t)
	for _, tt := range []struct {
		rule string
		in   []string
	}{
		{"host", []string{"a", "a.b", "a-b.c", "a--b.c9", "1.2.3.4", "9a.b", "1.2.3", "a.9b", "-a", "a-", "a..b", "a.", "", "a_b", "1.2.3.4.5", "A.B-C.d"}},
		{"user", []string{"", "u", "u%20v", "u:v", "u@v", "u;?&=", "%zz", "u/v", "~"}},
		{"port", []string{"", "1", "0080", "8a", "-1"}},
	} {
		re, err := g.Regexp(tt.rule)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range tt.in {
			if got, want := re.MatchString(s), g.Match(tt.rule, s).OK; got != want {
				t.Errorf("%s %q: regexp %v, recognizer %v", tt.rule, s, got, want)
			}
		}
	}
	if _, err := g.Regexp("genericurl"); err != nil {
		t.Logf("genericurl: %v", err)
	}
}
