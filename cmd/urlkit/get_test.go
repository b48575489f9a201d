package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/internal/testkit/testservers"
)

// runGetEnv runs urlkit with an environment for scheme.ConfigFromEnv.
func runGetEnv(t *testing.T, vars map[string]string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, getenv: func(k string) string { return vars[k] }}
	code := run(e, args)
	return out.String(), errOut.String(), code
}

func TestGetFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "note.txt")
	if err := os.WriteFile(name, []byte("file content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "", "get", "file://"+filepath.ToSlash(name))
	if code != exitOK || out != "file content\n" {
		t.Errorf("file get: %d %q %q", code, out, errOut)
	}
	// RFC 1738 3.10: a file URL naming another host is refused.
	_, errOut, code = runCLI(t, "", "get", "file://elsewhere.dom/etc/motd")
	if code != exitInvalid || !strings.Contains(errOut, "elsewhere.dom") {
		t.Errorf("remote file: %d %q", code, errOut)
	}
}

func TestGetHTTP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "new?x=1", http.StatusFound)
			return
		}
		w.Header().Set("X-Test", "yes")
		w.Write([]byte("path " + r.URL.Path + " query " + r.URL.RawQuery))
	}))
	defer srv.Close()
	base := strings.Replace(srv.URL, "http://127.0.0.1", "http://localhost", 1)
	// Redirects are followed only with -L (issue 17).
	out, errOut, code := runCLI(t, "", "get", base+"/old")
	if code != exitInvalid || out != "" || !strings.Contains(errOut, `302 redirect to "/new?x=1" not followed`) || !strings.Contains(errOut, "-L") {
		t.Errorf("redirect without -L: %d %q %q", code, out, errOut)
	}
	out, errOut, code = runCLI(t, "", "get", "-L", "-v", base+"/old")
	if code != exitOK || out != "path /new query x=1" {
		t.Errorf("redirect with -L: %d %q %q", code, out, errOut)
	}
	// -v shows each hop's plan and the request lines as sent.
	for _, w := range []string{"* plan (http):", "> GET /old HTTP/1.0", "< HTTP/1.0 302 Found", "* redirect 1 to " + base + "/new?x=1", "> GET /new?x=1 HTTP/1.0", "> User-Agent: urlkit/1"} {
		if !strings.Contains(errOut, w) {
			t.Errorf("-v output lacks %q:\n%s", w, errOut)
		}
	}
	// An ordinary high port (httptest's) draws no warning (issue 25 item
	// 5): only another protocol's port does.
	if strings.Contains(errOut, "warning: port") {
		t.Errorf("a warning about an ordinary high port: %q", errOut)
	}
	out, _, code = runCLI(t, "", "get", "-i", base+"/h")
	if code != exitOK || !strings.Contains(out, "200") || !strings.Contains(out, "X-Test: yes") {
		t.Errorf("-i: %d %q", code, out)
	}
	file := filepath.Join(t.TempDir(), "out")
	if _, _, code := runCLI(t, "", "get", "-o", file, base+"/f"); code != exitOK {
		t.Fatalf("-o: %d", code)
	}
	if b, _ := os.ReadFile(file); string(b) != "path /f query " {
		t.Errorf("-o wrote %q", b)
	}
}

// RFC 1738 6: an encoded CR LF is never decoded into a command line; the
// plan refuses before any connection (nothing listens on port 9).
func TestGetRefusesControls(t *testing.T) {
	for _, u := range []string{"gopher://127.0.0.1:9/0a%0d%0aRCPT", "ftp://127.0.0.1:9/a%0Db", "news:a%0D%0Ab@host.dom"} {
		_, errOut, code := runGetEnv(t, map[string]string{"NNTPSERVER": "127.0.0.1:9"}, "", "get", u)
		if code != exitInvalid || !strings.Contains(errOut, "control character") {
			t.Errorf("%s: %d %q", u, code, errOut)
		}
	}
}

