// Package gateway is urlkit's HTTP gateway: an http.Handler that gives HTTP
// clients the schemes they lack (gopher, ftp, news, nntp, wais, prospero), as CERN httpd
// did and as RFC 1630 describes: "when an HTTP server is being used as a
// gateway (or "proxy") then the entire URI, whether HTTP or some other
// scheme, is passed on the HTTP command line".
//
// Two request forms are served:
//
//   - the proxy form, for clients configured with a gateway (lynx with
//     gopher_proxy or ftp_proxy, urlkit get --proxy): the request-target is
//     the absolute URL, "GET gopher://host/0/sel HTTP/1.0";
//   - the path form, for browsers: the absolute URL is the path,
//     "GET /gopher://host/1/ HTTP/1.1", and menus, ftp directories, news
//     listings, WAIS search results and Prospero directories become HTML
//     pages whose links stay in the path form.
//
// Each request goes through the same chain as urlkit get: urlkit.Parse,
// scheme.PlanOf, then the access layer executes the plan. The policy that
// keeps a gateway from being an open door (no file URLs, no ports of other
// services, no private targets when serving the public, a deadline, a size
// cap and a bound on upstream connections) lives in this package, in
// one place: Gateway.check and the dialer in policy.go.
package gateway

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/archive"
	"github.com/urlkit/urlkit/lenient"
	"github.com/urlkit/urlkit/scheme"
)

// Defaults for the zero fields of Config.
const (
	DefaultTimeout     = 2 * time.Minute
	DefaultMaxSize     = 256 << 20
	DefaultMaxUpstream = 64
)

// Config is the gateway's configuration. The zero value is safe to serve
// on any address: the policy's zero value (see Policy) and the defaults
// above.
type Config struct {
	// Scheme holds what plans need that URLs do not say: the e-mail
	// address sent as the anonymous ftp password and the news server for
	// news: URLs (always reachable, see Policy.Allow).
	Scheme scheme.Config
	// Policy opens what the safe defaults refuse: named targets, loopback
	// or private targets, other names for the gateway.
	Policy Policy
	// Timeout bounds each request from its arrival to the last byte sent.
	Timeout time.Duration
	// ConnectTimeout and ReadTimeout are passed to access (zero: its
	// defaults).
	ConnectTimeout, ReadTimeout time.Duration
	// MaxSize is the largest resource relayed, in bytes.
	MaxSize int64
	// MaxUpstream bounds the requests being served upstream at once; a
	// request that cannot get a slot before its deadline gets 503.
	// MaxUpstreamPerClient bounds those of one client address (an IPv6
	// client by its /64) and MaxUpstreamPerTarget those for one upstream
	// address, so that no client and no slow upstream holds them all; a
	// slot given back goes to the first waiting request under both (zero:
	// MaxUpstream/4 and MaxUpstream/8, at least 1).
	MaxUpstream          int
	MaxUpstreamPerClient int
	MaxUpstreamPerTarget int
	// MaxConns bounds the client connections open at once and
	// MaxConnsPerClient those of one client address: beyond a cap a
	// connection doing nothing (idle keep-alive, or nothing sent yet) is
	// closed to make room, and when none is the new connection is
	// answered 503 (zero: DefaultMaxConns, and MaxConns/16, at least 4).
	// They apply to a server made with HTTPServer that serves Listener.
	MaxConns          int
	MaxConnsPerClient int
	// HeaderTimeout bounds the time to read a request's header and
	// IdleTimeout the wait for the next request on a keep-alive connection
	// (zero: DefaultHeaderTimeout, DefaultIdleTimeout).
	HeaderTimeout, IdleTimeout time.Duration
	// FTPIdle bounds the logged-in ftp sessions kept between requests and
	// FTPIdleTimeout how long each is kept (zero: access's defaults,
	// access.DefaultFTPIdleTotal and DefaultFTPIdleTimeout); at most
	// access.DefaultFTPIdlePerHost are kept for one server.
	FTPIdle        int
	FTPIdleTimeout time.Duration
	// MaxPageItems and MaxPageBytes bound one listing page (a gopher
	// menu, an ftp directory, a group list, an overview): the page stops
	// there with a visible "listing truncated" line. Pages are written as
	// the listing arrives, so these bound what a browser is sent, not the
	// gateway's memory (zero: DefaultMaxPageItems, DefaultMaxPageBytes).
	MaxPageItems int
	MaxPageBytes int64
	// Log, when set, receives one Common Log Format line per request, with
	// passwords masked; LogJSON, when set, one JSON object per request
	// with the same facts (log.go).
	Log     io.Writer
	LogJSON io.Writer
	// Metrics keeps the gateway's Prometheus metrics (metrics.go), which
	// MetricsHandler serves.
	Metrics bool
	// Replay, when set, is the archive the gateway serves instead of
	// fetching (urlkit serve --replay): the same pages, from the captures,
	// with a banner naming the capture shown; nothing is dialled. The
	// path form also takes /TIMESTAMP/URL, the capture nearest that time.
	Replay *archive.Archive
	// Record, when set, writes every retrieval the gateway makes for its
	// users into WARC files (urlkit serve --record DIR): the records of a
	// resource read to its end, none of one that failed or was cut
	// short; URLs without their user and password.
	Record *archive.Recorder
}

