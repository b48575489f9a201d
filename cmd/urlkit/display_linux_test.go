//go:build linux

package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/internal/testkit/hostile"
)

// A listing shown on a terminal has its names' bidi controls escaped, as
// control bytes are (access.EscapeText; issue 34, finding 5): an ftp
// directory (NLST) and a gopher menu whose names hold U+202E read
// "photo\u202egpj.exe" on the screen, never "photoexe.jpg".
func TestGetListingBidiEscaped(t *testing.T) {
	master, slave := openPTY(t)
	f := &hostile.FTP{Files: map[string][]byte{"photo\u202egpj.exe": []byte("x")}}
	fs := hostile.Serve(t, f.Serve)
	gs, err := fakeservers.Gopher(map[string][]byte{"/m": []byte("0photo\u202egpj.exe\t/a\th.example\t70\r\n.\r\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	var errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: slave, stderr: &errOut, getenv: func(string) string { return "" }}
	if code := run(e, []string{"get", "ftp://" + fs.Addr + "/"}); code != exitOK {
		t.Fatalf("ftp: %d %q", code, errOut.String())
	}
	screen := readScreen(master)
	if !strings.Contains(screen, `photo\u202egpj.exe`) || strings.ContainsRune(screen, 0x202e) {
		t.Errorf("ftp listing on the terminal: %q", screen)
	}
	if code := run(e, []string{"get", "gopher://" + gs.Addr() + "/1/m"}); code != exitOK {
		t.Fatalf("gopher: %d %q", code, errOut.String())
	}
	screen = readScreen(master)
	if !strings.Contains(screen, `photo\u202egpj.exe`) || strings.ContainsRune(screen, 0x202e) {
		t.Errorf("gopher menu on the terminal: %q", screen)
	}
}
