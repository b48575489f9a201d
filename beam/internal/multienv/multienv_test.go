package multienv

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/graphx"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	pipepb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/pipeline_v1"
	"google.golang.org/protobuf/proto"

	"github.com/urlkit/urlkit/beam/pipeline"
)

// marshal is the pipeline in n parts as the universal runner submits it,
// its workers in an EXTERNAL environment.
func marshal(t *testing.T, n int) *pipepb.Pipeline {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	if err := pipeline.Build(s, pipeline.Config{Input: "/nonexistent/*.txt", Output: "/nonexistent/out", Parts: n}); err != nil {
		t.Fatal(err)
	}
	pb, err := Marshal(context.Background(), p, graphx.URNEnvExternal, func(context.Context) string { return "localhost:50000" })
	if err != nil {
		t.Fatal(err)
	}
	return pb
}

// TestSplit: with the reading in three parts, parts two and three are
// each in an environment of their own, a copy of the default one (Beam's
// runner API: PTransform.environment_id names one of
// Components.environments), and every other step is where it was: the
// runner's own steps (no environment) and the rest in the default one.
func TestSplit(t *testing.T) {
	const n = 3
	pb := marshal(t, n)
	before := proto.Clone(pb).(*pipepb.Pipeline)
	made, err := Split(pb, func(name string) int { return pipeline.PartOf(name, n) })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(made, " ") != "go-1 go-2" {
		t.Errorf("Split made environments %q, want go-1 and go-2", made)
	}
	envs := pb.GetComponents().GetEnvironments()
	def := before.GetComponents().GetEnvironments()["go"]
	if def == nil || len(before.GetComponents().GetEnvironments()) != 1 {
		t.Fatalf("the marshalled pipeline's environments: %v", before.GetComponents().GetEnvironments())
	}
	if len(envs) != n {
		t.Errorf("%d environments after the split, want %d", len(envs), n)
	}
	for _, id := range []string{"go", "go-1", "go-2"} {
		if !proto.Equal(envs[id], def) {
			t.Errorf("environment %q is not the default one: %v", id, envs[id])
		}
	}
	readers := map[string]bool{}
	for id, tr := range pb.GetComponents().GetTransforms() {
		was := before.GetComponents().GetTransforms()[id].GetEnvironmentId()
		want := was
		if len(tr.GetSubtransforms()) == 0 {
			switch {
			case strings.Contains(tr.GetUniqueName(), "/read part 2 of 3/"):
				want = "go-1"
			case strings.Contains(tr.GetUniqueName(), "/read part 3 of 3/"):
				want = "go-2"
			}
		}
		if got := tr.GetEnvironmentId(); got != want {
			t.Errorf("step %q is in environment %q, want %q", tr.GetUniqueName(), got, want)
		}
		if strings.HasSuffix(tr.GetUniqueName(), "readLinesFn") {
			readers[tr.GetEnvironmentId()] = true
		}
	}
	if len(readers) != n {
		t.Errorf("the line readers are in environments %v, want %d", readers, n)
	}
}

// TestSplitErrors: a step in an environment the pipeline lacks, or a copy
// whose ID the pipeline already uses, is an error.
func TestSplitErrors(t *testing.T) {
	all := func(string) int { return 1 }
	pb := marshal(t, 2)
	pb.GetComponents().GetEnvironments()["go-1"] = &pipepb.Environment{Urn: "other"}
	if _, err := Split(pb, all); err == nil || !strings.Contains(err.Error(), `"go-1"`) {
		t.Errorf("a taken ID: %v", err)
	}
	pb = marshal(t, 2)
	delete(pb.GetComponents().GetEnvironments(), "go")
	if _, err := Split(pb, all); err == nil || !strings.Contains(err.Error(), `"go"`) {
		t.Errorf("no default environment: %v", err)
	}
}

// TestRenameWorker: an environment's Go worker binary is named by a link
// of its own to the same file, with the same checksum (Beam's runner API:
// ArtifactFilePayload path and sha256); an environment without one is an
// error.
func TestRenameWorker(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "worker")
	if err := os.WriteFile(bin, []byte("binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	pl, err := proto.Marshal(&pipepb.ArtifactFilePayload{Path: bin, Sha256: "abc"})
	if err != nil {
		t.Fatal(err)
	}
	env := &pipepb.Environment{Dependencies: []*pipepb.ArtifactInformation{
		{TypeUrn: graphx.URNArtifactFileType, RoleUrn: "other", TypePayload: pl},
		{TypeUrn: graphx.URNArtifactFileType, RoleUrn: graphx.URNArtifactGoWorkerRole, TypePayload: pl},
	}}
	link := filepath.Join(dir, "worker-go-1")
	if err := renameWorker(env, bin, link); err != nil {
		t.Fatal(err)
	}
	var got pipepb.ArtifactFilePayload
	if err := proto.Unmarshal(env.GetDependencies()[1].GetTypePayload(), &got); err != nil {
		t.Fatal(err)
	}
	if got.GetPath() != link || got.GetSha256() != "abc" {
		t.Errorf("the worker binary is %v, want %s with the checksum abc", &got, link)
	}
	if b, err := os.ReadFile(link); err != nil || string(b) != "binary" {
		t.Errorf("the link reads %q, %v", b, err)
	}
	if !proto.Equal(env.GetDependencies()[0], &pipepb.ArtifactInformation{TypeUrn: graphx.URNArtifactFileType, RoleUrn: "other", TypePayload: pl}) {
		t.Errorf("another dependency changed: %v", env.GetDependencies()[0])
	}
	if err := renameWorker(&pipepb.Environment{}, bin, filepath.Join(dir, "worker-go-2")); err == nil {
		t.Error("an environment without a worker binary: no error")
	}
}
