package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/lenient"
	"github.com/urlkit/urlkit/scheme"
)

// Rules T2-T4 and P1-P3 on the connection access is about to open.
func TestAllowConn(t *testing.T) {
	conn := func(proto, name, addr string) access.Connection {
		return access.Connection{Protocol: proto, Name: name, Addr: netip.MustParseAddrPort(addr)}
	}
	data := func(control, addr string) access.Connection {
		return access.Connection{Protocol: "ftp", Name: addr, Addr: netip.MustParseAddrPort(addr), Data: true, Control: control}
	}
	zero := Policy{}
	loop := Policy{AllowLoopback: true}
	lan := Policy{AllowPrivate: true}
	named := Policy{Allow: []string{"news.internal:119", "127.0.0.1:7070", "[::1]:7070", "FTP.LAN.:2121", "127.0.0.1:25"}}
	for _, c := range []struct {
		p          Policy
		publicOnly bool
		c          access.Connection
		rule       string // "" when allowed
	}{
		{zero, false, conn("gopher", "8.8.8.8:70", "8.8.8.8:70"), ""},
		{zero, false, conn("gopher", "host:7070", "8.8.8.8:7070"), ""},
		{zero, false, conn("gopher", "8.8.8.8:25", "8.8.8.8:25"), "P1"},
		{zero, false, conn("ftp", "8.8.8.8:21", "8.8.8.8:21"), ""},
		{zero, false, conn("gopher", "8.8.8.8:21", "8.8.8.8:21"), "P1"},
		{zero, false, conn("nntp", "8.8.8.8:119", "8.8.8.8:119"), ""},
		{zero, false, data("8.8.8.8:21", "8.8.8.8:40000"), ""},
		{zero, false, data("8.8.8.8:21", "8.8.8.8:25"), "P2"},
		{zero, false, data("8.8.8.8:21", "8.8.8.8:1023"), "P2"},
		{zero, false, data("8.8.8.8:21", "8.8.8.8:6667"), "P2"},
		{zero, false, conn("gopher", "127.0.0.1:70", "127.0.0.1:70"), "T2"},
		{zero, false, conn("gopher", "localhost:70", "127.0.0.1:70"), "T2"},
		{zero, false, conn("gopher", "h:70", "[::1]:70"), "T2"},
		{zero, false, conn("gopher", "h:70", "[::ffff:127.0.0.1]:70"), "T2"},
		{zero, false, conn("gopher", "h:6379", "10.0.0.5:6379"), "T2"},
		{zero, false, conn("gopher", "h:80", "169.254.169.254:80"), "T2"},
		{zero, false, conn("gopher", "h:70", "[64:ff9b::7f00:1]:70"), "T2"},
		{zero, false, conn("gopher", "h:70", "[2002:7f00:1::1]:70"), "T2"},
		{zero, false, conn("gopher", "h:70", "[fec0::1]:70"), "T2"},
		{zero, false, conn("gopher", "h:70", "[::127.0.0.1]:70"), "T2"},
		{zero, false, conn("gopher", "h:70", "198.18.0.1:70"), "T2"},
		{zero, false, conn("gopher", "h:70", "240.0.0.1:70"), "T2"},
		{zero, false, conn("gopher", "h:70", "255.255.255.255:70"), "T2"},
		{zero, false, conn("gopher", "h:70", "[64:ff9b::808:808]:70"), ""},
		{loop, false, conn("gopher", "127.0.0.1:70", "127.0.0.1:70"), ""},
		{loop, false, conn("gopher", "h:70", "[::ffff:127.0.0.1]:70"), ""},
		{loop, false, conn("gopher", "h:70", "[::1]:70"), ""},
		{loop, false, conn("nntp", "localhost:119", "127.0.0.1:119"), ""},
		{loop, false, conn("gopher", "127.0.0.1:6379", "127.0.0.1:6379"), "P3"},
		{loop, false, conn("gopher", "127.0.0.1:11211", "127.0.0.1:11211"), "P3"},
		{loop, false, conn("ftp", "127.0.0.1:70", "127.0.0.1:70"), "P3"},
		{loop, false, data("127.0.0.1:21", "127.0.0.1:40000"), ""},
		{loop, false, data("127.0.0.1:21", "127.0.0.1:25"), "P2"},
		{loop, false, conn("gopher", "h:70", "10.0.0.5:70"), "T2"},
		{loop, false, conn("gopher", "h:70", "[64:ff9b::7f00:1]:70"), "T2"},
		{loop, true, conn("gopher", "127.0.0.1:70", "127.0.0.1:70"), "O3"},
		{loop, true, conn("gopher", "8.8.8.8:70", "8.8.8.8:70"), ""},
		{lan, false, conn("gopher", "h:70", "192.168.1.5:70"), ""},
		{lan, false, conn("gopher", "h:70", "[fd00::5]:70"), ""},
		{lan, false, conn("gopher", "h:7070", "192.168.1.5:7070"), "P3"},
		{lan, false, conn("gopher", "h:70", "127.0.0.1:70"), "T2"},
		{lan, false, conn("gopher", "h:70", "100.64.0.1:70"), "T2"},
		{lan, false, conn("gopher", "h:80", "169.254.169.254:80"), "T2"},
		{named, false, conn("nntp", "news.internal:119", "10.0.0.5:119"), ""},
		{named, false, conn("nntp", "NEWS.internal.:119", "10.0.0.5:119"), ""},
		{named, false, conn("nntp", "news.internal:1119", "10.0.0.5:1119"), "T2"},
		{named, false, conn("nntp", "other:119", "10.0.0.5:119"), "T2"},
		{named, false, conn("gopher", "127.0.0.1:7070", "127.0.0.1:7070"), ""},
		{named, false, conn("gopher", "[0::1]:7070", "[::1]:7070"), ""},
		{named, false, conn("gopher", "localhost:7070", "127.0.0.1:7070"), "T2"},
		{named, false, conn("gopher", "127.0.0.1:25", "127.0.0.1:25"), "P1"},
		{named, false, conn("ftp", "ftp.lan:2121", "192.168.1.9:2121"), ""},
		{named, false, data("ftp.lan:2121", "192.168.1.9:40000"), ""},
		{named, false, data("ftp.lan:2121", "192.168.1.9:6000"), "P2"},
		{named, false, data("ftp.other:2121", "192.168.1.9:40000"), "T2"},
		{named, true, conn("nntp", "news.internal:119", "10.0.0.5:119"), "O3"},
		{named, true, data("ftp.lan:2121", "192.168.1.9:40000"), "O3"},
	} {
		pol, err := compile(c.p, "")
		if err != nil {
			t.Fatal(err)
		}
		err = pol.allowConn(c.c, c.publicOnly)
		var pe *PolicyError
		switch {
		case c.rule == "" && err != nil:
			t.Errorf("%+v (publicOnly %v): refused: %v", c.c, c.publicOnly, err)
		case c.rule != "" && (!errors.As(err, &pe) || pe.Rule != c.rule):
			t.Errorf("%+v (publicOnly %v): %v, want rule %s", c.c, c.publicOnly, err, c.rule)
		}
	}
	// The configured news server is always reachable (the gateway's own).
	pol, _ := compile(Policy{}, "news.internal")
	if err := pol.allowConn(conn("nntp", "news.internal:119", "10.0.0.5:119"), false); err != nil {
		t.Errorf("the news server: %v", err)
	}
	if err := (Policy{Allow: []string{"no-port"}}).Check(); err == nil {
		t.Error("an Allow entry without a port passes Check")
	}
	// New keeps the well-formed entries of a policy with a bad one.
	g := New(Config{Policy: Policy{Allow: []string{"no-port", "127.0.0.1:7070"}}})
	if err := g.pol.allowConn(conn("gopher", "127.0.0.1:7070", "127.0.0.1:7070"), false); err != nil {
		t.Errorf("the good entry beside a bad one: %v", err)
	}
}

