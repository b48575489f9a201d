package edit

import (
	"errors"
	"github.com/urlkit/urlkit"
	"testing"
)

func TestBuildRoundTrip(t *testing.T) {
	for _, s := range []string{
		"ftp://myname@host.dom/%2Fetc/motd;type=a", // RFC 1738 3.2.2
		"ftp://@host.com/", "ftp://foo:@host.com/", // RFC 1738 3.1: empty user, empty password
		"file:///etc/motd", "file://localhost/etc/motd", // RFC 1738 3.10
		"http://info.cern.ch:8000/imaginary/test?x#y", "http://h.com", "http://h.com/?", "http://h.com/#",
		"mailto:timbl@info.cern.ch", "news:comp.infosystems.www", "x-foo://not%20a%20login", "x-foo:a?b?c#d",
		"//h.com/a", "/a/b?c", "?y", "#s", "", "a/b", "//h?q",
	} {
		u, err := urlkit.ParseRef(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		v, err := Build(u.Parts())
		if err != nil || v.String() != s {
			t.Errorf("Build(%q.Parts()) = %q, %v", s, v, err)
		}
	}
}

func TestBuild(t *testing.T) {
	u, err := Build(urlkit.Parts{Scheme: "http", Host: "info.cern.ch", Path: "hypertext/WWW/TheProject.html"})
	if err != nil || u.String() != "http://info.cern.ch/hypertext/WWW/TheProject.html" {
		t.Errorf("Build = %q, %v", u, err)
	}
	u, err = Build(urlkit.Parts{Scheme: "file", Authority: true, Path: "etc/motd"})
	if err != nil || u.String() != "file:///etc/motd" {
		t.Errorf("Build file = %q, %v", u, err)
	}
	// An absolute URL's search part after a host needs the "/" first.
	if _, err := Build(urlkit.Parts{Scheme: "ftp", Host: "h.com", HasUser: true, HasSearch: true}); !errors.Is(err, ErrConflict) {
		t.Errorf("Build ftp with search and no path: %v", err)
	}
}

func TestSet(t *testing.T) {
	base := "ftp://myname@host.dom/etc/motd?x#f"
	for _, tt := range []struct {
		c          urlkit.Component
		text, want string
	}{
		{urlkit.ComponentScheme, "http", "http://myname@host.dom/etc/motd?x#f"},
		{urlkit.ComponentScheme, "HTTP", "HTTP://myname@host.dom/etc/motd?x#f"},
		{urlkit.ComponentUser, "", "ftp://@host.dom/etc/motd?x#f"},
		{urlkit.ComponentUser, "you%40there", "ftp://you%40there@host.dom/etc/motd?x#f"},
		{urlkit.ComponentPassword, "pw", "ftp://myname:pw@host.dom/etc/motd?x#f"},
		{urlkit.ComponentPassword, "", "ftp://myname:@host.dom/etc/motd?x#f"},
		{urlkit.ComponentHost, "Other.Host.COM", "ftp://myname@Other.Host.COM/etc/motd?x#f"},
		{urlkit.ComponentHost, "10.0.0.1", "ftp://myname@10.0.0.1/etc/motd?x#f"},
		{urlkit.ComponentPort, "2121", "ftp://myname@host.dom:2121/etc/motd?x#f"},
		{urlkit.ComponentPath, "%2Fetc/motd;type=a", "ftp://myname@host.dom/%2Fetc/motd;type=a?x#f"},
		{urlkit.ComponentPath, "", "ftp://myname@host.dom/?x#f"},
		{urlkit.ComponentSearch, "a+b=c", "ftp://myname@host.dom/etc/motd?a+b=c#f"},
		{urlkit.ComponentSearch, "", "ftp://myname@host.dom/etc/motd?#f"},
		{urlkit.ComponentFragment, "sec/2?", "ftp://myname@host.dom/etc/motd?x#sec/2?"},
	} {
		u := urlkit.MustParse(base)
		v, err := Set(u, tt.c, tt.text)
		if err != nil || v.String() != tt.want {
			t.Errorf("Set(%s, %q) = %q, %v; want %q", tt.c, tt.text, v, err, tt.want)
		}
	}
	// Password on a URL without a user: an empty user appears.
	v, err := Set(urlkit.MustParse("ftp://h.com/"), urlkit.ComponentPassword, "pw")
	if err != nil || v.String() != "ftp://:pw@h.com/" {
		t.Errorf("SetPassword without user = %q, %v", v, err)
	}
	// A host on a URL without one.
	for _, tt := range []struct{ in, want string }{
		{"/a/b?c", "//h.com/a/b?c"},
		{"?c", "//h.com?c"},
		{"x-y:/p", "x-y://h.com/p"},
		{"", "//h.com"},
	} {
		v, err := Set(MustParseRef(tt.in), urlkit.ComponentHost, "h.com")
		if err != nil || v.String() != tt.want {
			t.Errorf("%q.SetHost = %q, %v; want %q", tt.in, v, err, tt.want)
		}
	}
	if _, err := Set(MustParseRef("a/b"), urlkit.ComponentHost, "h.com"); !errors.Is(err, ErrConflict) {
		t.Errorf("SetHost on a/b: %v", err)
	}
	// Opaque.
	v, err = Set(urlkit.MustParse("mailto:a@b.com#x"), urlkit.ComponentOpaque, "c@d.org?subject=hi")
	if err != nil || v.String() != "mailto:c@d.org?subject=hi#x" {
		t.Errorf("Set opaque = %q, %v", v, err)
	}
	// A scheme on a partial path.
	v, err = Set(MustParseRef("/a/b"), urlkit.ComponentScheme, "x")
	if err != nil || v.String() != "x:/a/b" {
		t.Errorf("Set scheme on /a/b = %q, %v", v, err)
	}
	if _, err := Set(MustParseRef("/a/b"), urlkit.ComponentScheme, "http"); !errors.Is(err, urlkit.ErrMissingSlashes) {
		t.Errorf("Set scheme http on /a/b: %v", err)
	}
}

func TestSetErrors(t *testing.T) {
	u := urlkit.MustParse("http://h.com/a?b#c")
	for _, tt := range []struct {
		c    urlkit.Component
		text string
		off  int
		kind error
	}{
		{urlkit.ComponentScheme, "ht tp", 2, urlkit.ErrBadScheme},
		{urlkit.ComponentScheme, "", 0, urlkit.ErrBadScheme},
		{urlkit.ComponentUser, "a:b", 1, urlkit.ErrReservedChar},      // RFC 1738 3.1
		{urlkit.ComponentPassword, "p@ss", 1, urlkit.ErrReservedChar}, // RFC 1738 3.1
		{urlkit.ComponentPassword, "%zz", 0, urlkit.ErrBadEscape},
		{urlkit.ComponentHost, "a_b.com", 1, urlkit.ErrBadHost},
		{urlkit.ComponentHost, "h.com.", 5, urlkit.ErrBadHost},
		{urlkit.ComponentHost, "[::1]", 0, urlkit.ErrBadHost},
		{urlkit.ComponentHost, "", 0, urlkit.ErrMissingHost},
		{urlkit.ComponentPort, "8o", 1, urlkit.ErrBadPort},
		{urlkit.ComponentPort, "", 0, urlkit.ErrEmptyPort},
		{urlkit.ComponentPath, "a b", 1, urlkit.ErrUnsafeChar},
		{urlkit.ComponentPath, "a?b", 1, urlkit.ErrReservedChar},
		{urlkit.ComponentPath, "a#b", 1, urlkit.ErrUnsafeChar},
		{urlkit.ComponentSearch, "x#y", 1, urlkit.ErrUnsafeChar},
		{urlkit.ComponentFragment, "a%4", 1, urlkit.ErrBadEscape},
		{urlkit.ComponentScheme, "mailto", 0, ErrConflict},
	} {
		_, err := Set(u, tt.c, tt.text)
		var se *urlkit.SyntaxError
		if !errors.As(err, &se) || se.Offset != tt.off || se.Component != tt.c || se.Input != tt.text || !errors.Is(err, tt.kind) {
			t.Errorf("Set(%s, %q) = %v; want %v at %d in %s", tt.c, tt.text, err, tt.kind, tt.off, tt.c)
		}
	}
	// Structural conflicts in partial URLs.
	if _, err := Set(MustParseRef("a/b"), urlkit.ComponentPath, "x:y"); !errors.Is(err, ErrConflict) {
		t.Errorf("partial path x:y: %v", err)
	}
	if _, err := Set(MustParseRef("a"), urlkit.ComponentPath, "//h/x"); !errors.Is(err, ErrConflict) {
		t.Errorf("partial path //h: %v", err)
	}
	var se *urlkit.SyntaxError
	if _, err := Build(urlkit.Parts{Path: "a:b"}); !errors.As(err, &se) || se.Component != urlkit.ComponentPath || se.Input != "a:b" || !errors.Is(err, ErrConflict) {
		t.Errorf("Build partial path a:b: %v", err)
	}
	if _, err := Build(urlkit.Parts{Path: "//h/x"}); !errors.As(err, &se) || se.Component != urlkit.ComponentPath || !errors.Is(err, ErrConflict) {
		t.Errorf("Build partial path //h/x: %v", err)
	}
	if _, err := Set(urlkit.MustParse("mailto:a@b.com"), urlkit.ComponentHost, "h.com"); !errors.Is(err, ErrConflict) {
		t.Errorf("mailto host: %v", err)
	}
	if _, err := Set(urlkit.MustParse("news:a.b"), urlkit.ComponentOpaque, "a b"); !errors.Is(err, urlkit.ErrUnsafeChar) {
		t.Errorf("opaque with space: %v", err)
	}
}

func MustParseRef(s string) urlkit.URL {
	u, err := urlkit.ParseRef(s)
	if err != nil {
		panic(err)
	}
	return u
}

func TestClear(t *testing.T) {
	for _, tt := range []struct {
		in   string
		c    urlkit.Component
		want string
	}{
		{"ftp://u:p@h.com:21/a?b#c", urlkit.ComponentUser, "ftp://h.com:21/a?b#c"},
		{"ftp://u:p@h.com:21/a?b#c", urlkit.ComponentPassword, "ftp://u@h.com:21/a?b#c"},
		{"ftp://u:p@h.com:21/a?b#c", urlkit.ComponentPort, "ftp://u:p@h.com/a?b#c"},
		{"ftp://u:p@h.com:21/a#c", urlkit.ComponentPath, "ftp://u:p@h.com:21#c"},
		{"//h.com/a?b", urlkit.ComponentPath, "//h.com?b"},
		{"ftp://u:p@h.com:21/a?b#c", urlkit.ComponentSearch, "ftp://u:p@h.com:21/a#c"},
		{"ftp://u:p@h.com:21/a?b#c", urlkit.ComponentFragment, "ftp://u:p@h.com:21/a?b"},
		{"ftp://u:p@h.com:21/a?b#c", urlkit.ComponentScheme, "//u:p@h.com:21/a?b#c"},
		{"//h.com/a", urlkit.ComponentHost, "/a"},
		{"x-foo://h.com/a", urlkit.ComponentHost, "x-foo:/a"},
		{"mailto:a@b", urlkit.ComponentPath, "mailto:"},
	} {
		v, err := Clear(MustParseRef(tt.in), tt.c)
		if err != nil || v.String() != tt.want {
			t.Errorf("Clear(%q, %s) = %q, %v; want %q", tt.in, tt.c, v, err, tt.want)
		}
	}
	if _, err := Clear(urlkit.MustParse("http://h.com/a?b"), urlkit.ComponentPath); !errors.Is(err, ErrConflict) {
		t.Errorf("http Clear(path) with a search: %v", err)
	}
	if _, err := Clear(urlkit.MustParse("http://h.com/a"), urlkit.ComponentHost); !errors.Is(err, urlkit.ErrMissingSlashes) {
		t.Errorf("http Clear(host): %v", err)
	}
}

func TestSetUnescaped(t *testing.T) {
	u := urlkit.MustParse("ftp://h.com/")
	for _, tt := range []struct {
		c          urlkit.Component
		text, want string
	}{
		{urlkit.ComponentUser, "me@home", "ftp://me%40home@h.com/"},
		{urlkit.ComponentPassword, "p:w/d", "ftp://:p%3Aw%2Fd@h.com/"},
		{urlkit.ComponentPath, "my docs/a;type=i", "ftp://h.com/my%20docs/a;type=i"},
		{urlkit.ComponentSearch, "a b", "ftp://h.com/?a%20b"},
		{urlkit.ComponentFragment, "#1", "ftp://h.com/#%231"},
		{urlkit.ComponentHost, "x.org", "ftp://x.org/"},
	} {
		v, err := SetUnescaped(u, tt.c, tt.text)
		if err != nil || v.String() != tt.want {
			t.Errorf("SetUnescaped(%s, %q) = %q, %v; want %q", tt.c, tt.text, v, err, tt.want)
		}
	}
}

func TestJoinPath(t *testing.T) {
	for _, tt := range []struct {
		in   string
		segs []string
		want string
	}{
		{"http://h.com", []string{"a", "b"}, "http://h.com/a/b"},
		{"http://h.com/", []string{"a"}, "http://h.com/a"},
		{"http://h.com/x", []string{"a b", "c/d"}, "http://h.com/x/a%20b/c%2Fd"},
		{"http://h.com/x/", []string{"..", "."}, "http://h.com/x/%2E%2E/%2E"},
		{"http://h.com/x?q#f", []string{"y"}, "http://h.com/x/y?q#f"},
		{"ftp://h.com/d", []string{""}, "ftp://h.com/d/"},
		{"a", []string{"b;c"}, "a/b%3Bc"},
		{"http://h.com/x", nil, "http://h.com/x"},
	} {
		v, err := JoinPath(MustParseRef(tt.in), tt.segs...)
		if err != nil || v.String() != tt.want {
			t.Errorf("JoinPath(%q, %q) = %q, %v; want %q", tt.in, tt.segs, v, err, tt.want)
		}
	}
}

func TestEditKeepsOthers(t *testing.T) {
	// Escapes in other components keep their case and form.
	u := urlkit.MustParse("http://h.com/a%2fb?x=%7e#%41")
	v, err := Set(u, urlkit.ComponentHost, "k.org")
	if err != nil || v.String() != "http://k.org/a%2fb?x=%7e#%41" {
		t.Errorf("SetHost = %q, %v", v, err)
	}
	// The "URL:" prefix is not part of the URL.
	w, err := Set(urlkit.MustParse("URL:http://h.com/"), urlkit.ComponentPath, "x")
	if err != nil || w.String() != "http://h.com/x" || w.Prefixed() {
		t.Errorf("prefixed edit = %q, %v", w, err)
	}
}
