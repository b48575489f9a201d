package gateway

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	gowarc "github.com/nlnwa/gowarc/v3"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/archive"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/scheme"
)

// capturer writes a WARC file of live retrievals, each a resource record
// as archive/conventions.go says (PayloadMediaType: the one mapping from a
// retrieval to its record), gzipped record by record.
type capturer struct {
	t   testing.TB
	buf bytes.Buffer
}

// fetch retrieves raw through access, as the live gateway does (the
// gateway's scheme configuration), and writes its resource record dated at.
func (c *capturer) fetch(raw string, at time.Time) []byte {
	c.t.Helper()
	u, err := urlkit.Parse(raw)
	if err != nil {
		c.t.Fatal(err)
	}
	plan, err := scheme.PlanOf(u, scheme.Config{FTPListDetails: true, NewsServer: "127.0.0.1:1"})
	if err != nil {
		c.t.Fatal(err)
	}
	rc, err := access.Execute(context.Background(), plan, nil)
	if err != nil {
		c.t.Fatalf("%s: %v", raw, err)
	}
	body, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		c.t.Fatalf("%s: %v", raw, err)
	}
	ct, err := archive.PayloadMediaType(rc)
	if err != nil {
		c.t.Fatal(err)
	}
	c.record(urlkit.Canonical(u).String(), ct, body, at)
	return body
}

// record writes one resource record.
func (c *capturer) record(target, ctype string, body []byte, at time.Time) {
	c.write(gowarc.Resource, target, ctype, at, body)
}

// response writes one http response record (application/http;
// msgtype=response): head, the status line and header, then body.
func (c *capturer) response(target, head string, body []byte, at time.Time) {
	c.write(gowarc.Response, target, archive.HTTPResponseType, at, []byte(head), body)
}

// write writes one record of type typ whose block is the parts, gzipped
// as a member of its own.
func (c *capturer) write(typ gowarc.RecordType, target, ctype string, at time.Time, parts ...[]byte) {
	rb := gowarc.NewRecordBuilder(typ, gowarc.WithAddMissingDigest(true), gowarc.WithAddMissingRecordId(true), gowarc.WithDefaultDigestAlgorithm("sha1"))
	rb.AddWarcHeader(gowarc.WarcTargetURI, target)
	rb.AddWarcHeaderTime(gowarc.WarcDate, at)
	if ctype != "" {
		rb.AddWarcHeader(gowarc.ContentType, ctype)
	}
	for _, p := range parts {
		rb.Write(p)
	}
	rec, _, err := rb.Build()
	if err != nil {
		c.t.Fatal(err)
	}
	zw := gzip.NewWriter(&c.buf)
	if _, _, err := gowarc.NewMarshaler().Marshal(zw, rec, 0); err != nil {
		c.t.Fatal(err)
	}
	zw.Close()
}

// archive writes the file and opens it for replay.
func (c *capturer) archive() *archive.Archive {
	c.t.Helper()
	name := filepath.Join(c.t.TempDir(), "capture.warc.gz")
	if err := os.WriteFile(name, c.buf.Bytes(), 0o644); err != nil {
		c.t.Fatal(err)
	}
	a, err := archive.OpenArchive([]string{name}, scheme.Config{}, func(err error) { c.t.Errorf("indexing: %v", err) })
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { a.Close() })
	return a
}

// replayGateway returns a gateway replaying a, whose every dial fails the
// test: replay must not connect anywhere.
func replayGateway(t *testing.T, a *archive.Archive) *Gateway {
	g := New(Config{Replay: a})
	g.testDial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		t.Errorf("replay dialled %s %s", network, addr)
		return nil, errors.New("replay must not dial")
	}
	return g
}

var bannerRE = regexp.MustCompile(`<div class="replay"[^>]*>.*</div>\n`)

