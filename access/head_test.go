package access

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/scheme"
)

// Config.Head (urlkit get -I, issue 25 item 2): HTTP sends HEAD and reads
// no body; the answer is the status and header whatever the status; a
// redirect is shown, or followed with HEAD again.
func TestHTTPHead(t *testing.T) {
	var methods []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		methods = append(methods, r.Method+" "+r.URL.Path)
		switch r.URL.Path {
		case "/old":
			http.Redirect(w, r, "/f", http.StatusFound)
		case "/missing":
			http.NotFound(w, r)
		default:
			w.Header().Set("Content-Length", "1234")
			w.Header().Set("Last-Modified", "Tue, 04 Nov 2025 10:00:00 GMT")
		}
	}))
	defer srv.Close()
	p := planFor(t, srv.URL+"/f", scheme.Config{Head: true}).(*scheme.HTTPPlan)
	if p.Method != "HEAD" || !strings.HasPrefix(p.Wire(), "HEAD /f HTTP/1.0\r\n") {
		t.Fatalf("plan sends %q", p.Wire())
	}
	body, r, err := get(t, srv.URL+"/f", scheme.Config{Head: true}, nil)
	if err != nil || len(body) != 0 || r.Kind != "head" || r.Header.Get("Content-Length") != "1234" || !strings.Contains(r.Status, "200") {
		t.Fatalf("HEAD: %v, %q, %+v", err, body, r)
	}
	_, r, err = get(t, srv.URL+"/missing", scheme.Config{Head: true}, nil)
	if err != nil || !strings.Contains(r.Status, "404") {
		t.Errorf("HEAD of a missing page: %v %+v", err, r)
	}
	_, r, err = get(t, srv.URL+"/old", scheme.Config{Head: true}, nil)
	if err != nil || !strings.Contains(r.Status, "302") || r.Header.Get("Location") != "/f" {
		t.Errorf("HEAD of a redirect, not followed: %v %+v", err, r)
	}
	methods = nil
	_, r, err = get(t, srv.URL+"/old", scheme.Config{Head: true}, &Options{FollowRedirects: true})
	if err != nil || !strings.Contains(r.Status, "200") || strings.Join(methods, ",") != "HEAD /old,HEAD /f" {
		t.Errorf("HEAD with redirects followed: %v %+v, server saw %q", err, r, methods)
	}
}

// The Gopher+ item attribute request (RFC 1738 3.4.6): the selector, TAB,
// "!"; the attribute block after the Gopher+ header line is the stream.
func TestGopherPlusAttributes(t *testing.T) {
	block := "+INFO: 0Hello\t/hello\t127.0.0.1\t70\t+\r\n+ADMIN:\r\n Admin: Joe <joe@example.org>\r\n Mod-Date: <20251104100000>\r\n+VIEWS:\r\n text/plain: <1k>\r\n"
	s := hostile.Serve(t, hostile.GopherReply("+-2\r\n"+block))
	body, r, err := get(t, "gopher://"+s.Addr+"/0/hello%09words", scheme.Config{Head: true}, nil)
	if err != nil || string(body) != block || r.Kind != "attributes" {
		t.Fatalf("%v %q %+v", err, body, r)
	}
	if got := s.Received(); got != "/hello\t!\r\n" {
		t.Errorf("the server received %q", got)
	}
	// A server that answers without a Gopher+ header line does not speak
	// Gopher+: no attributes, an error that says so.
	plain := hostile.Serve(t, hostile.GopherReply("Hello, world\r\n.\r\n"))
	_, _, err = get(t, "gopher://"+plain.Addr+"/0/hello", scheme.Config{Head: true}, nil)
	var se *StepError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "does not speak Gopher+") {
		t.Errorf("plain gopher server: %v", err)
	}
}

// Against gophernicus (.ci/servers.sh), which does not speak Gopher+: it
// answers "selector TAB !" with the document, as plain Gopher, so the
// request fails with the reason.
func TestGopherRealHeadNotGopherPlus(t *testing.T) {
	env := realServer(t, "URLKIT_GOPHER_ADDR")
	_, _, err := get(t, "gopher://"+env["URLKIT_GOPHER_ADDR"]+"/0/hello.txt", scheme.Config{Head: true}, nil)
	if err == nil || !strings.Contains(err.Error(), "does not speak Gopher+") {
		t.Errorf("gophernicus: %v", err)
	}
}

