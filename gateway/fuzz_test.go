package gateway

import (
	"context"
	"errors"
	"hash/fnv"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlkit/urlkit/scheme"
)

// fuzzConn is the connection the fuzz target's dialer returns: reads end
// at once, writes are recorded as use.
type fuzzConn struct {
	remote netip.AddrPort
	used   *bool
	mu     *sync.Mutex
}

func (c fuzzConn) Read([]byte) (int, error) { return 0, io.EOF }
func (c fuzzConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	*c.used = true
	c.mu.Unlock()
	return len(p), nil
}
func (c fuzzConn) Close() error { return nil }
func (c fuzzConn) LocalAddr() net.Addr {
	return net.TCPAddrFromAddrPort(netip.MustParseAddrPort("127.0.0.1:5"))
}
func (c fuzzConn) RemoteAddr() net.Addr             { return net.TCPAddrFromAddrPort(c.remote) }
func (c fuzzConn) SetDeadline(time.Time) error      { return nil }
func (c fuzzConn) SetReadDeadline(time.Time) error  { return nil }
func (c fuzzConn) SetWriteDeadline(time.Time) error { return nil }

// fuzzResolve stands for name resolution: an IP literal is itself,
// "localhost" is loopback, any other name one of a public, a private and
// a link-local address by its hash (so that names resolving to refused
// addresses are covered without a resolver).
func fuzzResolve(host string) netip.Addr {
	if ip, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return ip
	}
	if strings.EqualFold(host, "localhost") {
		return netip.MustParseAddr("127.0.0.1")
	}
	h := fnv.New32a()
	h.Write([]byte(host))
	return []netip.Addr{
		netip.MustParseAddr("8.8.4.4"), netip.MustParseAddr("10.0.0.7"),
		netip.MustParseAddr("169.254.169.254"), netip.MustParseAddr("2001:4860::1"),
	}[h.Sum32()%4]
}

// fuzzHosts are the Host headers the target chooses from, with whether the
// gateway (at 127.0.0.1:8070) must accept each (rule O1).
var fuzzHosts = []struct {
	host string
	ok   bool
}{
	{"127.0.0.1:8070", true}, {"localhost:8070", true}, {"LocalHost:8070", true},
	{"evil.example:8070", false}, {"127.0.0.1:1", false}, {"", false}, {"[::1]:8070", false}, {"127.0.0.1", false},
}

var fuzzSites = []string{"", "none", "same-origin", "same-site", "cross-site"}
var fuzzModes = []string{"", "navigate", "no-cors", "cors"}
var fuzzDests = []string{"", "document", "image", "iframe", "empty"}

