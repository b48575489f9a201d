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
	class, name := classify(c.Addr.Addr())
	if class == classPublic {
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
	if class == classLoopback && p.allowLoopback || class == classPrivate && p.allowPrivate {
		// T3 with P3: private targets on their scheme's own port only.
		if c.Data || port == scheme.DefaultPort(c.Protocol) {
			return nil
		}
		return &PolicyError{Rule: "P3", Reason: fmt.Sprintf("%s; such targets are reached on their scheme's default port only (%d for %s); name others with urlkit serve --allow %s", what(), scheme.DefaultPort(c.Protocol), c.Protocol, c.Name)}
	}
	how := "urlkit serve --allow HOST:PORT names one"
	switch class {
	case classLoopback:
		how = "urlkit serve on a loopback address allows loopback targets on their scheme's port; --allow HOST:PORT names one"
	case classPrivate:
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

// Address classes.
const (
	classPublic = iota
	classLoopback
	classPrivate
	classSpecial // every other special-purpose range: never reached but as a named exception
)

// special is one block of IANA's IPv4 and IPv6 Special-Purpose Address
// Registries (as of 2025), with its "Globally Reachable" column; "N/A"
// entries (deprecated blocks) count as not reachable. The most specific
// block containing an address decides. IPv4 multicast (RFC 5771) is added:
// no TCP connection goes there.
type special struct {
	prefix netip.Prefix
	global bool
	class  int
	name   string
}

func sp(prefix string, global bool, class int, name string) special {
	return special{netip.MustParsePrefix(prefix), global, class, name}
}

var specials = []special{
	// IPv4: iana-ipv4-special-registry.
	sp("0.0.0.0/8", false, classSpecial, `"this network" (RFC 791)`),
	sp("10.0.0.0/8", false, classPrivate, "private-use (RFC 1918)"),
	sp("100.64.0.0/10", false, classSpecial, "shared (carrier-grade NAT, RFC 6598)"),
	sp("127.0.0.0/8", false, classLoopback, "loopback (RFC 1122)"),
	sp("169.254.0.0/16", false, classSpecial, "link-local (RFC 3927)"),
	sp("172.16.0.0/12", false, classPrivate, "private-use (RFC 1918)"),
	sp("192.0.0.0/24", false, classSpecial, "IETF protocol assignment (RFC 6890)"),
	sp("192.0.0.9/32", true, classPublic, ""),  // Port Control Protocol anycast (RFC 7723)
	sp("192.0.0.10/32", true, classPublic, ""), // TURN anycast (RFC 8155)
	sp("192.0.2.0/24", false, classSpecial, "documentation (TEST-NET-1, RFC 5737)"),
	sp("192.88.99.0/24", false, classSpecial, "deprecated 6to4 relay anycast (RFC 7526)"),
	sp("192.168.0.0/16", false, classPrivate, "private-use (RFC 1918)"),
	sp("198.18.0.0/15", false, classSpecial, "benchmarking (RFC 2544)"),
	sp("198.51.100.0/24", false, classSpecial, "documentation (TEST-NET-2, RFC 5737)"),
	sp("203.0.113.0/24", false, classSpecial, "documentation (TEST-NET-3, RFC 5737)"),
	sp("224.0.0.0/4", false, classSpecial, "multicast (RFC 5771)"),
	sp("240.0.0.0/4", false, classSpecial, "reserved (RFC 1112)"),
	sp("255.255.255.255/32", false, classSpecial, "limited broadcast (RFC 919)"),
	// IPv6: iana-ipv6-special-registry, within the global unicast space
	// 2000::/3 (addresses outside it are decided by classify).
	sp("2001::/23", false, classSpecial, "IETF protocol assignment (RFC 2928)"),
	sp("2001::/32", false, classSpecial, "Teredo (RFC 4380)"),
	sp("2001:1::1/128", true, classPublic, ""), // PCP anycast (RFC 7723)
	sp("2001:1::2/128", true, classPublic, ""), // TURN anycast (RFC 8155)
	sp("2001:1::3/128", true, classPublic, ""), // DNS-SD SRP anycast (RFC 9665)
	sp("2001:2::/48", false, classSpecial, "benchmarking (RFC 5180)"),
	sp("2001:3::/32", true, classPublic, ""),     // AMT (RFC 7450)
	sp("2001:4:112::/48", true, classPublic, ""), // AS112-v6 (RFC 7535)
	sp("2001:10::/28", false, classSpecial, "deprecated ORCHID (RFC 4843)"),
	sp("2001:20::/28", true, classPublic, ""), // ORCHIDv2 (RFC 7343)
	sp("2001:30::/28", true, classPublic, ""), // DRIP DETs (RFC 9374)
	sp("2001:db8::/32", false, classSpecial, "documentation (RFC 3849)"),
	sp("2002::/16", false, classSpecial, "6to4 (RFC 3056; it reaches the IPv4 address inside it)"),
	sp("3fff::/20", false, classSpecial, "documentation (RFC 9637)"),
}

// The IPv6 ranges outside 2000::/3 that classify names.
var (
	globalUnicast = netip.MustParsePrefix("2000::/3")
	nat64         = netip.MustParsePrefix("64:ff9b::/96") // RFC 6052: an IPv4 address inside
	v6Named       = []special{
		sp("::/128", false, classSpecial, "unspecified (RFC 4291)"),
		sp("::1/128", false, classLoopback, "loopback (RFC 4291)"),
		sp("::/96", false, classSpecial, "IPv4-compatible (deprecated, RFC 4291 2.5.5.1)"),
		sp("64:ff9b:1::/48", false, classSpecial, "local-use IPv4/IPv6 translation (RFC 8215)"),
		sp("100::/64", false, classSpecial, "discard-only (RFC 6666)"),
		sp("100:0:0:1::/64", false, classSpecial, "dummy prefix (RFC 9780)"),
		sp("5f00::/16", false, classSpecial, "SRv6 SID (RFC 9602)"),
		sp("fc00::/7", false, classPrivate, "unique local (RFC 4193)"),
		sp("fe80::/10", false, classSpecial, "link-local (RFC 4291)"),
		sp("fec0::/10", false, classSpecial, "site-local (deprecated, RFC 3879)"),
		sp("ff00::/8", false, classSpecial, "multicast (RFC 4291)"),
	}
)

// classify returns the class of ip and, when it is not public, the name
// of its range. IPv4-mapped IPv6 addresses are the IPv4 address they
// carry (the kernel connects to it); a NAT64 address (64:ff9b::/96) is
// public only when the IPv4 address inside it is; IPv6 addresses outside
// the global unicast space 2000::/3 are never public.
func classify(ip netip.Addr) (int, string) {
	if !ip.IsValid() {
		return classSpecial, "invalid"
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is6() {
		if nat64.Contains(ip) {
			b := ip.As16()
			v4 := netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
			if c, name := classify(v4); c != classPublic {
				return classSpecial, "NAT64 (RFC 6052) form of a " + name
			}
			return classPublic, ""
		}
		if !globalUnicast.Contains(ip) {
			if s, ok := mostSpecific(v6Named, ip); ok {
				return s.class, s.name
			}
			return classSpecial, "reserved IPv6 (outside the global unicast space 2000::/3, RFC 4291)"
		}
	}
	if s, ok := mostSpecific(specials, ip); ok && !s.global {
		return s.class, s.name
	}
	return classPublic, ""
}

// mostSpecific returns the longest prefix in list containing ip.
func mostSpecific(list []special, ip netip.Addr) (special, bool) {
	best, found := special{}, false
	for _, s := range list {
		if s.prefix.Contains(ip) && (!found || s.prefix.Bits() > best.prefix.Bits()) {
			best, found = s, true
		}
	}
	return best, found
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
