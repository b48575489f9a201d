package scheme

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/corpus"
)

// agree fails t unless Validate(u) returns exactly the error ViewOf(u)
// returns (nil for both, or equal *urlkit.SyntaxError values and messages).
// It reports whether u was valid.
func agree(t *testing.T, s string, u urlkit.URL) bool {
	t.Helper()
	_, want := ViewOf(u)
	got := Validate(u)
	if (got == nil) != (want == nil) || got != nil && (got.Error() != want.Error() || !reflect.DeepEqual(got, want)) {
		t.Fatalf("%q: Validate = %v, ViewOf = %v", s, got, want)
	}
	return want == nil
}

// validateCases reach each scheme's errors: every rule the built-in
// grammars check, the first reserved byte of a later segment, a ";type="
// that is not the last segment's, and the reserved and unknown names.
var validateCases = []string{
	"file:///a/b", "file://localhost/etc/motd", "file://h.dom/x", "file://h.dom", "file://u@h.dom/x",
	"file://h.dom:21/x", "file:///a;b", "file:///a/b/c;d/e;f", "file:///a/%3B", "URL:file:///a;b",
	"ftp://h.dom", "ftp://u:p@h.dom/a/b;type=d", "ftp://h.dom/a;b/c", "ftp://h.dom/a/b;type=x",
	"ftp://h.dom/a/b;type=an", "ftp://h.dom/a;type=i/b", "ftp://h.dom/a/b;type=A", "ftp://h.dom/a?b",
	"ftp://h.dom/a/b;c;type=i", "ftp://h.dom/;type=", "URL:ftp://h.dom/a;b",
	"http://h.dom/a?b", "http://u@h.dom/", "http://u:p@h.dom/", "https://h.dom/?a/b", "http://h.dom/?a?b",
	"https://h.dom:443/a;b?c;d", "URL:http://h.dom/?a/b",
	"gopher://h.dom/0sel%09q", "gopher://u@h.dom/", "gopher://h.dom",
	"mailto:a@b.dom", "mailto:", "mailto:a", "mid:x@y", "cid:a", "news:*", "news:a@b.dom", "news:a/b",
	"nntp://h.dom/g/1", "nntp://h.dom/g/x", "nntp://h.dom", "telnet://u:p@h.dom/", "telnet://h.dom/x",
	"wais://h.dom/db/t/0=a;", "wais://h.dom/db/t/0%3Da%3B", "prospero://h.dom/a%00b", "wais://h.dom/db?x+y", "prospero://h.dom/a;b=c", "prospero://h.dom/a%00",
	"urn:x", "afs://h.dom/x", "x-y:z", "unknown://u@h/?/",
}

// TestValidateAgrees checks Validate against ViewOf on the cases above
// and on every line and field of the corpora (ada-url's URL lists, the
// scheme test suites of curl, Perl URI and others, the RFC texts'
// words), read strictly and leniently.
func TestValidateAgrees(t *testing.T) {
	for _, s := range validateCases {
		u, err := urlkit.Parse(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		agree(t, s, u)
	}
	dir := corpus.Require(t)
	var valid, invalid int
	check := func(s string) {
		for _, parse := range []func(string) (urlkit.URL, error){urlkit.Parse, urlkit.ParseExtended} {
			if u, err := parse(s); err == nil && u.IsAbsolute() {
				if agree(t, s, u) {
					valid++
				} else {
					invalid++
				}
			}
		}
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(line)
			check(line)
			if strings.ContainsAny(line, " \t\"") {
				for _, f := range strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' || r == '"' }) {
					check(strings.Trim(f, ",<>()[]{}"))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d valid and %d invalid URLs agree", valid, invalid)
	if valid < 10000 || invalid < 100 {
		t.Fatalf("only %d valid and %d invalid URLs compared: the corpora were not read", valid, invalid)
	}
}

// FuzzValidate compares Validate with ViewOf on any input.
func FuzzValidate(f *testing.F) {
	for _, s := range append(fuzzSeeds, validateCases...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if u, err := urlkit.Parse(s); err == nil {
			agree(t, s, u)
		}
		if u, err := urlkit.ParseExtended(s); err == nil {
			agree(t, s, u)
		}
	})
}

// TestValidateAllocs: a valid URL of the schemes with a check of their
// own is validated without allocating.
func TestValidateAllocs(t *testing.T) {
	for _, s := range []string{
		"file:///usr/local/lib/a%20b.txt", "file://localhost/etc/motd", "https://h.dom:8443/a/b?c=d&e=f",
		"http://h.dom/", "ftp://u:p@h.dom/a/b/c/d/e/f;type=i", "gopher://h.dom/0sel%09q", "urn:x", "x-y:z",
	} {
		u := urlkit.MustParse(s)
		if n := testing.AllocsPerRun(50, func() { Validate(u) }); n != 0 {
			t.Errorf("Validate(%s): %v allocations, want 0", s, n)
		}
	}
}