// FuzzGatewayRequest: a request-target and browser headers through the
// whole handler (issue 21, item 10), its dialer replaced by one that
// records what would be dialled. Properties: no panic; a refusal (400,
// 403, 404, 405, 421, 501) sent nothing to any connection; a request the
// origin rules refuse (a foreign Host on the path form, a cross-site
// request that is not a top-level navigation) never reached the dialer;
// a connection used went to a public address on a port of no other
// service, or to the one named exception.
func FuzzGatewayRequest(f *testing.F) {
	for _, s := range []string{
		"/gopher://127.0.0.1:6379/0SET%20x%20y", "/gopher://localhost:7070/1/", "/gopher://127.0.0.1:7070/0x",
		"/ftp://user:pw@example.org/pub/", "/nntp://news.example/comp.lang.go", "/news:comp.lang.go",
		"gopher://example.org:25/0x", "/gopher://10.0.0.1/1", "/file:///etc/passwd", "/", "/go?url=gopher://h/1",
		"/gopher://example.org/7/s%09term", "/ftp://h/a;type=d", "/wais://h/db", "/http://h/", "/x",
		"/gopher://0x7f.1/1", "/gopher://2130706433/1", "/gopher://[::1]/1", "/gopher://h:99999/1",
		"/gopher://h/0a%0D%0AQUIT", "/gopher://example.org:6000/1",
	} {
		f.Add(s, uint8(0), uint8(0), uint8(0), uint8(0))
		f.Add(s, uint8(4), uint8(2), uint8(2), uint8(0))
		f.Add(s, uint8(4), uint8(1), uint8(1), uint8(0))
		f.Add(s, uint8(0), uint8(0), uint8(0), uint8(3))
	}
	allowed := "127.0.0.1:7070"
	f.Fuzz(func(t *testing.T, target string, site, mode, dest, host uint8) {
		u, err := url.ParseRequestURI(target)
		if err != nil || strings.ContainsAny(target, " \t\r\n\x00") {
			return // net/http answers 400 itself
		}
		var (
			mu      sync.Mutex
			dials   int
			used    bool
			targets []netip.AddrPort
			names   []string
		)
		cfg := Config{Timeout: time.Second, ConnectTimeout: time.Second, ReadTimeout: time.Second, MaxSize: 1 << 16}
		cfg.Policy.Allow = []string{allowed}
		cfg.Scheme.NewsServer = "news.example"
		g := New(cfg)
		defer g.Close()
		g.testDial = func(ctx context.Context, network, addr string) (net.Conn, error) {
			h, p, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			ap, err := netip.ParseAddrPort(net.JoinHostPort(fuzzResolve(h).String(), p))
			if err != nil {
				return nil, errors.New("fuzz: no such port")
			}
			mu.Lock()
			dials++
			targets = append(targets, ap)
			names = append(names, addr)
			mu.Unlock()
			return fuzzConn{remote: ap, used: &used, mu: &mu}, nil
		}
		hs := fuzzHosts[int(host)%len(fuzzHosts)]
		r := &http.Request{Method: "GET", URL: u, RequestURI: target, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{}, Host: hs.host, RemoteAddr: "192.0.2.1:1234"}
		if r.URL.Host != "" {
			r.Host = r.URL.Host // net/http does this for the absolute form
		}
		sfs, sfm, sfd := fuzzSites[int(site)%len(fuzzSites)], fuzzModes[int(mode)%len(fuzzModes)], fuzzDests[int(dest)%len(fuzzDests)]
		for k, v := range map[string]string{"Sec-Fetch-Site": sfs, "Sec-Fetch-Mode": sfm, "Sec-Fetch-Dest": sfd} {
			if v != "" {
				r.Header.Set(k, v)
			}
		}
		local := net.TCPAddrFromAddrPort(netip.MustParseAddrPort("127.0.0.1:8070"))
		r = r.WithContext(context.WithValue(context.Background(), http.LocalAddrContextKey, local))
		w := &nullWriter{h: http.Header{}}
		g.ServeHTTP(w, r)

		mu.Lock()
		defer mu.Unlock()
		switch w.status {
		case 400, 403, 404, 405, 421, 501:
			if used {
				t.Fatalf("%q: refused with %d after sending to %v", target, w.status, targets)
			}
		}
		if strings.HasPrefix(target, "/") && !hs.ok && dials > 0 {
			t.Fatalf("%q with Host %q: dialled %v", target, hs.host, targets)
		}
		crossSite := sfs == "cross-site" || sfs == "same-site"
		if crossSite && !(sfm == "navigate" && sfd == "document") && dials > 0 {
			t.Fatalf("%q, Sec-Fetch-Site %s, Mode %s, Dest %s: dialled %v", target, sfs, sfm, sfd, targets)
		}
		if !used {
			return
		}
		for i, ap := range targets {
			ip := ap.Addr().Unmap()
			public := ip.IsGlobalUnicast() && !ip.IsPrivate() && !ip.IsLoopback() && !ip.IsLinkLocalUnicast()
			if !public && names[i] != allowed && names[i] != "news.example:119" {
				t.Fatalf("%q: a connection to %s (%s) was used", target, ap, names[i])
			}
			if _, bad := scheme.BlockedPort(int(ap.Port())); bad && ap.Port() != 21 && ap.Port() != 119 {
				t.Fatalf("%q: a connection to port %d was used", target, ap.Port())
			}
		}
	})
}
