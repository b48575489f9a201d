package pipeline

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
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
	if cfg.Input == "" {
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
	os.Exit(m.Run())
}
