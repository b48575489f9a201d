package pipeline

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFpSet: the shard writer's fingerprint table, filled to three
// quarters and past it (it grows), agrees with a map of the same
// fingerprints on random ones and on adversarial ones: fingerprints that
// all start their probe in one slot (one long run of the linear probe),
// runs wrapping past the table's last slot, pairs that differ in one half
// only (a set that compared the placing half alone would take one for the
// other), and the zero fingerprint. Its load never passes three quarters.
func TestFpSet(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 1))
	const slots = 1 << 10
	mask := uint64(slots - 1)
	cases := map[string]func(i int) [2]uint64{
		"random": func(int) [2]uint64 { return [2]uint64{r.Uint64(), r.Uint64()} },
		// Every probe starts in slot 5.
		"one slot": func(int) [2]uint64 { return [2]uint64{r.Uint64(), r.Uint64()&^mask | 5} },
		// Probes start in the last four slots and wrap to the first.
		"wrapping": func(int) [2]uint64 { return [2]uint64{r.Uint64(), r.Uint64()&^mask | (mask - uint64(r.IntN(4)))} },
		// The same placing half, the other half differing by one bit.
		"one half": func(i int) [2]uint64 { return [2]uint64{uint64(i / 2), 0xfeed} },
		// Small values, the zero fingerprint among them.
		"small": func(i int) [2]uint64 { return [2]uint64{uint64(i % 3), uint64(i / 3)} },
	}
	for name, gen := range cases {
		t.Run(name, func(t *testing.T) {
			// Up to three quarters of the table, then twice as many
			// fingerprints: the table grows.
			for _, n := range []int{slots * 3 / 4, 2 * slots} {
				f := &fpSet{slots: make([][2]uint64, slots)}
				ref := map[[2]uint64]bool{}
				var fps [][2]uint64
				for i := range n {
					fp := gen(i)
					fps = append(fps, fp)
					if i%5 == 0 && len(fps) > 1 {
						fps = append(fps, fps[r.IntN(len(fps)-1)]) // a fingerprint again
					}
				}
				for i, fp := range fps {
					// The zero fingerprint is kept as (0, 1) (the
					// empty slot is zero): the two are one.
					key := fp
					if key == [2]uint64{} {
						key[1] = 1
					}
					want := !ref[key]
					ref[key] = true
					if got := f.add(fp); got != want {
						t.Fatalf("%d of %d: add(%x) = %v, want %v", i, n, fp, got, want)
					}
					if 4*f.n > 3*len(f.slots) {
						t.Fatalf("%d fingerprints in %d slots: past three quarters", f.n, len(f.slots))
					}
				}
				if f.n != len(ref) {
					t.Errorf("the set holds %d fingerprints, want %d", f.n, len(ref))
				}
				for fp := range ref {
					if f.add(fp) {
						t.Fatalf("%x added twice", fp)
					}
				}
				if n == slots*3/4 && len(f.slots) != slots {
					t.Errorf("%d fingerprints: the table grew to %d slots, want %d (three quarters of it)", len(ref), len(f.slots), slots)
				}
			}
		})
	}
}

// TestShardPasses: a shard writer's table holds maxShardKeys fingerprints
// in 128 MiB (2^23 slots of 16 bytes), and a shard of 10^8 lines over the
// default 16 shards is written in one pass (a batch line comes from one
// input line: a shard's batch files hold at most its share of the lines;
// at 10^8 distinct lines, 95% of them distinct URLs, measured 5.95-5.96
// million a shard); a shard one line over the bound takes two, and beyond
// that a pass is planned for seven eighths of the bound.
func TestShardPasses(t *testing.T) {
	if got := fpTableSize(maxShardKeys) * 16; got != 128<<20 {
		t.Errorf("the table for maxShardKeys is %d bytes, want 128 MiB", got)
	}
	if got := fpTableSize(maxShardKeys + 1); got != 1<<24 {
		t.Errorf("fpTableSize(maxShardKeys+1) = %d slots, want 2^24 (past three quarters of 2^23)", got)
	}
	const perShard = 100_000_000 / DefaultShards
	for _, c := range []struct{ total, want int }{
		{0, 1},
		{perShard, 1},
		{maxShardKeys, 1},
		{maxShardKeys + 1, 2},
		{3 * maxShardKeys, 4},
		{10_000_000_000 / 600, 4}, // 10^10 lines in 600 shards
	} {
		if got := shardPasses(c.total, maxShardKeys); got != c.want {
			t.Errorf("shardPasses(%d, maxShardKeys) = %d, want %d", c.total, got, c.want)
		}
	}
	// Half full while the table fits in 128 MiB, three quarters beyond.
	for _, c := range []struct{ max, want int }{{1, 2}, {3, 8}, {1000, 2048}, {1 << 22, 1 << 23}, {1<<22 + 1, 1 << 23}, {maxShardKeys, 1 << 23}} {
		if got := fpTableSize(c.max); got != c.want {
			t.Errorf("fpTableSize(%d) = %d, want %d", c.max, got, c.want)
		}
	}
}

