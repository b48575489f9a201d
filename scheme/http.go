package scheme

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/jsonw"
)

// HTTP (RFC 1738 3.3; RFC 1630, HTTP): http://<host>:<port>/<path>?<searchpart>
// https (RFC 2818) is read the same way with port 443.

func init() {
	registerChecked("http", func(u urlkit.URL) (View, error) { return HTTPOf(u) }, checkHTTP)
	registerChecked("https", func(u urlkit.URL) (View, error) { return HTTPOf(u) }, checkHTTP)
	relaxers["http"] = httpRelaxed
	relaxers["https"] = httpRelaxed
}

// httpRelaxed reports the login of an http URL of the extended syntax,
// which RFC 1738 3.3 does not allow.
func httpRelaxed(u urlkit.URL) []urlkit.Warning {
	l := locOf(u)
	var out []urlkit.Warning
	if _, ok := u.User(); ok {
		out = append(out, urlkit.Warning{Offset: l.user(), Component: urlkit.ComponentUser,
			Reason: fmt.Sprintf("user name in an %s URL: RFC 1738 3.3 allows none; kept, as RFC 3986 3.2.1 and browsers allow it (sent as HTTP Basic credentials, RFC 7617)", u.Scheme())})
	}
	if s, ok := u.Search(); ok {
		p := part{s, l.search(), urlkit.ComponentSearch}
		if i := p.firstNotIn(&searchChars); i >= 0 {
			out = append(out, urlkit.Warning{Offset: p.off + i, Component: urlkit.ComponentSearch,
				Reason: fmt.Sprintf("%q in the search part of an %s URL: RFC 1738 5 allows no unencoded \"/\" or \"?\" there; kept, as RFC 3986 3.4 allows them and browsers send them", s[i:i+1], u.Scheme())})
		}
	}
	return out
}

// HTTP is the view of an http (or https) URL. Path and Search are as
// written, still encoded: HTTP passes them to the server uninterpreted
// (RFC 1630, HTTP).
//
// Reserved: "/", ";" and "?" in the path and search part (RFC 1738 3.3),
// and "+" in the search part (RFC 1630: shorthand for a space), so
// http://h/a%40b and http://h/a@b are equal ([urlkit.Equal]) but
// http://h/a%3Fb and http://h/a?b are not. [Info].ReservedChars reports the set.
type HTTP struct {
	u         urlkit.URL
	Host      string
	Port      int    // 80 (443 for https) when the URL names none
	Path      string // hpath, without the leading "/"
	Search    string
	HasSearch bool
	// User and Password are the login, decoded, of a URL of the extended
	// syntax (urlkit.ParseExtended, the lenient reading), which RFC 3986
	// 3.2.1 allows and RFC 1738 3.3 does not; the plan sends them as HTTP
	// Basic credentials (RFC 7617), as browsers and curl do.
	User, Password       string
	HasUser, HasPassword bool
}

// HTTPOf checks u against RFC 1738's httpurl: no user name or password
// (RFC 1738 3.3), hpath = hsegment *[ "/" hsegment ] and search =
// *[ uchar | ";" | ":" | "@" | "&" | "=" ], so "/" and "?" may not appear
// unencoded in the search part.
func HTTPOf(u urlkit.URL) (*HTTP, error) {
	if err := checkHTTP(u); err != nil {
		return nil, err
	}
	v := &HTTP{}
	v.fill(u)
	return v, nil
}

// fill builds v from u, which checkHTTP has accepted (HTTPOf, ViewInto).
func (v *HTTP) fill(u urlkit.URL) {
	def := DefaultPort(u.Scheme()) // 80, or 443 for https (the core's scheme table)
	*v = HTTP{u: u, Host: u.Host()}
	if user, ok := u.User(); ok {
		v.User, _ = urlkit.Unescape(user)
		v.HasUser = true
		if pw, ok := u.Password(); ok {
			v.Password, _ = urlkit.Unescape(pw)
			v.HasPassword = true
		}
	}
	v.Port, _ = portOf(u, def)
	v.Path, _ = u.Path()
	v.Search, v.HasSearch = u.Search()
}