func TestGetNotRetrievable(t *testing.T) {
	// RFC 2392: a mid URL names a message, which no protocol fetches.
	out, errOut, code := runCLI(t, "", "get", "mid:960830.1639@XIson.com")
	if code != exitNotSupported || !strings.Contains(out, "mid:960830.1639@XIson.com") || !strings.Contains(errOut, "protocol not supported for retrieval") {
		t.Errorf("mid: %d %q %q", code, out, errOut)
	}
}

// RFC 1738 3.9: wais://host:port/database names a database to search; get
// needs the words (?words) and says so, without connecting.
func TestGetWAISDatabase(t *testing.T) {
	out, errOut, code := runCLI(t, "", "get", "wais://127.0.0.1:9/db")
	if code != exitInvalid || out != "" || !strings.Contains(errOut, "add ?words") || strings.Contains(errOut, "connect") {
		t.Errorf("wais database: %d %q %q", code, out, errOut)
	}
}

// The telnet session is advice only, and the password is never printed.
func TestGetTelnet(t *testing.T) {
	// Port 25 (SMTP's) draws a warning, which quotes the URL.
	out, errOut, code := runCLI(t, "", "get", "telnet://guest:s3cret@localhost:25/")
	if code != exitOK || !strings.Contains(out, `"guest"`) || strings.Contains(out+errOut, "s3cret") {
		t.Errorf("telnet: %d %q %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "guest:xxxxx@") {
		t.Errorf("the URL in messages is not redacted: %q", errOut)
	}
}

func TestGetMailto(t *testing.T) {
	out, _, code := runGetEnv(t, map[string]string{"EMAIL": "me@here.dom"}, "Hello.\n", "get", "--subject", "Hi", "mailto:timbl@info.cern.ch")
	for _, want := range []string{"To: timbl@info.cern.ch", "From: me@here.dom", "Subject: Hi", "Hello."} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("mailto: %d, output lacks %q:\n%s", code, want, out)
		}
	}
}

func TestGetUsage(t *testing.T) {
	// get reads its URLs from standard input like every command.
	if _, errOut, code := runCLI(t, "http://h/%zz\n", "get"); code != exitInvalid || !strings.Contains(errOut, "line 1: ") {
		t.Errorf("get from stdin: %d %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, "", "get", "http://h/%zz"); code != exitInvalid || !strings.Contains(errOut, "offset 9") {
		t.Errorf("bad URL: %d %q", code, errOut)
	}
}

// Against the real daemons that .ci/servers.sh starts.

func TestGetFTPReal(t *testing.T) {
	env := testservers.Require(t, "URLKIT_FTP_ADDR")
	want, err := os.ReadFile(filepath.Join(env["URLKIT_FTP_ROOT"], "pub", "all256.bin"))
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "", "get", "ftp://"+env["URLKIT_FTP_ADDR"]+"/pub/all256.bin;type=i")
	if code != exitOK || out != string(want) {
		t.Errorf("ftp binary: %d, %d bytes, %q", code, len(out), errOut)
	}
	out, _, code = runCLI(t, "", "get", "ftp://"+env["URLKIT_FTP_ADDR"]+"/pub/;type=d")
	if code != exitOK || !strings.Contains(out, "hello.txt") {
		t.Errorf("ftp listing: %d %q", code, out)
	}
	// --ftp-details: plan prints FEAT and MLSD with the rule, and get -v
	// shows vsftpd (no MLST in its FEAT) getting FEAT and LIST: the plan's
	// lines, the rule applied.
	planOut, _, _ := runCLI(t, "", "plan", "--ftp-details", "ftp://"+env["URLKIT_FTP_ADDR"]+"/pub/")
	out, errOut, code = runCLI(t, "", "get", "-v", "--ftp-details", "ftp://"+env["URLKIT_FTP_ADDR"]+"/pub/")
	if code != exitOK || !strings.Contains(out, " hello.txt\r\n") || !strings.Contains(out, "-rw-") ||
		!strings.Contains(planOut, "\n  FEAT (") || !strings.Contains(planOut, "\n  MLSD (") ||
		!strings.Contains(errOut, "> FEAT\n") || !strings.Contains(errOut, "> LIST\n") || strings.Contains(errOut, "> MLSD") {
		t.Errorf("ftp listing with details: %d %q\nplan:\n%s\n-v:\n%s", code, out, planOut, errOut)
	}
	_, errOut, code = runCLI(t, "", "get", "ftp://"+env["URLKIT_FTP_ADDR"]+"/pub/no-such-file")
	if code != exitInvalid || !strings.Contains(errOut, "RETR") || !strings.Contains(errOut, "550") {
		t.Errorf("ftp missing file: %d %q", code, errOut)
	}
}

