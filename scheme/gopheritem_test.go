package scheme

import (
	"errors"
	"math/rand/v2"
	"net/netip"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/chars"
)

// Menu items become URLs only through GopherItemURL (RFC 1436 3.8 item
// fields; RFC 1738 3.4 URL form); an item that cannot form a valid URL is an
// error, never an invalid URL.
func TestGopherItemURL(t *testing.T) {
	good := []struct {
		typ                  byte
		sel, host, port, out string
	}{
		{'0', "/hello.txt", "127.0.0.1", "70", "gopher://127.0.0.1:70/0/hello.txt"},
		{'0', "/a b.txt", "h.example", "7070", "gopher://h.example:7070/0/a%20b.txt"},
		{'1', "", "h", "70", "gopher://h:70/1"},
		{'7', "/q?x#y", "h", "70", "gopher://h:70/7/q%3Fx%23y"},
		// A server on IPv6 names its own address: RFC 3986 3.2.2's
		// IP-literal, a URL of the extended syntax.
		{'0', "/hello.txt", "::1", "7070", "gopher://[::1]:7070/0/hello.txt"},
		{'1', "/d", "2001:DB8::1", "70", "gopher://[2001:DB8::1]:70/1/d"},
	}
	for _, g := range good {
		got, err := GopherItemURL(g.typ, g.sel, g.host, g.port)
		if err != nil || got != g.out {
			t.Errorf("%c %q %q %q: got %q, %v; want %q", g.typ, g.sel, g.host, g.port, got, err, g.out)
		}
	}
	bad := []struct {
		typ             byte
		sel, host, port string
	}{
		{'0', "/x", "h", ""},              // gopher://h:/0/x: an empty port
		{'0', "/x", "a host", "70"},       // a space in the host
		{'0', "/x", "", "70"},             // no host
		{'0', "/x", "h", "70000"},         // port out of range
		{'0', "/x", "h", "0"},             // port 0
		{'0', "/x", "h", "7a"},            // not a number
		{'0', "/x\x1b[2J", "h", "70"},     // control character in the selector
		{'0', "/x", "h/evil", "70"},       // a slash in the host
		{'0', "/x", "h@e", "70"},          // a login in the host
		{'0', "/x", "fe80::1%eth0", "70"}, // an IPv6 zone (RFC 6874) names no host for others
		{'0', "/x", "[::1]", "70"},        // a menu's host is an address, without brackets
		{'0', "/x", "1.2.3.4:5", "70"},    // neither a host nor an IPv6 address
	}
	for _, b := range bad {
		got, err := GopherItemURL(b.typ, b.sel, b.host, b.port)
		if !errors.Is(err, ErrBadMenuItem) {
			t.Errorf("%c %q %q %q: got %q, %v; want ErrBadMenuItem", b.typ, b.sel, b.host, b.port, got, err)
		}
	}
}

// Ports above 65535 are refused by plans and reported by Check as errors.
func TestPortRange(t *testing.T) {
	for _, in := range []string{"ftp://h:65536/f", "gopher://h:99999/0x", "http://h:70000/", "nntp://h:123456/g", "telnet://h:65536"} {
		u := mustParseT(t, in)
		if _, err := PlanOf(u, Config{}); !errors.Is(err, ErrPortRange) {
			t.Errorf("%s: plan error %v, want ErrPortRange", in, err)
		}
		found := false
		for _, f := range Check(u) {
			if f.Code == CodePort && f.Severity == SeverityError {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: Check has no port error: %v", in, Check(u))
		}
	}
	if _, err := PlanOf(mustParseT(t, "ftp://h:65535/f"), Config{}); err != nil {
		t.Errorf("port 65535: %v", err)
	}
}

func mustParseT(t *testing.T, s string) urlkit.URL {
	t.Helper()
	u, err := urlkit.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// wholeReparse is how GopherItemURL checked every item before
// GopherItemURLs: build the whole URL, parse it back strictly (by the
// extended syntax for an IPv6 host), compare the host, apply the gopher
// grammar. It is the oracle the remembered-server path is held to.
func wholeReparse(typ byte, selector, host, port string) (string, bool) {
	if host == "" || port == "" || typ < 0x20 || typ >= 0x7f {
		return "", false
	}
	n := 0
	for i := 0; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' || n > 65535 {
			return "", false
		}
		n = n*10 + int(port[i]-'0')
	}
	if n < 1 || n > 65535 {
		return "", false
	}
	for i := 0; i < len(selector); i++ {
		if selector[i] < 0x20 || selector[i] == 0x7f {
			return "", false
		}
	}
	parse := urlkit.Parse
	if a, err := netip.ParseAddr(host); err == nil && a.Is6() && a.Zone() == "" {
		host, parse = "["+host+"]", urlkit.ParseExtended
	}
	s := "gopher://" + host + ":" + port + "/" + urlkit.Escape(string(rune(typ)), urlkit.ComponentPath) + urlkit.Escape(selector, urlkit.ComponentPath)
	u, err := parse(s)
	if err != nil || u.Host() != host || checkGopher(u) != nil {
		return "", false
	}
	return s, true
}

