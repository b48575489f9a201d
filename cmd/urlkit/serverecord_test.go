package main

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/internal/testkit/testio"
)

var gatewayOn = regexp.MustCompile(`gateway on (http://127\.0\.0\.1:[0-9]+)/`)

// SIGTERM during serve --record: the retrieval in progress (a server
// dripping its document) is not recorded, the file is closed with the
// records of the one that completed and given its name, nothing is left
// under a temporary name, and every reader accepts the file: gowarc
// strictly here, warcio.js in CI (issue 33, Tests).
func TestServeRecordSignal(t *testing.T) {
	gs, err := fakeservers.Gopher(map[string][]byte{"/a": []byte("first\r\n.\r\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	drip := serveHostile(t, hostile.Drip("", 20*time.Millisecond))
	dir := t.TempDir()
	// The gateway's stderr is read while it runs: a buffer safe for that.
	cmd := exec.Command(os.Args[0], "serve", "--listen", "127.0.0.1:0", "--quiet", "--drain-timeout", "1s", "--record", dir, "--allow", gs.Addr()+","+drip.Addr)
	cmd.Env = append(os.Environ(), "URLKIT_TEST_MAIN=1")
	errb := &testio.SyncBuffer{}
	cmd.Stderr = errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var base string
	for deadline := time.Now().Add(30 * time.Second); base == ""; time.Sleep(10 * time.Millisecond) {
		if m := gatewayOn.FindStringSubmatch(errb.String()); m != nil {
			base = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("serve did not start: %q", errb.String())
		}
	}
	resp, err := http.Get(base + "/gopher://" + gs.Addr() + "/0/a")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	accepted := drip.Accepted()
	go func() {
		if resp, err := http.Get(base + "/gopher://" + drip.Addr + "/9/slow"); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	for deadline := time.Now().Add(30 * time.Second); drip.Accepted() == accepted; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the dripping fetch did not start; stderr %q", errb.String())
		}
	}
	time.Sleep(100 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("still running 20 s after SIGTERM; stderr %q", errb.String())
	}
	files := entries(t, dir)
	if len(files) != 1 || !strings.HasSuffix(files[0], ".warc.gz") || strings.HasPrefix(files[0], ".") {
		t.Fatalf("directory holds %q; stderr %q", files, errb.String())
	}
	name := filepath.Join(dir, files[0])
	got := readWARCTypes(t, name)
	want := []string{"warcinfo ", "resource gopher://" + gs.Addr() + "/0/a", "metadata gopher://" + gs.Addr() + "/0/a"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("records:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	testio.KeepWARC(t, name, "serve-record-sigterm.warc.gz")
}
