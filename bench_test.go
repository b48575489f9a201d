package urlkit

import (
	"net/url"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/benchpeer"
	"github.com/urlkit/urlkit/internal/testkit/corpus"
)

// benchCorpora are the real-URL corpora of ../shared/corpora the parse
// benchmarks run on.
var benchCorpora = []string{"ada-url-datasets/kasztp.txt", "ada-url-datasets/node_files.txt"}

// benchParse runs parse over the corpus, one URL per iteration, so that
// ns/op and allocs/op are per URL and MB/s is over the URL bytes.
func benchParse(b *testing.B, urls []string, parse func(string)) {
	total := 0
	for _, u := range urls {
		total += len(u)
	}
	b.SetBytes(int64(total / len(urls)))
	b.ReportAllocs()
	b.ResetTimer()
	for i, k := 0, 0; i < b.N; i, k = i+1, k+1 {
		if k == len(urls) {
			k = 0 // not i%len(urls): a division costs as much as a short parse
		}
		parse(urls[k])
	}
}

// BenchmarkParse compares strict Parse and Check with net/url.Parse in the
// same run. Run: go test -run '^$' -bench Parse -benchmem. The figures in
// docs/performance.md come from bench/cmd/compare, which interleaves the
// implementations and measures CPU time.
func BenchmarkParse(b *testing.B) {
	for _, name := range benchCorpora {
		urls := corpus.Lines(b, name)
		b.Run(name+"/urlkit", func(b *testing.B) { benchParse(b, urls, func(s string) { Parse(s) }) })
		b.Run(name+"/urlkit-valid", func(b *testing.B) {
			var valid []string
			for _, s := range urls {
				if _, err := Parse(s); err == nil {
					valid = append(valid, s)
				}
			}
			benchParse(b, valid, func(s string) { Parse(s) })
		})
		b.Run(name+"/urlkit-check", func(b *testing.B) { benchParse(b, urls, func(s string) { Check(s) }) })
		b.Run(name+"/net-url", func(b *testing.B) { benchParse(b, urls, func(s string) { url.Parse(s) }) })
	}
}

// BenchmarkCanonical compares Parse followed by Canonical with the closest
// net/url work, parsing and writing the URL back: both sides parse, on the
// same valid URLs.
func BenchmarkCanonical(b *testing.B) {
	var raw []string
	for _, s := range corpus.Lines(b, benchCorpora[0]) {
		if _, err := Parse(s); err == nil {
			raw = append(raw, s)
		}
	}
	b.Run("urlkit", func(b *testing.B) {
		benchParse(b, raw, func(s string) {
			if u, err := Parse(s); err == nil {
				_ = Canonical(u).String()
			}
		})
	})
	b.Run("net-url", func(b *testing.B) { benchParse(b, raw, func(s string) { benchpeer.Canonical(s) }) })
}

// BenchmarkUnescape compares Unescape with net/url.PathUnescape.
func BenchmarkUnescape(b *testing.B) {
	const s = "albert/bertram/marie%2Dclaude%20et%20jean%2Fpierre"
	b.Run("urlkit", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			Unescape(s)
		}
	})
	b.Run("net-url", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			url.PathUnescape(s)
		}
	})
}

// TestCorpusParse runs strict Parse over the benchmark corpora: no panic,
// every accepted URL round-trips, and the count of rejections is reported.
func TestCorpusParse(t *testing.T) {
	for _, name := range benchCorpora {
		urls := corpus.Lines(t, name)
		ok := 0
		for _, s := range urls {
			u, err := Parse(s)
			if err != nil {
				continue
			}
			ok++
			if u.String() != s {
				t.Errorf("%s: %q round-trips as %q", name, s, u)
			}
		}
		t.Logf("%s: %d of %d URLs are valid RFC 1738 URLs", name, ok, len(urls))
	}
}
