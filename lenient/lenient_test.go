package lenient

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/corpus"
	"github.com/urlkit/urlkit/internal/testkit/cputime"
	"github.com/urlkit/urlkit/scheme"
)

// TestParse holds each class of repair with the offsets of its warnings
// in the input, in order, and the component each is in.
func TestParse(t *testing.T) {
	type w struct {
		off  int
		comp urlkit.Component
	}
	for _, tt := range []struct {
		in, want string
		warnings []w
	}{
		// RFC 1738 2.2: what must be encoded.
		{"http://h/a b", "http://h/a%20b", []w{{10, urlkit.ComponentPath}}},
		{"  http://h/~u/\n", "http://h/%7Eu/", []w{{0, urlkit.ComponentNone}, {14, urlkit.ComponentNone}, {11, urlkit.ComponentPath}}},
		{"http://h/100%", "http://h/100%25", []w{{12, urlkit.ComponentPath}}},
		{"http://h/%zz", "http://h/%25zz", []w{{9, urlkit.ComponentPath}}},
		{"http://h/é", "http://h/%C3%A9", []w{{9, urlkit.ComponentPath}, {10, urlkit.ComponentPath}}},
		{"http://h/#a#b", "http://h/#a%23b", []w{{11, urlkit.ComponentFragment}}},
		{"http://h/?a|b", "http://h/?a%7Cb", []w{{11, urlkit.ComponentSearch}}},
		{"URL:http://h/{x}", "http://h/%7Bx%7D", []w{{13, urlkit.ComponentPath}, {15, urlkit.ComponentPath}}},
		{"x-y:a b", "x-y:a%20b", []w{{5, urlkit.ComponentOpaque}}},
		// RFC 1738 3.1: an empty port, a search part after the host.
		{"http://h:/x", "http://h/x", []w{{8, urlkit.ComponentPort}}},
		{"http://h?q=1", "http://h/?q=1", []w{{8, urlkit.ComponentHost}}},
		{"http://h/ok", "http://h/ok", nil},
		// A gopher search item's "?" read as its search, as lynx reads it
		// (RFC 1738 3.4 puts the search after %09); not in other types,
		// nor when the URL has its %09 already.
		{"gopher://h/7/search?hello", "gopher://h/7/search%09hello", []w{{19, urlkit.ComponentPath}}},
		{"gopher://h:70/7?a b", "gopher://h:70/7%09a%20b", []w{{17, urlkit.ComponentSearch}, {15, urlkit.ComponentPath}}},
		{"gopher://h/7/s%09a?b", "gopher://h/7/s%09a?b", nil},
		{"gopher://h/1/a?b", "gopher://h/1/a?b", nil},
		{"gopher://h/0/a?b", "gopher://h/0/a?b", nil},
		// The login: the last "@" ends it; what it may not hold is encoded.
		{"ftp://a@b:c:d@h/f", "ftp://a%40b:c%3Ad@h/f", []w{{7, urlkit.ComponentUser}, {11, urlkit.ComponentPassword}}},
		{"ftp://j doe@h/", "ftp://j%20doe@h/", []w{{7, urlkit.ComponentUser}}},
		// IDNA (UTS #46): the example, full-width dots, upper case.
		{"http://bücher.de/katalog", "http://xn--bcher-kva.de/katalog", []w{{7, urlkit.ComponentHost}}},
		{"http://BÜCHER.de/", "http://xn--bcher-kva.de/", []w{{7, urlkit.ComponentHost}}},
		{"http://例え。テスト/", "http://xn--r8jz45g.xn--zckzah/", []w{{7, urlkit.ComponentHost}}},
		{"http://%62%C3%BCcher.de/", "http://xn--bcher-kva.de/", []w{{7, urlkit.ComponentHost}}},
		{"http://bücher.de:8080/a b", "http://xn--bcher-kva.de:8080/a%20b", []w{{7, urlkit.ComponentHost}, {24, urlkit.ComponentPath}}},
		// Host numbers in browsers' forms (the URL Standard's IPv4 parser).
		{"http://0x7f.1/", "http://127.0.0.1/", []w{{7, urlkit.ComponentHost}}},
		{"http://2130706433/", "http://127.0.0.1/", []w{{7, urlkit.ComponentHost}}},
		{"http://0177.0.0x1/", "http://127.0.0.1/", []w{{7, urlkit.ComponentHost}}},
		{"http://10.1/", "http://10.0.0.1/", []w{{7, urlkit.ComponentHost}}},
		{"http://127.0.0.1./", "http://127.0.0.1/", []w{{7, urlkit.ComponentHost}}},
		// Extensions, accepted with a warning: IPv6 (RFC 3986 3.2.2), a
		// login in an http URL (RFC 3986 3.2.1).
		{"http://[::1]:8080/", "http://[::1]:8080/", []w{{7, urlkit.ComponentHost}}},
		{"http://[::1]:8080/a b", "http://[::1]:8080/a%20b", []w{{19, urlkit.ComponentPath}, {7, urlkit.ComponentHost}}},
		{"https://user:pw@example.com/", "https://user:pw@example.com/", []w{{8, urlkit.ComponentUser}}},
		{"http://h/a?b/c?d", "http://h/a?b/c?d", []w{{12, urlkit.ComponentSearch}}},
		{"URL:http://u@h/~", "http://u@h/%7E", []w{{15, urlkit.ComponentPath}, {11, urlkit.ComponentUser}}},
		{"https://us er:pw@[::1]/", "https://us%20er:pw@[::1]/", []w{{10, urlkit.ComponentUser}, {17, urlkit.ComponentHost}, {8, urlkit.ComponentUser}}},
	} {
		u, warns, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if u.String() != tt.want || !u.Extended() {
			t.Errorf("Parse(%q) = %q (extended %v), want %q", tt.in, u, u.Extended(), tt.want)
		}
		var got []w
		for _, x := range warns {
			got = append(got, w{x.Offset, x.Component})
			if x.Reason == "" || x.String() == "" {
				t.Errorf("empty warning for %q", tt.in)
			}
		}
		if len(got) != len(tt.warnings) {
			t.Errorf("Parse(%q) warnings %v, want %v", tt.in, warns, tt.warnings)
		} else {
			for i := range got {
				if got[i] != tt.warnings[i] {
					t.Errorf("Parse(%q) warnings %v, want %v", tt.in, warns, tt.warnings)
					break
				}
			}
		}
		// The result is a URL of the extended syntax, and valid for its
		// scheme read that way; the input parses strictly exactly when no
		// repair was needed.
		if v, err := urlkit.ParseExtended(u.String()); err != nil || v.String() != u.String() {
			t.Errorf("lenient result %q does not parse by the extended syntax: %v", u, err)
		}
		if err := scheme.Validate(u); err != nil {
			t.Errorf("lenient result %q: %v", u, err)
		}
		strictOK := false
		if s, err := urlkit.Parse(tt.in); err == nil && scheme.Validate(s) == nil {
			strictOK = true
		}
		repairs := len(warns)
		if strictOK && repairs == 1 && strings.HasPrefix(warns[0].Reason, `"?" of a gopher search item`) {
			repairs = 0 // the one reading of a strictly valid URL the lenient one changes
		}
		if strictOK != (repairs == 0) {
			t.Errorf("%q: strictly valid %v but %d warnings", tt.in, strictOK, len(warns))
		}
	}
}

