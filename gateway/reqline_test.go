package gateway

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/access"
)

// exchange sends the bytes req on one connection to the gateway at addr
// and reads n responses.
func exchange(t *testing.T, addr, req string, n int) []string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(c, req)
	br := bufio.NewReader(c)
	var out []string
	for range n {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("response %d: %v", len(out)+1, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		out = append(out, resp.Status+" "+resp.Header.Get("Content-Type")+"\n"+string(b))
	}
	return out
}

// Request lines net/http refuses by itself with a bare "400 Bad Request"
// (url.ParseRequestURI: a malformed escape, RFC 3986 2.1; a space in the
// target, RFC 9112 3.2) get urlkit's page: what is wrong and at which
// offset (RFC 1738 2.2, RFC 1630's escapes), and the URL as the lenient
// reading repairs it, in one plain line for curl and as HTML for a browser.
func TestRequestLineRefusals(t *testing.T) {
	addr := serveCapped(t, New(Config{}))
	host := "Host: " + addr + "\r\n"
	for _, tc := range []struct {
		target, accept string
		want           []string
	}{
		{"/gopher://127.0.0.1:7070/0/a%zz", "", []string{"400 Bad Request text/plain; charset=utf-8\nurlkit gateway: 400 Bad Request: offset 27 in path: \"%zz\" is not a valid escape",
			"; try /gopher://127.0.0.1:7070/0/a%25zz\n"}},
		{"/gopher://127.0.0.1:7070/0/a%7", "", []string{"offset 27 in path: \"%7\"", "; try /gopher://127.0.0.1:7070/0/a%257\n"}},
		{"gopher://127.0.0.1:7070/0/a b", "", []string{"offset 27 in path: space", "; try gopher://127.0.0.1:7070/0/a%20b\n"}},
		{"/gopher://127.0.0.1:7070/0/a%zz", browserAccept, []string{"400 Bad Request text/html; charset=utf-8\n",
			`<pre class="input">gopher://127.0.0.1:7070/0/a<mark>%</mark>zz</pre>`,
			`<a href="/gopher://127.0.0.1:7070/0/a%25zz">gopher://127.0.0.1:7070/0/a%25zz</a>`,
			`<input type="text" name="url" value="gopher://127.0.0.1:7070/0/a%zz"`}},
		// net/http takes "~", urlkit does not (RFC 1738 2.2: unsafe): the
		// same page, from the handler.
		{"/gopher://127.0.0.1:7070/1/~user/", "", []string{"offset 26 in path: \"~\" is unsafe", "; try /gopher://127.0.0.1:7070/1/%7Euser/\n"}},
		{"/gopher://127.0.0.1:7070/1/~user/", browserAccept, []string{`<a href="/gopher://127.0.0.1:7070/1/%7Euser/">`}},
		// Not a URL: the gateway's 404, not net/http's 400.
		{"/a%zz", "", []string{"404 Not Found text/plain; charset=utf-8\nurlkit gateway: 404 Not Found: no such page"}},
	} {
		req := "GET " + tc.target + " HTTP/1.1\r\n" + host
		if tc.accept != "" {
			req += "Accept: " + tc.accept + "\r\n"
		}
		got := exchange(t, addr, req+"\r\n", 1)[0]
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%q: lacks %q:\n%s", tc.target, w, got)
			}
		}
		if tc.accept == "" && strings.Count(got, "\n") != 2 {
			t.Errorf("%q: not one line:\n%s", tc.target, got)
		}
	}
}

// The request lines of a keep-alive connection are each read: a good
// request, then a bad one, each answered; a body is passed on unread, so a
// request line inside it is not one.
func TestRequestLineKeepAlive(t *testing.T) {
	addr := serveCapped(t, New(Config{}))
	host := "Host: " + addr + "\r\n"
	body := "GET /gopher://h/0/b%zz HTTP/1.1\r\n\r\n"
	got := exchange(t, addr, "GET / HTTP/1.1\r\n"+host+"\r\n"+
		"GET /gopher://127.0.0.1:7070/0/a%zz HTTP/1.1\r\n"+host+"\r\n"+
		"POST /gopher://h/0/x HTTP/1.1\r\n"+host+"Content-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"+body+
		"GET / HTTP/1.1\r\n"+host+"\r\n", 4)
	if !strings.HasPrefix(got[0], "200 OK") || !strings.Contains(got[1], "try /gopher://127.0.0.1:7070/0/a%25zz") || !strings.HasPrefix(got[2], "405 ") || !strings.HasPrefix(got[3], "200 OK") {
		t.Errorf("%q", got)
	}
}

