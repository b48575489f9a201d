package scheme

import (
	"slices"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/chars"
)

// refFirstControl and refSplitEscape are firstControl and splitEscape
// written byte by byte, as they were before they jumped from "%" to "%"
// with strings.IndexByte.
func refFirstControl(raw string) (int, byte) {
	for i := 0; i+2 < len(raw); i++ {
		if chars.IsEscape(raw, i) {
			b := chars.Unhex(raw[i+1])<<4 | chars.Unhex(raw[i+2])
			if isControl(b) {
				return i, b
			}
			i += 2
		}
	}
	return -1, 0
}

func refSplitEscape(p part, esc string, n int) []part {
	var out []part
	start := 0
	for i := 0; i+len(esc) <= len(p.raw) && len(out) < n; {
		if p.raw[i] == '%' && strings.EqualFold(p.raw[i:i+len(esc)], esc) {
			out = append(out, part{p.raw[start:i], p.off + start, p.comp})
			i += len(esc)
			start = i
			continue
		}
		i++
	}
	return append(out, part{p.raw[start:], p.off + start, p.comp})
}

func FuzzEscapeScans(f *testing.F) {
	for _, s := range []string{"", "%", "%0", "%09", "a%09b%09c%09d", "%%09", "%0%09", "x%0d%0A", "%7f%7F%zz%0", "%2509", "a%9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		i, b := firstControl(s)
		ri, rb := refFirstControl(s)
		if i != ri || b != rb {
			t.Fatalf("firstControl(%q) = %d %x, want %d %x", s, i, b, ri, rb)
		}
		for n := 0; n <= 3; n++ {
			p := part{s, 7, 0}
			if got, want := p.splitEscape("%09", n), refSplitEscape(p, "%09", n); !slices.Equal(got, want) {
				t.Fatalf("splitEscape(%q, %d) = %v, want %v", s, n, got, want)
			}
		}
	})
}
