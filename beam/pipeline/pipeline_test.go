package pipeline

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/urlkit/urlkit/linkset"
)

// run builds the pipeline over the given files and runs it on Prism; it
// returns the lines of each output (kind "canonical.txt", "rejected.tsv",
// "counts.tsv", "summary.txt"), the sharded ones read as the union of
// their shards, sorted except the summary (Beam does not keep order).
func run(t *testing.T, cfg Config, files map[string]string) map[string][]string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if cfg.Input == "" && cfg.InputWARC == "" {
		cfg.Input = filepath.Join(dir, "*.txt")
	}
	cfg.Output = filepath.Join(dir, "out")
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := prism.Execute(context.Background(), p); err != nil {
		t.Fatalf("prism: %v", err)
	}
	return readOutputs(t, cfg.Output, cfg.shards())
}

// readOutputs reads the outputs under prefix as run returns them: every
// shard of the sharded outputs must be there, each .tsv file must start
// with its header, and no other file may start with the prefix (a
// temporary file left behind, a shard of another count).
func readOutputs(t *testing.T, prefix string, shards int) map[string][]string {
	t.Helper()
	want := map[string]bool{prefix + "-counts.tsv": true, prefix + "-summary.txt": true}
	for i := range shards {
		want[ShardName(prefix, "canonical", "txt", i, shards)] = true
		want[ShardName(prefix, "rejected", "tsv", i, shards)] = true
	}
	got, err := filepath.Glob(prefix + "*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range got {
		if !want[f] {
			t.Errorf("unexpected output file %s", f)
		}
	}
	out := map[string][]string{}
	for name := range want {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if len(lines) == 1 && lines[0] == "" {
			lines = nil
		}
		kind := strings.TrimPrefix(name, prefix+"-")
		if i := strings.Index(kind, "-"); i >= 0 {
			kind = kind[:i] + filepath.Ext(kind)
		}
		if strings.HasSuffix(kind, ".tsv") {
			header := CountsHeader
			if kind == "rejected.tsv" {
				header = RejectedHeader
			}
			if len(lines) == 0 || lines[0] != header {
				t.Fatalf("%s: no header: %q", name, lines)
			}
			lines = lines[1:]
		}
		out[kind] = append(out[kind], lines...)
	}
	for kind, lines := range out {
		if kind != "summary.txt" {
			sort.Strings(lines)
		}
	}
	return out
}