// BenchmarkFpSet measures the shard writer's table out of the caches
// (2^23 slots, 128 MiB), filled as writeNew fills it (random
// fingerprints, a group's first slots loaded together, then added) to half
// and to three quarters: ns/op is one add averaged over the fill from
// empty, and the look-ups at the final load of fingerprints present
// (found, as a URL seen again) and absent (an empty slot reached) are
// reported beside it.
func BenchmarkFpSet(b *testing.B) {
	const slots = 1 << 23
	for _, load := range []struct {
		name string
		num  int
	}{{"load=0.50", 2}, {"load=0.75", 3}} {
		b.Run(load.name, func(b *testing.B) {
			n := slots * load.num / 4
			r := rand.New(rand.NewPCG(38, 2))
			fps := make([][2]uint64, n)
			for i := range fps {
				fps[i] = [2]uint64{r.Uint64(), r.Uint64()}
			}
			absent := make([][2]uint64, n)
			for i := range absent {
				absent[i] = [2]uint64{r.Uint64(), r.Uint64()}
			}
			f := &fpSet{slots: make([][2]uint64, slots)}
			var touch uint64
			// groups looks fps up as writeNew does: a group's first
			// slots loaded together, then each added (look, when not
			// adding: absent ones).
			groups := func(fps [][2]uint64, add, want bool) {
				for len(fps) > 0 {
					g := fps[:min(groupSize, len(fps))]
					fps = fps[len(g):]
					touch += f.load(g)
					for _, fp := range g {
						var got bool
						if add {
							got = f.add(fp)
						} else {
							got = !f.contains(fp)
						}
						if got != want {
							b.Fatalf("add(%x) or absent: %v, want %v", fp, got, want)
						}
					}
				}
			}
			var fill, found, missed int64
			b.ResetTimer()
			for range b.N {
				f.reset()
				t0 := cpuNanos()
				groups(fps, true, true)
				t1 := cpuNanos()
				groups(fps, true, false)
				t2 := cpuNanos()
				groups(absent, false, true)
				t3 := cpuNanos()
				fill += t1 - t0
				found += t2 - t1
				missed += t3 - t2
			}
			per := float64(b.N) * float64(n)
			b.ReportMetric(float64(fill)/per, "fill-cpu-ns/add")
			b.ReportMetric(float64(found)/per, "found-cpu-ns/op")
			b.ReportMetric(float64(missed)/per, "absent-cpu-ns/op")
			if touch == 1 {
				b.Log(touch)
			}
		})
	}
}

// contains reports whether fp is in the set, adding nothing.
func (f *fpSet) contains(fp [2]uint64) bool {
	if fp == [2]uint64{} {
		fp[1] = 1
	}
	mask := uint64(len(f.slots) - 1)
	for i := fp[1] & mask; ; i = (i + 1) & mask {
		switch f.slots[i] {
		case fp:
			return true
		case [2]uint64{}:
			return false
		}
	}
}

