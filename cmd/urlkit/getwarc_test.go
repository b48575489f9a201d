package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nlnwa/gowarc/v3"
	"github.com/urlkit/urlkit/archive"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/internal/testkit/testio"
	"github.com/urlkit/urlkit/internal/testkit/testservers"
)

// readWARCTypes reads every record of path strictly (gowarc: digests,
// lengths, required fields, WARC/1.1 sections 5 and 6) and returns their
// types and target URIs, "type target" each.
func readWARCTypes(t *testing.T, path string) []string {
	t.Helper()
	rd, err := gowarc.NewWarcFileReader(path, 0, gowarc.WithStrictValidation(), gowarc.WithDefaultDigestAlgorithm(archive.DigestAlgorithm))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var out []string
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: after %d records: %v", path, len(out), err)
		}
		if _, err := rec.WarcRecord.ValidateDigest(); err != nil || len(rec.Validation) > 0 {
			t.Errorf("%s: record at %d: %v %v", path, rec.Offset, err, rec.Validation)
		}
		out = append(out, rec.WarcRecord.Type().String()+" "+rec.WarcRecord.WarcHeader().Get(gowarc.WarcTargetURI))
		rec.Close()
	}
}

// get --warc: the records of every URL fetched, in order, in NAME.warc.gz;
// the resources go nowhere else unless -o asks.
func TestGetWARC(t *testing.T) {
	gs, err := fakeservers.Gopher(map[string][]byte{"/m": []byte("0About\t/a\th\t70\r\n.\r\n"), "/a": []byte("about\r\n.\r\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	dir := t.TempDir()
	name := filepath.Join(dir, "hole")
	stdout, stderr, code := runCLI(t, "", "get", "--warc", name, "gopher://"+gs.Addr()+"/1/m", "gopher://"+gs.Addr()+"/0/a")
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	got := readWARCTypes(t, name+".warc.gz")
	want := []string{"warcinfo ", "resource gopher://" + gs.Addr() + "/1/m", "metadata gopher://" + gs.Addr() + "/1/m",
		"resource gopher://" + gs.Addr() + "/0/a", "metadata gopher://" + gs.Addr() + "/0/a"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("records:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if e := entries(t, dir); len(e) != 1 {
		t.Errorf("directory holds %q", e)
	}
	testio.KeepWARC(t, name+".warc.gz", "get-warc-gopher.warc.gz")
	// -I retrieves nothing to record.
	if _, stderr, code := runCLI(t, "", "get", "-I", "--warc", name, "gopher://"+gs.Addr()+"/0/a"); code != exitUsage || !strings.Contains(stderr, "--warc") {
		t.Errorf("-I --warc: exit %d, %q", code, stderr)
	}
}

// SIGTERM (and SIGINT) during get --warc: the fetch in progress is dropped,
// the file is closed with the records of the fetches that completed, and
// every reader accepts it: gowarc strictly here, warcio.js in CI.
func TestGetWARCSignal(t *testing.T) {
	gs, err := fakeservers.Gopher(map[string][]byte{"/a": []byte("first\r\n.\r\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	drip := serveHostile(t, hostile.Drip("", 20*time.Millisecond))
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "cap")
			cmd, errb := urlkitProcess(t, nil, "get", "--warc", name, "gopher://"+gs.Addr()+"/0/a", "gopher://"+drip.Addr+"/9/slow")
			defer cmd.Process.Kill()
			// The second fetch has begun (so the first is complete) and
			// some of its bytes have arrived.
			accepted := drip.Accepted()
			for deadline := time.Now().Add(30 * time.Second); drip.Accepted() == accepted; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the second fetch did not start; stderr %q", errb.String())
				}
			}
			time.Sleep(100 * time.Millisecond)
			signalAndWait(t, cmd, errb, sig, 10*time.Second)
			if code := cmd.ProcessState.ExitCode(); code != 128+int(sig) {
				t.Errorf("exit %d, want %d; stderr %q", code, 128+int(sig), errb.String())
			}
			if e := entries(t, dir); strings.Join(e, " ") != "cap.warc.gz" {
				t.Fatalf("directory holds %q; stderr %q", e, errb.String())
			}
			got := readWARCTypes(t, name+".warc.gz")
			want := []string{"warcinfo ", "resource gopher://" + gs.Addr() + "/0/a", "metadata gopher://" + gs.Addr() + "/0/a"}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("records:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			testio.KeepWARC(t, name+".warc.gz", "get-warc-"+strings.ToLower(sig.String())+".warc.gz")
		})
	}
}

// get --warc against the real daemons of .ci/servers.sh (vsftpd,
// gophernicus, innd, freeWAIS-sf, Prospero's dirsrv) and a local http
// server: every fetch leaves its records, gowarc reads them strictly, the
// FTP password is nowhere in the file; CI's warcio.js reads the file too
// (URLKIT_WARC_DIR).
func TestGetWARCReal(t *testing.T) {
	env := testservers.Require(t, "URLKIT_FTP_ADDR")
	for _, v := range []string{"URLKIT_GOPHER_ADDR", "URLKIT_NNTP_ADDR", "URLKIT_WAIS_ADDR"} {
		testservers.Require(t, v)
	}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "http page\n")
	}))
	defer hs.Close()
	ftp, gopher, nntp, wais := env["URLKIT_FTP_ADDR"], env["URLKIT_GOPHER_ADDR"], env["URLKIT_NNTP_ADDR"], env["URLKIT_WAIS_ADDR"]
	prospero, proot := env["URLKIT_PROSPERO_ADDR"], env["URLKIT_PROSPERO_ROOT"]
	user, pass := env["URLKIT_FTP_USER"], env["URLKIT_FTP_PASSWORD"]
	dir := t.TempDir()
	// A WAIS document's URL, from a search's listing.
	hits := filepath.Join(dir, "hits")
	if _, stderr, code := runCLI(t, "", "get", "-o", hits, "wais://"+wais+"/demo?retrieval"); code != 0 {
		t.Fatalf("wais search: %s", stderr)
	}
	b, _ := os.ReadFile(hits)
	var doc string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			doc, _, _ = strings.Cut(l, "\t")
			break
		}
	}
	urls := []struct{ url, payload string }{
		{"ftp://" + ftp + "/pub/", "resource"},
		{"ftp://" + ftp + "/pub/all256.bin", "resource"},
		{"ftp://" + user + ":" + pass + "@" + ftp + "/pub/all256.bin", "revisit"},
		{"gopher://" + gopher + "/1", "resource"},
		{"gopher://" + gopher + "/0/hello.txt", "resource"},
		{"news:*", "resource"},
		{"news:" + env["URLKIT_NNTP_GROUP"], "resource"},
		{"news:" + strings.Trim(env["URLKIT_NNTP_MSGID1"], "<>"), "resource"},
		{"wais://" + wais + "/demo?retrieval", "resource"},
		{doc, "resource"},
		{hs.URL + "/page", "response"},
	}
	if prospero != "" {
		urls = append(urls, struct{ url, payload string }{"prospero://" + prospero + "/" + proot + "/pub", "resource"})
	}
	args := []string{"get", "--warc", filepath.Join(dir, "real")}
	for _, u := range urls {
		args = append(args, u.url)
	}
	_, stderr, code := runGetEnv(t, map[string]string{"NNTPSERVER": nntp}, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	name := filepath.Join(dir, "real.warc.gz")
	got := readWARCTypes(t, name)
	var payloads []string
	for _, r := range got {
		if typ, _, _ := strings.Cut(r, " "); typ == "resource" || typ == "response" || typ == "revisit" {
			payloads = append(payloads, r)
		}
	}
	if len(payloads) != len(urls) {
		t.Fatalf("%d payload records for %d URLs:\n%s", len(payloads), len(urls), strings.Join(got, "\n"))
	}
	for i, u := range urls {
		if typ, _, _ := strings.Cut(payloads[i], " "); typ != u.payload {
			t.Errorf("%s: a %s record, want %s", u.url, typ, u.payload)
		}
	}
	raw, _ := os.ReadFile(name)
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	all, _ := io.ReadAll(zr)
	if bytes.Contains(all, []byte(pass)) {
		t.Errorf("the FTP password is in the WARC file")
	}
	if !bytes.Contains(all, []byte("\r\n> PASS ")) || !bytes.Contains(all, []byte("\r\n> USER "+user+"\r\n")) {
		t.Errorf("the FTP login is not in the conversation")
	}
	testio.KeepWARC(t, name, "get-warc-real.warc.gz")
}

