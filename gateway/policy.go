package gateway

// The gateway's policy, in one place: which requests it answers (the
// browser-origin rules: Host, Sec-Fetch-Site, Origin, Referer), which URLs
// it plans (file:, ports), and which connections it opens (the address
// actually dialled, the port of every connection, FTP data connections
// included). Its zero value is the safe one. docs/gateway.md's "Policy" table lists
// these rules by name; the names (O1, T1, ...) appear in the refusals.

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/scheme"
)

// Policy says what the gateway opens beyond its safe defaults. The zero
// value opens nothing: only public addresses are reached, on ports that
// belong to no other service; requests are answered only when they name
// the gateway (its own address or localhost) and no browser marks them as
// coming from another site.
type Policy struct {
	// Allow names targets the gateway reaches whatever their address, as
	// "host:port" (an IPv6 address in brackets): the gateway's own news
	// server, a gopher server on the same machine. An entry matches a
	// connection to exactly that host, as the URL or the configuration
	// names it, and that port; the FTP data connections of an allowed
	// control connection are allowed too (on ports 1024-65535). The news
	// server of Config.Scheme is always allowed.
	Allow []string
	// AllowLoopback lets loopback targets (127.0.0.0/8, ::1) be reached
	// on the default port of their scheme (gopher 70, ftp 21, nntp 119):
	// browsing servers on this machine through a gateway that listens on
	// loopback only (urlkit serve sets it then). Other ports need Allow.
	AllowLoopback bool
	// AllowPrivate does the same for private-use addresses (10.0.0.0/8,
	// 172.16.0.0/12, 192.168.0.0/16, fc00::/7): browsing the local network.
	AllowPrivate bool
	// Hosts are the names the gateway answers to besides the address a
	// client connected to and "localhost" on loopback ("name" for any
	// port, "name:port" for one): the names a DNS entry or a front proxy
	// gives it. A request whose Host names anything else is refused (421),
	// which defeats DNS rebinding.
	Hosts []string
}

// PolicyError reports a request the gateway refuses on purpose (HTTP 403):
// a file URL, the port of another service, a private target, a request a
// browser made for another site, or a request argument that would inject
// protocol commands. Rule names the rule of the policy table in docs/gateway.md.
type PolicyError struct {
	Rule   string
	Reason string
}

// Error formats the refusal for a person.
func (e *PolicyError) Error() string {
	if e.Rule == "" {
		return "refused by the gateway's policy: " + e.Reason
	}
	return "refused by the gateway's policy (" + e.Rule + "): " + e.Reason
}

// hostError reports a request whose Host names something other than the
// gateway (HTTP 421 Misdirected Request).
type hostError struct{ host string }

func (e *hostError) Error() string {
	return fmt.Sprintf("refused by the gateway's policy (O1): the request is addressed to %q, which is not this gateway's address or one of its names (a page whose name now points here, as in DNS rebinding, is refused; urlkit serve --host NAME adds a name)", e.host)
}

// Check reports an Allow entry that is not "host:port". New treats such
// an entry as naming nothing.
func (p Policy) Check() error {
	_, err := compile(p, "")
	return err
}

// validEntries returns the entries of list that are host:port.
func validEntries(list []string) []string {
	var ok []string
	for _, a := range list {
		if _, err := hostPortKey(a, 0); err == nil {
			ok = append(ok, a)
		}
	}
	return ok
}

// ---- compiled policy ---------------------------------------------------------

// policy is a Policy prepared for lookups.
type policy struct {
	allow         map[string]bool // normalised host:port
	hosts         map[string]bool // normalised name or name:port
	allowLoopback bool
	allowPrivate  bool
}

// compile prepares p, with the news server always allowed. An entry that
// is not host:port is an error.
func compile(p Policy, newsServer string) (*policy, error) {
	c := &policy{allow: map[string]bool{}, hosts: map[string]bool{}, allowLoopback: p.AllowLoopback, allowPrivate: p.AllowPrivate}
	for _, a := range p.Allow {
		k, err := hostPortKey(a, 0)
		if err != nil {
			return nil, fmt.Errorf("gateway: Allow entry %q: %v", a, err)
		}
		c.allow[k] = true
	}
	if newsServer != "" {
		if k, err := hostPortKey(newsServer, 119); err == nil {
			c.allow[k] = true
		}
	}
	for _, h := range p.Hosts {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "" {
			continue
		}
		if k, err := hostPortKey(h, 0); err == nil {
			c.hosts[k] = true
			continue
		}
		c.hosts[normHost(h)] = true
	}
	return c, nil
}