// plainTarget's fast reading agrees with url.ParseRequestURI, net/http's
// own: what it takes, ParseRequestURI takes (it may leave to
// ParseRequestURI what that takes too, never the reverse).
func TestPlainTargetAgrees(t *testing.T) {
	pieces := []string{"/", "gopher://", "http://", "h.example", "h_x", "[::1]", ":70", ":x", "@", "%", "%4", "%41", "%zz", "?", "#", " ", "\x00", "\x7f", "\x80", "a", "~", ";", "//"}
	seen := 0
	for _, a := range pieces {
		for _, b := range pieces {
			for _, c := range pieces {
				for _, d := range pieces {
					s := a + b + c + d
					if plainTarget([]byte(s)) {
						seen++
						if _, err := url.ParseRequestURI(s); err != nil {
							t.Errorf("plainTarget takes %q, url.ParseRequestURI refuses it: %v", s, err)
						}
					}
				}
			}
		}
	}
	if seen < 1000 {
		t.Errorf("plainTarget took only %d targets", seen)
	}
	for _, s := range []string{"/gopher://h/1/", "gopher://h.example:70/0/a%20b", "/x?a%zz"} {
		if !plainTarget([]byte(s)) {
			t.Errorf("%q is plain", s)
		}
	}
}

// What net/http answers by itself, before any handler (RFC 9112 3.2: no
// Host; a header past MaxHeaderBytes; an HTTP version other than 1.x; a
// transfer coding it does not read), is urlkit's page for the same
// status: one plain line, or HTML when the request's Accept prefers it.
func TestNetHTTPOwnAnswers(t *testing.T) {
	var log syncBuffer
	addr := serveCapped(t, New(Config{Log: &log}))
	host := "Host: " + addr + "\r\n"
	for _, tc := range []struct{ req, want string }{
		{"GET / HTTP/1.1\r\n\r\n", "400 Bad Request text/plain; charset=utf-8\nurlkit gateway: 400 Bad Request: the request was refused before it reached the gateway: it has no Host header, which HTTP/1.1 requires (RFC 9112 3.2)\n"},
		{"GET / HTTP/1.1\r\nAccept: " + browserAccept + "\r\n\r\n", "<h1>Bad Request (400)</h1>\n<p class=\"error\">the request was refused before it reached the gateway: it has no Host header"},
		{"GET / HTTP/1.1\r\n" + host + "X-Big: " + strings.Repeat("x", MaxHeaderBytes+8192) + "\r\n\r\n", "431 Request Header Fields Too Large text/plain; charset=utf-8\nurlkit gateway: 431 Request Header Fields Too Large: the request was refused before it reached the gateway: its header is larger"},
		{"GET / HTTP/3.0\r\n" + host + "\r\n", "505 HTTP Version Not Supported text/plain; charset=utf-8\nurlkit gateway: 505 HTTP Version Not Supported: "},
		{"POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: gzip\r\n\r\n", "501 Not Implemented text/plain; charset=utf-8\nurlkit gateway: 501 Not Implemented: the request was refused before it reached the gateway: it names a transfer coding"},
		{"GET / HTTP/1.1\r\n" + host + "Bad Header\r\n\r\n", "400 Bad Request text/plain; charset=utf-8\nurlkit gateway: 400 Bad Request: the request was refused before it reached the gateway: it is not a well-formed HTTP request\n"},
	} {
		got := exchange(t, addr, tc.req, 1)[0]
		if !strings.Contains(got, tc.want) {
			t.Errorf("%.60q:\n got %q\nwant %q", tc.req, got, tc.want)
		}
	}
	// Each has its log line, the reason as its note.
	if !log.wait(`"- - -" 431 `) || !strings.Contains(log.String(), `"- - -" 400 `) || !strings.Contains(log.String(), `"note: the request was refused before it reached the gateway: it has no Host header`) {
		t.Errorf("log:\n%s", log.String())
	}
}

// The connection passes on a request's header lines together once they
// have arrived, but never past the header's end: with a second request
// sent at once behind the first (pipelined, RFC 9112 9.3.2), net/http's own
// answer to the first (no Host) is still chosen by the first's Accept.
func TestNetHTTPOwnAnswerPipelined(t *testing.T) {
	addr := serveCapped(t, New(Config{}))
	got := exchange(t, addr, "GET / HTTP/1.1\r\nAccept: "+browserAccept+"\r\nX-A: 1\r\n\r\nGET / HTTP/1.1\r\nHost: "+addr+"\r\nAccept: text/plain\r\n\r\n", 1)[0]
	if !strings.HasPrefix(got, "400 Bad Request text/html") || !strings.Contains(got, "it has no Host header") {
		t.Errorf("got %q", got)
	}
}