// searchChars are the bytes of an http search besides escapes: uchar |
// ";" | ":" | "@" | "&" | "=" (RFC 1738 5).
var searchChars = ucharTable(";:@&=")

// checkHTTP is HTTPOf's grammar, shared with [Validate]: it builds nothing.
func checkHTTP(u urlkit.URL) error {
	// The common case, valid, decided without building the error's
	// locator: no login (unless extended), no byte the search refuses.
	_, user := u.User()
	if !user || u.Extended() {
		search, ok := u.Search()
		if !ok || searchScan(u.Extended(), part{raw: search}) < 0 {
			return nil
		}
	}
	l := locOf(u)
	if !u.Extended() {
		if err := noLogin(l, "RFC 1738 3.3: no user name or password is allowed"); err != nil {
			return err
		}
	}
	if s, ok := u.Search(); ok {
		p := part{s, l.search(), urlkit.ComponentSearch}
		// RFC 3986 3.4 for the extended syntax: query = *( pchar / "/" /
		// "?" ); see httpRelaxed.
		if i := searchScan(u.Extended(), p); i >= 0 {
			return reservedErr(l, p, i, `RFC 1738 5: search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]`)
		}
	}
	return nil
}

// searchScan returns the offset in p, an http search part, of the first
// byte it may not hold, or -1. A URL of the strict syntax has a search
// part of RFC 1738's xchar and escapes only, and of those "/" and "?"
// are the bytes an http search refuses (TestFPathScanAgrees, FuzzView).
// A URL of the extended syntax is scanned byte by byte.
func searchScan(ext bool, p part) int {
	if ext {
		return p.firstNotIn(&searchCharsExtended)
	}
	return strings.IndexAny(p.raw, "/?")
}

// searchCharsExtended are the bytes of an http search of the extended
// syntax: RFC 1738's, and "/" and "?" (RFC 3986 3.4).
var searchCharsExtended = ucharTable(";:@&=/?")

// URL returns the URL the view was made from.
func (v *HTTP) URL() urlkit.URL { return v.u }

// HTTPPlan is how an HTTP client asks for the resource (RFC 1630, HTTP):
// where to connect, and the request, typed (its fields are the plan's
// own, so p.Method is the method); the access package sends
// HTTPRequest.Wire and nothing else. The fragment is never sent.
// ProxyRequestLine is the line a client would send through a proxy
// (informative: urlkit connects to the server itself).
type HTTPPlan struct {
	Addr       string // host:port of the server
	TLS        bool   // https: TLS to ServerName first
	ServerName string
	// URL is the URL without its fragment, a password masked
	// (urlkit.URL.Redacted): it is for messages; Base is the URL itself.
	URL string
	HTTPRequest
	Compressed       bool // Accept-Encoding: gzip was asked for
	ProxyRequestLine string
	scheme           string
	base             urlkit.URL
}

// Base returns the URL the plan was made from, without its fragment: what
// a redirect's Location is resolved against. For a plan not made by
// [HTTP.Plan] it is URL read by the extended syntax.
func (p *HTTPPlan) Base() urlkit.URL {
	if p.base.IsAbsolute() {
		return p.base
	}
	u, _ := urlkit.ParseExtended(p.URL)
	return u
}

// HTTPRequest is the request of an HTTP plan: the request line and the
// header fields, in the order sent.
type HTTPRequest struct {
	Method     string // "GET"
	RequestURI string // "/" path ["?" search]: the request target
	Version    string // "HTTP/1.0"
	Header     []HeaderField
}

// RequestLine returns Method SP RequestURI SP Version.
func (r *HTTPRequest) RequestLine() string { return r.Method + " " + r.RequestURI + " " + r.Version }

// Wire returns the whole request as sent: the request line, each header
// field, and the empty line, every line ended by CRLF.
func (r *HTTPRequest) Wire() string {
	var b strings.Builder
	b.WriteString(r.RequestLine())
	b.WriteString("\r\n")
	for _, h := range r.Header {
		b.WriteString(h.Line())
		b.WriteString("\r\n")
	}
	b.WriteString("\r\n")
	return b.String()
}