// hostPortKey normalises "host:port" for comparison: the host lower-cased
// without a final dot, an IP address in its canonical form. defPort is
// used when s names no port (0: a port is required).
func hostPortKey(s string, defPort int) (string, error) {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		if defPort == 0 {
			return "", errors.New("want host:port (an IPv6 address in brackets)")
		}
		host, port = strings.Trim(s, "[]"), strconv.Itoa(defPort)
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return "", fmt.Errorf("port %q is not 1 to 65535", port)
	}
	if host == "" {
		return "", errors.New("no host")
	}
	return net.JoinHostPort(normHost(host), strconv.Itoa(n)), nil
}

// normHost lower-cases a host name and removes a final dot; an IP address
// is written in its canonical form (IPv4-mapped IPv6 as IPv4).
func normHost(h string) string {
	h = strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
	if ip, err := netip.ParseAddr(h); err == nil {
		return ip.Unmap().WithZone("").String()
	}
	return h
}

// ---- rules O1-O3: the request's origin ----------------------------------------

// crossOrigin is the standard library's cross-origin check
// (Sec-Fetch-Site, else Origin against Host). The gateway asks it about
// every request as if the method were unsafe: a GET through the gateway
// sends bytes to another service, which is what the check guards.
var crossOrigin = http.NewCrossOriginProtection()

// checkRequest applies rules O1-O3 to r before anything is planned or
// dialled. It returns publicOnly for a top-level navigation from another
// site (rule O3), which may reach public targets only.
func (p *policy) checkRequest(r *http.Request) (publicOnly bool, err error) {
	pathForm := strings.HasPrefix(r.RequestURI, "/")
	if pathForm && !p.hostOK(r) {
		return false, &hostError{host: r.Host}
	}
	if !crossSite(r) {
		return false, nil
	}
	if r.Header.Get("Sec-Fetch-Mode") == "navigate" && r.Header.Get("Sec-Fetch-Dest") == "document" {
		return true, nil
	}
	return false, &PolicyError{Rule: "O2", Reason: "a page of another site asked the browser for this (Sec-Fetch-Site, Origin or Referer); the gateway serves other sites' pages only links the user follows, to public servers"}
}

// crossSite reports whether a browser marks r as made for another origin:
// Sec-Fetch-Site, else Origin (both by http.CrossOriginProtection), else
// the origin of the Referer. A request with none of them (curl, lynx,
// urlkit get, a typed URL) is not.
func crossSite(r *http.Request) bool {
	site, origin := r.Header.Get("Sec-Fetch-Site"), r.Header.Get("Origin")
	if site == "" && origin == "" {
		ref := r.Header.Get("Referer")
		if ref == "" {
			return false
		}
		u, err := url.Parse(ref)
		if err != nil || u.Host == "" {
			return true // a Referer that names no origin is not ours
		}
		origin = u.Scheme + "://" + u.Host
	}
	unsafe := *r
	unsafe.Method = http.MethodPost
	if origin != r.Header.Get("Origin") {
		unsafe.Header = r.Header.Clone()
		unsafe.Header.Set("Origin", origin)
	}
	return crossOrigin.Check(&unsafe) != nil
}