func TestGetGopherReal(t *testing.T) {
	env := testservers.Require(t, "URLKIT_GOPHER_ADDR")
	addr := env["URLKIT_GOPHER_ADDR"]
	out, errOut, code := runCLI(t, "", "get", "gopher://"+addr+"/")
	if code != exitOK || !strings.Contains(out, "gopher://"+addr+"/0/hello.txt") {
		t.Errorf("gopher menu: %d %q %q", code, out, errOut)
	}
	want, err := os.ReadFile(filepath.Join(env["URLKIT_GOPHER_ROOT"], "all256.bin"))
	if err != nil {
		t.Fatal(err)
	}
	out, _, code = runCLI(t, "", "get", "gopher://"+addr+"/9/all256.bin")
	if code != exitOK || out != string(want) {
		t.Errorf("gopher binary: %d, %d bytes", code, len(out))
	}
}

func TestGetNewsReal(t *testing.T) {
	env := testservers.Require(t, "URLKIT_NNTP_ADDR")
	vars := map[string]string{"NNTPSERVER": env["URLKIT_NNTP_ADDR"]}
	group := env["URLKIT_NNTP_GROUP"]
	out, errOut, code := runGetEnv(t, vars, "", "get", "news:*")
	if code != exitOK || !strings.Contains(out, group) {
		t.Errorf("news:*: %d %q %q", code, out, errOut)
	}
	out, errOut, code = runGetEnv(t, nil, "", "get", "nntp://"+env["URLKIT_NNTP_ADDR"]+"/"+group+"/1")
	if code != exitOK || !strings.Contains(out, "Newsgroups: "+group) {
		t.Errorf("nntp article: %d %q %q", code, out, errOut)
	}
	_, errOut, code = runGetEnv(t, nil, "", "get", "nntp://"+env["URLKIT_NNTP_ADDR"]+"/"+group+"/999")
	if code != exitInvalid || !strings.Contains(errOut, "423") {
		t.Errorf("missing article: %d %q", code, errOut)
	}
}

// get --lenient over IPv6: the [::1] vsftpd and gophernicus of
// .ci/servers.sh. Strictly the URL is refused at the "[" with a pointer to
// --lenient; with it, the IPv6 host is a warning and the file arrives.
func TestGetIPv6Real(t *testing.T) {
	env := testservers.Require(t, "URLKIT_FTP6_ADDR")
	genv := testservers.Require(t, "URLKIT_GOPHER6_ADDR")
	want, err := os.ReadFile(env["URLKIT_CONTENT_TEXT"])
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"ftp://" + env["URLKIT_FTP6_ADDR"] + "/pub/hello.txt", "gopher://" + genv["URLKIT_GOPHER6_ADDR"] + "/0/hello.txt"} {
		out, errOut, code := runCLI(t, "", "get", "--lenient", "-s", in)
		// Gopher text ends at the file's lone "." line (RFC 1436 3.7).
		if code != exitOK || !strings.HasPrefix(strings.ReplaceAll(string(want), "\r\n", "\n"), strings.ReplaceAll(out, "\r\n", "\n")) || len(out) < 30 {
			t.Errorf("get --lenient %s: status %d, stdout %q, stderr %q", in, code, out, errOut)
		}
		_, errOut, code = runCLI(t, "", "get", in)
		if code != exitInvalid || !strings.Contains(errOut, `"[" and "]" are not allowed in a host`) || !strings.Contains(errOut, "--lenient reads it as") {
			t.Errorf("get %s: status %d, stderr %q", in, code, errOut)
		}
	}
}