// TestReplayRoundTrip: a page served live by the gateway and the same page
// replayed from its capture are the same but for the banner, and every
// captured document replays byte for byte (issue 33, Tests). The replay
// gateway's dialer fails the test, and the servers are closed before
// replay: nothing is fetched.
func TestReplayRoundTrip(t *testing.T) {
	doc := []byte("A document.\r\nWith \x00 binary and a line\n")
	bin := bytes.Repeat([]byte{0, 1, 2, 250, 251}, 30000) // more than the gateway's first buffer
	docs := map[string][]byte{
		"/doc":  doc,
		"/bin":  bin,
		"/find": []byte("0Result one\t/r1\th.example\t70\r\n.\r\n"),
	}
	gs, err := fakeservers.Gopher(docs)
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	host, port, _ := net.SplitHostPort(gs.Addr())
	docs["/m"] = []byte(strings.NewReplacer("HOST", host, "PORT", port).Replace("0Doc\t/doc\tHOST\tPORT\r\n9Bin\t/bin\tHOST\tPORT\r\n1Sub\t/m\tHOST\tPORT\r\niinfo line\t\terror.host\t1\r\n7Find\t/find\tHOST\tPORT\r\n.\r\n"))
	fs := ftpServer(t, map[string][]byte{"/pub/f.txt": []byte("ftp text\n"), "/pub/dir/a.bin": {1, 2, 3}})
	gaddr, faddr := gs.Addr(), fs.Addr()
	urls := []string{
		"gopher://" + gaddr + "/1/m",
		"gopher://" + gaddr + "/0/doc",
		"gopher://" + gaddr + "/9/bin",
		"gopher://" + gaddr + "/7/find%09two%20words",
		"ftp://" + faddr + "/pub/dir/",
		"ftp://" + faddr + "/pub/f.txt",
	}
	live := serve(t, New(allow(gaddr, faddr)))
	type page struct {
		status int
		ctype  string
		body   string
	}
	get := func(base, target string) page {
		resp, body := raw(t, base, "GET", target)
		return page{resp.StatusCode, resp.Header.Get("Content-Type"), body}
	}
	c := &capturer{t: t}
	livePages := map[string]page{}
	captured := map[string][]byte{}
	for _, u := range urls {
		livePages[u] = get(live, "/"+u)
		captured[u] = c.fetch(u, time.Date(1994, 6, 1, 12, 0, 0, 0, time.UTC))
	}
	a := c.archive()
	gs.Close()
	fs.Close()
	rp := serve(t, replayGateway(t, a))
	for _, u := range urls {
		lp, rpg := livePages[u], get(rp, "/"+u)
		if lp.status != 200 || rpg.status != 200 || lp.ctype != rpg.ctype {
			t.Errorf("%s: live %d %q, replayed %d %q", u, lp.status, lp.ctype, rpg.status, rpg.ctype)
			continue
		}
		if strings.HasPrefix(lp.ctype, "text/html") {
			if !bannerRE.MatchString(rpg.body) || !strings.Contains(rpg.body, "1994-06-01 12:00:00 UTC") {
				t.Errorf("%s: the replayed page has no banner with the capture date:\n%s", u, rpg.body)
			}
			if got := bannerRE.ReplaceAllString(rpg.body, ""); got != lp.body {
				t.Errorf("%s: replayed page differs from the live one but for the banner:\nlive:\n%s\nreplayed:\n%s", u, lp.body, got)
			}
			continue
		}
		if rpg.body != lp.body || rpg.body != string(captured[u]) {
			t.Errorf("%s: replayed document is not the captured bytes (%d bytes, captured %d)", u, len(rpg.body), len(captured[u]))
		}
	}
	// The proxy form too.
	if p := get(rp, "gopher://"+gaddr+"/0/doc"); p.body != string(doc) {
		t.Errorf("proxy form: %q", p.body)
	}
}

