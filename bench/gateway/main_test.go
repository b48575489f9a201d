package main

import (
	"context"
	"testing"
)

// The benchmarks below hold the figures docs/performance.md's "Gateway
// performance" gives (gopher through the gateway against fetching
// directly; a 1,000-item menu's page against fetching the menu): the same
// sides as `go run ./bench/gateway -only gopher` and `-only menu`, set up
// by the same code, measured the same way (this process's CPU time per
// request, every side in turn, the order alternating), b.N requests per
// side in four rounds. The two legs side (the direct fetch, then the
// floor's exchange) bounds what any gateway can reach in this harness. They report each side's CPU time per request and
// the ratios; the rates depend on the machine's load (docs/performance.md says how
// to read them), the CPU ratios much less. Run them with
//
//	go test ./bench/gateway -run X -bench . -benchtime 4000x -count 3

func BenchmarkGopher8(b *testing.B)  { benchGroup(b, "gopher", 8) }
func BenchmarkGopher32(b *testing.B) { benchGroup(b, "gopher", 32) }
func BenchmarkMenu1(b *testing.B)    { benchGroup(b, "menu", 1) }

// benchGroup measures the in-process group of part at conc clients.
func benchGroup(b *testing.B, part string, conc int) {
	e, err := setup(context.Background(), "", part)
	if err != nil {
		b.Fatal(err)
	}
	defer e.close()
	group := e.groups[0]
	b.ResetTimer()
	res, err := e.measureGroup(context.Background(), group, conc, 4, 0, max(b.N/4, 1))
	if err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	for _, name := range group {
		if r := res[name]; r.errs > 0 {
			b.Fatalf("%s: %d errors, the last: %v", name, r.errs, r.lastErr)
		}
	}
	gw, direct, floor, two := res[group[0]], res[group[1]], res[group[2]], res[group[3]]
	b.ReportMetric(gw.cpuPerReq(), "gateway-cpu-µs/req")
	b.ReportMetric(direct.cpuPerReq(), "direct-cpu-µs/req")
	b.ReportMetric(floor.cpuPerReq(), "floor-cpu-µs/req")
	b.ReportMetric(gw.cpuPerReq()/direct.cpuPerReq(), "cpu-ratio")
	b.ReportMetric(gw.rate()/direct.rate(), "rate-ratio")
	b.ReportMetric(float64(gw.pct(50))/float64(direct.pct(50)), "p50-ratio")
	// The two legs with nothing between them: the best any gateway can
	// reach here, and the gateway's own work beyond them.
	b.ReportMetric(two.rate()/direct.rate(), "bound-rate-ratio")
	b.ReportMetric(gw.cpuPerReq()-two.cpuPerReq(), "gateway-beyond-legs-µs/req")
}
