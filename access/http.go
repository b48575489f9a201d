package access

import (
	"bufio"
	"compress/gzip"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/lenient"
	"github.com/urlkit/urlkit/scheme"
)

// HTTPStatusError reports a final response whose status is not 2xx.
type HTTPStatusError struct {
	URL    string // the URL that gave the status
	Code   int
	Status string // e.g. "404 Not Found"
}

// Error formats the failure for a person.
func (e *HTTPStatusError) Error() string {
	return fmt.Sprintf("http: GET %s: %s", e.URL, EscapeText(e.Status))
}

// RedirectError reports a redirect that was not followed: following is
// off, the hop goes to another scheme (or from https to http), the
// Location is not a valid URL, or there were too many hops.
type RedirectError struct {
	URL      string // the URL that answered with the redirect
	Code     int
	Location string // as sent by the server
	Reason   string
}

// Error formats the failure for a person.
func (e *RedirectError) Error() string {
	return fmt.Sprintf("http: GET %s: %d redirect to %q not followed: %s", e.URL, e.Code, EscapeText(e.Location), e.Reason)
}

func init() { registerClient((*execution).http) }

// http sends the plan's Request, exactly, and reads the response; with
// FollowRedirects each redirect is planned anew (scheme.PlanOf on the
// resolved Location) and carried out the same way.
func (x *execution) http(p *scheme.HTTPPlan) (*Resource, error) {
	max := x.opts.MaxRedirects
	if max <= 0 {
		max = DefaultMaxRedirects
	}
	for hop := 0; ; hop++ {
		r, loc, code, err := x.httpOnce(p)
		if err != nil || loc == "" {
			return r, err
		}
		redirect := &RedirectError{URL: p.URL, Code: code, Location: loc}
		if !x.opts.FollowRedirects {
			redirect.Reason = "redirects are followed only with -L (--location)"
			return nil, redirect
		}
		if hop >= max {
			redirect.Reason = fmt.Sprintf("more than %d redirects (--max-redirs)", max)
			return nil, redirect
		}
		base := p.Base()
		ref, err := x.locationParser(base)(loc)
		var next urlkit.URL
		if err == nil {
			next, err = urlkit.Resolve(base, ref, urlkit.ModeRFC3986)
		}
		if err != nil {
			redirect.Reason = "the Location is not a valid URL: " + err.Error()
			return nil, redirect
		}
		switch s := next.Scheme(); {
		case s != "http" && s != "https":
			redirect.Reason = fmt.Sprintf("it goes to another scheme (%s); only http and https redirects are followed", s)
			return nil, redirect
		case s == "http" && p.TLS:
			redirect.Reason = "it goes from https to plain http"
			return nil, redirect
		}
		var ua string
		for _, h := range p.Header {
			if h.Name == "User-Agent" {
				ua = h.Value
			}
		}
		np, err := scheme.PlanOf(next, scheme.Config{Compressed: p.Compressed, UserAgent: ua, Head: p.Method == "HEAD"})
		if err != nil {
			redirect.Reason = "the new URL has no plan: " + err.Error()
			return nil, redirect
		}
		x.opts.tracef("* redirect %d to %s: new plan", hop+1, EscapeText(next.String()))
		if x.opts.OnPlan != nil {
			x.opts.OnPlan(np)
		}
		p = np.(*scheme.HTTPPlan)
	}
}

// locationParser returns how a redirect from base reads its Location:
// strictly (by the extended syntax when base is of it, as an IPv6 host
// makes it), or with Options.Lenient by the lenient reading, each repair
// noted in the trace. The Location is resolved against the plan's URL
// value (HTTPPlan.Base), never against its text read back.
func (x *execution) locationParser(base urlkit.URL) func(string) (urlkit.URL, error) {
	if x.opts.Lenient {
		return func(s string) (urlkit.URL, error) {
			u, warns, err := lenient.ParseRef(s)
			for _, w := range warns {
				x.opts.tracef("* Location %q read leniently: %s", EscapeText(s), w)
			}
			return u, err
		}
	}
	if base.Extended() {
		return urlkit.ParseRefExtended
	}
	return urlkit.ParseRef
}

// checkHTTPRequest refuses a request that would not be one request head
// (scheme's plans never make one): CR, LF or NUL in the request line or a
// header field, a field name that is empty or holds a space or ":".
func checkHTTPRequest(r *scheme.HTTPRequest) error {
	bad := func(s string) bool { return strings.ContainsAny(s, "\r\n\x00") }
	if bad(r.Method) || bad(r.RequestURI) || bad(r.Version) || strings.ContainsAny(r.Method+r.RequestURI, " ") {
		return fmt.Errorf("http: plan request line %q is not one line; refusing to send it", EscapeText(r.RequestLine()))
	}
	for _, h := range r.Header {
		if h.Name == "" || bad(h.Value) || strings.ContainsAny(h.Name, " :\t\r\n\x00") {
			return fmt.Errorf("http: plan header field %q is not one field; refusing to send it", EscapeText(h.Line()))
		}
	}
	return nil
}

// capReader fails once more than max bytes have been read from it, until
// lifted (max < 0).
type capReader struct {
	r   io.Reader
	n   int
	max int
}

var errCap = errors.New("cap")