// TestParseErrors holds what the lenient reading still refuses, each with
// the offset in the input and the kind.
func TestParseErrors(t *testing.T) {
	for _, tt := range []struct {
		in   string
		off  int
		kind error
		why  string // a word the reason must hold
	}{
		{"http://a_b/", 8, urlkit.ErrBadHost, `"_"`},                    // RFC 1738 3.1, RFC 1034 3.5
		{"  http://a b/x y", 10, urlkit.ErrBadHost, "0x20"},             // no host has a space
		{"no scheme here", 2, urlkit.ErrBadScheme, "scheme"},            // not repaired by guessing
		{"www.example.com/a", 0, urlkit.ErrMissingScheme, "scheme"},     // no scheme: the gateway's box guesses, not this
		{"http://example.com./", 18, urlkit.ErrBadHost, `end with "."`}, // RFC 1738 5: a toplabel ends the name
		{"http://[fe80::1%25eth0]/", 15, urlkit.ErrBadHost, "zone"},     // RFC 6874 zones refused
		{"http://[v1.x]/", 8, urlkit.ErrBadHost, "IPvFuture"},           // RFC 3986 3.2.2 IPvFuture
		{"http://[1.2.3.4]/", 8, urlkit.ErrBadHost, "IPv6"},             // an IPv4 address has no brackets
		{"http://[::1/", 7, urlkit.ErrBadHost, `"]"`},                   // unclosed
		{"http://h:8o/", 10, urlkit.ErrBadPort, "port"},                 // a port is digits
		{"http://1.2.3.4.5/", 15, urlkit.ErrBadHost, "four"},            // not an IPv4 address in any form
		{"http://0x100000000/", 7, urlkit.ErrBadHost, "letter"},         // beyond 32 bits
		{"http://xn--a.ß/", 7, urlkit.ErrBadHost, "IDNA"},               // WPT toascii: invalid Punycode
		{"http://b\xfccher.de/", 8, urlkit.ErrBadHost, "UTF-8"},         // Latin-1 is no UTF-8
		{"gopher://u@h/1x", 9, scheme.ErrNotAllowed, "no user name"},    // only http(s) gets a login
		{"https://u@h/a b", -1, nil, ""},                                // repaired (checked below)
	} {
		u, warns, err := Parse(tt.in)
		if err == nil && tt.kind == nil {
			if len(warns) == 0 {
				t.Errorf("Parse(%q) = %q without warnings", tt.in, u)
			}
			continue
		}
		if err == nil {
			err = scheme.Validate(u) // the scheme's rules, as every caller checks them
		}
		var se *urlkit.SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, tt.kind) || !strings.Contains(se.Reason(), tt.why) {
			t.Errorf("Parse(%q) = %v, want %v mentioning %s", tt.in, err, tt.kind, tt.why)
			continue
		}
		if off := se.Offset; off != tt.off && !(errors.Is(err, scheme.ErrNotAllowed) && off == tt.off) {
			t.Errorf("Parse(%q): offset %d, want %d (%v)", tt.in, off, tt.off, err)
		}
	}
}

