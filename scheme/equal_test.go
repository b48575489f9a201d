package scheme

import (
	"fmt"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// TestEqualMeansSamePlan checks urlkit.Equal against what a client sends:
// for the schemes whose plan decodes the URL (ftp, gopher, news, mailto),
// writing a character or its escape in the url-path changes the meaning
// exactly when the plan changes (RFC 1738 2.2: "encoding a character
// reserved for a particular scheme may change the semantics of a URL").
// Equal must never call two URLs the same whose plans differ, or one that
// the scheme accepts the same as one it refuses; and two URLs whose plans
// are the same must be equal, but for the listed exceptions. The plans
// come from each scheme's file (ftp.go, gopher.go, news.go, mailto.go),
// not from the core's table of reserved sets, so this checks the table.
func TestEqualMeansSamePlan(t *testing.T) {
	// Where the same plan does not make Equal: Equal is conservative there.
	exceptions := map[string]string{
		"news *": `RFC 1738 3.6: "*" alone is "all available news groups", so the news scheme keeps "*" reserved in its part, although inside a message-id it is data`,
	}
	// Where Equal calls a URL the scheme refuses the same as one it
	// accepts, by RFC 1738 2.2 against section 5's grammar.
	refusedEscape := map[string]string{
		"news:a.b%s": `RFC 1738 5's group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ] admits no escape, so the news scheme refuses "news:a.b%2D"; 2.2 lets a character that needs no encoding be encoded "as long as they are not being used for a reserved purpose", and Equal follows 2.2 (RFC 1630 Example 1), for every scheme`,
	}
	cfg := Config{NewsServer: "news.example", Email: "u@h.example"}
	templates := []struct{ scheme, format string }{
		{"ftp", "ftp://h.example/a%sb"},
		{"ftp", "ftp://h.example/d%sx/f"},
		{"ftp", "ftp://h.example/a?x%sb"},
		{"ftp", "ftp://h.example/a;type%si"},
		{"ftp", "ftp://h.example/d;x%sy/f"},
		{"gopher", "gopher://h.example/1a%sb"},
		{"gopher", "gopher://h.example/1a?x%sb"},
		{"gopher", "gopher://h.example/7a%%09b%sc"},
		{"news", "news:a%sb@h.example"},
		{"news", "news:%s"},
		{"news", "news:a.b%s"},
		{"mailto", "mailto:a%sb@h.example"},
		{"mailto", "mailto:a@h%s.example"},
	}
	same, different := 0, 0
	for _, tp := range templates {
		for _, c := range ";/?:@=&+!*$,'()-_.~" {
			lit := fmt.Sprintf(tp.format, string(c))
			esc := fmt.Sprintf(tp.format, fmt.Sprintf("%%%02X", c))
			a, errA := urlkit.Parse(lit)
			b, errB := urlkit.Parse(esc)
			if errB != nil {
				t.Fatalf("%s: %v", esc, errB)
			}
			if errA != nil {
				continue // "~" is unsafe: only its escape is a URL
			}
			pa, errA := PlanOf(a, cfg)
			pb, errB := PlanOf(b, cfg)
			eq := urlkit.Equal(a, b)
			switch {
			case (errA == nil) != (errB == nil):
				if eq && (errA != nil || refusedEscape[tp.format] == "") {
					t.Errorf("Equal(%q, %q): the %s scheme accepts one (err %v) and refuses the other (err %v)", lit, esc, tp.scheme, errA, errB)
				}
			case errA != nil:
				// Both refused: nothing to compare.
			case planText(pa) != planText(pb):
				different++
				if eq {
					t.Errorf("Equal(%q, %q), but the plans differ:\n%s\n%s", lit, esc, planText(pa), planText(pb))
				}
			default:
				same++
				if !eq && exceptions[tp.scheme+" "+string(c)] == "" {
					t.Errorf("the plans of %q and %q are the same, but Equal says different (canonical %q, %q)", lit, esc, urlkit.Canonical(a), urlkit.Canonical(b))
				}
			}
		}
	}
	if same == 0 || different == 0 {
		t.Errorf("%d pairs with the same plan, %d with different plans: the test checks nothing", same, different)
	}
}

func planText(p Plan) string {
	var b strings.Builder
	for _, s := range p.Steps() {
		b.WriteString(s.Text())
		b.WriteByte('\n')
	}
	return b.String()
}

// TestReservedCharsInfo: the view of each built-in scheme reports the
// reserved set urlkit.Equal follows.
func TestReservedCharsInfo(t *testing.T) {
	if r := mustLookup(t, "gopher").Info().ReservedChars; !r.Stated || r.Path != "" || !strings.Contains(r.Source, "3.4.1") {
		t.Errorf("gopher's reserved set: %+v", r)
	}
	if r := mustLookup(t, "http").Info().ReservedChars; !r.Stated || r.Path != "/;?" || !strings.Contains(r.Source, "3.3") {
		t.Errorf("http's reserved set: %+v", r)
	}
	if r := mustLookup(t, "wais").Info().ReservedChars; r.Stated {
		t.Errorf("wais's reserved set: %+v (RFC 1738 3.9 says none)", r)
	}
}

func mustLookup(t *testing.T, name string) Scheme {
	t.Helper()
	s, ok := Lookup(name)
	if !ok {
		t.Fatalf("no scheme %q", name)
	}
	return s
}
