package access

import (
	"context"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

// The tests in this file connect to IPv6 literal hosts ([::1], the
// extended syntax of urlkit.ParseExtended): the vsftpd and gophernicus
// that .ci/servers.sh also starts on [::1], and Go's HTTP server on
// [::1].

// planExt plans a URL of the extended syntax.
func planExt(t *testing.T, in string, cfg scheme.Config) scheme.Plan {
	t.Helper()
	return planParsed(t, urlkit.ParseExtended, in, cfg)
}

// vsftpdCommands matches the commands vsftpd logs, with the client's
// address.
var vsftpdCommands = regexp.MustCompile(`FTP command: Client "([^"]*)", "([^"]*)"`)

// RFC 1738 3.2 over IPv6: vsftpd on [::1] receives the plan's commands,
// from the client ::1, and the file comes back whole; the data connection
// goes to the control connection's address (EPSV, RFC 2428).
func TestFTPRealIPv6(t *testing.T) {
	env := realServer(t, "URLKIT_FTP6_ADDR")
	addr := env["URLKIT_FTP6_ADDR"]
	if !strings.HasPrefix(addr, "[::1]:") {
		t.Fatalf("URLKIT_FTP6_ADDR=%q", addr)
	}
	p := planExt(t, "ftp://"+addr+"/pub/hello.txt", scheme.Config{Email: "v6@example.org"}).(*scheme.FTPPlan)
	if p.Addr != addr {
		t.Fatalf("plan connects to %q", p.Addr)
	}
	log := vsftpdLog(t, env["URLKIT_FTP6_LOG"])
	r, err := Execute(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(readAllClose(t, r)), string(readFile(t, env["URLKIT_CONTENT_TEXT"])); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	var wire []string
	for _, m := range vsftpdCommands.FindAllStringSubmatch(log(), -1) {
		if m[1] != "::1" {
			t.Errorf("vsftpd saw client %q, want ::1", m[1])
		}
		wire = append(wire, m[2])
	}
	var plan []string
	for _, c := range p.Commands {
		if c.Verb == scheme.FTPPass {
			plan = append(plan, "PASS <password>") // as vsftpd logs it
			continue
		}
		plan = append(plan, c.Line())
	}
	if strings.Join(wire, "\n") != strings.Join(plan, "\n") {
		t.Errorf("vsftpd on [::1] received\n%q\nplan says\n%q", wire, plan)
	}
}

// RFC 1738 3.4 over IPv6: gophernicus on [::1] serves the item, and its
// menu names its own items by the address "::1", which become gopher URLs
// with an IPv6 literal host that can be fetched in turn.
func TestGopherRealIPv6(t *testing.T) {
	env := realServer(t, "URLKIT_GOPHER6_ADDR")
	addr := env["URLKIT_GOPHER6_ADDR"]
	r, err := Execute(context.Background(), planExt(t, "gopher://"+addr+"/0/hello.txt", scheme.Config{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(readAllClose(t, r)); !strings.HasPrefix(got, "Hello from urlkit.") {
		t.Errorf("hello.txt: %q", got)
	}
	r, err = Execute(context.Background(), planExt(t, "gopher://"+addr+"/1", scheme.Config{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	mr := NewMenuReader(r, 0)
	var own []string
	for {
		it, err := mr.Next()
		if err != nil {
			break
		}
		if it.Host == "::1" {
			u, err := it.URL()
			if err != nil {
				t.Errorf("item %q on ::1: %v", it.Display, err)
				continue
			}
			own = append(own, u)
		}
	}
	if len(own) < 3 || !strings.HasPrefix(own[0], "gopher://"+addr+"/") {
		t.Fatalf("items on ::1: %q", own)
	}
	for _, u := range own {
		if strings.Contains(u, "/1") || strings.Contains(u, "/7") {
			continue
		}
		r, err := Execute(context.Background(), planExt(t, u, scheme.Config{}), nil)
		if err != nil {
			t.Errorf("%s: %v", u, err)
			continue
		}
		readAllClose(t, r)
	}
}

// HTTP over IPv6 against Go's HTTP server on [::1]: the Host field names
// the literal, a login of the extended syntax arrives as Basic
// credentials (RFC 7617), and a relative redirect is resolved as browsers
// resolve it (RFC 3986 5.2: "?q=1" keeps the path) against the IPv6 base.
// The plans a redirect makes come from the resolved URL alone.
func TestHTTPIPv6(t *testing.T) {
	ln, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback: %v", err)
	}
	type seen struct{ host, uri, user, pass string }
	got := make(chan seen, 4)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, _ := r.BasicAuth()
		got <- seen{r.Host, r.RequestURI, user, pass}
		if r.URL.RawQuery == "" {
			w.Header().Set("Location", "?q=1")
			w.WriteHeader(http.StatusFound)
			return
		}
		w.Write([]byte("v6 body"))
	})}
	go srv.Serve(ln)
	defer srv.Close()
	addr := ln.Addr().String() // [::1]:port
	p := planExt(t, "http://us%20er:p%40ss@"+addr+"/a/b/c", scheme.Config{})
	r, err := Execute(context.Background(), p, &Options{FollowRedirects: true})
	if err != nil {
		t.Fatal(err)
	}
	if body := string(readAllClose(t, r)); body != "v6 body" {
		t.Errorf("body %q", body)
	}
	first, second := <-got, <-got
	want := seen{addr, "/a/b/c", "us er", "p@ss"}
	if first != want {
		t.Errorf("first request %+v, want %+v", first, want)
	}
	// The redirect's new plan is made from the resolved URL: a relative
	// Location keeps the base's authority, login included (RFC 3986
	// 5.2.2), as browsers and curl keep it for the same host.
	if second != (seen{addr, "/a/b/c?q=1", "us er", "p@ss"}) {
		t.Errorf("after the redirect %+v, want %s/a/b/c?q=1 with the same login", second, addr)
	}
}