// TestParseRef reads partial forms leniently, as resolve and relative
// need them.
func TestParseRef(t *testing.T) {
	for in, want := range map[string]string{
		"../a b":       "../a%20b",
		"//[::1]/x":    "//[::1]/x",
		"//bücher.de/": "//xn--bcher-kva.de/",
		"?q=a b":       "?q=a%20b",
		"#é":           "#%C3%A9",
	} {
		u, _, err := ParseRef(in)
		if err != nil || u.String() != want || u.IsAbsolute() {
			t.Errorf("ParseRef(%q) = %q, %v; want %q", in, u, err, want)
		}
	}
	if _, _, err := Parse("../a b"); err == nil {
		t.Errorf("Parse accepts a partial form")
	}
}

// A long input with a repair at every byte stays linear: this took minutes
// when each warning's component was looked up by a scan of the whole input.
// The bound is a ratio of CPU times, 10 times the input for at most 30
// times the time (linear: 10; quadratic: 100), so neither a loaded machine
// nor the race detector (which once took this past a 5 s wall-clock limit)
// makes it fail.
func TestParseLong(t *testing.T) {
	run := func(n int) time.Duration {
		s := "http://h/" + strings.Repeat("~", n)
		start := cputime.Now()
		u, warns, err := Parse(s)
		d := cputime.Now() - start
		if err != nil || len(warns) != n || len(u.String()) != 9+3*n {
			t.Fatalf("err %v, %d warnings, %d bytes", err, len(warns), len(u.String()))
		}
		if warns[n-1].Component != urlkit.ComponentPath {
			t.Errorf("last warning in %v", warns[n-1].Component)
		}
		return d
	}
	run(20000) // warm up
	small, large := run(20000), run(200000)
	t.Logf("CPU time: %v for 20,000 repairs, %v for 200,000", small, large)
	if large > 30*small+50*time.Millisecond {
		t.Errorf("200,000 repairs took %v of CPU time, 20,000 took %v: not linear", large, small)
	}
}

