package access

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/scheme"
)

// The tests in this file talk to the real daemons .ci/servers.sh starts
// (vsftpd, gophernicus, innd) through a recording proxy, and prove that
// the lines the server received are the plan's lines, byte for byte.

// vsftpdLog returns a function yielding the vsftpd log lines written after
// now, waiting (bounded) until the session's QUIT or failure is logged.
func vsftpdLog(t *testing.T, name string) func() string {
	t.Helper()
	st, err := os.Stat(name)
	if err != nil {
		t.Fatalf("vsftpd log: %v", err)
	}
	off := st.Size()
	return func() string {
		var b []byte
		for i := 0; i < 100; i++ {
			b, _ = os.ReadFile(name)
			b = b[off:]
			if bytes.Contains(b, []byte(`"QUIT"`)) || bytes.Contains(b, []byte("FAIL LOGIN")) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		return string(b)
	}
}

// RFC 1738 3.2.1, 3.2.2: what vsftpd received equals the plan's Commands,
// the anonymous password (the --email address) included, which vsftpd
// logs as the "anon password" of the login.
func TestFTPRealPlanEqualsWire(t *testing.T) {
	env := realServer(t, "URLKIT_FTP_ADDR")
	px := startProxy(t, env["URLKIT_FTP_ADDR"])
	for _, tc := range []struct {
		path string
		want []byte
	}{
		{"/pub/all256.bin", readFile(t, env["URLKIT_CONTENT_BINARY"])},
		{"/pub/hello.txt", readFile(t, env["URLKIT_CONTENT_TEXT"])},
		{"/pub/hello.txt;type=i", readFile(t, env["URLKIT_CONTENT_TEXT"])},
		{"/pub/dir/", []byte("a.txt\r\nb.txt\r\n")},
	} {
		t.Run(tc.path, func(t *testing.T) {
			email := fmt.Sprintf("tester-%d@example.org", time.Now().UnixNano())
			p := planFor(t, "ftp://"+px.addr+tc.path, scheme.Config{Email: email}).(*scheme.FTPPlan)
			log := vsftpdLog(t, env["URLKIT_FTP_LOG"])
			before := len(px.lines())
			var trace bytes.Buffer
			r, err := Execute(context.Background(), p, &Options{Trace: &trace})
			if err != nil {
				t.Fatal(err)
			}
			got := readAllClose(t, r)
			if tc.path == "/pub/dir/" {
				got = sortLines(got)
			}
			if !bytes.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			wire := px.lines()[before:]
			if strings.Join(wire, "\n") != strings.Join(commandLines(p), "\n") {
				t.Errorf("server received\n%q\nplan says\n%q", wire, commandLines(p))
			}
			if l := log(); !strings.Contains(l, `anon password "`+email+`"`) {
				t.Errorf("vsftpd log lacks the anonymous password %s:\n%s", email, l)
			}
			// -v: each plan line as sent, each reply escaped.
			for _, c := range p.Commands {
				if !strings.Contains(trace.String(), "> "+c.Redacted()+"\n") {
					t.Errorf("trace lacks %q:\n%s", c.Redacted(), trace.String())
				}
			}
		})
	}
}

// Config.FTPListDetails against vsftpd, whose FEAT offers no MLST: the
// plan's FEAT and MLSD lines go out as FEAT and LIST (the rule the plan
// states), and vsftpd's "ls -l" lines are read into names, kinds, sizes
// and dates that match the files .ci/servers.sh wrote.
func TestFTPRealListDetails(t *testing.T) {
	env := realServer(t, "URLKIT_FTP_ADDR")
	px := startProxy(t, env["URLKIT_FTP_ADDR"])
	p := planFor(t, "ftp://"+px.addr+"/pub/", scheme.Config{FTPListDetails: true}).(*scheme.FTPPlan)
	before := len(px.lines())
	var trace bytes.Buffer
	r, err := Execute(context.Background(), p, &Options{Trace: &trace})
	if err != nil {
		t.Fatal(err)
	}
	got := readAllClose(t, r)
	wire := px.lines()[before:]
	// The plan's MLSD (Feature MLST, Else LIST) goes out as LIST.
	var want []string
	for _, c := range p.Commands {
		if c.Verb == scheme.FTPMlsd && c.Feature == scheme.FTPMlst {
			c.Verb = c.Else[0]
		}
		want = append(want, c.Line())
	}
	if strings.Join(wire, "\n") != strings.Join(want, "\n") || !strings.Contains(strings.Join(commandLines(p), "\n"), "FEAT\nEPSV\nMLSD\n") {
		t.Errorf("server received\n%q\nplan says\n%q", wire, commandLines(p))
	}
	if !strings.Contains(trace.String(), "> LIST\n") || r.ListFormat != ListLong {
		t.Errorf("format %q, trace:\n%s", r.ListFormat, trace.String())
	}
	entries := map[string]DirEntry{}
	for _, l := range strings.Split(string(got), "\n") {
		if e, skip := ParseListLine(r.ListFormat, l, time.Now()); !skip {
			if !e.Parsed {
				t.Errorf("vsftpd line not read: %q", l)
			}
			entries[e.Name] = e
		}
	}
	text, _ := os.Stat(env["URLKIT_CONTENT_TEXT"])
	if e := entries["hello.txt"]; e.Kind != KindFile || e.Size != text.Size() || e.Precision != TimeMinute ||
		e.Time.Sub(text.ModTime().UTC()) > 24*time.Hour || text.ModTime().UTC().Sub(e.Time) > 24*time.Hour {
		t.Errorf("hello.txt: %+v (file: %d bytes, %v)", e, text.Size(), text.ModTime())
	}
	if e := entries["all256.bin"]; e.Kind != KindFile || e.Size != 256 {
		t.Errorf("all256.bin: %+v", e)
	}
	if e := entries["dir"]; e.Kind != KindDir {
		t.Errorf("dir: %+v", e)
	}
}

func sortLines(b []byte) []byte {
	l := strings.Split(strings.TrimSuffix(string(b), "\r\n"), "\r\n")
	sort.Strings(l)
	return []byte(strings.Join(l, "\r\n") + "\r\n")
}

func readAllClose(t *testing.T, r *Resource) []byte {
	t.Helper()
	var b bytes.Buffer
	_, err := b.ReadFrom(r)
	if cerr := r.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A named user and password (RFC 1738 3.2.1 user:password@): the wire
// carries them; the trace, the plan's Steps and errors never show the
// password.
func TestFTPRealUserLogin(t *testing.T) {
	env := realServer(t, "URLKIT_FTP_ADDR")
	px := startProxy(t, env["URLKIT_FTP_ADDR"])
	user, pass := env["URLKIT_FTP_USER"], env["URLKIT_FTP_PASSWORD"]
	p := planFor(t, "ftp://"+user+":"+pass+"@"+px.addr+"/pub/all256.bin", scheme.Config{}).(*scheme.FTPPlan)
	var trace bytes.Buffer
	r, err := Execute(context.Background(), p, &Options{Trace: &trace})
	if err != nil {
		t.Fatal(err)
	}
	if got := readAllClose(t, r); !bytes.Equal(got, readFile(t, env["URLKIT_CONTENT_BINARY"])) {
		t.Fatalf("got %d bytes", len(got))
	}
	if wire := px.lines(); strings.Join(wire, "\n") != strings.Join(commandLines(p), "\n") {
		t.Errorf("server received %q, plan %q", wire, commandLines(p))
	}
	if shown := strings.Join(scheme.StepTexts(p), "\n"); strings.Contains(trace.String(), pass) || strings.Contains(shown, pass) {
		t.Errorf("password shown:\n%s\n%s", trace.String(), shown)
	}
	if !strings.Contains(trace.String(), "> PASS ****\n") {
		t.Errorf("trace lacks the masked PASS:\n%s", trace.String())
	}
	// A wrong password: the error names PASS, carries 530, hides the password.
	_, _, err = get(t, "ftp://"+user+":wrong-pw-xyz@"+env["URLKIT_FTP_ADDR"]+"/x", scheme.Config{}, nil)
	var re *ReplyError
	if !errors.As(err, &re) || re.Step != "PASS" || re.Code != 530 || strings.Contains(err.Error(), "wrong-pw-xyz") {
		t.Fatalf("err = %v, want a 530 ReplyError for PASS without the password", err)
	}
}

// RFC 1738 3.2.1: a user without password, and the server asks (331): the
// prompt is called and "PASS <ask the user>" becomes the answer; without a
// prompt the fetch fails with ErrPasswordRequired.
func TestFTPRealPasswordPrompt(t *testing.T) {
	env := realServer(t, "URLKIT_FTP_ADDR")
	asked := 0
	opts := &Options{PasswordPrompt: func(context.Context) (string, error) { asked++; return env["URLKIT_FTP_PASSWORD"], nil }}
	in := "ftp://" + env["URLKIT_FTP_USER"] + "@" + env["URLKIT_FTP_ADDR"] + "/pub/hello.txt"
	if got := mustGet(t, in, scheme.Config{}, opts); !bytes.Equal(got, readFile(t, env["URLKIT_CONTENT_TEXT"])) || asked != 1 {
		t.Fatalf("prompt called %d times, got %q", asked, got)
	}
	if _, _, err := get(t, in, scheme.Config{}, nil); !errors.Is(err, ErrPasswordRequired) {
		t.Fatalf("err = %v, want ErrPasswordRequired", err)
	}
}

// Refusals name the step and carry the server's reply.
func TestFTPRealRefusals(t *testing.T) {
	env := realServer(t, "URLKIT_FTP_ADDR")
	addr := env["URLKIT_FTP_ADDR"]
	for _, tc := range []struct{ path, step string }{
		{"/pub/no-such-file", "RETR no-such-file"},
		{"/pub/nodir/x", "CWD nodir"},
	} {
		_, _, err := get(t, "ftp://"+addr+tc.path, scheme.Config{}, nil)
		var re *ReplyError
		if !errors.As(err, &re) || re.Code != 550 || re.Step != tc.step {
			t.Errorf("%s: err = %v, want a 550 ReplyError for %s", tc.path, err, tc.step)
		}
	}
}

// --max-size counts the bytes received: 100 of the 256-byte file, then a
// LimitError naming the limit and RETR.
func TestFTPRealSizeLimit(t *testing.T) {
	env := realServer(t, "URLKIT_FTP_ADDR")
	got, _, err := get(t, "ftp://"+env["URLKIT_FTP_ADDR"]+"/pub/all256.bin", scheme.Config{}, &Options{MaxSize: 100})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "max-size" || le.Step != "RETR all256.bin" || len(got) != 100 {
		t.Fatalf("got %d bytes, err %v; want 100 bytes and a max-size LimitError at RETR", len(got), err)
	}
	if got := mustGet(t, "ftp://"+env["URLKIT_FTP_ADDR"]+"/pub/all256.bin", scheme.Config{}, &Options{MaxSize: 256}); len(got) != 256 {
		t.Errorf("a resource of exactly the limit gave %d bytes", len(got))
	}
}

// RFC 1738 3.4: the request line gophernicus received is the plan's Line,
// byte for byte (selector, TAB search), and the item comes back whole.
func TestGopherRealPlanEqualsWire(t *testing.T) {
	env := realServer(t, "URLKIT_GOPHER_ADDR")
	px := startProxy(t, env["URLKIT_GOPHER_ADDR"])
	for _, tc := range []struct {
		path string
		want string
	}{
		{"/9/all256.bin", string(readFile(t, env["URLKIT_CONTENT_BINARY"]))},
		{"/0/plain.txt", "Gopher plain text.\r\nSecond line\tafter a tab.\r\nThird line.\r\n"},
		{"/0/a%20b.txt", "spaced\r\n"},
		{"/7/docs%09inner", ""},
	} {
		t.Run(tc.path, func(t *testing.T) {
			before := len(px.raw())
			p := planFor(t, "gopher://"+px.addr+tc.path, scheme.Config{}).(*scheme.GopherPlan)
			r, err := Execute(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := readAllClose(t, r)
			if tc.want != "" && string(got) != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if wire := px.raw()[before:]; wire != p.Line() {
				t.Errorf("server received %q, plan line %q", wire, p.Line())
			}
		})
	}
}

// The root menu streams item by item; each item's URL comes from the
// scheme layer, and every valid one can be fetched.
func TestGopherRealMenu(t *testing.T) {
	env := realServer(t, "URLKIT_GOPHER_ADDR")
	addr := env["URLKIT_GOPHER_ADDR"]
	r, err := Execute(context.Background(), planFor(t, "gopher://"+addr+"/1", scheme.Config{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Kind != "menu" {
		t.Fatalf("kind %q", r.Kind)
	}
	mr := NewMenuReader(r, 0)
	var urls []string
	for {
		it, err := mr.Next()
		if err != nil {
			break
		}
		if u, err := it.URL(); err == nil && it.Host == "127.0.0.1" {
			urls = append(urls, u)
		}
	}
	if len(urls) < 4 {
		t.Fatalf("menu gave %q", urls)
	}
	for _, u := range urls {
		if strings.Contains(u, "/1") {
			continue
		}
		if _, _, err := get(t, u, scheme.Config{}, nil); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
}

// RFC 977/3977 through innd: the commands innd received equal the plan's,
// for an article by number, by message-id, the group list and a group's
// overview.
func TestNNTPRealPlanEqualsWire(t *testing.T) {
	env := realServer(t, "URLKIT_NNTP_ADDR")
	px := startProxy(t, env["URLKIT_NNTP_ADDR"])
	group := env["URLKIT_NNTP_GROUP"]
	for _, tc := range []struct {
		in    string
		check func(t *testing.T, got []byte)
	}{
		{"nntp://" + px.addr + "/" + group + "/1", func(t *testing.T, got []byte) {
			checkArticle(t, got, readFile(t, env["URLKIT_NNTP_DIR"]+"/article1"))
		}},
		{"news:" + strings.Trim(env["URLKIT_NNTP_MSGID2"], "<>"), func(t *testing.T, got []byte) {
			checkArticle(t, got, readFile(t, env["URLKIT_NNTP_DIR"]+"/article2"))
		}},
		{"news:*", func(t *testing.T, got []byte) {
			if !strings.Contains(string(got), group+" ") {
				t.Errorf("LIST lacks %s:\n%s", group, got)
			}
		}},
		{"news:" + group, func(t *testing.T, got []byte) {
			lines := strings.Split(strings.TrimSuffix(string(got), "\r\n"), "\r\n")
			if len(lines) != 2 || !strings.Contains(lines[0], "urlkit test one") || !strings.Contains(lines[1], env["URLKIT_NNTP_MSGID2"]) {
				t.Errorf("overview %q", got)
			}
		}},
		{"news:" + env["URLKIT_NNTP_EMPTY_GROUP"], func(t *testing.T, got []byte) {
			if len(got) != 0 {
				t.Errorf("empty group gave %q", got)
			}
		}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			before := len(px.lines())
			p := planFor(t, tc.in, scheme.Config{NewsServer: px.addr}).(*scheme.NNTPPlan)
			r, err := Execute(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, readAllClose(t, r))
			wire := px.lines()[before:]
			if strings.Join(wire, "\n") != strings.Join(commandLines(p), "\n") {
				t.Errorf("server received %q, plan %q", wire, commandLines(p))
			}
		})
	}
}

// checkArticle compares an article with the one servers.sh offered: its
// header lines are all in the server's copy, and the body is the same,
// the ".leading dot line" un-stuffed again (RFC 977 2.4.1).
func checkArticle(t *testing.T, got, sent []byte) {
	t.Helper()
	gh, gb, ok1 := strings.Cut(string(got), "\r\n\r\n")
	sh, sb, ok2 := strings.Cut(string(sent), "\r\n\r\n")
	if !ok1 || !ok2 {
		t.Fatalf("no header/body separator in %q", got)
	}
	for _, l := range strings.Split(sh, "\r\n") {
		if !strings.Contains(gh+"\r\n", l+"\r\n") {
			t.Errorf("header line %q missing from\n%s", l, gh)
		}
	}
	if gb != sb {
		t.Errorf("body %q, want %q", gb, sb)
	}
}

// Refusals carry the step and the reply: 423 for a missing article number,
// 411 for a missing group, 430 for an unknown message-id (RFC 3977).
func TestNNTPRealErrors(t *testing.T) {
	env := realServer(t, "URLKIT_NNTP_ADDR")
	addr := env["URLKIT_NNTP_ADDR"]
	for _, tc := range []struct {
		in, step string
		code     int
	}{
		{"nntp://" + addr + "/" + env["URLKIT_NNTP_GROUP"] + "/99", "ARTICLE 99", 423},
		{"nntp://" + addr + "/no.such.group/1", "GROUP no.such.group", 411},
		{"news:none@urlkit.test", "ARTICLE <none@urlkit.test>", 430},
	} {
		_, _, err := get(t, tc.in, scheme.Config{NewsServer: addr}, nil)
		var re *ReplyError
		if !errors.As(err, &re) || re.Step != tc.step || re.Code != tc.code {
			t.Errorf("%s: err = %v, want %d from %s", tc.in, err, tc.code, tc.step)
		}
	}
}
