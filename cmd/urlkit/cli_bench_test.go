package main

import (
	"bytes"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/linkset"
)

// cpuTime is the process's CPU time (user + system) in nanoseconds: on a
// shared machine it varies far less than wall time.
func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// adaDatasets returns the four ada-url datasets (../shared/corpora, or
// $URLKIT_CORPORA), one after the other, or skips the benchmark.
func adaDatasets(b *testing.B) []byte {
	in := adaDatasetsOpt()
	if in == nil {
		b.Skip("the ada-url datasets are not there (../shared/corpora or $URLKIT_CORPORA)")
	}
	return in
}

// adaDatasetsOpt returns the datasets, or nil when they are not there.
func adaDatasetsOpt() []byte {
	dir := os.Getenv("URLKIT_CORPORA")
	if dir == "" {
		dir = "../../../shared/corpora"
	}
	var in []byte
	for _, f := range []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"} {
		d, err := os.ReadFile(filepath.Join(dir, "ada-url-datasets", f))
		if err != nil {
			return nil
		}
		in = append(in, d...)
	}
	return in
}

// BenchmarkCLI runs whole commands in-process over the ada-url datasets
// (../shared/corpora), output discarded: the per-URL cost of the line
// engine, the work and the formatting, with one worker.
func BenchmarkCLI(b *testing.B) {
	in := adaDatasets(b)
	lines := bytes.Count(in, []byte{'\n'})
	urls := strings.Split(strings.TrimSuffix(string(in), "\n"), "\n")
	// The floor: the library alone doing canon's work (linkset.Parse and
	// urlkit.Canonical), and net/url parsing
	// and printing, on the same lines, into a buffer.
	b.Run("floor-canon-library", func(b *testing.B) {
		var out []byte
		cpu0 := cpuTime()
		for b.Loop() {
			for _, s := range urls {
				out = out[:0]
				if u, _, err := linkset.Parse(s, linkset.Options{}); err == nil {
					out = append(out, urlkit.Canonical(u).String()...)
				}
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N*lines), "cpu-ns/url")
	})
	b.Run("floor-neturl", func(b *testing.B) {
		var out []byte
		cpu0 := cpuTime()
		for b.Loop() {
			for _, s := range urls {
				out = out[:0]
				if u, err := url.Parse(s); err == nil {
					out = append(out, u.String()...)
				}
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N*lines), "cpu-ns/url")
	})
	// The rejected lines alone (5% of the input; most get the --lenient
	// hint): what parse pays per line it rejects, with its message on
	// standard error and, with --json, its error object.
	var bad bytes.Buffer
	for _, s := range urls {
		if _, err := urlkit.Parse(s); err != nil && strings.TrimSpace(s) != "" {
			bad.WriteString(s)
			bad.WriteByte('\n')
		}
	}
	badLines := bytes.Count(bad.Bytes(), []byte{'\n'})
	for _, c := range [][]string{{"parse"}, {"parse", "--json"}} {
		b.Run("rejected-"+c[0]+map[bool]string{true: "-json"}[len(c) > 1], func(b *testing.B) {
			cpu0 := cpuTime()
			for b.Loop() {
				e := &env{stdin: bytes.NewReader(bad.Bytes()), stdout: io.Discard, stderr: io.Discard, getenv: os.Getenv}
				run(e, append([]string{c[0], "--workers", workersForBench}, c[1:]...))
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N*badLines), "cpu-ns/url")
		})
	}
	for _, c := range [][]string{{"canon"}, {"parse"}, {"parse", "--json"}} {
		b.Run(c[0]+map[bool]string{true: "-json"}[len(c) > 1], func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			cpu0 := cpuTime()
			for b.Loop() {
				e := &env{stdin: bytes.NewReader(in), stdout: io.Discard, stderr: io.Discard, getenv: os.Getenv}
				run(e, append([]string{c[0], "--workers", workersForBench}, c[1:]...))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*lines), "ns/url")
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N*lines), "cpu-ns/url")
		})
	}
}

// workersForBench is the --workers of BenchmarkCLI: 1, or
// URLKIT_BENCH_WORKERS to see the cost of handing batches between
// goroutines.
var workersForBench = func() string {
	if w := os.Getenv("URLKIT_BENCH_WORKERS"); w != "" {
		return w
	}
	return "1"
}()

// The line engine and the JSON writer cost no allocation per line (the
// input and the writer are reused per batch), and parse --json one: the
// scheme's typed view (issue 25 item 8). Valid http, https and file URLs,
// one worker.
func TestLineAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	var b strings.Builder
	for range 1000 {
		b.WriteString("http://www.example.com/a/b?c=d\nfile:///usr/share/doc/x/README.txt\nhttps://h.example:8443/p%20q/r\n")
	}
	in := []byte(b.String())
	for _, tc := range []struct {
		args []string
		max  float64
	}{
		{[]string{"parse", "--json"}, 0.1}, // the view in the batch's storage (scheme.ViewInto)
		{[]string{"parse"}, 0.1},
		{[]string{"canon"}, 0.5},
	} {
		n := testing.AllocsPerRun(3, func() {
			run(&env{stdin: bytes.NewReader(in), stdout: io.Discard, stderr: io.Discard, getenv: os.Getenv}, append(tc.args, "--workers", "1"))
		}) / 3000
		if n > tc.max {
			t.Errorf("%q: %.3f allocations per line, want at most %.1f", tc.args, n, tc.max)
		}
	}
}
