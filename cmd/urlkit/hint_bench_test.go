package main

import (
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// BenchmarkHint is the strict reading's "--lenient reads it as" hint on
// the invalid lines of the ada-url datasets (5% of the lines, most of them
// repairable): the cost parse pays for each line it rejects.
func BenchmarkHint(b *testing.B) {
	var bad []string
	for _, s := range strings.Split(string(adaDatasets(b)), "\n") {
		if _, err := urlkit.Parse(s); err != nil && s != "" {
			bad = append(bad, s)
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
