package gateway

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/testio"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// scrape reads the gateway's metrics as Prometheus does: its text format,
// parsed by Prometheus's own parser (prometheus/common/expfmt), which
// refuses what Prometheus would not ingest.
func scrape(t *testing.T, g *Gateway) map[string]*dto.MetricFamily {
	t.Helper()
	rec := httptest.NewRecorder()
	g.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("metrics: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatalf("Prometheus's parser refuses the metrics: %v", err)
	}
	return fams
}

// value is the value of the sample of family name whose labels are all
// of want (a counter's, a gauge's, or a histogram's count), -1 when none.
func value(fams map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	f := fams[name]
	if f == nil {
		return -1
	}
next:
	for _, m := range f.Metric {
		got := map[string]string{}
		for _, l := range m.Label {
			got[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if got[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount())
		}
	}
	return -1
}

// Issue 36 item 7: the metrics count requests by scheme and status,
// refusals by policy rule, response bytes and upstream latency by scheme,
// and show the open connections and the pools.
func TestMetrics(t *testing.T) {
	addr := gopherServer(t, map[string][]byte{"/doc": []byte("text\r\n.\r\n")})
	g := New(Config{Metrics: true, Policy: Policy{Allow: []string{addr}}})
	base := "http://" + serveCapped(t, g)
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	for _, target := range []string{"/", "/gopher://" + addr + "/0/doc", "/gopher://" + addr + "/0/doc", "/file:///etc/passwd", "/ftp://127.0.0.1:25/x", "/nosuch"} {
		resp, err := client.Get(base + target)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	// A request is counted when its handler returns, which may be just
	// after the client has the response.
	var fams map[string]*dto.MetricFamily
	testio.Eventually(func() bool {
		fams = scrape(t, g)
		return value(fams, "urlkit_gateway_requests_in_flight", nil) == 0 && value(fams, "urlkit_gateway_client_connections", nil) == 0
	})
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"urlkit_gateway_requests_total", map[string]string{"scheme": "gopher", "status": "200"}, 2},
		{"urlkit_gateway_requests_total", map[string]string{"scheme": "file", "status": "403"}, 1},
		{"urlkit_gateway_requests_total", map[string]string{"scheme": "", "status": "404"}, 1},
		{"urlkit_gateway_refusals_total", map[string]string{"rule": "U1"}, 1},
		{"urlkit_gateway_refusals_total", map[string]string{"rule": "P1"}, 1},
		{"urlkit_gateway_response_bytes_total", map[string]string{"scheme": "gopher"}, float64(2 * len("text\r\n"))},
		{"urlkit_gateway_upstream_seconds", map[string]string{"scheme": "gopher"}, 2},
		{"urlkit_gateway_upstream_slots", nil, DefaultMaxUpstream},
		{"urlkit_gateway_upstream_slots_in_use", nil, 0},
		{"urlkit_gateway_requests_in_flight", nil, 0},
		{"urlkit_gateway_ftp_idle_sessions", nil, 0},
	} {
		if got := value(fams, c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	// A connection held open, its request not finished: counted.
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET / HTTP/1.1\r\n")
	var conns float64
	if !testio.Eventually(func() bool {
		conns = value(scrape(t, g), "urlkit_gateway_client_connections", nil)
		return conns == 1
	}) {
		t.Errorf("client connections %v, want 1", conns)
	}
	if fams["go_goroutines"] == nil || fams["process_cpu_seconds_total"] == nil {
		t.Errorf("no runtime or process metrics")
	}
	if New(Config{}).MetricsHandler() != nil {
		t.Errorf("metrics without Config.Metrics")
	}
}

// The JSON access log: one object a line, with the Common Log Format's
// facts, the password masked, and the rule of a refusal.
func TestJSONLog(t *testing.T) {
	var clf, js syncBuffer
	g := New(Config{Log: &clf, LogJSON: &js})
	base := serve(t, g)
	raw(t, base, "GET", "/ftp://joe:secret@127.0.0.1:25/x")
	if !js.wait("\n") {
		t.Fatal("no JSON log line")
	}
	var e map[string]any
	line := strings.TrimSuffix(js.String(), "\n")
	if err := json.Unmarshal([]byte(line), &e); err != nil || strings.Contains(line, "secret") {
		t.Fatalf("%v: %s", err, line)
	}
	if e["method"] != "GET" || e["target"] != "/ftp://joe:xxxxx@127.0.0.1:25/x" || e["status"] != 403.0 || e["rule"] != "P1" ||
		e["client"] != "127.0.0.1" || e["proto"] != "HTTP/1.1" || e["bytes"].(float64) <= 0 || e["duration_ms"].(float64) < 0 {
		t.Errorf("%s", line)
	}
	if !clf.wait(`"GET /ftp://joe:xxxxx@127.0.0.1:25/x HTTP/1.1" 403`) {
		t.Errorf("Common Log Format: %q", clf.String())
	}
}
