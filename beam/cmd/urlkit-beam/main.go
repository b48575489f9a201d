// Command urlkit-beam runs urlkit's link-set job as an Apache Beam
// pipeline: it reads text files by glob, one URL per line (or free text
// with --extract), and writes the distinct canonical URLs and the rejected
// lines with offset and reason (each in --shards files), the counts per
// status, scheme, host and rejection kind, and a summary table.
//
// Locally, on the Prism runner (in-process, nothing to start):
//
//	urlkit-beam --runner=prism --input='corpus/*.txt' --output=/tmp/links
//
// Through a job service over Beam's portable API, as on Flink or Spark:
// here Prism started as its own process (`go tool prism` in beam/), the
// binary staged as the workers' artifact, the workers in this process
// (LOOPBACK), in processes the runner starts (PROCESS) or in a worker
// pool (EXTERNAL):
//
//	urlkit-beam --runner=universal --endpoint=localhost:8073 --environment_type=LOOPBACK --input=... --output=...
//	urlkit-beam --runner=flink --endpoint=localhost:8099 --environment_type=LOOPBACK --input=... --output=...
//	urlkit-beam --runner=spark --endpoint=localhost:8099 --input=... --output=...
//	urlkit-beam --runner=dataflow --project=P --region=R --staging_location=gs://B/staging \
//	    --input='gs://B/links/*.txt' --output=gs://B/out/links
//
// On linux/amd64, --worker_binary defaults to this executable, which is
// what the workers of those runners run.
//
// Prism starts one worker per environment; --read_envs=N reads the lines
// in N parts, each in an environment of its own, so that with EXTERNAL
// workers N processes of the pool share them, as a cluster's machines
// would (beam/poolrun.sh runs that on one machine):
//
//	urlkit-beam --runner=universal --endpoint=localhost:8073 --environment_type=EXTERNAL \
//	    --environment_config=localhost:50000 --read_envs=2 --input=... --output=...
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/urlkit/urlkit/beam/internal/multienv"
	"github.com/urlkit/urlkit/beam/pipeline"
)

var (
	input     = flag.String("input", "", "glob of the files of lines (or, with --extract, of text) to read; a file named *.gz is read through gzip")
	inWARC    = flag.String("input-warc", "", "glob of WARC files to read: the links of the archived menus and listings and the URLs in the archived text documents; a record that cannot be read is a rejected line (kind bad-record) naming the file and the record's offset")
	output    = flag.String("output", "", "prefix of the output files (required): PREFIX-canonical-SSSSS-of-NNNNN.txt, PREFIX-rejected-SSSSS-of-NNNNN.tsv, PREFIX-counts.tsv, PREFIX-summary.txt")
	shards    = flag.Int("shards", pipeline.DefaultShards, "how many files the distinct canonical URLs and the rejected lines are each written to (1 to 99999); the worker writing a shard keeps 16 bytes for each of its URLs, up to 6,291,456 URLs (128 MiB) at a time, a shard with more in several passes")
	extract   = flag.Bool("extract", false, "read free text and take the URLs in it (RFC 1738 appendix: <URL:...> wrappers) instead of one URL per line")
	lenient   = flag.Bool("lenient", false, "repair what urlkit's lenient parser can repair instead of rejecting it")
	topHosts  = flag.Int("top_hosts", 20, "how many hosts the summary lists")
	readEnvs  = flag.Int("read_envs", 1, "read the lines (--input) in this many parts, each part the lines that start in its share of every file's bytes; with --runner=universal each part runs in an environment of its own (copies of --environment_type's), and a runner that starts one worker per environment, as Prism does, reads the lines in that many workers: with EXTERNAL, that many processes of the worker pool")
	keepCache = flag.Bool("keep_input_cache", false, "leave the input files' pages in the page cache; by default a local input file's pages are dropped as it is read (it is read once, and the batch files reuse the memory), so a second job on the same input reads it from disk")
	cpuProf   = flag.String("cpuprofile", "", "write a CPU profile of this process to `file` (go tool pprof reads it); on Prism in-process it covers the runner and the SDK worker")
)

func main() {
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: urlkit-beam --runner=prism {--input=GLOB | --input-warc=GLOB} --output=PREFIX [--shards=N] [--extract] [--lenient]\n\nFlags (urlkit's and Beam's):\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	// On a worker (the runner starts this binary with --worker), Init runs
	// the worker and does not return.
	beam.Init()
	if *input == "" && *inWARC == "" || *output == "" {
		fmt.Fprintln(os.Stderr, "urlkit-beam: --output and --input or --input-warc (or both) are required")
		flag.Usage()
		os.Exit(2)
	}
	if *shards < 1 || *shards > pipeline.MaxShards {
		fmt.Fprintf(os.Stderr, "urlkit-beam: --shards=%d: the number of shards is from 1 to %d\n", *shards, pipeline.MaxShards)
		os.Exit(2)
	}
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "urlkit-beam: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	// Beam's launcher leaves files in the temporary directory (an empty
	// beamloopbackworker-* file on every run with loopback workers, which
	// is every Prism run): give it a directory of its own, removed at the
	// end.
	if tmp, err := os.MkdirTemp("", "urlkit-beam-"); err == nil {
		defer os.RemoveAll(tmp)
		os.Setenv("TMPDIR", tmp)
	}
	// A portable runner's workers run the binary staged as an artifact;
	// without --worker_binary, Beam would try to compile this program from
	// source. This executable is that binary for linux/amd64 workers.
	if f := flag.Lookup("worker_binary"); f != nil && f.Value.String() == "" && runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
		if exe, err := os.Executable(); err == nil {
			f.Value.Set(exe)
		}
	}
	if *cpuProf != "" {
		stop, err := startCPUProfile(*cpuProf)
		if err != nil {
			return err
		}
		defer stop()
	}
	p, s := beam.NewPipelineWithRoot()
	cfg := pipeline.Config{Input: *input, InputWARC: *inWARC, Output: *output, Shards: *shards, Extract: *extract, Lenient: *lenient, TopHosts: *topHosts, Parts: *readEnvs, InProcess: pipeline.WorkersInProcess(), KeepInputCache: *keepCache}
	if err := pipeline.Build(s, cfg); err != nil {
		return err
	}
	if *readEnvs > 1 && portable[flag.Lookup("runner").Value.String()] {
		_, err := multienv.Execute(context.Background(), p, func(name string) int { return pipeline.PartOf(name, *readEnvs) })
		return err
	}
	return beamx.Run(context.Background(), p)
}

// portable are the names of Beam's universal runner, which submits to a
// job service over the portable API.
var portable = map[string]bool{"universal": true, "portable": true, "PortableRunner": true}

// startCPUProfile starts a CPU profile written to name; stop ends it and
// closes the file.
func startCPUProfile(name string) (stop func(), err error) {
	f, err := os.Create(name)
	if err != nil {
		return nil, fmt.Errorf("creating the CPU profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("starting the CPU profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "urlkit-beam: writing the CPU profile: %v\n", err)
		}
	}, nil
}
