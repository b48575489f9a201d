package gateway

import (
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/archive"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/internal/testkit/testio"
	"github.com/urlkit/urlkit/internal/testkit/testservers"
	"github.com/urlkit/urlkit/scheme"
)

// TestRecordThenReplay: what a recording gateway serves (serve --record)
// replays as it was served: the pages the same but for the banner, the
// documents byte for byte; a failed retrieval and a password leave no
// record; files rotate by size and each is readable whole.
func TestRecordThenReplay(t *testing.T) {
	docs := map[string][]byte{"/doc": []byte("recorded text\r\n"), "/bin": []byte{0, 1, 2, 3, 255}}
	gs, err := fakeservers.Gopher(docs)
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	host, port, _ := net.SplitHostPort(gs.Addr())
	docs["/m"] = []byte(strings.NewReplacer("HOST", host, "PORT", port).Replace("0Doc\t/doc\tHOST\tPORT\r\n9Bin\t/bin\tHOST\tPORT\r\n.\r\n"))
	fs := ftpServer(t, map[string][]byte{"/pub/f.txt": []byte("ftp text\n")})
	dir := t.TempDir()
	rec, err := archive.NewRecorder(dir, 1, [][2]string{{"software", "urlkit test"}}) // a new file after every fetch
	if err != nil {
		t.Fatal(err)
	}
	cfg := allow(gs.Addr(), fs.Addr())
	cfg.Record = rec
	srv := httptest.NewServer(New(cfg))
	defer srv.Close()
	live := srv.URL
	urls := []string{"gopher://" + gs.Addr() + "/1/m", "gopher://" + gs.Addr() + "/0/doc", "gopher://" + gs.Addr() + "/9/bin",
		"ftp://" + fs.Addr() + "/pub/", "ftp://anonymous:s3cret-pw@" + fs.Addr() + "/pub/f.txt"}
	pages := map[string]string{}
	for _, u := range urls {
		resp, body := raw(t, live, "GET", "/"+u)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", u, resp.StatusCode)
		}
		pages[u] = body
	}
	if resp, _ := raw(t, live, "GET", "/ftp://"+fs.Addr()+"/pub/missing.txt"); resp.StatusCode != 502 {
		t.Fatalf("missing file: %d", resp.StatusCode)
	}
	srv.Close() // waits for the requests' handlers, which end their recordings
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	gs.Close()
	fs.Close()
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	// A file is closed once the fetches still writing into it are done:
	// a request that starts before the previous one has ended its
	// recording shares its file.
	if len(files) < 2 {
		t.Errorf("%d files for %d fetches with a 1-byte size: no rotation", len(files), len(urls))
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if strings.Contains(string(b), "s3cret") {
			t.Errorf("%s holds the password", f)
		}
	}
	a, err := archive.OpenArchive([]string{dir}, scheme.Config{}, func(err error) { t.Errorf("reading the recording: %v", err) })
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	rp := serve(t, replayGateway(t, a))
	for _, u := range urls {
		resp, body := raw(t, rp, "GET", "/"+u)
		if got := bannerRE.ReplaceAllString(body, ""); resp.StatusCode != 200 || got != pages[u] {
			t.Errorf("%s: replayed %d, differs from what was served:\n%s\n---\n%s", u, resp.StatusCode, pages[u], got)
		}
	}
	if caps, _ := a.Captures("ftp://" + fs.Addr() + "/pub/missing.txt"); len(caps) != 0 {
		t.Errorf("the failed retrieval was recorded: %v", caps)
	}
}

// TestRecordRecover: a recording cut by a crash (the file left under its
// temporary name, its last record half written) is cut back to its whole
// records and named (archive.Recover), and reads without error.
func TestRecordRecover(t *testing.T) {
	docs := map[string][]byte{"/a": []byte("first\r\n"), "/b": []byte("second\r\n")}
	gs, err := fakeservers.Gopher(docs)
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	dir := t.TempDir()
	rec, _ := archive.NewRecorder(dir, 0, nil)
	cfg := allow(gs.Addr())
	cfg.Record = rec
	live := serve(t, New(cfg))
	raw(t, live, "GET", "/gopher://"+gs.Addr()+"/0/a")
	raw(t, live, "GET", "/gopher://"+gs.Addr()+"/0/b")
	// The crash: no Close; half a record appended (once both fetches are
	// written, which happens as each request ends).
	tmps, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if len(tmps) != 1 {
		t.Fatalf("temporary files: %v", tmps)
	}
	if !testio.Eventually(func() bool { return countRecords(tmps[0]) == 5 }) {
		t.Fatalf("%d records written", countRecords(tmps[0]))
	}
	f, _ := os.OpenFile(tmps[0], os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte{0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff, 1, 2, 3})
	f.Close()
	got, err := archive.Recover(dir)
	if err != nil || len(got) != 1 {
		t.Fatalf("Recover: %v %v", got, err)
	}
	wf, err := archive.Open(got[0])
	if err != nil {
		t.Fatal(err)
	}
	defer wf.Close()
	s := wf.Scan()
	n := 0
	for {
		_, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("recovered file: %v", err)
		}
		n++
	}
	if n != 5 { // warcinfo, then a resource and a metadata record a fetch
		t.Errorf("%d records", n)
	}
}

