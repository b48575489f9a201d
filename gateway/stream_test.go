package gateway

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/internal/testkit/hostile"
)

// Issue 21 item 4: a listing page is written as the listing arrives. The
// upstream sends enough of a menu to fill the page's hold buffer and then
// waits: the client has the start of the page, items included, before the
// upstream has finished.
func TestListingStreams(t *testing.T) {
	release := make(chan struct{})
	up := hostile.Serve(t, func(c net.Conn) {
		bufio.NewReader(c).ReadString('\n')
		for i := 0; i < 1000; i++ {
			fmt.Fprintf(c, "0Item %04d %s\t/i%d\t127.0.0.1\t70\r\n", i, strings.Repeat("x", 40), i)
		}
		select {
		case <-release:
		case <-time.After(10 * time.Second):
		}
		io.WriteString(c, "0Last item\t/last\t127.0.0.1\t70\r\n.\r\n")
	})
	base := serve(t, New(allow(up.Addr)))
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(8 * time.Second))
	fmt.Fprintf(c, "GET /gopher://%s/1 HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", up.Addr, strings.TrimPrefix(base, "http://"))
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no response before the listing ended: %v", err)
	}
	if resp.StatusCode != 200 || resp.ContentLength != -1 {
		t.Fatalf("status %d, Content-Length %d", resp.StatusCode, resp.ContentLength)
	}
	got := make([]byte, 20<<10)
	if _, err := io.ReadFull(resp.Body, got); err != nil {
		t.Fatalf("the page's first 20 KiB did not come before the listing ended: %v", err)
	}
	if !strings.Contains(string(got), "Item 0000") {
		t.Fatalf("the first bytes hold no item:\n%s", got)
	}
	close(release)
	rest, err := io.ReadAll(resp.Body)
	if err != nil || !strings.Contains(string(rest), "Last item") || !strings.Contains(string(rest), "</html>") {
		t.Fatalf("the rest of the page: %v\n%.300s", err, rest)
	}
}

// The item and byte caps end a page with a visible line, and the gateway
// stops reading the listing there: an endless menu, directory, group list
// and overview each give a whole page, quickly.
func TestPageCaps(t *testing.T) {
	menu := hostile.Serve(t, hostile.GopherEndlessMenu(0))
	ftpList := &hostile.FTP{HugeListing: 1 << 40}
	ftp := hostile.Serve(t, ftpList.Serve)
	news := hostile.Serve(t, hostile.NNTPHugeListing(1<<40, 0))
	for _, c := range []struct {
		name, target string
		items, bytes int
		want         string
		count        string // what one item looks like
	}{
		{"menu, items", "/gopher://" + menu.Addr + "/1", 50, 0, "shows at most 50 entries", `<span class=k`},
		{"menu, bytes", "/gopher://" + menu.Addr + "/1", 0, 20000, "writes at most 20,000 bytes of entries", `<span class=k`},
		{"ftp directory", "/ftp://" + ftp.Addr + "/pub/", 70, 0, "shows at most 70 entries", `<tr><td><a href="./`},
		{"group list", "/news:*", 30, 0, "shows at most 30 entries", "<li>"},
		{"overview", "/nntp://" + news.Addr + "/alt.hostile", 40, 0, "shows at most 40 entries", "<li>"},
	} {
		cfg := allow(menu.Addr, ftp.Addr, news.Addr)
		cfg.Scheme.NewsServer = news.Addr
		cfg.MaxPageItems, cfg.MaxPageBytes = c.items, int64(c.bytes)
		cfg.Timeout = 10 * time.Second
		log := &syncBuffer{}
		cfg.Log = log
		base := serve(t, New(cfg))
		start := time.Now()
		resp, body := raw(t, base, "GET", c.target)
		if resp.StatusCode != 200 || !strings.Contains(body, `<p class="truncated">the listing is truncated here: the gateway `+strings.ReplaceAll(c.want, "'", "&#39;")) ||
			!strings.Contains(body, "</html>") {
			t.Errorf("%s: %d\n%s", c.name, resp.StatusCode, body[max(0, len(body)-600):])
			continue
		}
		n := strings.Count(body, c.count)
		if c.items > 0 && n != c.items || c.bytes > 0 && (n == 0 || len(body) > c.bytes+8000) {
			t.Errorf("%s: %d items, %d bytes", c.name, n, len(body))
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: %v: the gateway did not stop reading at the cap", c.name, d)
		}
		if !log.wait(`"note: the listing is truncated here`) {
			t.Errorf("%s: the log does not note the truncation: %s", c.name, log.String())
		}
	}
}

