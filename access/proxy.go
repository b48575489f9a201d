package access

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

// Gateways ("proxies"): RFC 1738 section 4 asks that "client software
// [should] have provision for being configured to use specific gateway
// locators for indirect access", and RFC 1630 says that a client talking
// to a gateway passes "the entire URI, whether HTTP or some other scheme"
// on the HTTP request line. The configuration follows the libwww
// convention that lynx, curl and wget share: an environment variable
// <scheme>_proxy per scheme and no_proxy for the hosts reached directly.

// ProxySettings say which gateway, if any, a URL is fetched through.
type ProxySettings struct {
	// Proxy, when set, is the gateway for every scheme that can be
	// fetched through one (urlkit get --proxy). It takes precedence over
	// the environment.
	Proxy string
	// Getenv reads the environment (os.Getenv when nil): <scheme>_proxy
	// (also <SCHEME>_PROXY, except HTTP_PROXY, which a CGI program would
	// receive from a client's "Proxy:" header) and no_proxy (or NO_PROXY).
	Getenv func(string) string
}

// noProxySchemes name no network retrieval a gateway could do for us.
var noProxySchemes = map[string]bool{"file": true, "mailto": true, "telnet": true, "tn3270": true, "rlogin": true}

// ProxyFor returns the gateway URL ("http://host:port/") that u is to be
// fetched through, or "" to fetch it directly. host is the server u's
// retrieval connects to: u's host, or for news URLs the configured news
// server's host (empty when there is none). no_proxy lists host names and
// domain suffixes (".example.org" or "example.org"), each optionally with
// ":port", separated by commas or spaces; "*" matches every host.
func (s ProxySettings) ProxyFor(u urlkit.URL, host, port string) (string, error) {
	name := u.Scheme()
	if noProxySchemes[name] {
		return "", nil
	}
	getenv := s.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	proxy := s.Proxy
	if proxy == "" {
		proxy = getenv(name + "_proxy")
		if proxy == "" && name != "http" {
			proxy = getenv(strings.ToUpper(name) + "_PROXY")
		}
	}
	if proxy == "" {
		return "", nil
	}
	noProxy := getenv("no_proxy")
	if noProxy == "" {
		noProxy = getenv("NO_PROXY")
	}
	if bypass(noProxy, host, port) {
		return "", nil
	}
	if name == "https" {
		// A GET of an https URL to an http gateway would carry the request
		// and the answer in clear between here and the gateway; a tunnel
		// (CONNECT) is what https needs, and urlkit does not make one.
		return "", fmt.Errorf("gateway %s: https URLs are not sent through a gateway (that needs a CONNECT tunnel); unset https_proxy or list the host in no_proxy", proxy)
	}
	return normalizeProxy(proxy)
}

// Gateway is ProxyFor with the host and port taken from u (its port, or
// the scheme's default port), or for news URLs, which name no host, from
// newsServer (host[:port], default port 119).
func (s ProxySettings) Gateway(u urlkit.URL, newsServer string) (string, error) {
	host, port := u.Host(), ""
	if p, ok := u.RawPort(); ok && p != "" {
		port = p
	} else if def := scheme.DefaultPort(u.Scheme()); def > 0 {
		port = fmt.Sprint(def)
	}
	if u.Scheme() == "news" {
		host, port = newsServer, "119"
		if h, p, err := net.SplitHostPort(newsServer); err == nil {
			host, port = h, p
		}
	}
	return s.ProxyFor(u, host, port)
}

// bypass reports whether host:port matches the no_proxy list.
func bypass(list, host, port string) bool {
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	for _, e := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		e = strings.ToLower(e)
		if e == "*" {
			return true
		}
		if host == "" {
			continue
		}
		eh, ep := e, ""
		if h, p, err := net.SplitHostPort(e); err == nil {
			eh, ep = h, p
		}
		if ep != "" && ep != port {
			continue
		}
		eh = strings.TrimSuffix(strings.TrimPrefix(strings.Trim(eh, "[]"), "."), ".")
		if eh == "" {
			continue
		}
		if host == eh || strings.HasSuffix(host, "."+eh) {
			return true
		}
	}
	return false
}

// normalizeProxy checks a gateway setting and returns it as
// "http://host:port/". A bare "host:port" is taken as an http gateway.
func normalizeProxy(p string) (string, error) {
	if !strings.Contains(p, "://") {
		p = "http://" + p
	}
	u, err := urlkit.Parse(p)
	if err != nil {
		return "", fmt.Errorf("gateway setting %q: %w", p, err)
	}
	if u.Scheme() != "http" {
		return "", fmt.Errorf("gateway setting %q: only http gateways are supported", p)
	}
	if u.Host() == "" {
		return "", fmt.Errorf("gateway setting %q: no host", p)
	}
	hp := u.Host()
	if port, ok := u.RawPort(); ok && port != "" {
		hp += ":" + port
	} else {
		hp += ":80"
	}
	return "http://" + hp + "/", nil
}

// GatewayError reports a gateway's answer other than 200 OK: its status
// line and the start of its body (escaped), which says why.
type GatewayError struct {
	Gateway string
	Status  string
	Body    string
}

