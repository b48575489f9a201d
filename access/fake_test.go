package access

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/scheme"
)

// serve starts a hostile (or scripted) server for the test.
var serve = hostile.Serve

// The exact bytes on the wire for ftp://u:secret@host//a%20b/x;type=i (RFC
// 1738 3.2.2: "//" gives "CWD " with an empty argument; decoded names are
// sent as they are) are the plan's, PASV replacing EPSV when the server
// refuses it, and the data connection going to the control connection's
// address whatever the PASV reply names.
func TestFTPExactLines(t *testing.T) {
	f := &hostile.FTP{Files: map[string][]byte{"x": []byte("payload")}, NoEPSV: true, PASVHost: "10.9.9.9", Greeting: "220-fake server\r\n220 ready"}
	s := serve(t, f.Serve)
	p := planFor(t, "ftp://u:secret@"+s.Addr+"//a%20b/x;type=i", scheme.Config{}).(*scheme.FTPPlan)
	var trace bytes.Buffer
	r, err := Execute(context.Background(), p, &Options{Trace: &trace})
	if err != nil {
		t.Fatal(err)
	}
	if got := readAllClose(t, r); string(got) != "payload" {
		t.Fatalf("got %q", got)
	}
	want := "USER u\r\nPASS secret\r\nCWD \r\nCWD a b\r\nTYPE I\r\nEPSV\r\nPASV\r\nRETR x\r\nQUIT\r\n"
	if got := s.Received(); got != want {
		t.Errorf("server received\n%q\nwant\n%q", got, want)
	}
	if strings.Join(commandLines(p), "\r\n")+"\r\n" != strings.Replace(want, "PASV\r\n", "", 1) {
		t.Errorf("plan %q differs from the wire beyond the PASV fallback", commandLines(p))
	}
	if strings.Contains(trace.String(), "secret") || !strings.Contains(trace.String(), "< 220-fake server\n< 220 ready\n> USER u\n") {
		t.Errorf("trace:\n%s", trace.String())
	}
	if r.Size != 7 {
		t.Errorf("size from the 150 reply: %d", r.Size)
	}
}

// RFC 1738 3.2.1: without a user, "anonymous" and the configured e-mail.
func TestFTPAnonymousPassword(t *testing.T) {
	f := &hostile.FTP{Files: map[string][]byte{"f": nil}}
	s := serve(t, f.Serve)
	got := mustGet(t, "ftp://"+s.Addr+"/;type=d", scheme.Config{Email: "me@example.org"}, nil)
	if string(got) != "f\r\n" {
		t.Errorf("NLST data %q", got)
	}
	if want := "USER anonymous\r\nPASS me@example.org\r\nEPSV\r\nNLST\r\nQUIT\r\n"; s.Received() != want {
		t.Errorf("server received %q, want %q", s.Received(), want)
	}
}

// Server text in an error reaches the user escaped: an escape sequence in
// a 550 reply is shown as \x1b.
func TestReplyTextEscaped(t *testing.T) {
	f := &hostile.FTP{RefuseText: "no \x1b]0;pwned\x07 file \u009b31m \xff"}
	s := serve(t, f.Serve)
	_, _, err := get(t, "ftp://"+s.Addr+"/x;type=i", scheme.Config{}, nil)
	if err == nil || strings.ContainsAny(err.Error(), "\x1b\x07") || !strings.Contains(err.Error(), `\x1b]0;pwned\x07`) || !strings.Contains(err.Error(), `\xc2\x9b31m \xff`) {
		t.Errorf("err = %q", err)
	}
	if got := EscapeText("tab\there é \x00\xff"); got != `tab\there é \x00\xff` {
		t.Errorf("EscapeText: %q", got)
	}
}

