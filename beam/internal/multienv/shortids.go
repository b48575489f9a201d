package multienv

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/util/hooks"
	fnpb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/fnexecution_v1"
)

// The workers' metrics reach the runner keyed by short IDs that each
// worker process numbers on its own from 1 (Beam 2.77,
// core/runtime/harness/monitoring.go, shortIDCache), which the Fn API
// allows: a short ID means something only with the worker that gave it.
// Prism keeps one table of short IDs per job, not per worker
// (runners/prism/internal/jobservices/metrics.go, metricsStore), so with
// two workers the second's ID 1 is read as the first's ID 1: a count
// counted to another step, or, when one is a sum and the other a
// distribution, a panic that fails the job ("error decoding metrics",
// metrics.go, contributeMetrics). With one environment, as every Go
// pipeline has, there is one worker and no clash.
//
// The hook below, enabled by Execute and run by every worker, makes the
// IDs distinct: each worker process puts a tag of its own (random) before
// the short IDs of its responses, and takes it off the IDs the runner
// asks it to describe.
const shortIDHook = "urlkit_worker_short_ids"

func init() {
	hooks.RegisterHook(shortIDHook, func([]string) hooks.Hook {
		t := newTagger()
		return hooks.Hook{Req: t.request, Resp: t.response}
	})
}

// A tagger puts its tag before a worker's short IDs.
type tagger struct{ tag string }

func newTagger() tagger {
	return tagger{tag: strconv.FormatUint(rand.Uint64(), 36) + "."}
}

// request takes the tag off the IDs of a request for the description of
// short IDs.
func (t tagger) request(ctx context.Context, req *fnpb.InstructionRequest) (context.Context, error) {
	if m := req.GetMonitoringInfos(); m != nil {
		for i, id := range m.GetMonitoringInfoId() {
			m.MonitoringInfoId[i] = strings.TrimPrefix(id, t.tag)
		}
	}
	return ctx, nil
}

// response puts the tag before the short IDs of a response: the metrics
// of a bundle, finished or in progress, and the descriptions of IDs.
func (t tagger) response(_ context.Context, _ *fnpb.InstructionRequest, resp *fnpb.InstructionResponse) error {
	if r := resp.GetProcessBundle(); r != nil {
		r.MonitoringData = tagKeys(t.tag, r.GetMonitoringData())
	}
	if r := resp.GetProcessBundleProgress(); r != nil {
		r.MonitoringData = tagKeys(t.tag, r.GetMonitoringData())
	}
	if r := resp.GetMonitoringInfos(); r != nil {
		r.MonitoringInfo = tagKeys(t.tag, r.GetMonitoringInfo())
	}
	return nil
}

func tagKeys[V any](tag string, m map[string]V) map[string]V {
	if len(m) == 0 {
		return m
	}
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[tag+k] = v
	}
	return out
}
