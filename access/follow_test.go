package access

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/scheme"
)

// The follow rule's order of addresses (Private Network Access, WICG
// draft, section 2.1 "IP address space": public < private < local; here
// with IANA's other special-purpose ranges between private and local).
func TestMayFollow(t *testing.T) {
	for _, c := range []struct {
		from, to string
		ok       bool
	}{
		{"8.8.8.8", "1.1.1.1", true},
		{"8.8.8.8", "10.0.0.1", false},
		{"8.8.8.8", "192.168.1.1", false},
		{"8.8.8.8", "127.0.0.1", false},
		{"8.8.8.8", "127.9.9.9", false},
		{"8.8.8.8", "::1", false},
		{"8.8.8.8", "::ffff:127.0.0.1", false},
		{"8.8.8.8", "0.0.0.0", false},
		{"8.8.8.8", "::", false},
		{"8.8.8.8", "169.254.169.254", false}, // cloud metadata
		{"8.8.8.8", "100.64.0.1", false},
		{"8.8.8.8", "fd00::1", false},
		{"8.8.8.8", "64:ff9b::7f00:1", false}, // NAT64 form of 127.0.0.1
		{"2001:4860:4860::8888", "8.8.4.4", true},
		{"10.0.0.5", "10.0.0.6", true},
		{"10.0.0.5", "192.168.0.1", true},
		{"10.0.0.5", "8.8.8.8", true},
		{"10.0.0.5", "169.254.169.254", false},
		{"10.0.0.5", "127.0.0.1", false},
		{"10.0.0.5", "0.1.2.3", false},
		{"169.254.1.1", "10.0.0.1", true},
		{"169.254.1.1", "127.0.0.1", false},
		{"127.0.0.1", "127.0.0.1", true},
		{"127.0.0.1", "10.0.0.1", true},
		{"127.0.0.1", "169.254.169.254", true},
		{"127.0.0.1", "8.8.8.8", true},
		{"::1", "127.0.0.2", true},
		{"", "127.0.0.1", false}, // nothing known of the server: public
		{"", "8.8.8.8", true},
		{"8.8.8.8", "", false}, // no address to check
	} {
		from, _ := netip.ParseAddr(c.from)
		to, _ := netip.ParseAddr(c.to)
		err := MayFollow(from, to)
		if (err == nil) != c.ok {
			t.Errorf("MayFollow(%s, %s) = %v, want allowed %v", c.from, c.to, err, c.ok)
		}
		var fe *FollowError
		if err != nil && (!errors.As(err, &fe) || !strings.Contains(err.Error(), "more private than its own") || !strings.Contains(err.Error(), "--allow-private-follow")) {
			t.Errorf("MayFollow(%s, %s): %v", c.from, c.to, err)
		}
	}
}

// listener is a loopback TCP service that counts its connections and
// what they sent: the user's own service a hostile server points to.
type listener struct {
	addr  string
	conns atomic.Int64
	mu    sync.Mutex
	got   []byte
}

func serveTarget(t *testing.T) *listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	l := &listener{addr: ln.Addr().String()}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			l.conns.Add(1)
			go func() {
				defer c.Close()
				b, _ := io.ReadAll(io.LimitReader(c, 4096))
				l.mu.Lock()
				l.got = append(l.got, b...)
				l.mu.Unlock()
			}()
		}
	}()
	return l
}

// wantFollowRefused checks err is the follow rule's refusal.
func wantFollowRefused(t *testing.T, what string, err error) {
	t.Helper()
	var re *RefusedError
	var fe *FollowError
	if !errors.As(err, &re) || !errors.As(err, &fe) || fe.ToClass != AddrLoopback || fe.FromClass != AddrPublic {
		t.Errorf("%s: %v, want the follow rule's refusal", what, err)
	}
}