// rewriteRequestLine changes only lines net/http would refuse, and keeps
// their method and version.
func TestRewriteRequestLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"GET /gopher://h/1/ HTTP/1.1\r\n", "GET /gopher://h/1/ HTTP/1.1\r\n"},
		{"GET gopher://h/0/a%20b HTTP/1.0\n", "GET gopher://h/0/a%20b HTTP/1.0\n"},
		{"GET /x?a%zz HTTP/1.1\r\n", "GET /x?a%zz HTTP/1.1\r\n"}, // net/http takes a query as written
		{"GET /gopher://h/0/a%zz HTTP/1.1\r\n", "GET " + badTargetPath + "?/gopher://h/0/a%25zz HTTP/1.1\r\n"},
		{"HEAD /a b c HTTP/1.0\r\n", "HEAD " + badTargetPath + "?/a%20b%20c HTTP/1.0\r\n"},
		{"GET /a%zz\r\n", "GET /a%zz\r\n"},               // no version: left to net/http
		{"GET /a%zz HTTP/x\r\n", "GET /a%zz HTTP/x\r\n"}, // no version
	} {
		if got := string(rewriteRequestLine([]byte(tc.in))); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.in, got, tc.want)
		}
	}
}

// The Accept fields that ask for listings as access.ListingType (RFC 9110
// 12.5.1: a weight of 0 refuses a type).
func TestWantsListing(t *testing.T) {
	for _, tc := range []struct {
		accept           []string
		listing, details bool
	}{
		{nil, false, false},
		{[]string{"*/*"}, false, false},
		{[]string{browserAccept}, false, false},
		{[]string{access.ListingType + ", */*;q=0.5"}, true, false},
		{[]string{"text/plain", access.ListingType + ";ftp-details=1"}, true, true},
		{[]string{access.ListingType + ";q=0"}, false, false},
		{[]string{"application/x-urlkit-listings"}, false, false},
	} {
		l, d := wantsListing(tc.accept)
		if l != tc.listing || d != tc.details {
			t.Errorf("%q: %v %v", tc.accept, l, d)
		}
	}
}

// FuzzRewriteRequestLine: any line is passed on as it is or rewritten into
// one whose target net/http takes and whose query gives the original
// target back exactly.
func FuzzRewriteRequestLine(f *testing.F) {
	for _, s := range []string{"GET /gopher://h/0/a%zz HTTP/1.1\r\n", "GET /a b HTTP/1.0\r\n", "GET gopher://h:x/ HTTP/1.1\n", "GET / HTTP/1.1\r\n", "x\n", " \r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		out := string(rewriteRequestLine([]byte(line)))
		if out == line {
			return
		}
		body := strings.TrimRight(out, "\r\n")
		method, rest, _ := strings.Cut(body, " ")
		sp := strings.LastIndexByte(rest, ' ')
		if sp < 0 {
			t.Fatalf("%q -> %q", line, out)
		}
		target := rest[:sp]
		if _, err := url.ParseRequestURI(target); err != nil {
			t.Fatalf("%q -> %q: the new target is refused: %v", line, out, err)
		}
		q, ok := strings.CutPrefix(target, badTargetPath+"?")
		orig, err := url.PathUnescape(q)
		if !ok || err != nil || !strings.HasPrefix(line, method+" "+orig+" ") {
			t.Fatalf("%q -> %q: the target %q does not give the original back", line, out, orig)
		}
	})
}

// The connections the Listener returns can be half-closed, as the net.Conn
// they wrap: net/http and the caps' 503 (conns.go) shut the sending side
// so that the client reads the answer, not a reset.
func TestRequestLineConnCloseWrite(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err == nil {
			defer c.Close()
			io.Copy(io.Discard, c)
		}
	}()
	c, err := requestLineListener{ln, New(Config{})}.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cw, ok := c.(interface{ CloseWrite() error })
	if !ok || cw.CloseWrite() != nil {
		t.Errorf("%T cannot be half-closed", c)
	}
}

// FuzzRequestLineConn: the connection passes every byte on, line for
// line, except request lines it rewrites (each then names badTargetPath);
// it never panics, whatever the client sends.
func FuzzRequestLineConn(f *testing.F) {
	f.Add([]byte("GET /a%zz HTTP/1.1\r\nHost: h\r\n\r\nGET / HTTP/1.1\r\n\r\n"))
	f.Add([]byte("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nGET /a%zz HTTP/1.1\r\n\r\n"))
	f.Add([]byte("\r\nGET /x y HTTP/1.0\nAccept: text/html\n\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		c := &requestLineConn{br: bufio.NewReaderSize(bytes.NewReader(in), 4096)}
		out, err := io.ReadAll(c)
		if err != nil {
			t.Fatal(err)
		}
		got, want := bytes.SplitAfter(out, []byte("\n")), bytes.SplitAfter(in, []byte("\n"))
		if len(got) != len(want) {
			t.Fatalf("%d lines in, %d out:\n%q\n%q", len(want), len(got), in, out)
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) && !bytes.Contains(got[i], []byte(" "+badTargetPath+"?")) {
				t.Fatalf("line %d: %q became %q", i, want[i], got[i])
			}
		}
	})
}