// Gateway is the http.Handler. Create it with New.
type Gateway struct {
	cfg   Config
	pol   *policy
	slots *slots
	conns *connTracker
	logMu sync.Mutex
	// testDial, set by tests, replaces the dialer (the policy is then
	// asked about the address it connected to).
	testDial func(ctx context.Context, network, addr string) (net.Conn, error)
	now      func() time.Time
	// ftp keeps logged-in FTP control connections between requests
	// (access.FTPSessions says when a session may be reused).
	sessions *access.FTPSessions
	metrics  *metrics // nil unless Config.Metrics
	// allowAny and allowPublic are access.Options.Policy for a request
	// that may reach any address the policy opens, and for one that
	// reaches public addresses only (rule O3): made once, not for each
	// request.
	allowAny, allowPublic func(access.Connection) error
}

// New returns a gateway with cfg, its zero fields set to the defaults.
func New(cfg Config) *Gateway {
	cfg = cfg.withDefaults()
	// Directory pages show each file's kind, size and date (FEAT, then
	// MLSD, LIST or NLST: scheme.Config.FTPListDetails).
	cfg.Scheme.FTPListDetails = true
	pol, err := compile(cfg.Policy, cfg.Scheme.NewsServer)
	if err != nil {
		// An entry that is not host:port opens nothing (Policy.Check
		// reports it); the rest of the policy stands.
		pol, _ = compile(Policy{AllowLoopback: cfg.Policy.AllowLoopback, AllowPrivate: cfg.Policy.AllowPrivate,
			Allow: validEntries(cfg.Policy.Allow), Hosts: cfg.Policy.Hosts}, cfg.Scheme.NewsServer)
	}
	sl := newSlots(cfg.MaxUpstream, cfg.MaxUpstreamPerClient, cfg.MaxUpstreamPerTarget)
	// A gateway that has served nothing for a few seconds gives the memory
	// its requests used back to the system (a full collection, then the
	// freed pages returned), instead of keeping it until the runtime's
	// own schedule does: after a burst, its resident memory comes back
	// to where it was (measured by internal/testkit/gwsoak's soak).
	sl.idle, sl.idleAfter = freeMemory, 3*time.Second
	g := &Gateway{cfg: cfg, pol: pol, now: time.Now,
		slots:    sl,
		conns:    newConnTracker(cfg.MaxConns, cfg.MaxConnsPerClient),
		sessions: &access.FTPSessions{MaxIdleTotal: cfg.FTPIdle, IdleTimeout: cfg.FTPIdleTimeout}}
	g.allowAny = func(c access.Connection) error { return g.pol.allowConn(c, false) }
	g.allowPublic = func(c access.Connection) error { return g.pol.allowConn(c, true) }
	if cfg.Metrics {
		g.metrics = newMetrics(g)
	}
	return g
}

