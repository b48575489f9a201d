package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"

	"github.com/urlkit/urlkit/linkset"
)

// TestWithin: a host that is a view of its canonical URL is found by its
// address, one that is a copy by searching, one that is absent not at all.
func TestWithin(t *testing.T) {
	s := "http://example.com/a"
	view := s[7:18]
	copied := strings.Clone(view)
	for _, c := range []struct {
		s, sub string
		want   int
	}{
		{s, view, 7},
		{s, copied, 7},
		{s, s, 0},
		{s, "example.org", -1},
		{s[:10], view, -1},    // a view running past the end of s
		{s[:12], s[9:15], -1}, // the same, shorter than s
		{"", "a", -1},
	} {
		if got := within(c.s, c.sub); got != c.want {
			t.Errorf("within(%q, %q) = %d, want %d", c.s, c.sub, got, c.want)
		}
	}
}

// TestBatchLines: a batch file's name ends in its number of lines.
func TestBatchLines(t *testing.T) {
	for name, want := range map[string]int{
		"/tmp/x/abc-3-canonical-00001-131072": 131072,
		"/tmp/x/abc-3-rejected-00000-0":       0,
	} {
		if n, ok := batchLines(name); !ok || n != want {
			t.Errorf("batchLines(%q) = %d, %v; want %d", name, n, ok, want)
		}
	}
	for _, name := range []string{"noline", "/tmp/x/a-b-c-x", "/tmp/x/a-b-c-"} {
		if n, ok := batchLines(name); ok {
			t.Errorf("batchLines(%q) = %d, true; want false", name, n)
		}
	}
}