// HeaderField is one request header field; as a plan step, the line that
// sends it.
type HeaderField struct {
	Name  string
	Value string
}

// Line returns "Name: Value".
func (h HeaderField) Line() string { return h.Name + ": " + h.Value }

// Redacted returns the line with the credentials of an Authorization
// field masked: "Authorization: Basic xxxxx".
func (h HeaderField) Redacted() string {
	if strings.EqualFold(h.Name, "Authorization") {
		scheme, _, _ := strings.Cut(h.Value, " ")
		return h.Name + ": " + scheme + " " + urlkit.RedactedPassword
	}
	return h.Line()
}

// Op returns "header".
func (HeaderField) Op() string { return "header" }

// Text returns "send: Name: Value", credentials masked (see Redacted).
func (h HeaderField) Text() string { return "send: " + h.Redacted() }

// HTTPRequestLine is the step that sends the request line.
type HTTPRequestLine struct {
	Method, RequestURI, Version string
}

// Op returns "request_line".
func (HTTPRequestLine) Op() string { return "request_line" }

// Text returns "send: " and the line.
func (l HTTPRequestLine) Text() string {
	return "send: " + l.Method + " " + l.RequestURI + " " + l.Version
}

// HTTPEndHeader is the step that sends the empty line ending the header.
type HTTPEndHeader struct{}

// Op returns "end_header".
func (HTTPEndHeader) Op() string { return "end_header" }

// Text returns "send: (empty line)".
func (HTTPEndHeader) Text() string { return "send: (empty line)" }

// HTTPRead is the last step of an HTTP plan: reading the response.
type HTTPRead struct {
	Head bool // the answer to HEAD: no body follows (RFC 1945 8.2)
}

// Op returns "response".
func (HTTPRead) Op() string { return "response" }

// Text says how the response is read.
func (r HTTPRead) Text() string {
	if r.Head {
		return "read the response: status line and header (no body answers HEAD)"
	}
	return "read the response: status line, header, body to Content-Length or the connection's end"
}

// HTTPVersion is the version of the requests HTTP plans send: HTTP/1.0
// (RFC 1945), with a Host field, so that the response is delimited by the
// connection's end or Content-Length and never needs a second request.
const HTTPVersion = "HTTP/1.0"

// Scheme returns "http" or "https".
func (p *HTTPPlan) Scheme() string { return p.scheme }

// Steps returns the connection, each line of the request, and the reading
// of the response.
func (p *HTTPPlan) Steps() []Step {
	out := make([]Step, 0, len(p.Header)+4)
	out = append(out, Connect{Addr: p.Addr, TLS: p.TLS, ServerName: p.ServerName},
		HTTPRequestLine{p.Method, p.RequestURI, p.Version})
	for _, h := range p.Header {
		out = append(out, h)
	}
	return append(out, HTTPEndHeader{}, HTTPRead{Head: p.Method == "HEAD"})
}

