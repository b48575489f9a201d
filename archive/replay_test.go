package archive

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	gowarc "github.com/nlnwa/gowarc/v3"

	"github.com/urlkit/urlkit/scheme"
)

// TestArchiveBadInput: a damaged record is named (file, offset, fault)
// while the archive is opened, and the other records are served; a block
// whose bytes no longer match its WARC-Block-Digest ends in an error
// naming it when replayed, never passes for the capture; a directory with
// no WARC files, and two files of one name, are refused.
func TestArchiveBadInput(t *testing.T) {
	dir := t.TempDir()
	recs := sampleRecords()
	recs = append(recs, testRecord{typ: gowarc.Resource, uri: "gopher://gopher.example/0/flip", ctype: "text/plain", block: "original text\n"})
	var all []byte
	var offs []int64
	for _, r := range recs {
		offs = append(offs, int64(len(all)))
		all = append(all, marshalRecord(t, r, false)...)
	}
	// Records 2 and 3 have a byte of their block changed.
	all = bytes.Replace(all, []byte("About this hole.\n"), []byte("About this hole!\n"), 1)
	flip := bytes.Index(all, []byte("original text"))
	all[flip] = 'O'
	os.WriteFile(filepath.Join(dir, "a.warc"), all, 0o644)
	os.WriteFile(filepath.Join(dir, "junk.warc.gz"), []byte("not a warc\n"), 0o644)
	var bad []string
	a, err := OpenArchive([]string{dir}, scheme.Config{}, func(err error) { bad = append(bad, err.Error()) })
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if len(bad) != 1 || !strings.HasPrefix(bad[0], filepath.Join(dir, "junk.warc.gz")+": record at offset 0: not a WARC file") {
		t.Errorf("bad input reported: %q", bad)
	}
	caps, err := a.Captures("gopher://gopher.example/1/")
	if err != nil || len(caps) != 1 {
		t.Fatalf("menu: %v %v", caps, err)
	}
	rc, err := a.Resource(caps[0])
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(rc); err != nil || rc.Kind != "menu" || !strings.HasPrefix(string(b), "0About") {
		t.Errorf("menu: %s %q %v", rc.Kind, b, err)
	}
	for _, u := range []string{"gopher://gopher.example/0/about", "gopher://gopher.example/0/flip"} {
		caps, _ := a.Captures(u)
		if len(caps) != 1 {
			t.Fatalf("%s: %d captures", u, len(caps))
		}
		rc, err := a.Resource(caps[0])
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.ReadAll(rc)
		want := filepath.Join(dir, "a.warc") + ": record at offset " + strconv.FormatInt(caps[0].Offset, 10) + ": its block does not match its WARC-Block-Digest"
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q", u, err, want)
		}
	}
	if _, err := OpenArchive([]string{t.TempDir()}, scheme.Config{}, func(error) {}); err == nil || !strings.Contains(err.Error(), "no WARC files") {
		t.Errorf("empty directory: %v", err)
	}
	d2 := t.TempDir()
	os.MkdirAll(filepath.Join(d2, "x"), 0o755)
	os.WriteFile(filepath.Join(d2, "a.warc"), all, 0o644)
	os.WriteFile(filepath.Join(d2, "x", "a.warc"), all, 0o644)
	if _, err := OpenArchive([]string{d2}, scheme.Config{}, func(error) {}); err == nil || !strings.Contains(err.Error(), "two WARC files are named a.warc") {
		t.Errorf("two files of one name: %v", err)
	}
}

func TestNearestAndTimestamps(t *testing.T) {
	caps := []Entry{{Timestamp: "19930101000000"}, {Timestamp: "19940601000000"}, {Timestamp: "19960101000000"}}
	for at, want := range map[string]int{"": 2, "1993": 0, "1994": 1, "19950317120000": 1, "19950317120001": 2, "2030": 2, "1900": 0} {
		var tm time.Time
		if at != "" {
			var err error
			if tm, err = ParseTimestamp(at); err != nil {
				t.Fatal(err)
			}
		}
		if got := Nearest(caps, tm); got != want {
			t.Errorf("Nearest(%q) = %d, want %d", at, got, want)
		}
	}
	for _, bad := range []string{"", "19", "1994x", "199413", "19940230", "123456789012345"} {
		if _, err := ParseTimestamp(bad); err == nil {
			t.Errorf("ParseTimestamp(%q) accepted", bad)
		}
	}
}