// The WARC file is created as get's outputs are (mode 0666 less the
// umask, as curl and cp create files), not os.CreateTemp's 0600.
func TestGetWARCMode(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	f := filepath.Join(dir, "n.txt")
	os.WriteFile(f, []byte("x\n"), 0o644)
	if _, stderr, code := runCLI(t, "", "get", "--warc", filepath.Join(dir, "m"), "file://"+filepath.ToSlash(f)); code != 0 {
		t.Fatal(stderr)
	}
	st, err := os.Stat(filepath.Join(dir, "m.warc.gz"))
	if err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v; want 0644 under umask 022", st.Mode().Perm(), err)
	}
}

// gopherHole serves a small hole: a root menu, a submenu, texts, and a
// robots.txt (Veronica-2's selector) excluding /private/; drip, when
// set, is an item of the submenu served by it (a slow server).
func gopherHole(t *testing.T, drip string) (string, *fakeservers.Server) {
	t.Helper()
	gs, docs, err := fakeservers.GopherDocs()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(gs.Close)
	h, p, _ := strings.Cut(gs.Addr(), ":")
	item := func(typ byte, sel string) string { return fmt.Sprintf("%c%s\t%s\t%s\t%s\r\n", typ, sel, sel, h, p) }
	docs.Set("", []byte(item('0', "/a")+item('1', "/sub")+item('0', "/private/p")+".\r\n"))
	sub := item('0', "/sub/b") + item('1', "")
	if drip != "" {
		dh, dp, _ := strings.Cut(drip, ":")
		sub += "9Slow\t/slow\t" + dh + "\t" + dp + "\r\n"
	}
	docs.Set("/sub", []byte(sub+".\r\n"))
	docs.Set("/a", []byte("a\r\n.\r\n"))
	docs.Set("/sub/b", []byte("b\r\n.\r\n"))
	docs.Set("/private/p", []byte("p\r\n.\r\n"))
	docs.Set("robots.txt", []byte("User-agent: veronica\nDisallow: /private/\n"))
	return "gopher://" + gs.Addr(), gs
}