// FuzzParse checks that the lenient reading never panics, that its result
// always parses by the extended syntax to itself, that it agrees with
// ParseExtended on what that accepts, and that its warnings and errors lie
// inside the input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"http://h/a b", " http://h:/ ", "http://h?q", "http://bücher.de/x", "http://[::1]:80/", "https://u:p@h/",
		"http://0x7f.1/", "ftp://a@b@h/", "URL:http://h/~", "%", "//é/", "http://%C3%BC.de/", "x:[::1]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, parse := range []func(string) (urlkit.URL, []urlkit.Warning, error){Parse, ParseRef} {
			u, warns, err := parse(s)
			for _, w := range warns {
				if w.Offset < 0 || w.Offset > len(s) {
					t.Fatalf("%q: warning offset %d outside input", s, w.Offset)
				}
			}
			if err != nil {
				var se *urlkit.SyntaxError
				if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(s) || se.Input != s || se.Error() == "" {
					t.Fatalf("%q: bad error %v", s, err)
				}
				if _, perr := urlkit.ParseExtended(s); perr == nil {
					t.Fatalf("%q: ParseExtended accepts what the lenient reading refuses", s)
				}
				continue
			}
			v, perr := urlkit.ParseRefExtended(u.String())
			if perr != nil || v.String() != u.String() || !u.Extended() {
				t.Fatalf("%q: lenient result %q does not re-parse: %v", s, u, perr)
			}
			if p, perr := urlkit.ParseRefExtended(s); perr == nil && p.String() != u.String() {
				t.Fatalf("%q: valid input changed to %q", s, u)
			}
		}
	})
}

// Repairs is Parse without the warnings' texts: the same URL, the same
// error and as many repairs, on every class of input above and on every
// line of the ada-url datasets (5% of them rejected strictly).
func TestRepairsAgrees(t *testing.T) {
	in := []string{
		"http://h/a b", "  http://h/~u/\n", "http://h/100%", "http://h/%zz", "http://h/é",
		"http://h/#a#b", "URL:http://h/{x}", "x-y:a b", "http://h:/x", "http://h?q=1",
		"ftp://a@b:c:d@h/f", "http://bücher.de/katalog", "http://[::1]:8080/a b",
		"https://user:pw@example.com/", "http://0x7f.1/", "http://a_b/", "no scheme here",
		"../a b", "//bücher.de/", "mailto:a b@c.d", "http://h/ok", "",
	}
	for _, f := range []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"} {
		in = append(in, corpus.Lines(t, "ada-url-datasets/"+f)...)
	}
	for _, s := range in {
		for _, partial := range []bool{false, true} {
			u, warns, err := read(s, partial)
			ru, n, rerr := Repairs(s, partial)
			if u.String() != ru.String() || n != len(warns) || fmt.Sprint(err) != fmt.Sprint(rerr) {
				t.Fatalf("%q (partial %v): Parse gives %q, %d warnings, %v; Repairs gives %q, %d, %v",
					s, partial, u, len(warns), err, ru, n, rerr)
			}
		}
	}
}

// RepairsRejected answers as Repairs for every text the strict parser
// rejects (TestRepairsAgrees' texts and the ada-url datasets, each also
// with a byte put in, IPv6 literals among them), and Repairs is checked
// against the warnings of the full reading there.
func TestRepairsRejected(t *testing.T) {
	in := []string{"http://[::1]:8080/a b", "http://[::1/", "http://[v1.x]/", "http://[fe80::1%25eth0]/a", "http://[1.2.3.4]/",
		"gopher://[::1]:70/1~x", "http://a_b/[x]", "x://[", "[::1]", "//[::1]/a b", "http://h/a b", "URL:http://[::1]/~"}
	for _, f := range []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"} {
		in = append(in, corpus.Lines(t, "ada-url-datasets/"+f)...)
	}
	bs := []string{"[", "]", " ", "~", "%", "é", "#", "@", ":"}
	n := len(in)
	for i := 0; i < 20000; i++ {
		s := in[i*7919%n]
		p := i % (len(s) + 1)
		in = append(in, s[:p]+bs[i%len(bs)]+s[p:])
	}
	checked := 0
	for _, s := range in {
		for _, partial := range []bool{false, true} {
			strict := urlkit.Parse
			if partial {
				strict = urlkit.ParseRef
			}
			if _, err := strict(s); err == nil {
				continue
			}
			u, n, err := Repairs(s, partial)
			ru, rn, rerr := RepairsRejected(s, partial)
			if u.String() != ru.String() || u.Extended() != ru.Extended() || n != rn || fmt.Sprint(err) != fmt.Sprint(rerr) {
				t.Fatalf("%q (partial %v): Repairs gives %q, %d, %v; RepairsRejected %q, %d, %v", s, partial, u, n, err, ru, rn, rerr)
			}
			checked++
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d rejected texts", checked)
	}
}
