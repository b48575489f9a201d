package archive

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	gowarc "github.com/nlnwa/gowarc/v3"

	"github.com/urlkit/urlkit/scheme"
)

// BenchmarkReplayResource: what replay costs a request before the page
// code: the lookup of the URL's captures and the read of one capture (a
// 500-line gopher menu, about 30 KB, gzipped, its digest checked).
func BenchmarkReplayResource(b *testing.B) {
	var menu strings.Builder
	for i := 0; i < 500; i++ {
		menu.WriteString("0A document with a longish title\t/docs/document.txt\tgopher.example.org\t70\r\n")
	}
	recs := []testRecord{{typ: gowarc.Resource, uri: "gopher://gopher.example.org/1/m", ctype: "text/x-gopher-menu", block: menu.String()}}
	name, _ := writeWARC(b, b.TempDir(), "m.warc.gz", recs, true)
	a, err := OpenArchive([]string{filepath.Dir(name)}, scheme.Config{}, func(err error) { b.Fatal(err) })
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		caps, err := a.Captures("gopher://gopher.example.org/1/m")
		if err != nil || len(caps) != 1 {
			b.Fatal(err)
		}
		rc, err := a.Resource(caps[0])
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, rc); err != nil {
			b.Fatal(err)
		}
		rc.Close()
	}
}
