// Command conformance runs urlkit against the external test suites and
// other URL parsers and writes CONFORMANCE.md.
//
// Usage, from the module root:
//
//	go run ./internal/testkit/conformance/cmd/conformance [-o CONFORMANCE.md] [-readme docs/conformance.md] [-corpora dir]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/urlkit/urlkit/internal/testkit/conformance"
)

const command = conformance.Command

func main() {
	out := flag.String("o", "", "write the report to this file instead of standard output")
	readme := flag.String("readme", "", "also rewrite the conformance summary table in this file (between its markers: docs/conformance.md)")
	dir := flag.String("corpora", conformance.DefaultDir(), "the corpora folder (../shared/corpora)")
	schemes := flag.Bool("schemes", true, "also run the scheme package's corpus tests (go test ./scheme/) and summarise them; run from the module root")
	flag.Parse()
	suites, err := conformance.All(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
	md := conformance.Markdown(suites, command)
	corpora, err := conformance.MarkdownCorpora(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
	failed := false
	if *schemes {
		tests, err := conformance.RunSchemeTests(".")
		if err != nil {
			fmt.Fprintln(os.Stderr, "conformance:", err)
			os.Exit(1)
		}
		md += conformance.MarkdownSchemeTests(tests)
		for _, t := range tests {
			fmt.Fprintf(os.Stderr, "%-45s %s\n", t.Name, t.Result)
			failed = failed || t.Result == "fail"
		}
	}
	md += corpora
	if *out == "" {
		fmt.Print(md)
	} else if err := os.WriteFile(*out, []byte(md), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
	if *readme != "" {
		text, err := os.ReadFile(*readme)
		if err == nil {
			var ok bool
			var next string
			if next, ok = conformance.ReplaceSummary(string(text), conformance.SummaryTable(suites)); !ok {
				err = fmt.Errorf("%s has no conformance summary markers", *readme)
			} else {
				err = os.WriteFile(*readme, []byte(next), 0o644)
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "conformance:", err)
			os.Exit(1)
		}
	}
	wrong := 0
	for _, s := range suites {
		fmt.Fprintf(os.Stderr, "%-45s considered %6d agreed %6d different %5d wrong %d\n", s.Name, s.Considered, s.Agreed, s.DifferentCount(), len(s.Wrong))
		wrong += len(s.Wrong) + len(s.Stale)
	}
	if wrong > 0 || failed {
		os.Exit(1)
	}
}