// One GopherItemURLs across a menu gives each item the URL (or the
// refusal) that parsing the item's whole URL gives, whatever server the
// item before named: a valid server remembered does not let an invalid one
// through, nor an invalid one stop a valid one.
func TestGopherItemURLsRemember(t *testing.T) {
	items := []struct {
		typ             byte
		sel, host, port string
	}{
		{'0', "/a", "h.example", "70"},
		{'1', "/b c", "h.example", "70"}, // the same server: remembered
		{'0', "/a", "h.example", "71"},   // another port
		{'0', "/a", "h/evil", "70"},      // refused; h.example stays remembered
		{'0', "/a", "h.example", "71"},
		{'0', "/x\x00", "h.example", "71"}, // a remembered server, a bad selector
		{'\x01', "/x", "h.example", "71"},  // a bad type
		{'0', "/a", "h@e", "70"},
		{'0', "/a", "::1", "70"},
		{'0', "/a", "::1", "70"},
		{'9', "/(x)'&y", "H.Example", "7070"},
		{'0', "/a", "", "70"},
		{'0', "/a", "h.example", ""},
		{'0', "/a", "h.example", "070"},
	}
	var c GopherItemURLs
	for _, it := range items {
		want, ok := wholeReparse(it.typ, it.sel, it.host, it.port)
		got, err := c.Append([]byte("prefix:"), it.typ, it.sel, it.host, it.port)
		if ok != (err == nil) || string(got) != "prefix:"+want && ok || !ok && string(got) != "prefix:" {
			t.Errorf("%q %q %q %q: got %q, %v; whole reparse %q, %v", it.typ, it.sel, it.host, it.port, got, err, want, ok)
		}
		if err != nil && !errors.Is(err, ErrBadMenuItem) {
			t.Errorf("%q %q %q %q: %v does not wrap ErrBadMenuItem", it.typ, it.sel, it.host, it.port, err)
		}
	}
}

// FuzzGopherItemURLs holds GopherItemURLs, with a server remembered from
// the item before, to the whole reparse, on any two items, and AppendBytes
// and Server to Append.
func FuzzGopherItemURLs(f *testing.F) {
	f.Add(byte('0'), "/a", "h.example", "70", byte('1'), "/b", "h.example", "70")
	f.Add(byte('0'), "/a", "::1", "70", byte('7'), "/q?x#y", "h/x", "70")
	f.Add(byte('0'), "/a", "h.example", "70", byte('0'), "/a\x1b", "h.example", "70")
	f.Fuzz(func(t *testing.T, t1 byte, s1, h1, p1 string, t2 byte, s2, h2, p2 string) {
		var c, cb, cs GopherItemURLs
		var scratch []byte
		for _, it := range [][4]string{{string(t1), s1, h1, p1}, {string(t2), s2, h2, p2}, {string(t1), s1, h1, p1}} {
			typ := it[0][0]
			want, ok := wholeReparse(typ, it[1], it[2], it[3])
			got, err := c.Append(nil, typ, it[1], it[2], it[3])
			if ok != (err == nil) || ok && string(got) != want {
				t.Fatalf("%q %q %q %q: got %q, %v; whole reparse %q, %v", typ, it[1], it[2], it[3], got, err, want, ok)
			}
			// The bytes form, its fields in one buffer written over for
			// each item (as a menu reader's views are).
			scratch = append(append(append(scratch[:0], it[1]...), it[2]...), it[3]...)
			sel, host, port := scratch[:len(it[1])], scratch[len(it[1]):len(it[1])+len(it[2])], scratch[len(it[1])+len(it[2]):]
			gotb, errb := cb.AppendBytes(nil, typ, sel, host, port)
			if string(gotb) != string(got) || (err == nil) != (errb == nil) || err != nil && err.Error() != errb.Error() {
				t.Fatalf("%q %q %q %q: AppendBytes %q, %v; Append %q, %v", typ, it[1], it[2], it[3], gotb, errb, got, err)
			}
			checkServer(t, &cs, typ, it[1], it[2], it[3], got, err)
		}
	})
}

