package scheme

import (
	"fmt"

	"github.com/urlkit/urlkit"
)

// Ports: which ports belong to another protocol, the rule a client warns by
// before it connects, and the list the gateway refuses. One list, here:
// the command line, the gateway and Check read it.

// wellKnownPorts are ports of protocols a URL could be turned against by
// naming them with another scheme (RFC 1738 section 6: "the use of gopher
// URLs to cause a rude message to be sent via a SMTP server").
var wellKnownPorts = map[int]string{
	7: "echo", 9: "discard", 19: "chargen", 21: "FTP", 22: "SSH", 23: "Telnet", 25: "SMTP", 53: "DNS",
	70: "Gopher", 79: "Finger", 80: "HTTP", 110: "POP3", 111: "SUN RPC", 119: "NNTP", 143: "IMAP",
	210: "WAIS", 389: "LDAP", 443: "HTTPS", 465: "SMTPS", 513: "rlogin", 514: "rsh", 515: "LPD",
	587: "mail submission", 993: "IMAPS", 995: "POP3S", 1525: "Prospero", 2049: "NFS", 3306: "MySQL",
	5432: "PostgreSQL", 6379: "Redis", 6667: "IRC", 11211: "memcached",
}

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

// BlockedPort reports whether port is on the WHATWG Fetch Standard's bad
// port list, and the service it belongs to there ("smtp" for 25).
func BlockedPort(port int) (service string, blocked bool) {
	service, blocked = badPorts[port]
	return
}

// BadPort reports whether a client of the named scheme should not connect
// to port: a port on the Fetch Standard's bad port list (BlockedPort),
// unless it is the scheme's own default port (21 for ftp, 119 for nntp).
func BadPort(schemeName string, port int) (service string, bad bool) {
	service, bad = badPorts[port]
	if !bad || DefaultPort(schemeName) == port {
		return "", false
	}
	return service, true
}

// portService names the protocol another scheme's URL would reach on
// port, when port belongs to one: a well-known protocol a URL could be
// turned against, or a service of the bad port list.
func portService(port int) (string, bool) {
	if s, ok := wellKnownPorts[port]; ok {
		return s, true
	}
	s, ok := badPorts[port]
	return s, ok
}

// portFinding is Check's finding for u's port, when u names one that is
// not its scheme's default (ok false otherwise). Its severity is the rule
// a client warns by before connecting ([PortWarning]):
//
//   - danger: the port belongs to another protocol (a well-known one, or
//     a service of the Fetch Standard's bad port list), or lies in the
//     reserved range below 1024: a client could be made to speak this
//     scheme to a server of another protocol (RFC 1738 6);
//   - warning: any other port that is not the default (8080, 7070): worth
//     knowing, and nothing to warn of before connecting;
//   - info: a high port of a scheme that has no default port;
//   - error: a port above 65535.
func portFinding(u urlkit.URL, l loc) (Finding, bool) {
	p, ok := u.RawPort()
	if !ok {
		return Finding{}, false
	}
	name := u.Scheme()
	def := DefaultPort(name)
	n, _ := portOf(u, 0)
	if n > 65535 {
		return Finding{SeverityError, CodePort, l.port(), urlkit.ComponentPort,
			fmt.Sprintf("port %s is above 65535: no TCP connection can be made to it (RFC 793 ports are 16-bit)", p)}, true
	}
	if n == def && def != 0 {
		return Finding{}, false
	}
	f := Finding{SeverityWarning, CodePort, l.port(), urlkit.ComponentPort, ""}
	proto, other := portService(n)
	_, listed := badPorts[n]
	switch {
	case other && wellKnownPorts[n] != "":
		f.Severity = SeverityDanger
		f.Message = fmt.Sprintf("port %s is the %s port, not the %s default %d: a client could be made to speak %s to a %s server (RFC 1738 6)", p, proto, name, def, name, proto)
	case listed:
		f.Severity = SeverityDanger
		f.Message = fmt.Sprintf("port %s belongs to another service (%s; WHATWG Fetch bad port list), not the %s default %d: a client could be made to speak %s to it (RFC 1738 6)", p, proto, name, def, name)
	case n < 1024:
		f.Severity = SeverityDanger
		f.Message = fmt.Sprintf("port %s is in the reserved range below 1024 and is not the %s default %d (RFC 1738 6)", p, name, def)
	case def == 0:
		f.Severity = SeverityInfo
		f.Message = fmt.Sprintf("port %s; the %s scheme has no default port", p, name)
	default:
		f.Message = fmt.Sprintf("port %s is not the %s default %d (RFC 1738 6)", p, name, def)
	}
	if def == 0 && n < 1024 && !other {
		f.Message = fmt.Sprintf("port %s is in the reserved range below 1024; the %s scheme has no default port (RFC 1738 6)", p, name)
	}
	if def == 0 && other {
		f.Message = fmt.Sprintf("port %s is the %s port: a client could be made to speak %s to a %s server (RFC 1738 6)", p, proto, name, proto)
	}
	return f, true
}

// PortWarning returns the finding a client should show before it connects
// to u, when u's port is one to warn of: another protocol's port, or one
// in the reserved range below 1024 (a danger finding of Check, see
// portFinding). An ordinary high port such as 8080 or 7070 gives none,
// and neither does the scheme's default; Check still reports every port
// that is not the default.
func PortWarning(u urlkit.URL) (Finding, bool) {
	if !u.IsAbsolute() {
		return Finding{}, false
	}
	f, ok := portFinding(u, locOf(u))
	if !ok || f.Severity != SeverityDanger {
		return Finding{}, false
	}
	return f, true
}
