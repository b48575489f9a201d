package archive

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"strconv"
	"sync"

	"github.com/nlnwa/gowarc/v3"
	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/scheme"
)

// A Fetch records one retrieval into a Writer: what access reports of the
// exchange (Options.Capture) and the resource as it is read. Start it
// with Writer.Capture before access.Execute, hand it the resource with
// Resource, read the resource to its end, then call Finish: the records
// are written then, all or none.
type Fetch struct {
	w      *Writer
	target urlkit.URL
	proto  string
	conv   Convention

	mu sync.Mutex
	// plans are the plans carried out: the first, then one per http
	// redirect hop.
	plans []scheme.Plan
	// ip is the address of the first connection that is not an ftp data
	// connection (for http, of the current hop).
	ip netip.Addr
	// exchange is the metadata record's block (not http).
	exchange *block
	// payload is the resource record's block (not http).
	payload *block
	// hops are http's request and response records, one pair a
	// connection.
	hops []*hop
	// failed is a failure of the capture itself (a spool file that
	// cannot be written): the fetch writes no records.
	failed error
	done   bool
	// media is the resource record's Content-Type (PayloadMediaType).
	media string
}

// hop is one http request and its response.
type hop struct {
	ip        netip.Addr
	req, resp *block
	head      []byte // the start of the response, for its version
	tls       string // the TLS version, "" for none
}

// Capture starts recording a retrieval of target (the URL as given: the
// records name it in its canonical form) into w. It sets opts.Capture
// and wraps opts.OnPlan; run access.Execute with opts afterwards.
func (w *Writer) Capture(target urlkit.URL, opts *access.Options) *Fetch {
	f := &Fetch{w: w, target: target}
	prev := opts.OnPlan
	opts.OnPlan = func(p scheme.Plan) {
		f.mu.Lock()
		f.plans = append(f.plans, p)
		f.mu.Unlock()
		if prev != nil {
			prev(p)
		}
	}
	opts.Capture = f.exchanged
	return f
}

// exchanged takes one piece of the exchange.
func (f *Fetch) exchanged(e access.Exchange) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failed != nil || f.done {
		return
	}
	if f.proto == "" {
		f.proto = e.Conn.Protocol
		f.conv, _ = ConventionOf(f.proto)
	}
	if f.proto == "http" {
		f.httpExchanged(e)
		return
	}
	if e.Conn.Protocol == "ftp" && e.Conn.Data {
		if e.Kind == access.Connected {
			f.note("data connection to " + e.Conn.Addr.String())
		}
		return
	}
	switch e.Kind {
	case access.Connected:
		if !f.ip.IsValid() {
			f.ip = e.Conn.Addr.Addr()
		}
		what := "connection"
		if e.Conn.Network == "udp" {
			what = "UDP"
		}
		f.note(what + " to " + e.Conn.Addr.String() + " (" + e.Conn.Name + ")")
	case access.Sent:
		f.piece('>', e.Unit, e.Data)
	case access.Received:
		f.piece('<', e.Unit, e.Data)
	}
}

// recordType is gowarc's value of a WARC-Type the conventions name.
func recordType(t string) gowarc.RecordType {
	switch t {
	case TypeRequest:
		return gowarc.Request
	case TypeResponse:
		return gowarc.Response
	case TypeResource:
		return gowarc.Resource
	}
	return gowarc.Metadata
}

// ensureExchange starts the metadata record's block.
func (f *Fetch) ensureExchange() {
	if f.exchange == nil {
		f.exchange = f.w.newBlock(recordType(f.conv.Exchange), false)
	}
}

// note writes "* text" to the conversation.
func (f *Fetch) note(text string) {
	f.ensureExchange()
	f.write([]byte("* " + text + "\r\n"))
}

// piece writes one line (dir '>' sent, '<' received, with the line end it
// had) or one binary message ("> N", CRLF, the N bytes, CRLF) to the
// conversation.
func (f *Fetch) piece(dir byte, unit bool, data []byte) {
	f.ensureExchange()
	if unit {
		f.write([]byte{dir, ' '})
		f.write(strconv.AppendInt(nil, int64(len(data)), 10))
		f.write([]byte("\r\n"))
		f.write(data)
		f.write([]byte("\r\n"))
		return
	}
	f.write([]byte{dir, ' '})
	f.write(data)
	if !bytes.HasSuffix(data, []byte("\n")) {
		f.write([]byte("\r\n"))
	}
}

func (f *Fetch) write(p []byte) {
	if _, err := f.exchange.Write(p); err != nil && f.failed == nil {
		f.failed = err
	}
}

// httpExchanged keeps http's bytes: each connection is a hop, what is sent
// its request record's block, what is received its response's.
func (f *Fetch) httpExchanged(e access.Exchange) {
	if e.Kind == access.Connected {
		f.hops = append(f.hops, &hop{ip: e.Conn.Addr.Addr()})
		return
	}
	if len(f.hops) == 0 {
		return
	}
	h := f.hops[len(f.hops)-1]
	if e.Kind == access.Secured {
		h.tls = string(e.Data)
		return
	}
	var b **block
	if e.Kind == access.Sent {
		b = &h.req
		if *b == nil {
			*b = f.w.newBlock(gowarc.Request, true)
		}
	} else {
		b = &h.resp
		if *b == nil {
			*b = f.w.newBlock(gowarc.Response, true)
		}
		if len(h.head) < 16 {
			h.head = append(h.head, e.Data[:min(len(e.Data), 16-len(h.head))]...)
		}
	}
	if _, err := (*b).Write(e.Data); err != nil && f.failed == nil {
		f.failed = err
	}
}

