package multienv

import (
	"context"
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
	edges, _, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	env, err := graphx.CreateEnvironment(context.Background(), graphx.URNEnvExternal, func(context.Context) string { return "localhost:50000" })
	if err != nil {
		t.Fatal(err)
	}
	pb, err := graphx.Marshal(edges, &graphx.Options{Environment: env})
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
	if err := Split(pb, func(name string) int { return pipeline.PartOf(name, n) }); err != nil {
		t.Fatal(err)
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
	if err := Split(pb, all); err == nil || !strings.Contains(err.Error(), `"go-1"`) {
		t.Errorf("a taken ID: %v", err)
	}
	pb = marshal(t, 2)
	delete(pb.GetComponents().GetEnvironments(), "go")
	if err := Split(pb, all); err == nil || !strings.Contains(err.Error(), `"go"`) {
		t.Errorf("no default environment: %v", err)
	}
}
