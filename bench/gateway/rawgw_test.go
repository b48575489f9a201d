package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
)

// The raw gateway reads a request's line and header as RFC 7230 section 3
// frames them (request line, header fields, an empty line), a GET without
// a body only, and keeps the connection unless HTTP/1.0 or "Connection:
// close" says otherwise (section 6.3).
func TestReadRawRequest(t *testing.T) {
	for _, c := range []struct {
		in, target string
		closing    bool
		err        string
	}{
		{in: "GET gopher://h:70/9/d HTTP/1.1\r\nHost: h:70\r\nUser-Agent: x\r\n\r\n", target: "gopher://h:70/9/d"},
		{in: "GET /gopher://h:70/1/m HTTP/1.1\r\nHost: p\r\n\r\n", target: "/gopher://h:70/1/m"},
		{in: "GET /x HTTP/1.1\nhost: p\n\n", target: "/x"}, // bare LF ends lines too (section 3.5)
		{in: "GET /x HTTP/1.1\r\nConnection: Close\r\n\r\n", target: "/x", closing: true},
		{in: "GET /x HTTP/1.0\r\n\r\n", target: "/x", closing: true},
		{in: "GET /x HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", target: "/x"},
		{in: "GET /x HTTP/1.1\r\nContent-Length: 0\r\n\r\n", target: "/x"},
		{in: "", err: "EOF"},
		{in: "POST /x HTTP/1.1\r\n\r\n", err: "only GET"},
		{in: "GET /x\r\n\r\n", err: "not METHOD TARGET VERSION"},
		{in: "GET  HTTP/1.1\r\n\r\n", err: "not METHOD TARGET VERSION"},
		{in: "GET /x HTTP/2.0\r\n\r\n", err: "only HTTP/1.1"},
		{in: "GET /x HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello", err: "with a body"},
		{in: "GET /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", err: "with a body"},
		{in: "GET /x HTTP/1.1\r\nNo colon here\r\n\r\n", err: "no colon"},
		{in: "GET /x HTTP/1.1\r\nHost: p\r\n", err: "unexpected EOF"},
		{in: "GET /x HTT", err: "unexpected EOF"},
		{in: "GET /x HTTP/1.1\r\nX: " + strings.Repeat("a", 5000) + "\r\n\r\n", err: "longer than"},
		{in: "GET /x HTTP/1.1\r\n" + strings.Repeat("X: "+strings.Repeat("a", 1000)+"\r\n", 9) + "\r\n", err: "longer than"},
	} {
		target, closing, err := readRawRequest(bufio.NewReaderSize(strings.NewReader(c.in), 4096))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%.40q: target %q, error %v; want an error saying %q", c.in, target, err, c.err)
			}
			continue
		}
		if err != nil || target != c.target || closing != c.closing {
			t.Errorf("%.40q: %q, closing %v, %v; want %q, closing %v", c.in, target, closing, err, c.target, c.closing)
		}
	}
	// Pipelined requests are read in turn, then the clean end.
	br := bufio.NewReader(strings.NewReader("GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\n\r\n"))
	for _, want := range []string{"/a", "/b"} {
		if got, _, err := readRawRequest(br); got != want || err != nil {
			t.Errorf("pipelined: %q, %v; want %q", got, err, want)
		}
	}
	if _, _, err := readRawRequest(br); err != io.EOF {
		t.Errorf("after the last request: %v, want io.EOF", err)
	}
}