// Gopher framing (RFC 1436): dot-stuffing undone only at line starts, the
// terminator ends a text, binary kept, Gopher+ lengths (RFC 1738 3.4.3
// and the Gopher+ header) enforced.
func TestGopherFraming(t *testing.T) {
	for _, tc := range []struct {
		name, path, reply, wire, want string
		bad                           bool
	}{
		{"text", "/0/x", "a\r\n..b\r\n.c\r\n.\r\nafter\r\n", "/x\r\n", "a\r\n.b\r\n.c\r\n", false},
		{"text without terminator", "/0/x", "a\r\nb", "/x\r\n", "a\r\nb", false},
		{"binary kept", "/9/b", "..x\r\n.\r\nmore", "/b\r\n", "..x\r\n.\r\nmore", false},
		{"search", "/7/s%09two%20words", "0hit\t/h\th\t70\r\n.\r\n", "/s\ttwo words\r\n", "0hit\t/h\th\t70\r\n", false},
		{"plus length", "/0/p%09%09+", "+5\r\n..abcdef", "/p\t\t+\r\n", "..abc", false},
		{"plus length short", "/0/p%09%09+", "+50\r\n..abcdef", "/p\t\t+\r\n", "", true},
		{"plus -1", "/9/p%09q%09+", "+-1\r\nx\r\n..y\r\n.\r\nz", "/p\tq\t+\r\n", "x\r\n.y\r\n", false},
		{"plus -2", "/0/p%09%09!", "+-2\r\n.\r\nall", "/p\t\t!\r\n", ".\r\nall", false},
		{"plus error", "/0/p%09%09+", "--1\r\n1 Item is not available.\r\n.\r\n", "/p\t\t+\r\n", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := serve(t, hostile.GopherReply(tc.reply))
			p := planFor(t, "gopher://"+s.Addr+tc.path, scheme.Config{}).(*scheme.GopherPlan)
			got, _, err := get(t, "gopher://"+s.Addr+tc.path, scheme.Config{}, nil)
			if tc.bad != (err != nil) {
				t.Fatalf("err = %v", err)
			}
			if !tc.bad && string(got) != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if s.Received() != tc.wire || p.Line() != tc.wire {
				t.Errorf("server received %q, plan %q, want %q", s.Received(), p.Line(), tc.wire)
			}
		})
	}
}

// Menu items become URLs through the scheme layer; items that cannot form
// a valid gopher URL are shown as such, and display strings are escaped.
func TestMenuListing(t *testing.T) {
	menu := "iWelcome \x1b[31mred\x1b[0m\t\terror.host\t1\r\n" +
		"0Good\t/g.txt\th.example\t70\r\n" +
		"0Empty port\t/x\th\t\r\n" +
		"0Spaced host\t/x\ta host\t70\r\n" +
		"3Oops\t\terror.host\t1\r\n"
	var b bytes.Buffer
	n, err := WriteMenuListing(&b, strings.NewReader(menu), 0)
	want := "# Welcome \\x1b[31mred\\x1b[0m\ngopher://h.example:70/0/g.txt\tGood\n" +
		"# invalid item (gopher menu item cannot form a valid gopher URL: empty port for host \"h\"): Empty port\n" +
		"# invalid item (gopher menu item cannot form a valid gopher URL: host \"a host\": offset 10 in host: byte 0x20 is not allowed in a host name: labels are letters, digits and \"-\" (RFC 1738 3.1)): Spaced host\n" +
		"# error: Oops\n"
	if err != nil || n != 5 || b.String() != want {
		t.Errorf("listing (%d, %v):\n%s\nwant\n%s", n, err, b.String(), want)
	}
}

// A menu of error items only (RFC 1436 3.8, type 3), informational lines
// aside, is the server refusing the selector: written, and reported as a
// *GopherErrorMenu; one real item among them makes it a menu.
func TestMenuListingErrorOnly(t *testing.T) {
	for _, tc := range []struct {
		menu string
		want string // the error's text, "" for none
	}{
		{"3Not found\t\terror.host\t1\r\n", "gopher: the server answered with an error item only: Not found"},
		{"iSorry\t\terror.host\t1\r\n3No such selector\t\terror.host\t1\r\n3Try /\t\terror.host\t1\r\n", "gopher: the server answered with an error item only: No such selector; Try /"},
		{"3Partly\t\terror.host\t1\r\n0Good\t/g.txt\th.example\t70\r\n", ""},
		{"iJust text\t\terror.host\t1\r\n", ""},
		{"", ""},
	} {
		var b bytes.Buffer
		_, err := WriteMenuListing(&b, strings.NewReader(tc.menu), 0)
		var em *GopherErrorMenu
		if got := fmt.Sprint(err); (tc.want == "" && err != nil) || (tc.want != "" && (!errors.As(err, &em) || got != tc.want)) {
			t.Errorf("%q: %v, want %q", tc.menu, err, tc.want)
		}
		if strings.Count(tc.menu, "3") > 0 && !strings.Contains(b.String(), "# error: ") {
			t.Errorf("%q: the listing lacks its error line: %q", tc.menu, b.String())
		}
	}
}

