package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/hostile"
)

// Issue 21 item 8, get's side (the gateway's is gateway.TestAnnouncedSizes):
// more bytes than the FTP 150 reply announced are written whole with a
// warning; fewer are an error, exit non-zero, and no file is left behind.
func TestGetAnnouncedSize(t *testing.T) {
	file := bytes.Repeat([]byte("0123456789"), 10000)
	more := hostile.Serve(t, (&hostile.FTP{Files: map[string][]byte{"f.bin": file}, AnnounceSize: 10}).Serve)
	fewer := hostile.Serve(t, (&hostile.FTP{Files: map[string][]byte{"f.bin": file}, AnnounceSize: 200000}).Serve)
	dir := t.TempDir()
	out := filepath.Join(dir, "more.bin")
	_, errOut, code := runGetEnv(t, nil, "", "get", "-o", out, "ftp://"+more.Addr+"/f.bin")
	got, _ := os.ReadFile(out)
	if code != exitOK || !bytes.Equal(got, file) || !strings.Contains(errOut, "warning: ftp: RETR f.bin: the server announced 10 bytes and sent 100000, more than it announced") {
		t.Errorf("more: exit %d, %d bytes, %q", code, len(got), errOut)
	}
	out = filepath.Join(dir, "fewer.bin")
	_, errOut, code = runGetEnv(t, nil, "", "get", "-o", out, "ftp://"+fewer.Addr+"/f.bin")
	if code == exitOK || !strings.Contains(errOut, "announced 200000 bytes and sent 100000: the transfer is incomplete") {
		t.Errorf("fewer: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("fewer: %s was written", out)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
}