// TestReplayNotArchived: a URL the archive lacks gets urlkit's own 404
// page (HTML for a browser, one line for curl), as does a search whose
// query was not captured.
func TestReplayNotArchived(t *testing.T) {
	c := &capturer{t: t}
	c.record("gopher://h.example/7/find%09old%20query", "text/x-gopher-menu", []byte("0Hit\t/hit\th.example\t70\r\n"), time.Date(1994, 1, 1, 0, 0, 0, 0, time.UTC))
	base := serve(t, replayGateway(t, c.archive()))
	for _, target := range []string{"/gopher://h.example/0/missing", "/gopher://h.example/7/find%09new%20query"} {
		resp, body := raw(t, base, "GET", target)
		if resp.StatusCode != 404 || strings.Count(body, "\n") != 1 || !strings.HasPrefix(body, "urlkit gateway: 404 Not Found: not in the archive: gopher://h.example/") {
			t.Errorf("%s: %d %q", target, resp.StatusCode, body)
		}
		// A search not captured names the captured ones of its item.
		if search := strings.Contains(target, "%09"); search != strings.Contains(body, "the searches of it the archive holds: gopher://h.example/7/find%09old%20query") {
			t.Errorf("%s: %q", target, body)
		}
	}
	req, _ := http.NewRequest("GET", base+"/gopher://h.example/0/missing", nil)
	req.Header.Set("Accept", "text/html")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 404 || !strings.Contains(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(body), "not in the archive") {
		t.Errorf("browser: %d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	// The captured query replays.
	resp2, body2 := raw(t, base, "GET", "/gopher://h.example/7/find%09old%20query")
	if resp2.StatusCode != 200 || !strings.Contains(body2, "Hit") {
		t.Errorf("captured search: %d\n%s", resp2.StatusCode, body2)
	}
}

// TestReplayTimestamp: /TIMESTAMP/URL picks the capture nearest that time,
// as Wayback machines do; without one the latest is served; the banner
// lists the other captures as /TIMESTAMP/URL links.
func TestReplayTimestamp(t *testing.T) {
	c := &capturer{t: t}
	u := "gopher://h.example/0/news"
	for i, d := range []time.Time{
		time.Date(1993, 3, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1994, 6, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1996, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		c.record(u, "text/plain", []byte("version "+string(rune('1'+i))+"\n"), d)
	}
	c.record("gopher://h.example/1/", "text/x-gopher-menu", []byte("0News\t/news\th.example\t70\r\n"), time.Date(1994, 6, 1, 0, 0, 0, 0, time.UTC))
	base := serve(t, replayGateway(t, c.archive()))
	for target, want := range map[string]string{
		"/" + u:                           "version 3\n",
		"/1993/" + u:                      "version 1\n",
		"/19940115/" + u:                  "version 2\n",
		"/19950501/" + u:                  "version 3\n",
		"/19950301000000/" + u:            "version 2\n",
		"/19950317120000/" + u:            "version 2\n", // equidistant from 1994-06-01 and 1996-01-01: the earlier
		"/20260101/" + u:                  "version 3\n",
		"/1994/gopher://h.example/0/news": "version 2\n",
	} {
		resp, body := raw(t, base, "GET", target)
		if resp.StatusCode != 200 || body != want {
			t.Errorf("%s: %d %q, want %q", target, resp.StatusCode, body, want)
		}
		if resp.Header.Get("Memento-Datetime") == "" {
			t.Errorf("%s: no Memento-Datetime", target)
		}
	}
	_, body := raw(t, base, "GET", "/gopher://h.example/1/")
	if !strings.Contains(body, "1994-06-01 00:00:00 UTC") {
		t.Errorf("menu banner lacks the date:\n%s", body)
	}
	for _, bad := range []string{"/123/" + u, "/1994x/" + u, "/199413/" + u} {
		if resp, _ := raw(t, base, "GET", bad); resp.StatusCode != 404 {
			t.Errorf("%s: %d", bad, resp.StatusCode)
		}
	}
}

// TestReplayNewsMessageID: news:MESSAGE-ID finds the article by its
// message-id whatever server and group it was captured from. The 1993
// URL draft (draft-ietf-uri-url, news section) calls it "an outstanding
// problem" that "the message identifier is insufficient to allow the
// retrieval of an expired article"; an archive is the directory it
// asked for.
func TestReplayNewsMessageID(t *testing.T) {
	c := &capturer{t: t}
	article := "From: someone@example.org\r\nNewsgroups: comp.infosystems.gopher\r\nSubject: gopher+\r\nMessage-ID: <1993Jun1.120000.1234@example.org>\r\n\r\nThe text.\r\n"
	plan, _ := scheme.PlanOf(mustParse(t, "nntp://news.example.org/comp.infosystems.gopher/42"), scheme.Config{})
	ct, err := archive.PayloadMediaType(&access.Resource{Plan: plan, Kind: "article"})
	if err != nil {
		t.Fatal(err)
	}
	c.record("nntp://news.example.org/comp.infosystems.gopher/42", ct, []byte(article), time.Date(1993, 6, 1, 12, 0, 0, 0, time.UTC))
	base := serve(t, replayGateway(t, c.archive()))
	resp, body := raw(t, base, "GET", "/news:1993Jun1.120000.1234@example.org")
	if resp.StatusCode != 200 || body != article {
		t.Fatalf("news:message-id: %d %q", resp.StatusCode, body)
	}
	if resp, _ := raw(t, base, "GET", "/news:other@example.org"); resp.StatusCode != 404 {
		t.Errorf("unknown message-id: %d", resp.StatusCode)
	}
}

func mustParse(t *testing.T, s string) urlkit.URL {
	u, err := urlkit.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// BenchmarkReplayVsLive serves the same gopher menu page (fakeservers'
// 500-item menu) live and from its capture, interleaved in rounds of 20
// requests each way, and reports the process CPU time (user+sys) a page
// costs each way; the live side's includes the in-process gopher server's.
//
//	go test ./gateway -run '^$' -bench ReplayVsLive -benchtime 2000x
func BenchmarkReplayVsLive(b *testing.B) {
	menu := fakeservers.LongMenu(500)
	gs, err := fakeservers.Gopher(map[string][]byte{"/m": menu})
	if err != nil {
		b.Fatal(err)
	}
	defer gs.Close()
	u := "gopher://" + gs.Addr() + "/1/m"
	c := &capturer{t: b}
	c.fetch(u, time.Date(1994, 6, 1, 0, 0, 0, 0, time.UTC))
	name := filepath.Join(b.TempDir(), "c.warc.gz")
	os.WriteFile(name, c.buf.Bytes(), 0o644)
	a, err := archive.OpenArchive([]string{name}, scheme.Config{}, func(err error) { b.Fatal(err) })
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	live := httptest.NewServer(New(allow(gs.Addr())))
	defer live.Close()
	rp := httptest.NewServer(New(Config{Replay: a}))
	defer rp.Close()
	get := func(base string) {
		resp, err := http.Get(base + "/" + u)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatal(resp.Status)
		}
	}
	get(live.URL)
	get(rp.URL)
	liveCPU, replayCPU, n := cpuInTurns(b, 20, func() { get(live.URL) }, func() { get(rp.URL) })
	b.ReportMetric(float64(liveCPU.Microseconds())/float64(n), "live-cpu-us/page")
	b.ReportMetric(float64(replayCPU.Microseconds())/float64(n), "replay-cpu-us/page")
	b.ReportMetric(float64(replayCPU)/float64(liveCPU), "replay/live")
}

// FuzzReplayRequest: any request target given to a replaying gateway
// (the path form, /TIMESTAMP/URL, the proxy form) is answered without a
// dial and without a failure of the gateway's own (500) or of its archive
// (502: every record here is whole); a capture served carries its
// Memento-Datetime.
func FuzzReplayRequest(f *testing.F) {
	c := &capturer{t: f}
	d := time.Date(1994, 6, 1, 12, 0, 0, 0, time.UTC)
	c.record("gopher://h.example/1/", "text/x-gopher-menu", []byte("0Doc\t/doc\th.example\t70\r\n7Find\t/find\th.example\t70\r\n"), d)
	c.record("gopher://h.example/0/doc", "text/plain", []byte("doc\n"), d)
	c.record("gopher://h.example/7/find%09a%20b", "text/x-gopher-menu", []byte("0Hit\t/hit\th.example\t70\r\n"), d)
	c.record("wais://w.example/db?q", "text/x-wais-hits; charset=utf-8", []byte(""), d)
	c.record("nntp://n.example/g/1", "message/rfc822", []byte("Message-ID: <1@n.example>\r\n\r\nbody\r\n"), d)
	for _, s := range []string{"/gopher://h.example/1/", "/1994/gopher://h.example/0/doc", "/19940601120000/gopher://h.example/1/",
		"gopher://h.example/0/doc", "/gopher://h.example/7/find%09x", "/wais://w.example/db?z", "/news:1@n.example",
		"/99/gopher://h.example/1/", "/2026/", "/1994/x", "/0000/gopher://h.example/1/", "/gopher://h.example/1/#frag"} {
		f.Add(s)
	}
	a := c.archive()
	f.Fuzz(func(t *testing.T, target string) {
		u, err := url.ParseRequestURI(target)
		if err != nil || strings.ContainsAny(target, " \t\r\n\x00") {
			return
		}
		g := New(Config{Replay: a, Timeout: time.Second})
		g.testDial = func(ctx context.Context, network, addr string) (net.Conn, error) {
			t.Fatalf("%q: replay dialled %s", target, addr)
			return nil, nil
		}
		r := &http.Request{Method: "GET", URL: u, RequestURI: target, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{}, Host: "127.0.0.1:8070", RemoteAddr: "127.0.0.1:1234"}
		r = r.WithContext(context.WithValue(context.Background(), http.LocalAddrContextKey, net.TCPAddrFromAddrPort(netip.MustParseAddrPort("127.0.0.1:8070"))))
		if u.Host != "" {
			r.Host = u.Host
		}
		w := httptest.NewRecorder()
		func() {
			defer func() {
				if p := recover(); p != nil && p != http.ErrAbortHandler {
					t.Fatalf("%q: panic %v", target, p)
				}
			}()
			g.ServeHTTP(w, r)
		}()
		if w.Code == 500 || w.Code == 502 {
			t.Fatalf("%q: %d %s", target, w.Code, w.Body)
		}
		if w.Code == 200 && strings.Contains(target, "://") && !strings.HasSuffix(target, "/go") && w.Header().Get("Memento-Datetime") == "" && !strings.Contains(w.Body.String(), `name="q"`) {
			t.Fatalf("%q: a capture without Memento-Datetime", target)
		}
	})
}

// TestReplayRootPage: a replaying gateway's front page says so and links
// the archived URLs (each once, exchange records and message-id entries
// passed over), where a live one has its instructions.
func TestReplayRootPage(t *testing.T) {
	c := &capturer{t: t}
	d := time.Date(1994, 6, 1, 12, 0, 0, 0, time.UTC)
	c.record("gopher://h.example/1/", "text/x-gopher-menu", []byte("0Doc\t/doc\th.example\t70\r\n"), d)
	c.record("gopher://h.example/1/", "text/x-gopher-menu", []byte("0Doc\t/doc\th.example\t70\r\n"), d.Add(time.Hour))
	c.record("gopher://h.example/1/", "text/x-gopher-conversation", []byte("> /\r\n"), d)
	c.record("nntp://n.example/g/1", "message/rfc822", []byte("Message-ID: <1@n.example>\r\n\r\nbody\r\n"), d)
	base := serve(t, replayGateway(t, c.archive()))
	resp, body := raw(t, base, "GET", "/")
	if resp.StatusCode != 200 || !strings.Contains(body, "replaying an archive") {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	links := regexp.MustCompile(`<li><a href="([^"]*)">`).FindAllStringSubmatch(body, -1)
	var got []string
	for _, l := range links {
		got = append(got, l[1])
	}
	if want := "/gopher://h.example/1/ /nntp://n.example/g/1"; strings.Join(got, " ") != want {
		t.Errorf("links %q, want %q", got, want)
	}
}

// TestReplayHTTP: a replaying gateway serves an archived http response's
// body byte for byte with its Content-Type (nothing is dialled: the live
// gateway refuses http URLs, which browsers fetch themselves), and a
// response that was not 2xx as the error it was.
func TestReplayHTTP(t *testing.T) {
	c := &capturer{t: t}
	d := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	page := []byte("<html><body>archived <script>alert(1)</script></body></html>")
	c.response("http://www.example.org/", "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: "+strconv.Itoa(len(page))+"\r\n\r\n", page, d)
	c.response("http://www.example.org/gone", "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", nil, d)
	base := serve(t, replayGateway(t, c.archive()))
	resp, body := raw(t, base, "GET", "/http://www.example.org/")
	if resp.StatusCode != 200 || body != string(page) || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" ||
		!strings.HasPrefix(resp.Header.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("%d %q %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Security-Policy"), body)
	}
	if resp, body := raw(t, base, "GET", "/http://www.example.org/gone"); resp.StatusCode != 502 || !strings.Contains(body, "404") {
		t.Errorf("404 capture: %d %q", resp.StatusCode, body)
	}
	if resp, _ := raw(t, base, "GET", "/http://www.example.org/never"); resp.StatusCode != 404 {
		t.Errorf("not captured: %d", resp.StatusCode)
	}
	// The live gateway still refuses http.
	if resp, _ := raw(t, serve(t, New(Config{})), "GET", "/http://www.example.org/"); resp.StatusCode != 501 {
		t.Errorf("live: %d", resp.StatusCode)
	}
}
