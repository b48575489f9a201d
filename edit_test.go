package urlkit

import (
	"errors"
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
		u, err := ParseRef(s)
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
	u, err := Build(Parts{Scheme: "http", Host: "info.cern.ch", Path: "hypertext/WWW/TheProject.html"})
	if err != nil || u.String() != "http://info.cern.ch/hypertext/WWW/TheProject.html" {
		t.Errorf("Build = %q, %v", u, err)
	}
	u, err = Build(Parts{Scheme: "file", Authority: true, Path: "etc/motd"})
	if err != nil || u.String() != "file:///etc/motd" {
		t.Errorf("Build file = %q, %v", u, err)
	}
	// An absolute URL's search part after a host needs the "/" first.
	if _, err := Build(Parts{Scheme: "ftp", Host: "h.com", HasUser: true, HasSearch: true}); !errors.Is(err, ErrConflict) {
		t.Errorf("Build ftp with search and no path: %v", err)
	}
}

func TestSet(t *testing.T) {
	base := "ftp://myname@host.dom/etc/motd?x#f"
	for _, tt := range []struct {
		c          Component
		text, want string
	}{
		{ComponentScheme, "http", "http://myname@host.dom/etc/motd?x#f"},
		{ComponentScheme, "HTTP", "HTTP://myname@host.dom/etc/motd?x#f"},
		{ComponentUser, "", "ftp://@host.dom/etc/motd?x#f"},
		{ComponentUser, "you%40there", "ftp://you%40there@host.dom/etc/motd?x#f"},
		{ComponentPassword, "pw", "ftp://myname:pw@host.dom/etc/motd?x#f"},
		{ComponentPassword, "", "ftp://myname:@host.dom/etc/motd?x#f"},
		{ComponentHost, "Other.Host.COM", "ftp://myname@Other.Host.COM/etc/motd?x#f"},
		{ComponentHost, "10.0.0.1", "ftp://myname@10.0.0.1/etc/motd?x#f"},
		{ComponentPort, "2121", "ftp://myname@host.dom:2121/etc/motd?x#f"},
		{ComponentPath, "%2Fetc/motd;type=a", "ftp://myname@host.dom/%2Fetc/motd;type=a?x#f"},
		{ComponentPath, "", "ftp://myname@host.dom/?x#f"},
		{ComponentSearch, "a+b=c", "ftp://myname@host.dom/etc/motd?a+b=c#f"},
		{ComponentSearch, "", "ftp://myname@host.dom/etc/motd?#f"},
		{ComponentFragment, "sec/2?", "ftp://myname@host.dom/etc/motd?x#sec/2?"},
	} {
		u := MustParse(base)
		v, err := u.Set(tt.c, tt.text)
		if err != nil || v.String() != tt.want {
			t.Errorf("Set(%s, %q) = %q, %v; want %q", tt.c, tt.text, v, err, tt.want)
		}
	}
	// Password on a URL without a user: an empty user appears.
	v, err := MustParse("ftp://h.com/").SetPassword("pw")
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
		v, err := MustParseRef(tt.in).SetHost("h.com")
		if err != nil || v.String() != tt.want {
			t.Errorf("%q.SetHost = %q, %v; want %q", tt.in, v, err, tt.want)
		}
	}
	if _, err := MustParseRef("a/b").SetHost("h.com"); !errors.Is(err, ErrConflict) {
		t.Errorf("SetHost on a/b: %v", err)
	}
	// Opaque.
	v, err = MustParse("mailto:a@b.com#x").Set(ComponentOpaque, "c@d.org?subject=hi")
	if err != nil || v.String() != "mailto:c@d.org?subject=hi#x" {
		t.Errorf("Set opaque = %q, %v", v, err)
	}
	// A scheme on a partial path.
	v, err = MustParseRef("/a/b").Set(ComponentScheme, "x")
	if err != nil || v.String() != "x:/a/b" {
		t.Errorf("Set scheme on /a/b = %q, %v", v, err)
	}
	if _, err := MustParseRef("/a/b").Set(ComponentScheme, "http"); !errors.Is(err, ErrMissingSlashes) {
		t.Errorf("Set scheme http on /a/b: %v", err)
	}
}

