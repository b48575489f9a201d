package main

// The raw gateway: the benchmark's physical floor for a gateway process
// (issue 36, item 6). It is bench infrastructure, never a serving path:
// a minimal HTTP/1.1 keep-alive gateway in a process of its own, listening
// on loopback only, fetching only from the upstream servers it is given,
// with none of urlkit serve's policy, pages, logs or limits beyond the
// bounds below. For each request it reads the request line and the header
// with bufio, parses the target with urlkit.Parse, fetches it with the
// same scheme.PlanOf and access.Execute as the direct side, and answers
// with a Content-Length, status line, header and body in one write. For a
// gopher menu (type 1) it fetches the menu whole and answers with the page
// it was given (urlkit serve's page of that menu, recorded once): what any
// gateway must at least pay to move a page of that size, with nothing
// rendered.
//
// With -nethttp the same gateway (the same fetch, the same answer) is
// served by net/http's server instead, with the settings urlkit serve's
// server has (gateway.HTTPServer): the net/http floor, which splits the
// distance between urlkit serve and the raw gateway into what net/http's
// server costs and what urlkit's own code does.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/gateway"
	"github.com/urlkit/urlkit/scheme"
)

// rawMode is the hidden first argument that makes the benchmark's binary
// (or its test binary) the raw gateway: rawMain runs instead of the
// benchmark.
const rawMode = "raw-gateway"

// Bounds of the raw gateway: a request's line and header, a fetched body,
// and the wait for a request on an idle connection.
const (
	rawMaxHeader = 8 << 10
	rawMaxBody   = 4 << 20
	rawIdle      = 30 * time.Second
)

// rawListening is the first line the raw gateway writes on its standard
// error, before its address.
const rawListening = "raw gateway on http://"

// rawMain is the raw gateway's command: -listen (a loopback address),
// -allow (the upstream host:port pairs it may fetch from, comma-separated)
// and -page (a file: the body answered for a gopher menu); -nethttp serves
// it with net/http's server. It serves until it is killed.
func rawMain(args []string) int {
	fs := flag.NewFlagSet(rawMode, flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:0", "loopback address to listen on")
	allow := fs.String("allow", "", "host:port pairs the targets may name, comma-separated")
	pageFile := fs.String("page", "", "file whose content answers a gopher menu (type 1)")
	nethttp := fs.Bool("nethttp", false, "serve with net/http's server, as urlkit serve's is set up")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	g, err := newRawGateway(*allow, *pageFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "raw gateway:", err)
		return 2
	}
	host, _, err := net.SplitHostPort(*listen)
	if err != nil || host != "127.0.0.1" {
		fmt.Fprintf(os.Stderr, "raw gateway: -listen %q: it listens on 127.0.0.1 only\n", *listen)
		return 2
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, "raw gateway:", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "%s%s/\n", rawListening, ln.Addr())
	serve := g.serve
	if *nethttp {
		serve = g.serveHTTP
	}
	if err := serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, "raw gateway:", err)
		return 1
	}
	return 0
}

// rawGateway is the raw gateway's state: what it may fetch, and the page
// it answers for a gopher menu.
type rawGateway struct {
	allow map[string]bool
	page  []byte // nil: a menu is answered as fetched
	opts  *access.Options
}

func newRawGateway(allow, pageFile string) (*rawGateway, error) {
	g := &rawGateway{allow: map[string]bool{}, opts: &access.Options{KeepAlive: -1}}
	for _, a := range strings.Split(allow, ",") {
		if a = strings.TrimSpace(a); a != "" {
			g.allow[strings.ToLower(a)] = true
		}
	}
	if pageFile != "" {
		p, err := os.ReadFile(pageFile)
		if err != nil {
			return nil, err
		}
		g.page = p
	}
	return g, nil
}

// serve accepts connections on ln until it is closed.
func (g *rawGateway) serve(ln net.Listener) error {
	for {
		c, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		go g.conn(c)
	}
}

// serveHTTP serves the raw gateway's answers with net/http's server, set
// up as urlkit serve's is (gateway.HTTPServer: its timeouts, header bound
// and connection tracking), until ln is closed.
func (g *rawGateway) serveHTTP(ln net.Listener) error {
	srv := gateway.New(gateway.Config{}).HTTPServer()
	srv.Handler = g
	err := srv.Serve(ln)
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// rawBuffers are the fetch buffers of net/http's requests (a connection
// of the raw server keeps its own).
var rawBuffers sync.Pool

// ServeHTTP answers one request as conn does: the fetched body (or the
// menu's page) with its length, or a 502 that closes the connection.
func (g *rawGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	bp, _ := rawBuffers.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	defer rawBuffers.Put(bp)
	if r.Method != http.MethodGet {
		w.Header()["Connection"] = []string{"close"}
		http.Error(w, "only GET", http.StatusBadRequest)
		return
	}
	buf, body, ctype, err := g.fetch(r.RequestURI, (*bp)[:0])
	*bp = buf
	if err != nil {
		w.Header()["Connection"] = []string{"close"}
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	h := w.Header()
	h["Content-Type"] = []string{ctype}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.Write(body)
}

// conn serves one client connection's requests in turn.
func (g *rawGateway) conn(c net.Conn) {
	defer c.Close()
	br := bufio.NewReaderSize(c, 4096)
	var buf, out []byte
	for {
		c.SetReadDeadline(time.Now().Add(rawIdle))
		target, closing, err := readRawRequest(br)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				c.Write(rawError(400, err))
			}
			return
		}
		var body []byte
		var ctype string
		buf, body, ctype, err = g.fetch(target, buf[:0])
		if err != nil {
			c.Write(rawError(502, err))
			return
		}
		out = appendRawResponse(out[:0], ctype, body, closing)
		if _, err := c.Write(out); err != nil || closing {
			return
		}
	}
}

