package gateway

import (
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
// connection access opens, on the address actually dialled. They depend
// on nothing but whether the request may reach public addresses only, so
// the two sets are made once (New) and shared: access only reads them.
func (g *Gateway) options(q *request) *access.Options {
	if g.testDial != nil { // set by a test after New
		o := *g.newOptions(q.publicOnly)
		o.Dial = g.testDial
		return &o
	}
	if q.publicOnly {
		return g.optsPublic
	}
	return g.opts
}

// newOptions makes the access options of requests that may reach public
// addresses only (publicOnly) or not.
func (g *Gateway) newOptions(publicOnly bool) *access.Options {
	return &access.Options{
		ConnectTimeout: g.cfg.ConnectTimeout,
		ReadTimeout:    g.cfg.ReadTimeout,
		MaxSize:        g.cfg.MaxSize,
		FTPSessions:    g.sessions,
		Policy:         func(c access.Connection) error { return g.pol.allowConn(c, publicOnly) },
		// No TCP keep-alive probes: every upstream connection is bounded
		// by the request deadline, and the probes cost two system calls a
		// connection.
		KeepAlive: -1,
	}
}

// open executes plan through access for request q. No password prompt is
// offered: a gateway has nobody to ask.
func (g *Gateway) open(q *request, plan scheme.Plan) (*access.Resource, error) {
	return access.Execute(q.ctx, plan, g.options(q))
}

// menuItem is one line of a gopher menu.
type menuItem = access.MenuItem

// itemURL returns the gopher URL of a menu item, or why it has none.
func itemURL(it menuItem) (string, error) { return it.URL() }
