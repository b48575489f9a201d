package scheme

import (
	"fmt"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// TestViewAllocs holds the typed views to their allocation budgets: the
// view itself (which has room for the segments of a short path), a slice
// for each list a long path needs, and one string per decoded part that has
// escapes (for gopher, one string holding every decoded part).
func TestViewAllocs(t *testing.T) {
	for _, tc := range []struct {
		url string
		max float64
	}{
		{benchFTP, 1},                                   // *FTP
		{"ftp://h.dom/a/b/c", 1},                        // the same
		{"ftp://h.dom/a/b/c/d/e/f/g", 2},                // *FTP, the CWD list
		{"ftp://h.dom/a%20b/c", 2},                      // *FTP, "a b"
		{benchGopher, 2},                                // *Gopher, the decoded text
		{"gopher://h.dom/0s%20a%09q%20b%09!+A%20+B", 4}, // and the Gopher+ string, parsed, with its attribute list
		{"gopher://info.cern.ch:70/0/about", 1},
	} {
		u := urlkit.MustParse(tc.url)
		if n := testing.AllocsPerRun(50, func() { ViewOf(u) }); n > tc.max {
			t.Errorf("ViewOf(%s): %v allocations, budget %v", tc.url, n, tc.max)
		}
	}
}

// TestHostPort checks the dial address, short and long hosts, in one
// allocation.
func TestHostPort(t *testing.T) {
	long := "a23456789.b23456789.c23456789.d23456789.e23456789.f23456789.g23456789"
	for _, tc := range []struct {
		host string
		port int
		want string
	}{{"ftp.host.dom", 2121, "ftp.host.dom:2121"}, {"h", 0, "h:0"}, {long, 70, long + ":70"}, {"", 1 << 30, ":1073741824"}} {
		if got := hostPort(tc.host, tc.port); got != tc.want {
			t.Errorf("hostPort(%q, %d) = %q, want %q", tc.host, tc.port, got, tc.want)
		}
	}
	if n := testing.AllocsPerRun(50, func() { hostPort("ftp.host.dom", 2121) }); n > 1 {
		t.Errorf("hostPort: %v allocations, want 1", n)
	}
}

// TestUcharOr checks the cached and the built predicates against their
// definition: uchar or one of the extra bytes.
func TestUcharOr(t *testing.T) {
	for _, extra := range []string{"?:@&=", ";:@&=", ";/?:&=", "?:@&", "+"} {
		ok := ucharOr(extra)
		for b := 0; b < 256; b++ {
			want := uchar(byte(b)) || strings.IndexByte(extra, byte(b)) >= 0
			if ok(byte(b)) != want {
				t.Errorf("ucharOr(%q)(%q) = %v", extra, rune(b), !want)
			}
		}
	}
}

// TestFTPPathLengths checks CWD and Name around the size of the view's
// own room for CWD arguments (three).
func TestFTPPathLengths(t *testing.T) {
	for n := 1; n <= 9; n++ {
		var segs []string
		for i := range n {
			segs = append(segs, string(rune('a'+i))+"%20x")
		}
		u := urlkit.MustParse("ftp://h.dom/" + strings.Join(segs, "/") + ";type=a")
		view, err := ViewOf(u)
		if err != nil {
			t.Fatal(err)
		}
		v := view.(*FTP)
		for i, c := range v.CWD {
			if want := string(rune('a'+i)) + " x"; c != want {
				t.Errorf("%d segments: CWD[%d] = %q, want %q", n, i, c, want)
			}
		}
		if len(v.CWD) != n-1 || v.Name != string(rune('a'+n-1))+" x" || len(v.parts()) != n {
			t.Errorf("%d segments: CWD %q, name %q, %d parts", n, v.CWD, v.Name, len(v.parts()))
		}
	}
}

// TestPlanSpare checks the plan room allocated with a view: the first
// Plan uses it, later ones (on the view or on a copy of it) get their own
// plan, and none changes an earlier plan.
func TestPlanSpare(t *testing.T) {
	for _, s := range []string{benchGopher, benchFTP, "gopher://h.dom/0a", "ftp://h.dom/a/b/c/d/e/f/g"} {
		view, err := ViewOf(urlkit.MustParse(s))
		if err != nil {
			t.Fatal(err)
		}
		first, err := view.Plan(Config{})
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprint(first)
		var second Plan
		switch v := view.(type) {
		case *Gopher:
			c := *v
			c.Selector = "changed"
			second, _ = c.Plan(Config{})
		case *FTP:
			c := *v
			c.Name = "changed"
			second, _ = c.Plan(Config{})
		}
		third, _ := view.Plan(Config{})
		if second == first || third == first || third == second {
			t.Errorf("%s: plans share memory: %p %p %p", s, first, second, third)
		}
		if got := fmt.Sprint(first); got != want || fmt.Sprint(third) != want {
			t.Errorf("%s: first plan %s became %s; third %s", s, want, got, third)
		}
		if fmt.Sprint(second) == want {
			t.Errorf("%s: the copy's plan %s ignores its change", s, second)
		}
	}
}

// TestParsePlanAllocs holds scheme.Parse and Plan together to their budgets:
// the view with its first plan, and the plan's one string (for a gopher URL
// with escapes, the view's decoded text, which the plan uses).
func TestParsePlanAllocs(t *testing.T) {
	for _, tc := range []struct {
		url string
		max float64
	}{
		{benchFTP, 2},
		{"gopher://info.cern.ch:70/0/about", 2},
		{benchGopher, 2},
		{"gopher://h.dom/0s%20a%09q%20b%09+%20c", 3}, // and the Gopher+ string, parsed
	} {
		if n := testing.AllocsPerRun(50, func() {
			v, _ := Parse(tc.url)
			v.Plan(Config{})
		}); n > tc.max {
			t.Errorf("Parse(%s) and Plan: %v allocations, budget %v", tc.url, n, tc.max)
		}
	}
}