// get -r --warc: the hole captured, robots.txt honoured and kept; a run
// stopped by --max-items taken up with --continue, each item once.
func TestGetRecursive(t *testing.T) {
	base, _ := gopherHole(t, "")
	dir := t.TempDir()
	name := filepath.Join(dir, "hole")
	_, stderr, code := runCLI(t, "", "get", "-r", "--warc", name, "--max-items", "2", base+"/1")
	if code != 0 || !strings.Contains(stderr, "2 retrieved") || !strings.Contains(stderr, "--continue") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, stderr, code = runCLI(t, "", "get", "-r", "--continue", "--warc", name, base+"/1")
	if code != 0 || !strings.Contains(stderr, "2 already there") || !strings.Contains(stderr, "1 excluded by robots.txt") {
		t.Fatalf("--continue: exit %d: %s", code, stderr)
	}
	got := readWARCTypes(t, name+".warc.gz")
	count := map[string]int{}
	for _, r := range got {
		if typ, target, _ := strings.Cut(r, " "); typ == "resource" || typ == "revisit" {
			count[target]++
		}
	}
	for _, u := range []string{base + "/0robots.txt", base + "/1", base + "/0/a", base + "/1/sub", base + "/0/sub/b"} {
		if count[u] != 1 {
			t.Errorf("%s captured %d times:\n%s", u, count[u], strings.Join(got, "\n"))
		}
	}
	if len(count) != 5 {
		t.Errorf("captured %v", count)
	}
	testio.KeepWARC(t, name+".warc.gz", "get-r-continue.warc.gz")
	for _, bad := range [][]string{
		{"get", "-r", base + "/1"},
		{"get", "-r", "--warc", name, "-o", filepath.Join(dir, "x"), base + "/1"},
		{"get", "--continue", "--warc", name, base + "/1"},
	} {
		if _, stderr, code := runCLI(t, "", bad...); code != exitUsage {
			t.Errorf("%q: exit %d, %s", bad, code, stderr)
		}
	}
}