// TestShardWriterPasses: a shard writer whose batch files hold more lines
// than its table's bound writes the shard in several passes over them;
// every URL is written once whatever the number of passes, the copies of
// a URL in two batch files (two bundles) and in one (a URL forgotten and
// seen again) included.
func TestShardWriterPasses(t *testing.T) {
	dir := t.TempDir()
	var want []string
	var names []string
	for f := range 5 {
		var b strings.Builder
		n := 0
		for i := range 40 {
			u := fmt.Sprintf("http://h%d.example/%d\n", i%7, (f*13+i)%60)
			b.WriteString(u)
			n++
			if i%9 == 0 {
				b.WriteString(u) // the same URL twice in one batch
				n++
			}
		}
		name := filepath.Join(dir, fmt.Sprintf("b-%d-canonical-00000-%d", f, n))
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
		want = append(want, strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")...)
	}
	slices.Sort(want)
	want = slices.Compact(want)
	for _, maxKeys := range []int{0, 1000, 64, 7, 1} {
		prefix := filepath.Join(dir, fmt.Sprintf("out%d", maxKeys))
		w := &writeShardFn{Prefix: prefix, Kind: "canonical", Ext: "txt", Shards: 1, Dedup: true, maxKeys: maxKeys}
		var n int
		err := w.ProcessElement(context.Background(), 0, fileIter(names), func(m int) { n = m })
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(ShardName(prefix, "canonical", "txt", 0, 1))
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		if n != len(got) {
			t.Errorf("maxKeys %d: %d lines written, the writer says %d", maxKeys, len(got), n)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("maxKeys %d: wrote %d lines (%d distinct), want the %d distinct URLs", maxKeys, len(got), len(slices.Compact(slices.Clone(got))), len(want))
		}
	}
}

// TestClaimThrough: one claim covers the lines up to the last one in the
// buffer, and after a split that moved the end before it only the line
// at hand is claimed, so that no line before the split point is lost
// (a claim past the end would stop the tracker).
func TestClaimThrough(t *testing.T) {
	rt := sdf.NewLockRTracker(offsetrange.NewTracker(offsetrange.Restriction{Start: 0, End: 1000}))
	if c, ok := claimThrough(rt, 0, 500); !ok || c != 500 {
		t.Fatalf("claimThrough(0, 500) = %d, %v; want 500, true", c, ok)
	}
	// The runner splits at 600: positions from 600 are the residual's.
	if _, residual, err := rt.TrySplit(0.2); err != nil || residual == nil {
		t.Fatalf("TrySplit: %v, %v", residual, err)
	}
	end := rt.GetRestriction().(offsetrange.Restriction).End
	if end <= 500 || end >= 1000 {
		t.Fatalf("split end %d, want between 500 and 1000", end)
	}
	// Lines up to 800 are in the buffer, past the new end: the line at
	// 520 is claimed alone.
	if c, ok := claimThrough(rt, 520, 800); !ok || c != 520 {
		t.Fatalf("claimThrough(520, 800) after the split = %d, %v; want 520, true", c, ok)
	}
	if c, ok := claimThrough(rt, 530, end-1); !ok || c != end-1 {
		t.Fatalf("claimThrough(530, %d) = %d, %v; want %d, true", end-1, c, ok, end-1)
	}
	if _, ok := claimThrough(rt, end, end+100); ok {
		t.Fatalf("claimThrough(%d) past the end succeeded", end)
	}
}

// TestRejectedBatches: a bundle's rejected batches hold each rejected line
// as linkset.RejectedLine writes it, in the order the lines came, with the
// quoted reasons it keeps (reasonField) among more reasons than it keeps,
// some seen again after they were dropped.
func TestRejectedBatches(t *testing.T) {
	dir := t.TempDir()
	var b bundle
	files := map[int][]string{}
	b.start(context.Background(), linkset.Options{}, 3, dir, false, func(int, string) {},
		func(sh int, name string) { files[sh] = append(files[sh], name) }, func(int, []byte) {})
	want := map[int]string{}
	for i := range 3 * maxReasons {
		r := linkset.Record{
			Input:  fmt.Sprintf("http://h%d.example/~%d\t", i%5, i),
			Status: linkset.Rejected,
			Kind:   "unsafe-char",
			Offset: i % 40,
			Reason: fmt.Sprintf(`"~" is unsafe (%d)`, i%(maxReasons+maxReasons/2)),
		}
		if i%7 == 0 {
			r.Reason = "no quote here"
		}
		b.record(r)
		sh := shardOf(r.Input, 3)
		want[sh] += linkset.RejectedLine(r) + "\n"
	}
	if err := b.finish(); err != nil {
		t.Fatal(err)
	}
	for sh := range 3 {
		var got strings.Builder
		for _, name := range files[sh] {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			got.WriteString(string(data))
		}
		if got.String() != want[sh] {
			t.Errorf("shard %d: the rejected batches differ from linkset.RejectedLine's lines:\n%.300s\nwant\n%.300s", sh, got.String(), want[sh])
		}
	}
}

// TestBundleCounts: a bundle's counts (status, scheme, host, kind) are
// those of its lines one by one (linkset.Classify), whether a URL is seen
// once, seen again (its further lines counted in its batchURL), written
// in several ways (a scheme or host in capitals: the record's are not in
// the canonical text as they are), or forgotten and seen afresh (more
// URLs than maxBundleKeys).
func TestBundleCounts(t *testing.T) {
	// URL k: 70,000 of them each twice, then 70,000 others (past
	// maxBundleKeys: the bundle forgets the URLs it saw), then the first
	// 30,000 again; URLs of k%3 == 0 written in two ways.
	const half = 70000
	var lines []string
	for i := range 4*half + 30000 {
		k := i % half
		if i >= 2*half && i < 3*half {
			k = i
		}
		sch := []string{"http", "ftp", "gopher"}[k%3]
		if k%3 == 0 && i%2 == 1 {
			sch = "HTTP"
		}
		lines = append(lines, fmt.Sprintf("%s://Host%d.example/p%d", sch, k%3001, k))
		if i%1000 == 0 {
			lines = append(lines, "http://a.b/%zz", "mailto:x@y.example", "file:///etc/x", "news:comp.lang.go", "HTTP://EXAMPLE.COM:80/", "http://example.com/")
		}
	}
	want := map[string]int{}
	for _, l := range lines {
		s, ok := linkset.Line(l)
		if !ok {
			continue
		}
		r := linkset.Classify(s, linkset.Options{})
		want[SectionStatus+"\t"+r.Status.String()]++
		if r.Status == linkset.Rejected {
			want[SectionKind+"\t"+linkset.Field(r.Kind)]++
			continue
		}
		want[SectionScheme+"\t"+linkset.Field(r.Scheme)]++
		if r.Host != "" {
			want[SectionHost+"\t"+linkset.Field(r.Host)]++
		}
	}
	got := map[string]int{}
	var b bundle
	drop := func(int, string) {}
	b.start(context.Background(), linkset.Options{}, 5, t.TempDir(), true, drop, drop, func(_ int, batch []byte) {
		for _, line := range strings.SplitAfter(string(batch), "\n") {
			if key, n, ok := cutCount([]byte(line)); ok {
				got[string(key)] += n
			}
		}
	})
	for _, l := range lines {
		b.line(b.keep([]byte(l)))
	}
	if err := b.finish(); err != nil {
		t.Fatal(err)
	}
	dropBatches(nil, b.tmp)
	if len(got) != len(want) {
		t.Errorf("%d count keys, want %d", len(got), len(want))
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%q: %d, want %d", k, got[k], n)
		}
	}
}
