package scheme

import (
	"github.com/urlkit/urlkit"
)

// HTTP (RFC 1738 3.3; RFC 1630, HTTP): http://<host>:<port>/<path>?<searchpart>
// https (RFC 2818) is read the same way with port 443.

func init() {
	registerBuiltin("http", func(u urlkit.URL) (View, error) { return HTTPOf(u) })
	registerBuiltin("https", func(u urlkit.URL) (View, error) { return HTTPOf(u) })
}

// HTTP is the view of an http (or https) URL. Path and Search are as
// written, still encoded: HTTP passes them to the server uninterpreted
// (RFC 1630, HTTP).
type HTTP struct {
	u         urlkit.URL
	Host      string
	Port      int    // 80 (443 for https) when the URL names none
	Path      string // hpath, without the leading "/"
	Search    string
	HasSearch bool
}

// HTTPOf checks u against RFC 1738's httpurl: no user name or password
// (RFC 1738 3.3), hpath = hsegment *[ "/" hsegment ] and search =
// *[ uchar | ";" | ":" | "@" | "&" | "=" ], so "/" and "?" may not appear
// unencoded in the search part.
func HTTPOf(u urlkit.URL) (*HTTP, error) {
	l := locOf(u)
	if err := noLogin(l, "RFC 1738 3.3: no user name or password is allowed"); err != nil {
		return nil, err
	}
	def := 80
	if u.Scheme() == "https" {
		def = 443
	}
	v := &HTTP{u: u, Host: u.Host()}
	v.Port, _ = portOf(u, def)
	v.Path, _ = u.Path()
	if s, ok := u.Search(); ok {
		p := part{s, l.search(), urlkit.ComponentSearch}
		if i := p.firstNot(ucharOr(";:@&=")); i >= 0 {
			return nil, reservedErr(l, p, i, `RFC 1738 5: search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]`)
		}
		v.Search, v.HasSearch = s, true
	}
	return v, nil
}

// URL returns the URL the view was made from.
func (v *HTTP) URL() urlkit.URL { return v.u }

// HTTPPlan is how an HTTP client asks for the resource (RFC 1630, HTTP):
// the request line sent to the server itself, or, through a proxy, the
// request line carrying the whole URL. The fragment is never sent.
type HTTPPlan struct {
	Addr             string `json:"addr"`               // host:port of the server
	URL              string `json:"url"`                // the URL without its fragment
	RequestURI       string `json:"request_uri"`        // "/" path ["?" search]
	RequestLine      string `json:"request_line"`       // GET <RequestURI> HTTP/1.0
	ProxyRequestLine string `json:"proxy_request_line"` // GET <URL> HTTP/1.0
	scheme           string
}

// Scheme returns "http" or "https".
func (p *HTTPPlan) Scheme() string { return p.scheme }

// Steps describes the plan.
func (p *HTTPPlan) Steps() []string {
	return []string{
		"connect to " + p.Addr,
		"send: " + p.RequestLine,
		"or, through a proxy, send: " + p.ProxyRequestLine,
	}
}

// Plan returns the request lines. Path and search are sent as written,
// still encoded, so an encoded CR or LF stays encoded and cannot split the
// request.
func (v *HTTP) Plan(Config) (Plan, error) {
	whole := v.u.WithoutFragment().String()
	uri := "/" + v.Path
	if v.HasSearch {
		uri += "?" + v.Search
	}
	return &HTTPPlan{
		Addr:             hostPort(v.Host, v.Port),
		URL:              whole,
		RequestURI:       uri,
		RequestLine:      "GET " + uri + " HTTP/1.0",
		ProxyRequestLine: "GET " + whole + " HTTP/1.0",
		scheme:           v.u.Scheme(),
	}, nil
}
