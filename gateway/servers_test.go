package gateway

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/testservers"
)

// The gateway against the real daemons .ci/servers.sh starts: gophernicus,
// vsftpd and innd. The expected bytes are the files the script wrote.

func TestRealGophernicus(t *testing.T) {
	env := testservers.Require(t, "URLKIT_GOPHER_ADDR")
	addr := env["URLKIT_GOPHER_ADDR"]
	base := serve(t, New(allow(addr)))
	resp, body := raw(t, base, "GET", "/gopher://"+addr+"/1/")
	if resp.StatusCode != 200 {
		t.Fatalf("menu: %d %s", resp.StatusCode, body)
	}
	for _, want := range []string{
		`href="/gopher://` + addr + `/0/hello.txt">Hello text</a>`,
		`href="/gopher://` + addr + `/9/all256.bin">All bytes</a>`,
		`href="/gopher://` + addr + `/1/docs">Docs directory</a>`,
		`href="/gopher://` + addr + `/0/a%20b.txt">Selector with space</a>`,
		// Issue 22: one monospace block; info lines in the display strings'
		// column, their art kept; type labels with their meaning; the search
		// item with its field; the header bar with the URL box.
		"<pre class=\"menu\">\n      urlkit test menu\n",
		// (the art follows the search item, whose form ends its line)
		"\n</form>        +------+------+\n        | left | right|\n",
		`<span class=k30>(TXT)</span> <a `,
		`pre.menu .k30:hover::after{content:"0: a text file (RFC 1436)"}`,
		`<form action="/go"><input type=hidden name=url value="gopher://` + addr + `/7/cgi-bin/search">`,
		`<input type="text" name="url" value="gopher://` + addr + `/1/"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("menu lacks %s", want)
		}
	}
	bin, err := os.ReadFile(env["URLKIT_CONTENT_BINARY"])
	if err != nil {
		t.Fatal(err)
	}
	resp, body = raw(t, base, "GET", "gopher://"+addr+"/9/all256.bin")
	if resp.StatusCode != 200 || body != string(bin) || resp.Header.Get("Content-Type") != octetStream || resp.ContentLength != 256 {
		t.Errorf("binary: %d %q %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
	}
	// Issue 22: Latin-1 text is declared as such (windows-1252, which
	// browsers use for the iso-8859-1 label), its bytes unchanged; the
	// search item (gophernicus runs the script in cgi-bin) answers a search.
	latin1, _ := os.ReadFile(env["URLKIT_GOPHER_ROOT"] + "/latin1.txt")
	resp, body = raw(t, base, "GET", "/gopher://"+addr+"/0/latin1.txt")
	if resp.StatusCode != 200 || strings.ReplaceAll(body, "\r\n", "\n") != string(latin1) || resp.Header.Get("Content-Type") != "text/plain; charset=windows-1252" {
		t.Errorf("Latin-1 text: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	resp, body = raw(t, base, "GET", "/gopher://"+addr+"/7/cgi-bin/search%09caf%C3%A9")
	if resp.StatusCode != 200 || !strings.Contains(body, `Results for &#34;café&#34;`) {
		t.Errorf("search: %d %s", resp.StatusCode, body)
	}
	plain, _ := os.ReadFile(env["URLKIT_GOPHER_ROOT"] + "/plain.txt")
	resp, body = raw(t, base, "GET", "/gopher://"+addr+"/0/plain.txt")
	if resp.StatusCode != 200 || strings.ReplaceAll(body, "\r\n", "\n") != string(plain) {
		t.Errorf("text: %d %q, want %q", resp.StatusCode, body, plain)
	}
}

