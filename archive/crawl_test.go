package archive

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/nlnwa/gowarc/v3"
	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/scheme"
)

// hole starts a gopher server with a small hole: a root menu linking a
// text, a submenu, a search (not followed: it needs words), an info line,
// another server, and robots.txt excluding /secret/ (Veronica-2's
// reading).
func hole(t *testing.T, other string) *fakeservers.Server {
	t.Helper()
	gs, docs, err := fakeservers.GopherDocs()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(gs.Close)
	h, p, _ := net.SplitHostPort(gs.Addr())
	item := func(typ byte, disp, sel string) string {
		return fmt.Sprintf("%c%s\t%s\t%s\t%s\r\n", typ, disp, sel, h, p)
	}
	docs.Set("", []byte("iWelcome\t\terror.host\t1\r\n"+item('0', "About", "/about")+item('1', "Sub", "/sub")+
		item('7', "Search", "/search")+"1Elsewhere\t/\t"+other+"\r\n"+item('0', "Secret", "/secret/x")+
		item('0', "Secretive", "/secretive")+".\r\n"))
	docs.Set("/about", []byte("about\r\n.\r\n"))
	docs.Set("/sub", []byte(item('0', "B", "/sub/b")+item('1', "Up", "")+item('9', "Bin", "/sub/bin")+".\r\n"))
	docs.Set("/sub/b", []byte("b\r\n.\r\n"))
	docs.Set("/sub/bin", []byte{0, 1, 2})
	docs.Set("/secret/x", []byte("hidden\r\n.\r\n"))
	docs.Set("/secretive", []byte("not hidden\r\n.\r\n"))
	docs.Set("robots.txt", []byte("User-agent: *\nDisallow: /secret/\n"))
	return gs
}

// targets returns the target URIs of the payload records of a file, in
// order.
func targets(recs []record) []string {
	var out []string
	for _, r := range recs {
		if r.typ == "resource" || r.typ == "response" || r.typ == "revisit" {
			out = append(out, r.header.Get(gowarc.WarcTargetURI))
		}
	}
	return out
}