// An upstream that fails before any item gets the error's status; one that
// fails after items gives the page with a line saying it is incomplete.
func TestListingFailure(t *testing.T) {
	silent := hostile.Serve(t, hostile.Silent)
	partial := hostile.Serve(t, func(c net.Conn) {
		bufio.NewReader(c).ReadString('\n')
		io.WriteString(c, "0First\t/f\t127.0.0.1\t70\r\n0Second\t/s\t127.0.0.1\t70\r\n")
		time.Sleep(5 * time.Second)
	})
	cfg := allow(silent.Addr, partial.Addr)
	cfg.ReadTimeout = 300 * time.Millisecond
	base := serve(t, New(cfg))
	if resp, body := raw(t, base, "GET", "/gopher://"+silent.Addr+"/1"); resp.StatusCode != 504 {
		t.Errorf("silent: %d %q, want 504", resp.StatusCode, body)
	}
	resp, body := raw(t, base, "GET", "/gopher://"+partial.Addr+"/1")
	if resp.StatusCode != 200 || !strings.Contains(body, "Second") ||
		!strings.Contains(body, `<p class="error">the listing ends here, incomplete: gopher: `) {
		t.Errorf("partial: %d\n%s", resp.StatusCode, body)
	}
}

// Issue 21 item 7: a menu item whose URL carries a user and password is
// linked without them, and its line says so.
func TestNoCredentialsInPages(t *testing.T) {
	menu := "hweb\tURL:http://joe:s3cret-w@example.org/x\th\t70\r\n" +
		"hgopher\tURL:gopher://joe:s3cret-g@example.org/1/y\th\t70\r\n" +
		"hftp\tURL:ftp://joe:s3cret-f@example.org/pub/\th\t70\r\n" +
		"hjust a user\tURL:ftp://joe@example.org/pub/\th\t70\r\n" +
		"hplain\tURL:ftp://example.org/pub/\th\t70\r\n" +
		".\r\n"
	addr := gopherServer(t, map[string][]byte{"": []byte(menu)})
	base := serve(t, New(allow(addr)))
	resp, body := raw(t, base, "GET", "/gopher://"+addr+"/1")
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if strings.Contains(body, "s3cret") || strings.Contains(body, "joe") {
		t.Errorf("the page shows a user or password:\n%s", body)
	}
	for _, want := range []string{
		`href="http://example.org/x"`, `href="/gopher://example.org/1/y"`, `href="/ftp://example.org/pub/"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s:\n%s", want, body)
		}
	}
	if n := strings.Count(body, "the server&#39;s link named a user and password; the gateway left them out"); n != 4 {
		t.Errorf("%d notes, want 4:\n%s", n, body)
	}
}

// Issue 21 item 8: no Content-Length the gateway has not verified. A file
// larger than the first buffer goes out without one whatever the 150
// reply announced; more bytes than announced are relayed whole and noted
// in the log; fewer cut the connection (the client sees an incomplete
// response), or give 502 when the gateway still can say so.
func TestAnnouncedSizes(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789"), 10000) // 100,000 bytes: past the first buffer
	small := []byte(strings.Repeat("s", 100))
	for _, c := range []struct {
		name     string
		file     []byte
		announce int64
		status   int
		length   int64 // Content-Length, -1 for none
		cut      bool
		note     string
	}{
		{"big, as announced", big, 0, 200, -1, false, ""},
		{"big, more than announced", big, 10, 200, -1, false, "announced 10 bytes and sent 100000, more than it announced"},
		{"big, fewer than announced", big, 200000, 200, -1, true, ""},
		{"small, more than announced", small, 10, 200, 100, false, "announced 10 bytes and sent 100, more than it announced"},
		{"small, fewer than announced", small, 200, 502, -2, false, ""},
	} {
		srv := hostile.Serve(t, (&hostile.FTP{Files: map[string][]byte{"f.bin": c.file}, AnnounceSize: c.announce}).Serve)
		cfg := allow(srv.Addr)
		log := &syncBuffer{}
		cfg.Log = log
		base := serve(t, New(cfg))
		conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "GET ftp://%s/f.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", srv.Addr)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		body, err := io.ReadAll(resp.Body)
		conn.Close()
		if resp.StatusCode != c.status || c.length != -2 && resp.ContentLength != c.length {
			t.Errorf("%s: status %d, Content-Length %d", c.name, resp.StatusCode, resp.ContentLength)
		}
		if c.cut != (err != nil) {
			t.Errorf("%s: read the body: %v (%d bytes); the connection must be cut: %v", c.name, err, len(body), c.cut)
		}
		if c.status == 200 && !c.cut && !bytes.Equal(body, c.file) {
			t.Errorf("%s: %d bytes of %d", c.name, len(body), len(c.file))
		}
		if c.note != "" && !log.wait(c.note) {
			t.Errorf("%s: the log does not say %q: %s", c.name, c.note, log.String())
		}
	}
}

// ItemAppend, which has the item appended to the page's buffer, writes
// the page that adding the item's bytes (add, the templates' path) writes:
// the same body, status and Content-Length, with no cap, an item cap, and
// byte caps before the page is committed, at a batch's edge and inside an
// item. The items are the lines of a 1,000-item menu.
func TestItemAppendAgrees(t *testing.T) {
	g := New(Config{})
	m := g.newMenuLines(&request{})
	mr := access.NewMenuReader(bytes.NewReader(fakeservers.LongMenu(1000)), 0)
	var (
		lines [][]byte
		l     access.MenuLine
	)
	for mr.NextLine(&l) == nil {
		lines = append(lines, m.appendLine(nil, &l))
	}
	render := func(items int, size int64, appendItem bool) *httptest.ResponseRecorder {
		g := New(Config{MaxPageItems: items, MaxPageBytes: size})
		rec := httptest.NewRecorder()
		q := &request{w: rec, r: httptest.NewRequest("GET", "/gopher://h/1", nil)}
		pg := g.newPage(q, "menu", &pageHead{Title: "gopher://h/1", Heading: "gopher menu", Style: menuStyle, bar: bar{URL: "gopher://h/1"}})
		for _, line := range lines {
			ok := false
			if appendItem {
				ok = pg.ItemAppend(func(dst []byte) []byte { return append(dst, line...) })
			} else {
				ok = pg.room() && pg.add(line)
			}
			if !ok {
				break
			}
		}
		pg.End(nil)
		return rec
	}
	for _, c := range []struct {
		items int
		bytes int64
	}{{10000, 8 << 20}, {37, 8 << 20}, {10000, 5000}, {10000, pageHold + 50}, {10000, pageHold + pageBatch}, {10000, 100003}, {1, 1 << 20}, {10000, 1}} {
		a, b := render(c.items, c.bytes, true), render(c.items, c.bytes, false)
		if a.Code != b.Code || a.Header().Get("Content-Length") != b.Header().Get("Content-Length") || !bytes.Equal(a.Body.Bytes(), b.Body.Bytes()) {
			t.Errorf("caps %d items, %d bytes: ItemAppend %d, %q, %d bytes; add %d, %q, %d bytes", c.items, c.bytes,
				a.Code, a.Header().Get("Content-Length"), a.Body.Len(), b.Code, b.Header().Get("Content-Length"), b.Body.Len())
		}
		if c.items == 10000 && c.bytes == 8<<20 && (a.Body.Len() < 100000 || !strings.Contains(a.Body.String(), "Document number 0999")) {
			t.Errorf("the whole page: %d bytes", a.Body.Len())
		}
	}
}