// TestSearches: the captured searches of a gopher search item (selector
// %09 words, RFC 1738 3.4) or a WAIS database (database ? words, 3.9),
// and none for a URL that is not a search.
func TestSearches(t *testing.T) {
	dir := t.TempDir()
	var recs []testRecord
	for _, u := range []string{"gopher://h.example/7/find%09one", "gopher://h.example/7/find%09two", "gopher://h.example/7/findother%09x",
		"gopher://h.example/0/find%09not-a-search", "wais://w.example/db?alpha", "wais://w.example/db?beta", "wais://w.example/db2?gamma"} {
		recs = append(recs, testRecord{typ: gowarc.Resource, uri: u, ctype: "text/plain", block: u})
	}
	writeWARC(t, dir, "s.warc.gz", recs, true)
	a, err := OpenArchive([]string{dir}, scheme.Config{}, func(err error) { t.Error(err) })
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for u, want := range map[string]string{
		"gopher://h.example/7/find%09three": "gopher://h.example/7/find%09one gopher://h.example/7/find%09two",
		"wais://w.example/db?delta":         "wais://w.example/db?alpha wais://w.example/db?beta",
		"gopher://h.example/0/find%09x":     "",
		"gopher://h.example/7/find":         "",
	} {
		got, err := a.Searches(u)
		if err != nil || strings.Join(got, " ") != want {
			t.Errorf("Searches(%q) = %q %v, want %q", u, got, err, want)
		}
	}
}

// TestLongTargetNotIndexed: a record whose target URI would make an index
// line longer than a lookup reads is named and left out, and the index
// stays readable around it.
func TestLongTargetNotIndexed(t *testing.T) {
	dir := t.TempDir()
	long := "gopher://h.example/0/" + strings.Repeat("x", 40<<10)
	recs := []testRecord{
		{typ: gowarc.Resource, uri: "gopher://h.example/0/a", ctype: "text/plain", block: "a"},
		{typ: gowarc.Resource, uri: long, ctype: "text/plain", block: "long"},
		{typ: gowarc.Resource, uri: "gopher://h.example/0/z", ctype: "text/plain", block: "z"},
	}
	_, offs := writeWARC(t, dir, "l.warc.gz", recs, true)
	var bad []string
	a, err := OpenArchive([]string{dir}, scheme.Config{}, func(err error) { bad = append(bad, err.Error()) })
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if len(bad) != 1 || !strings.Contains(bad[0], "record at offset "+strconv.FormatInt(offs[1], 10)+": its WARC-Target-URI of") {
		t.Errorf("reported: %q", bad)
	}
	for _, u := range []string{"gopher://h.example/0/a", "gopher://h.example/0/z"} {
		if caps, err := a.Captures(u); err != nil || len(caps) != 1 {
			t.Errorf("%s: %v %v", u, caps, err)
		}
	}
}

// TestReplayDescriptors: a capture read holds one descriptor, given back
// when it is closed; an archive holds none between requests, whatever the
// number of its files.
func TestReplayDescriptors(t *testing.T) {
	fds := func() int {
		es, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip("no /proc/self/fd")
		}
		return len(es)
	}
	dir := t.TempDir()
	for i := 0; i < 20; i++ {
		writeWARC(t, dir, "f"+strconv.Itoa(i)+".warc.gz", sampleRecords(), true)
	}
	before := fds()
	a, err := OpenArchive([]string{dir}, scheme.Config{}, func(err error) { t.Error(err) })
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if n := fds() - before; n > 1 { // the index
		t.Errorf("an archive of 20 files holds %d descriptors", n)
	}
	caps, _ := a.Captures("gopher://gopher.example/0/about")
	if len(caps) != 20 {
		t.Fatalf("%d captures", len(caps))
	}
	for _, c := range caps {
		rc, err := a.Resource(c)
		if err != nil {
			t.Fatal(err)
		}
		if n := fds() - before; n > 2 {
			t.Errorf("reading one capture holds %d descriptors", n-1)
		}
		io.Copy(io.Discard, rc)
		rc.Close()
	}
	if n := fds() - before; n > 1 {
		t.Errorf("after 20 captures read and closed, %d descriptors more", n)
	}
}

// TestArchiveWithIndex: an index written before (urlkit index -o) is used
// as it is, and finds the same captures as indexing the files.
func TestArchiveWithIndex(t *testing.T) {
	dir := t.TempDir()
	name, _ := writeWARC(t, dir, "a.warc.gz", sampleRecords(), true)
	f, _ := Open(name)
	srt := &Sorter{}
	IndexFile(f, "a.warc.gz", func(e Entry) { srt.Add(e.AppendLine(nil)) }, func(err error) { t.Error(err) })
	f.Close()
	idx := filepath.Join(t.TempDir(), "a.cdxj")
	out, _ := os.Create(idx)
	srt.WriteTo(out)
	out.Close()
	a, err := OpenArchive([]string{name, idx}, scheme.Config{}, func(err error) { t.Error(err) })
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	caps, err := a.Captures("gopher://gopher.example/0/about")
	if err != nil || len(caps) != 1 {
		t.Fatalf("%v %v", caps, err)
	}
	rc, err := a.Resource(caps[0])
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(rc); string(b) != "About this hole.\n" {
		t.Errorf("%q", b)
	}
	rc.Close()
	a.Close()
	if _, err := os.Stat(idx); err != nil {
		t.Errorf("the given index was removed with the archive: %v", err)
	}
	if _, err := OpenArchive([]string{name, idx, idx + "2.cdxj"}, scheme.Config{}, func(error) {}); err == nil {
		t.Error("two indexes accepted")
	}
}
