package edit

import (
	"errors"
	"path"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// TestBuildLeadingSlash: net/url's habit of a "/" at the start of the path
// is read as the "/" after the host, never as a second one (issue 24);
// with HasPath set, as URL.Parts sets it, the path is taken as it is.
func TestBuildLeadingSlash(t *testing.T) {
	for _, tt := range []struct {
		p    urlkit.Parts
		want string
	}{
		{urlkit.Parts{Scheme: "http", Host: "h.example", Path: "/a/b"}, "http://h.example/a/b"},
		{urlkit.Parts{Scheme: "http", Host: "h.example", Path: "/"}, "http://h.example/"},
		{urlkit.Parts{Scheme: "http", Host: "h.example", Path: "a/b"}, "http://h.example/a/b"},
		{urlkit.Parts{Scheme: "file", Authority: true, Path: "/etc/motd"}, "file:///etc/motd"},
		{urlkit.Parts{Scheme: "ftp", Host: "h", Path: "//x"}, "ftp://h//x"},
		{urlkit.Parts{Scheme: "http", Host: "h", Path: "/a", HasPath: true}, "http://h//a"},
		{urlkit.Parts{Path: "/a/b"}, "/a/b"},                          // a partial path: no host, no "/" to read
		{urlkit.Parts{Scheme: "x-y", Path: "/a"}, "x-y:/a"},           // no "//"
		{urlkit.Parts{Host: "h", Path: "/a", Search: "q"}, "//h/a?q"}, // a partial URL with a login
	} {
		u, err := Build(tt.p)
		if err != nil || u.String() != tt.want {
			t.Errorf("Build(%+v) = %q, %v; want %q", tt.p, u, err, tt.want)
		}
	}
	// Build(u.Parts()) still gives u back, an empty first segment included.
	for _, s := range []string{"http://h//a", "http://h/a", "ftp://h//", "file:////x"} {
		u := urlkit.MustParse(s)
		if v, err := Build(u.Parts()); err != nil || v != u {
			t.Errorf("Build(Parts(%q)) = %q, %v", s, v, err)
		}
	}
	// The path setter refuses it, with ErrConflict, and says what to write.
	u := urlkit.MustParse("http://h.example/x")
	_, err := Set(u, urlkit.ComponentPath, "/a/b")
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), `write "a/b"`) {
		t.Errorf("Set(path, /a/b) = %v, want ErrConflict", err)
	}
	if v, err := Set(u, urlkit.ComponentPath, "a/b"); err != nil || v.String() != "http://h.example/a/b" {
		t.Errorf("Set(path, a/b) = %q, %v", v, err)
	}
	// A partial URL without "//" takes a leading "/" as its path.
	ref, _ := urlkit.ParseRef("a")
	if v, err := Set(ref, urlkit.ComponentPath, "/b"); err != nil || v.String() != "/b" {
		t.Errorf("Set(path) on a partial URL = %q, %v", v, err)
	}
}

// TestSearchValue: one call to get, set and delete by key, the other
// pairs kept byte for byte.
func TestSearchValue(t *testing.T) {
	u := urlkit.MustParse("http://h/?a=1&b=x%20y&a=2&c")
	if v, ok := SearchValue(u, "a"); !ok || v != "1" {
		t.Errorf("SearchValue(a) = %q, %v", v, ok)
	}
	if vs := SearchValues(u, "a"); strings.Join(vs, ",") != "1,2" {
		t.Errorf("SearchValues(a) = %q", vs)
	}
	for _, tt := range []struct{ key, value, want string }{
		{"a", "z w", "http://h/?a=z+w&b=x%20y&c"},          // the first in place, the others gone
		{"b", "", "http://h/?a=1&b=&a=2&c"},                // an empty value keeps its "="
		{"d", "ü", "http://h/?a=1&b=x%20y&a=2&c&d=%C3%BC"}, // added at the end
		{"c", "1", "http://h/?a=1&b=x%20y&a=2&c=1"},
	} {
		v, err := SetSearchValue(u, tt.key, tt.value)
		if err != nil || v.String() != tt.want {
			t.Errorf("SetSearchValue(%q, %q) = %q, %v; want %q", tt.key, tt.value, v, err, tt.want)
		}
	}
	if v, err := SetSearchValue(urlkit.MustParse("http://h/p"), "q", "1"); err != nil || v.String() != "http://h/p?q=1" {
		t.Errorf("SetSearchValue without a search part = %q, %v", v, err)
	}
	v, err := FilterSearch(u, func(p SearchPair) bool { m, _ := path.Match("[ab]", p.Key); return !m })
	if err != nil || v.String() != "http://h/?c" {
		t.Errorf("FilterSearch = %q, %v", v, err)
	}
	if v, err := FilterSearch(u, func(SearchPair) bool { return false }); err != nil || v.String() != "http://h/" {
		t.Errorf("FilterSearch of every pair = %q, %v", v, err)
	}
	if v, _ := FilterSearch(u, func(SearchPair) bool { return true }); v != u {
		t.Errorf("FilterSearch of no pair changed %q to %q", u, v)
	}
}

// TestEditor: a chain applies its edits in order and stops at the first
// error, which names the step.
func TestEditor(t *testing.T) {
	base := urlkit.MustParse("ftp://myname@host.dom/pub")
	e := From(base).SetHost("ftp.example.org").JoinPath("my docs", "notes.txt")
	u, err := e.URL()
	if err != nil || u.String() != "ftp://myname@ftp.example.org/pub/my%20docs/notes.txt" {
		t.Fatalf("chain = %q, %v", u, err)
	}
	// An Editor is a value: two edits from the same one are independent.
	a, _ := e.SetPort("2121").URL()
	b, _ := e.Clear(urlkit.ComponentUser).URL()
	if a.String() != "ftp://myname@ftp.example.org:2121/pub/my%20docs/notes.txt" || b.String() != "ftp://ftp.example.org/pub/my%20docs/notes.txt" {
		t.Errorf("branches %q and %q", a, b)
	}
	_, err = From(base).SetHost("a_b").JoinPath("x").URL()
	var se *urlkit.SyntaxError
	if !errors.As(err, &se) || !errors.Is(err, urlkit.ErrBadHost) || !strings.HasPrefix(err.Error(), "edit 1 (Set host): ") {
		t.Errorf("failing chain: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("Must did not panic")
		}
	}()
	From(base).SetPort("x").Must()
}
