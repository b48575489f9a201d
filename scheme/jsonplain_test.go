package scheme

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/jsonw"
	"github.com/urlkit/urlkit/internal/testkit/corpus"
)

// AppendViewJSONPlain writes what AppendViewJSON writes for every view of
// a URL that meets its condition (no JSON escaping needed, no "%"): the
// ada-url datasets' lines (file, http and https URLs mostly) and one URL
// of each other scheme. Where the condition does not hold it may not be
// used: a decoded '"' would go out unescaped, as the last case shows.
func TestAppendViewJSONPlain(t *testing.T) {
	in := []string{
		"http://u:p@h.example:8080/a/b?c=d", "https://h.example/", "file:///etc/motd",
		"file://localhost/a/b/", "ftp://u:p@h.example/a/b;type=d", "gopher://h.example/0/x",
		"mailto:a@b.example", "news:comp.infosystems.www", "nntp://h.example/g/1",
		"telnet://u@h.example/", "wais://h.example/db?words", "prospero://h.example/a/b",
		"x-thing:opaque",
	}
	in = append(in, adaLines(t)...)
	checked := 0
	// The extended syntax too: an http URL with a login (RFC 3986 3.2.1),
	// an IPv6 host.
	ext := []string{"http://u:p@h.example/a?b", "http://u@h.example:81/", "https://[::1]:8443/x?y", "file://h/a;b/"}
	for i, s := range append(in, ext...) {
		parse := urlkit.Parse
		if i >= len(in) {
			parse = urlkit.ParseExtended
		}
		u, err := parse(s)
		if err != nil || !jsonw.Plain(s) || strings.Contains(s, "%") {
			continue
		}
		v, err := ViewOf(u)
		if err != nil {
			continue
		}
		want, ok1 := AppendViewJSON(nil, v)
		got, ok2 := AppendViewJSONPlain(nil, v)
		if ok1 != ok2 || !bytes.Equal(got, want) {
			t.Fatalf("%q: AppendViewJSONPlain gives %s (%v), AppendViewJSON %s (%v)", s, got, ok2, want, ok1)
		}
		checked++
	}
	if checked < 1000 {
		t.Fatalf("only %d URLs met the condition", checked)
	}
	u := urlkit.MustParse(`file:///a%22b`)
	v, _ := ViewOf(u)
	want, _ := AppendViewJSON(nil, v)
	got, _ := AppendViewJSONPlain(nil, v)
	if bytes.Equal(got, want) {
		t.Errorf("file:///a%%22b: both write %s; the condition is not what keeps the output right", got)
	}
}

// ViewInto gives ViewOf's view and error for every URL, with one buffer
// reused from URL to URL (so a field left from the previous view would
// show): the ada-url datasets' lines, each scheme's URL above, and
// invalid file and http URLs.
func TestViewIntoAgrees(t *testing.T) {
	in := []string{
		"http://u:p@h.example:8080/a/b?c=d", "https://h.example/", "file:///etc/motd",
		"file://localhost/a/b/", "file:///a%20b/c%2Fd/e/f/g/h/i/j/k/l", "file://h:21/x",
		"http://u@h.example/", "HTTP://H.example/a?b", "ftp://u:p@h.example/a/b;type=d",
		"gopher://h.example/0/x", "mailto:a@b.example", "news:comp.infosystems.www",
		"x-thing:opaque", "file:/x", "http:x",
	}
	in = append(in, adaLines(t)...)
	var buf ViewBuf
	for _, s := range in {
		u, err := urlkit.Parse(s)
		if err != nil {
			continue
		}
		want, werr := ViewOf(u)
		got, gerr := ViewInto(&buf, u)
		var wj, gj []byte
		if werr == nil {
			wj, _ = AppendViewJSON(nil, want)
		}
		if gerr == nil {
			gj, _ = AppendViewJSON(nil, got)
		}
		if fmt.Sprint(werr) != fmt.Sprint(gerr) || !bytes.Equal(wj, gj) {
			t.Fatalf("%q: ViewInto gives %s, %v; ViewOf %s, %v", s, gj, gerr, wj, werr)
		}
		if gerr == nil && got.URL().String() != s {
			t.Fatalf("%q: ViewInto's view is of %q", s, got.URL())
		}
	}
}

// adaLines returns the lines of the four ada-url datasets (../shared/corpora).
func adaLines(t *testing.T) []string {
	var in []string
	for _, f := range []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"} {
		in = append(in, corpus.Lines(t, "ada-url-datasets/"+f)...)
	}
	return in
}

// AppendValidViewJSON gives Validate's verdict and AppendViewJSON's object
// of ViewOf's view for every file, http and https URL it takes (the
// ada-url datasets' lines, the lines above, those lines with a byte put
// in, and the extended syntax), and takes none with "%" or of another
// scheme.
func TestAppendValidViewJSON(t *testing.T) {
	in := append(adaLines(t), "http://u:p@h.example:8080/a/b?c=d", "https://h.example/", "file:///etc/motd",
		"file://localhost/a/b/", "FILE://LOCALHOST/", "file://h.example/a;b", "file://h/a?b/c", "file:", "file:/x", "file://h:1/",
		"http://h.example", "http://h.example?x", "http://h.example:/", "https://h.example:0443/x?a/b", "http://h/a;b?c?d",
		"ftp://h.example/x", "gopher://h.example/", "x-y:z", "http://h/%41", "file:///a%2Fb")
	n := len(in)
	bs := []string{";", "?", "/", "@", ":", "=", "&", "~", "%", "#", "[", "]", "\"", " "}
	for i := 0; i < 20000 && n > 0; i++ {
		s := in[i*7919%n]
		p := i % (len(s) + 1)
		in = append(in, s[:p]+bs[i%len(bs)]+s[p:])
	}
	handled := 0
	for i, s := range append(in, "http://u:p@h.example/a?b", "https://[::1]:8443/x?y/z", "file://[::1]/a") {
		parse := urlkit.Parse
		if i >= len(in) {
			parse = urlkit.ParseExtended
		}
		u, err := parse(s)
		if err != nil {
			continue
		}
		got, ok, gotErr := AppendValidViewJSON([]byte("x"), u)
		name := u.Scheme()
		eligible := (name == "file" || name == "http" || name == "https") && !strings.Contains(s, "%")
		if ok != eligible {
			t.Fatalf("%q: handled %v", s, ok)
		}
		if !ok {
			if string(got) != "x" {
				t.Fatalf("%q: not handled, yet wrote %q", s, got)
			}
			continue
		}
		handled++
		wantErr := Validate(u)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("%q: error %v, Validate says %v", s, gotErr, wantErr)
		}
		if wantErr != nil {
			if string(got) != "x" {
				t.Fatalf("%q: invalid, yet wrote %q", s, got)
			}
			continue
		}
		v, err := ViewOf(u)
		if err != nil {
			t.Fatalf("%q: Validate accepts, ViewOf says %v", s, err)
		}
		want, _ := AppendViewJSON([]byte("x"), v)
		if !bytes.Equal(got, want) {
			t.Fatalf("%q:\n got %s\nwant %s", s, got, want)
		}
	}
	if handled < 1000 {
		t.Fatalf("only %d URLs handled", handled)
	}
}
