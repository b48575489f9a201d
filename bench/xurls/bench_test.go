package xurls

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/cputime"
	"github.com/urlkit/urlkit/text"
	"mvdan.cc/xurls/v2"
)

// corpusDir holds the texts with URLs of the shared corpora (RFCs, drafts
// and working-group minutes), beside the repository.
const corpusDir = "../../../shared/corpora/text-with-urls"

func loadCorpus(tb testing.TB) []string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.txt"))
	if err != nil || len(files) == 0 {
		msg := fmt.Sprintf("text corpus absent: expected in %s (../shared/corpora beside the repository)", corpusDir)
		if os.Getenv("URLKIT_REQUIRE_CORPORA") == "1" {
			tb.Fatal(msg + "; URLKIT_REQUIRE_CORPORA=1 requires it")
		}
		tb.Skip(msg)
	}
	var texts []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	return texts
}

func size(texts []string) int64 {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	return int64(n)
}

// BenchmarkCorpus extracts the URLs of every corpus file with urlkit and
// with xurls's Strict regular expression, in the same run; compare MB/s.
func BenchmarkCorpus(b *testing.B) {
	texts := loadCorpus(b)
	b.Run("text.Extract", func(b *testing.B) {
		b.SetBytes(size(texts))
		b.ReportAllocs()
		n := 0
		for i := 0; i < b.N; i++ {
			for _, t := range texts {
				n += len(text.Extract(t))
			}
		}
		b.ReportMetric(float64(n)/float64(b.N), "urls/op")
	})
	b.Run("text.Scanner", func(b *testing.B) {
		b.SetBytes(size(texts))
		b.ReportAllocs()
		n := 0
		for i := 0; i < b.N; i++ {
			for _, t := range texts {
				sc := text.NewScanner(strings.NewReader(t))
				for sc.Scan() {
					n++
				}
			}
		}
		b.ReportMetric(float64(n)/float64(b.N), "urls/op")
	})
	b.Run("xurls.Strict", func(b *testing.B) {
		re := xurls.Strict()
		b.SetBytes(size(texts))
		b.ReportAllocs()
		n := 0
		for i := 0; i < b.N; i++ {
			for _, t := range texts {
				n += len(re.FindAllStringIndex(t, -1))
			}
		}
		b.ReportMetric(float64(n)/float64(b.N), "urls/op")
	})
}

// TestThroughputRatio measures both extractors in this one process, in CPU
// time (user and system, so a loaded machine's waiting does not count),
// in alternating rounds over the whole corpus, and fails when text.Extract
// is less than 100 times as fast as xurls.Strict. docs/performance.md gives the ratio
// measured (about 1,900x); the bound leaves room for machines that differ.
//
//	cd bench/xurls && go test -run TestThroughputRatio -v
func TestThroughputRatio(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	texts := loadCorpus(t)
	re := xurls.Strict()
	var uCPU, xCPU time.Duration
	var uBytes, xBytes float64
	mb := float64(size(texts)) / 1e6
	for round := 0; round < 2; round++ {
		c := cputime.Now()
		for i := 0; i < 20; i++ {
			for _, s := range texts {
				text.Extract(s)
			}
		}
		uCPU += cputime.Now() - c
		uBytes += 20 * mb
		c = cputime.Now()
		for _, s := range texts {
			re.FindAllStringIndex(s, -1)
		}
		xCPU += cputime.Now() - c
		xBytes += mb
	}
	uRate := uBytes / uCPU.Seconds()
	xRate := xBytes / xCPU.Seconds()
	ratio := uRate / xRate
	t.Logf("CPU time: text.Extract %.1f MB/s, xurls.Strict %.3f MB/s: %.0fx", uRate, xRate, ratio)
	if ratio < 100 {
		t.Errorf("text.Extract is %.0fx xurls.Strict in CPU time, want at least 100x", ratio)
	}
}

// TestWrappedURLs shows the difference issue 5 is about, on the example of
// RFC 1738's appendix: urlkit joins the URLs broken across lines, xurls
// cuts them at the line break.
func TestWrappedURLs(t *testing.T) {
	doc := `Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;
type=d> but you can probably pick it up from <URL:ftp://ds.in
ternic.net/rfc>.  Note the warning in <URL:http://ds.internic.
net/instructions/overview.html#WARNING>.`
	var got []string
	for _, m := range text.Extract(doc) {
		got = append(got, m.URL.String())
	}
	want := []string{"ftp://info.cern.ch/pub/www/doc;type=d", "ftp://ds.internic.net/rfc",
		"http://ds.internic.net/instructions/overview.html#WARNING"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("urlkit found %q, want %q", got, want)
	}
	xs := xurls.Strict().FindAllString(doc, -1)
	t.Logf("xurls.Strict finds %q", xs)
	for _, x := range xs {
		for _, w := range want {
			if x == w {
				t.Errorf("xurls found %q whole; the comparison no longer shows the difference", x)
			}
		}
	}
}
