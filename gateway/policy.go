package gateway

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"syscall"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

// PolicyError reports a request the gateway refuses on purpose (HTTP 403):
// a file URL, the port of another service, a private target, or a request
// argument that would inject protocol commands.
type PolicyError struct {
	Reason string
}

// Error formats the refusal for a person.
func (e *PolicyError) Error() string { return "refused by the gateway's policy: " + e.Reason }

// badPorts is the "bad port" list of the WHATWG Fetch Standard (section
// "Port blocking", as of the 2024 addition of 4190 and 6679): ports of
// services whose line protocols a request could be smuggled into.
var badPorts = map[int]string{
	1: "tcpmux", 7: "echo", 9: "discard", 11: "systat", 13: "daytime", 15: "netstat",
	17: "qotd", 19: "chargen", 20: "ftp-data", 21: "ftp", 22: "ssh", 23: "telnet",
	25: "smtp", 37: "time", 42: "name", 43: "nicname", 53: "domain", 69: "tftp",
	77: "priv-rjs", 79: "finger", 87: "ttylink", 95: "supdup", 101: "hostname",
	102: "iso-tsap", 103: "gppitnp", 104: "acr-nema", 109: "pop2", 110: "pop3",
	111: "sunrpc", 113: "auth", 115: "sftp", 117: "uucp-path", 119: "nntp",
	123: "ntp", 135: "epmap", 137: "netbios-ns", 139: "netbios-ssn", 143: "imap2",
	161: "snmp", 179: "bgp", 389: "ldap", 427: "svrloc", 465: "submissions",
	512: "exec", 513: "login", 514: "shell", 515: "printer", 526: "tempo",
	530: "courier", 531: "chat", 532: "netnews", 540: "uucp", 548: "afp",
	554: "rtsp", 556: "remotefs", 563: "nntps", 587: "submission", 601: "syslog-conn",
	636: "ldaps", 989: "ftps-data", 990: "ftps", 993: "imaps", 995: "pop3s",
	1719: "h323gatestat", 1720: "h323hostcall", 1723: "pptp", 2049: "nfs",
	3659: "apple-sasl", 4045: "npp", 4190: "sieve", 5060: "sip", 5061: "sips",
	6000: "x11", 6566: "sane-port", 6665: "ircu", 6666: "ircu", 6667: "ircu",
	6668: "ircu", 6669: "ircu", 6679: "osaut", 6697: "ircs-u", 10080: "amanda",
}

// BadPort reports whether the gateway refuses to connect to port for a URL
// of the named scheme: a port on the Fetch Standard's bad port list, unless
// it is the scheme's own default port (21 for ftp, 119 for nntp).
func BadPort(schemeName string, port int) (string, bool) {
	service, bad := badPorts[port]
	if !bad {
		return "", false
	}
	if scheme.DefaultPort(schemeName) == port {
		return "", false
	}
	return service, true
}

// checkPort applies BadPort to the port a URL names (or its scheme's
// default port when it names none).
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
		return &PolicyError{Reason: fmt.Sprintf("port %d belongs to another service (%s; WHATWG Fetch bad port list)", n, service)}
	}
	return nil
}

// privateAddr reports whether ip is an address a public gateway must not
// reach on a visitor's behalf: loopback, private (RFC 1918, RFC 4193),
// link-local, carrier-grade NAT (RFC 6598), unspecified or multicast.
func privateAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsUnspecified() || ip.IsMulticast() || ip.IsInterfaceLocalMulticast() ||
		cgnat.Contains(ip) || !ip.IsValid()
}

var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// errPrivate is returned (wrapped in a *PolicyError) by the dialer of a
// gateway that refuses private targets.
var errPrivate = errors.New("private or loopback address")

// dialer returns the dial function the gateway hands to access. When
// refusePrivate is set, the address actually connected to (after name
// resolution, so a name that resolves to a private address is caught too)
// is checked before the connection is made.
func dialer(refusePrivate bool) func(ctx context.Context, network, addr string) (net.Conn, error) {
	// No TCP keep-alive probes: every upstream connection is bounded by the
	// request deadline, and the probes cost two system calls a connection.
	d := &net.Dialer{KeepAlive: -1}
	if refusePrivate {
		d.Control = func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || privateAddr(ap.Addr()) {
				return &PolicyError{Reason: fmt.Sprintf("target %s is a %v; the gateway listens on a public address (use --allow-private to permit it)", address, errPrivate)}
			}
			return nil
		}
	}
	return d.DialContext
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