func TestRealVsftpd(t *testing.T) {
	env := testservers.Require(t, "URLKIT_FTP_ADDR")
	addr := env["URLKIT_FTP_ADDR"]
	base := serve(t, New(allow(addr)))
	resp, body := raw(t, base, "GET", "/ftp://"+addr+"/pub/")
	if resp.StatusCode != 200 {
		t.Fatalf("listing: %d %s", resp.StatusCode, body)
	}
	// vsftpd offers no MLST: the gateway read its LIST lines (issue 22):
	// kinds, sizes (exact on hover) and dates; a directory ends with "/".
	text, _ := os.ReadFile(env["URLKIT_CONTENT_TEXT"])
	for _, want := range []string{`href="./hello.txt">hello.txt</a>`, `href="./all256.bin"`, `href="./dir/">dir/</a>`,
		`title="256 bytes">256 B<`, fmt.Sprintf(`title="%d bytes">%d B<`, len(text), len(text)), "<td class=\"kind\">directory</td>",
		mtime(t, env["URLKIT_FTP_ROOT"]+"/pub/hello.txt")} {
		if !strings.Contains(body, want) {
			t.Errorf("listing lacks %s:\n%s", want, body)
		}
	}
	resp, _ = raw(t, base, "GET", "/ftp://"+addr+"/pub/dir")
	if resp.StatusCode != 301 || resp.Header.Get("Location") != "./dir/" {
		t.Errorf("directory without /: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	// Issue 22: a file without an extension is sniffed (text: shown, not
	// downloaded); Latin-1 is declared windows-1252.
	readme, _ := os.ReadFile(env["URLKIT_FTP_ROOT"] + "/pub/README")
	resp, body = raw(t, base, "GET", "/ftp://"+addr+"/pub/README")
	if resp.StatusCode != 200 || body != string(readme) || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("README: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	resp, _ = raw(t, base, "GET", "/ftp://"+addr+"/pub/latin1.txt")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/plain; charset=windows-1252" {
		t.Errorf("latin1.txt: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	resp, body = raw(t, base, "GET", "ftp://"+addr+"/pub/hello.txt")
	if resp.StatusCode != 200 || body != string(text) || resp.ContentLength != int64(len(text)) {
		t.Errorf("file: %d %q", resp.StatusCode, body)
	}
	// A local account: the page never shows the user or the password.
	user, pass := env["URLKIT_FTP_USER"], env["URLKIT_FTP_PASSWORD"]
	resp, body = raw(t, base, "GET", "/ftp://"+user+":"+pass+"@"+addr+"/pub/dir/")
	if resp.StatusCode != 200 || !strings.Contains(body, `href="./a.txt"`) {
		t.Errorf("listing with a login: %d %s", resp.StatusCode, body)
	}
	if strings.Contains(body, pass) || strings.Contains(body, user) {
		t.Errorf("the page shows the login")
	}
	resp, body = raw(t, base, "GET", "/ftp://"+user+":wrong-"+pass+"@"+addr+"/pub/")
	if resp.StatusCode != 502 || strings.Contains(body, pass) {
		t.Errorf("bad password: %d %q", resp.StatusCode, body)
	}
}

func TestRealInnd(t *testing.T) {
	env := testservers.Require(t, "URLKIT_NNTP_ADDR")
	addr, group := env["URLKIT_NNTP_ADDR"], env["URLKIT_NNTP_GROUP"]
	base := serve(t, New(allow(addr)))
	resp, body := raw(t, base, "GET", "/nntp://"+addr+"/"+group)
	if resp.StatusCode != 200 || !strings.Contains(body, `href="/nntp://`+addr+`/`+group+`/1"`) ||
		!strings.Contains(body, "urlkit test one") {
		t.Fatalf("group: %d %s", resp.StatusCode, body)
	}
	resp, body = raw(t, base, "GET", "/nntp://"+addr+"/"+group+"/1")
	if resp.StatusCode != 200 || !strings.Contains(body, "First article body.") || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Fatalf("article: %d %s", resp.StatusCode, body)
	}
	// news: URLs through the gateway's configured news server, which the
	// policy always reaches (no Allow entry here).
	cfg := Config{}
	cfg.Scheme.NewsServer = addr
	base = serve(t, New(cfg))
	msgid := strings.Trim(env["URLKIT_NNTP_MSGID2"], "<>")
	resp, body = raw(t, base, "GET", "/news:"+msgid)
	if resp.StatusCode != 200 || !strings.Contains(body, "Second article body.") {
		t.Fatalf("news article: %d %s", resp.StatusCode, body)
	}
	resp, body = raw(t, base, "GET", "/news:"+group)
	if resp.StatusCode != 200 || !strings.Contains(body, `href="/news:art1.urlkit@urlkit.test"`) {
		t.Fatalf("news group: %d %s", resp.StatusCode, body)
	}
}

// mtime is a file's modification date as vsftpd lists it (in UTC: its
// use_localtime defaults to NO).
func mtime(t *testing.T, name string) string {
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return st.ModTime().UTC().Format("2006-01-02 15:04")
}

// IPv6 literal hosts through the gateway against the real daemons on
// [::1] (.ci/servers.sh runs a second vsftpd and gophernicus there): the
// path form is served (issue 21), with breadcrumbs and links that write
// the host in its brackets; the default policy refuses the loopback
// address.
func TestRealIPv6(t *testing.T) {
	env := testservers.Require(t, "URLKIT_FTP6_ADDR")
	testservers.Require(t, "URLKIT_GOPHER6_ADDR")
	ftp6, gopher6 := env["URLKIT_FTP6_ADDR"], env["URLKIT_GOPHER6_ADDR"]
	base := serve(t, New(allow(ftp6, gopher6)))
	resp, body := raw(t, base, "GET", "/gopher://"+gopher6+"/1/docs")
	if resp.StatusCode != 200 {
		t.Fatalf("gopher menu: %d\n%s", resp.StatusCode, body)
	}
	for _, want := range []string{
		`<a href="/gopher://` + gopher6 + `/1/" rel="up"`,
		`<a href="/gopher://` + gopher6 + `/1/">` + gopher6 + `</a> / <strong>docs</strong>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("gopher menu lacks %s:\n%s", want, body)
		}
	}
	if strings.Contains(body, "[[") {
		t.Errorf("gopher menu: a host in two pairs of brackets:\n%s", body)
	}
	resp, body = raw(t, base, "GET", "/ftp://"+ftp6+"/pub/dir/")
	if resp.StatusCode != 200 || !strings.Contains(body, `<a href="./../../">`+ftp6+`</a> / <a href="./../">pub/</a> / <strong>dir/</strong>`) || strings.Contains(body, "[[") {
		t.Errorf("ftp directory: %d\n%s", resp.StatusCode, body)
	}
	hello, _ := os.ReadFile(env["URLKIT_FTP_ROOT"] + "/pub/hello.txt")
	if resp, body := raw(t, base, "GET", "/ftp://"+ftp6+"/pub/hello.txt"); resp.StatusCode != 200 || body != string(hello) {
		t.Errorf("ftp file: %d %q", resp.StatusCode, body)
	}
	if resp, body := raw(t, serve(t, New(Config{})), "GET", "/gopher://"+gopher6+"/1/"); resp.StatusCode != 403 || !strings.Contains(body, "::1 is a loopback") {
		t.Errorf("default policy: %d %q", resp.StatusCode, body)
	}
}