func TestSetErrors(t *testing.T) {
	u := MustParse("http://h.com/a?b#c")
	for _, tt := range []struct {
		c    Component
		text string
		off  int
		kind error
	}{
		{ComponentScheme, "ht tp", 2, ErrBadScheme},
		{ComponentScheme, "", 0, ErrBadScheme},
		{ComponentUser, "a:b", 1, ErrReservedChar},      // RFC 1738 3.1
		{ComponentPassword, "p@ss", 1, ErrReservedChar}, // RFC 1738 3.1
		{ComponentPassword, "%zz", 0, ErrBadEscape},
		{ComponentHost, "a_b.com", 1, ErrBadHost},
		{ComponentHost, "h.com.", 5, ErrBadHost},
		{ComponentHost, "[::1]", 0, ErrBadHost},
		{ComponentHost, "", 0, ErrMissingHost},
		{ComponentPort, "8o", 1, ErrBadPort},
		{ComponentPort, "", 0, ErrEmptyPort},
		{ComponentPath, "a b", 1, ErrUnsafeChar},
		{ComponentPath, "a?b", 1, ErrReservedChar},
		{ComponentPath, "a#b", 1, ErrUnsafeChar},
		{ComponentSearch, "x#y", 1, ErrUnsafeChar},
		{ComponentFragment, "a%4", 1, ErrBadEscape},
		{ComponentScheme, "mailto", 0, ErrConflict},
	} {
		_, err := u.Set(tt.c, tt.text)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset != tt.off || se.Component != tt.c || se.Input != tt.text || !errors.Is(err, tt.kind) {
			t.Errorf("Set(%s, %q) = %v; want %v at %d in %s", tt.c, tt.text, err, tt.kind, tt.off, tt.c)
		}
	}
	// Structural conflicts in partial URLs.
	if _, err := MustParseRef("a/b").SetPath("x:y"); !errors.Is(err, ErrConflict) {
		t.Errorf("partial path x:y: %v", err)
	}
	if _, err := MustParseRef("a").SetPath("//h/x"); !errors.Is(err, ErrConflict) {
		t.Errorf("partial path //h: %v", err)
	}
	var se *SyntaxError
	if _, err := Build(Parts{Path: "a:b"}); !errors.As(err, &se) || se.Component != ComponentPath || se.Input != "a:b" || !errors.Is(err, ErrConflict) {
		t.Errorf("Build partial path a:b: %v", err)
	}
	if _, err := Build(Parts{Path: "//h/x"}); !errors.As(err, &se) || se.Component != ComponentPath || !errors.Is(err, ErrConflict) {
		t.Errorf("Build partial path //h/x: %v", err)
	}
	if _, err := MustParse("mailto:a@b.com").SetHost("h.com"); !errors.Is(err, ErrConflict) {
		t.Errorf("mailto host: %v", err)
	}
	if _, err := MustParse("news:a.b").Set(ComponentOpaque, "a b"); !errors.Is(err, ErrUnsafeChar) {
		t.Errorf("opaque with space: %v", err)
	}
}

func MustParseRef(s string) URL {
	u, err := ParseRef(s)
	if err != nil {
		panic(err)
	}
	return u
}

