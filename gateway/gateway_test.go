package gateway

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/internal/testkit/testio"
)

// serve runs g on loopback and returns its base URL.
func serve(t *testing.T, g *Gateway) string {
	t.Helper()
	s := httptest.NewServer(g)
	t.Cleanup(s.Close)
	return s.URL
}

// raw sends a request line (proxy form or path form) and returns the
// response, read whole.
func raw(t *testing.T, base, method, target string) (*http.Response, string) {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	io.WriteString(c, method+" "+target+" HTTP/1.1\r\nHost: "+strings.TrimPrefix(base, "http://")+"\r\nConnection: close\r\n\r\n")
	req, _ := http.NewRequest(method, "http://gw/", nil)
	resp, err := http.ReadResponse(newReader(c), req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, target, err)
	}
	return resp, string(body)
}

func gopherServer(t *testing.T, docs map[string][]byte) string {
	t.Helper()
	s, err := fakeservers.Gopher(docs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s.Addr()
}

func ftpServer(t *testing.T, files map[string][]byte) *fakeservers.Server {
	t.Helper()
	s, err := fakeservers.FTP(files)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// RFC 1630, HTTP: a gateway receives the entire URI on the request line.
func TestProxyFormGopherText(t *testing.T) {
	text := "Hello.\r\n..dot-stuffed\r\n.\r\n"
	addr := gopherServer(t, map[string][]byte{"/hello.txt": []byte(text), "/bin": {0, 1, 2, 0xff}})
	base := serve(t, New(allow(addr)))
	resp, body := raw(t, base, "GET", "gopher://"+addr+"/0/hello.txt")
	if resp.StatusCode != 200 || body != "Hello.\r\n.dot-stuffed\r\n" {
		t.Fatalf("status %d body %q", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if resp.ContentLength != int64(len(body)) {
		t.Errorf("Content-Length %d, body %d bytes", resp.ContentLength, len(body))
	}
	// A binary item is application/octet-stream whatever its name
	// (Squid labels it by suffix).
	resp, body = raw(t, base, "GET", "gopher://"+addr+"/9/bin")
	if resp.StatusCode != 200 || body != "\x00\x01\x02\xff" || resp.Header.Get("Content-Type") != octetStream {
		t.Fatalf("binary: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	resp, body = raw(t, base, "HEAD", "gopher://"+addr+"/0/hello.txt")
	if resp.StatusCode != 200 || body != "" || resp.Header.Get("Content-Length") != "22" {
		t.Fatalf("HEAD: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Length"), body)
	}
}

// hostileMenu is a menu whose display strings hold markup and whose
// selectors try javascript: and data: URLs in every way a menu can.
var hostileMenu = "" +
	"i<script>alert('info')</script>\tfake\t(NULL)\t0\r\n" +
	"0<b onmouseover=alert(1)>text</b>\t/t\t127.0.0.1\t70\r\n" +
	"1javascript menu\tjavascript:alert(1)\t127.0.0.1\t70\r\n" +
	"hjavascript URL\tURL:javascript:alert(2)\t127.0.0.1\t70\r\n" +
	"hdata URL\tURL:data:text/html,<script>alert(3)</script>\t127.0.0.1\t70\r\n" +
	"hweb link\tURL:http://example.org/a?b=c&d=\"e\"\t127.0.0.1\t70\r\n" +
	"hgopher link\tURL:gopher://example.org/1/x\t127.0.0.1\t70\r\n" +
	"8telnet\tguest\texample.org\t23\r\n" +
	"1quote\" onclick=\"alert(4)\t/q\"x\t127.0.0.1\t70\r\n" +
	"1bad host\t/x\tjavascript:alert(5)\t70\r\n" +
	"3an <i>error</i>\t\terror.host\t1\r\n" +
	".\r\n"

// Issue 15: a hostile menu can link only to gateway paths or to the
// item's own URL; every string from the server is escaped; no script.
func TestHostileMenu(t *testing.T) {
	addr := gopherServer(t, map[string][]byte{"": []byte(hostileMenu)})
	base := serve(t, New(allow(addr)))
	resp, body := raw(t, base, "GET", "/gopher://"+addr+"/1")
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "script-src") {
		t.Errorf("CSP %q does not forbid scripts", csp)
	}
	for _, bad := range []string{"<script", "<b ", "<i>", "<b onmouseover", "onclick=\"", "href=\"javascript", "href=\"data:"} {
		if strings.Contains(body, bad) {
			t.Errorf("page contains %q:\n%s", bad, body)
		}
	}
	hrefs := regexp.MustCompile(`href="([^"]*)"`).FindAllStringSubmatch(body, -1)
	if len(hrefs) == 0 {
		t.Fatal("no links")
	}
	for _, h := range hrefs {
		href := strings.ReplaceAll(h[1], "&amp;", "&")
		switch {
		case href == "/":
		case strings.HasPrefix(href, "/gopher://"):
		case href == "http://example.org/a?b=c&d=%22e%22":
		case href == "telnet://guest@example.org:23/":
		default:
			t.Errorf("unexpected link %q", href)
		}
	}
	for _, want := range []string{
		`href="/gopher://127.0.0.1:70/1javascript:alert%281%29"`, // a gateway path, never a javascript: link
		`href="/gopher://example.org/1/x"`,
		`href="telnet://guest@example.org:23/"`,
		`&lt;script&gt;alert(&#39;info&#39;)&lt;/script&gt;`,
		`an &lt;i&gt;error&lt;/i&gt;`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s:\n%s", want, body)
		}
	}
}

func TestPathFormMenuLinksAndSearch(t *testing.T) {
	menu := "0Doc\t/doc\tHOST\tPORT\r\n7Find\t/find\tHOST\tPORT\r\n.\r\n"
	addr := gopherServer(t, nil)
	host, port, _ := net.SplitHostPort(addr)
	menu = strings.NewReplacer("HOST", host, "PORT", port).Replace(menu)
	s2 := gopherServer(t, map[string][]byte{"/m": []byte(menu), "/find": []byte("0Result\t/r\th\t70\r\n.\r\n")})
	base := serve(t, New(allow(addr, s2)))
	_, body := raw(t, base, "GET", "/gopher://"+s2+"/1/m")
	if !strings.Contains(body, `href="/gopher://`+addr+`/0/doc"`) {
		t.Errorf("menu page lacks the path-form link:\n%s", body)
	}
	// A search item without a search string gets a form, which /go turns
	// into the gopher search URL (RFC 1738 3.4: selector %09 search).
	resp, body := raw(t, base, "GET", "/gopher://"+s2+"/7/find")
	if resp.StatusCode != 200 || !strings.Contains(body, `action="/go"`) || !strings.Contains(body, `name="q"`) {
		t.Fatalf("search form: %d\n%s", resp.StatusCode, body)
	}
	resp, _ = raw(t, base, "GET", "/go?url=gopher://"+s2+"/7/find&q=two+words")
	if loc := resp.Header.Get("Location"); resp.StatusCode != 303 || loc != "/gopher://"+s2+"/7/find%09two%20words" {
		t.Fatalf("go: %d Location %q", resp.StatusCode, loc)
	}
	resp, body = raw(t, base, "GET", "/gopher://"+s2+"/7/find%09two%20words")
	if resp.StatusCode != 200 || !strings.Contains(body, "Result") {
		t.Fatalf("search results: %d\n%s", resp.StatusCode, body)
	}
	resp, body = raw(t, base, "GET", "/")
	if resp.StatusCode != 200 || !strings.Contains(body, `<form method="get" action="/go">`) {
		t.Fatalf("root page: %d\n%s", resp.StatusCode, body)
	}
}

func TestFTPThroughGateway(t *testing.T) {
	file := bytes.Repeat([]byte("ftp data.\n"), 200)
	big := bytes.Repeat([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 30000)
	srv := ftpServer(t, map[string][]byte{"/pub/f.txt": file, "/pub/dir/a:b.bin": {1, 2, 3}, "/pub/x.gif": []byte("GIF89a"), "/pub/big.bin": big})
	addr := srv.Addr()
	base := serve(t, New(allow(addr)))
	resp, body := raw(t, base, "GET", "ftp://"+addr+"/pub/f.txt")
	if resp.StatusCode != 200 || body != string(file) || resp.ContentLength != int64(len(file)) ||
		resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Fatalf("file: %d %q %d", resp.StatusCode, resp.Header.Get("Content-Type"), resp.ContentLength)
	}
	resp, _ = raw(t, base, "GET", "/ftp://"+addr+"/pub/x.gif")
	if resp.Header.Get("Content-Type") != "image/gif" {
		t.Errorf("gif: %q", resp.Header.Get("Content-Type"))
	}
	// A directory named without its final "/" redirects to it.
	resp, _ = raw(t, base, "GET", "/ftp://"+addr+"/pub/dir")
	if resp.StatusCode != 301 || resp.Header.Get("Location") != "./dir/" {
		t.Fatalf("dir: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	// The listing links relatively; a name with ":" is not read as a scheme.
	resp, body = raw(t, base, "GET", "/ftp://user:s3cr3t-pw@"+addr+"/pub/dir/")
	if resp.StatusCode != 200 || !strings.Contains(body, `href="./a%3Ab.bin"`) {
		t.Fatalf("listing: %d\n%s", resp.StatusCode, body)
	}
	if strings.Contains(body, "s3cr3t") || strings.Contains(body, "user") {
		t.Errorf("the page shows the URL's user or password:\n%s", body)
	}
	resp, _ = raw(t, base, "GET", "/ftp://"+addr+"/pub/missing.txt")
	if resp.StatusCode != 502 {
		t.Errorf("missing file: %d", resp.StatusCode)
	}
	// A file larger than the first buffer: relayed without a
	// Content-Length, since the length the server announced in its 150
	// reply is not verified until the end (issue 21 item 8).
	resp, body = raw(t, base, "GET", "ftp://"+addr+"/pub/big.bin")
	if resp.StatusCode != 200 || len(body) != len(big) || resp.ContentLength != -1 || body != string(big) {
		t.Errorf("big file: %d, Content-Length %d, %d bytes", resp.StatusCode, resp.ContentLength, len(body))
	}
	// The gateway keeps the anonymous session in /pub between requests.
	before := srv.Conns.Load()
	for i := 0; i < 3; i++ {
		if resp, body := raw(t, base, "GET", "ftp://"+addr+"/pub/f.txt"); resp.StatusCode != 200 || body != string(file) {
			t.Fatalf("repeat %d: %d", i, resp.StatusCode)
		}
	}
	if n := srv.Conns.Load() - before; n > 1 {
		t.Errorf("3 requests for one file opened %d ftp control connections, want at most 1", n)
	}
}

func TestErrorStatuses(t *testing.T) {
	// A server that accepts and never answers.
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	closedAddr := testio.ClosedAddr(t) // held: no other test's server takes the port
	gopher := gopherServer(t, map[string][]byte{"": []byte(".\r\n")})

	var logBuf bytes.Buffer
	cfg := allow(gopher, closedAddr, silent.Addr().String())
	cfg.Timeout, cfg.Log = 500*time.Millisecond, &logBuf
	base := serve(t, New(cfg))
	public := serve(t, New(Config{}))
	for _, c := range []struct {
		base, target string
		status       int
		says         string
	}{
		{base, "/ftp://h/a;type=q", 400, "offset"},
		{base, "/gopher://h:7x/1", 400, "offset"},
		{base, "/ftp://joe:pa55word@h:99999/", 400, ""},
		{base, "/file:///etc/passwd", 403, "file URLs"},
		{base, "file:///etc/passwd", 403, "file URLs"},
		{base, "/gopher://127.0.0.1:25/0x", 403, "smtp"},
		{base, "/gopher://127.0.0.1:6667/0x", 403, "ircu"},
		{base, "/gopher://" + gopher + "/0a%0D%0AQUIT", 403, "control"},
		{base, "/nntp://127.0.0.1:587/g", 403, "submission"},
		{public, "/gopher://" + gopher + "/1", 403, "(T2): 127.0.0.1 is a loopback"},
		{public, "/gopher://localhost:" + strings.Split(gopher, ":")[1] + "/1", 403, "(T2): 127.0.0.1 is a loopback"},
		{base, "/gopher://" + closedAddr + "/0x", 502, "connect"},
		{base, "/gopher://" + silent.Addr().String() + "/0x", 504, "in time"},
		{base, "/telnet://h/", 501, ""},
		{base, "/http://example.org/", 501, ""},
		{base, "/mid:m@h.dom", 501, ""},
		{base, "/favicon.ico", 404, ""},
	} {
		resp, body := raw(t, c.base, "GET", c.target)
		if resp.StatusCode != c.status || !strings.Contains(body, c.says) {
			t.Errorf("%s: %d %q, want %d saying %q", c.target, resp.StatusCode, body, c.status, c.says)
		}
		if strings.Contains(body, "pa55word") || strings.Contains(body, "joe") {
			t.Errorf("%s: body shows the user or password: %q", c.target, body)
		}
	}
	// ftp's own port 21 is not refused for ftp (the scheme's default).
	if _, bad := BadPort("ftp", 21); bad {
		t.Error("ftp port 21 refused")
	}
	if _, bad := BadPort("gopher", 21); !bad {
		t.Error("gopher to port 21 allowed")
	}
	if _, bad := BadPort("nntp", 119); bad {
		t.Error("nntp port 119 refused")
	}
	resp, _ := raw(t, base, "POST", "/gopher://h/1")
	if resp.StatusCode != 405 {
		t.Errorf("POST: %d", resp.StatusCode)
	}
	log := logBuf.String()
	if strings.Contains(log, "pa55word") || !strings.Contains(log, `"GET /ftp://joe:xxxxx@h:99999/ HTTP/1.1" 400`) {
		t.Errorf("log:\n%s", log)
	}
	if !regexp.MustCompile(`(?m)^127\.0\.0\.1 - - \[\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}\] "GET /file:///etc/passwd HTTP/1.1" 403 \d+$`).MatchString(log) {
		t.Errorf("not Common Log Format:\n%s", log)
	}
}

// The size cap: within the first buffer the status is still 502; past it
// the connection is cut so the client sees a truncated transfer.
func TestSizeCap(t *testing.T) {
	small := bytes.Repeat([]byte("x"), 2000)
	big := bytes.Repeat([]byte("y"), 300<<10)
	addr := gopherServer(t, map[string][]byte{"/small": small, "/big": big})
	cfg := allow(addr)
	cfg.MaxSize = 1000
	base := serve(t, New(cfg))
	resp, body := raw(t, base, "GET", "gopher://"+addr+"/9/small")
	if resp.StatusCode != 502 || !strings.Contains(body, "size limit") {
		t.Fatalf("small: %d %q", resp.StatusCode, body)
	}
	cfg.MaxSize = 200 << 10
	base = serve(t, New(cfg))
	c, _ := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	defer c.Close()
	io.WriteString(c, "GET gopher://"+addr+"/9/big HTTP/1.1\r\nHost: gw\r\n\r\n")
	resp, err := http.ReadResponse(newReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != 200 || err == nil {
		t.Fatalf("big: status %d, %d bytes, err %v: the truncation must show", resp.StatusCode, n, err)
	}
}

// The concurrency bound: with every slot taken by requests that hang, the
// next waits and gets 503 at its deadline; one waiting when a slot is
// given back gets it and is served. The two parts use two gateways: the
// first a short deadline (its 503 cannot come early, since nothing gives
// a slot back), the second a long one, so a loaded machine that stretches
// a served request past a short deadline cannot turn its 200 into a 504.
func TestConcurrencyLimit(t *testing.T) {
	addr := gopherServer(t, map[string][]byte{"/a": []byte("a")})
	hold := func(timeout time.Duration) (*Gateway, string) {
		cfg := allow(addr)
		cfg.MaxUpstream, cfg.Timeout = 2, timeout
		cfg.MaxUpstreamPerClient, cfg.MaxUpstreamPerTarget = 2, 2
		g := New(cfg)
		// Two requests being served upstream, from other clients.
		g.slots.acquire(context.Background(), clientKey("192.0.2.1:1"), "x:70")
		g.slots.acquire(context.Background(), clientKey("192.0.2.2:1"), "y:70")
		return g, serve(t, g)
	}
	_, base := hold(300 * time.Millisecond)
	resp, body := raw(t, base, "GET", "/gopher://"+addr+"/0b")
	if resp.StatusCode != 503 {
		t.Errorf("with every slot taken: %d %q, want 503", resp.StatusCode, body)
	}
	g, base := hold(time.Minute)
	type answer struct {
		status int
		body   string
	}
	got := make(chan answer, 1)
	go func() {
		a := answer{status: -1} // raw failed the test
		defer func() { got <- a }()
		resp, body := raw(t, base, "GET", "/gopher://"+addr+"/9/a")
		a = answer{resp.StatusCode, body}
	}()
	if !testio.Eventually(func() bool { g.slots.mu.Lock(); defer g.slots.mu.Unlock(); return len(g.slots.waiting) == 1 }) {
		t.Fatal("the request did not wait for a slot")
	}
	select {
	case a := <-got:
		t.Fatalf("answered while every slot was taken: %d %q", a.status, a.body)
	default:
	}
	g.slots.release(clientKey("192.0.2.1:1"), "x:70")
	if a := <-got; a.status != 200 || a.body != "a" {
		t.Errorf("with a slot given back: %d %q", a.status, a.body)
	}
	// The slot is given back when the handler returns, which may be just
	// after the client has the whole response.
	testio.Eventually(func() bool { return g.slots.inUse() == 1 })
	if n := g.slots.inUse(); n != 1 {
		t.Errorf("%d slots held after the request, want 1", n)
	}
}

func TestRedaction(t *testing.T) {
	for in, want := range map[string]string{
		"/ftp://u:pw@h/x":    "/ftp://u:xxxxx@h/x",
		"ftp://u:pw@h/x":     "ftp://u:xxxxx@h/x",
		"/ftp://u@h/":        "/ftp://u@h/",
		"/gopher://h:7x/1":   "/gopher://h:7x/1",
		"/ftp://u:p%zz@h/x/": "/ftp://u:xxxxx@h/x/",
	} {
		if got := redactTarget(in); got != want {
			t.Errorf("redactTarget(%q) = %q, want %q", in, got, want)
		}
	}
	if got := stripUserinfo("see ftp://u:p@h/x?y"); got != "see ftp://h/x?y" {
		t.Errorf("stripUserinfo: %q", got)
	}
	if got := scrub("bad password \"abc\" at 9", "u", "abc"); strings.Contains(got, "abc") {
		t.Errorf("scrub: %q", got)
	}
}

// --allow-private is needed only off loopback: serve decides with this.
func TestIsLoopbackListen(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8070": true, "127.1.2.3:80": true, "[::1]:8070": true, "localhost:8070": true,
		":8070": false, "0.0.0.0:8070": false, "[::]:8070": false, "192.168.1.5:8070": false,
		"gw.example:8070": false, "nonsense": false,
	} {
		if got := IsLoopbackListen(addr); got != want {
			t.Errorf("IsLoopbackListen(%q) = %v", addr, got)
		}
	}
}

// One log line exactly: Common Log Format, password masked, quotes,
// backslashes and control bytes escaped, "-" for no body, the reason of
// an aborted relay quoted after the size.
func TestLogLine(t *testing.T) {
	var buf bytes.Buffer
	g := New(Config{Log: &buf})
	at := time.Date(2026, 11, 21, 9, 5, 7, 0, time.FixedZone("", -90*60))
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "192.0.2.7:40000"
	r.RequestURI = "/ftp://joe:pa55@h/a\"b\\c\x01\xff"
	g.logRequest(&logWriter{status: 304}, r, at)
	r.RemoteAddr = "[2001:db8::1]:80"
	r.RequestURI = "gopher://h/9/x"
	r.Proto = "HTTP/1.0"
	g.logRequest(&logWriter{bytes: 65536, aborted: `read "x": reset`}, r, at)
	want := `192.0.2.7 - - [21/Nov/2026:09:05:07 -0130] "GET /ftp://joe:xxxxx@h/a\x22b\x5cc\x01\xff HTTP/1.1" 304 -` + "\n" +
		`2001:db8::1 - - [21/Nov/2026:09:05:07 -0130] "GET gopher://h/9/x HTTP/1.0" 200 65536 "aborted: read \x22x\x22: reset"` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("log lines\n%s\nwant\n%s", got, want)
	}
}

// The server urlkit serve runs bounds header reads, idle connections and
// writes, the write bound past the request deadline.
func TestHTTPServer(t *testing.T) {
	g := New(Config{Timeout: time.Minute})
	s := g.HTTPServer()
	if s.Handler != g || s.ReadHeaderTimeout <= 0 || s.IdleTimeout <= 0 || s.WriteTimeout <= time.Minute {
		t.Errorf("server %+v", s)
	}
	if d := New(Config{}).HTTPServer().WriteTimeout; d <= DefaultTimeout {
		t.Errorf("default write timeout %v", d)
	}
}
