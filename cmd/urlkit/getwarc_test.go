package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nlnwa/gowarc/v3"
	"github.com/urlkit/urlkit/archive"
	"github.com/urlkit/urlkit/internal/fakeservers"
	"github.com/urlkit/urlkit/internal/hostile"
)

// readWARCTypes reads every record of path strictly (gowarc: digests,
// lengths, required fields, WARC/1.1 sections 5 and 6) and returns their
// types and target URIs, "type target" each.
func readWARCTypes(t *testing.T, path string) []string {
	t.Helper()
	rd, err := gowarc.NewWarcFileReader(path, 0, gowarc.WithStrictValidation(), gowarc.WithDefaultDigestAlgorithm(archive.DigestAlgorithm))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var out []string
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: after %d records: %v", path, len(out), err)
		}
		if _, err := rec.WarcRecord.ValidateDigest(); err != nil || len(rec.Validation) > 0 {
			t.Errorf("%s: record at %d: %v %v", path, rec.Offset, err, rec.Validation)
		}
		out = append(out, rec.WarcRecord.Type().String()+" "+rec.WarcRecord.WarcHeader().Get(gowarc.WarcTargetURI))
		rec.Close()
	}
}

// keepForCI copies a WARC file a test made into $URLKIT_WARC_DIR, when
// set, for CI's independent reader (.ci/warcio-check.mjs, warcio.js).
func keepForCI(t *testing.T, path, name string) {
	dir := os.Getenv("URLKIT_WARC_DIR")
	if dir == "" {
		return
	}
	b, err := os.ReadFile(path)
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	if err != nil {
		t.Errorf("keeping %s for CI: %v", path, err)
	}
}

// get --warc: the records of every URL fetched, in order, in NAME.warc.gz;
// the resources go nowhere else unless -o asks.
func TestGetWARC(t *testing.T) {
	gs, err := fakeservers.Gopher(map[string][]byte{"/m": []byte("0About\t/a\th\t70\r\n.\r\n"), "/a": []byte("about\r\n.\r\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	dir := t.TempDir()
	name := filepath.Join(dir, "hole")
	stdout, stderr, code := runCLI(t, "", "get", "--warc", name, "gopher://"+gs.Addr()+"/1/m", "gopher://"+gs.Addr()+"/0/a")
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	got := readWARCTypes(t, name+".warc.gz")
	want := []string{"warcinfo ", "resource gopher://" + gs.Addr() + "/1/m", "metadata gopher://" + gs.Addr() + "/1/m",
		"resource gopher://" + gs.Addr() + "/0/a", "metadata gopher://" + gs.Addr() + "/0/a"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("records:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if e := entries(t, dir); len(e) != 1 {
		t.Errorf("directory holds %q", e)
	}
	keepForCI(t, name+".warc.gz", "get-warc-gopher.warc.gz")
	// -I retrieves nothing to record.
	if _, stderr, code := runCLI(t, "", "get", "-I", "--warc", name, "gopher://"+gs.Addr()+"/0/a"); code != exitUsage || !strings.Contains(stderr, "--warc") {
		t.Errorf("-I --warc: exit %d, %q", code, stderr)
	}
}

// SIGTERM (and SIGINT) during get --warc: the fetch in progress is dropped,
// the file is closed with the records of the fetches that completed, and
// every reader accepts it: gowarc strictly here, warcio.js in CI.
func TestGetWARCSignal(t *testing.T) {
	gs, err := fakeservers.Gopher(map[string][]byte{"/a": []byte("first\r\n.\r\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	drip := serveHostile(t, hostile.Drip("", 20*time.Millisecond))
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "cap")
			cmd, errb := urlkitProcess(t, nil, "get", "--warc", name, "gopher://"+gs.Addr()+"/0/a", "gopher://"+drip.Addr+"/9/slow")
			defer cmd.Process.Kill()
			// The second fetch has begun (so the first is complete) and
			// some of its bytes have arrived.
			accepted := drip.Accepted()
			for deadline := time.Now().Add(30 * time.Second); drip.Accepted() == accepted; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the second fetch did not start; stderr %q", errb.String())
				}
			}
			time.Sleep(100 * time.Millisecond)
			signalAndWait(t, cmd, errb, sig, 10*time.Second)
			if code := cmd.ProcessState.ExitCode(); code != 128+int(sig) {
				t.Errorf("exit %d, want %d; stderr %q", code, 128+int(sig), errb.String())
			}
			if e := entries(t, dir); strings.Join(e, " ") != "cap.warc.gz" {
				t.Fatalf("directory holds %q; stderr %q", e, errb.String())
			}
			got := readWARCTypes(t, name+".warc.gz")
			want := []string{"warcinfo ", "resource gopher://" + gs.Addr() + "/0/a", "metadata gopher://" + gs.Addr() + "/0/a"}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("records:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			keepForCI(t, name+".warc.gz", "get-warc-"+strings.ToLower(sig.String())+".warc.gz")
		})
	}
}