// Plan returns the request. Path and search are sent as written, still
// encoded, so an encoded CR or LF stays encoded and cannot split the
// request. cfg.UserAgent and cfg.Compressed shape the header.
func (v *HTTP) Plan(cfg Config) (Plan, error) {
	if err := planPort(v.u); err != nil {
		return nil, err
	}
	base := v.u.WithoutFragment()
	whole := base.Redacted()
	uri := "/" + v.Path
	if v.HasSearch {
		uri += "?" + v.Search
	}
	host := v.Host
	if p, ok := v.u.RawPort(); ok && p != "" {
		if def := DefaultPort(v.u.Scheme()); v.Port != def {
			host += ":" + p
		}
	}
	method := "GET"
	if cfg.Head {
		method = "HEAD" // RFC 1945 8.2: the status and header alone
	}
	ua := cfg.UserAgent
	if ua == "" || strings.ContainsAny(ua, "\r\n\x00") {
		ua = DefaultUserAgent
	}
	p := &HTTPPlan{
		Addr:             addrOf(v.u, v.Host, v.Port),
		TLS:              v.u.Scheme() == "https",
		URL:              whole,
		HTTPRequest:      HTTPRequest{Method: method, RequestURI: uri, Version: HTTPVersion},
		Compressed:       cfg.Compressed,
		ProxyRequestLine: method + " " + whole + " " + HTTPVersion,
		scheme:           v.u.Scheme(),
		base:             base,
	}
	if p.TLS {
		// An IPv6 literal's address, without brackets (TLS sends no
		// server name for an address, RFC 6066 3, and checks the
		// certificate's IP addresses).
		p.ServerName = v.Host
		if v.u.HostIsIPv6() {
			p.ServerName = v.u.Hostname()
		}
	}
	p.Header = make([]HeaderField, 0, 6)
	p.Header = append(p.Header, HeaderField{"Host", host})
	if v.HasUser {
		// RFC 7617 2: user-id ":" password, base64; a user-id cannot
		// hold ":", and neither may hold a control character.
		l := locOf(v.u)
		if strings.IndexByte(v.User, ':') >= 0 {
			return nil, l.err(l.user(), urlkit.ComponentUser, ErrNotAllowed, "a user name with \":\" cannot be sent as HTTP Basic credentials (RFC 7617 2)")
		}
		for _, c := range []byte(v.User + v.Password) {
			if isControl(c) {
				return nil, l.err(l.user(), urlkit.ComponentUser, ErrControl, "the login decodes to control character 0x%02X, which HTTP Basic credentials cannot carry (RFC 7617 2; RFC 1738 6)", c)
			}
		}
		p.Header = append(p.Header, HeaderField{"Authorization", "Basic " + base64.StdEncoding.EncodeToString([]byte(v.User+":"+v.Password))})
	}
	p.Header = append(p.Header, HeaderField{"User-Agent", ua}, HeaderField{"Accept", "*/*"})
	if cfg.Compressed {
		p.Header = append(p.Header, HeaderField{"Accept-Encoding", "gzip"})
	}
	p.Header = append(p.Header, HeaderField{"Connection", "close"})
	return p, nil
}

// ---- JSON -----------------------------------------------------------------

// writeJSON writes the members of the view's JSON object (the package
// documentation's "JSON keys").
func (v *HTTP) writeJSON(w jsonw.Writer) jsonw.Writer {
	writeLogin(&w, v.Host, v.Port, v.User, v.HasUser, v.Password, v.HasPassword)
	w.KStr("path", v.Path)
	w.KOpt("search", v.Search, v.HasSearch)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *HTTP) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// plainJSON marks HTTP's strings as parts of its URL as written (plainView).
func (v *HTTP) plainJSON() {}

// writeJSON writes the plan's own members of its JSON object, before
// "steps".
func (p *HTTPPlan) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("addr", p.Addr)
	w.KBool("tls", p.TLS)
	w.KNonEmpty("server_name", p.ServerName)
	w.KStr("url", p.URL)
	w.KBool("compressed", p.Compressed)
	w.KStr("proxy_request_line", p.ProxyRequestLine)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *HTTPPlan) MarshalJSON() ([]byte, error) { return planJSON(p) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s HTTPRequestLine) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("method", s.Method)
	w.KStr("request_uri", s.RequestURI)
	w.KStr("version", s.Version)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s HTTPRequestLine) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s HeaderField) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("name", s.Name)
	_, v, _ := strings.Cut(s.Redacted(), ": ") // an Authorization field's credentials masked
	w.KStr("value", v)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s HeaderField) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s HTTPEndHeader) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s HTTPRead) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// fileName is the last segment of the path (RFC 1738 3.3), decoded: the
// view keeps the path encoded, and a valid URL's escapes are valid, so
// decoding cannot fail.
func (v *HTTP) fileName() (string, error) {
	last, _ := urlkit.Unescape(v.Path[strings.LastIndexByte(v.Path, '/')+1:])
	return last, nil
}

// asksHead marks the plan as one Config.Head turns into HEAD (RFC 1945
// 8.2): headPlan.
func (p *HTTPPlan) asksHead() {}
