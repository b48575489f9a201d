package access

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// The libwww convention (lynx, curl, wget): <scheme>_proxy and no_proxy.
func TestProxyFor(t *testing.T) {
	env := map[string]string{
		"gopher_proxy": "http://gw.example:8070/",
		"ftp_proxy":    "gw.example:8071",
		"WAIS_PROXY":   "http://wais-gw.example/",
		"HTTP_PROXY":   "http://never.example/", // httpoxy: ignored
		"news_proxy":   "http://gw.example:8070",
		"no_proxy":     "local.example, .internal.example,ported.example:7070",
	}
	getenv := func(k string) string { return env[k] }
	for _, c := range []struct {
		settings   ProxySettings
		url, host  string
		port, want string
	}{
		{ProxySettings{Getenv: getenv}, "gopher://h.example/1/", "h.example", "70", "http://gw.example:8070/"},
		{ProxySettings{Getenv: getenv}, "ftp://h.example/f", "h.example", "21", "http://gw.example:8071/"},
		{ProxySettings{Getenv: getenv}, "wais://h.example/db", "h.example", "210", "http://wais-gw.example:80/"},
		{ProxySettings{Getenv: getenv}, "http://h.example/", "h.example", "80", ""},
		{ProxySettings{Getenv: getenv}, "nntp://h.example/g", "h.example", "119", ""},
		{ProxySettings{Getenv: getenv}, "news:comp.lang.go", "", "", "http://gw.example:8070/"},
		{ProxySettings{Getenv: getenv}, "gopher://local.example/", "local.example", "70", ""},
		{ProxySettings{Getenv: getenv}, "gopher://LOCAL.example/", "LOCAL.example", "70", ""},
		{ProxySettings{Getenv: getenv}, "gopher://a.internal.example/", "a.internal.example", "70", ""},
		{ProxySettings{Getenv: getenv}, "gopher://internal.example/", "internal.example", "70", ""},
		{ProxySettings{Getenv: getenv}, "gopher://xinternal.example/", "xinternal.example", "70", "http://gw.example:8070/"},
		{ProxySettings{Getenv: getenv}, "gopher://ported.example:7070/", "ported.example", "7070", ""},
		{ProxySettings{Getenv: getenv}, "gopher://ported.example/", "ported.example", "70", "http://gw.example:8070/"},
		{ProxySettings{Proxy: "http://cli.example:1/", Getenv: getenv}, "http://h.example/", "h.example", "80", "http://cli.example:1/"},
		{ProxySettings{Proxy: "http://cli.example:1/", Getenv: getenv}, "gopher://local.example/", "local.example", "70", ""},
		{ProxySettings{Proxy: "http://cli.example:1/"}, "file:///etc/passwd", "", "", ""},
		{ProxySettings{Proxy: "http://cli.example:1/"}, "mailto:a@b.example", "", "", ""},
		{ProxySettings{Proxy: "http://cli.example:1/"}, "telnet://h.example/", "h.example", "23", ""},
		{ProxySettings{Proxy: "http://cli.example:1/", Getenv: func(k string) string {
			if k == "no_proxy" {
				return "*"
			}
			return ""
		}}, "gopher://h.example/", "h.example", "70", ""},
	} {
		u, err := urlkit.Parse(c.url)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.settings.ProxyFor(u, c.host, c.port)
		if err != nil || got != c.want {
			t.Errorf("%+v %s: %q %v, want %q", c.settings.Proxy, c.url, got, err, c.want)
		}
	}
	u, _ := urlkit.Parse("gopher://h/")
	if _, err := (ProxySettings{Proxy: "socks5://h:1080"}).ProxyFor(u, "h", "70"); err == nil {
		t.Error("a socks proxy was accepted")
	}
	// https through a GET to an http gateway would travel in clear.
	u, _ = urlkit.Parse("https://h.example/")
	if _, err := (ProxySettings{Proxy: "http://gw:1/"}).ProxyFor(u, "h.example", "443"); err == nil {
		t.Error("https sent through a gateway")
	}
	if got, err := (ProxySettings{Proxy: "http://gw:1/", Getenv: func(k string) string {
		if k == "no_proxy" {
			return "h.example"
		}
		return ""
	}}).ProxyFor(u, "h.example", "443"); err != nil || got != "" {
		t.Errorf("https with no_proxy: %q %v", got, err)
	}
}

// fakeGateway answers one request with answer and records the request.
func fakeGateway(t *testing.T, answer string) (string, chan string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	got := make(chan string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		req, err := http.ReadRequest(bufio.NewReader(c))
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		got <- req.Method + " " + req.RequestURI + " " + req.Proto
		io.WriteString(c, answer)
	}()
	return "http://" + ln.Addr().String() + "/", got
}

// RFC 1630, HTTP: the entire URI goes on the request line to the gateway;
// the fragment is the client's business and is not sent.
func TestFetchViaProxy(t *testing.T) {
	gw, got := fakeGateway(t, "HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhello")
	u, _ := urlkit.Parse("wais://wais.example:210/db?query#frag")
	var trace strings.Builder
	rc, err := FetchViaProxy(context.Background(), gw, u, &Options{Trace: &trace})
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || string(b) != "hello" {
		t.Fatalf("%q %v", b, err)
	}
	if line := <-got; line != "GET wais://wais.example:210/db?query HTTP/1.0" {
		t.Errorf("request line %q", line)
	}

	gw, _ = fakeGateway(t, "HTTP/1.0 502 Bad Gateway\r\n\r\nurlkit gateway: 502: ftp: RETR x: 550 \x1b[31mno\r\n")
	u, _ = urlkit.Parse("ftp://joe:secret@h.example/x")
	trace.Reset()
	_, err = FetchViaProxy(context.Background(), gw, u, &Options{Trace: &trace})
	var ge *GatewayError
	if !errors.As(err, &ge) || ge.Status != "502 Bad Gateway" || strings.ContainsRune(err.Error(), 0x1b) || !strings.Contains(err.Error(), "550") {
		t.Errorf("error answer: %v", err)
	}
	if strings.Contains(trace.String(), "secret") || !strings.Contains(trace.String(), "joe:xxxxx@") {
		t.Errorf("trace: %q", trace.String())
	}

	// A transfer cut short is an error, and MaxSize holds.
	gw, _ = fakeGateway(t, "HTTP/1.0 200 OK\r\nContent-Length: 10\r\n\r\nabc")
	rc, err = FetchViaProxy(context.Background(), gw, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(rc); err == nil {
		t.Error("short transfer accepted")
	}
	rc.Close()
	gw, _ = fakeGateway(t, "HTTP/1.0 200 OK\r\n\r\n"+strings.Repeat("z", 5000))
	rc, err = FetchViaProxy(context.Background(), gw, u, &Options{MaxSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	b, err = io.ReadAll(rc)
	if !errors.Is(err, ErrLimit) || len(b) != 100 {
		t.Errorf("size limit: %d bytes, %v", len(b), err)
	}
	rc.Close()
}
