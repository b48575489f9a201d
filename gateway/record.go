package gateway

import (
	"io"

	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/scheme"
)

// This file is open's recording side (Config.Record, urlkit serve
// --record): the retrieval is carried out as live, through the same
// options and policy, with capture's Fetch watching the exchange and the
// resource; when the request ends, its records are written if the page
// code read the resource to its end, dropped otherwise (a failure, a
// client gone, a listing cut at the page's cap).

// record executes plan for q, recording it.
func (g *Gateway) record(q *request, plan scheme.Plan) (*access.Resource, error) {
	opts := g.options(q)
	rec, err := g.cfg.Record.Capture(q.u, opts)
	if err != nil {
		// Recording has stopped (the server is shutting down): serve
		// without it.
		g.note(q, "not recorded: "+err.Error())
		return access.Execute(q.ctx, plan, opts)
	}
	rc, err := access.Execute(q.ctx, plan, opts)
	if err != nil {
		rec.Done(false)
		return nil, err
	}
	q.recording = rec
	r := rec.Resource(rc)
	rr := *r
	rr.ReadCloser = &eofWatch{ReadCloser: r.ReadCloser, q: q}
	return &rr, nil
}

// eofWatch notes that the resource was read to its end.
type eofWatch struct {
	io.ReadCloser
	q *request
}

func (e *eofWatch) Read(p []byte) (int, error) {
	n, err := e.ReadCloser.Read(p)
	if err == io.EOF {
		e.q.readAll = true
	}
	return n, err
}

// endRecording writes or drops the request's recording.
func (q *request) endRecording(g *Gateway) {
	if q.recording == nil {
		return
	}
	if err := q.recording.Done(q.readAll); err != nil {
		g.note(q, "not recorded: "+err.Error())
	}
	q.recording = nil
}
