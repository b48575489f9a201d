package pipeline

import (
	"bufio"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/urlkit/urlkit/beam/internal/distinct"
	"github.com/urlkit/urlkit/linkset"
)

// adaLines returns the lines of the ada-url datasets, or skips.
func adaLines(b *testing.B) []string {
	b.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "corpora", "ada-url-datasets", "*.txt"))
	if len(files) == 0 {
		b.Skip("no ada-url datasets in ../shared/corpora")
	}
	var lines []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		lines = append(lines, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")...)
	}
	return lines
}

// cpuNanos is the process's CPU time (user and system): on a shared
// machine the benchmarks report CPU per line (cpu-ns/op) beside the wall
// time.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func reportCPU(b *testing.B, cpu0 int64) {
	b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkClassify is the per-line work alone: linkset.Classify of each
// line, as `urlkit canon` does it.
func BenchmarkClassify(b *testing.B) {
	lines := adaLines(b)
	b.ResetTimer()
	cpu0 := cpuNanos()
	for i := 0; i < b.N; i++ {
		s, ok := linkset.Line(lines[i%len(lines)])
		if ok {
			linkset.Classify(s, linkset.Options{})
		}
	}
	reportCPU(b, cpu0)
}

// BenchmarkBundle is the reading step's work per line: Classify, then the
// bundle's dedup, counts and batches (emitted to nowhere).
func BenchmarkBundle(b *testing.B) {
	lines := adaLines(b)
	drop := func(int, []byte) {}
	dropFile := func(int, string) {}
	var bn bundle
	bn.start(context.Background(), linkset.Options{}, DefaultShards, b.TempDir(), false, dropFile, dropFile, drop)
	b.ResetTimer()
	cpu0 := cpuNanos()
	for i := 0; i < b.N; i++ {
		bn.line(lines[i%len(lines)])
	}
	bn.drain()
	if bn.seen.len() == 0 {
		b.Fatal("no URL seen")
	}
	if err := bn.finish(); err != nil {
		b.Fatal(err)
	}
	reportCPU(b, cpu0)
}

// distinctLines is n lines made from the ada-url datasets, each with a
// path segment of its own (package distinct): every line with an
// authority a different canonical URL, as in a crawl's link set.
func distinctLines(b *testing.B, n int) []string {
	base := adaLines(b)
	out := make([]string, n)
	var line []byte
	for i := range out {
		line = distinct.Line(line[:0], base[i%len(base)], uint64(i))
		out[i] = string(line)
	}
	return out
}

// BenchmarkDistinct holds the ratio of issue 38 on distinct input: the
// pipeline's own work per line (the reading step's bundle with its batch
// files, then the shard writers: each shard's batch files read, its URLs
// kept once by fingerprint and written) against the command line's (`urlkit
// canon`: each line read, its canonical form written to a file), both
// measured in CPU time (user and system, as the scale table) in the same
// run, side by side, over the same 2^20 lines. It reports each side's
// cpu-ns/line and the ratio (what Beam's runner adds comes on top: see
// beam/scale.sh).
//
// Its two cases: the batches held in memory (batches=memory: every worker
// in one process, as Prism in-process runs it) and written to files
// (batches=files: as a cluster's workers pass them).
func BenchmarkDistinct(b *testing.B) {
	lines := distinctLines(b, 1<<20)
	for _, inMemory := range []bool{true, false} {
		name := "batches=files"
		if inMemory {
			name = "batches=memory"
		}
		b.Run(name, func(b *testing.B) { benchmarkDistinct(b, lines, inMemory) })
	}
}

func benchmarkDistinct(b *testing.B, lines []string, inMemory bool) {
	dir := b.TempDir()
	var canonCPU, pipeCPU int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c0 := cpuNanos()
		canonSide(b, lines, filepath.Join(dir, "canon.out"))
		c1 := cpuNanos()
		pipelineSide(b, lines, filepath.Join(dir, "p"), inMemory)
		c2 := cpuNanos()
		canonCPU += c1 - c0
		pipeCPU += c2 - c1
	}
	n := float64(b.N) * float64(len(lines))
	b.ReportMetric(float64(canonCPU)/n, "canon-cpu-ns/line")
	b.ReportMetric(float64(pipeCPU)/n, "pipeline-cpu-ns/line")
	b.ReportMetric(float64(pipeCPU)/float64(canonCPU), "ratio")
}

// canonSide is `urlkit canon`'s work on lines: each read by the command
// line's rule, its canonical form written to a file (what the pipeline's
// canonical shards hold, before dedup).
func canonSide(b *testing.B, lines []string, name string) {
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 64<<10)
	for _, l := range lines {
		if s, ok := linkset.Line(l); ok {
			if r := linkset.Classify(s, linkset.Options{}); r.Status != linkset.Rejected {
				w.WriteString(r.Canonical)
				w.WriteByte('\n')
			}
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	os.Remove(name)
}

// pipelineSide is the pipeline's work on lines without the runner: one
// bundle of the reading step (batch files in a directory of prefix), then
// every canonical shard's writer; its batches held in memory or written
// to files.
func pipelineSide(b *testing.B, lines []string, prefix string, inMemory bool) {
	ctx := context.Background()
	tmp := prefix + "-tmp"
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		b.Fatal(err)
	}
	files := make([][]string, DefaultShards)
	var bn bundle
	bn.start(ctx, linkset.Options{}, DefaultShards, tmp, inMemory,
		func(sh int, name string) { files[sh] = append(files[sh], name) },
		func(int, string) {}, func(int, []byte) {})
	for _, l := range lines {
		bn.line(l)
	}
	if err := bn.finish(); err != nil {
		b.Fatal(err)
	}
	w := &writeShardFn{Prefix: prefix, Kind: "canonical", Ext: "txt", Shards: DefaultShards, Dedup: true}
	total := 0
	for sh, names := range files {
		err := w.ProcessElement(ctx, sh, fileIter(names), func(n int) { total += n })
		if err != nil {
			b.Fatal(err)
		}
	}
	if total == 0 {
		b.Fatal("no URL written")
	}
	os.RemoveAll(tmp)
	for sh := range DefaultShards {
		os.Remove(ShardName(prefix, "canonical", "txt", sh, DefaultShards))
	}
}

// BenchmarkPrismOneLine is the runner's fixed cost: the whole pipeline
// run on Prism in-process over one line with one core (GOMAXPROCS=1), in
// CPU time per run (cpu-ns/op; the job service stays up between runs, as
// it does in a process that runs several pipelines). A shape on which
// Prism busy-waits (see TestNoBusyWaitShape) costs 0.5-0.9 s of CPU a run
// here, against 0.1 s without.
func BenchmarkPrismOneLine(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("http://example.com/a\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	// Prism's job messages, a few a run, would break the benchmark's lines.
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	b.ResetTimer()
	cpu0 := cpuNanos()
	for i := range b.N {
		p, s := beam.NewPipelineWithRoot()
		out := filepath.Join(dir, "out"+strconv.Itoa(i))
		if err := Build(s, Config{Input: filepath.Join(dir, "in.txt"), Output: out, InProcess: true}); err != nil {
			b.Fatal(err)
		}
		if _, err := prism.Execute(context.Background(), p); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0)
}
