package gateway

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/testio"
)

// get asks base for target with an Accept header.
func getAccept(t *testing.T, base, target, accept string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("GET", base+target, nil)
	if err != nil {
		t.Fatal(err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

// Issue 22 item 4: /go takes what people type. A bare host gets the scheme
// its first label names, as lynx guesses it; unsafe characters are repaired
// by lenient.Parse and the repairs listed; what cannot be repaired is
// shown with the offending character marked; an http address is said to be
// the browser's business.
func TestGoInput(t *testing.T) {
	base := serve(t, New(Config{}))
	for _, tc := range []struct {
		input    string
		status   int
		location string
		body     []string // in the HTML page
	}{
		{"gopher.floodgap.com", 303, "/gopher://gopher.floodgap.com", []string{`added &#34;gopher://&#34;`}},
		{"  Gopher.Example.org/1/fun ", 303, "/gopher://Gopher.Example.org/1/fun", nil},
		{"gopher.example.org:7070/1/", 303, "/gopher://gopher.example.org:7070/1/", nil},
		{"ftp.example.org/pub/", 303, "/ftp://ftp.example.org/pub/", nil},
		{"news.example.org", 303, "/nntp://news.example.org", nil},
		{"gopher://h.example/0a b.txt", 303, "/gopher://h.example/0a%20b.txt", []string{"space 0x20 encoded as %20"}},
		{"gopher://h.example/0caf\u00e9", 303, "/gopher://h.example/0caf%C3%A9", []string{"non-ASCII byte 0xC3 encoded as %C3"}},
		{"www.example.org", 400, "", []string{"web (http) address", "browser fetches itself"}},
		{"localhost:8080", 400, "", []string{"web (http) address"}},
		{"", 400, "", []string{"enter a URL"}},
		// An invalid host cannot be repaired: the byte is marked.
		{"gopher://h_x.example/1/", 400, "", []string{`<pre class="input">gopher://h<mark>_</mark>x.example/1/</pre>`}},
		{"ftp.ex!ample.org/", 400, "", []string{`<pre class="input">ftp.ex<mark>!</mark>ample.org/</pre>`}},
	} {
		resp, body := getAccept(t, base, "/go?url="+url.QueryEscape(tc.input), browserAccept)
		if resp.StatusCode != tc.status || resp.Header.Get("Location") != tc.location {
			t.Errorf("%q: %d %q, want %d %q\n%s", tc.input, resp.StatusCode, resp.Header.Get("Location"), tc.status, tc.location, body)
			continue
		}
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("%q: %s", tc.input, resp.Header.Get("Content-Type"))
		}
		for _, w := range tc.body {
			if !strings.Contains(body, w) {
				t.Errorf("%q: page lacks %s:\n%s", tc.input, w, body)
			}
		}
	}
	// Plain text for a client that does not ask for HTML: one line, with
	// the offset.
	resp, body := getAccept(t, base, "/go?url="+url.QueryEscape("gopher://h_x.example/"), "")
	if resp.StatusCode != 400 || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" ||
		!strings.HasPrefix(body, "urlkit gateway: 400 Bad Request: offset 10 ") || strings.Count(body, "\n") != 1 {
		t.Errorf("plain: %d %q\n%q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	// A search form's term is added as a gopher search.
	resp, _ = getAccept(t, base, "/go?url="+url.QueryEscape("gopher://h.example/7/find")+"&q=caf%C3%A9+au+lait", "")
	if resp.StatusCode != 303 || resp.Header.Get("Location") != "/gopher://h.example/7/find%09caf%C3%A9%20au%20lait" {
		t.Errorf("search: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// Issue 22 item 5: an error page says what failed in the command line's
// plain words (access.PlainError), with the status, the URL box filled with
// the URL and a retry link; plain text for clients that prefer it.
func TestErrorPage(t *testing.T) {
	addr := testio.ClosedAddr(t)
	base := serve(t, New(allow(addr)))
	target := "gopher://" + addr + "/0/x"
	resp, body := getAccept(t, base, "/"+target, browserAccept)
	for _, w := range []string{
		"<h1>Bad Gateway (502)</h1>",
		"connecting to " + addr + ": connection refused (no server listens on that port)",
		`<a href="/` + target + `">Retry ` + target + `</a>`,
		`<input type="text" name="url" value="` + target + `"`,
	} {
		if !strings.Contains(body, w) {
			t.Errorf("page lacks %s:\n%s", w, body)
		}
	}
	if resp.StatusCode != 502 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" || strings.Contains(body, "dial tcp") {
		t.Errorf("%d %q:\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	resp, body = getAccept(t, base, "/"+target, "*/*")
	if resp.StatusCode != 502 || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" ||
		!strings.HasPrefix(body, "urlkit gateway: 502 Bad Gateway: ") || !strings.Contains(body, "no server listens on that port") {
		t.Errorf("plain: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

// A URL in the path form that urlkit rejects: the answer marks the byte
// (plain text here: raw sends no Accept), except in a URL with a login.
func TestErrorPageMarksURL(t *testing.T) {
	base := serve(t, New(Config{}))
	resp, body := raw(t, base, "GET", "/gopher://h_x.example/1/")
	if resp.StatusCode != 400 || !strings.HasPrefix(body, "urlkit gateway: 400 Bad Request: offset 10 ") || strings.Count(body, "\n") != 1 {
		t.Errorf("%d:\n%s", resp.StatusCode, body)
	}
	resp, body = raw(t, base, "GET", "/ftp://user:pw@h_x.example/")
	if resp.StatusCode != 400 || strings.Contains(body, "pw@") {
		t.Errorf("with a login: %d:\n%s", resp.StatusCode, body)
	}
}

func TestWantsHTML(t *testing.T) {
	for accept, want := range map[string]bool{
		browserAccept: true,
		"text/html, text/plain, text/sgml, */*;q=0.01": true, // lynx
		"*/*":                             false, // curl
		"":                                false, // urlkit get
		"text/plain, text/html":           true,
		"text/plain;q=1, text/html;q=0.5": false,
		"text/html;q=0":                   false,
	} {
		if got := wantsHTML(accept); got != want {
			t.Errorf("wantsHTML(%q) = %v", accept, got)
		}
	}
}

// Issue 36 item 3: a gopher search as lynx users write it,
// "gopher://h/7/find?words". Typed into the URL box, the lenient reading
// takes the "?" as the search's start (written %09, RFC 1738 3.4) and says
// so; in the path form the strict reading stands (the selector holds the
// "?"): the search item's form, with the words in its field and the
// lenient reading's URL one click away.
func TestGopherSearchAsTyped(t *testing.T) {
	base := serve(t, New(Config{}))
	resp, body := getAccept(t, base, "/go?url="+url.QueryEscape("gopher://h.example/7/find?two words"), browserAccept)
	if resp.StatusCode != 303 || resp.Header.Get("Location") != "/gopher://h.example/7/find%09two%20words" || !strings.Contains(body, "read as the start of its search") {
		t.Errorf("/go: %d %q\n%s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	resp, body = getAccept(t, base, "/gopher://h.example/7/find?two%20words", browserAccept)
	for _, w := range []string{
		`<a href="/gopher://h.example/7/find%09two%20words">gopher://h.example/7/find%09two%20words</a>`,
		`<input type="hidden" name="url" value="gopher://h.example/7/find">`,
		`<input type="text" name="q" value="two words" autofocus>`,
	} {
		if resp.StatusCode != 200 || !strings.Contains(body, w) {
			t.Errorf("search page: %d, lacks %s\n%s", resp.StatusCode, w, body)
		}
	}
	// A search item named without words: no such line.
	_, body = getAccept(t, base, "/gopher://h.example/7/find", browserAccept)
	if strings.Contains(body, `class="fix"`) || !strings.Contains(body, `name="q" value="" autofocus`) {
		t.Errorf("plain search page:\n%s", body)
	}
}
