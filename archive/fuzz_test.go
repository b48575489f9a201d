package archive

import (
	"bytes"
	"errors"
	"io"
	"testing"

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