// Error formats the failure for a person.
func (e *GatewayError) Error() string {
	msg := fmt.Sprintf("gateway %s answered %s", e.Gateway, e.Status)
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// ListingType is the media type of a listing as the access layer gives it
// (a Resource whose Kind is not "file": a gopher menu as sent, an ftp
// directory's NLST, MLSD or LIST lines, a WAIS search's or a Prospero
// directory's listing, a group list or overview), which urlkit's gateway
// sends to a client that names it in its Accept header, rather than its
// HTML page of the listing. Its parameters: "kind", the Resource's Kind;
// "type", its ContentType; "format", an ftp listing's ListFormat
// ("nlst", "mlsd", "list"); "directory=1" for an ftp URL naming a file
// the server took for a directory (Resource.Directory). In a request's
// Accept, "ftp-details=1" asks for ftp directories with each file's kind,
// size and date (scheme.Config.FTPListDetails).
const ListingType = "application/x-urlkit-listing"

// listingKinds are the Kinds a ListingType answer may name.
var listingKinds = map[string]bool{"directory": true, "menu": true, "overview": true, "groups": true, "search": true}

// FetchViaProxy asks the gateway (as ProxyFor returns it) for u: it sends
// "GET <u without fragment> HTTP/1.0" (the proxy request line of RFC 1630
// and of the http plan) and returns the body of a 200 answer as a Resource
// of kind "file", with the gateway's Content-Type, Content-Length (-1 when
// absent), status line and header. It asks for listings as ListingType
// (ftp ones with details when opts.ListDetails is set): a gateway that
// answers one gives a Resource of that kind, as Execute would. Any other answer is a *GatewayError. The options' timeouts, MaxSize, Progress,
// Trace and Dial apply as for a direct fetch; Trace shows the request
// line with the password masked.
func FetchViaProxy(ctx context.Context, gateway string, u urlkit.URL, opts *Options) (*Resource, error) {
	if opts == nil {
		opts = &Options{}
	}
	target := u.WithoutFragment().String()
	if strings.ContainsAny(target, " \t\r\n\x00") {
		return nil, fmt.Errorf("gateway: URL %q holds a space or control character", target)
	}
	gu, err := urlkit.Parse(gateway)
	if err != nil {
		return nil, err
	}
	port, _ := gu.RawPort()
	addr := net.JoinHostPort(strings.Trim(gu.Host(), "[]"), port)
	c, err := opts.dial(ctx, "gateway", addr)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	closeAll := func() error { stop(); return c.Close() }
	conn := &deadlineConn{Conn: c, idle: opts.readTimeout()}
	accept := ListingType
	if opts.ListDetails {
		accept += ";ftp-details=1"
	}
	req := "GET " + target + " HTTP/1.0\r\nHost: " + addr + "\r\nUser-Agent: urlkit\r\nAccept: " + accept + ", */*;q=0.5\r\n\r\n"
	if opts.Trace != nil {
		fmt.Fprintf(opts.Trace, "> GET %s HTTP/1.0 (to gateway %s)\n", u.WithoutFragment().Redacted(), addr)
	}
	if _, err := io.WriteString(conn, req); err != nil {
		closeAll()
		return nil, &StepError{Protocol: "gateway", Step: "request", Err: proxyCtxErr(ctx, err)}
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		closeAll()
		return nil, &StepError{Protocol: "gateway", Step: "response", Err: proxyCtxErr(ctx, err)}
	}
	if opts.Trace != nil {
		fmt.Fprintf(opts.Trace, "< %s %s\n", resp.Proto, resp.Status)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		closeAll()
		return nil, &GatewayError{Gateway: gateway, Status: resp.Status, Body: strings.TrimSpace(strings.Map(func(r rune) rune {
			if r < 0x20 || r == 0x7f {
				return ' '
			}
			return r
		}, string(b)))}
	}
	body := &proxyBody{ctx: ctx, r: resp.Body, opts: opts, close: closeAll, want: resp.ContentLength}
	r := &Resource{ReadCloser: body, Kind: "file", ContentType: resp.Header.Get("Content-Type"), Size: resp.ContentLength,
		Status: resp.Proto + " " + resp.Status, Header: resp.Header}
	if mt, params, err := mime.ParseMediaType(r.ContentType); err == nil && mt == ListingType && listingKinds[params["kind"]] {
		r.Kind, r.ContentType, r.Directory = params["kind"], params["type"], params["directory"] == "1"
		switch f := ListFormat(params["format"]); f {
		case ListNames, ListFacts, ListLong:
			r.ListFormat = f
		}
	}
	return r, nil
}

func proxyCtxErr(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return fmt.Errorf("%w (%v)", cerr, err)
	}
	return err
}

// proxyBody is a gateway answer's body: bounded by MaxSize, reporting
// progress, and checked against Content-Length (a gateway that cuts a
// transfer short is an error, not a short file).
type proxyBody struct {
	ctx   context.Context
	r     io.Reader
	opts  *Options
	n     int64
	want  int64
	close func() error
	err   error
}

func (b *proxyBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	if max := b.opts.MaxSize; max > 0 && b.n > max {
		n -= int(b.n - max)
		b.n = max
		b.err = &LimitError{Protocol: "gateway", Step: "transfer", Limit: "max-size", Value: fmt.Sprintf("%d bytes", max)}
		return n, b.err
	}
	if n > 0 && b.opts.Progress != nil {
		b.opts.Progress(b.n)
	}
	if err == io.EOF && b.want >= 0 && b.n < b.want {
		err = fmt.Errorf("gateway: transfer cut short after %d of %d bytes: %w", b.n, b.want, io.ErrUnexpectedEOF)
	}
	if err != nil && err != io.EOF {
		err = &StepError{Protocol: "gateway", Step: "transfer", Err: proxyCtxErr(b.ctx, err)}
	}
	b.err = err
	return n, err
}

func (b *proxyBody) Close() error { return b.close() }
