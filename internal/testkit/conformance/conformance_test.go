package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/corpus"
)

// corporaDir returns the corpora folder, skipping the test with one line
// saying where they are expected when they are absent (failing under
// URLKIT_REQUIRE_CORPORA=1, as in CI).
func corporaDir(t *testing.T) string {
	t.Helper()
	return corpus.Require(t)
}

var (
	allOnce   sync.Once
	allResult []*Suite
	allErr    error
)

// allSuites runs every suite once per test binary.
func allSuites(t *testing.T) []*Suite {
	t.Helper()
	dir := corporaDir(t)
	allOnce.Do(func() { allResult, allErr = All(dir) })
	if allErr != nil {
		t.Fatal(allErr)
	}
	return allResult
}

// TestDocsSummary checks that docs/conformance.md's table is the one the
// suites produce now (rewrite it with the command in its marker).
func TestDocsSummary(t *testing.T) {
	suites := allSuites(t)
	for _, s := range suites {
		if s.Unavailable != "" {
			t.Skipf("suite %q not run here (%s), so the figures cannot match", s.Name, s.Unavailable)
		}
	}
	text, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "conformance.md"))
	if err != nil {
		t.Fatal(err)
	}
	got := Summary(string(text))
	if got == "" {
		t.Fatal("docs/conformance.md has no conformance summary between the markers")
	}
	if want := SummaryTable(suites); got != want {
		t.Errorf("docs/conformance.md's conformance figures are stale; rerun %s\ndocs:\n%s\nnow:\n%s", Command, got, want)
	}
}

// TestNoWrong runs every suite and fails on any case that is neither
// agreed nor explained by a class of deliberate differences: each such case
// is a urlkit bug or a missing classification.
func TestNoWrong(t *testing.T) {
	suites := allSuites(t)
	for _, s := range suites {
		t.Run(strings.ReplaceAll(s.Name, " ", "_"), func(t *testing.T) {
			if s.Unavailable != "" {
				t.Skip(s.Unavailable)
			}
			if s.Considered == 0 {
				t.Fatalf("no case considered out of %d: the runner or the corpus is broken", s.Total)
			}
			skipped := 0
			for _, c := range s.Skipped {
				skipped += c.Count
			}
			if got := s.Agreed + s.DifferentCount() + len(s.Wrong); got != s.Considered {
				t.Errorf("agreed %d + different %d + wrong %d = %d, considered %d", s.Agreed, s.DifferentCount(), len(s.Wrong), got, s.Considered)
			}
			if s.Considered+skipped != s.Total {
				t.Errorf("considered %d + not considered %d != cases %d", s.Considered, skipped, s.Total)
			}
			for _, w := range s.Wrong {
				t.Errorf("wrong: %q: %s", w.Input, w.Detail)
			}
			for _, w := range s.Stale {
				t.Errorf("stale pin: %q: %s", w.Input, w.Detail)
			}
			t.Logf("cases %d, considered %d, agreed %d (%d exactly), different %d, wrong %d",
				s.Total, s.Considered, s.Agreed, s.AgreedExact, s.DifferentCount(), len(s.Wrong))
		})
	}
}

// TestRemoveDotSegments checks the dot-segment translation on the WHATWG
// URL test data's own examples (wpt-url/urltestdata.json) and on RFC 3986
// 5.2.4's worked example.
func TestRemoveDotSegments(t *testing.T) {
	tests := []struct{ in, want, source string }{
		{"/a/b/c/./../../g", "/a/g", "RFC 3986 5.2.4"},
		{"/././foo", "/foo", "urltestdata.json http://example.com/././foo"},
		{"/foo/.", "/foo/", "urltestdata.json http://example.com/foo/."},
		{"/foo/bar/..", "/foo/", "urltestdata.json http://example.com/foo/bar/.."},
		{"/foo/../../..", "/", "urltestdata.json http://example.com/foo/../../.."},
		{"/foo/%2e./%2e%2e/.%2e/%2e.bar", "/%2e.bar", "urltestdata.json http://example.com/foo/%2e./%2e%2e/.%2e/%2e.bar"},
		{"////../..", "//", "urltestdata.json http://example.com////../.."},
		{"/foo/bar//..", "/foo/bar/", "urltestdata.json http://example.com/foo/bar//.."},
		{"/foo/..bar", "/foo/..bar", "urltestdata.json http://example.com/foo/..bar"},
	}
	for _, tt := range tests {
		if got := removeDotSegments(tt.in, true); got != tt.want {
			t.Errorf("%s: removeDotSegments(%q) = %q, want %q", tt.source, tt.in, got, tt.want)
		}
	}
}

// TestMarkdown checks that the report carries each suite's figures.
func TestMarkdown(t *testing.T) {
	s := &Suite{Name: "demo", Source: "src", Total: 3, Considered: 2, Agreed: 1, AgreedExact: 1}
	s.different("cls", "RFC 1738 2.1", "a|b")
	md := Markdown([]*Suite{s}, "cmd")
	for _, want := range []string{"| demo | 3 | 3 | 1 (1) | 1 | 0 |", "`a\\|b`", "RFC 1738 2.1", "`cmd`"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
}

// TestCorporaAccounted requires every corpus file to have an entry in
// corpusUses, so CONFORMANCE.md says of each whether and where it is used.
func TestCorporaAccounted(t *testing.T) {
	files, err := corpusFiles(corporaDir(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no corpus files found")
	}
	for _, f := range files {
		if _, ok := useOf(f); !ok {
			t.Errorf("corpus %s has no entry in corpusUses (corpora.go): say what uses it or why nothing does", f)
		}
	}
}

// TestConformanceReport pins every figure of CONFORMANCE.md's suites: the
// count of each class (not considered, agreed after a translation,
// deliberately different, rejected by urlkit and classed by RFC 1738 5's
// grammar) must be the one the suites produce now, so a count that moves
// fails until the report is regenerated with the change explained.
func TestConformanceReport(t *testing.T) {
	suites := allSuites(t)
	for _, s := range suites {
		if s.Unavailable != "" {
			t.Skipf("suite %q not run here (%s), so the figures cannot match", s.Name, s.Unavailable)
		}
	}
	text, err := os.ReadFile(filepath.Join("..", "..", "..", "CONFORMANCE.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := Markdown(suites, Command)
	got := string(text)
	if strings.HasPrefix(got, want) {
		return
	}
	// Name the first line that differs.
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range wl {
		if i >= len(gl) || gl[i] != wl[i] {
			g := ""
			if i < len(gl) {
				g = gl[i]
			}
			t.Fatalf("CONFORMANCE.md line %d differs from what the suites produce now; rerun %s and explain the change\nfile: %s\nnow:  %s", i+1, Command, g, wl[i])
		}
	}
}
