package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/linkset"
)

// TestCanonIsClassify: canon decides nothing of its own. Line by line,
// what `canon --json` says (valid or not, the canonical form, the kind and
// offset of a rejection) is what linkset.Classify, the link-set pipeline's
// step, says of the same line: partial forms, unsafe characters, a
// scheme's own rules and the "URL:" prefix included, over a table and the
// first lines of each ada-url dataset when ../shared/corpora is there.
func TestCanonIsClassify(t *testing.T) {
	lines := []string{
		"HTTP://Info.CERN.CH",           // RFC 1738 3.1: case and the omitted "/"
		"ftp://ftp.funet.fi/pub/%41",    // RFC 1630: %41 is "A"
		"URL:ftp://ds.internic.net/rfc", // RFC 1738 appendix: the prefix is not the URL
		"../a%2Db", "/a/b", "//h.com/a", // RFC 1630 partial forms: no URL without a base
		"?y", "#s",
		`"http://a.b/`,       // RFC 1738 2.2: <"> is unsafe
		"http://a.b/x y",     // RFC 1738 2.2: space
		"http://u@a.b/",      // RFC 1738 3.3: no user in http
		"mailto:a,%20b",      // RFC 1738 3.5: an RFC 822 address
		"ftp://a.b/f;type=x", // RFC 1738 3.2.2: type codes
		"a_b:y",              // RFC 1738 2.1: scheme names
		"news:comp.infosystems.www",
	}
	if dir, err := filepath.Abs("../../../shared/corpora/ada-url-datasets"); err == nil {
		files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			all := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			for _, l := range all[:min(len(all), 3000)] {
				if l, ok := linkset.Line(l); ok {
					lines = append(lines, l)
				}
			}
		}
	}
	out, _, _ := runCLI(t, strings.Join(lines, "\n")+"\n", "canon", "--json")
	objs := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(objs) != len(lines) {
		t.Fatalf("canon --json: %d objects for %d lines", len(objs), len(lines))
	}
	for i, l := range lines {
		var o struct {
			Input     string `json:"input"`
			Valid     bool   `json:"valid"`
			Canonical string `json:"canonical"`
			Error     *struct {
				Kind   string `json:"kind"`
				Offset int    `json:"offset"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(objs[i]), &o); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, objs[i])
		}
		r := linkset.Classify(l, linkset.Options{})
		switch {
		case o.Input != l:
			t.Errorf("line %d: canon reports input %q for %q", i+1, o.Input, l)
		case o.Valid != (r.Status != linkset.Rejected) || o.Canonical != r.Canonical:
			t.Errorf("%q: canon valid=%v %q; Classify %v %q", l, o.Valid, o.Canonical, r.Status, r.Canonical)
		case r.Status == linkset.Rejected && (o.Error == nil || o.Error.Kind != r.Kind || o.Error.Offset != r.Offset):
			t.Errorf("%q: canon error %+v; Classify %s at %d", l, o.Error, r.Kind, r.Offset)
		}
	}
}
