package access

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"sort"
	"strings"
	"testing"
	"time"
)

// logMark returns a function that yields the vsftpd log lines written after
// the mark, waiting (bounded) until the session's QUIT has been logged.
func logMark(t *testing.T, name string) func() []string {
	t.Helper()
	st, err := os.Stat(name)
	if err != nil {
		t.Fatalf("vsftpd log: %v", err)
	}
	off := st.Size()
	return func() []string {
		var lines []string
		for i := 0; i < 50; i++ {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			lines = strings.Split(string(b[off:]), "\n")
			if bytes.Contains(b[off:], []byte(`"QUIT"`)) || bytes.Contains(b[off:], []byte("FAIL LOGIN")) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		return lines
	}
}

// commands extracts the client commands from vsftpd's protocol log
// (log_ftp_protocol=YES): lines `FTP command: Client "127.0.0.1", "CWD pub"`.
func commands(lines []string) []string {
	var out []string
	for _, l := range lines {
		_, rest, ok := strings.Cut(l, `FTP command: Client "127.0.0.1", "`)
		if ok {
			out = append(out, strings.TrimSuffix(rest, `"`))
		}
	}
	return out
}

func fetchAll(t *testing.T, rc io.ReadCloser, err error) []byte {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(rc)
	if cerr := rc.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// RFC 1738 3.2.1/3.2.2: anonymous login, one CWD per path element, TYPE I
// and RETR; the bytes equal the file servers.sh wrote.
func TestFTPRealRetrieveBinary(t *testing.T) {
	env := realServer(t, "URLKIT_FTP_ADDR")
	want := readFile(t, env["URLKIT_CONTENT_BINARY"])
	if len(want) != 256 {
		t.Fatalf("fixture has %d bytes, want 256", len(want))
	}
	seen := logMark(t, env["URLKIT_FTP_LOG"])
	var last int64
	var trace bytes.Buffer
	opts := &Options{Progress: func(n int64) { last = n }, Trace: &trace}
	rc, err := FetchFTP(context.Background(), &FTPRequest{Addr: env["URLKIT_FTP_ADDR"], CWD: []string{"pub"}, Name: "all256.bin", Type: 'i'}, opts)
	got := fetchAll(t, rc, err)
	if !bytes.Equal(got, want) {
		t.Fatalf("got %d bytes, want the 256-byte fixture", len(got))
	}
	if last != 256 {
		t.Errorf("last progress %d, want 256", last)
	}
	gotCmds := commands(seen())
	wantCmds := []string{"USER anonymous", "PASS <password>", "CWD pub", "TYPE I", "EPSV", "RETR all256.bin", "QUIT"}
	if strings.Join(gotCmds, "|") != strings.Join(wantCmds, "|") {
		t.Errorf("server saw %q, want %q", gotCmds, wantCmds)
	}
	if strings.Contains(trace.String(), DefaultAnonymousPassword) || !strings.Contains(trace.String(), "C: PASS ****") {
		t.Errorf("trace does not mask PASS:\n%s", trace.String())
	}
	if !strings.Contains(trace.String(), "C: RETR all256.bin\nS: 150 ") || !strings.Contains(trace.String(), "S: 226 ") {
		t.Errorf("trace lacks the RETR exchange:\n%s", trace.String())
	}
}

// A text file without a type code: GuessFTPType picks TYPE A for ".txt".
// vsftpd (ascii_download_enable left at NO) sends the file unchanged.
func TestFTPRealRetrieveTextGuessed(t *testing.T) {
	env := realServer(t, "URLKIT_FTP_ADDR")
	want := readFile(t, env["URLKIT_CONTENT_TEXT"])
	seen := logMark(t, env["URLKIT_FTP_LOG"])
	rc, err := FetchFTP(context.Background(), &FTPRequest{Addr: env["URLKIT_FTP_ADDR"], CWD: []string{"pub"}, Name: "hello.txt"}, nil)
	got := fetchAll(t, rc, err)
	if !bytes.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	cmds := commands(seen())
	if !contains(cmds, "TYPE A") || !contains(cmds, "RETR hello.txt") {
		t.Errorf("server saw %q, want TYPE A and RETR hello.txt", cmds)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// RFC 1738 3.2.2 ";type=d": NLST <name>, here a directory the script made.
func TestFTPRealNLST(t *testing.T) {
	env := realServer(t, "URLKIT_FTP_ADDR")
	seen := logMark(t, env["URLKIT_FTP_LOG"])
	rc, err := FetchFTP(context.Background(), &FTPRequest{Addr: env["URLKIT_FTP_ADDR"], CWD: []string{"pub"}, Name: "dir", Type: 'd'}, nil)
	got := fetchAll(t, rc, err)
	entries, err := os.ReadDir(env["URLKIT_FTP_ROOT"] + "/pub/dir")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range entries {
		want = append(want, e.Name())
	}
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(strings.ReplaceAll(string(got), "\r\n", "\n")), "\n") {
		names = append(names, strings.TrimPrefix(l, "dir/"))
	}
	sort.Strings(names)
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("NLST gave %q, want %q", names, want)
	}
	if cmds := commands(seen()); !contains(cmds, "NLST dir") || contains(cmds, "RETR dir") {
		t.Errorf("server saw %q, want NLST dir", cmds)
	}
	// An empty name sends NLST with no argument (the directory itself).
	seen = logMark(t, env["URLKIT_FTP_LOG"])
	rc, err = FetchFTP(context.Background(), &FTPRequest{Addr: env["URLKIT_FTP_ADDR"], CWD: []string{"pub", "dir"}, Type: 'd'}, nil)
	got = fetchAll(t, rc, err)
	if !strings.Contains(string(got), "a.txt") || !strings.Contains(string(got), "b.txt") {
		t.Errorf("NLST in pub/dir gave %q", got)
	}
	if cmds := commands(seen()); !contains(cmds, "NLST") || !contains(cmds, "CWD dir") {
		t.Errorf("server saw %q, want CWD pub, CWD dir, NLST", cmds)
	}
}

// RFC 1738 3.2.2: "//" yields a CWD with an empty argument, sent exactly.
func TestFTPRealEmptyCWD(t *testing.T) {
	env := realServer(t, "URLKIT_FTP_ADDR")
	seen := logMark(t, env["URLKIT_FTP_LOG"])
	rc, err := FetchFTP(context.Background(), &FTPRequest{Addr: env["URLKIT_FTP_ADDR"], CWD: []string{"", "pub"}, Name: "hello.txt", Type: 'a'}, nil)
	if err == nil {
		rc.Close()
	}
	// vsftpd logs the line with trailing blanks trimmed, so "CWD " shows as
	// "CWD"; TestFTPExactLines checks the bytes on the wire.
	cmds := commands(seen())
	if len(cmds) < 3 || strings.TrimSpace(cmds[2]) != "CWD" {
		t.Fatalf("server saw %q; want the third command to be a CWD with an empty argument", cmds)
	}
	t.Logf("vsftpd's answer to the empty CWD: %v", err)
	// Whatever the server makes of it, a refusal must name that step.
	var re *ReplyError
	if err != nil && (!errors.As(err, &re) || re.Step != `CWD ""`) {
		t.Errorf("error %v does not name the empty CWD", err)
	}
}

// A missing file: the error names RETR and carries the 550 reply.
func TestFTPRealMissingFile(t *testing.T) {
	env := realServer(t, "URLKIT_FTP_ADDR")
	_, err := FetchFTP(context.Background(), &FTPRequest{Addr: env["URLKIT_FTP_ADDR"], CWD: []string{"pub"}, Name: "no-such-file", Type: 'i'}, nil)
	var re *ReplyError
	if !errors.As(err, &re) || re.Code != 550 || re.Step != `RETR "no-such-file"` {
		t.Fatalf("err = %v, want a 550 ReplyError for RETR", err)
	}
	if !strings.HasPrefix(err.Error(), `ftp: RETR "no-such-file": 550 `) {
		t.Errorf("message %q", err)
	}
	_, err = FetchFTP(context.Background(), &FTPRequest{Addr: env["URLKIT_FTP_ADDR"], CWD: []string{"pub", "nodir"}, Name: "x"}, nil)
	if !errors.As(err, &re) || re.Code != 550 || re.Step != `CWD "nodir"` {
		t.Fatalf("err = %v, want a 550 ReplyError for CWD \"nodir\"", err)
	}
}

// A named user with a password (RFC 1738 3.2.1 user:password@).
func TestFTPRealUserLogin(t *testing.T) {
	env := realServer(t, "URLKIT_FTP_ADDR")
	want := readFile(t, env["URLKIT_CONTENT_BINARY"])
	rc, err := FetchFTP(context.Background(), &FTPRequest{Addr: env["URLKIT_FTP_ADDR"],
		User: env["URLKIT_FTP_USER"], HasUser: true, Password: env["URLKIT_FTP_PASSWORD"], HasPassword: true,
		CWD: []string{"pub"}, Name: "all256.bin", Type: 'i'}, nil)
	if got := fetchAll(t, rc, err); !bytes.Equal(got, want) {
		t.Fatalf("got %d bytes, want the fixture", len(got))
	}
}

// RFC 1738 3.2.1: a user without password, and the server asks (331): the
// prompt is called; without a prompt the fetch fails with ErrPasswordRequired.
func TestFTPRealPasswordPrompt(t *testing.T) {
	env := realServer(t, "URLKIT_FTP_ADDR")
	asked := 0
	req := &FTPRequest{Addr: env["URLKIT_FTP_ADDR"], User: env["URLKIT_FTP_USER"], HasUser: true,
		CWD: []string{"pub"}, Name: "hello.txt", Type: 'a',
		PasswordPrompt: func(context.Context) (string, error) { asked++; return env["URLKIT_FTP_PASSWORD"], nil }}
	rc, err := FetchFTP(context.Background(), req, nil)
	if got := fetchAll(t, rc, err); !bytes.Equal(got, readFile(t, env["URLKIT_CONTENT_TEXT"])) || asked != 1 {
		t.Fatalf("prompt called %d times, got %q", asked, got)
	}
	req.PasswordPrompt = nil
	_, err = FetchFTP(context.Background(), req, nil)
	if !errors.Is(err, ErrPasswordRequired) {
		t.Fatalf("err = %v, want ErrPasswordRequired", err)
	}
}

// A wrong password: the error names PASS and carries the 530 reply, and
// never the password.
func TestFTPRealBadLogin(t *testing.T) {
	env := realServer(t, "URLKIT_FTP_ADDR")
	_, err := FetchFTP(context.Background(), &FTPRequest{Addr: env["URLKIT_FTP_ADDR"],
		User: env["URLKIT_FTP_USER"], HasUser: true, Password: "wrong-password-xyz", HasPassword: true, Name: "x"}, nil)
	var re *ReplyError
	if !errors.As(err, &re) || re.Step != "PASS" || re.Code != 530 {
		t.Fatalf("err = %v, want a 530 ReplyError for PASS", err)
	}
	if strings.Contains(err.Error(), "wrong-password-xyz") {
		t.Errorf("error shows the password: %v", err)
	}
}

func TestFTPRealSizeLimit(t *testing.T) {
	env := realServer(t, "URLKIT_FTP_ADDR")
	rc, err := FetchFTP(context.Background(), &FTPRequest{Addr: env["URLKIT_FTP_ADDR"], CWD: []string{"pub"}, Name: "all256.bin", Type: 'i'}, &Options{MaxSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	got, err := io.ReadAll(rc)
	var se *SizeLimitError
	if !errors.As(err, &se) || se.Limit != 100 || len(got) != 100 {
		t.Fatalf("got %d bytes, err %v; want 100 bytes and a SizeLimitError", len(got), err)
	}
	if !bytes.Equal(got, readFile(t, env["URLKIT_CONTENT_BINARY"])[:100]) {
		t.Errorf("the first 100 bytes differ")
	}
}

// RFC 1738 section 6: CR, LF or NUL in any argument is refused before any
// connection; the dialer must never be called.
func TestFTPRefusesControlCharacters(t *testing.T) {
	dialed := false
	opts := &Options{Dial: func(context.Context, string, string) (net.Conn, error) {
		dialed = true
		return nil, errors.New("must not dial")
	}}
	for _, req := range []FTPRequest{
		{CWD: []string{"pub\r\nDELE x"}},
		{Name: "a\nb"},
		{Name: "a\x00b"},
		{User: "u\r\nSITE x", HasUser: true},
		{Password: "p\rq", HasPassword: true, HasUser: true},
	} {
		req.Addr = "127.0.0.1:1"
		_, err := FetchFTP(context.Background(), &req, opts)
		var ue *UnsafeArgumentError
		if !errors.As(err, &ue) {
			t.Errorf("%+v: err = %v, want UnsafeArgumentError", req, err)
		}
		if strings.Contains(err.Error(), "p\rq") {
			t.Errorf("error shows the password")
		}
	}
	if dialed {
		t.Error("a connection was attempted")
	}
}

// silentListener accepts connections and never answers.
func silentListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String()
}

// The idle read timeout ends a fetch from a server that never answers.
func TestFTPReadTimeout(t *testing.T) {
	addr := silentListener(t)
	start := time.Now()
	_, err := FetchFTP(context.Background(), &FTPRequest{Addr: addr, Name: "x"}, &Options{ReadTimeout: 200 * time.Millisecond})
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("err = %v, want a timeout", err)
	}
	if !strings.Contains(err.Error(), "greeting") {
		t.Errorf("error %q does not name the step", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// Cancelling the context closes the connection and reports the cancellation.
func TestFTPContextCancel(t *testing.T) {
	addr := silentListener(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := FetchFTP(ctx, &FTPRequest{Addr: addr, Name: "x"}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestGuessFTPType(t *testing.T) {
	for name, want := range map[string]byte{
		"": 'd', "README": 'a', "notes.TXT": 'a', "index.html": 'a', "x.tar.gz": 'i', "all256.bin": 'i', "noext": 'i',
	} {
		if got := GuessFTPType(name); got != want {
			t.Errorf("GuessFTPType(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestParsePassiveReplies(t *testing.T) {
	if p, err := parseEPSV("Entering Extended Passive Mode (|||30041|)"); err != nil || p != 30041 {
		t.Errorf("EPSV: %d %v", p, err)
	}
	if p, err := parsePASV("Entering Passive Mode (127,0,0,1,117,48)."); err != nil || p != 117*256+48 {
		t.Errorf("PASV: %d %v", p, err)
	}
	for _, bad := range []string{"Entering Passive Mode", "(1,2,3)", "(1,2,3,4,5,300)"} {
		if _, err := parsePASV(bad); err == nil {
			t.Errorf("parsePASV(%q) accepted", bad)
		}
	}
}
