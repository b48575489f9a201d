package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

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
	bn.start(context.Background(), linkset.Options{}, DefaultShards, b.TempDir(), dropFile, dropFile, drop)
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