// The zero Config reaches no loopback address, by its address or by a
// name, and opens no connection to find out: the refusal comes before
// connect(2).
func TestZeroConfigRefusesLoopback(t *testing.T) {
	up := hostile.Serve(t, hostile.GopherReply("0x\tx\th\t70\r\n.\r\n"))
	_, port, _ := net.SplitHostPort(up.Addr)
	base := serve(t, New(Config{}))
	for _, target := range []string{
		"/gopher://" + up.Addr + "/1",
		"/gopher://localhost:" + port + "/1",
		"gopher://" + up.Addr + "/1",
	} {
		resp, body := raw(t, base, "GET", target)
		if resp.StatusCode != 403 || !strings.Contains(body, "(T2)") {
			t.Errorf("%s: %d %q, want 403 (T2)", target, resp.StatusCode, body)
		}
	}
	if n := up.Accepted(); n != 0 {
		t.Errorf("the loopback server accepted %d connections", n)
	}
	// Named, the same server is reached.
	base = serve(t, New(allow(up.Addr)))
	if resp, body := raw(t, base, "GET", "/gopher://"+up.Addr+"/1"); resp.StatusCode != 200 || up.Accepted() != 1 {
		t.Errorf("allowed: %d %q, %d connections", resp.StatusCode, body, up.Accepted())
	}
}