// freeMemory collects twice (the buffers kept in sync.Pools outlive one
// collection) and returns the freed pages to the system.
func freeMemory() {
	runtime.GC()
	debug.FreeOSMemory()
}

// withDefaults returns c with its zero fields set to the defaults.
func (cfg Config) withDefaults() Config {
	orDefault(&cfg.Timeout, DefaultTimeout)
	orDefault(&cfg.MaxSize, DefaultMaxSize)
	orDefault(&cfg.MaxUpstream, DefaultMaxUpstream)
	orDefault(&cfg.MaxUpstreamPerClient, max(1, cfg.MaxUpstream/4))
	orDefault(&cfg.MaxUpstreamPerTarget, max(1, cfg.MaxUpstream/8))
	orDefault(&cfg.MaxConns, DefaultMaxConns)
	orDefault(&cfg.MaxConnsPerClient, max(4, cfg.MaxConns/16))
	orDefault(&cfg.HeaderTimeout, DefaultHeaderTimeout)
	orDefault(&cfg.IdleTimeout, DefaultIdleTimeout)
	orDefault(&cfg.MaxPageItems, DefaultMaxPageItems)
	orDefault(&cfg.MaxPageBytes, DefaultMaxPageBytes)
	return cfg
}

// orDefault sets *v to def when it is zero or negative.
func orDefault[T int | int64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// HTTPServer returns an http.Server serving g as `urlkit serve` runs it:
// a bound on the time to read a request's header (HeaderTimeout) and its
// size (MaxHeaderBytes), on an idle keep-alive connection (IdleTimeout),
// and on writing a response (the request deadline and a margin for the
// last writes, so that a client that stops reading does not hold the relay
// past the deadline). Serve it on Listener(ln) for the connection caps.
func (g *Gateway) HTTPServer() *http.Server {
	return &http.Server{Handler: g, ReadHeaderTimeout: g.cfg.HeaderTimeout, IdleTimeout: g.cfg.IdleTimeout,
		WriteTimeout: g.cfg.Timeout + 10*time.Second, MaxHeaderBytes: MaxHeaderBytes,
		ConnState: g.conns.connState}
}

// Close closes the FTP sessions the gateway keeps between requests
// (sending QUIT), and waits until they are closed.
func (g *Gateway) Close() { g.sessions.Close() }

// request is one request being served.
type request struct {
	lw    logWriter // w, when the request reached ServeHTTP
	w     http.ResponseWriter
	r     *http.Request
	ctx   context.Context
	proxy bool // proxy form (absolute request-target)
	// publicOnly: a link followed from another site (rule O3), which
	// reaches public addresses only.
	publicOnly bool
	u          urlkit.URL // the target, fragment removed
	user       string     // the target's user and password, kept out of pages
	pass       string
	// Replay: the time the path form /TIMESTAMP/URL names (zero: the
	// latest capture), and the capture the request is answered from.
	at       time.Time
	replayed *replayed
	// Record: the retrieval being recorded, and whether its resource
	// was read to its end.
	recording *archive.Recording
	readAll   bool
	// listing: the client asked for listings as access.ListingType
	// (listing.go), with ftp details when listDetails.
	listing, listDetails bool
	// hdr holds a document's Content-Type and Content-Length values
	// (sendBody): the response header's slices of them are made here,
	// with the request, not one allocation each.
	hdr [2]string
}

// ServeHTTP serves one request in the proxy form or the path form, or the
// root page and its form handler.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// One allocation holds the request's state and the response writer
	// that records the log line's status and size.
	q := &request{lw: logWriter{ResponseWriter: w}, r: r}
	lw := &q.lw
	if g.cfg.Log != nil || g.cfg.LogJSON != nil {
		defer g.logRequest(lw, r, g.now())
	}
	if m := g.metrics; m != nil {
		m.inFlight.Inc()
		defer func() {
			m.inFlight.Dec()
			m.observe(q)
		}()
	}
	h := lw.Header()
	h["X-Content-Type-Options"] = hdrNosniff
	h["Referrer-Policy"] = hdrNoReferrer
	h["Cross-Origin-Resource-Policy"] = hdrSameOrigin
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		g.errorPage(lw, r, problem{Status: http.StatusMethodNotAllowed, Message: "the gateway answers GET and HEAD only"})
		return
	}
	if t, ok := strings.CutPrefix(r.RequestURI, badTargetPath+"?"); ok {
		// A target net/http would have refused (reqline.go): served as
		// written, so that urlkit's reading says what is wrong with it.
		if orig, err := url.PathUnescape(t); err == nil {
			r.RequestURI = orig
		}
	}
	// Rules O1-O3, before anything is planned or dialled.
	publicOnly, err := g.pol.checkRequest(r)
	if err != nil {
		status := http.StatusForbidden
		if _, ok := err.(*hostError); ok {
			status = http.StatusMisdirectedRequest
		}
		lw.rule = ruleOf(err)
		g.errorPage(lw, r, problem{Status: status, Message: err.Error()})
		return
	}
	q.w, q.publicOnly = lw, publicOnly
	target := r.RequestURI
	if !strings.HasPrefix(target, "/") {
		q.proxy = true
		g.fetch(q, target)
		return
	}
	rest := target[1:]
	switch {
	case rest == "":
		g.rootPage(lw)
	case rest == "go" || strings.HasPrefix(rest, "go?"):
		g.goForm(lw, r)
	case g.cfg.Replay != nil && !hasScheme(rest):
		at, target, ok, err := replayTarget(rest)
		if !ok || err != nil {
			msg := "no such page: the gateway's paths are /, /SCHEME:... (an absolute URL) and /TIMESTAMP/SCHEME:... (the capture nearest a time, YYYYMMDDhhmmss); type a URL below"
			if err != nil {
				msg = err.Error()
			}
			g.errorPage(lw, r, problem{Status: http.StatusNotFound, Message: msg})
			return
		}
		q.at = at
		g.fetch(q, target)
	case !hasScheme(rest):
		g.errorPage(lw, r, problem{Status: http.StatusNotFound, Message: "no such page: the gateway's paths are / and /SCHEME:... (an absolute URL); type a URL below"})
	default:
		g.fetch(q, rest)
	}
}