// TestShardWriterRemovesFiles: with every worker in the process
// (InProcess) a shard writer removes its batch files once its shard is
// written, as it drops the batches held in memory; on other runners the
// files stay for a retried writer, until the clean-up.
func TestShardWriterRemovesFiles(t *testing.T) {
	for _, inProcess := range []bool{true, false} {
		dir := t.TempDir()
		names := batchFiles(t, dir, 3, func(f int) string { return fmt.Sprintf("http://a.example/%d\nhttp://b.example/\n", f) })
		prefix := filepath.Join(dir, "out")
		w := &writeShardFn{Prefix: prefix, Kind: "canonical", Ext: "txt", Shards: 1, Dedup: true, InProcess: inProcess}
		err := w.ProcessElement(context.Background(), 0, fileIter(names), func(int) {})
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(ShardName(prefix, "canonical", "txt", 0, 1))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(string(data), "\n"); got != 4 {
			t.Errorf("InProcess %v: %d lines written, want 4", inProcess, got)
		}
		for _, name := range names {
			_, err := os.Stat(name)
			if inProcess && err == nil {
				t.Errorf("InProcess: %s left after its shard was written", name)
			}
			if !inProcess && err != nil {
				t.Errorf("not InProcess: %s removed before the clean-up: %v", name, err)
			}
		}
	}
}

// TestShardWriterRemovesFilesAsRead: in-process, a shard writer removes
// each batch file as soon as it has read it (its pages leave the page
// cache before the shard's output takes more), not once the shard is
// written: here the shard fails at its second file, which is missing,
// after its first is gone. On other runners the first file stays. With
// two passes the files stay until the last.
func TestShardWriterRemovesFilesAsRead(t *testing.T) {
	for _, inProcess := range []bool{true, false} {
		dir := t.TempDir()
		first := filepath.Join(dir, "b-1-canonical-00000-1")
		if err := os.WriteFile(first, []byte("http://a.example/\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		names := []string{first, filepath.Join(dir, "b-2-canonical-00000-1")}
		w := &writeShardFn{Prefix: filepath.Join(dir, "out"), Kind: "canonical", Ext: "txt", Shards: 1, Dedup: true, InProcess: inProcess}
		err := w.ProcessElement(context.Background(), 0, fileIter(names), func(int) { t.Error("a shard written without its second batch") })
		if err == nil || !strings.Contains(err.Error(), "b-2-canonical") {
			t.Errorf("InProcess %v: error %v, want one naming the missing batch file", inProcess, err)
		}
		_, statErr := os.Stat(first)
		if inProcess && statErr == nil {
			t.Error("InProcess: the first batch file left after it was read")
		}
		if !inProcess && statErr != nil {
			t.Errorf("not InProcess: the first batch file removed: %v", statErr)
		}
	}

	// Two passes (a table for one URL, two URLs): the files are read
	// twice, and gone after.
	dir := t.TempDir()
	names := batchFiles(t, dir, 2, func(f int) string { return fmt.Sprintf("http://a.example/%d\n", f) })
	w := &writeShardFn{Prefix: filepath.Join(dir, "out"), Kind: "canonical", Ext: "txt", Shards: 1, Dedup: true, InProcess: true, maxKeys: 1}
	n := 0
	err := w.ProcessElement(context.Background(), 0, fileIter(names), func(m int) { n = m })
	if err != nil || n != 2 {
		t.Errorf("two passes: %d lines written, error %v; want 2, nil", n, err)
	}
	for _, name := range names {
		if _, err := os.Stat(name); err == nil {
			t.Errorf("two passes: %s left after its shard was written", name)
		}
	}
}

// fileIter iterates over names as a shard writer's grouped input of batch
// file names does.
func fileIter(names []string) func(*string) bool {
	return func(s *string) bool {
		if len(names) == 0 {
			return false
		}
		*s, names = names[0], names[1:]
		return true
	}
}

// batchFiles writes n batch files of shard 0 in dir, file f holding
// body(f), named as writeBatches names them (their number of lines last).
func batchFiles(t *testing.T, dir string, n int, body func(f int) string) []string {
	t.Helper()
	var names []string
	for f := range n {
		b := body(f)
		name := filepath.Join(dir, fmt.Sprintf("b-%d-canonical-00000-%d", f, strings.Count(b, "\n")))
		if err := os.WriteFile(name, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}
