package gateway

import (
	"context"
	"io"

	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/scheme"
)

// This file is the gateway's whole contact surface with the access layer:
// execute a scheme plan and get a stream, read a gopher menu from a stream,
// and form a menu item's URL. Everything else in the package works on
// plans (from the scheme package), streams and menu items.

// options returns the access options of one request.
func (g *Gateway) options() *access.Options {
	return &access.Options{
		ConnectTimeout: g.cfg.ConnectTimeout,
		ReadTimeout:    g.cfg.ReadTimeout,
		MaxSize:        g.cfg.MaxSize,
		Dial:           g.dial,
	}
}

// open executes plan through access and returns the resource's bytes. No
// password prompt is offered: a gateway has nobody to ask.
func (g *Gateway) open(ctx context.Context, plan scheme.Plan) (io.ReadCloser, error) {
	return access.Open(ctx, plan, g.options(), nil)
}

// menuItem is one line of a gopher menu.
type menuItem = access.MenuItem

// readMenu reads a gopher menu from the stream open returned for a menu
// or search plan.
func readMenu(r io.Reader) ([]menuItem, error) { return access.ParseMenu(r) }

// itemURL returns the gopher URL of a menu item ("" for info and error
// lines).
func itemURL(it menuItem) string { return it.URL() }
