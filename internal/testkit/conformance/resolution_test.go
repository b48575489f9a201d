package conformance

import (
	"strings"
	"testing"
)

// TestRelTableRFC2396 checks the repair of the RFC 2396 table: appendix C.1
// prints ";x = <URL:http://a/b/c/;x>" and "" as the current document.
func TestRelTableRFC2396(t *testing.T) {
	rows, err := readRelTable(corporaDir(t), "rfc2396_appC_examples.tsv")
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]string{}
	for _, r := range rows {
		found[r.ref] = r.expected()
	}
	for ref, want := range map[string]string{";x": "http://a/b/c/;x", "g;x": "http://a/b/c/g;x", "": "http://a/b/c/d;p?q"} {
		if got, ok := found[ref]; !ok || got != want {
			t.Errorf("RFC 2396 C.1 %q: table gives %q (present %v), want %q", ref, got, ok, want)
		}
	}
}

// TestResolutionSuites checks that every table and mode of relPlans gives a
// suite that considers rows and documents its divergences.
func TestResolutionSuites(t *testing.T) {
	suites, err := Resolution(corporaDir(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(suites) != len(relPlans) {
		t.Fatalf("%d suites for %d plans", len(suites), len(relPlans))
	}
	for _, s := range suites {
		if s.Considered == 0 || !strings.HasPrefix(s.Name, "Resolution: ") {
			t.Errorf("%s: considered %d", s.Name, s.Considered)
		}
	}
}

func TestJoinHelpers(t *testing.T) {
	for in, want := range map[string]string{
		"http://a/b?":     "http://a/b",
		"http://a/b#":     "http://a/b",
		"http://a/b?#":    "http://a/b",
		"http://a/b?#z":   "http://a/b#z",
		"http://a/b?y#":   "http://a/b?y",
		"http://a/b?y#z":  "http://a/b?y#z",
		"http://a/b?y?#z": "http://a/b?y#z",
	} {
		if got := dropEmptyDelims(in); got != want {
			t.Errorf("dropEmptyDelims(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]bool{"//": true, "///w": true, "//?y": true, "//#z": true, "//g": false, "/g": false, "": false} {
		if got := emptyAuthority(in); got != want {
			t.Errorf("emptyAuthority(%q) = %v", in, got)
		}
	}
	// RFC 3986 5.4.1: "?y" against http://a/b/c/d;p?q.
	if got := resultText("http://a/b/c/d;p?q", "?y"); got != "http://a/b/c/d;p?y" {
		t.Errorf("resultText: %q", got)
	}
	// A result RFC 1738 3.1 rejects still gives its text.
	if got := resultText("http://h", "?y"); got != "http://h?y" {
		t.Errorf("resultText of a non-URL result: %q", got)
	}
}
