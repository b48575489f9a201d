package gateway

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the gateway's Prometheus metrics (Config.Metrics), in a
// registry of their own: no other package's metrics are mixed in.
//
//	urlkit_gateway_requests_total{scheme,status}   requests answered
//	urlkit_gateway_refusals_total{rule}            refused by a policy rule (policy.go)
//	urlkit_gateway_response_bytes_total{scheme}    bytes of responses sent
//	urlkit_gateway_upstream_seconds{scheme}        time to the upstream's first answer
//	urlkit_gateway_requests_in_flight              requests being served
//	urlkit_gateway_client_connections              client connections open (Listener)
//	urlkit_gateway_upstream_slots_in_use           upstream slots taken (MaxUpstream)
//	urlkit_gateway_upstream_slots                  MaxUpstream
//	urlkit_gateway_ftp_idle_sessions               logged-in ftp sessions kept
//
// with the Go runtime's and the process's own (go_*, process_*). The
// scheme label is the target's scheme ("gopher", "ftp", ...), "" for the
// gateway's own pages; status is the HTTP status code.
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	refusals *prometheus.CounterVec
	bytes    *prometheus.CounterVec
	upstream *prometheus.HistogramVec
	inFlight prometheus.Gauge
}

// newMetrics registers the gateway's metrics for g.
func newMetrics(g *Gateway) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "urlkit_gateway_requests_total",
			Help: "Requests answered, by the target's scheme (empty for the gateway's own pages) and HTTP status."}, []string{"scheme", "status"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "urlkit_gateway_refusals_total",
			Help: "Requests refused by the gateway's policy, by rule (O1-O3 origins, U1-U2 URLs, T targets, P ports)."}, []string{"rule"}),
		bytes: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "urlkit_gateway_response_bytes_total",
			Help: "Bytes of response bodies sent to clients, by the target's scheme."}, []string{"scheme"}),
		upstream: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "urlkit_gateway_upstream_seconds",
			Help:    "Time from asking the upstream server to its first answer (connection, login, request), by scheme.",
			Buckets: prometheus.ExponentialBuckets(0.001, 4, 9)}, []string{"scheme"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{Name: "urlkit_gateway_requests_in_flight",
			Help: "Requests being served."}),
	}
	m.reg.MustRegister(m.requests, m.refusals, m.bytes, m.upstream, m.inFlight,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "urlkit_gateway_client_connections",
			Help: "Client connections open (counted by the gateway's Listener)."}, func() float64 { return float64(g.conns.open()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "urlkit_gateway_upstream_slots_in_use",
			Help: "Upstream slots taken by requests being served."}, func() float64 { return float64(g.slots.inUse()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "urlkit_gateway_upstream_slots",
			Help: "Upstream slots in all (MaxUpstream)."}, func() float64 { return float64(g.cfg.MaxUpstream) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "urlkit_gateway_ftp_idle_sessions",
			Help: "Logged-in ftp sessions kept between requests."}, func() float64 { return float64(g.sessions.Len()) }),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// MetricsHandler returns the handler of the gateway's metrics in
// Prometheus's text format (urlkit serve --metrics serves it on an address
// of its own), or nil when Config.Metrics is not set.
func (g *Gateway) MetricsHandler() http.Handler {
	if g.metrics == nil {
		return nil
	}
	return promhttp.HandlerFor(g.metrics.reg, promhttp.HandlerOpts{})
}

// observe counts request q, answered through w.
func (m *metrics) observe(q *request) {
	w := &q.lw
	status := w.status
	if status == 0 {
		status = http.StatusOK
	}
	sch := q.u.Scheme()
	m.requests.WithLabelValues(sch, strconv.Itoa(status)).Inc()
	if w.bytes > 0 {
		m.bytes.WithLabelValues(sch).Add(float64(w.bytes))
	}
	if w.rule != "" {
		m.refusals.WithLabelValues(w.rule).Inc()
	}
}

// ruleOf is the policy rule that err refuses by, "" when none.
func ruleOf(err error) string {
	var pe *PolicyError
	var he *hostError
	switch {
	case errors.As(err, &pe):
		if pe.Rule == "" {
			return "other"
		}
		return pe.Rule
	case errors.As(err, &he):
		return "O1"
	}
	return ""
}

// upstreamTime records how long the upstream took to answer q.
func (m *metrics) upstreamTime(scheme string, since time.Time) {
	m.upstream.WithLabelValues(scheme).Observe(time.Since(since).Seconds())
}
