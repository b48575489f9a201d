package gateway

import (
	"html"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/internal/testkit/testservers"
)

// The gateway's WAIS and Prospero pages (issue 23), against freeWAIS-sf and
// dirsrv as .ci/servers.sh starts them (RFC 1738 3.9 and 3.11).

var hrefRE = regexp.MustCompile(`<td><a href="(/wais://[^"]+)">([^<]*)</a></td><td class="size">(\d+)</td><td class="size" title="([^"]*)">([^<]*)</td><td class="kind">([^<]*)</td>`)

// /wais://host:port/db is a search form titled with the database's name,
// its trail on the wais scheme; its words go to /go, which redirects to
// the search URL; the results page (its own search field holding the
// words, an up link to the form) shows each hit by headline, score, size
// and type, linked to its document, whose bytes come back exactly, as
// text; the hit's document id is in the link only.
func TestRealWAISPages(t *testing.T) {
	env := testservers.Require(t, "URLKIT_WAIS_ADDR")
	addr := env["URLKIT_WAIS_ADDR"]
	base := serve(t, New(allow(addr)))
	resp, body := raw(t, base, "GET", "/wais://"+addr+"/demo")
	if resp.StatusCode != 200 || !strings.Contains(body, `<form method="get" action="/go">`) || !strings.Contains(body, `name="url" value="wais://`+addr+`/demo"`) {
		t.Fatalf("search form: %d %s", resp.StatusCode, body)
	}
	for _, want := range []string{"<title>search WAIS database: demo</title>", "<h1>search WAIS database: demo</h1>",
		`<nav class="crumbs">` + addr + ` / <strong>demo</strong></nav>`} {
		if !strings.Contains(body, want) {
			t.Errorf("search form lacks %s\n%s", want, body)
		}
	}
	if strings.Contains(body, `href="/gopher://`) || strings.Contains(body, `rel="up"`) {
		t.Errorf("search form links off the wais scheme or up from a database:\n%s", body)
	}
	resp, _ = raw(t, base, "GET", "/go?url=wais://"+addr+"/demo&q=retrieval+a/b")
	if loc := resp.Header.Get("Location"); resp.StatusCode != 303 || loc != "/wais://"+addr+"/demo?retrieval%20a%2Fb" {
		t.Errorf("/go: %d %q", resp.StatusCode, loc)
	}
	resp, body = raw(t, base, "GET", "/wais://"+addr+"/demo?retrieval")
	if resp.StatusCode != 200 {
		t.Fatalf("results: %d %s", resp.StatusCode, body)
	}
	for _, want := range []string{
		"<title>retrieval in demo</title>",
		`<nav class="crumbs"><a href="/wais://` + addr + `/demo" rel="up" title="one level up">&uarr; up</a> · ` + addr + ` / <a href="/wais://` + addr + `/demo">demo</a> / <strong>retrieval</strong></nav>`,
		`<input type="hidden" name="url" value="wais://` + addr + `/demo">`,
		`<input type="search" name="q" value="retrieval"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("results page lacks %s\n%s", want, body)
		}
	}
	links := hrefRE.FindAllStringSubmatch(body, -1)
	if len(links) != 2 || links[0][2] != "The Internet Gopher" || links[0][3] != "147" || links[0][4] != "141 bytes, 3 lines" || links[0][5] != "141 B" || links[0][6] != "TEXT" {
		t.Fatalf("results page: %q\n%s", links, body)
	}
	// The document ids (each some 150 bytes) are in the hrefs only.
	if rest := regexp.MustCompile(`href="[^"]*"`).ReplaceAllString(body, ""); strings.Contains(rest, "%2Ftmp%2F") || strings.Contains(rest, "/TEXT/") {
		t.Errorf("a document id is shown outside its link:\n%s", rest)
	}
	for _, l := range links {
		name := "gopher.txt"
		if strings.HasPrefix(l[2], "Wide Area") {
			name = "wais.txt"
		}
		want, _ := os.ReadFile(env["URLKIT_WAIS_DOCS"] + "/" + name)
		resp, body := raw(t, base, "GET", html.UnescapeString(l[1]))
		if resp.StatusCode != 200 || body != string(want) || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
			t.Errorf("%s: %d %q %q", l[1], resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
	// A client asking for listings as access.ListingType (get --proxy)
	// gets the hits as access lists them.
	resp, body = getAccept(t, base, "/wais://"+addr+"/demo?retrieval", access.ListingType)
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || !strings.HasPrefix(ct, access.ListingType+"; kind=search") ||
		!strings.HasPrefix(body, `# WAIS search: 2 documents for "retrieval" in database "demo"`) {
		t.Errorf("listing: %d %q %q", resp.StatusCode, ct, body)
	}
	// The proxy form: links are the URLs themselves.
	resp, body = raw(t, base, "GET", "wais://"+addr+"/demo?Neuman")
	if resp.StatusCode != 200 || !strings.Contains(body, `href="wais://`+addr+`/demo/TEXT/`) || !strings.Contains(body, "The Prospero Directory Service") {
		t.Errorf("proxy form: %d %s", resp.StatusCode, body)
	}
	// Its search field goes to the gateway by its address (the page's own
	// address is the wais URL), which its Content-Security-Policy allows.
	gw := strings.TrimPrefix(base, "http://")
	if !strings.Contains(body, `<form method="get" action="http://`+gw+`/go">`) || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "form-action 'self' http://"+gw+";") {
		t.Errorf("proxy form's search field: %q\n%s", resp.Header.Get("Content-Security-Policy"), body)
	}
	// A database the server does not have: its diagnostic, as 502.
	resp, body = raw(t, base, "GET", "/wais://"+addr+"/nosuchdb?x")
	if resp.StatusCode != 502 || !strings.Contains(body, "not available") {
		t.Errorf("nosuchdb: %d %s", resp.StatusCode, body)
	}
}

