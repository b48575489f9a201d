package urlkit

import (
	"fmt"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/corpus"
)

// checkSpans checks URL.Span on u, parsed from input: every component u
// has is input[start:end] and equals its accessor's text; every one it
// lacks sits, empty, where the documentation says.
func checkSpans(t *testing.T, input string, u URL) {
	t.Helper()
	at := func(c Component) (int, int, bool) {
		s, e, ok := u.Span(c)
		if s > e || e > len(input) || (s < 0 && (ok || s != -1 || e != -1)) {
			t.Fatalf("%q: Span(%s) = %d, %d, %v: out of the input", input, c, s, e, ok)
		}
		return s, e, ok
	}
	text := func(c Component) string {
		s, e, _ := at(c)
		if s < 0 {
			return ""
		}
		return input[s:e]
	}
	want := func(c Component, acc string, has bool) {
		t.Helper()
		s, e, ok := at(c)
		if ok != has {
			t.Errorf("%q: Span(%s) ok = %v, want %v", input, c, ok, has)
		}
		if has && text(c) != acc {
			t.Errorf("%q: Span(%s) = [%d, %d) %q, accessor %q", input, c, s, e, text(c), acc)
		}
		if !has && s != e {
			t.Errorf("%q: Span(%s) of an absent component is [%d, %d)", input, c, s, e)
		}
	}
	pre := 0
	if u.Prefixed() {
		pre = 4
	}
	want(ComponentPrefix, input[:pre], u.Prefixed())
	want(ComponentScheme, u.RawScheme(), u.IsAbsolute())
	want(ComponentOpaque, u.Opaque(), true)
	usr, hasU := u.User()
	pw, hasP := u.Password()
	port, hasPort := u.RawPort()
	path, hasPath := u.Path()
	search, hasS := u.Search()
	frag, hasF := u.Fragment()
	want(ComponentPath, path, hasPath)
	want(ComponentSearch, search, hasS)
	want(ComponentFragment, frag, hasF)
	if !u.HasAuthority() {
		for _, c := range []Component{ComponentUser, ComponentPassword, ComponentHost, ComponentPort} {
			if s, e, ok := at(c); s != -1 || e != -1 || ok {
				t.Errorf("%q: Span(%s) = %d, %d, %v without \"//\"", input, c, s, e, ok)
			}
		}
	} else {
		want(ComponentUser, usr, hasU)
		want(ComponentPassword, pw, hasP)
		want(ComponentHost, u.Host(), true)
		want(ComponentPort, port, hasPort)
		// Where absent components begin.
		us, ue, _ := at(ComponentUser)
		hs, he, _ := at(ComponentHost)
		ps, _, _ := at(ComponentPassword)
		pts, pte, _ := at(ComponentPort)
		if !hasU && (us < 2 || input[us-2:us] != "//" || us != hs) {
			t.Errorf("%q: absent user at %d, host at %d", input, us, hs)
		}
		if !hasP && ps != ue {
			t.Errorf("%q: absent password at %d, user ends at %d", input, ps, ue)
		}
		if !hasPort && pts != he {
			t.Errorf("%q: absent port at %d, host ends at %d", input, pts, he)
		}
		if hasPort && (input[pts-1] != ':' || pts-1 != he) {
			t.Errorf("%q: port at %d, host ends at %d", input, pts, he)
		}
		if s, _, _ := at(ComponentPath); !hasPath && s != pte {
			t.Errorf("%q: absent path at %d, login ends at %d", input, s, pte)
		}
	}
	_, pe, _ := at(ComponentPath)
	if ss, se, _ := at(ComponentSearch); (!hasS && ss != pe) || (hasS && (input[ss-1] != '?' || ss-1 != pe)) {
		t.Errorf("%q: search at [%d, %d), path ends at %d", input, ss, se, pe)
	}
	_, oe, _ := at(ComponentOpaque)
	if fs, _, _ := at(ComponentFragment); (!hasF && (fs != len(input) || oe != len(input))) || (hasF && (input[fs-1] != '#' || oe != fs-1)) {
		t.Errorf("%q: fragment at %d, opaque ends at %d", input, fs, oe)
	}
	if s, e, ok := u.Span(Component(99)); s != 0 || e != 0 || ok {
		t.Errorf("%q: Span of an unknown component = %d, %d, %v", input, s, e, ok)
	}
}

// TestSpan checks URL.Span on the parse tables, logins at the fast
// parser's edges, the corpora, and each of those behind a "URL:" prefix
// (the offsets then count it, as a SyntaxError's do).
func TestSpan(t *testing.T) {
	var in []string
	for _, tt := range parseTests {
		in = append(in, tt.in)
	}
	in = append(in, fastLogins...)
	in = append(in, "//h.dom/p?q#f", "/a/b?c", "?q", "#f", "", "news:a@b.dom", "file:///x", "file://localhost", "ftp://u:@h.dom:/", "http://h.dom?q")
	for _, s := range in {
		in = append(in, "URL:"+s)
	}
	for _, name := range []string{"ada-url-datasets/kasztp.txt", "ada-url-datasets/node_files.txt", "ada-url-datasets/userbait.txt"} {
		in = append(in, corpus.Lines(t, name)...)
	}
	n := 0
	for _, input := range in {
		for _, parse := range []func(string) (URL, error){Parse, ParseRef, ParseExtended} {
			if u, err := parse(input); err == nil {
				checkSpans(t, input, u)
				n++
			}
		}
	}
	t.Logf("%d parses checked", n)
}

// FuzzSpan checks URL.Span on any input that parses.
func FuzzSpan(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		for _, parse := range []func(string) (URL, error){Parse, ParseRef, ParseExtended} {
			if u, err := parse(s); err == nil {
				checkSpans(t, s, u)
			}
		}
	})
}

// TestSpanAllocs: Span reads the parse's offsets and allocates nothing.
func TestSpanAllocs(t *testing.T) {
	u := MustParse("URL:ftp://u:p@h.dom:21/a/b?c#d")
	if n := testing.AllocsPerRun(100, func() {
		for c := ComponentNone; c <= ComponentFragment; c++ {
			u.Span(c)
		}
	}); n != 0 {
		t.Errorf("Span allocates %v times", n)
	}
}

// Where each component of a URL is in the input: the offsets the parser
// found, with the "URL:" prefix of RFC 1738's appendix counted.
func ExampleURL_Span() {
	in := "URL:ftp://myname@host.dom:2121/etc/motd"
	u := MustParse(in)
	for _, c := range []Component{ComponentUser, ComponentPassword, ComponentHost, ComponentPort, ComponentPath} {
		start, end, ok := u.Span(c)
		fmt.Printf("%-8s %2d %2d %-5v %q\n", c, start, end, ok, in[start:end])
	}
	// Output:
	// user     10 16 true  "myname"
	// password 16 16 false ""
	// host     17 25 true  "host.dom"
	// port     26 30 true  "2121"
	// path     31 39 true  "etc/motd"
}
