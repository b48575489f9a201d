package scheme

import (
	"strings"
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