// countRecords counts the whole records of a WARC file.
func countRecords(name string) int {
	f, err := archive.Open(name)
	if err != nil {
		return -1
	}
	defer f.Close()
	s := f.Scan()
	n := 0
	for {
		_, err := s.Next()
		if err != nil {
			return n
		}
		n++
	}
}

// TestRealRecordReplay: the real daemons' pages (gophernicus menu and
// document, vsftpd directory and file, innd group and article, a
// freeWAIS-sf hit list and document, a Prospero directory and file),
// fetched through a recording gateway, replay from its files the same but
// for the banner, documents byte for byte, with nothing dialled; the
// article also by its message-id (news:), though it was fetched by
// number from its server.
func TestRealRecordReplay(t *testing.T) {
	for _, v := range []string{"URLKIT_FTP_ADDR", "URLKIT_NNTP_ADDR", "URLKIT_WAIS_ADDR"} {
		testservers.Require(t, v)
	}
	env := testservers.Require(t, "URLKIT_GOPHER_ADDR")
	penv := testservers.RequireUDP(t, "URLKIT_PROSPERO_ADDR")
	g, f, n, w, p := env["URLKIT_GOPHER_ADDR"], env["URLKIT_FTP_ADDR"], env["URLKIT_NNTP_ADDR"], env["URLKIT_WAIS_ADDR"], penv["URLKIT_PROSPERO_ADDR"]
	root, group := penv["URLKIT_PROSPERO_ROOT"], env["URLKIT_NNTP_GROUP"]
	dir := t.TempDir()
	rec, err := archive.NewRecorder(dir, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := allow(g, f, n, w, p)
	cfg.Record = rec
	srv := httptest.NewServer(New(cfg))
	defer srv.Close()
	urls := []string{
		"gopher://" + g + "/1/", "gopher://" + g + "/0/hello.txt", "gopher://" + g + "/9/all256.bin",
		"gopher://" + g + "/7/cgi-bin/search%09caf%C3%A9",
		"ftp://" + f + "/pub/", "ftp://" + f + "/pub/hello.txt",
		"nntp://" + n + "/" + group, "nntp://" + n + "/" + group + "/2",
		"wais://" + w + "/demo?retrieval",
		"prospero://" + p + "/" + root + "/pub", "prospero://" + p + "/" + root + "/pub/hello.txt",
	}
	pages := map[string]string{}
	for _, u := range urls {
		resp, body := raw(t, srv.URL, "GET", "/"+u)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", u, resp.StatusCode, body)
		}
		pages[u] = body
	}
	srv.Close()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	for i, f := range files {
		testio.KeepWARC(t, f, fmt.Sprintf("serve-record-%d.warc.gz", i))
	}
	a, err := archive.OpenArchive([]string{dir}, scheme.Config{}, func(err error) { t.Errorf("reading the recording: %v", err) })
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	rp := serve(t, replayGateway(t, a))
	for _, u := range urls {
		resp, body := raw(t, rp, "GET", "/"+u)
		got := bannerRE.ReplaceAllString(body, "")
		if resp.StatusCode != 200 || got != pages[u] {
			t.Errorf("%s: replayed %d, differs from the live page:\n%s\n---\n%s", u, resp.StatusCode, pages[u], got)
		}
		if strings.Contains(resp.Header.Get("Content-Type"), "text/html") && !bannerRE.MatchString(body) {
			t.Errorf("%s: no banner", u)
		}
	}
	msgid := strings.Trim(env["URLKIT_NNTP_MSGID2"], "<>")
	resp, body := raw(t, rp, "GET", "/news:"+msgid)
	if resp.StatusCode != 200 || body != pages["nntp://"+n+"/"+group+"/2"] {
		t.Errorf("news:%s: %d %q", msgid, resp.StatusCode, body)
	}
}