func TestCrawlGopherHole(t *testing.T) {
	gs := hole(t, "other.example.org\t70")
	base := "gopher://" + gs.Addr()
	w, path := newWARC(t)
	var failed []string
	c := &Crawl{Writer: w, Depth: 5, Failed: func(u string, err error) { failed = append(failed, u+": "+err.Error()) }}
	st, err := c.Run(context.Background(), []urlkit.URL{urlkit.MustParse(base + "/1")})
	if err != nil {
		t.Fatal(err)
	}
	got := targets(closeWARC(t, w, path))
	want := []string{base + "/0robots.txt", base + "/1", base + "/0/about", base + "/1/sub", base + "/0/secretive", base + "/0/sub/b", base + "/9/sub/bin"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("captured:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if st.Items != 6 || st.Failed != 0 || st.Excluded != 1 || len(failed) != 1 || !strings.Contains(failed[0], "robots.txt") || !strings.Contains(failed[0], "/secret/x") {
		t.Errorf("status %+v, failures %q", st, failed)
	}
}

// --depth and --max-items bound the crawl (RFC-less: wget's -l and
// --quota are the models).
func TestCrawlLimits(t *testing.T) {
	gs := hole(t, "other.example.org\t70")
	base := "gopher://" + gs.Addr()
	w, path := newWARC(t)
	c := &Crawl{Writer: w, Depth: 1}
	if _, err := c.Run(context.Background(), []urlkit.URL{urlkit.MustParse(base + "/1")}); err != nil {
		t.Fatal(err)
	}
	got := targets(closeWARC(t, w, path))
	if len(got) != 5 || got[len(got)-1] != base+"/0/secretive" {
		t.Errorf("depth 1 captured %q", got)
	}
	w, path = newWARC(t)
	c = &Crawl{Writer: w, Depth: 5, MaxItems: 2}
	st, err := c.Run(context.Background(), []urlkit.URL{urlkit.MustParse(base + "/1")})
	if !errors.Is(err, ErrCrawlLimit) || st.Items != 2 {
		t.Errorf("max-items 2: %+v %v", st, err)
	}
	if got := targets(closeWARC(t, w, path)); len(got) != 3 { // robots.txt and 2 items
		t.Errorf("max-items 2 captured %q", got)
	}
	// --max-bytes: the menu alone holds more than 10 bytes, so the crawl
	// stops after it.
	w, path = newWARC(t)
	c = &Crawl{Writer: w, Depth: 5, MaxBytes: 10}
	st, err = c.Run(context.Background(), []urlkit.URL{urlkit.MustParse(base + "/1")})
	if !errors.Is(err, ErrCrawlLimit) || st.Items != 1 || st.Bytes < 10 {
		t.Errorf("max-bytes 10: %+v %v", st, err)
	}
	closeWARC(t, w, path)
	// --wait: robots.txt, the menu and its first item are 3 retrievals,
	// so 2 waits.
	w, path = newWARC(t)
	c = &Crawl{Writer: w, Depth: 1, MaxItems: 2, Wait: 60 * time.Millisecond}
	start := time.Now()
	c.Run(context.Background(), []urlkit.URL{urlkit.MustParse(base + "/1")})
	if d := time.Since(start); d < 120*time.Millisecond {
		t.Errorf("3 retrievals with --wait 60ms took %v", d)
	}
	closeWARC(t, w, path)
}

// The follow rule (issue 34): a menu on a public server that points to
// this machine is not followed; the same menu on this machine is. The
// public server is this test's loopback server seen through a dialer
// that reports a public address for it.
func TestCrawlFollowRule(t *testing.T) {
	local := hole(t, "x\t70")
	h, p, _ := net.SplitHostPort(local.Addr())
	menu := "0Local\t/about\t" + h + "\t" + p + "\r\n.\r\n"
	pub, err := fakeservers.Gopher(map[string][]byte{"/m": []byte(menu)})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	publicAddr := netip.MustParseAddrPort("93.184.216.34:70")
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		if addr == "public.example.org:70" {
			c, err := net.Dial(network, pub.Addr())
			if err != nil {
				return nil, err
			}
			return &remoteAs{Conn: c, addr: net.TCPAddrFromAddrPort(publicAddr)}, nil
		}
		return net.Dial(network, addr)
	}
	w, path := newWARC(t)
	var failed []error
	c := &Crawl{Writer: w, Depth: 2, AnyServer: true, Options: access.Options{Dial: dial},
		Failed: func(_ string, err error) { failed = append(failed, err) }}
	if _, err := c.Run(context.Background(), []urlkit.URL{urlkit.MustParse("gopher://public.example.org/1/m")}); err != nil {
		t.Fatal(err)
	}
	var fe *access.FollowError
	if len(failed) != 1 || !errors.As(failed[0], &fe) {
		t.Fatalf("failures %v, want the follow rule's refusal", failed)
	}
	got := targets(closeWARC(t, w, path))
	for _, g := range got {
		if strings.Contains(g, h+":"+p) {
			t.Errorf("a loopback item named by a public server was captured: %q", got)
		}
	}
	// --continue: the menu read back from the file is held to the
	// address its capture recorded (WARC-IP-Address), not taken as the
	// user's own choice.
	w, held, err := Resume(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	failed = nil
	c = &Crawl{Writer: w, Depth: 2, AnyServer: true, Options: access.Options{Dial: dial}, Skip: held.Has,
		Have:   func(target string) (*access.Resource, error) { return held.Resource(target, scheme.Config{}) },
		Failed: func(_ string, err error) { failed = append(failed, err) }}
	if _, err := c.Run(context.Background(), []urlkit.URL{urlkit.MustParse("gopher://public.example.org/1/m")}); err != nil {
		t.Fatal(err)
	}
	if len(failed) != 1 || !errors.As(failed[0], &fe) {
		t.Fatalf("continued: failures %v, want the follow rule's refusal", failed)
	}
	w.Close()
}

// remoteAs is a connection that reports another peer address.
type remoteAs struct {
	net.Conn
	addr net.Addr
}

func (c *remoteAs) RemoteAddr() net.Addr { return c.addr }

// An ftp tree: directories listed, their entries followed, files kept.
func TestCrawlFTP(t *testing.T) {
	fs, err := fakeservers.FTP(map[string][]byte{"/pub/a.txt": []byte("a\n"), "/pub/d/b.txt": []byte("b\n"), "/pub/d/e/c.txt": []byte("c\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	w, path := newWARC(t)
	c := &Crawl{Writer: w, Depth: 5, Options: access.Options{ReadTimeout: 5 * time.Second}}
	if _, err := c.Run(context.Background(), []urlkit.URL{urlkit.MustParse("ftp://" + fs.Addr() + "/pub/")}); err != nil {
		t.Fatal(err)
	}
	got := targets(closeWARC(t, w, path))
	sort.Strings(got)
	base := "ftp://" + fs.Addr()
	want := []string{base + "/pub/", base + "/pub/a.txt", base + "/pub/d", base + "/pub/d/b.txt", base + "/pub/d/e", base + "/pub/d/e/c.txt"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("captured:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A directory named with ;type=d (RFC 1738 3.2.2): its entries are
	// below the directory, not below "pub;type=d".
	w, path = newWARC(t)
	c = &Crawl{Writer: w, Depth: 1, Options: access.Options{ReadTimeout: 5 * time.Second}}
	if _, err := c.Run(context.Background(), []urlkit.URL{urlkit.MustParse(base + "/pub/d;type=d")}); err != nil {
		t.Fatal(err)
	}
	got = targets(closeWARC(t, w, path))
	sort.Strings(got)
	if want := base + "/pub/d/b.txt " + base + "/pub/d/e " + base + "/pub/d;type=d"; strings.Join(got, " ") != want {
		t.Errorf(";type=d: captured %q, want %q", got, want)
	}
}

// Veronica-2's reading of robots.txt: veronica or * groups, a named group
// replacing *, "Disallow: /path/" covering /path and below but not
// /pathology, "Disallow: /" everything, an empty Disallow nothing.
func TestRobots(t *testing.T) {
	r := parseRobots([]byte("User-agent: *\nDisallow: /tmp/\nDisallow: /cgi\n\nUser-agent: googlebot\nDisallow: /\n"))
	for sel, want := range map[string]bool{"/tmp": true, "/tmp/": true, "/tmp/x": true, "/tmpfile": false, "/cgi-bin/x": true, "/ok": false, "": false} {
		if r.disallows(sel) != want {
			t.Errorf("%q: disallowed %v, want %v", sel, !want, want)
		}
	}
	r = parseRobots([]byte("User-agent: *\nDisallow: /a\n\nUser-agent: veronica\nDisallow: /b\n"))
	if r.disallows("/a") || !r.disallows("/b") {
		t.Errorf("the veronica group does not replace *: %+v", r)
	}
	r = parseRobots([]byte("User-agent: veronica\nUser-agent: other\nDisallow: /\n"))
	if !r.disallows("") || !r.disallows("/x") {
		t.Errorf("Disallow: / %+v", r)
	}
	if parseRobots([]byte("User-agent: *\nDisallow:\n")).disallows("/x") {
		t.Error("an empty Disallow excludes")
	}
}

// --continue: a crawl stopped by --max-items is taken up again; what the
// file holds is not fetched again, its listings still lead to the rest,
// and in the end every item is captured exactly once.
func TestCrawlContinue(t *testing.T) {
	gs := hole(t, "other.example.org\t70")
	base := "gopher://" + gs.Addr()
	seed := []urlkit.URL{urlkit.MustParse(base + "/1")}
	w, path := newWARC(t)
	c := &Crawl{Writer: w, Depth: 5, MaxItems: 3}
	if _, err := c.Run(context.Background(), seed); !errors.Is(err, ErrCrawlLimit) {
		t.Fatal(err)
	}
	first := targets(closeWARC(t, w, path))
	w, held, err := Resume(path, [][2]string{{"software", "urlkit test, continued"}})
	if err != nil || held.Dropped != nil || held.Records != 1+2*len(first) {
		t.Fatalf("resume: %v, %+v", err, held)
	}
	var failed []string
	c = &Crawl{Writer: w, Depth: 5, Skip: held.Has, Failed: func(u string, err error) { failed = append(failed, u+": "+err.Error()) },
		Have: func(target string) (*access.Resource, error) { return held.Resource(target, scheme.Config{}) }}
	st, err := c.Run(context.Background(), seed)
	if err != nil {
		t.Fatal(err)
	}
	recs := closeWARC(t, w, path)
	got := targets(recs)
	seen := map[string]int{}
	for _, g := range got {
		seen[g]++
	}
	want := []string{base + "/0robots.txt", base + "/1", base + "/0/about", base + "/1/sub", base + "/0/secretive", base + "/0/sub/b", base + "/9/sub/bin"}
	for _, u := range want {
		if seen[u] != 1 {
			t.Errorf("%s captured %d times; all: %q", u, seen[u], got)
		}
	}
	if st.Skipped != 3 || len(got) != len(want) || st.Failed != 0 || st.Excluded != 1 {
		t.Errorf("status %+v, %d captures, failures %q", st, len(got), failed)
	}
	if n := 0; true {
		for _, r := range recs {
			if r.typ == "warcinfo" {
				n++
			}
		}
		if n != 2 {
			t.Errorf("%d warcinfo records, want one a run", n)
		}
	}
}

// A file cut mid-record (a crash of another tool, a copy cut short):
// Resume keeps the whole records before it, says where the cut one was,
// and the file it writes is whole again.
func TestResumeDamagedTail(t *testing.T) {
	gs := hole(t, "x\t70")
	w, path := newWARC(t)
	for _, s := range []string{"/0/about", "/0/sub/b"} {
		if _, err := captureURL(t, w, "gopher://"+gs.Addr()+s, scheme.Config{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	recs := closeWARC(t, w, path)
	b, _ := os.ReadFile(path)
	cut := recs[3].offset + 20 // inside the second fetch's resource record
	os.WriteFile(path, b[:cut], 0o644)
	w, held, err := Resume(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if held.Records != 3 || held.Dropped == nil || !strings.Contains(held.Dropped.Error(), fmt.Sprintf("offset %d", recs[3].offset)) {
		t.Errorf("held %d records, dropped %v", held.Records, held.Dropped)
	}
	if !held.Has("gopher://"+gs.Addr()+"/0/about") || held.Has("gopher://"+gs.Addr()+"/0/sub/b") {
		t.Errorf("held targets wrong")
	}
	if got := closeWARC(t, w, path); len(got) != 4 {
		t.Errorf("%d records after resuming, want the 3 whole ones and a warcinfo", len(got))
	}
	// An uncompressed WARC file cannot take gzip members after it.
	plain := filepath.Join(t.TempDir(), "plain.warc")
	os.WriteFile(plain, []byte("WARC/1.1\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n"), 0o644)
	if _, _, err := Resume(plain, nil); err == nil || !strings.Contains(err.Error(), "gzip") {
		t.Errorf("an uncompressed file continued: %v", err)
	}
}

// A robots.txt larger than the 500 KiB RFC 9309 section 2.5 has crawlers
// parse: its rules in the first 500 KiB apply, the rest is not read, and
// the file (not kept whole) is not written to the WARC file.
func TestCrawlHugeRobots(t *testing.T) {
	docs := map[string][]byte{
		"":           []byte("0Secret\t/secret/x\tHOST\tPORT\r\n0Open\t/open\tHOST\tPORT\r\n.\r\n"),
		"/secret/x":  []byte("s\r\n.\r\n"),
		"/open":      []byte("o\r\n.\r\n"),
		"robots.txt": append([]byte("User-agent: *\nDisallow: /secret/\n"), bytes.Repeat([]byte("# padding padding padding\n"), 40000)...),
	}
	gs, served, err := fakeservers.GopherDocs()
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	h, p, _ := net.SplitHostPort(gs.Addr())
	docs[""] = bytes.ReplaceAll(bytes.ReplaceAll(docs[""], []byte("HOST"), []byte(h)), []byte("PORT"), []byte(p))
	for sel, b := range docs {
		served.Set(sel, b)
	}
	w, path := newWARC(t)
	c := &Crawl{Writer: w, Depth: 1}
	st, err := c.Run(context.Background(), []urlkit.URL{urlkit.MustParse("gopher://" + gs.Addr() + "/1")})
	if err != nil {
		t.Fatal(err)
	}
	got := targets(closeWARC(t, w, path))
	if st.Excluded != 1 || strings.Join(got, " ") != "gopher://"+gs.Addr()+"/1 gopher://"+gs.Addr()+"/0/open" {
		t.Errorf("status %+v, captured %q", st, got)
	}
}