// hostOK reports whether r's Host names the gateway (rule O1): the
// address the client connected to, "localhost" when that address is
// loopback, or one of Policy.Hosts.
func (p *policy) hostOK(r *http.Request) bool {
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		host, port = r.Host, ""
	}
	host = normHost(host)
	if host == "" {
		return false
	}
	if p.hosts[host] || port != "" && p.hosts[net.JoinHostPort(host, port)] || port == "" && p.hosts[net.JoinHostPort(host, "80")] {
		return true
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	lap, err := netip.ParseAddrPort(local.String())
	if err != nil {
		return false
	}
	if port == "" {
		port = "80"
	}
	if port != strconv.Itoa(int(lap.Port())) {
		return false
	}
	la := lap.Addr().Unmap().WithZone("")
	if host == "localhost" {
		return la.IsLoopback()
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap() == la
}

// ---- rules P1-P3: ports ---------------------------------------------------------

// BadPort reports whether the gateway refuses to connect to port for a URL
// of the named scheme: a port on the Fetch Standard's bad port list, unless
// it is the scheme's own default port (21 for ftp, 119 for nntp). The list
// and the rule are scheme.BadPort's, which the command line's warnings
// read too.
func BadPort(schemeName string, port int) (string, bool) { return scheme.BadPort(schemeName, port) }

// checkPort applies rule P1 to the port a URL names (or its scheme's
// default port when it names none) before the URL is planned.
func checkPort(u urlkit.URL) error {
	p, ok := u.RawPort()
	if !ok || p == "" {
		return nil // the scheme's default port
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		return nil // the scheme layer reports it
	}
	if n < 1 || n > 65535 {
		return &urlError{msg: fmt.Sprintf("port %s is outside 1-65535 (RFC 793 ports are 16 bits)", p)}
	}
	if service, bad := BadPort(u.Scheme(), n); bad {
		return &PolicyError{Rule: "P1", Reason: fmt.Sprintf("port %d belongs to another service (%s; WHATWG Fetch bad port list)", n, service)}
	}
	return nil
}

// ---- rules T1-T4: the address actually dialled ------------------------------------

// allowConn is the gateway's decision on one connection access is about
// to open (access.Options.Policy), made on the address actually dialled.
// publicOnly is set for a cross-site top-level navigation (rule O3).
func (p *policy) allowConn(c access.Connection, publicOnly bool) error {
	port := int(c.Addr.Port())
	if c.Data {
		// P2: an FTP data connection goes to the control connection's
		// peer (access sees to that) on the port the server chose, which
		// must be an unprivileged port of no listed service (RFC 2577
		// section 3, the "bounce" attack, from the client's side).
		if port < 1024 {
			return &PolicyError{Rule: "P2", Reason: fmt.Sprintf("the server's passive reply names port %d; data connections go to ports 1024-65535 only", port)}
		}
		if service, bad := scheme.BlockedPort(port); bad {
			return &PolicyError{Rule: "P2", Reason: fmt.Sprintf("the server's passive reply names port %d, which belongs to another service (%s)", port, service)}
		}
	} else if service, bad := BadPort(c.Protocol, port); bad {
		return &PolicyError{Rule: "P1", Reason: fmt.Sprintf("port %d belongs to another service (%s; WHATWG Fetch bad port list)", port, service)}
	}
	class, name := access.ClassifyAddr(c.Addr.Addr())
	if class == access.AddrPublic {
		return nil
	}
	what := func() string { return fmt.Sprintf("%s is a %s address", c.Addr.Addr().WithZone(""), name) }
	if publicOnly {
		return &PolicyError{Rule: "O3", Reason: what() + "; a link followed from another site reaches public addresses only"}
	}
	named := c.Name
	if c.Data {
		named = c.Control
	}
	if p.allowed(named) {
		return nil // T4: a named exception
	}
	if class == access.AddrLoopback && p.allowLoopback || class == access.AddrPrivate && p.allowPrivate {
		// T3 with P3: private targets on their scheme's own port only.
		if c.Data || port == scheme.DefaultPort(c.Protocol) {
			return nil
		}
		return &PolicyError{Rule: "P3", Reason: fmt.Sprintf("%s; such targets are reached on their scheme's default port only (%d for %s); name others with urlkit serve --allow %s", what(), scheme.DefaultPort(c.Protocol), c.Protocol, c.Name)}
	}
	how := "urlkit serve --allow HOST:PORT names one"
	switch class {
	case access.AddrLoopback:
		how = "urlkit serve on a loopback address allows loopback targets on their scheme's port; --allow HOST:PORT names one"
	case access.AddrPrivate:
		how = "--allow-private allows private targets on their scheme's port; --allow HOST:PORT names one"
	}
	return &PolicyError{Rule: "T2", Reason: what() + ", which the gateway does not reach (" + how + ")"}
}

// allowed reports whether host:port is a named exception (rule T4): as
// written when it is in normal form already, else normalised.
func (p *policy) allowed(hostPort string) bool {
	if len(p.allow) == 0 {
		return false
	}
	if p.allow[hostPort] {
		return true
	}
	k, err := hostPortKey(hostPort, 0)
	return err == nil && p.allow[k]
}

// IsLoopbackListen reports whether the listen address addr (host:port)
// accepts connections from this machine only. An empty host or a name
// other than "localhost" counts as public.
func IsLoopbackListen(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// urlError reports a URL the gateway cannot use as written (HTTP 400).
type urlError struct{ msg string }

func (e *urlError) Error() string { return e.msg }
