package gateway

import (
	"time"

	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/scheme"
)

// This file is the gateway's whole contact surface with the access layer:
// execute a scheme plan and get a stream with what is known about it
// (access.Execute, access.Resource), read a gopher menu from such a stream
// item by item, and form a menu item's URL through the scheme layer.
// Everything else in the package works on plans, streams and menu items.

// options returns the access options of request q. The request's
// deadline is its context's; the idle timeout and the size cap come from
// the configuration; the policy (policy.go) is asked about every
// connection access opens, on the address actually dialled.
func (g *Gateway) options(q *request) *access.Options {
	policy := g.allowAny
	if q.publicOnly {
		policy = g.allowPublic
	}
	return &access.Options{
		ConnectTimeout: g.cfg.ConnectTimeout,
		ReadTimeout:    g.cfg.ReadTimeout,
		MaxSize:        g.cfg.MaxSize,
		FTPSessions:    g.sessions,
		Policy:         policy,
		// No TCP keep-alive probes: every upstream connection is bounded
		// by the request deadline, and the probes cost two system calls a
		// connection.
		KeepAlive: -1,
		Dial:      g.testDial,
		// A resource longer than its server announced is delivered; the
		// log line says so.
		Warn: func(err error) { g.note(q, err.Error()) },
	}
}

// open executes plan through access for request q. No password prompt is
// offered: a gateway has nobody to ask.
// With an archive to replay (Config.Replay), the resource is its capture
// instead (replay.go), and nothing is dialled.
func (g *Gateway) open(q *request, plan scheme.Plan) (*access.Resource, error) {
	if g.cfg.Replay != nil {
		return g.replay(q, plan)
	}
	start := time.Now()
	var (
		rc  *access.Resource
		err error
	)
	if g.cfg.Record != nil {
		rc, err = g.record(q, plan)
	} else {
		rc, err = access.Execute(q.ctx, plan, g.options(q))
	}
	if g.metrics != nil {
		g.metrics.upstreamTime(plan.Scheme(), start)
	}
	return rc, err
}

// menuItem is one line of a gopher menu.
type menuItem = access.MenuItem

// itemURL returns the gopher URL of a menu item, or why it has none.
func itemURL(it menuItem) (string, error) { return it.URL() }
