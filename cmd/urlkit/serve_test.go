package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/gateway"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
)

// urlkit get through urlkit's own gateway, configured the libwww way
// (gopher_proxy, ftp_proxy, no_proxy) and with --proxy.
func TestGetThroughGateway(t *testing.T) {
	gs, err := fakeservers.Gopher(map[string][]byte{"/doc": []byte("gopher text\r\n.\r\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	fs, err := fakeservers.FTP(map[string][]byte{"/pub/f.bin": {0, 1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	var requests []string
	// The upstreams are on loopback, on their own ports: named (--allow).
	g := gateway.New(gateway.Config{Policy: gateway.Policy{Allow: []string{gs.Addr(), fs.Addr()}}})
	defer g.Close()
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests = append(requests, r.RequestURI)
		g.ServeHTTP(w, r)
	}))
	defer gw.Close()

	env := map[string]string{"gopher_proxy": gw.URL, "ftp_proxy": gw.URL + "/"}
	out, errOut, code := runGetEnv(t, env, "", "get", "gopher://"+gs.Addr()+"/0/doc#frag")
	if code != exitOK || out != "gopher text\r\n" {
		t.Errorf("gopher_proxy: %d %q %q", code, out, errOut)
	}
	out, errOut, code = runGetEnv(t, env, "", "get", "ftp://"+fs.Addr()+"/pub/f.bin")
	if code != exitOK || out != "\x00\x01\x02\x03" {
		t.Errorf("ftp_proxy: %d %q %q", code, out, errOut)
	}
	want := []string{"gopher://" + gs.Addr() + "/0/doc", "ftp://" + fs.Addr() + "/pub/f.bin"}
	if strings.Join(requests, " ") != strings.Join(want, " ") {
		t.Errorf("the gateway received %q, want %q", requests, want)
	}
	// no_proxy: fetched directly, the gateway sees nothing.
	requests = nil
	env["no_proxy"] = "127.0.0.1"
	out, _, code = runGetEnv(t, env, "", "get", "gopher://"+gs.Addr()+"/0/doc")
	if code != exitOK || out != "gopher text\r\n" || len(requests) != 0 {
		t.Errorf("no_proxy: %d %q, gateway saw %q", code, out, requests)
	}
	// --proxy, and the gateway's refusal reported with its status.
	_, errOut, code = runGetEnv(t, nil, "", "get", "--proxy", gw.URL, "gopher://127.0.0.1:25/0x")
	if code == exitOK || !strings.Contains(errOut, "403") {
		t.Errorf("--proxy refusal: %d %q", code, errOut)
	}
}

// RFC 1738 4: with wais_proxy or prospero_proxy set, wais and prospero
// URLs are retrieved through the gateway.
func TestGetWaisThroughGateway(t *testing.T) {
	var got string
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.RequestURI
		w.Write([]byte("wais answer for " + r.RequestURI))
	}))
	defer gw.Close()
	for _, c := range []struct{ env, url string }{
		{"wais_proxy", "wais://wais.example/db?query"},
		{"prospero_proxy", "prospero://pros.example/path;type=a"},
	} {
		out, errOut, code := runGetEnv(t, map[string]string{c.env: gw.URL}, "", "get", c.url)
		if code != exitOK || got != c.url || out != "wais answer for "+c.url {
			t.Errorf("%s: %d %q %q (gateway got %q)", c.env, code, out, errOut, got)
		}
	}
}

// Issue 36 item 4: get --proxy gives what get gives for listings (a
// gopher menu, an ftp directory, with and without --ftp-details): the
// gateway answers a client that asks for access.ListingType with the
// listing itself rather than its page. Files are the same bytes either
// way.
func TestGetProxyListings(t *testing.T) {
	gs, err := fakeservers.Gopher(map[string][]byte{
		"/m":   []byte("iHello\t\terror.host\t1\r\n0A file\t/f.txt\th.example\t70\r\n1A menu\t/sub\th.example\t7070\r\n.\r\n"),
		"/f":   []byte("plain text\r\n.\r\n"),
		"/bad": []byte("3No such thing\t\terror.host\t1\r\n.\r\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	fs, err := fakeservers.FTP(map[string][]byte{"/pub/a.txt": []byte("a\n"), "/pub/d/b.bin": {1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	g := gateway.New(gateway.Config{Policy: gateway.Policy{Allow: []string{gs.Addr(), fs.Addr()}}})
	defer g.Close()
	gw := httptest.NewServer(g)
	defer gw.Close()
	for _, args := range [][]string{
		{"gopher://" + gs.Addr() + "/1/m"},
		{"gopher://" + gs.Addr() + "/0/f"},
		{"gopher://" + gs.Addr() + "/1/bad"},
		{"ftp://" + fs.Addr() + "/pub/"},
		{"--ftp-details", "ftp://" + fs.Addr() + "/pub/"},
		{"ftp://" + fs.Addr() + "/pub/a.txt"},
	} {
		direct, derr, dcode := runGetEnv(t, nil, "", append([]string{"get", "-s"}, args...)...)
		via, verr, vcode := runGetEnv(t, nil, "", append([]string{"get", "-s", "--proxy", gw.URL}, args...)...)
		if direct != via || dcode != vcode || direct == "" {
			t.Errorf("%q:\ndirect %d %q %q\n   via %d %q %q", args, dcode, direct, derr, vcode, via, verr)
		}
	}
}
