package archive

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/nlnwa/gowarc/v3"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/scheme"
)

// FuzzResourceOf: whatever a record says (its type, target, Content-Type
// and block, as a hostile or damaged WARC file may), ResourceOf returns a
// resource or an error, never panics, reads no more than the block, and a
// resource it returns reads to its end. Seeds: the conventions' own media
// types (conventions.go) and http responses of RFC 9112.
func FuzzResourceOf(f *testing.F) {
	for _, k := range kinds {
		f.Add(TypeResource, "gopher://example.org/1/", k.media, []byte("0a\t/a\th\t70\r\n"))
	}
	f.Add(TypeResource, "ftp://example.org/pub", "text/x-ftp-listing; format=list; fallback=cwd", []byte("-rw-r--r-- 1 a a 3 Jan 1 2024 f\r\n"))
	f.Add(TypeResource, "ftp://example.org/f", "", []byte("x"))
	f.Add(TypeResource, "news:a@b", "message/rfc822; x=\"", []byte("Subject: x\r\n\r\n"))
	f.Add(TypeResponse, "http://example.org/", HTTPResponseType, []byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"))
	f.Add(TypeResponse, "http://example.org/", HTTPResponseType, []byte("HTTP/1.0 301 Moved\r\nLocation: /\r\n\r\n"))
	f.Add(TypeResponse, "https://[::1]/", HTTPResponseType, []byte("HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\nshort"))
	f.Add(TypeRevisit, "wais://example.org/db?x", "text/x-wais-hits", []byte{})
	f.Fuzz(func(t *testing.T, typ, target, ct string, block []byte) {
		r, err := ResourceOf(Captured{Type: typ, TargetURI: target, ContentType: ct, Length: int64(len(block)),
			Block: io.NopCloser(bytes.NewReader(block))}, scheme.Config{NewsServer: "news.example.org"})
		if err != nil {
			var se *access.HTTPStatusError
			if r != nil && !errors.As(err, &se) {
				t.Fatalf("a resource and an error: %v", err)
			}
			return
		}
		got, _ := io.ReadAll(io.LimitReader(r, int64(len(block))+1))
		r.Close()
		if len(got) > len(block) {
			t.Fatalf("read %d bytes from a block of %d", len(got), len(block))
		}
		if r.Kind == "" || r.Plan == nil {
			t.Fatalf("resource without kind or plan: %+v", r)
		}
	})
}

// FuzzRobots: any robots.txt (a hostile gopher server writes it) is read
// without panic, and a selector it disallows is one a Disallow line of
// it names a prefix of (Veronica-2's reading: no rule comes from
// nowhere).
func FuzzRobots(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /tmp/\n"), "/tmp/x")
	f.Add([]byte("User-agent: veronica\nDisallow: /\n"), "")
	f.Add([]byte("User-agent: *\r\nDisallow: /a#c\r\nUser-agent: urlkit\nDisallow:\n"), "/a")
	f.Fuzz(func(t *testing.T, b []byte, sel string) {
		r := parseRobots(b)
		if r.disallows(sel) && !bytes.Contains(bytes.ToLower(b), []byte("disallow")) {
			t.Fatalf("%q disallowed by a file without a Disallow line", sel)
		}
	})
}

// FuzzResume: any file given to --continue (cut, corrupt, not WARC at
// all) is either refused with an error or continued into a file that
// gowarc reads whole: its whole records, a new warcinfo, nothing else.
func FuzzResume(f *testing.F) {
	dir := f.TempDir()
	seed := filepath.Join(dir, "seed.warc.gz")
	w, err := Create(seed, [][2]string{{"software", "seed"}})
	if err != nil {
		f.Fatal(err)
	}
	w.Close()
	good, _ := os.ReadFile(seed)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(append(append([]byte{}, good...), good[:10]...))
	f.Add([]byte("WARC/1.1\r\nContent-Length: 99999999\r\n\r\nshort"))
	f.Add([]byte("not a WARC file at all"))
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "in.warc.gz")
		os.WriteFile(path, b, 0o644)
		w, held, err := Resume(path, nil)
		if err != nil {
			return
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		rd, err := gowarc.NewWarcFileReader(path, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer rd.Close()
		n := 0
		for {
			rec, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("record %d of the continued file: %v (held %d, dropped %v)", n+1, err, held.Records, held.Dropped)
			}
			rec.Close()
			n++
		}
		if n != held.Records+1 {
			t.Fatalf("%d records, want the %d kept and a warcinfo", n, held.Records)
		}
	})
}