// Against vsftpd: a Head plan sends what it prints (TYPE I, SIZE, MDTM,
// QUIT) and shows the replies as Content-Length and Last-Modified, the
// file's size and modification time on disk.
func TestFTPRealHead(t *testing.T) {
	env := realServer(t, "URLKIT_FTP_ADDR")
	px := startProxy(t, env["URLKIT_FTP_ADDR"])
	p := planFor(t, "ftp://"+px.addr+"/pub/hello.txt", scheme.Config{Head: true}).(*scheme.FTPPlan)
	before := len(px.lines())
	body, r, err := get(t, "ftp://"+px.addr+"/pub/hello.txt", scheme.Config{Head: true}, nil)
	if err != nil || len(body) != 0 || r.Kind != "head" {
		t.Fatalf("%v %q %+v", err, body, r)
	}
	// The same plan again: get plans it anew.
	if wire, want := px.lines()[before:], commandLines(p); strings.Join(wire, "\n") != strings.Join(want, "\n") {
		t.Errorf("server received\n%q\nplan says\n%q", wire, want)
	}
	st, err := os.Stat(filepath.Join(env["URLKIT_FTP_ROOT"], "pub", "hello.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Header.Get("Content-Length"); got != "60" || st.Size() != 60 {
		t.Errorf("Content-Length %q, file %d bytes", got, st.Size())
	}
	lm, err := http.ParseTime(r.Header.Get("Last-Modified"))
	if err != nil || !lm.Equal(st.ModTime().Truncate(time.Second)) {
		t.Errorf("Last-Modified %q (%v), file modified %v", r.Header.Get("Last-Modified"), err, st.ModTime().UTC())
	}
	// A missing file: SIZE's refusal is the error.
	_, _, err = get(t, "ftp://"+px.addr+"/pub/no-such-file", scheme.Config{Head: true}, nil)
	var re *ReplyError
	if !errors.As(err, &re) || re.Code != 550 || re.Step != "SIZE no-such-file" {
		t.Errorf("missing file: %v", err)
	}
}

// RFC 1738 3.2.2 names a file by its last segment; "ftp://host/pub" with
// no final "/" and no ;type= may name the directory pub. vsftpd refuses
// RETR pub with 550 and accepts CWD pub: the plan's Directory commands
// list it (as lynx does), and the resource says so; the wire is the
// plan's lines with the Directory commands in place of the transfer. A
// name that is neither keeps RETR's refusal; ;type=i asks for a file, and
// gets the refusal.
func TestFTPRealDirectoryWithoutSlash(t *testing.T) {
	env := realServer(t, "URLKIT_FTP_ADDR")
	px := startProxy(t, env["URLKIT_FTP_ADDR"])
	u := "ftp://" + px.addr + "/pub"
	p := planFor(t, u, scheme.Config{}).(*scheme.FTPPlan)
	before := len(px.lines())
	body, r, err := get(t, u, scheme.Config{}, nil)
	if err != nil || !r.Directory || r.Kind != "directory" {
		t.Fatalf("%v %+v", err, r)
	}
	want := mustGet(t, u+"/", scheme.Config{}, nil)
	if !bytes.Equal(sortLines(body), sortLines(want)) {
		t.Errorf("listing %q, the listing of pub/ is %q", body, want)
	}
	var sent []string
	for _, c := range p.Commands {
		if c.Verb == scheme.FTPQuit {
			for _, d := range p.Directory {
				sent = append(sent, d.Line())
			}
		}
		sent = append(sent, c.Line())
	}
	if wire := px.lines()[before : before+len(sent)]; strings.Join(wire, "\n") != strings.Join(sent, "\n") {
		t.Errorf("server received\n%q\nplan says\n%q", wire, sent)
	}
	// Head: SIZE pub refused, CWD pub accepted: a directory, no header.
	_, r, err = get(t, u, scheme.Config{Head: true}, nil)
	if err != nil || !r.Directory || len(r.Header) != 0 {
		t.Errorf("head of pub: %v %+v", err, r)
	}
	// The gateway's listing details: the same rule, through FEAT and LIST.
	body, r, err = get(t, u, scheme.Config{FTPListDetails: true}, nil)
	if err != nil || !r.Directory || r.ListFormat != ListLong || !bytes.Contains(body, []byte("hello.txt")) {
		t.Errorf("with details: %v %+v %q", err, r, body)
	}
	for _, tc := range []struct{ path, step string }{
		{"/pub/no-such-file", "RETR no-such-file"},
		{"/pub;type=i", "RETR pub"},
	} {
		_, _, err := get(t, "ftp://"+px.addr+tc.path, scheme.Config{}, nil)
		var re *ReplyError
		if !errors.As(err, &re) || re.Code != 550 || re.Step != tc.step {
			t.Errorf("%s: err = %v, want RETR's 550", tc.path, err)
		}
	}
}

// The 213 replies of SIZE (RFC 3659 4) and MDTM (RFC 3659 2.3, 3) as
// headers; anything else is refused, never passed on.
func TestFTPHeader(t *testing.T) {
	for _, tc := range []struct {
		verb      scheme.FTPVerb
		msg, k, v string
	}{
		{scheme.FTPSize, "1234", "Content-Length", "1234"},
		{scheme.FTPSize, " 0 ", "Content-Length", "0"},
		{scheme.FTPSize, "12a", "", ""},
		{scheme.FTPSize, "-1", "", ""},
		{scheme.FTPMdtm, "20251104100000", "Last-Modified", "Tue, 04 Nov 2025 10:00:00 GMT"},
		{scheme.FTPMdtm, "20251104100000.123", "Last-Modified", "Tue, 04 Nov 2025 10:00:00 GMT"},
		{scheme.FTPMdtm, "2025-11-04", "", ""},
	} {
		h := http.Header{}
		err := ftpHeader(h, tc.verb, tc.msg)
		if tc.k == "" {
			if err == nil || len(h) != 0 {
				t.Errorf("%v %q: %v %v, want an error", tc.verb, tc.msg, h, err)
			}
			continue
		}
		if err != nil || h.Get(tc.k) != tc.v {
			t.Errorf("%v %q: %v %v, want %s: %s", tc.verb, tc.msg, h, err, tc.k, tc.v)
		}
	}
}
