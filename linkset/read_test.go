package linkset

import (
	"errors"
	"testing"

	"github.com/urlkit/urlkit"
)

// TestRead checks the generic reading the command line's commands share:
// strict by RFC 1738 section 5 without the scheme's rules (which Parse
// adds), or lenient from the start with its repairs.
func TestRead(t *testing.T) {
	for _, tt := range []struct {
		in       string
		lenient  bool
		partial  bool
		want     string // "" for an error
		warns    int
		extended bool
		kind     error // the error's sentinel, when want is ""
	}{
		{in: "http://a/b", want: "http://a/b"},
		// A login in http breaks the scheme's rule (RFC 1738 3.3), not the
		// generic syntax: Read takes it, Parse does not.
		{in: "http://u@a/b", want: "http://u@a/b"},
		{in: "http://a/b c", kind: urlkit.ErrUnsafeChar},
		{in: "http://a/b c", lenient: true, want: "http://a/b%20c", warns: 1, extended: true},
		{in: "http://a/b", lenient: true, want: "http://a/b", extended: true},
		{in: "../a", kind: urlkit.ErrMissingScheme},
		{in: "../a", partial: true, want: "../a"},
		{in: "../a b", partial: true, kind: urlkit.ErrUnsafeChar},
		{in: "../a b", partial: true, lenient: true, want: "../a%20b", warns: 1, extended: true},
	} {
		read := Read
		if tt.partial {
			read = ReadRef
		}
		u, warns, err := read(tt.in, Options{Lenient: tt.lenient})
		if tt.want == "" {
			if !errors.Is(err, tt.kind) {
				t.Errorf("Read(%q, lenient %v, partial %v): error %v, want %v", tt.in, tt.lenient, tt.partial, err, tt.kind)
			}
			continue
		}
		if err != nil || u.String() != tt.want || len(warns) != tt.warns || u.Extended() != tt.extended {
			t.Errorf("Read(%q, lenient %v, partial %v) = %q, %d warnings, extended %v, %v; want %q, %d, %v",
				tt.in, tt.lenient, tt.partial, u, len(warns), u.Extended(), err, tt.want, tt.warns, tt.extended)
		}
	}
	if _, _, err := Parse("http://u@a/b", Options{}); err == nil {
		t.Error(`Parse("http://u@a/b") took a login in http; Read's test above relies on Parse refusing it`)
	}
}

// TestRepair checks the suggestion a strict error carries: only a text the
// lenient reading repairs into a URL its scheme accepts has one.
func TestRepair(t *testing.T) {
	for _, tt := range []struct {
		in      string
		partial bool
		want    string // "" for no suggestion
		warns   int
	}{
		{in: "http://a/b c", want: "http://a/b%20c", warns: 1},
		{in: "http://a/<b> c", want: "http://a/%3Cb%3E%20c", warns: 3},
		{in: "http://a/b"}, // nothing to repair
		{in: "../a b"},     // not a URL even when repaired
		{in: "../a b", partial: true, want: "../a%20b", warns: 1},
		{in: "ftp://h/a b;type=x"}, // repaired, but ftp's ;type= is a, i or d (RFC 1738 3.2.2)
	} {
		u, warns, ok := Repair(tt.in, tt.partial)
		if ok != (tt.want != "") || u.String() != tt.want || len(warns) != tt.warns {
			t.Errorf("Repair(%q, %v) = %q, %d warnings, %v; want %q, %d", tt.in, tt.partial, u, len(warns), ok, tt.want, tt.warns)
		}
		u, n, ok := Repairs(tt.in, tt.partial)
		if ok != (tt.want != "") || u.String() != tt.want || n != tt.warns {
			t.Errorf("Repairs(%q, %v) = %q, %d, %v; want %q, %d", tt.in, tt.partial, u, n, ok, tt.want, tt.warns)
		}
	}
}
