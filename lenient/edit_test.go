package lenient

import (
	"errors"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/edit"
)

// TestSetHost: Set reads a host value as Parse reads a URL's host (one
// rule: Host is ParseRef of "//" + value + "/"), and edit.Set's error for
// a value RFC 1738 3.1 refuses but this package takes names Set.
func TestSetHost(t *testing.T) {
	u := urlkit.MustParse("http://a.example/x?q")
	for _, tt := range []struct {
		value, want string // want "" for an error
		src         string
	}{
		{"bücher.de", "http://xn--bcher-kva.de/x?q", "IdnaTestV2: bücher.de is xn--bcher-kva.de"},
		{"B%C3%BCcher.de", "http://xn--bcher-kva.de/x?q", "a host written with escapes is decoded first (package comment)"},
		{"faß.de", "http://xn--fa-hia.de/x?q", "IdnaTestV2: nontransitional processing keeps ß"},
		{"[::1]", "http://[::1]/x?q", "RFC 3986 3.2.2: IPv6 literal (extended syntax)"},
		{"0x7f.1", "http://127.0.0.1/x?q", "a browser's host number, written as RFC 1738 3.1's"},
		{"c.example", "http://c.example/x?q", "RFC 1738 3.1: a host name as it is"},
		{"xn--ab-j1t", "", "IdnaTestV2 C1: an A-label UTS #46 refuses"},
		{"a.example:81", "", "a port is not part of the host (RFC 1738 3.1)"},
		{"u@a.example", "", "a user is not part of the host"},
		{"a.example/p", "", "a path is not part of the host"},
		{"a_b.example", "", "RFC 1738 3.1: no \"_\" in a host name, even after IDNA"},
		{"", "", "an http URL needs a host (RFC 1738 3.3)"},
	} {
		v, warns, err := Set(u, urlkit.ComponentHost, tt.value)
		if tt.want == "" {
			if err == nil {
				t.Errorf("%s: Set(host, %q) = %q, want an error", tt.src, tt.value, v)
			}
			continue
		}
		if err != nil || v.String() != tt.want {
			t.Errorf("%s: Set(host, %q) = %q, %v; want %q", tt.src, tt.value, v, err, tt.want)
			continue
		}
		// The same host as the lenient reading of a whole URL gives.
		w, _, err := Parse("http://" + tt.value + "/x?q")
		if err != nil || w.Host() != v.Host() {
			t.Errorf("%s: Parse gives host %q (%v), Set %q", tt.src, w.Host(), err, v.Host())
		}
		if v.Host() != tt.value && len(warns) == 0 {
			t.Errorf("%s: Set(host, %q) repaired it without a warning", tt.src, tt.value)
		}
		// edit.Set refuses what needed the lenient reading, and names Set.
		if v.Host() != tt.value {
			_, err := edit.Set(u, urlkit.ComponentHost, tt.value)
			var se *urlkit.SyntaxError
			if err == nil || !errors.As(err, &se) {
				t.Errorf("%s: edit.Set(host, %q): %v", tt.src, tt.value, err)
			} else if !strings.Contains(err.Error(), "lenient.Set(u, urlkit.ComponentHost, text)") && (strings.HasPrefix(tt.value, "[") || strings.ContainsAny(tt.value, "%") || !isASCII(tt.value)) {
				t.Errorf("%s: edit.Set(host, %q): %v: does not name lenient.Set", tt.src, tt.value, err)
			}
		}
	}
	// Other components are edit.Set's.
	if v, _, err := Set(u, urlkit.ComponentPath, "y"); err != nil || v.String() != "http://a.example/y?q" {
		t.Errorf("Set(path, y) = %q, %v", v, err)
	}
}
