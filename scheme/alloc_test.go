package scheme

import (
	"testing"

	"github.com/urlkit/urlkit"
)

// TestViewAllocs holds the typed views to their allocation budgets: the
// view itself, one slice for the split path and one for the CWD list, and
// one string per decoded part that has escapes.
func TestViewAllocs(t *testing.T) {
	for _, tc := range []struct {
		url string
		max float64
	}{
		{benchFTP, 3},            // *FTP, the segments, the CWD list
		{"ftp://h.dom/a/b/c", 3}, // the same, nothing to decode
		{benchGopher, 3},         // *Gopher, the fields, the decoded search
		{"gopher://info.cern.ch:70/0/about", 1},
	} {
		u := urlkit.MustParse(tc.url)
		if n := testing.AllocsPerRun(50, func() { ViewOf(u) }); n > tc.max {
			t.Errorf("ViewOf(%s): %v allocations, budget %v", tc.url, n, tc.max)
		}
	}
}