// AppendBytes gives what Append gives, URL or error, on many items in a
// row (servers alike and not, remembered or not), though its fields are
// views into one buffer written over for each item: it keeps nothing of
// them; Server agrees with Append (checkServer).
func TestGopherItemURLsBytesAgree(t *testing.T) {
	hosts := []string{"h.example", "h.example", "h.example", "H.Example", "h.exampl", "::1", "h/evil", "h@e", "", "10.0.0.1", "h%41", "h.example."}
	ports := []string{"70", "70", "70", "71", "7", "", "070", "65536", "x", " 70"}
	sels := []string{"", "/a", "/b c", "/(x)'&y", "/q?x#y", "/\x1b", "/\x00", "/é", "/a%20b", "URL:http://x/"}
	r := rand.New(rand.NewPCG(3, 4))
	var c, cb, cs GopherItemURLs
	var scratch []byte
	for i := 0; i < 20000; i++ {
		types := "01379hgI:+\x01\x7f\x80"
		typ := types[r.IntN(len(types))]
		sel, host, port := sels[r.IntN(len(sels))], hosts[r.IntN(len(hosts))], ports[r.IntN(len(ports))]
		got, err := c.Append([]byte("p:"), typ, sel, host, port)
		scratch = append(append(append(scratch[:0], sel...), host...), port...)
		gotb, errb := cb.AppendBytes([]byte("p:"), typ, scratch[:len(sel)], scratch[len(sel):len(sel)+len(host)], scratch[len(sel)+len(host):])
		if string(gotb) != string(got) || (err == nil) != (errb == nil) || err != nil && err.Error() != errb.Error() {
			t.Fatalf("item %d %q %q %q %q: AppendBytes %q, %v; Append %q, %v", i, typ, sel, host, port, gotb, errb, got, err)
		}
		checkServer(t, &cs, typ, sel, host, port, got[len("p:"):], err)
	}
}

// checkServer holds Server to Append: for an item whose type and
// selector the path keeps bare, the server part, the type and the
// selector are the URL Append gives, or Server refuses the server as
// Append refuses the item; for any other item, Server refuses no server
// whose item Append accepts. url and err are Append's answer.
func checkServer(t *testing.T, c *GopherItemURLs, typ byte, sel, host, port string, url []byte, err error) {
	t.Helper()
	srv, serr := c.Server([]byte(host), []byte(port))
	plain := chars.EscPath.Keeps(typ)
	for i := 0; i < len(sel); i++ {
		plain = plain && chars.EscPath.Keeps(sel[i])
	}
	switch {
	case plain && (serr == nil) != (err == nil):
		t.Fatalf("%q %q %q %q: Server %q, %v; Append %q, %v", typ, sel, host, port, srv, serr, url, err)
	case plain && serr == nil && srv+string(typ)+sel != string(url):
		t.Fatalf("%q %q %q %q: Server %q, the item's URL %q", typ, sel, host, port, srv, url)
	case serr != nil && err == nil:
		t.Fatalf("%q %q %q %q: Server refuses %v; Append gives %q", typ, sel, host, port, serr, url)
	case serr != nil && !errors.Is(serr, ErrBadMenuItem):
		t.Fatalf("%q %q %q %q: %v does not wrap ErrBadMenuItem", typ, sel, host, port, serr)
	}
}