// oldNNTPServer is an RFC 977 server that knows neither MODE READER nor
// OVER (500), nor, unless xover, XOVER; it has group g of one article.
func oldNNTPServer(xover bool) func(c net.Conn) {
	return func(c net.Conn) {
		io.WriteString(c, "200 old server\r\n")
		buf := make([]byte, 4096)
		for {
			n, err := c.Read(buf)
			if err != nil {
				return
			}
			switch l := string(buf[:n]); {
			case strings.HasPrefix(l, "MODE"), strings.HasPrefix(l, "OVER"), strings.HasPrefix(l, "XOVER") && !xover:
				io.WriteString(c, "500 what?\r\n")
			case strings.HasPrefix(l, "GROUP"):
				io.WriteString(c, "211 1 1 1 g\r\n")
			case strings.HasPrefix(l, "XOVER"):
				io.WriteString(c, "224 overview\r\n1\tsubj\r\n..dot\r\n.\r\n")
			case strings.HasPrefix(l, "QUIT"):
				io.WriteString(c, "205 bye\r\n")
				return
			}
		}
	}
}

// An RFC 977 server that does not know MODE READER (500) is used as is,
// OVER falls back to XOVER (RFC 2980), and an article is delivered with
// dot-stuffing undone.
func TestNNTPFallbacks(t *testing.T) {
	s := serve(t, oldNNTPServer(true))
	got := mustGet(t, "nntp://"+s.Addr+"/g", scheme.Config{}, nil)
	if string(got) != "1\tsubj\r\n.dot\r\n" {
		t.Errorf("got %q", got)
	}
	if want := "MODE READER\r\nGROUP g\r\nOVER 1-\r\nXOVER 1-\r\nQUIT\r\n"; s.Received() != want {
		t.Errorf("server received %q, want %q", s.Received(), want)
	}
	// A news URL without a configured server says so.
	if _, _, err := get(t, "news:comp.lang.go", scheme.Config{}, nil); !errors.Is(err, ErrNoNewsServer) {
		t.Errorf("err = %v", err)
	}
}