// Issue 34, finding 2: every way a server can point a client elsewhere,
// from a server at a public address to a service on the user's own
// machine (a Redis-like listener on loopback). Each is refused by the
// follow rule before anything is sent there; the same pointing from a
// server on loopback itself, or with AllowPrivateFollow, is followed.
func TestHostileFollow(t *testing.T) {
	target := serveTarget(t)
	th, tp, _ := net.SplitHostPort(target.addr)

	// Prospero: an access method (Prospero protocol v5, ACCESS-METHOD
	// GOPHER host selector) and a FORWARDED answer (standard responses)
	// naming the loopback service.
	udpTarget := hostile.ServeUDP(t, hostile.ProsperoSilentUDP)
	uh, up, _ := net.SplitHostPort(udpTarget.Addr)
	d := &hostile.ProsperoDirectory{Size: 1250, Window: 16, Answer: func(req string) string {
		switch {
		case strings.Contains(req, "'/fwd'"):
			return "FORWARDED INTERNET-D " + uh + "(" + up + ") ASCII '/x' 0\n"
		case strings.Contains(req, "\nDIRECTORY "):
			return "FAILURE NOT-A-DIRECTORY\n"
		}
		return "ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE GOPHER INTERNET-D " + th + "(" + tp + ") ASCII 0SET_x_y\n"
	}}
	pros := hostile.ServeUDP(t, d.Handle)

	// HTTP: a redirect (RFC 9110 15.4) to the loopback service, under -L.
	redir := serveTCP(t, func(c net.Conn) {
		io.ReadAll(io.LimitReader(c, 1)) // a byte of the request
		fmt.Fprintf(c, "HTTP/1.0 302 Found\r\nLocation: http://%s/SET_x_y\r\nContent-Length: 0\r\n\r\n", target.addr)
	})

	for _, c := range []struct {
		name, url string
		opts      Options
	}{
		{"prospero access method", "prospero://" + hostile.Public(pros.Addr) + "//file", Options{}},
		{"prospero FORWARDED", "prospero://" + hostile.Public(pros.Addr) + "//fwd", Options{}},
		{"http redirect", "http://" + hostile.Public(redir) + "/", Options{FollowRedirects: true}},
	} {
		pd := &hostile.PublicDial{}
		c.opts.Dial = pd.Dial
		before, beforeUDP := target.conns.Load(), udpTarget.Requests.Load()
		_, _, err := get(t, c.url, scheme.Config{}, &c.opts)
		wantFollowRefused(t, c.name, err)
		if n, m := target.conns.Load()-before, udpTarget.Requests.Load()-beforeUDP; n != 0 || m != 0 {
			t.Errorf("%s: the loopback service got %d connections and %d datagrams", c.name, n, m)
		}
		t.Logf("%s: %v (dialled %s)", c.name, err, pd.String())

		// The same server on loopback: the user chose loopback already.
		loop := strings.Replace(c.url, hostile.PublicHost, "127.0.0.1", 1)
		_, _, err = get(t, loop, scheme.Config{}, &Options{FollowRedirects: c.opts.FollowRedirects, ReadTimeout: 300e6})
		if errors.As(err, new(*FollowError)) {
			t.Errorf("%s from loopback: %v", c.name, err)
		}
		// Allowed by the option: followed.
		c.opts.AllowPrivateFollow = true
		c.opts.ReadTimeout = 300e6
		_, _, err = get(t, c.url, scheme.Config{}, &c.opts)
		if errors.As(err, new(*FollowError)) {
			t.Errorf("%s with AllowPrivateFollow: %v", c.name, err)
		}
	}
	if target.conns.Load() == 0 {
		t.Errorf("the loopback service was never reached, even when allowed: the test proves nothing")
	}
}

// serveTCP runs handle for each connection to a loopback listener.
func serveTCP(t *testing.T, handle func(net.Conn)) string {
	return hostile.Serve(t, handle).Addr
}

// FTP passive replies (RFC 959 4.1.2 PASV, RFC 2428 EPSV): the address a
// PASV reply names is never dialled; the data connection goes to the
// control connection's peer, so a public server cannot point it at
// loopback (the follow rule holds it to the server's address too).
func TestHostileFollowFTPPassive(t *testing.T) {
	f := &hostile.FTP{Files: map[string][]byte{"f": []byte("data\n")}, NoEPSV: true, PASVHost: "127.0.0.1"}
	s := hostile.Serve(t, f.Serve)
	pd := &hostile.PublicDial{}
	b, r, err := get(t, "ftp://"+hostile.Public(s.Addr)+"/f;type=i", scheme.Config{}, &Options{Dial: pd.Dial})
	if err != nil || string(b) != "data\n" {
		t.Fatalf("%q %v", b, err)
	}
	for _, d := range strings.Fields(strings.Trim(pd.String(), "[]")) {
		if strings.HasPrefix(d, "127.") {
			t.Errorf("dialled %s, the PASV reply's host", d)
		}
	}
	if r.ServerAddr.String() != hostile.PublicHost {
		t.Errorf("ServerAddr %v", r.ServerAddr)
	}
}

