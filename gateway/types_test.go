package gateway

import (
	"bytes"
	"testing"
)

// Issue 22 item 2: a type from the name or item type, completed by the
// first bytes: a sniffed type where the name gives none (WHATWG MIME
// Sniffing, as net/http.DetectContentType implements it), and for text the
// charset the bytes show.
func TestContentType(t *testing.T) {
	latin1 := []byte("Caf\xe9 cr\xe8me\n")
	long := bytes.Repeat([]byte("\xc3\xa9"), 100) // "é" a hundred times
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	for _, tc := range []struct {
		name  string
		t     string
		head  []byte
		whole bool
		want  string
	}{
		{"extensionless README", sniffType, []byte("A read-me file.\n"), true, "text/plain; charset=utf-8"},
		{"extensionless Latin-1", sniffType, latin1, true, "text/plain; charset=windows-1252"},
		{"extensionless PNG", sniffType, png, true, "image/png"},
		{"extensionless binary", sniffType, []byte{0, 1, 2, 3, 0xff}, true, octetStream},
		{"extensionless HTML", sniffType, []byte("<!DOCTYPE html><p>x"), true, "text/html; charset=utf-8"},
		{"text, UTF-8", textPlain, []byte("caf\xc3\xa9\n"), true, "text/plain; charset=utf-8"},
		{"text, ASCII", textPlain, []byte("plain\n"), true, "text/plain; charset=utf-8"},
		{"text, Latin-1", textPlain, latin1, true, "text/plain; charset=windows-1252"},
		// A character cut by the end of the first buffer is not an error;
		// the same cut at the real end is.
		{"text, UTF-8 cut by the buffer", textPlain, long[:len(long)-1], false, "text/plain; charset=utf-8"},
		{"text, UTF-8 cut at the end", textPlain, long[:len(long)-1], true, "text/plain; charset=windows-1252"},
		{"text, UTF-16 BOM", textPlain, []byte("\xff\xfeh\x00i\x00"), true, "text/plain; charset=utf-16le"},
		{"text, UTF-8 BOM", textPlain, []byte("\xef\xbb\xbfhi"), true, "text/plain; charset=utf-8"},
		// HTML and XML name their own encoding: no charset unless UTF-8.
		{"HTML, Latin-1", "text/html", []byte("<p>caf\xe9"), true, "text/html"},
		{"HTML, UTF-8", "text/html", []byte("<p>caf\xc3\xa9"), true, "text/html; charset=utf-8"},
		{"binary by name", "image/gif", []byte("caf\xe9"), true, "image/gif"},
		{"empty text", textPlain, nil, true, "text/plain; charset=utf-8"},
	} {
		if got := contentType(tc.t, tc.head, tc.whole); got != tc.want {
			t.Errorf("%s: contentType(%q, %q, %v) = %q, want %q", tc.name, tc.t, tc.head, tc.whole, got, tc.want)
		}
	}
}
