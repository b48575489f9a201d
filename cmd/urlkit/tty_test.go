//go:build linux

package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/urlkit/urlkit/internal/testkit/testservers"
)

// openPTY returns the two ends of a new pseudo-terminal.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	// Non-blocking, so that the runtime poller serves it and read
	// deadlines work.
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skip("no pseudo-terminal:", err)
	}
	m := os.NewFile(uintptr(fd), "/dev/ptmx")
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err == nil {
		err = unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0)
	}
	if err != nil {
		m.Close()
		t.Skip("no pseudo-terminal:", err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skip("no pseudo-terminal:", err)
	}
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

// readScreen returns what was written to the terminal so far.
func readScreen(master *os.File) string {
	var b []byte
	buf := make([]byte, 8192)
	for {
		if err := master.SetReadDeadline(time.Now().Add(200 * time.Millisecond)); err != nil {
			panic(err) // a blocking read would hang the test
		}
		n, err := master.Read(buf)
		b = append(b, buf[:n]...)
		if err != nil {
			return string(b)
		}
	}
}

// A command that reads a terminal says so on standard error, and answers
// each line as it is typed.
func TestTerminalHint(t *testing.T) {
	master, slave := openPTY(t)
	var out bytes.Buffer
	e := &env{stdin: slave, stdout: &out, stderr: slave, getenv: func(string) string { return "" }}
	done := make(chan int, 1)
	go func() { done <- run(e, []string{"canon"}) }()
	master.Write([]byte("http://a.example/%2d\n\x04"))
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("status %d", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("canon did not end at Ctrl-D")
	}
	if out.String() != "http://a.example/-\n" {
		t.Errorf("stdout %q", out.String())
	}
	if got := readScreen(master); !strings.Contains(got, "urlkit canon: reading from the terminal, one per line; end with Ctrl-D") {
		t.Errorf("terminal shows %q", got)
	}
}

// The progress meter is not drawn on the terminal the resource itself
// goes to, and is drawn on a terminal when the resource goes elsewhere.
func TestMeterTerminalRule(t *testing.T) {
	_, slave := openPTY(t)
	e := &env{stderr: slave}
	if m := newMeter(e, getFlags{progress: true}, slave, "x"); m != nil {
		t.Error("meter drawn on the terminal that receives the resource")
	}
	if m := newMeter(e, getFlags{progress: true}, &bytes.Buffer{}, "x"); m == nil {
		t.Error("no meter on a terminal while the resource goes to a file")
	}
	if m := newMeter(e, getFlags{progress: true, silent: true}, &bytes.Buffer{}, "x"); m != nil {
		t.Error("meter drawn with --silent")
	}
}

// get draws the meter with the size the server announced, on a terminal
// standard error while the resource goes to a file, and clears it.
func TestGetMeterShowsTotal(t *testing.T) {
	master, slave := openPTY(t)
	body := strings.Repeat("x", 5000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write([]byte(body))
	}))
	defer srv.Close()
	dst := filepath.Join(t.TempDir(), "out")
	e := &env{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: slave, getenv: func(string) string { return "" }}
	if code := run(e, []string{"get", "-s=false", srv.URL + "/f", "-o", dst}); code != exitOK {
		t.Fatalf("status %d", code)
	}
	got, _ := os.ReadFile(dst)
	if string(got) != body {
		t.Fatalf("file has %d bytes", len(got))
	}
	screen := readScreen(master)
	if !regexp.MustCompile(`\rout +[0-9]+% \[=*>? *\] [0-9.]+ KiB of 4\.9 KiB`).MatchString(screen) {
		t.Errorf("meter %q lacks the name, the bar, the total and percentage", screen)
	}
	// The summary line stays: size, time, rate.
	if !regexp.MustCompile(`\rout: 4\.9 KiB in [0-9.]+ s(, [0-9.]+ [KMG]iB/s)? *\r?\n$`).MatchString(screen) {
		t.Errorf("no summary line left: %q", screen)
	}
	// --no-progress: no meter, no summary.
	dst2 := filepath.Join(t.TempDir(), "out2")
	if code := run(e, []string{"get", "--no-progress", srv.URL + "/f", "-o", dst2}); code != exitOK {
		t.Fatalf("status %d", code)
	}
	if screen := readScreen(master); screen != "" {
		t.Errorf("--no-progress drew %q", screen)
	}
}