// A crawler following a link (a gopher menu item, a WAIS hit, an
// href) found in a public server's page: Options.Origin set to the page's
// Resource.ServerAddr holds the first connection to the rule too.
func TestFollowOrigin(t *testing.T) {
	g, err := fakeservers.Gopher(map[string][]byte{"0/doc": []byte("hello\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	pd := &hostile.PublicDial{}
	_, r, err := get(t, "gopher://"+hostile.Public(g.Addr())+"/00/doc", scheme.Config{}, &Options{Dial: pd.Dial})
	if err != nil || r.ServerAddr != netip.MustParseAddr(hostile.PublicHost) {
		t.Fatalf("%v, ServerAddr %v", err, r)
	}
	// A link from that page to the loopback server: refused.
	_, _, err = get(t, "gopher://"+g.Addr()+"/00/doc", scheme.Config{}, &Options{Origin: r.ServerAddr})
	wantFollowRefused(t, "gopher link", err)
	// From a loopback page: followed.
	b, r2, err := get(t, "gopher://"+g.Addr()+"/00/doc", scheme.Config{}, &Options{Origin: netip.MustParseAddr("127.0.0.1")})
	if err != nil || string(b) != "hello\n" || r2.ServerAddr.String() != "127.0.0.1" {
		t.Errorf("from loopback: %q %v", b, err)
	}
}

// WAIS hits (RFC 1625; the document's URL of RFC 1738 3.9): a hit's URL
// is the searched server's, its DocumentID escaped into the path, so a
// server cannot point a hit at another host, whatever the DocumentID
// holds.
func TestWAISHitsStayOnServer(t *testing.T) {
	p := planFor(t, "wais://"+hostile.PublicHost+":210/db?x", scheme.Config{}).(*scheme.WAISPlan)
	var b strings.Builder
	ids := []string{"//127.0.0.1:6379/x", "@127.0.0.1:6379", "0 127.0.0.1 6379 /x", "../../127.0.0.1/", "\x00\xff?#"}
	var hits []waisHeader
	for _, id := range ids {
		hits = append(hits, waisHeader{DocID: []byte(id), Length: -1, Lines: -1, Types: []string{"TEXT"}})
	}
	writeWAISHits(&b, p, scheme.WAISSearchAPDU{Database: "db", SeedWords: "x"}, hits, nil)
	got, _, err := ReadWAISHits(strings.NewReader(b.String()))
	if err != nil || len(got) != len(ids) {
		t.Fatalf("%v %d hits", err, len(got))
	}
	for i, h := range got {
		u, err := urlkit.Parse(h.URL)
		if port, _ := u.Port(); err != nil || u.Host() != hostile.PublicHost || port != 210 {
			t.Errorf("DocumentID %q: hit %s (%v)", ids[i], h.URL, err)
		}
	}
}

// A kept FTP session (Options.FTPSessions) is held to the follow rule as
// a new connection is: a link from a public page to an ftp server on
// loopback is refused even when a session to that server is kept from an
// earlier retrieval, and the session stays kept for others.
func TestFollowKeptSession(t *testing.T) {
	f := &hostile.FTP{Files: map[string][]byte{"f": []byte("data\n")}}
	s := hostile.Serve(t, f.Serve)
	pool := &FTPSessions{}
	defer pool.Close()
	in := "ftp://" + s.Addr + "/f;type=i"
	if b, _, err := get(t, in, scheme.Config{}, &Options{FTPSessions: pool}); err != nil || string(b) != "data\n" || pool.Len() != 1 {
		t.Fatalf("%q %v, %d kept", b, err, pool.Len())
	}
	_, _, err := get(t, in, scheme.Config{}, &Options{FTPSessions: pool, Origin: netip.MustParseAddr(hostile.PublicHost)})
	wantFollowRefused(t, "kept session", err)
	if pool.Len() != 1 {
		t.Errorf("%d sessions kept after the refusal, want 1", pool.Len())
	}
	if b, _, err := get(t, in, scheme.Config{}, &Options{FTPSessions: pool}); err != nil || string(b) != "data\n" {
		t.Errorf("the kept session afterwards: %q %v", b, err)
	}
}

// Properties of the follow rule over random addresses (IPv4, and IPv6
// around the special blocks): a server may always point to itself and to
// any public address; what it may not reach is never public; and the
// rule is an order: if a may point to b and b to c, a may point to c.
func TestMayFollowProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 2))
	prefixes := []string{"0.0.0.0/0", "127.0.0.0/8", "10.0.0.0/8", "169.254.0.0/16", "100.64.0.0/10", "::/0", "fc00::/7", "fe80::/10", "2001:db8::/32", "64:ff9b::/96", "::ffff:0:0/96"}
	random := func() netip.Addr {
		p := netip.MustParsePrefix(prefixes[rng.IntN(len(prefixes))])
		b := p.Addr().AsSlice()
		for i := range b {
			keep := min(8, max(0, p.Bits()-8*i)) // bits of this byte fixed by the prefix
			mask := byte(0xff) << (8 - keep)
			b[i] = b[i]&mask | byte(rng.IntN(256))&^mask
		}
		a, _ := netip.AddrFromSlice(b)
		return a
	}
	for n := 0; n < 20000; n++ {
		a, b, c := random(), random(), random()
		if err := MayFollow(a, a); err != nil {
			t.Fatalf("%s may not point to itself: %v", a, err)
		}
		if cl, _ := ClassifyAddr(b); cl == AddrPublic && MayFollow(a, b) != nil {
			t.Fatalf("%s may not point to the public %s", a, b)
		}
		if MayFollow(a, b) != nil {
			if cl, _ := ClassifyAddr(b); cl == AddrPublic {
				t.Fatalf("refused a public %s", b)
			}
		}
		if MayFollow(a, b) == nil && MayFollow(b, c) == nil && MayFollow(a, c) != nil {
			t.Fatalf("%s -> %s -> %s allowed step by step, %s -> %s refused", a, b, c, a, c)
		}
	}
}
