package conformance

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// corpusUse says what reads one corpus file (or a glob of them), or why
// nothing does. Every file of the corpora folder must match one entry
// (TestCorporaAccounted), so a new corpus cannot go unmentioned.
type corpusUse struct {
	glob string // path relative to the corpora folder, path.Match syntax
	used bool
	what string // the suites or tests that read it, or why none does
}

var corpusUses = []corpusUse{
	{"wpt-url/urltestdata.json", true, "WHATWG URL suite (this report); inputs of the Python urlsplit oracle"},
	{"wpt-url/ada_extra_urltestdata.json", true, "WHATWG URL suite (this report)"},
	{"wpt-url/percent-encoding.json", true, "WHATWG percent-encoding suite (this report), utf-8 column"},
	{"wpt-url/setters_tests.json", false, "not used: WHATWG's setters re-encode and repair each component; comparing them needs urlkit's component-edit API (issue 11), which this report does not yet drive"},
	{"wpt-url/toascii.json", true, "lenient/wpt_test.go TestWPTToASCII: the lenient reading's IDNA (RFC 1738 3.1 hosts are ASCII, so the strict parser is not run on it); UTS #46's own vectors are the UTS #46 suite (this report), from internal/testkit/conformance/testdata"},
	{"wpt-url/urltestdata-javascript-only.json", false, "not used: one lone-surrogate input, which has no UTF-8 (or any octet) form and so cannot reach a Go parser"},
	{"ada-url-datasets/*.txt", true, "net/url differential, Python urlsplit oracle, bases of the Python urljoin oracle (this report); parse benchmarks (bench_test.go)"},
	{"relative/*.tsv", true, "Resolution suites and the Python urljoin oracle (this report); resolve_test.go"},
	{"scheme-tests/curl_ftp_url_to_commands.tsv", true, "scheme/corpus_test.go TestCorpusCurlFTP (divergences pinned case by case)"},
	{"scheme-tests/curl_gopher_selector.tsv", true, "scheme/corpus_test.go TestCorpusCurlGopher"},
	{"scheme-tests/perl_uri_scheme_cases.jsonl", true, "scheme/corpus_test.go TestCorpusPerlURI"},
	{"scheme-tests/saga_cpp_url_components.jsonl", true, "scheme/corpus_test.go TestCorpusSAGA"},
	{"scheme-tests/curl_ftp_gopher_url_tests.jsonl", true, "curl ftp/gopher tests suite (this report): every record whose dialogue follows from the URL, divergences pinned by test; the rest are listed there as not considered, with the reason"},
	{"scheme-tests/curl_lib1560_urlapi_cases.jsonl", true, "curl URL API suite (this report): the parse rows (get_parts_list, get_url_list); curl lib1560 set_url_list suite (this report): the resolution rows; the setter rows (set_parts_list, setget_parts_list, append_list) are not used, as urlkit's component-edit API is not compared here"},
	{"scheme-tests/perl-URI/abs.t", true, "Perl URI t/abs.t suite (this report), mode rfc3986"},
	{"scheme-tests/perl-URI/rel.t", true, "Perl URI t/rel.t suite (this report), mode rfc3986"},
	{"scheme-tests/perl-URI/escape.t", true, "Perl URI::Escape suite (this report): every literal uri_escape, uri_escape_utf8 and uri_unescape call; the others are listed there as not considered"},
	{"scheme-tests/perl-URI/*.t", false, "not yet used as scripts: the accessor assertions of gopher.t and old-base.t are in perl_uri_scheme_cases.jsonl (used); file.t and old-file.t map file URLs to operating-system paths, which urlkit does not do; heuristic.t guesses URLs from words"},
	{"text-with-urls/*", true, "URL extraction tests (text/corpus_test.go: Extract and the Scanner over every file, against a pinned list of expected matches); the xurls comparison (bench/xurls)"},
}

// corpusFiles lists the files of the corpora folder, relative to it, except
// SOURCES.md.
func corpusFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel != "SOURCES.md" {
			files = append(files, rel)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// useOf returns the entry a corpus file matches.
func useOf(rel string) (corpusUse, bool) {
	for _, u := range corpusUses {
		if ok, _ := path.Match(u.glob, rel); ok {
			return u, true
		}
	}
	return corpusUse{}, false
}

// MarkdownCorpora renders the list of every corpus file in dir (those
// SOURCES.md describes) with what uses it or why nothing does.
func MarkdownCorpora(dir string) (string, error) {
	files, err := corpusFiles(dir)
	if err != nil {
		return "", fmt.Errorf("conformance: %w", err)
	}
	var b strings.Builder
	b.WriteString("\n## Corpora: used and unused\n\n")
	b.WriteString("Every file of `../shared/corpora` (described in its SOURCES.md), with what reads it or why nothing does. Generated from the files present; `go test ./internal/testkit/conformance` fails when a file has no entry.\n\n")
	b.WriteString("| Corpus | Files | Used | By / why not |\n|---|---:|---|---|\n")
	counts := map[string]int{}
	var order []corpusUse
	for _, f := range files {
		u, ok := useOf(f)
		if !ok {
			u = corpusUse{glob: f, what: "no entry: unaccounted for"}
		}
		if counts[u.glob] == 0 {
			order = append(order, u)
		}
		counts[u.glob]++
	}
	used, unused := 0, 0
	for _, u := range order {
		yes := "no"
		if u.used {
			yes = "yes"
			used += counts[u.glob]
		} else {
			unused += counts[u.glob]
		}
		fmt.Fprintf(&b, "| `%s` | %d | %s | %s |\n", mdEscape(u.glob), counts[u.glob], yes, mdEscape(u.what))
	}
	fmt.Fprintf(&b, "\n%d files: %d used, %d not used.\n", len(files), used, unused)
	return b.String(), nil
}