// Rule P2: a passive reply naming another service's port makes no data
// connection, even to an ftp server the policy allows.
func TestDataConnectionPort(t *testing.T) {
	// A listener on a port of the bad list (x11, irc, amanda; unprivileged,
	// so a test can listen there): nothing may connect to it.
	var bait *hostile.Server
	var baitPort int
	for _, p := range []int{6667, 6666, 6668, 6669, 6000, 10080, 4190} {
		if s, err := hostile.Start(p, func(c net.Conn) {}); err == nil {
			bait, baitPort = s, p
			t.Cleanup(s.Close)
			break
		}
	}
	if bait == nil {
		t.Skip("no port of the bad list is free on 127.0.0.1")
	}
	for _, noEPSV := range []bool{false, true} {
		f := &hostile.FTP{Files: map[string][]byte{"f": []byte("file")}, PassivePort: baitPort, NoEPSV: noEPSV}
		srv := hostile.Serve(t, f.Serve)
		base := serve(t, New(allow(srv.Addr)))
		resp, body := raw(t, base, "GET", "/ftp://"+srv.Addr+"/f")
		if resp.StatusCode != 403 || !strings.Contains(body, "(P2)") || !strings.Contains(body, fmt.Sprint(baitPort)) {
			t.Errorf("EPSV refused %v: %d %q, want 403 (P2)", noEPSV, resp.StatusCode, body)
		}
	}
	if n := bait.Accepted(); n != 0 {
		t.Errorf("the data connection reached port %d (%d connections)", baitPort, n)
	}
	// The same server naming its real data port is served.
	f := &hostile.FTP{Files: map[string][]byte{"f": []byte("file")}}
	srv := hostile.Serve(t, f.Serve)
	base := serve(t, New(allow(srv.Addr)))
	if resp, body := raw(t, base, "GET", "/ftp://"+srv.Addr+"/f"); resp.StatusCode != 200 || body != "file" {
		t.Errorf("ftp: %d %q", resp.StatusCode, body)
	}
}

