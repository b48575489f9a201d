package multienv

import (
	"context"
	"testing"

	fnpb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/fnexecution_v1"
	pipepb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/pipeline_v1"
)

// TestTagger: two workers' taggers make distinct IDs of the same short ID
// in every response that carries metrics (Beam's Fn API:
// ProcessBundleResponse and ProcessBundleProgressResponse monitoring_data,
// MonitoringInfosMetadataResponse monitoring_info), and each takes its own
// tag off the IDs the runner asks about, so the worker finds its own ID.
func TestTagger(t *testing.T) {
	a, b := newTagger(), newTagger()
	if a.tag == b.tag {
		t.Fatalf("two taggers have the tag %q", a.tag)
	}
	ids := map[string]bool{}
	for _, tg := range []tagger{a, b} {
		resps := []*fnpb.InstructionResponse{
			{Response: &fnpb.InstructionResponse_ProcessBundle{ProcessBundle: &fnpb.ProcessBundleResponse{MonitoringData: map[string][]byte{"1": {1}}}}},
			{Response: &fnpb.InstructionResponse_ProcessBundleProgress{ProcessBundleProgress: &fnpb.ProcessBundleProgressResponse{MonitoringData: map[string][]byte{"1": {1}}}}},
			{Response: &fnpb.InstructionResponse_MonitoringInfos{MonitoringInfos: &fnpb.MonitoringInfosMetadataResponse{MonitoringInfo: map[string]*pipepb.MonitoringInfo{"1": {Urn: "u"}}}}},
		}
		var got []string
		for _, r := range resps {
			if err := tg.response(context.Background(), nil, r); err != nil {
				t.Fatal(err)
			}
			var keys []string
			for k := range r.GetProcessBundle().GetMonitoringData() {
				keys = append(keys, k)
			}
			for k := range r.GetProcessBundleProgress().GetMonitoringData() {
				keys = append(keys, k)
			}
			for k := range r.GetMonitoringInfos().GetMonitoringInfo() {
				keys = append(keys, k)
			}
			if len(keys) != 1 {
				t.Fatalf("%v: keys %q", r, keys)
			}
			got = append(got, keys[0])
		}
		if got[0] == "1" || got[1] != got[0] || got[2] != got[0] {
			t.Errorf("tag %q: short ID 1 became %q", tg.tag, got)
		}
		ids[got[0]] = true
		req := &fnpb.InstructionRequest{Request: &fnpb.InstructionRequest_MonitoringInfos{MonitoringInfos: &fnpb.MonitoringInfosMetadataRequest{MonitoringInfoId: []string{got[0]}}}}
		if _, err := tg.request(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		if id := req.GetMonitoringInfos().GetMonitoringInfoId(); len(id) != 1 || id[0] != "1" {
			t.Errorf("tag %q: the runner asks for %q, the worker gets %q", tg.tag, got[0], id)
		}
	}
	if len(ids) != 2 {
		t.Errorf("two workers' short ID 1 are %v", ids)
	}
}