func TestLines(t *testing.T) {
	out := run(t, Config{}, map[string]string{
		// RFC 1630: %41 and A are one URL; RFC 1738 3.1: scheme and host
		// are case-insensitive and an empty path is "/".
		"a.txt": "HTTP://Info.CERN.CH\nhttp://info.cern.ch/\n  http://info.cern.ch/%41  \n\nhttp://info.cern.ch/A\n",
		// RFC 1738 2.2: unsafe characters must be encoded.
		"b.txt": "gopher://gopher.tc.umn.edu/11/Libraries\nhttp://a.b/x y\nhttp://a.b/%zz\nnews:comp.infosystems.www\nhttp://u@a.b/\n",
	})
	want := []string{
		"gopher://gopher.tc.umn.edu/11/Libraries",
		"http://a.b/x%20y", // only with --lenient; see below
		"http://info.cern.ch/",
		"http://info.cern.ch/A",
		"news:comp.infosystems.www",
	}
	strictWant := append(append([]string{}, want[:1]...), want[2:]...)
	if got := out["canonical.txt"]; strings.Join(got, "\n") != strings.Join(strictWant, "\n") {
		t.Errorf("canonical:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(strictWant, "\n"))
	}
	if got := out["rejected.tsv"]; len(got) != 3 ||
		!strings.HasPrefix(got[0], "http://a.b/%zz\tbad-escape\t11\t") ||
		!strings.HasPrefix(got[1], "http://a.b/x y\tunsafe-char\t12\t") ||
		!strings.HasPrefix(got[2], "http://u@a.b/\tnot-allowed\t7\t") {
		t.Errorf("rejected: %q", got)
	}
	counts := strings.Join(out["counts.tsv"], "\n")
	for _, c := range []string{
		"status\tvalid\t6", "status\trejected\t3",
		"scheme\thttp\t4", "scheme\tgopher\t1", "scheme\tnews\t1",
		"host\tinfo.cern.ch\t4",
		"kind\tbad-escape\t1", "kind\tunsafe-char\t1", "kind\tnot-allowed\t1",
	} {
		if !strings.Contains("\n"+counts+"\n", "\n"+c+"\n") {
			t.Errorf("counts lack %q:\n%s", c, counts)
		}
	}
	sum := strings.Join(out["summary.txt"], "\n")
	for _, c := range []string{"lines\t9", "valid\t6", "rejected\t3", "distinct canonical\t4", "top hosts\tcount\ninfo.cern.ch\t4\n"} {
		if !strings.Contains(sum, c) {
			t.Errorf("summary lacks %q:\n%s", c, sum)
		}
	}

	lenient := run(t, Config{Lenient: true}, map[string]string{"b.txt": "http://a.b/x y\nhttp://a.b/x%20y\n"})
	if got := lenient["canonical.txt"]; len(got) != 1 || got[0] != "http://a.b/x%20y" {
		t.Errorf("lenient canonical: %q", got)
	}
	if !strings.Contains(strings.Join(lenient["counts.tsv"], "\n"), "status\trepaired\t1") {
		t.Errorf("lenient counts: %q", lenient["counts.tsv"])
	}
}

func TestExtract(t *testing.T) {
	// RFC 1738 appendix: <URL:...> wrappers, white space inside them
	// ignored; the 1993 draft's trailing-dot host is rejected (RFC 1738 3.1).
	out := run(t, Config{Extract: true}, map[string]string{
		"note.txt": "Try <URL:ftp://ftp.funet.fi/pub/\n   README> or http://info.cern.ch/hypertext/WWW/TheProject.html.\n" +
			"Old style: <URL:http://info.cern.ch./>\n",
	})
	if got := strings.Join(out["canonical.txt"], " "); got != "ftp://ftp.funet.fi/pub/README http://info.cern.ch/hypertext/WWW/TheProject.html" {
		t.Errorf("canonical: %q", got)
	}
	if got := out["rejected.tsv"]; len(got) != 1 || !strings.HasPrefix(got[0], "http://info.cern.ch./\tbad-host\t") {
		t.Errorf("rejected: %q", got)
	}
	if c := strings.Join(out["counts.tsv"], "\n"); !strings.Contains(c, "status\trejected\t1") || !strings.Contains(c, "status\tvalid\t2") {
		t.Errorf("counts: %s", c)
	}
}

func TestMain(m *testing.M) {
	flag.Parse()
	beam.Init()
	// Beam's launcher leaves a file in the temporary directory on every
	// Prism run (as urlkit-beam does, the tests give it their own).
	tmp, err := os.MkdirTemp("", "urlkit-beam-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("TMPDIR", tmp)
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

// TestShards runs the pipeline over many small files that repeat each
// other's URLs (so that several bundles meet the same URL) with 1, 3 and
// the default number of shards: every shard file is there, empty ones
// too (readOutputs checks), the union of the shards is the same each time
// and is what linkset.Classify gives line by line, and the rejected lines
// are all there, each time they occur; the batches held in memory
// (Config.InProcess), all or some of them, give the same outputs.
func TestShards(t *testing.T) {
	files := map[string]string{}
	distinct := map[string]bool{}
	for i := range 40 {
		var b strings.Builder
		for j := range 50 {
			// Each URL in four files, written two ways (RFC 1630: %41 is
			// A; RFC 1738 3.1: the scheme and host are case-insensitive).
			n := i/4*50 + j
			line := fmt.Sprintf("%s://Host%d.example/%%41/%d", []string{"http", "HTTP", "ftp", "FTP"}[i%4], n%7, n)
			b.WriteString(line + "\n")
			distinct[linkset.Classify(line, linkset.Options{}).Canonical] = true
		}
		b.WriteString("http://a.example/x y\n") // RFC 1738 2.2: rejected, in every file
		files[fmt.Sprintf("f%02d.txt", i)] = b.String()
	}
	if len(distinct) != 1000 {
		t.Fatalf("the input has %d distinct canonical URLs, want 1000", len(distinct))
	}
	var want map[string][]string
	for _, shards := range []int{1, 3, 0} {
		out := run(t, Config{Shards: shards}, files)
		if shards != 3 {
			// The batches in memory (Config.InProcess), and with room
			// for only a few of them, the others in files: the same
			// outputs, and nothing left in memory at the end.
			for _, room := range []int{maxMemBatchBytes, 4 << 10} {
				kept := memBatches.kept
				maxMemBatchBytes, room = room, maxMemBatchBytes
				mem := run(t, Config{Shards: shards, InProcess: true}, files)
				maxMemBatchBytes = room
				if memBatches.kept == kept {
					t.Errorf("%d shards, in process: no batch held in memory", shards)
				}
				if len(memBatches.m) != 0 || memBatches.bytes != 0 {
					t.Errorf("%d shards, in process: %d batches (%d bytes) left in memory", shards, len(memBatches.m), memBatches.bytes)
				}
				for _, kind := range []string{"canonical.txt", "rejected.tsv", "counts.tsv", "summary.txt"} {
					if strings.Join(mem[kind], "\n") != strings.Join(out[kind], "\n") {
						t.Errorf("%d shards: %s in process differs from through files", shards, kind)
					}
				}
			}
		}
		if want == nil {
			want = out
			for _, u := range out["canonical.txt"] {
				if !distinct[u] {
					t.Errorf("%d shards: %q is not the canonical form of an input line", shards, u)
				}
			}
			if n := len(out["canonical.txt"]); n != len(distinct) {
				t.Errorf("%d shards: %d canonical URLs, want %d", shards, n, len(distinct))
			}
			if n := len(out["rejected.tsv"]); n != 40 {
				t.Errorf("%d shards: %d rejected lines, want 40", shards, n)
			}
			continue
		}
		for _, kind := range []string{"canonical.txt", "rejected.tsv", "counts.tsv", "summary.txt"} {
			if strings.Join(out[kind], "\n") != strings.Join(want[kind], "\n") {
				t.Errorf("%d shards: %s differs from one shard's", shards, kind)
			}
		}
	}
}

// TestBuildErrors: a pipeline without input or output, with a number of
// shards or parts out of range, or in parts for other input than lines,
// is refused with a message saying so.
func TestBuildErrors(t *testing.T) {
	for _, cfg := range []Config{
		{Output: "/tmp/x"},
		{Input: "/tmp/*.txt"},
		{Input: "/tmp/*.txt", Output: "/tmp/x", Shards: -1},
		{Input: "/tmp/*.txt", Output: "/tmp/x", Shards: MaxShards + 1},
		{Input: "/tmp/*.txt", Output: "/tmp/x", Parts: -1},
		{Input: "/tmp/*.txt", Output: "/tmp/x", Parts: MaxParts + 1},
		{Input: "/tmp/*.txt", Output: "/tmp/x", Parts: 2, Extract: true},
		{InputWARC: "/tmp/*.warc", Output: "/tmp/x", Parts: 2},
	} {
		_, s := beam.NewPipelineWithRoot()
		if err := Build(s, cfg); err == nil {
			t.Errorf("Build(%+v): no error", cfg)
		} else if !strings.HasPrefix(err.Error(), "urlkit-beam: ") {
			t.Errorf("Build(%+v): %v", cfg, err)
		}
	}
}

// TestWorkersInProcess: the batches may stay in memory only when Beam's
// flags put every worker in this process: Prism started in-process (no
// endpoint, LOOPBACK by default) or LOOPBACK workers (the Beam Go SDK's
// environment types: the workers of a PROCESS, EXTERNAL or DOCKER
// environment are other processes, and Dataflow's are other machines).
func TestWorkersInProcess(t *testing.T) {
	runner, endpoint, env := *runners.Runner, *jobopts.Endpoint, *jobopts.EnvironmentType
	defer func() { *runners.Runner, *jobopts.Endpoint, *jobopts.EnvironmentType = runner, endpoint, env }()
	for _, c := range []struct {
		runner, endpoint, env string
		want                  bool
	}{
		{"prism", "", "", true},
		{"prism", "", "LOOPBACK", true},
		{"prism", "localhost:8073", "", false},
		{"prism", "", "PROCESS", false},
		{"universal", "localhost:8073", "LOOPBACK", true},
		{"universal", "localhost:8073", "loopback", true},
		{"flink", "localhost:8099", "LOOPBACK", true},
		{"universal", "localhost:8073", "EXTERNAL", false},
		{"universal", "localhost:8073", "", false},
		{"dataflow", "", "LOOPBACK", false},
		{"", "", "", false},
	} {
		*runners.Runner, *jobopts.Endpoint, *jobopts.EnvironmentType = c.runner, c.endpoint, c.env
		if got := WorkersInProcess(); got != c.want {
			t.Errorf("--runner=%q --endpoint=%q --environment_type=%q: WorkersInProcess() = %v, want %v", c.runner, c.endpoint, c.env, got, c.want)
		}
	}
}