// A failed transfer leaves no meter and no summary on the terminal: the
// line is cleared and the error follows.
func TestGetMeterClearedOnFailure(t *testing.T) {
	master, slave := openPTY(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100000")
		w.Write([]byte(strings.Repeat("x", 5000)))
	}))
	defer srv.Close()
	dst := filepath.Join(t.TempDir(), "out")
	e := &env{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: slave, getenv: func(string) string { return "" }}
	if code := run(e, []string{"get", srv.URL + "/f", "-o", dst}); code != exitInvalid {
		t.Fatalf("status %d", code)
	}
	screen := readScreen(master)
	if strings.Contains(screen, "out: ") || !strings.Contains(screen, "urlkit get: ") {
		t.Errorf("screen %q", screen)
	}
	if !regexp.MustCompile(`\r +\rurlkit get: `).MatchString(screen) {
		t.Errorf("the meter's line was not cleared before the error: %q", screen)
	}
}

// Binary data is not written to a terminal unless asked for with -o -
// (curl's rule: a NUL byte while fewer than 2000 bytes have gone out);
// text is; listings stay escaped (issue 25 item 3).
func TestGetBinaryToTerminal(t *testing.T) {
	master, slave := openPTY(t)
	dir := t.TempDir()
	gif := filepath.Join(dir, "a.gif")
	os.WriteFile(gif, append([]byte("GIF89a\x01\x00\x01\x00\x80\x00\x00"), 0, 0, 0, 0xff, 0xff, 0xff), 0o644)
	txt := filepath.Join(dir, "a.txt")
	os.WriteFile(txt, []byte("plain text\n"), 0o644)
	var errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: slave, stderr: &errOut, getenv: func(string) string { return "" }}
	if code := run(e, []string{"get", "file://" + gif}); code != exitInvalid {
		t.Errorf("binary to a terminal: status %d", code)
	}
	if !strings.Contains(errOut.String(), "the resource is binary data (a NUL byte within its first 2000 bytes), which can disturb a terminal; nothing of it was written. Use -o - to write it to the terminal anyway") {
		t.Errorf("stderr %q", errOut.String())
	}
	if screen := readScreen(master); screen != "" {
		t.Errorf("the terminal received %q", screen)
	}
	errOut.Reset()
	if code := run(e, []string{"get", "-o", "-", "file://" + gif}); code != exitOK || errOut.Len() != 0 {
		t.Errorf("-o -: status %d, %q", code, errOut.String())
	}
	if screen := readScreen(master); !strings.HasPrefix(screen, "GIF89a") {
		t.Errorf("-o -: the terminal received %q", screen)
	}
	if code := run(e, []string{"get", "file://" + txt}); code != exitOK {
		t.Errorf("text: status %d %q", code, errOut.String())
	}
	if screen := readScreen(master); !strings.Contains(screen, "plain text") {
		t.Errorf("text: the terminal received %q", screen)
	}
	// Binary data to a pipe or a file is not refused.
	var out bytes.Buffer
	e.stdout = &out
	if code := run(e, []string{"get", "file://" + gif}); code != exitOK || out.Len() != 19 {
		t.Errorf("to a buffer: status %d, %d bytes", code, out.Len())
	}
}

// Against the real vsftpd of .ci/servers.sh: the size in its 150 reply
// gives the meter its total.
func TestGetMeterFTPReal(t *testing.T) {
	srv := testservers.Require(t, "URLKIT_FTP_ADDR")
	master, slave := openPTY(t)
	dst := filepath.Join(t.TempDir(), "out")
	e := &env{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: slave, getenv: func(string) string { return "" }}
	if code := run(e, []string{"get", "-s=false", "-o", dst, "ftp://" + srv["URLKIT_FTP_ADDR"] + "/pub/all256.bin;type=i"}); code != exitOK {
		t.Fatalf("status %d", code)
	}
	if screen := readScreen(master); !strings.Contains(screen, "100% [========================================] 256 B of 256 B") {
		t.Errorf("meter %q lacks the total from the 150 reply", screen)
	}
}

// A reader that stops early (get ... | head) ends get quietly: no message,
// no meter left behind.
func TestGetClosedPipeIsQuiet(t *testing.T) {
	src := filepath.Join(t.TempDir(), "big")
	os.WriteFile(src, bytes.Repeat([]byte("line\n"), 200000), 0o644)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer w.Close()
	var errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: w, stderr: &errOut, getenv: func(string) string { return "" }}
	code := run(e, []string{"get", "file://" + src})
	if code != exitInvalid || errOut.Len() != 0 {
		t.Errorf("status %d, stderr %q", code, errOut.String())
	}
}
