package archive

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	gowarc "github.com/nlnwa/gowarc/v3"
)

// BenchmarkIndexFile indexes a WARC file of 400 gzipped records of 50 KB
// text (about 8 MB compressed): what serve --replay and urlkit index cost
// an archive's megabyte.
func BenchmarkIndexFile(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	var recs []testRecord
	words := strings.Fields("gopher archive menu server retrieval document internet protocol the of and a")
	for i := 0; i < 400; i++ {
		var body strings.Builder
		for body.Len() < 50000 {
			if rng.IntN(4) == 0 {
				fmt.Fprintf(&body, "%x ", rng.Uint64())
			} else {
				body.WriteString(words[rng.IntN(len(words))] + " ")
			}
		}
		recs = append(recs, testRecord{typ: gowarc.Resource, uri: fmt.Sprintf("gopher://h.example/0/%d", i), ctype: "text/plain", block: body.String()})
	}
	name, _ := writeWARC(b, b.TempDir(), "i.warc.gz", recs, true)
	st, _ := os.Stat(name)
	b.SetBytes(st.Size())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, err := Open(name)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		IndexFile(f, "i.warc.gz", func(Entry) { n++ }, func(err error) { b.Fatal(err) })
		f.Close()
		if n != 400 {
			b.Fatal(n)
		}
	}
}
