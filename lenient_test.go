package urlkit

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseLenient(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		warnings []int // offsets of the warnings, in order
	}{
		{"http://h/a b", "http://h/a%20b", []int{10}},
		{"  http://h/~u/\n", "http://h/%7Eu/", []int{0, 14, 11}},
		{"http://h/100%", "http://h/100%25", []int{12}},
		{"http://h/%zz", "http://h/%25zz", []int{9}},
		{"http://h/é", "http://h/%C3%A9", []int{9, 10}},
		{"http://h/#a#b", "http://h/#a%23b", []int{11}},
		{"http://h:/x", "http://h/x", []int{8}},
		{"http://h?q=1", "http://h/?q=1", []int{8}},
		{"http://h/ok", "http://h/ok", nil},
		{"URL:http://h/{x}", "http://h/%7Bx%7D", []int{13, 15}},
	} {
		u, warns, err := ParseLenient(tt.in)
		if err != nil {
			t.Errorf("ParseLenient(%q): %v", tt.in, err)
			continue
		}
		if u.String() != tt.want {
			t.Errorf("ParseLenient(%q) = %q, want %q", tt.in, u, tt.want)
		}
		var offs []int
		for _, w := range warns {
			offs = append(offs, w.Offset)
			if w.Reason == "" || w.String() == "" {
				t.Errorf("empty warning for %q", tt.in)
			}
		}
		if len(offs) != len(tt.warnings) {
			t.Errorf("ParseLenient(%q) warnings %v, want offsets %v", tt.in, warns, tt.warnings)
		} else {
			for i := range offs {
				if offs[i] != tt.warnings[i] {
					t.Errorf("ParseLenient(%q) warnings %v, want offsets %v", tt.in, warns, tt.warnings)
					break
				}
			}
		}
		// The repaired URL always parses strictly; the original does not, unless no repair was needed.
		if _, err := Parse(u.String()); err != nil {
			t.Errorf("lenient result %q does not parse strictly: %v", u, err)
		}
		if _, err := Parse(tt.in); (err == nil) != (len(warns) == 0) {
			t.Errorf("Parse(%q) err=%v but %d warnings", tt.in, err, len(warns))
		}
	}
}

func TestParseLenientErrors(t *testing.T) {
	for _, tt := range []struct {
		in   string
		off  int
		kind error
	}{
		{"http://a_b/", 8, ErrBadHost},
		{"  http://a b/x y", 10, ErrBadHost},
		{"no scheme here", 2, ErrBadScheme},
	} {
		_, _, err := ParseLenient(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset != tt.off || !errors.Is(err, tt.kind) || se.Input != tt.in {
			t.Errorf("ParseLenient(%q) = %v, want %v at %d", tt.in, err, tt.kind, tt.off)
		}
	}
}

// A long input with a repair at every byte stays linear: this took minutes
// when each warning's component was looked up by a scan of the whole input
// (found by FuzzParseLenient stalling).
func TestParseLenientLong(t *testing.T) {
	s := "http://h/" + strings.Repeat("~", 200000)
	start := time.Now()
	u, warns, err := ParseLenient(s)
	if err != nil || len(warns) != 200000 || len(u.String()) != 9+3*200000 {
		t.Fatalf("err %v, %d warnings, %d bytes", err, len(warns), len(u.String()))
	}
	if warns[199999].Component != ComponentPath {
		t.Errorf("last warning in %v", warns[199999].Component)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}