// SIGTERM during get -r --warc: the item in progress is dropped, the file
// closed with the complete records, read whole (gowarc here, warcio.js
// in CI).
func TestGetRecursiveSignal(t *testing.T) {
	drip := serveHostile(t, hostile.Drip("", 20*time.Millisecond))
	base, _ := gopherHole(t, drip.Addr)
	dir := t.TempDir()
	name := filepath.Join(dir, "hole")
	cmd, errb := urlkitProcess(t, nil, "get", "-r", "--any-server", "--warc", name, base+"/1")
	defer cmd.Process.Kill()
	for deadline := time.Now().Add(30 * time.Second); drip.Accepted() == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the slow item was not reached; stderr %q", errb.String())
		}
	}
	time.Sleep(100 * time.Millisecond)
	signalAndWait(t, cmd, errb, syscall.SIGTERM, 10*time.Second)
	if code := cmd.ProcessState.ExitCode(); code != 143 {
		t.Errorf("exit %d, want 143; stderr %q", code, errb.String())
	}
	if e := entries(t, dir); strings.Join(e, " ") != "hole.warc.gz" {
		t.Fatalf("directory holds %q", e)
	}
	got := readWARCTypes(t, name+".warc.gz")
	for _, r := range got {
		if strings.Contains(r, "/9/slow") {
			t.Errorf("the item stopped mid-way left a record: %q", r)
		}
	}
	if len(got) < 1+2*5 {
		t.Errorf("%d records; the items before the slow one are missing:\n%s", len(got), strings.Join(got, "\n"))
	}
	testio.KeepWARC(t, name+".warc.gz", "get-r-sigterm.warc.gz")
}

// get -r against the real daemons: gophernicus's hole, vsftpd's /pub/
// tree, freeWAIS-sf's hits and a Prospero directory, each followed to
// depth 2; gowarc reads the file strictly (warcio.js in CI), and every
// listing's links were captured.
func TestGetRecursiveReal(t *testing.T) {
	env := testservers.Require(t, "URLKIT_GOPHER_ADDR")
	for _, v := range []string{"URLKIT_FTP_ADDR", "URLKIT_WAIS_ADDR"} {
		testservers.Require(t, v)
	}
	seeds := []string{"gopher://" + env["URLKIT_GOPHER_ADDR"] + "/1", "ftp://" + env["URLKIT_FTP_ADDR"] + "/pub/",
		"wais://" + env["URLKIT_WAIS_ADDR"] + "/demo?retrieval"}
	if a := env["URLKIT_PROSPERO_ADDR"]; a != "" {
		seeds = append(seeds, "prospero://"+a+"/"+env["URLKIT_PROSPERO_ROOT"]+"/pub")
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "real-r")
	args := append([]string{"get", "-r", "--depth", "2", "--max-items", "300", "--warc", name}, seeds...)
	_, stderr, code := runCLI(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := readWARCTypes(t, name+".warc.gz")
	n := map[string]int{}
	for _, r := range got {
		typ, target, _ := strings.Cut(r, " ")
		if typ == "resource" || typ == "revisit" {
			scheme, _, _ := strings.Cut(target, ":")
			n[scheme]++
		}
	}
	// More than the seeds themselves: the listings were followed.
	for _, s := range []string{"gopher", "ftp", "wais"} {
		if n[s] < 3 {
			t.Errorf("%d %s captures: %v\n%s", n[s], s, n, stderr)
		}
	}
	t.Logf("%v; %s", n, strings.TrimSpace(stderr))
	testio.KeepWARC(t, name+".warc.gz", "get-r-real.warc.gz")
}