// /prospero://host:port//hsoname: a directory page whose entries link to
// their prospero URLs (RFC 1738 3.11's double slash); a file's bytes
// exactly, with the type its name suggests.
func TestRealProsperoPages(t *testing.T) {
	env := testservers.RequireUDP(t, "URLKIT_PROSPERO_ADDR")
	addr, root := env["URLKIT_PROSPERO_ADDR"], env["URLKIT_PROSPERO_ROOT"]
	base := serve(t, New(allow(addr)))
	resp, body := raw(t, base, "GET", "/prospero://"+addr+"/"+root+"/pub")
	if resp.StatusCode != 200 {
		t.Fatalf("directory: %d %s", resp.StatusCode, body)
	}
	for _, want := range []string{
		`href="/prospero://` + addr + `/` + root + `/pub/hello.txt">hello.txt</a>`,
		`<a href="/prospero://` + addr + `/` + root + `/pub/subdir">subdir</a></td><td class="size"></td><td>` + modified(t, root+"/pub/subdir") + `</td><td class="kind">directory</td>`,
		`hello.txt</a></td><td class="size" title="35 bytes">35 B</td><td>` + modified(t, root+"/pub/hello.txt") + `</td><td class="kind">file (prospero-contents, local)</td>`,
		`<a href="/prospero://` + addr + `/` + root + `" rel="up" title="one level up">&uarr; up</a> · <a href="/prospero://` + addr + `/">` + addr + `</a> / `,
		` / <strong>pub</strong></nav>`,
		`href="/prospero://` + addr + `/` + root + `/pub/it%27s%20spaced.txt">it&#39;s spaced.txt</a>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("directory page lacks %s\n%s", want, body)
		}
	}
	for name, ctype := range map[string]string{"hello.txt": "text/plain", "all256.bin": octetStream} {
		want, _ := os.ReadFile(root + "/pub/" + name)
		resp, body := raw(t, base, "GET", "/prospero://"+addr+"/"+root+"/pub/"+name)
		if resp.StatusCode != 200 || body != string(want) || !strings.HasPrefix(resp.Header.Get("Content-Type"), ctype) {
			t.Errorf("%s: %d %q %d bytes", name, resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
		}
	}
	// A name outside the server's tree, as vls writes it: the page names
	// the root (the server's STATUS, as pstatus shows it) and links the
	// same name under it.
	resp, body = getAccept(t, base, "/prospero://"+addr+"/pub", browserAccept)
	if w := `<a href="/prospero://` + addr + `/` + root + `/pub">prospero://` + addr + `/` + root + `/pub</a>`; resp.StatusCode != 502 ||
		!strings.Contains(body, w) || !strings.Contains(body, "The server serves the tree under "+root) {
		t.Errorf("refused name: %d, lacks %s\n%s", resp.StatusCode, w, body)
	}
	// As access.ListingType: the listing's lines.
	resp, body = getAccept(t, base, "/prospero://"+addr+"/"+root+"/pub/subdir", access.ListingType)
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || !strings.HasPrefix(ct, access.ListingType+"; kind=directory") ||
		!strings.Contains(body, "/pub/subdir/notes.txt\tFILE\tnotes.txt\t") {
		t.Errorf("listing: %d %q %q", resp.StatusCode, ct, body)
	}
	// The proxy form.
	resp, body = raw(t, base, "GET", "prospero://"+addr+"/"+root+"/pub/subdir")
	if resp.StatusCode != 200 || !strings.Contains(body, `href="prospero://`+addr+`/`+root+`/pub/subdir/notes.txt">notes.txt</a>`) {
		t.Errorf("proxy form: %d %s", resp.StatusCode, body)
	}
}

// The same policy as every scheme: a gateway that does not allow loopback
// targets sends no datagram to one; a port of another service is refused;
// a hostile WAIS headline is text on the page, never markup.
func TestWAISProsperoPolicy(t *testing.T) {
	udp := hostile.ServeUDP(t, hostile.ProsperoSilentUDP)
	public := serve(t, New(Config{}))
	resp, body := raw(t, public, "GET", "/prospero://"+udp.Addr+"//x")
	if resp.StatusCode != 403 || udp.Requests.Load() != 0 {
		t.Errorf("loopback prospero target: %d %q, %d datagrams sent", resp.StatusCode, body, udp.Requests.Load())
	}
	resp, body = raw(t, serve(t, New(allow("127.0.0.1:25"))), "GET", "/wais://127.0.0.1:25/db?x")
	if resp.StatusCode != 403 || !strings.Contains(body, "smtp") {
		t.Errorf("port 25: %d %q", resp.StatusCode, body)
	}
	w := hostile.Serve(t, hostile.WAISScript(func(int, []byte) []byte {
		return hostile.WAISMessage(waisHits("<script>alert(1)</script>"))
	}))
	resp, body = raw(t, serve(t, New(allow(w.Addr))), "GET", "/wais://"+w.Addr+"/db?x")
	if resp.StatusCode != 200 || strings.Contains(body, "<script>") || !strings.Contains(body, "&lt;script&gt;") {
		t.Errorf("headline: %d %s", resp.StatusCode, body)
	}
	// A bidi control in a headline is shown, not obeyed (the listing's
	// escape, access.EscapeText).
	w = hostile.Serve(t, hostile.WAISScript(func(int, []byte) []byte {
		return hostile.WAISMessage(waisHits("photo\u202egpj.exe"))
	}))
	resp, body = raw(t, serve(t, New(allow(w.Addr))), "GET", "/wais://"+w.Addr+"/db?x")
	if resp.StatusCode != 200 || strings.Contains(body, "\u202e") || !strings.Contains(body, `photo\u202egpj.exe`) {
		t.Errorf("bidi headline: %d %s", resp.StatusCode, body)
	}
}

// waisHits is a searchResponse body holding one hit with headline h.
func waisHits(h string) []byte {
	g := []byte{0x74, 0x02, 0x01, 0x00} // DocumentID: element 1, empty
	g = append(g, 0x76, 0x01, 0x64)     // Score 100
	g = append(g, 0x7b, byte(len(h)))
	g = append(g, h...)
	u := append([]byte{0x81, 0x16, byte(len(g))}, g...)
	z := []byte("\x17\x01\x00\x00\x00\x00\x00\x01\x00\x00\x00")
	body := append([]byte{0, byte(len(z))}, z...)
	body = append(body, 0x63, byte(len(u)))
	return append(body, u...)
}

// A Prospero directory without end (windows of LINK lines, acknowledged,
// forever): the page stops at the gateway's item cap with its "truncated"
// line, in bounded memory, and the transfer is abandoned.
func TestProsperoEndlessPage(t *testing.T) {
	udp := hostile.ServeUDP(t, hostile.ProsperoEndless)
	cfg := allow(udp.Addr)
	cfg.MaxPageItems = 5000
	resp, body := raw(t, serve(t, New(cfg)), "GET", "/prospero://"+udp.Addr+"//x")
	if resp.StatusCode != 200 || !strings.Contains(body, "the listing is truncated here: the gateway shows at most 5,000 entries") || strings.Count(body, `class="kind">file</td>`) != 5000 {
		t.Errorf("%d, %d entries, %d bytes", resp.StatusCode, strings.Count(body, `class="kind">file</td>`), len(body))
	}
}

// modified is the file's modification time as the directory pages show
// it: UTC to the minute (dirsrv's LAST-MODIFIED is UTC).
func modified(t *testing.T, name string) string {
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime().UTC().Format("2006-01-02 15:04")
}
