package pipeline

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// cachedFile writes a file of n bytes of URL lines, flushed to disk (the
// kernel drops clean pages only) and read once, so that its pages are in
// the page cache; it skips the test where the file system keeps files in
// memory (tmpfs), whose pages cannot be dropped.
func cachedFile(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	if st.Type == unix.TMPFS_MAGIC || st.Type == unix.RAMFS_MAGIC {
		t.Skipf("%s is in memory (tmpfs): its pages are not dropped", dir)
	}
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "http://host%d.example/page/%d\n", i%977, i)
	}
	name := filepath.Join(dir, "links.txt")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b.Bytes()[:n]); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := os.ReadFile(name); err != nil {
		t.Fatal(err)
	}
	if r := resident(t, name, 0, n); r < 0.9 {
		t.Fatalf("%.0f%% of a file just read is in the page cache, want 90%% or more", 100*r)
	}
	return name
}

// resident is the share of the pages of name's bytes [from, to) that are
// in the page cache (mincore of a mapping of the file).
func resident(t *testing.T, name string, from, to int) float64 {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	m, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	vec := make([]byte, (len(m)+4095)/4096)
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Fatal(e)
	}
	in, all := 0, 0
	for p := from / 4096; p < (to+4095)/4096; p++ {
		all++
		in += int(vec[p] & 1)
	}
	return float64(in) / float64(all)
}

// TestDropBehind: a local file read through dropInputPages leaves the
// page cache as it is read, dropEvery bytes at a time, and whole at
// Close; a seek leaves the pages before the new offset; a reader that is
// not a file is returned as it is.
func TestDropBehind(t *testing.T) {
	const size = 24 << 20
	name := cachedFile(t, size)
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	rc := dropInputPages(f)
	if _, err := io.CopyN(io.Discard, rc, 12<<20); err != nil {
		t.Fatal(err)
	}
	if r := resident(t, name, 0, 8<<20); r > 0.05 {
		t.Errorf("after 12 MiB read, %.0f%% of the first 8 MiB still cached, want them dropped", 100*r)
	}
	if r := resident(t, name, 13<<20, size); r < 0.9 {
		t.Errorf("after 12 MiB read, %.0f%% of the bytes not yet read cached, want them kept", 100*r)
	}
	if _, err := io.Copy(io.Discard, rc); err != nil {
		t.Fatal(err)
	}
	if err := rc.Close(); err != nil {
		t.Fatal(err)
	}
	if r := resident(t, name, 0, size); r > 0.05 {
		t.Errorf("after Close, %.0f%% of the file cached, want it dropped", 100*r)
	}

	// A range from 13 MiB on (another reader's range ends there, and it
	// may not have read its end yet): the pages before it stay, and so
	// do those of the 2 MiB folio that holds its start; the rest of the
	// range is dropped.
	name = cachedFile(t, size)
	f, err = os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	rc = dropInputPages(f)
	if _, err := rc.(io.Seeker).Seek(13<<20, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, rc)
	rc.Close()
	if r := resident(t, name, 0, 13<<20); r < 0.9 {
		t.Errorf("%.0f%% of the bytes before the range read cached, want them kept", 100*r)
	}
	if r := resident(t, name, 12<<20, 13<<20); r < 0.9 {
		t.Errorf("%.0f%% of the MiB before the range read cached, want it kept", 100*r)
	}
	if r := resident(t, name, 14<<20, size); r > 0.05 {
		t.Errorf("%.0f%% of the range read cached, want it dropped", 100*r)
	}

	pr, pw := io.Pipe()
	defer pr.Close()
	defer pw.Close()
	if got := dropInputPages(pr); got != io.ReadCloser(pr) {
		t.Errorf("dropInputPages(a pipe) = %T, want the pipe itself", got)
	}
}

// TestInputCacheDropped: the pipeline drops the pages of its input as it
// reads them, and keeps them with KeepInputCache; the outputs are the
// same either way.
func TestInputCacheDropped(t *testing.T) {
	const size = 12 << 20
	var outs [2]map[string][]string
	for i, keep := range []bool{false, true} {
		name := cachedFile(t, size)
		outs[i] = run(t, Config{Input: name, InProcess: true, KeepInputCache: keep}, nil)
		r := resident(t, name, 0, size)
		if !keep && r > 0.05 {
			t.Errorf("%.0f%% of the input cached after the run, want it dropped", 100*r)
		}
		if keep && r < 0.9 {
			t.Errorf("KeepInputCache: %.0f%% of the input cached after the run, want it kept", 100*r)
		}
	}
	for kind, lines := range outs[0] {
		if kind != "summary.txt" && len(lines) != len(outs[1][kind]) {
			t.Errorf("%s: %d lines dropping the cache, %d keeping it", kind, len(lines), len(outs[1][kind]))
		}
	}
}
