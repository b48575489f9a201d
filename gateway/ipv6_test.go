package gateway

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
)

// remoteConn is a connection that reports another peer address: a dial
// to a public IPv6 address, served by a loopback server.
type remoteConn struct {
	net.Conn
	remote net.Addr
}

func (c remoteConn) RemoteAddr() net.Addr { return c.remote }

// IPv6 literal hosts (RFC 3986 3.2.2; RFC 1738 has none, so only the
// lenient reading takes them) work in the path form and the proxy form
// (issue 21): the form /go redirects to is served, the address policy
// decides as for IPv4 (loopback and documentation addresses refused by
// default, a named exception or a public address reached), and the
// page's breadcrumbs and links write the host in one pair of brackets.
func TestIPv6LiteralTargets(t *testing.T) {
	menu := []byte("0Doc\t/a/b/doc\t::1\t70\r\n1Up\t/a\tlocalhost\t70\r\n.\r\n")
	s, err := fakeservers.GopherOn("[::1]:0", map[string][]byte{"/a/b": menu})
	if err != nil {
		t.Skipf("no IPv6 loopback here: %v", err)
	}
	defer s.Close()
	addr := s.Addr() // [::1]:PORT
	_, port, _ := net.SplitHostPort(addr)
	page := "gopher://" + addr + "/1/a/b"
	allowed := serve(t, New(allow(addr)))
	for _, target := range []string{"/" + page, page} {
		at := "/" // links in the path form; the proxy form's are absolute URLs
		if target == page {
			at = ""
		}
		resp, body := raw(t, allowed, "GET", target)
		if resp.StatusCode != 200 {
			t.Fatalf("%s with [::1] allowed: %d\n%s", target, resp.StatusCode, body)
		}
		for _, want := range []string{
			`<a href="` + at + `gopher://` + addr + `/1/a" rel="up"`,
			`<a href="` + at + `gopher://` + addr + `/1/">` + addr + `</a> / <a href="` + at + `gopher://` + addr + `/1/a">a</a> / <strong>b</strong>`,
			`href="` + at + `gopher://[::1]:70/0/a/b/doc"`,
		} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the page lacks %s:\n%s", target, want, body)
			}
		}
		if strings.Contains(body, "[[") {
			t.Errorf("%s: a host in two pairs of brackets:\n%s", target, body)
		}
	}
	// /go's lenient reading repairs nothing in the text: its redirect is
	// the form the path form serves.
	resp, _ := raw(t, allowed, "GET", "/go?url="+page)
	if loc := resp.Header.Get("Location"); resp.StatusCode != 303 || loc != "/"+page {
		t.Fatalf("/go: %d, Location %q", resp.StatusCode, loc)
	}
	// What the lenient reading would change stays refused in the path
	// form (/go repairs it and says so).
	if resp, body := raw(t, allowed, "GET", "/gopher://"+addr+"/1/a%zz"); resp.StatusCode != 400 {
		t.Errorf("a lone %%: %d %q", resp.StatusCode, body)
	}
	// An IPv6 literal the lenient reading refuses too gets its error,
	// not the strict reading's "RFC 1738 has none".
	for target, says := range map[string]string{
		"/gopher://[fe80::1%25eth0]/1/": "zone identifier",
		"/gopher://[1.2.3.4]/1/":        "is not an IPv6 address",
		"/gopher://[::1%5D:70/1/":       `without a closing "]"`,
		"/gopher://u:p@[::1%5D:70/1/":   "details withheld",
	} {
		if resp, body := raw(t, allowed, "GET", target); resp.StatusCode != 400 || !strings.Contains(body, says) {
			t.Errorf("%s: %d %q, want 400 saying %q", target, resp.StatusCode, body, says)
		}
	}
	// The default policy: loopback and documentation addresses refused.
	def := serve(t, New(Config{}))
	for target, says := range map[string]string{
		"/" + page:                                     "::1 is a loopback",
		"/gopher://[2001:db8::1]/1/":                   "2001:db8::1 is a documentation",
		"/ftp://[::1]:" + port + "/":                   "::1 is a loopback",
		"/gopher://[::ffff:127.0.0.1]:" + port + "/1/": "127.0.0.1 is a loopback",
	} {
		if resp, body := raw(t, def, "GET", target); resp.StatusCode != 403 || !strings.Contains(body, says) {
			t.Errorf("%s by default: %d %q, want 403 saying %q", target, resp.StatusCode, body, says)
		}
	}
	// A public IPv6 address is reached (the connection is the loopback
	// server's, reporting the public peer the policy decides on).
	g := New(Config{})
	var (
		mu      sync.Mutex // the handler dials; the test reads after
		dialled []string
	)
	g.testDial = func(ctx context.Context, network, a string) (net.Conn, error) {
		mu.Lock()
		dialled = append(dialled, a)
		mu.Unlock()
		c, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
		if err != nil {
			return nil, err
		}
		return remoteConn{c, &net.TCPAddr{IP: net.ParseIP("2606:4700:4700::1111"), Port: 70}}, nil
	}
	public := serve(t, g)
	resp, body := raw(t, public, "GET", "/gopher://[2606:4700:4700::1111]/1/a/b")
	if resp.StatusCode != 200 || !strings.Contains(body, `<a href="/gopher://[2606:4700:4700::1111]/1/">[2606:4700:4700::1111]</a> / <a href="/gopher://[2606:4700:4700::1111]/1/a">a</a>`) {
		t.Errorf("public IPv6: %d\n%s", resp.StatusCode, body)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(dialled) != 1 || dialled[0] != "[2606:4700:4700::1111]:70" {
		t.Errorf("dialled %q, want [2606:4700:4700::1111]:70", dialled)
	}
}
