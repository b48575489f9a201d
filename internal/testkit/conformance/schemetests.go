package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"regexp"
	"sort"
	"strings"
)

// SchemeTest is the outcome of one of the scheme package's corpus tests
// (scheme/corpus_test.go), which compare the scheme layer with curl's,
// libwww-perl URI's and SAGA's test data and list their own divergences.
type SchemeTest struct {
	Name   string   // test function
	Corpus string   // the corpus file it reads
	Result string   // pass, fail or skip
	Log    []string // what the test logged: its counts and divergences
}

var schemeCorpora = map[string]string{
	"TestCorpusCurlFTP":    "scheme-tests/curl_ftp_url_to_commands.tsv (curl: ftp URL to USER/PASS/CWD/TYPE/RETR|LIST)",
	"TestCorpusCurlGopher": "scheme-tests/curl_gopher_selector.tsv (curl: gopher URL to selector on the wire)",
	"TestCorpusPerlURI":    "scheme-tests/perl_uri_scheme_cases.jsonl (libwww-perl URI accessors for ftp, gopher, news, nntp, telnet, mailto)",
	"TestCorpusSAGA":       "scheme-tests/saga_cpp_url_components.jsonl (SAGA C++ component split incl. wais, gopher, news)",
}

var logPrefix = regexp.MustCompile(`^\s+\S+_test\.go:\d+: `)

// RunSchemeTests runs the scheme package's corpus tests with `go test`
// from the module root and collects their results and logged counts, so
// that the report summarises them rather than repeating their work.
func RunSchemeTests(moduleRoot string) ([]SchemeTest, error) {
	cmd := exec.Command("go", "test", "-count=1", "-json", "-v", "-run", "^TestCorpus", "./scheme/")
	cmd.Dir = moduleRoot
	out, err := cmd.Output()
	if len(out) == 0 && err != nil {
		return nil, fmt.Errorf("conformance: go test ./scheme: %w", err)
	}
	byName := map[string]*SchemeTest{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var ev struct{ Action, Test, Output string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Test == "" || strings.Contains(ev.Test, "/") {
			continue
		}
		t := byName[ev.Test]
		if t == nil {
			t = &SchemeTest{Name: ev.Test, Corpus: schemeCorpora[ev.Test]}
			byName[ev.Test] = t
		}
		switch ev.Action {
		case "pass", "fail", "skip":
			t.Result = ev.Action
		case "output":
			line := strings.TrimRight(ev.Output, "\n")
			if logPrefix.MatchString(line) {
				t.Log = append(t.Log, logPrefix.ReplaceAllString(line, ""))
			}
		}
	}
	var tests []SchemeTest
	for _, t := range byName {
		tests = append(tests, *t)
	}
	sort.Slice(tests, func(i, j int) bool { return tests[i].Name < tests[j].Name })
	if len(tests) == 0 {
		return nil, fmt.Errorf("conformance: go test ./scheme ran no corpus test (%v)", err)
	}
	return tests, nil
}

// MarkdownSchemeTests renders the scheme package's corpus test results.
func MarkdownSchemeTests(tests []SchemeTest) string {
	var b strings.Builder
	b.WriteString("\n## Scheme suites (curl, libwww-perl URI, SAGA)\n\n")
	b.WriteString("These corpora are compared case by case by the scheme package's own tests (`go test -run '^TestCorpus' ./scheme/`, in scheme/corpus_test.go), which name every deliberate divergence in the test and fail on any other; this section is their outcome, rerun when this report is generated.\n\n")
	b.WriteString("| Test | Corpus | Result | What it logged |\n|---|---|---|---|\n")
	for _, t := range tests {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", t.Name, mdEscape(t.Corpus), t.Result, mdEscape(strings.Join(t.Log, "; ")))
	}
	return b.String()
}
