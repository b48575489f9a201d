package pipeline

import (
	"context"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/graphx"
	pipepb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/pipeline_v1"
	"google.golang.org/protobuf/proto"

	"github.com/urlkit/urlkit/beam/internal/multienv"
)

// TestNoBusyWaitShape: the pipeline, as it is submitted to a runner, has
// no step with side inputs, and every step run by the SDK workers leads,
// through the steps that consume its outputs, to a GroupByKey. Prism
// (Beam 2.77) busy-waits on the bundles of the other shapes until they
// end: its element manager re-schedules a stage with side inputs on every
// pass of its loop while that stage's bundle runs
// (engine/elementmanager.go: bundleReady, then startEventTimeBundle with
// nothing to start asks for a reschedule), and stage.Execute loops on the
// closed data channel of a stage without outputs (worker.B.Init closes
// DataWait when there are none). With one core that cost 0.5-0.9 s of CPU
// a run, more than the pipeline's own work on 10^6 lines.
func TestNoBusyWaitShape(t *testing.T) {
	for name, cfg := range map[string]Config{
		"lines":   {Input: "/nonexistent/*.txt"},
		"parts":   {Input: "/nonexistent/*.txt", Parts: 3},
		"extract": {Input: "/nonexistent/*.txt", Extract: true},
		"warc":    {InputWARC: "/nonexistent/*.warc", Input: "/nonexistent/*.txt"},
	} {
		cfg.Output = "/nonexistent/out"
		p, s := beam.NewPipelineWithRoot()
		if err := Build(s, cfg); err != nil {
			t.Fatal(err)
		}
		pb, err := multienv.Marshal(context.Background(), p, graphx.URNEnvExternal, func(context.Context) string { return "localhost:50000" })
		if err != nil {
			t.Fatal(err)
		}
		for _, problem := range busyWaitShapes(pb) {
			t.Errorf("%s: %s", name, problem)
		}
	}
}

// busyWaitShapes lists the steps of pb with side inputs, and the SDK
// steps from which no GroupByKey is reached.
func busyWaitShapes(pb *pipepb.Pipeline) []string {
	ts := pb.GetComponents().GetTransforms()
	consumers := map[string][]string{} // PCollection: leaf transforms
	for id, t := range ts {
		if len(t.GetSubtransforms()) > 0 {
			continue
		}
		for _, pc := range t.GetInputs() {
			consumers[pc] = append(consumers[pc], id)
		}
	}
	reaches := map[string]bool{} // transform: a GroupByKey is reached from it
	var reach func(id string, seen map[string]bool) bool
	reach = func(id string, seen map[string]bool) bool {
		if r, ok := reaches[id]; ok {
			return r
		}
		if seen[id] {
			return false
		}
		seen[id] = true
		t := ts[id]
		r := t.GetSpec().GetUrn() == graphx.URNGBK
		for _, pc := range t.GetOutputs() {
			for _, c := range consumers[pc] {
				r = r || reach(c, seen)
			}
		}
		reaches[id] = r
		return r
	}
	var problems []string
	for id, t := range ts {
		if len(t.GetSubtransforms()) > 0 {
			continue
		}
		if t.GetSpec().GetUrn() == graphx.URNParDo {
			var pardo pipepb.ParDoPayload
			if err := proto.Unmarshal(t.GetSpec().GetPayload(), &pardo); err != nil {
				problems = append(problems, id+": "+err.Error())
			} else if len(pardo.GetSideInputs()) > 0 {
				problems = append(problems, t.GetUniqueName()+" has side inputs")
			}
		}
		if t.GetEnvironmentId() != "" && !reach(id, map[string]bool{}) {
			problems = append(problems, t.GetUniqueName()+", run by the workers, leads to no GroupByKey")
		}
	}
	return problems
}
