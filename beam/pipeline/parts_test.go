package pipeline

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/linkset"
)

// TestPartRange: the n parts of a file's bytes cover them, one after the
// other, each byte in one part, and differ in size by one byte at most.
func TestPartRange(t *testing.T) {
	for size := int64(0); size < 40; size++ {
		for n := 1; n <= 7; n++ {
			end := int64(0)
			for i := range n {
				r := partRange(size, i, n)
				if r.Start != end || r.End < r.Start {
					t.Fatalf("size %d, part %d of %d: %v after %d", size, i, n, r, end)
				}
				if d := r.End - r.Start - size/int64(n); d < 0 || d > 1 {
					t.Fatalf("size %d, part %d of %d: %v, %d bytes", size, i, n, r, r.End-r.Start)
				}
				end = r.End
			}
			if end != size {
				t.Fatalf("size %d, %d parts: they end at %d", size, n, end)
			}
		}
	}
}

// TestPartOf: a step is in the part whose scope holds it, whatever its
// depth; a scope name that only starts like a part's is not that part.
func TestPartOf(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
		want int
	}{
		{"urlkit/read part 2 of 2/pipeline.readLinesFn", 2, 1},
		{"urlkit/read part 1 of 2/pipeline.readLinesFn", 2, 0},
		{"urlkit/read part 3 of 3/x/y", 3, 2},
		{"urlkit/read part 2 of 3", 3, 1},
		{"urlkit/read part 2 of 23/x", 3, 0},
		{"urlkit/read part 2 of 2/x", 3, 0},
		{"urlkit/write canonical/pipeline.writeShardFn", 2, 0},
		{"urlkit/read part 2 of 2/x", 1, 0},
	} {
		if got := PartOf(c.name, c.n); got != c.want {
			t.Errorf("PartOf(%q, %d) = %d, want %d", c.name, c.n, got, c.want)
		}
	}
}

// TestParts reads the same files in 1, 2, 3 and 7 parts, with lines that
// straddle the parts' boundaries, a file without a final newline, an
// empty file, files shorter than the number of parts and a gzip file
// (read whole by one part): the outputs are the same each time, and each
// line is read once (the rejected lines, which are written each time they
// occur, are all there once, and the status counts add up to the lines).
func TestParts(t *testing.T) {
	files := map[string]string{"empty.txt": "", "one.txt": "h", "short.txt": "http://a.example/\n"}
	lines := 2 // one.txt and short.txt
	for i := range 5 {
		var b strings.Builder
		for j := range 30 + 17*i {
			// Lines of different lengths, so that the boundaries fall
			// anywhere in a line; every fifth is rejected (RFC 1738 2.2:
			// the space is unsafe) and names its file and line.
			if j%5 == 0 {
				fmt.Fprintf(&b, "http://r.example/%d %d\n", i, j)
			} else {
				fmt.Fprintf(&b, "http://h%d.example/%s\n", j%9, strings.Repeat("p", j%13))
			}
			lines++
		}
		body := b.String()
		if i == 3 {
			body = strings.TrimSuffix(body, "\n")
		}
		files[fmt.Sprintf("f%d.txt", i)] = body
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	for j := range 20 {
		fmt.Fprintf(zw, "gopher://g.example/1x%d\nhttp://r.example/gz %d\n", j, j)
		lines += 2
	}
	zw.Close()
	files["z.txt.gz"] = gz.String()

	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var want map[string][]string
	for _, parts := range []int{1, 2, 3, 7} {
		out := run(t, Config{Input: filepath.Join(dir, "*"), Parts: parts}, nil)
		want = checkParts(t, parts, out, lines, want)
	}
}

// checkParts checks the outputs out of a run in parts over lines lines,
// and compares them with want (the first run's), which it returns.
func checkParts(t *testing.T, parts int, out map[string][]string, lines int, want map[string][]string) map[string][]string {
	t.Helper()
	st := section(out["counts.tsv"], SectionStatus)
	if got := st["valid"] + st["repaired"] + st["rejected"]; got != lines {
		t.Errorf("%d parts: %d lines counted, want %d", parts, got, lines)
	}
	rejected := map[string]int{}
	for _, l := range out["rejected.tsv"] {
		rejected[strings.Split(l, "\t")[0]]++
	}
	for in, n := range rejected {
		if n != 1 || !strings.HasPrefix(in, "http://r.example/") && in != "h" {
			t.Errorf("%d parts: rejected line %q %d times", parts, in, n)
		}
	}
	if want == nil {
		if len(out["canonical.txt"]) < 10 || len(rejected) < 10 {
			t.Fatalf("%d parts: %d canonical URLs and %d rejected lines, want more", parts, len(out["canonical.txt"]), len(rejected))
		}
		for _, u := range out["canonical.txt"] {
			if c := linkset.Classify(u, linkset.Options{}).Canonical; c != u {
				t.Errorf("%q is not canonical (%q)", u, c)
			}
		}
		return out
	}
	for _, kind := range []string{"canonical.txt", "rejected.tsv", "counts.tsv", "summary.txt"} {
		if strings.Join(out[kind], "\n") != strings.Join(want[kind], "\n") {
			t.Errorf("%d parts: %s differs from one part's:\n%s\n---\n%s", parts, kind, strings.Join(out[kind], "\n"), strings.Join(want[kind], "\n"))
		}
	}
	return want
}