// A response is the status line, the type, the length and the body, in
// one piece (RFC 7230 section 3.3.2).
func TestAppendRawResponse(t *testing.T) {
	got := string(appendRawResponse([]byte("old"), "text/plain", []byte("hello"), false))
	if want := "oldHTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got = string(appendRawResponse(nil, "a/b", nil, true))
	if want := "HTTP/1.1 200 OK\r\nContent-Type: a/b\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// countingListener counts the connections it accepts.
type countingListener struct {
	net.Listener
	n atomic.Int32
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

// The raw gateway, on its own server and on net/http's, relays a document
// as fetched and answers a menu with the page it was given, both asked as
// urlkit serve is (absolute and path form) over one keep-alive
// connection, and fetches from no server but the benchmark's.
func TestRawGatewayServes(t *testing.T) {
	doc := []byte(strings.Repeat("0123456789abcdef\n", 120))
	srv, err := fakeservers.Gopher(map[string][]byte{"/d": doc, "/menu": fakeservers.LongMenu(3), "/big": make([]byte, rawMaxBody+1)})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	other, err := fakeservers.Gopher(map[string][]byte{"/d": doc})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	page := []byte("<!doctype html><p>the page</p></html>\n")
	pageFile := t.TempDir() + "/page.html"
	os.WriteFile(pageFile, page, 0o644)
	g, err := newRawGateway(" "+strings.ToUpper(srv.Addr())+" ,", pageFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []struct {
		name  string
		serve func(net.Listener) error
	}{{"raw", g.serve}, {"net/http", g.serveHTTP}} {
		ln0, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ln := &countingListener{Listener: ln0}
		defer ln.Close()
		go mode.serve(ln)
		addr := ln.Addr().String()
		c := &client{}
		defer c.close()
		for i := 0; i < 3; i++ {
			if err := c.get(addr, "gopher://"+srv.Addr()+"/9/d", doc); err != nil {
				t.Fatalf("%s: document, request %d: %v", mode.name, i, err)
			}
			if ct := c.header.Get("Content-Type"); !c.length || ct != "application/octet-stream" {
				t.Errorf("%s: document: length given %v, type %q", mode.name, c.length, ct)
			}
			if err := c.get(addr, "/gopher://"+srv.Addr()+"/1/menu", page); err != nil {
				t.Fatalf("%s: menu, request %d: %v", mode.name, i, err)
			}
			if ct := c.header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
				t.Errorf("%s: menu: type %q", mode.name, ct)
			}
		}
		if n := ln.n.Load(); n != 1 {
			t.Errorf("%s: %d connections for 6 requests, want 1 (keep-alive)", mode.name, n)
		}
		// Another server, a target that is no URL, a body past the
		// bound: 502, closed.
		for _, target := range []string{"gopher://" + other.Addr() + "/9/d", "/gopher://" + srv.Addr() + "/9/a\"b", "gopher://" + srv.Addr() + "/9/big"} {
			err := c.get(addr, target, doc)
			if err == nil || !strings.Contains(err.Error(), "502") {
				t.Errorf("%s: %s: %v, want a 502", mode.name, target, err)
			}
			if c.c != nil {
				t.Errorf("%s: %s: the connection stays open after an error", mode.name, target)
			}
		}
	}
	if _, err := newRawGateway("", t.TempDir()+"/none"); err == nil {
		t.Error("a missing page file gave no error")
	}
}

// startRaw runs the raw gateway as a process of its own (here the test
// binary, TestMain); stop ends its process group and removes its
// directory, and a failed start leaves nothing behind.
func TestStartRawCleansUp(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	doc := []byte("a document\n")
	srv, err := fakeservers.Gopher(map[string][]byte{"/d": doc})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	p, err := startRaw(context.Background(), []string{srv.Addr()}, []byte("page"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer p.stop()
	c := &client{}
	if err := c.get(p.addr, "gopher://"+srv.Addr()+"/9/d", doc); err != nil {
		t.Error(err)
	}
	c.close()
	if p.cpu() < 0 || groupLive("/proc", p.cmd.Process.Pid) != 1 {
		t.Errorf("the raw gateway's group has %d live processes, want 1", groupLive("/proc", p.cmd.Process.Pid))
	}
	pid := p.cmd.Process.Pid
	p.stop()
	if n := groupLive("/proc", pid); n != 0 {
		t.Errorf("after stop, %d processes of the raw gateway's group live on", n)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		t.Errorf("after stop, %s left in TMPDIR", ents[0].Name())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := startRaw(ctx, nil, nil, true); !errors.Is(err, context.Canceled) {
		t.Errorf("an interrupted start: %v, want the context's error", err)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		t.Errorf("after an interrupted start, %s left in TMPDIR", ents[0].Name())
	}
	// It listens on loopback only.
	if code := rawMain([]string{"-listen", "0.0.0.0:0"}); code != 2 {
		t.Errorf("rawMain on 0.0.0.0: exit %d, want 2", code)
	}
}

// The process parts set up as the command sets them up: urlkit serve
// (built from the checkout), the raw gateway and the same on net/http,
// each a process of its own, asked for the gopher document and the menu's
// page beside the direct fetch; the raw sides answer the menu with urlkit
// serve's page of it, the relay side with the menu as fetched, and
// every process is gone after close.
func TestSetupProcessParts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds urlkit")
	}
	e, err := setup(context.Background(), "", map[string]bool{"gopher": true, "menu": true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.close()
	want := [][]string{{urlkitGopher, directGopherS, rawGopher, nethttpGopher}, {urlkitMenu, directMenu, rawMenu, nethttpMenu, rawMenuRelay}}
	pids := measureEachGroup(t, e, want)
	// The raw gateway's page is urlkit serve's, byte for byte.
	serve, raw := e.sides[urlkitMenu], e.sides[rawMenu]
	a, b := &client{}, &client{}
	defer a.close()
	defer b.close()
	if err := serve.do(a); err != nil {
		t.Fatal(err)
	}
	if err := raw.do(b); err != nil {
		t.Fatal(err)
	}
	if string(a.buf) != string(b.buf) || !b.length {
		t.Errorf("the raw gateway's page (%d bytes, length given %v) is not urlkit serve's (%d bytes)", len(b.buf), b.length, len(a.buf))
	}
	e.close()
	for _, pid := range pids {
		if n := groupLive("/proc", pid); n != 0 {
			t.Errorf("after close, %d processes of group %d live on", n, pid)
		}
	}
}
