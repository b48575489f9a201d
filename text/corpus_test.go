package text

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/corpus"
)

// The text corpus: RFCs, drafts and working-group minutes of 1993 to 2005
// with URLs in them (../shared/corpora/text-with-urls; its SOURCES.md says
// where each text comes from).
func corpusDir() string { return filepath.Join(corpus.Dir(), "text-with-urls") }

// readCorpus returns the corpus texts by file name. Without the corpus the
// test is skipped with one line saying where it is expected, unless
// URLKIT_REQUIRE_CORPORA=1 (as in CI), which makes it fail.
func readCorpus(t testing.TB) map[string]string {
	t.Helper()
	dir := corpusDir()
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) == 0 {
		skipNoCorpus(t, dir)
	}
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = string(b)
	}
	return out
}

// skipNoCorpus skips the test with one line saying where the shared
// files were expected, or fails it when URLKIT_REQUIRE_CORPORA=1 (as CI
// sets it, so that a missing corpus cannot pass for a green run).
func skipNoCorpus(t testing.TB, where string) {
	t.Helper()
	msg := fmt.Sprintf("shared corpus absent: expected %s (../shared beside the repository, or $URLKIT_CORPORA for ../shared/corpora)", where)
	if os.Getenv("URLKIT_REQUIRE_CORPORA") == "1" {
		t.Fatal(msg + "; URLKIT_REQUIRE_CORPORA=1 requires it")
	}
	t.Skip(msg)
}

var update = flag.Bool("update", false, "rewrite testdata/corpus-matches.tsv and testdata/corpus-rejections.tsv from what Extract finds (review the difference before committing)")

const (
	pinnedMatches    = "testdata/corpus-matches.tsv"
	pinnedRejections = "testdata/corpus-rejections.tsv"
)

// form names how a URL is written: "URL:" for <URL:...>, "<>" for plain
// angle brackets, "bare" for none, "URL:bare" for URL:... without brackets.
func form(wrapped, prefixed bool) string {
	switch {
	case wrapped && prefixed:
		return "URL:"
	case wrapped:
		return "<>"
	case prefixed:
		return "URL:bare"
	}
	return "bare"
}

// corpusRows returns one row per match and one per rejection of every
// corpus file, in file order then input order.
func corpusRows(t *testing.T) (matches, rejections []string) {
	texts := readCorpus(t)
	names := make([]string, 0, len(texts))
	for n := range texts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		var rej []Rejection
		got := Extractor{Rejected: func(r Rejection) { rej = append(rej, r) }}.Extract(texts[name])
		for _, m := range got {
			note := ""
			switch {
			case m.Ambiguous:
				note = "ambiguous, or " + m.Alternatives[1].String()
			case m.Warnings != nil:
				note = "repaired from " + m.Text
			}
			matches = append(matches, fmt.Sprintf("%s\t%d\t%s\t%s\t%s", name, m.Line, form(m.Wrapped, m.Prefixed), m.URL.String(), note))
		}
		for _, r := range rej {
			rejections = append(rejections, fmt.Sprintf("%s\t%d\t%s\t%q\t%s", name, r.Line, form(r.Wrapped, r.Prefixed), r.Text, r.Reason()))
		}
	}
	return matches, rejections
}

const pinnedHeader = `# Every %s Extract finds in ../shared/corpora/text-with-urls, pinned.
# Written by "go test -run TestExtractCorpusPinned -update" and then reviewed
# by eye, row by row (see the notes in corpus_test.go and README); the test
# fails on any difference. Columns: file, line, form (URL: = <URL:...>,
# <> = plain angle brackets, bare, URL:bare = URL:... without brackets), %s.
`

// TestExtractCorpusPinned checks every match, and every candidate given
// up, in the text corpus against the reviewed lists in testdata. Review
// decisions, for the rows a reader might question:
//
//   - Bare URLs lose a final "." as the end of a sentence, so RFC 2396's
//     and RFC 3986's table rows "g. = http://a/b/c/g." give
//     "http://a/b/c/g": without a wrapper a final dot cannot be told from
//     a full stop (RFC 1738's appendix recommends wrappers for this
//     reason; RFC 1808 wraps the same rows, which come out whole).
//   - Grammar templates ("http://<host>:<port>/<path>", "telnet://[user@]")
//     are neither matches nor rejections; "ftp://@host.com/" (RFC 1738
//     3.2.1, an empty user name) is a URL.
//   - RFC 1630's "news:12345667123%asdghfh@info.cern.ch" is rejected, as
//     that RFC's Example 3 says it is illegal; so is its
//     "name%%3Ddobbins", by the same rule, rather than guessed at.
//   - RFC 2732's IPv6 literals are rejections: RFC 1738 hosts have none.
//   - "<URL:http:g>" and "<URL:http:>" of RFC 1808's abnormal examples
//     are rejections (RFC 1738 3.1 needs "//" for http); bare "http:g" is
//     no candidate.
//   - RFC 2368's HTML example is taken as written, "&amp;" and all: the
//     extractor reads plain text, not HTML.
//   - Schemes urlkit does not know (ldap:, data:) are found only in
//     wrappers with "//", never bare; "http://example.com:/" of RFC 3986
//     6.2.3 is given repaired as "http://example.com/", the repair
//     reported.
func TestExtractCorpusPinned(t *testing.T) {
	matches, rejections := corpusRows(t)
	for _, f := range []struct {
		path, what, cols string
		rows             []string
	}{
		{pinnedMatches, "URL", "URL as it should be used, note (the other reading of an ambiguous match, the text of a repaired one)", matches},
		{pinnedRejections, "candidate given up", "candidate text (quoted), reason", rejections},
	} {
		if *update {
			body := fmt.Sprintf(pinnedHeader, f.what, f.cols) + strings.Join(f.rows, "\n") + "\n"
			if err := os.WriteFile(f.path, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want := readPinned(t, f.path)
		compareRows(t, f.path, want, f.rows)
	}
}

func readPinned(t *testing.T, path string) []string {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var rows []string
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			rows = append(rows, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// compareRows reports each row missing from got and each row got has
// that want does not, as a diff of the two lists would.
func compareRows(t *testing.T, path string, want, got []string) {
	t.Helper()
	count := map[string]int{}
	for _, r := range want {
		count[r]++
	}
	for _, r := range got {
		count[r]--
	}
	bad := 0
	for _, r := range want {
		if count[r] > 0 {
			t.Errorf("%s: no longer found: %s", path, r)
			count[r]--
			bad++
		}
	}
	for _, r := range got {
		if count[r] < 0 {
			t.Errorf("%s: found but not pinned: %s", path, r)
			count[r]++
			bad++
		}
	}
	if bad == 0 && len(want) != len(got) {
		t.Errorf("%s: %d rows pinned, %d found", path, len(want), len(got))
	}
	if bad == 0 {
		// Same rows; the order must be the same too.
		for i := range want {
			if want[i] != got[i] {
				t.Errorf("%s: row %d is %q, want %q", path, i+1, got[i], want[i])
				break
			}
		}
	}
}