// Header values the gateway sets on every response or every document:
// set as they are (keys in canonical form), not through Header.Set, which
// would make a slice of each a response. Nothing appends to them in place
// (a slice of length and capacity one is copied by append).
var (
	hdrNosniff     = []string{"nosniff"}
	hdrNoReferrer  = []string{"no-referrer"}
	hdrSameOrigin  = []string{"same-origin"}
	hdrDocumentCSP = []string{"sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'"}
)

// hasScheme reports whether s starts with "scheme:".
func hasScheme(s string) bool {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// fetch serves the URL raw: policy, plan, execution, presentation.
func (g *Gateway) fetch(q *request, raw string) {
	q.user, q.pass = userinfoOf(raw)
	u, err := readTarget(raw)
	if err != nil {
		g.fail(q, err)
		return
	}
	if !u.IsAbsolute() {
		g.fail(q, &PolicyError{Reason: "the request names a partial URL; the gateway needs an absolute one"})
		return
	}
	q.u = u.WithoutFragment()
	cfg := g.cfg.Scheme
	if q.listing, q.listDetails = wantsListing(q.r.Header["Accept"]); q.listing {
		cfg.FTPListDetails = q.listDetails
	}
	plan, err := g.checkWith(q.u, cfg)
	if err != nil {
		g.fail(q, err)
		return
	}
	ctx, cancel := context.WithTimeout(q.r.Context(), g.cfg.Timeout)
	defer cancel()
	q.ctx = ctx
	client, target := clientKey(q.r.RemoteAddr), targetOf(plan)
	if !g.slots.acquire(ctx, client, target) {
		g.errorPage(q.w, q.r, problem{Status: http.StatusServiceUnavailable, Message: "the gateway is serving as many requests as it may (for this client, for this server, or in all); try again", Target: q.shown()})
		return
	}
	defer g.slots.release(client, target)
	defer q.endRecording(g)
	if q.listing {
		g.relay(q, plan)
		return
	}
	switch p := plan.(type) {
	case *scheme.GopherPlan:
		g.gopher(q, p)
	case *scheme.FTPPlan:
		g.ftp(q, p)
	case *scheme.NNTPPlan:
		g.news(q, p)
	case *scheme.WAISPlan:
		g.wais(q, p)
	case *scheme.ProsperoPlan:
		g.prospero(q, p)
	case *scheme.HTTPPlan:
		g.archivedHTTP(q, p) // replay only (check)
	default:
		g.fail(q, &unsupportedError{scheme: plan.Scheme()})
	}
}

// readTarget reads a request's target: the strict reading (RFC 1738), or,
// where the strict reading refuses it, the lenient reading when that
// takes the text as it stands, repairing nothing: a form RFC 1738 has
// none for, chiefly an IPv6 literal host ("gopher://[::1]:7070/1/",
// RFC 3986 3.2.2). That is the form /go redirects to after the lenient
// reading, so a URL typed there always has a page. What the lenient
// reading would change (a space, a lone "%") stays an error here; /go
// repairs it and says so. The address policy applies as to any target,
// on the address dialled.
func readTarget(raw string) (urlkit.URL, error) {
	u, err := urlkit.Parse(raw)
	if err == nil {
		return u, nil
	}
	lu, _, lerr := lenient.Parse(raw)
	if lerr == nil && lu.String() == raw {
		return lu, nil
	}
	if lerr != nil && bracketedHost(raw) {
		// An IPv6 literal the lenient reading refuses too (a zone, an
		// IPv4 address in brackets, no "]"): its error says what is wrong
		// with the literal, where the strict one only says RFC 1738 has
		// none.
		return u, lerr
	}
	return u, err
}

// bracketedHost reports whether raw's host starts with "[", an IPv6
// literal as RFC 3986 3.2.2 writes it.
func bracketedHost(raw string) bool {
	_, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return false
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	return strings.HasPrefix(rest, "[")
}

// targetOf is the upstream address a plan's slot is counted against.
func targetOf(plan scheme.Plan) string {
	switch p := plan.(type) {
	case *scheme.GopherPlan:
		return p.Addr
	case *scheme.FTPPlan:
		return p.Addr
	case *scheme.NNTPPlan:
		return p.Addr
	case *scheme.WAISPlan:
		return p.Addr
	case *scheme.ProsperoPlan:
		return p.Addr
	}
	return plan.Scheme()
}

// check is the gateway's policy, applied to every URL before anything is
// sent: it returns the URL's plan or the reason for refusing it.
func (g *Gateway) check(u urlkit.URL) (scheme.Plan, error) { return g.checkWith(u, g.cfg.Scheme) }

// checkWith is check, planning with cfg.
func (g *Gateway) checkWith(u urlkit.URL, cfg scheme.Config) (scheme.Plan, error) {
	switch u.Scheme() {
	case "file":
		return nil, &PolicyError{Rule: "U1", Reason: "file URLs name the gateway's own files and are never served"}
	case "http", "https":
		if g.cfg.Replay == nil {
			return nil, &unsupportedError{scheme: u.Scheme(), why: "HTTP clients fetch http URLs themselves; the gateway carries the schemes they lack"}
		}
		// A replaying gateway dials nothing: an archived http response
		// is served as it was captured (replay.go).
		return scheme.PlanOf(u, cfg)
	}
	if err := checkPort(u); err != nil {
		return nil, err
	}
	plan, err := scheme.PlanOf(u, cfg)
	if errors.Is(err, scheme.ErrControl) {
		return nil, &PolicyError{Rule: "U2", Reason: err.Error()}
	}
	if err != nil {
		return nil, err
	}
	switch plan.(type) {
	case *scheme.GopherPlan, *scheme.FTPPlan, *scheme.NNTPPlan, *scheme.WAISPlan, *scheme.ProsperoPlan:
		return plan, nil
	}
	return nil, &unsupportedError{scheme: plan.Scheme()}
}

// unsupportedError reports a scheme the gateway does not retrieve (501).
type unsupportedError struct {
	scheme, why string
}

func (e *unsupportedError) Error() string {
	if e.why != "" {
		return e.scheme + ": " + e.why
	}
	return e.scheme + ": the gateway has no client for this scheme (" + access.ErrNotRetrievable.Error() + ")"
}

// statusOf maps an error onto the HTTP status the gateway answers with:
// 400 for a URL urlkit rejects, 403 for a refusal by policy (the follow
// rule's included), 501 for a
// scheme without a client, 504 for an upstream timeout, 502 for any other
// upstream failure.
func statusOf(err error) int {
	var (
		pe  *PolicyError
		un  *unsupportedError
		se  *urlkit.SyntaxError
		be  *urlError
		ne  net.Error
		lim *access.LimitError
	)
	switch {
	case notArchived(err):
		return http.StatusNotFound
	case errors.As(err, &pe), errors.As(err, new(*access.FollowError)), errors.Is(err, scheme.ErrControl), errors.Is(err, scheme.ErrNotLocal):
		return http.StatusForbidden
	case errors.As(err, &un), errors.Is(err, scheme.ErrNoAccess):
		return http.StatusNotImplemented
	case errors.As(err, &se), errors.As(err, &be):
		return http.StatusBadRequest
	case errors.As(err, &lim):
		if lim.Limit == "timeout" || lim.Limit == "max-time" || lim.Limit == "speed-limit" {
			return http.StatusGatewayTimeout
		}
		return http.StatusBadGateway
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return http.StatusGatewayTimeout
	}
	return http.StatusBadGateway
}

// fail answers with the status for err and what failed in plain words
// (access.PlainError, the command line's wording), with the URL's user and
// password kept out of it.
func (g *Gateway) fail(q *request, err error) {
	status := statusOf(err)
	if w, ok := q.w.(*logWriter); ok {
		w.rule = ruleOf(err)
	}
	msg := access.PlainError(err)
	if status == http.StatusGatewayTimeout {
		msg = "the upstream server did not answer in time: " + msg
	}
	p := problem{Status: status, Message: scrub(msg, q.user, q.pass), Target: q.shown()}
	// A URL urlkit rejects is shown with the offending character marked
	// (unless it holds a login, which the page never shows).
	var se *urlkit.SyntaxError
	if errors.As(err, &se) && q.user == "" && q.pass == "" && se.Offset >= 0 && se.Offset <= len(se.Input) {
		p.Input = markInput(se.Input, se.Offset)
		// What the lenient reading makes of it (the URL box's reading),
		// as a link to follow in one click.
		if lu, warns, lerr := lenient.Parse(se.Input); lerr == nil && lu.IsAbsolute() && lu.String() != se.Input {
			p.Fix = lu.WithoutFragment().String()
			for _, w := range warns {
				p.Repairs = append(p.Repairs, w.Reason)
			}
		}
	}
	// A Prospero name outside the server's tree: the URL that names it
	// under the root the server reports.
	var re *access.ProsperoRootError
	if errors.As(err, &re) {
		p.Fix, p.FixText = re.URL(), "The server serves the tree under "+re.Root+" (as pstatus reports it); the same name there"
	}
	g.errorPage(q.w, q.r, p)
}

// shown is the request's URL as pages show it: without user or password,
// "" before it is parsed.
func (q *request) shown() string {
	if q.u.String() == "" {
		return ""
	}
	return stripUserinfo(q.u.String())
}

// bufPool holds the buffers a response is read into before its headers
// are sent.
var bufPool = sync.Pool{New: func() any { b := make([]byte, prefetch); return &b }}

// prefetch is how much of a resource is read before the response headers
// are written: a resource that fits gets a Content-Length, and an upstream
// failure within it still gets its proper status.
const prefetch = 64 << 10

// sendBody relays the resource rc with content type ctype, completed by
// contentType from the first bytes (a charset for text; a sniffed type
// when ctype is sniffType). Upstream bytes
// are served under a sandboxing Content-Security-Policy: a gopher "h" item
// or an ftp .html file runs no script in the gateway's origin. A
// Content-Length is sent only when the gateway has the whole resource,
// read to its end within the first buffer: the length an upstream
// announces (size, an ftp 150 reply's) is not passed on, since access
// checks it only when the stream ends (fewer bytes is an error, more are
// delivered and noted in the log). A transfer that fails after the status
// is sent, a short one included, ends the connection without completing
// the response, so the client never takes a truncated resource for whole.
func (g *Gateway) sendBody(q *request, rc io.ReadCloser, size int64, ctype string) {
	defer rc.Close()
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	buf := *bp
	n, err := io.ReadFull(rc, buf)
	complete := err == io.EOF || err == io.ErrUnexpectedEOF
	if err != nil && !complete {
		g.fail(q, err)
		return
	}
	h := q.w.Header()
	q.hdr[0] = contentType(ctype, buf[:n], complete)
	h["Content-Type"] = q.hdr[0:1:1] // capacity 1: an append copies it
	h["Content-Security-Policy"] = hdrDocumentCSP
	if complete {
		q.hdr[1] = strconv.Itoa(n)
		h["Content-Length"] = q.hdr[1:2:2]
		if r, ok := rc.(*access.Resource); ok {
			if _, ftp := r.Plan.(*scheme.FTPPlan); ftp {
				// The transfer is complete: Close hands the logged-in
				// session back to the pool (access.FTPSessions) now, before
				// the client has the response and can ask for the next file
				// on the same session. (Gopher's Close only closes a socket:
				// it stays after the response, below.)
				rc.Close()
			}
		}
		q.w.WriteHeader(http.StatusOK)
		q.w.Write(buf[:n])
		// Not flushed here: net/http sends the whole response in one
		// write when the handler returns, after the upstream connection
		// is closed (the deferred Close). Flushed before that, the
		// client's next request arrives while the handler still runs,
		// and net/http's background read of the connection has to hand
		// it over: at 8 clients that cost about a tenth of the rate
		// (bench/gateway -only gopher; TestDocumentNotFlushed).
		return
	}
	q.w.WriteHeader(http.StatusOK)
	if _, err := q.w.Write(buf[:n]); err != nil {
		return
	}
	if _, err := io.CopyBuffer(q.w, onlyReader{rc}, buf); err != nil {
		// The status is sent: end the connection without the closing
		// chunk, so the client sees an incomplete response rather than a
		// complete-looking truncated one.
		g.logMu.Lock()
		if w, ok := q.w.(*logWriter); ok {
			w.aborted = scrub(err.Error(), q.user, q.pass)
		}
		g.logMu.Unlock()
		panic(http.ErrAbortHandler)
	}
}

// onlyReader hides everything but Read, so io.CopyBuffer uses the buffer
// it is given.
type onlyReader struct{ io.Reader }
