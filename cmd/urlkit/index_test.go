package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gowarc "github.com/nlnwa/gowarc/v3"

	"github.com/urlkit/urlkit/archive"
)

// warcRecord returns one gzipped resource record written by gowarc.
func warcRecord(t *testing.T, target, ctype, body string, at time.Time) []byte {
	rb := gowarc.NewRecordBuilder(gowarc.Resource, gowarc.WithAddMissingDigest(true), gowarc.WithAddMissingRecordId(true), gowarc.WithDefaultDigestAlgorithm("sha1"))
	rb.AddWarcHeader(gowarc.WarcTargetURI, target)
	rb.AddWarcHeaderTime(gowarc.WarcDate, at)
	rb.AddWarcHeader(gowarc.ContentType, ctype)
	rb.WriteString(body)
	rec, _, err := rb.Build()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, _, err := gowarc.NewMarshaler().Marshal(zw, rec, 0); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	return buf.Bytes()
}

// TestIndexCommand: urlkit index writes the records' CDXJ lines sorted;
// a damaged record is named on stderr with its file and offset, the
// others still indexed, and the exit status is 1; a file that is no WARC
// is named too; -o writes the index complete.
func TestIndexCommand(t *testing.T) {
	dir := t.TempDir()
	d := time.Date(1994, 6, 1, 12, 0, 0, 0, time.UTC)
	r1 := warcRecord(t, "gopher://h.example/1/", "text/x-gopher-menu", "0Doc\t/doc\th.example\t70\r\n", d)
	r2 := warcRecord(t, "gopher://h.example/0/doc", "text/plain", "a document\n", d.Add(time.Hour))
	r3 := warcRecord(t, "ftp://f.example/pub/", "text/x-ftp-listing; format=list", "-rw-r--r-- 1 0 0 3 Jan 1 1994 a\r\n", d)
	good := filepath.Join(dir, "good.warc.gz")
	os.WriteFile(good, append(append(append([]byte{}, r1...), r2...), r3...), 0o644)
	out, errOut, code := runCLI(t, "", "index", good)
	if code != exitOK || errOut != "" {
		t.Fatalf("index: %d %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []string{
		fmt.Sprintf(`ftp://(example,f,)/pub/ 19940601120000 {"url":"ftp://f.example/pub/","mime":"text/x-ftp-listing","digest":"%s","length":%d,"offset":%d,"filename":"good.warc.gz"}`, sha1B32("-rw-r--r-- 1 0 0 3 Jan 1 1994 a\r\n"), len(r3), len(r1)+len(r2)),
		fmt.Sprintf(`gopher://(example,h,)/0/doc 19940601130000 {"url":"gopher://h.example/0/doc","mime":"text/plain","digest":"%s","length":%d,"offset":%d,"filename":"good.warc.gz"}`, sha1B32("a document\n"), len(r2), len(r1)),
		fmt.Sprintf(`gopher://(example,h,)/1/ 19940601120000 {"url":"gopher://h.example/1/","mime":"text/x-gopher-menu","digest":"%s","length":%d,"offset":0,"filename":"good.warc.gz"}`, sha1B32("0Doc\t/doc\th.example\t70\r\n"), len(r1)),
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("index:\n%s\nwant:\n%s", out, strings.Join(want, "\n"))
	}

	bad := filepath.Join(dir, "bad.warc.gz")
	os.WriteFile(bad, append(append(append([]byte{}, r1...), r2[:len(r2)-9]...), r3...), 0o644)
	notWARC := filepath.Join(dir, "notes.txt")
	os.WriteFile(notWARC, []byte("just some notes\n"), 0o644)
	out, errOut, code = runCLI(t, "", "index", bad, notWARC)
	if code != exitInvalid || strings.Count(out, "\n") != 2 {
		t.Errorf("damaged: exit %d, %d lines:\n%s", code, strings.Count(out, "\n"), out)
	}
	if !strings.Contains(errOut, fmt.Sprintf("urlkit index: %s: record at offset %d: ", bad, len(r1))) ||
		!strings.Contains(errOut, "urlkit index: "+notWARC+": record at offset 0: not a WARC file") {
		t.Errorf("stderr does not name the files and offsets:\n%s", errOut)
	}

	idx := filepath.Join(dir, "out.cdxj")
	if _, errOut, code := runCLI(t, "", "index", "-o", idx, dir); code != exitInvalid || errOut == "" {
		t.Errorf("-o over the directory: %d %q", code, errOut)
	}
	x, err := archive.OpenIndex(idx)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	es, err := x.Lookup(archive.SortKey("gopher://h.example/1/"))
	if err != nil || len(es) != 2 { // from good and bad
		t.Errorf("lookup in the written index: %v %v", es, err)
	}
	if _, _, code := runCLI(t, "", "index"); code != exitUsage {
		t.Errorf("no files: %d", code)
	}
	empty := t.TempDir()
	if _, errOut, code := runCLI(t, "", "index", empty); code != exitInvalid || !strings.Contains(errOut, "no WARC files (.warc, .warc.gz) in "+empty) {
		t.Errorf("empty directory: %d %q", code, errOut)
	}
}

// sha1B32 is a payload digest as WARC writers write it (sha1, base 32).
func sha1B32(s string) string {
	sum := sha1.Sum([]byte(s))
	return base32.StdEncoding.EncodeToString(sum[:])
}