// send sends a path-form or proxy-form request with the given header
// lines (the Host line included) and returns the status and body.
func send(t *testing.T, base, target string, header ...string) (int, string) {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	req := "GET " + target + " HTTP/1.1\r\n" + strings.Join(header, "\r\n") + "\r\nConnection: close\r\n\r\n"
	if _, err := c.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(newReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp.StatusCode, b.String()
}

// Rules O1-O3: a request must name the gateway (Host), and one a browser
// marks as made for another site is refused before anything is dialled,
// except a top-level navigation, which reaches public targets only.
// Requests without such headers (curl, lynx, urlkit get) are served.
func TestOriginRules(t *testing.T) {
	up := hostile.Serve(t, hostile.GopherReply("text"))
	cfg := allow(up.Addr)
	cfg.Policy.Hosts = []string{"gw.example", "other.example:8080"}
	base := serve(t, New(cfg))
	gw := strings.TrimPrefix(base, "http://")
	_, gwPort, _ := net.SplitHostPort(gw)
	target := "/gopher://" + up.Addr + "/0x"
	for _, c := range []struct {
		name   string
		status int
		header []string
	}{
		{"curl", 200, []string{"Host: " + gw}},
		{"localhost", 200, []string{"Host: localhost:" + gwPort}},
		{"a name given", 200, []string{"Host: GW.example:" + gwPort}},
		{"a name and port given", 200, []string{"Host: other.example:8080"}},
		{"that name, another port", 421, []string{"Host: other.example:" + gwPort}},
		{"DNS rebinding", 421, []string{"Host: evil.example:" + gwPort}},
		{"another port", 421, []string{"Host: 127.0.0.1:1"}},
		{"no port", 421, []string{"Host: 127.0.0.1"}},
		{"empty Host", 421, []string{"Host: "}},
		{"typed URL", 200, []string{"Host: " + gw, "Sec-Fetch-Site: none", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: document"}},
		{"own page's link", 200, []string{"Host: " + gw, "Sec-Fetch-Site: same-origin", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: document"}},
		{"img from another site", 403, []string{"Host: " + gw, "Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: no-cors", "Sec-Fetch-Dest: image"}},
		{"no-cors fetch from another site", 403, []string{"Host: " + gw, "Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: no-cors", "Sec-Fetch-Dest: empty"}},
		{"img from another port", 403, []string{"Host: " + gw, "Sec-Fetch-Site: same-site", "Sec-Fetch-Mode: no-cors", "Sec-Fetch-Dest: image"}},
		{"iframe from another site", 403, []string{"Host: " + gw, "Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: iframe"}},
		{"link from another site to a loopback target", 403, []string{"Host: " + gw, "Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: document"}},
		{"old browser, Origin", 403, []string{"Host: " + gw, "Origin: http://evil.example"}},
		{"old browser, own Origin", 200, []string{"Host: " + gw, "Origin: http://" + gw}},
		{"old browser, Referer", 403, []string{"Host: " + gw, "Referer: http://evil.example/page.html"}},
		{"old browser, own Referer", 200, []string{"Host: " + gw, "Referer: http://" + gw + "/gopher://h/1"}},
		{"old browser, a Referer naming no origin", 403, []string{"Host: " + gw, "Referer: about:blank"}},
	} {
		before := up.Accepted()
		status, body := send(t, base, target, c.header...)
		if status != c.status {
			t.Errorf("%s: %d %q, want %d", c.name, status, body, c.status)
		}
		dialled := up.Accepted() - before
		if c.status == 200 && dialled != 1 || c.status != 200 && dialled != 0 {
			t.Errorf("%s: %d connections upstream", c.name, dialled)
		}
	}
	// The proxy form names its target itself: Host does not apply (a
	// browser never sends it but to a configured proxy); the origin rules
	// do.
	if status, body := send(t, base, "gopher://"+up.Addr+"/0x", "Host: anything.example"); status != 200 {
		t.Errorf("proxy form: %d %q", status, body)
	}
	if status, _ := send(t, base, "gopher://"+up.Addr+"/0x", "Host: "+up.Addr, "Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: no-cors"); status != 403 {
		t.Errorf("proxy form, cross-site: %d", status)
	}
	// A cross-site navigation to the gateway's own pages is served: they
	// dial nothing (the form's redirect is checked when it is followed).
	nav := []string{"Host: " + gw, "Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: document"}
	if status, _ := send(t, base, "/", nav...); status != 200 {
		t.Errorf("root page, cross-site navigation: %d", status)
	}
	if status, _ := send(t, base, "/go?url=gopher://"+up.Addr+"/1", nav...); status != 303 {
		t.Errorf("/go, cross-site navigation: %d", status)
	}
}

// IPv6 targets: [::1] is refused by the zero policy before connecting,
// and reached when named (in any spelling of the address). The gateway's
// strict parser refuses IPv6 literals itself (400); the plan here comes
// from the lenient reading, as a client of the policy hook may make it.
func TestIPv6LoopbackTarget(t *testing.T) {
	ln, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback: %v", err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 10)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			go func() {
				defer c.Close()
				buf := make([]byte, 512)
				c.Read(buf)
				c.Write([]byte("ipv6 text"))
			}()
		}
	}()
	// The lenient reading gives IPv6 literals (issue 24); the plan's
	// address is [::1]:port, dialled through the policy's hook.
	addr := ln.Addr().String()
	u, _, err := lenient.Parse("gopher://" + addr + "/0x")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := scheme.PlanOf(u, scheme.Config{})
	if err != nil {
		t.Fatal(err)
	}
	fetch := func(p Policy) (string, error) {
		pol, _ := compile(p, "")
		r, err := access.Execute(context.Background(), plan, &access.Options{Policy: func(c access.Connection) error { return pol.allowConn(c, false) }})
		if err != nil {
			return "", err
		}
		defer r.Close()
		b, err := io.ReadAll(r)
		return string(b), err
	}
	_, err = fetch(Policy{})
	var pe *PolicyError
	if !errors.As(err, &pe) || pe.Rule != "T2" || !strings.Contains(err.Error(), "::1 is a loopback") {
		t.Errorf("zero policy: %v", err)
	}
	if len(accepted) != 0 {
		t.Errorf("the IPv6 loopback server accepted a connection")
	}
	if got, err := fetch(Policy{Allow: []string{addr}}); err != nil || got != "ipv6 text" || len(accepted) != 1 {
		t.Errorf("allowed: %q %v, %d connections", got, err, len(accepted))
	}
	if got, err := fetch(Policy{Allow: []string{"[0:0::1]:" + strings.TrimPrefix(addr[strings.LastIndex(addr, ":"):], ":")}}); err != nil || got != "ipv6 text" {
		t.Errorf("allowed as [0:0::1]: %q %v", got, err)
	}
}

// The follow rule (access.MayFollow) holds in the gateway too, beside
// its own policy: a server at a public address whose Prospero access
// method names a loopback service the policy allows (Allow) is not
// followed there (issue 34, finding 2).
func TestGatewayFollowRule(t *testing.T) {
	svc, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	go func() {
		for {
			c, err := svc.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("reached\r\n.\r\n"))
			c.Close()
		}
	}()
	sh, sp, _ := net.SplitHostPort(svc.Addr().String())
	d := &hostile.ProsperoDirectory{Size: 1250, Window: 16, Answer: func(req string) string {
		if strings.Contains(req, "\nDIRECTORY ") {
			return "FAILURE NOT-A-DIRECTORY\n"
		}
		return "ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE GOPHER INTERNET-D " + sh + "(" + sp + ") ASCII 0doc\n"
	}}
	pros := hostile.ServeUDP(t, d.Handle)
	g := New(Config{Policy: Policy{Allow: []string{svc.Addr().String()}}})
	pd := &hostile.PublicDial{}
	g.testDial = pd.Dial
	resp, body := raw(t, serve(t, g), "GET", "/prospero://"+hostile.Public(pros.Addr)+"//f")
	if resp.StatusCode != 403 || strings.Contains(body, "reached") || !strings.Contains(body, "more private than its own") {
		t.Errorf("%d %q (dialled %s)", resp.StatusCode, body, pd)
	}
	// From the service's own machine (a loopback Prospero server, allowed
	// by name too), the same access method is followed.
	g = New(Config{Policy: Policy{Allow: []string{svc.Addr().String(), pros.Addr}}})
	resp, body = raw(t, serve(t, g), "GET", "/prospero://"+pros.Addr+"//f")
	if resp.StatusCode != 200 || !strings.Contains(body, "reached") {
		t.Errorf("from loopback: %d %q", resp.StatusCode, body)
	}
}
