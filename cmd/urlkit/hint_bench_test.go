package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// BenchmarkHint is the strict reading's "--lenient reads it as" hint on
// the invalid lines of the ada-url datasets (5% of the lines, most of them
// repairable): the cost parse pays for each line it rejects.
func BenchmarkHint(b *testing.B) {
	dir := os.Getenv("URLKIT_CORPORA")
	if dir == "" {
		dir = "../../../shared/corpora"
	}
	var bad []string
	for _, f := range []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"} {
		d, err := os.ReadFile(filepath.Join(dir, "ada-url-datasets", f))
		if err != nil {
			b.Skip(err)
		}
		for _, s := range strings.Split(string(d), "\n") {
			if _, err := urlkit.Parse(s); err != nil && s != "" {
				bad = append(bad, s)
			}
		}
	}
	var rd reading
	hinted := 0
	b.ReportAllocs()
	for b.Loop() {
		hinted = 0
		for _, s := range bad {
			_, err := urlkit.Parse(s)
			if hintSuffix(rd.hint(s, false, err)) != "" {
				hinted++
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(bad)), "ns/line")
	b.ReportMetric(float64(hinted), "hinted")
}