func (c *capReader) Read(p []byte) (int, error) {
	if c.max >= 0 && c.n >= c.max {
		return 0, errCap
	}
	if c.max >= 0 && len(p) > c.max-c.n {
		p = p[:c.max-c.n]
	}
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// httpOnce carries out one plan; for a 3xx answer with a Location it
// returns that Location and the code.
func (x *execution) httpOnce(p *scheme.HTTPPlan) (*Resource, string, int, error) {
	if err := checkHTTPRequest(&p.HTTPRequest); err != nil {
		return nil, "", 0, err
	}
	step := p.RequestLine()
	raw, err := x.dial("http", p.Addr)
	if err != nil {
		return nil, "", 0, err
	}
	stop := x.watch(raw)
	var conn net.Conn = &deadlineConn{Conn: raw, idle: x.opts.readTimeout()}
	closer := func() error { stop(); return raw.Close() }
	if p.TLS {
		tc := tls.Client(conn, &tls.Config{ServerName: p.ServerName})
		if err := tc.HandshakeContext(x.ctx); err != nil {
			closer()
			return nil, "", 0, x.fail("http", "TLS handshake with "+p.ServerName, err)
		}
		conn = tc
		if x.opts.Capture != nil {
			x.opts.capture(Secured, connOf(raw), false, []byte(tlsName(tc.ConnectionState().Version)))
		}
	}
	if x.opts.Capture != nil {
		conn = &capConn{Conn: conn, o: x.opts, c: connOf(raw)}
	}
	x.opts.traceSent(step)
	for _, h := range p.Header {
		x.opts.traceSent(h.Redacted())
	}
	x.opts.traceSent("")
	if _, err := io.WriteString(conn, p.Wire()); err != nil {
		closer()
		return nil, "", 0, x.fail("http", step, err)
	}
	cr := &capReader{r: conn, max: x.opts.maxReply()}
	br := bufio.NewReaderSize(cr, 4096)
	// The request's method tells ReadResponse that no body answers HEAD.
	resp, err := http.ReadResponse(br, &http.Request{Method: p.Method})
	if err != nil {
		closer()
		if errors.Is(err, errCap) {
			return nil, "", 0, &LimitError{Protocol: "http", Step: step + " (response header)", Limit: "reply size", Value: fmt.Sprintf("%d bytes", x.opts.maxReply())}
		}
		return nil, "", 0, x.fail("http", step+" (response header)", err)
	}
	cr.max = -1
	status := resp.Proto + " " + resp.Status
	x.opts.traceRecv(status)
	if x.opts.Trace != nil {
		for _, k := range sortedKeys(resp.Header) {
			for _, v := range resp.Header[k] {
				x.opts.traceRecv(k + ": " + v)
			}
		}
	}
	head := p.Method == "HEAD"
	if resp.StatusCode/100 == 3 && (!head || x.opts.FollowRedirects) {
		if loc := resp.Header.Get("Location"); loc != "" {
			resp.Body.Close()
			closer()
			return nil, loc, resp.StatusCode, nil
		}
	}
	if head {
		// The answer to HEAD is its status and header, whatever the
		// status (a redirect not followed included): the caller shows
		// them; HTTPStatusError is for a body that is not the resource.
		resp.Body.Close()
		closer()
		b := x.newBody(strings.NewReader(""), nil, "http", step, nil, nil)
		return &Resource{ReadCloser: b, Plan: p, Kind: "head", ContentType: resp.Header.Get("Content-Type"), Size: -1,
			Status: status, Header: resp.Header}, "", 0, nil
	}
	if resp.StatusCode/100 != 2 {
		resp.Body.Close()
		closer()
		return nil, "", 0, &HTTPStatusError{URL: p.URL, Code: resp.StatusCode, Status: resp.Status}
	}
	m := x.newMeter(resp.Body, "http", step)
	var r io.Reader = m
	if p.Compressed && strings.EqualFold(resp.Header.Get("Content-Encoding"), "gzip") {
		zr, err := gzip.NewReader(m)
		if err != nil {
			resp.Body.Close()
			closer()
			return nil, "", 0, x.fail("http", step+" (gzip body)", err)
		}
		r = &decodedCap{r: zr, max: x.opts.MaxSize, step: step}
	}
	size := resp.ContentLength
	if r != io.Reader(m) {
		size = -1
	}
	b := x.newBody(r, m, "http", step, nil, func() error { resp.Body.Close(); return closer() })
	return &Resource{ReadCloser: b, Plan: p, Kind: "file", ContentType: resp.Header.Get("Content-Type"), Size: size,
		Status: status, Header: resp.Header}, "", 0, nil
}

// decodedCap bounds a decoded (gunzipped) body by MaxSize too, so that a
// small compressed body cannot expand without bound.
type decodedCap struct {
	r    io.Reader
	n    int64
	max  int64
	step string
}

func (d *decodedCap) Read(p []byte) (int, error) {
	if d.max > 0 && int64(len(p)) > d.max-d.n+1 {
		p = p[:d.max-d.n+1]
	}
	n, err := d.r.Read(p)
	d.n += int64(n)
	if d.max > 0 && d.n > d.max {
		return n - int(d.n-d.max), &LimitError{Protocol: "http", Step: d.step + " (decoded gzip body)", Limit: "max-size", Value: strconv.FormatInt(d.max, 10) + " bytes"}
	}
	return n, err
}

func sortedKeys(h http.Header) []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}
