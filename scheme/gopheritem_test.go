package scheme

import (
	"errors"
	"testing"

	"github.com/urlkit/urlkit"
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