// readRawRequest reads one request's line and header from br: a GET
// without a body, in HTTP/1.1 or 1.0, its header at most rawMaxHeader
// bytes. It gives the request target, and whether the connection closes
// after the answer (Connection: close, or HTTP/1.0 without keep-alive).
// io.EOF means the client closed the connection between requests.
func readRawRequest(br *bufio.Reader) (target string, closing bool, err error) {
	n := 0
	line := func() ([]byte, error) {
		b, err := br.ReadSlice('\n')
		n += len(b)
		if err == bufio.ErrBufferFull || n > rawMaxHeader {
			return nil, fmt.Errorf("the request's header is longer than %d bytes", rawMaxHeader)
		}
		if err != nil {
			return nil, err
		}
		return bytes.TrimRight(b, "\r\n"), nil
	}
	first, err := line()
	if err != nil {
		if err == io.EOF && n == 0 {
			return "", false, io.EOF
		}
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return "", false, err
	}
	method, rest, ok1 := bytes.Cut(first, []byte(" "))
	tgt, proto, ok2 := bytes.Cut(rest, []byte(" "))
	if !ok1 || !ok2 || len(tgt) == 0 {
		return "", false, fmt.Errorf("request line %q is not METHOD TARGET VERSION", first)
	}
	if string(method) != "GET" {
		return "", false, fmt.Errorf("method %q: only GET", method)
	}
	switch string(proto) {
	case "HTTP/1.1":
	case "HTTP/1.0":
		closing = true
	default:
		return "", false, fmt.Errorf("version %q: only HTTP/1.1 and 1.0", proto)
	}
	target = string(tgt) // br's buffer is overwritten by the next line
	for {
		h, err := line()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return "", false, err
		}
		if len(h) == 0 {
			return target, closing, nil
		}
		name, value, ok := bytes.Cut(h, []byte(":"))
		if !ok {
			return "", false, fmt.Errorf("header line %q has no colon", h)
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")) && string(value) != "0",
			bytes.EqualFold(name, []byte("Transfer-Encoding")):
			return "", false, errors.New("a request with a body")
		case bytes.EqualFold(name, []byte("Connection")):
			if bytes.EqualFold(value, []byte("close")) {
				closing = true
			} else if bytes.EqualFold(value, []byte("keep-alive")) {
				closing = false
			}
		}
	}
}

// fetch fetches target (absolute form, or a path holding one after its
// first slash, as urlkit serve takes it) into buf with the direct side's
// code, and gives buf grown, the body to answer and its type: the menu's
// page for a gopher menu when the gateway has one, the fetched body
// otherwise.
func (g *rawGateway) fetch(target string, buf []byte) (_, body []byte, ctype string, err error) {
	if strings.HasPrefix(target, "/") {
		target = target[1:]
	}
	u, err := urlkit.Parse(target)
	if err != nil {
		return buf, nil, "", err
	}
	if !g.allow[strings.ToLower(u.Authority())] {
		return buf, nil, "", fmt.Errorf("%s is not an upstream of the benchmark", u.Authority())
	}
	plan, err := scheme.PlanOf(u, scheme.Config{})
	if err != nil {
		return buf, nil, "", err
	}
	rc, err := access.Execute(context.Background(), plan, g.opts)
	if err != nil {
		return buf, nil, "", err
	}
	defer rc.Close()
	b := bytes.NewBuffer(buf)
	n, err := b.ReadFrom(io.LimitReader(rc, rawMaxBody+1))
	if err != nil {
		return b.Bytes(), nil, "", err
	}
	if n > rawMaxBody {
		return b.Bytes(), nil, "", fmt.Errorf("the body is longer than %d bytes", rawMaxBody)
	}
	if p, _ := u.Path(); u.Scheme() == "gopher" && g.page != nil && (p == "" || p[0] == '1') {
		return b.Bytes(), g.page, "text/html; charset=utf-8", nil
	}
	return b.Bytes(), b.Bytes(), "application/octet-stream", nil
}

// appendRawResponse appends a 200 response of type ctype with body to out,
// with its length.
func appendRawResponse(out []byte, ctype string, body []byte, closing bool) []byte {
	out = append(out, "HTTP/1.1 200 OK\r\nContent-Type: "...)
	out = append(out, ctype...)
	out = append(out, "\r\nContent-Length: "...)
	out = strconv.AppendInt(out, int64(len(body)), 10)
	if closing {
		out = append(out, "\r\nConnection: close"...)
	}
	out = append(out, "\r\n\r\n"...)
	return append(out, body...)
}

// rawError is an error response that closes the connection.
func rawError(status int, err error) []byte {
	msg := err.Error() + "\n"
	return []byte(fmt.Sprintf("HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		status, http.StatusText(status), len(msg), msg))
}
