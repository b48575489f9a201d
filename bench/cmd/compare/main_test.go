package main

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestMeasure runs two implementations of known relative cost over a few
// rounds: the report has one row each, the peer marked, and the slower
// implementation is reported slower.
func TestMeasure(t *testing.T) {
	in := []string{"http://a.b/c", "ftp://x.y/z"}
	work := func(n int) func([]string) int {
		return func(in []string) int {
			s := 0
			for range n {
				for _, u := range in {
					s += strings.Count(u, "/")
				}
			}
			return s
		}
	}
	g := newGroup("test group", in, []impl{
		{name: "cheap", run: work(10)},
		{name: "dear", peer: true, run: work(200)},
	})
	rs, err := measure([]*group{g}, 5, time.Millisecond, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || len(rs[0].ns) != 5 || len(rs[0].ratio) != 5 {
		t.Fatalf("got %d results with %d samples", len(rs), len(rs[0].ns))
	}
	if r := median(rs[0].ratio); r < 2 {
		t.Errorf("cheap implementation measured at %.2fx the dear one, want about 20x", r)
	}
	var b strings.Builder
	report(&b, rs)
	out := b.String()
	for _, want := range []string{"### test group", "| cheap |", "| dear |", "| peer |"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// TestPlanPeersAgree checks that the plan groups compare like with like:
// the net/url peers produce urlkit's plan on every input, and a
// difference is caught.
func TestPlanPeersAgree(t *testing.T) {
	if _, err := planInputs(ftpURLs, checkFTP); err != nil {
		t.Error(err)
	}
	if _, err := planInputs(gopherURLs, checkGopher); err != nil {
		t.Error(err)
	}
	// A user without a password: urlkit's plan asks for it, the peer
	// sends an empty one.
	if _, err := planInputs([]string{"ftp://user@host.dom/f;type=a"}, checkFTP); err == nil {
		t.Error("a plan that differs from the peer's was not caught")
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{{[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}, {nil, 0}} {
		if got := median(tc.in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
