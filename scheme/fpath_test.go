package scheme

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// checkFPathScan fails when checkFile's one-search scan of a strict URL's
// path and search part (fpathScan) finds another byte than the byte-by-byte
// scan against fpath's table: the core parser must leave ";" as the only
// byte of a url-path or search part outside an fpath; and likewise for
// checkHTTP's scan of a search part (searchScan), where "/" and "?" are
// the bytes outside an http search.
func checkFPathScan(t *testing.T, u urlkit.URL) {
	t.Helper()
	if u.Extended() {
		return
	}
	p := part{raw: u.PathAndSearch()}
	if got, want := fpathScan(u.Extended(), p), p.firstNotIn(&fpathChars); got != want {
		t.Fatalf("%q: fpathScan finds offset %d, the byte scan %d", u.String(), got, want)
	}
	if s, ok := u.Search(); ok {
		p := part{raw: s}
		if got, want := searchScan(u.Extended(), p), p.firstNotIn(&searchChars); got != want {
			t.Fatalf("%q: searchScan finds offset %d, the byte scan %d", u.String(), got, want)
		}
	}
}

// TestFPathScanAgrees runs checkFPathScan on every URL of the ada-url
// datasets and the other corpora that the strict parser accepts, read as
// written and with their scheme replaced by file, and on URLs holding each
// byte in the path and in the search part.
func TestFPathScanAgrees(t *testing.T) {
	var texts []string
	for b := range 256 {
		c := string([]byte{byte(b)})
		texts = append(texts, "file:///a"+c+"b", "file://h/a?"+c, "http://h/"+c+"?"+c, "file:///%41"+c)
	}
	dir := filepath.Join("..", "..", "shared", "corpora", "ada-url-datasets")
	if os.Getenv("URLKIT_CORPORA") != "" {
		dir = filepath.Join(os.Getenv("URLKIT_CORPORA"), "ada-url-datasets")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, strings.Split(string(d), "\n")...)
	}
	n := 0
	for _, s := range texts {
		for _, v := range []string{s, "file" + s[max(strings.IndexByte(s, ':'), 0):]} {
			u, err := urlkit.Parse(v)
			if err != nil || !u.HasAuthority() {
				continue
			}
			checkFPathScan(t, u)
			n++
		}
	}
	if len(files) > 0 && n < 1000 {
		t.Fatalf("only %d URLs checked", n)
	}
}