func TestClear(t *testing.T) {
	for _, tt := range []struct {
		in   string
		c    Component
		want string
	}{
		{"ftp://u:p@h.com:21/a?b#c", ComponentUser, "ftp://h.com:21/a?b#c"},
		{"ftp://u:p@h.com:21/a?b#c", ComponentPassword, "ftp://u@h.com:21/a?b#c"},
		{"ftp://u:p@h.com:21/a?b#c", ComponentPort, "ftp://u:p@h.com/a?b#c"},
		{"ftp://u:p@h.com:21/a#c", ComponentPath, "ftp://u:p@h.com:21#c"},
		{"//h.com/a?b", ComponentPath, "//h.com?b"},
		{"ftp://u:p@h.com:21/a?b#c", ComponentSearch, "ftp://u:p@h.com:21/a#c"},
		{"ftp://u:p@h.com:21/a?b#c", ComponentFragment, "ftp://u:p@h.com:21/a?b"},
		{"ftp://u:p@h.com:21/a?b#c", ComponentScheme, "//u:p@h.com:21/a?b#c"},
		{"//h.com/a", ComponentHost, "/a"},
		{"x-foo://h.com/a", ComponentHost, "x-foo:/a"},
		{"mailto:a@b", ComponentPath, "mailto:"},
	} {
		v, err := MustParseRef(tt.in).Clear(tt.c)
		if err != nil || v.String() != tt.want {
			t.Errorf("%q.Clear(%s) = %q, %v; want %q", tt.in, tt.c, v, err, tt.want)
		}
	}
	if _, err := MustParse("http://h.com/a?b").Clear(ComponentPath); !errors.Is(err, ErrConflict) {
		t.Errorf("http Clear(path) with a search: %v", err)
	}
	if _, err := MustParse("http://h.com/a").Clear(ComponentHost); !errors.Is(err, ErrMissingSlashes) {
		t.Errorf("http Clear(host): %v", err)
	}
}

func TestSetUnescaped(t *testing.T) {
	u := MustParse("ftp://h.com/")
	for _, tt := range []struct {
		c          Component
		text, want string
	}{
		{ComponentUser, "me@home", "ftp://me%40home@h.com/"},
		{ComponentPassword, "p:w/d", "ftp://:p%3Aw%2Fd@h.com/"},
		{ComponentPath, "my docs/a;type=i", "ftp://h.com/my%20docs/a;type=i"},
		{ComponentSearch, "a b", "ftp://h.com/?a%20b"},
		{ComponentFragment, "#1", "ftp://h.com/#%231"},
		{ComponentHost, "x.org", "ftp://x.org/"},
	} {
		v, err := u.SetUnescaped(tt.c, tt.text)
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
		v, err := MustParseRef(tt.in).JoinPath(tt.segs...)
		if err != nil || v.String() != tt.want {
			t.Errorf("%q.JoinPath(%q) = %q, %v; want %q", tt.in, tt.segs, v, err, tt.want)
		}
	}
}

func TestPortHostname(t *testing.T) {
	for _, tt := range []struct {
		in    string
		port  int
		given bool
		name  string
	}{
		{"http://Info.CERN.ch/", 80, false, "info.cern.ch"}, // RFC 1738 3.3
		{"gopher://h.com:7070/", 7070, true, "h.com"},
		{"gopher://h.com/", 70, false, "h.com"}, // RFC 1738 3.4
		{"ftp://h.com:0021/", 21, true, "h.com"},
		{"file:///etc", 0, false, ""},
		{"mailto:a@b.com", 0, false, ""},
		{"//h.com/", 0, false, "h.com"},
		{"http://h.com:99999999999/", -1, true, "h.com"},
	} {
		u := MustParseRef(tt.in)
		p, given := u.Port()
		if p != tt.port || given != tt.given || u.Hostname() != tt.name {
			t.Errorf("%q: Port() = %d, %v; Hostname() = %q", tt.in, p, given, u.Hostname())
		}
	}
}

func TestEditKeepsOthers(t *testing.T) {
	// Escapes in other components keep their case and form.
	u := MustParse("http://h.com/a%2fb?x=%7e#%41")
	v, err := u.SetHost("k.org")
	if err != nil || v.String() != "http://k.org/a%2fb?x=%7e#%41" {
		t.Errorf("SetHost = %q, %v", v, err)
	}
	// The "URL:" prefix is not part of the URL.
	w, err := MustParse("URL:http://h.com/").SetPath("x")
	if err != nil || w.String() != "http://h.com/x" || w.Prefixed() {
		t.Errorf("prefixed edit = %q, %v", w, err)
	}
}
