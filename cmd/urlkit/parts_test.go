package main

import "testing"

// TestMatchGlob: "*" any run (a "/" included), "?" one byte, "\" quotes.
func TestMatchGlob(t *testing.T) {
	for _, tt := range []struct {
		pattern, s string
		want       bool
	}{
		{"utm_*", "utm_source", true}, {"utm_*", "utm_", true}, {"utm_*", "xutm_a", false},
		{"*", "", true}, {"*", "a/b", true}, {"a*b*c", "axxbyyc", true}, {"a*b*c", "axxbyy", false},
		{"p?", "p1", true}, {"p?", "p", false}, {"p?", "p12", false},
		{`\*`, "*", true}, {`\*`, "x", false}, {`a\?`, "a?", true}, {`a\?`, "ab", false},
		{"id", "id", true}, {"id", "ids", false}, {"", "", true}, {"", "a", false},
	} {
		if got := matchGlob(tt.pattern, tt.s); got != tt.want {
			t.Errorf("matchGlob(%q, %q) = %v", tt.pattern, tt.s, got)
		}
	}
}

// TestPartNames: one set of names for escape, edit and --format.
func TestPartNames(t *testing.T) {
	for _, n := range []string{"scheme", "user", "password", "host", "port", "path", "search", "query", "fragment", "opaque"} {
		if _, ok := partByName(n); !ok {
			t.Errorf("part %q unknown", n)
		}
		if _, ok := escapeSet(n); !ok {
			t.Errorf("escape --set %s unknown", n)
		}
		if _, err := parseTemplate("{" + n + "}"); err != nil {
			t.Errorf("--format {%s}: %v", n, err)
		}
		if n != "opaque" {
			if err := checkEditArg("delete", n); err != nil {
				t.Errorf("--delete %s: %v", n, err)
			}
		}
		if err := checkEditArg("set", n+"=x"); err != nil {
			t.Errorf("--set %s=x: %v", n, err)
		}
	}
}