// The HTTP request on the wire is the plan's request, byte for byte: no
// Accept-Encoding unless Compressed, no Go User-Agent, HTTP/1.0.
func TestHTTPPlanEqualsWire(t *testing.T) {
	body := "hello"
	for _, compressed := range []bool{false, true} {
		s := serve(t, hostile.HTTPResponse("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\n"+body))
		p := planFor(t, "http://"+s.Addr+"/a%20b?q=1#frag", scheme.Config{Compressed: compressed}).(*scheme.HTTPPlan)
		r, err := Execute(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := readAllClose(t, r); string(got) != body || r.ContentType != "text/plain" || r.Size != 5 {
			t.Errorf("got %q %q %d", got, r.ContentType, r.Size)
		}
		if s.Received() != p.Wire() {
			t.Errorf("server received %q, plan %q", s.Received(), p.Wire())
		}
		if strings.Contains(p.Wire(), "Accept-Encoding") != compressed || !strings.HasPrefix(p.Wire(), "GET /a%20b?q=1 HTTP/1.0\r\nHost: "+s.Addr+"\r\n") {
			t.Errorf("request %q", p.Wire())
		}
	}
}

// Redirects: not followed without FollowRedirects; followed as new plans
// with it; refused to another scheme, from https to http, and past the
// hop limit.
func TestHTTPRedirects(t *testing.T) {
	final := serve(t, hostile.HTTPResponse("HTTP/1.0 200 OK\r\n\r\ndone"))
	hop := serve(t, hostile.HTTPResponse("HTTP/1.0 301 Moved\r\nLocation: http://"+final.Addr+"/end\r\n\r\n"))
	in := "http://" + hop.Addr + "/start"
	var re *RedirectError
	if _, _, err := get(t, in, scheme.Config{}, nil); !errors.As(err, &re) || !strings.Contains(err.Error(), "-L") {
		t.Errorf("without -L: %v", err)
	}
	var plans []string
	opts := &Options{FollowRedirects: true, OnPlan: func(p scheme.Plan) { plans = append(plans, p.(*scheme.HTTPPlan).URL) }}
	if got := mustGet(t, in, scheme.Config{}, opts); string(got) != "done" {
		t.Errorf("got %q", got)
	}
	if len(plans) != 2 || plans[1] != "http://"+final.Addr+"/end" {
		t.Errorf("plans %q", plans)
	}
	if final.Received() != planFor(t, "http://"+final.Addr+"/end", scheme.Config{}).(*scheme.HTTPPlan).Wire() {
		t.Errorf("hop request %q", final.Received())
	}
	toFTP := serve(t, hostile.HTTPResponse("HTTP/1.0 302 Found\r\nLocation: ftp://127.0.0.1/etc/passwd\r\n\r\n"))
	if _, _, err := get(t, "http://"+toFTP.Addr+"/", scheme.Config{}, opts); !errors.As(err, &re) || !strings.Contains(err.Error(), "another scheme (ftp)") {
		t.Errorf("to ftp: %v", err)
	}
	loop := serve(t, hostile.HTTPResponse("HTTP/1.0 302 Found\r\nLocation: /again\r\n\r\n"))
	opts.MaxRedirects = 3
	if _, _, err := get(t, "http://"+loop.Addr+"/", scheme.Config{}, opts); !errors.As(err, &re) || !strings.Contains(err.Error(), "more than 3 redirects") {
		t.Errorf("loop: %v", err)
	}
	var se *HTTPStatusError
	nf := serve(t, hostile.HTTPResponse("HTTP/1.0 404 Not Found\r\n\r\n"))
	if _, _, err := get(t, "http://"+nf.Addr+"/", scheme.Config{}, nil); !errors.As(err, &se) || se.Code != 404 {
		t.Errorf("404: %v", err)
	}
}

// RFC 1738 3.10: a local file, a directory listing, and a FIFO whose open
// blocks until the context ends.
func TestFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("A"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	if got := mustGet(t, "file://"+dir+"/a.txt", scheme.Config{}, nil); string(got) != "A" {
		t.Errorf("file %q", got)
	}
	if got := mustGet(t, "file://localhost"+dir+"/", scheme.Config{}, nil); string(got) != "a.txt\nsub/\n" {
		t.Errorf("listing %q", got)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := exec.Command("mkfifo", fifo).Run(); err != nil {
		t.Skip("mkfifo:", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Execute(ctx, planFor(t, "file://"+fifo, scheme.Config{}), nil)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Errorf("FIFO open: %v after %v", err, time.Since(start))
	}
}

// A session is described, never logged into; its command passes the user,
// never the password; an option-like host is refused.
func TestSessions(t *testing.T) {
	p := planFor(t, "telnet://fred:pw@host.example:2323", scheme.Config{}).(*scheme.Session)
	d := DescribeSession(p)
	if !strings.Contains(d, `"fred"`) || strings.Contains(d, "pw") && !strings.Contains(d, "password") {
		t.Errorf("describe %q", d)
	}
	if _, err := exec.LookPath("telnet"); err == nil {
		cmd, err := SessionCommand(context.Background(), p)
		if err != nil || strings.Join(cmd.Args[1:], " ") != "-l fred -- host.example 2323" {
			t.Errorf("command %q %v", cmd.Args, err)
		}
	}
	if _, err := SessionCommand(context.Background(), &scheme.Session{Program: "telnet", Host: "-oProxyCommand=x", Port: 23}); err == nil {
		t.Error("option-like host accepted")
	}
}

// RFC 822 messages: CRLF line ends (a bare CR too), From and To must be
// addr-specs, header injection refused; SMTP sends the dot-stuffed body.
func TestMail(t *testing.T) {
	m := &MailMessage{From: "me@example.org", To: []string{"a@example.org"}, Subject: "Grüße",
		Date: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Body: []byte("one\ntwo\rthree\r\n.dot")}
	var b strings.Builder
	if err := WriteMessage(&b, m); err != nil {
		t.Fatal(err)
	}
	want := "From: me@example.org\r\nTo: a@example.org\r\nSubject: =?utf-8?q?Gr=C3=BC=C3=9Fe?=\r\nDate: Tue, 02 Jan 2024 03:04:05 +0000\r\n\r\none\r\ntwo\r\nthree\r\n.dot\r\n"
	if b.String() != want {
		t.Errorf("message\n%q\nwant\n%q", b.String(), want)
	}
	for _, bad := range []*MailMessage{
		{From: "me@example.org\r\nBcc: x@y", To: []string{"a@b.org"}},
		{From: "Me <me@example.org>", To: []string{"a@b.org"}},
		{To: []string{"a@b\r\nBcc: x@y"}},
		{To: []string{"a@b.org"}, Subject: "s\r\nBcc: x@y"},
		{},
	} {
		if err := WriteMessage(io.Discard, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	s := serve(t, func(c net.Conn) {
		io.WriteString(c, "220 fake ESMTP\r\n")
		buf := make([]byte, 65536)
		var all string
		for {
			n, err := c.Read(buf)
			if err != nil {
				return
			}
			all += string(buf[:n])
			switch {
			case strings.HasSuffix(all, "\r\n.\r\n"):
				all = ""
				io.WriteString(c, "250 queued\r\n")
			case strings.HasPrefix(string(buf[:n]), "EHLO"):
				io.WriteString(c, "250-fake\r\n250 8BITMIME\r\n")
			case strings.HasPrefix(string(buf[:n]), "DATA"):
				io.WriteString(c, "354 go\r\n")
			case strings.HasPrefix(string(buf[:n]), "QUIT"):
				io.WriteString(c, "221 bye\r\n")
				return
			case strings.HasPrefix(string(buf[:n]), "MAIL"), strings.HasPrefix(string(buf[:n]), "RCPT"):
				io.WriteString(c, "250 ok\r\n")
			}
		}
	})
	if err := SendMail(context.Background(), s.Addr, m, nil); err != nil {
		t.Fatal(err)
	}
	got := s.Received()
	for _, w := range []string{"EHLO localhost\r\nMAIL FROM:<me@example.org>\r\nRCPT TO:<a@example.org>\r\nDATA\r\n", "\r\n\r\none\r\ntwo\r\nthree\r\n..dot\r\n.\r\nQUIT\r\n"} {
		if !strings.Contains(got, w) {
			t.Errorf("SMTP session lacks %q:\n%q", w, got)
		}
	}
}

// Config.FTPListDetails (plan == wire): FEAT, then MLSD where the FEAT reply
// offers MLST (RFC 3659 7.8), LIST where it does not, NLST where LIST is
// refused too; each listing read in its own format. The plan's lines are
// the wire's, the MLSD line standing for the command the rule chose.
func TestFTPListDetails(t *testing.T) {
	const mlsd = "type=cdir;modify=20261124215700; .\r\ntype=file;size=51200;modify=20261124215700; big.bin\r\ntype=dir;modify=20261124215700; docs\r\n"
	const list = "-rw-r--r--    1 ftp      ftp         51200 Nov 24 21:57 big.bin\r\ndrwxr-xr-x    2 ftp      ftp          4096 Nov 24 21:57 docs\r\n"
	for _, tc := range []struct {
		name   string
		f      *hostile.FTP
		format ListFormat
		wire   string // after the login and FEAT, before QUIT
		want   string
	}{
		{"MLSD", &hostile.FTP{Features: []string{"MLST type*;size*;modify*;", "UTF8"}, MLSD: mlsd, LIST: list}, ListFacts, "EPSV\r\nMLSD pub\r\n", mlsd},
		{"LIST", &hostile.FTP{Features: []string{"EPSV", "SIZE"}, MLSD: mlsd, LIST: list}, ListLong, "EPSV\r\nLIST pub\r\n", list},
		{"no FEAT", &hostile.FTP{MLSD: mlsd, LIST: list}, ListLong, "EPSV\r\nLIST pub\r\n", list},
		{"NLST", &hostile.FTP{Files: map[string][]byte{"big.bin": nil}}, ListNames, "EPSV\r\nLIST pub\r\nEPSV\r\nNLST pub\r\n", "big.bin\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := serve(t, tc.f.Serve)
			p := planFor(t, "ftp://"+s.Addr+"/pub;type=d", scheme.Config{Email: "me@example.org", FTPListDetails: true}).(*scheme.FTPPlan)
			if want := []string{"USER anonymous", "PASS me@example.org", "FEAT", "EPSV", "MLSD pub", "QUIT"}; strings.Join(commandLines(p), "|") != strings.Join(want, "|") {
				t.Fatalf("plan %q", commandLines(p))
			}
			var trace bytes.Buffer
			r, err := Execute(context.Background(), p, &Options{Trace: &trace})
			if err != nil {
				t.Fatal(err)
			}
			if r.ListFormat != tc.format || r.Kind != "directory" {
				t.Errorf("format %q kind %q, want %q", r.ListFormat, r.Kind, tc.format)
			}
			if got := readAllClose(t, r); string(got) != tc.want {
				t.Errorf("got %q", got)
			}
			want := "USER anonymous\r\nPASS me@example.org\r\nFEAT\r\n" + tc.wire + "QUIT\r\n"
			if got := s.Received(); got != want {
				t.Errorf("server received\n%q\nwant\n%q", got, want)
			}
			// The trace (get -v) shows what was sent, line for line.
			for _, l := range strings.Split(strings.TrimSpace(want), "\r\n") {
				if !strings.Contains(trace.String(), "> "+l+"\n") {
					t.Errorf("trace lacks %q:\n%s", l, trace.String())
				}
			}
		})
	}
}

// A gopher menu's Resource is read line by line from its own dot reader
// (no second buffer): the items are those of the same menu text, unstuffed,
// read through the generic buffered path, for dot-stuffed lines, a line
// longer than the reader's buffer, a last line without its end, and a
// menu whose line passes the cap.
func TestMenuReaderLines(t *testing.T) {
	long := strings.Repeat("x", 40<<10) // more than the dot reader's 32 KiB buffer
	for _, tc := range []struct {
		name, reply, text string
		max               int
	}{
		{"stuffed", "0a\t/a\th\t70\r\n..dot\r\n.\r\n", "0a\t/a\th\t70\r\n.dot\r\n", 0},
		{"long line", "0" + long + "\t/l\th\t70\r\n1b\t/b\th\t70\r\n.\r\n", "0" + long + "\t/l\th\t70\r\n1b\t/b\th\t70\r\n", 64 << 10},
		{"long, stuffed", ".." + long + "\r\n.\r\n", "." + long + "\r\n", 64 << 10},
		{"no terminator", "0a\t/a\th\t70\r\n1b\t/b\th\t70", "0a\t/a\th\t70\r\n1b\t/b\th\t70", 0},
		{"over the cap", "0" + long + "\t/l\th\t70\r\n.\r\n", "0" + long + "\t/l\th\t70\r\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := serve(t, hostile.GopherReply(tc.reply))
			r, err := Execute(context.Background(), planFor(t, "gopher://"+s.Addr+"/1/m", scheme.Config{}), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			fast := NewMenuReader(r, tc.max)
			if fast.lines == nil {
				t.Fatal("a gopher menu's Resource is read through a second buffer")
			}
			ref := NewMenuReader(strings.NewReader(tc.text), tc.max)
			for i := 0; ; i++ {
				a, aerr := fast.Next()
				b, berr := ref.Next()
				if a != b || (aerr == nil) != (berr == nil) || aerr != nil && aerr.Error() != berr.Error() {
					t.Fatalf("item %d: %.60q, %v; reference %.60q, %v", i, a.Display, aerr, b.Display, berr)
				}
				if aerr != nil {
					if tc.name == "over the cap" && !errors.As(aerr, new(*LimitError)) {
						t.Errorf("over the cap: %v", aerr)
					}
					break
				}
			}
		})
	}
}