// Resource returns r with its stream recorded as it is read: the stream
// to read in its place. For http it is r itself (the response record
// holds the bytes as received).
func (f *Fetch) Resource(r *access.Resource) *access.Resource {
	f.mu.Lock()
	defer f.mu.Unlock()
	if p := ProtocolOf(r.Plan); p != "" && f.conv.Protocol == "" {
		f.proto = p
		f.conv, _ = ConventionOf(p)
	}
	if f.conv.Payload != TypeResource {
		return r
	}
	media, err := PayloadMediaType(r)
	if err != nil {
		if f.failed == nil {
			f.failed = err
		}
		return r
	}
	f.media = media
	f.payload = f.w.newBlock(recordType(f.conv.Payload), false)
	rr := *r
	rr.ReadCloser = &teeBody{r: r.ReadCloser, f: f}
	return &rr
}

// teeBody is the resource stream, each byte read also written to the
// resource record's block.
type teeBody struct {
	r io.ReadCloser
	f *Fetch
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		if _, werr := t.f.payload.Write(p[:n]); werr != nil {
			t.f.mu.Lock()
			if t.f.failed == nil {
				t.f.failed = werr
			}
			t.f.mu.Unlock()
		}
	}
	return n, err
}

func (t *teeBody) Close() error { return t.r.Close() }

// Abandon drops the fetch's records: the retrieval failed or was stopped.
// Nothing of it reaches the file.
func (f *Fetch) Abandon() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done {
		return
	}
	f.done = true
	f.release()
}

// release closes every builder (their spool files go).
func (f *Fetch) release() {
	for _, b := range f.builders() {
		b.Close()
	}
}

// builders returns every record builder of the fetch.
func (f *Fetch) builders() []*block {
	var bs []*block
	for _, b := range []*block{f.payload, f.exchange} {
		if b != nil {
			bs = append(bs, b)
		}
	}
	for _, h := range f.hops {
		for _, b := range []*block{h.resp, h.req} {
			if b != nil {
				bs = append(bs, b)
			}
		}
	}
	return bs
}

// RecordsFailure reports whether a retrieval that failed with err still
// leaves records: an http answer that is not the resource (a status that
// is not 2xx, a redirect not followed) is what the server sent, and
// archives keep it (as wget and warcio do), with the bytes of its body
// that arrived before the connection was closed; replay gives the same
// error (ResourceOf). Any other failure leaves none.
func RecordsFailure(err error) bool {
	var se *access.HTTPStatusError
	var re *access.RedirectError
	return errors.As(err, &se) || errors.As(err, &re)
}

// Finish writes the fetch's records, after its resource was read to the
// end (io.EOF: complete and checked): for http a response and a request
// record per hop (redirects included), for the others the resource record
// and the metadata record of the exchange, tied by WARC-Concurrent-To. A
// payload already in the file is written as a revisit record. The records
// are written all or none.
func (f *Fetch) Finish() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done {
		return errors.New("archive: fetch already finished")
	}
	f.done = true
	if f.failed != nil {
		f.release()
		return fmt.Errorf("archive: recording %s: %w", f.target.Redacted(), f.failed)
	}
	var groups []group
	if f.conv.Protocol == "http" {
		for i, h := range f.hops {
			if h.resp == nil || h.req == nil {
				continue // refused or failed before an answer
			}
			target := canonical(f.target)
			if len(f.plans) == len(f.hops) {
				if hp, ok := f.plans[i].(*scheme.HTTPPlan); ok {
					if u, err := urlkit.Parse(hp.URL); err == nil {
						target = canonical(u)
					} else if u, err := urlkit.ParseExtended(hp.URL); err == nil {
						target = canonical(u)
					}
				}
			}
			protocols := []string{HTTPProtocol(httpVersion(h.head))}
			if h.tls != "" {
				protocols = append(protocols, h.tls) // the proposal's layering: one field each
			}
			g := group{target: target, ip: h.ip, protocols: protocols,
				payload: h.resp, payloadType: HTTPResponseType, exchange: h.req, exchangeType: HTTPRequestType}
			groups = append(groups, g)
		}
		if len(groups) == 0 {
			f.release()
			return fmt.Errorf("archive: %s: no http exchange was recorded", f.target.Redacted())
		}
	} else {
		if f.payload == nil {
			f.release()
			return fmt.Errorf("archive: %s: the resource was not recorded (Fetch.Resource not called)", f.target.Redacted())
		}
		var protocols []string
		if f.conv.WARCProtocol != "" {
			protocols = []string{f.conv.WARCProtocol}
		}
		groups = []group{{target: canonical(f.target), ip: f.ip, protocols: protocols,
			payload: f.payload, payloadType: f.media, exchange: f.exchange, exchangeType: f.conv.ExchangeType}}
	}
	return f.w.writeGroups(groups)
}

// httpVersion returns the version of a response that starts with head
// ("HTTP/1.1 200 OK..." gives "HTTP/1.1").
func httpVersion(head []byte) string {
	if i := bytes.IndexByte(head, ' '); i > 0 {
		return string(head[:i])
	}
	return "HTTP/1.0"
}

// canonical is the WARC-Target-URI of u: its canonical form, as `urlkit
// canon` writes it, with a password masked as `urlkit plan` masks it
// (URL.Redacted): an archive is shared, a password is not.
func canonical(u urlkit.URL) string { return urlkit.Canonical(u).Redacted() }

// lastPlan is the last plan carried out.
func (f *Fetch) lastPlan() scheme.Plan {
	if len(f.plans) == 0 {
		return nil
	}
	return f.plans[len(f.plans)-1]
}