// get -I (issue 25 item 2): the status line and header of an http HEAD,
// even for a status that is an error (then exit 1); an ftp file's SIZE and
// MDTM as Content-Length and Last-Modified (vsftpd); a Gopher+ item's
// attribute block; what get sends is what plan -I prints.
func TestGetHead(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "HEAD" {
			t.Errorf("method %s", r.Method)
		}
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Length", "1234")
		w.Header().Set("X-Test", "yes")
	}))
	defer srv.Close()
	out, errOut, code := runCLI(t, "", "get", "-I", srv.URL+"/f")
	if code != exitOK || !strings.HasPrefix(out, "HTTP/1.0 200 OK\r\n") || !strings.Contains(out, "\r\nContent-Length: 1234\r\n") || !strings.Contains(out, "\r\nX-Test: yes\r\n") || !strings.HasSuffix(out, "\r\n\r\n") {
		t.Errorf("-I: %d %q %q", code, out, errOut)
	}
	out, errOut, code = runCLI(t, "", "get", "--head", srv.URL+"/missing")
	if code != exitInvalid || !strings.HasPrefix(out, "HTTP/1.0 404 Not Found\r\n") || !strings.Contains(errOut, "http: HEAD: 404 Not Found") {
		t.Errorf("-I 404: %d %q %q", code, out, errOut)
	}
	// Through a gateway, -I would be a GET: refused before anything is sent.
	_, errOut, code = runCLI(t, "", "get", "-I", "--proxy", srv.URL+"/", "gopher://h.example/0/x")
	if code != exitInvalid || !strings.Contains(errOut, "-I (--head) is not carried through a gateway") {
		t.Errorf("-I --proxy: %d %q", code, errOut)
	}
	block := "+INFO: 0Hello\t/hello\t127.0.0.1\t70\t+\r\n+ADMIN:\r\n Admin: Joe\r\n"
	g := serveHostile(t, hostile.GopherReply("+-2\r\n"+block))
	out, errOut, code = runCLI(t, "", "get", "-I", "gopher://"+g.Addr+"/0/hello")
	if code != exitOK || out != block || g.Received() != "/hello\t!\r\n" {
		t.Errorf("gopher -I: %d %q %q, server received %q", code, out, errOut, g.Received())
	}
}

// Against vsftpd (.ci/servers.sh): get -I of a file shows its size and
// time; "ftp://host/pub" (no final /) names the directory pub: get lists
// it as lynx does, with a note giving its URL; -I of it says it is a
// directory; a missing name keeps RETR's 550.
func TestGetFTPRealHeadAndDirectory(t *testing.T) {
	srv := testservers.Require(t, "URLKIT_FTP_ADDR")
	base := "ftp://" + srv["URLKIT_FTP_ADDR"]
	out, errOut, code := runCLI(t, "", "get", "-I", base+"/pub/hello.txt")
	if code != exitOK || !strings.HasPrefix(out, "Content-Length: 60\r\nLast-Modified: ") || !strings.HasSuffix(out, " GMT\r\n\r\n") {
		t.Errorf("-I: %d %q %q", code, out, errOut)
	}
	out, errOut, code = runCLI(t, "", "get", base+"/pub")
	if code != exitOK || !strings.Contains(out, "hello.txt\r\n") ||
		!strings.Contains(errOut, `urlkit get: `+base+`/pub: note: "pub" is a directory (the server refused RETR with 550 and accepted CWD to it): listed; its URL is `+base+"/pub/\n") {
		t.Errorf("pub: %d %q %q", code, out, errOut)
	}
	out, errOut, code = runCLI(t, "", "get", "-I", base+"/pub")
	if code != exitOK || out != "" || !strings.Contains(errOut, "nothing more is asked") {
		t.Errorf("-I pub: %d %q %q", code, out, errOut)
	}
	_, errOut, code = runCLI(t, "", "get", base+"/pub/no-such-file")
	if code != exitInvalid || !strings.Contains(errOut, "RETR no-such-file: 550") {
		t.Errorf("missing: %d %q", code, errOut)
	}
}
