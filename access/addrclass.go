package access

import (
	"net/netip"
	"strconv"
)

// AddrClass is the kind of network an IP address belongs to, as
// ClassifyAddr tells it. The classes are ordered from the most public to
// the most private (see MayFollow).
type AddrClass int

// The address classes.
const (
	// AddrPublic is every address no special-purpose block withholds.
	AddrPublic AddrClass = iota
	// AddrPrivate is private use: the local network (RFC 1918, RFC 4193).
	AddrPrivate
	// AddrSpecial is every other special-purpose range that is not
	// globally reachable: link-local, shared, documentation, multicast,
	// reserved, "this network".
	AddrSpecial
	// AddrLoopback is this machine (127.0.0.0/8, ::1).
	AddrLoopback
)

// String names the class.
func (c AddrClass) String() string {
	switch c {
	case AddrPublic:
		return "public"
	case AddrPrivate:
		return "private"
	case AddrSpecial:
		return "special-purpose"
	case AddrLoopback:
		return "loopback"
	}
	return "AddrClass(" + strconv.Itoa(int(c)) + ")"
}

// special is one block of IANA's IPv4 and IPv6 Special-Purpose Address
// Registries (as of 2025), with its "Globally Reachable" column; "N/A"
// entries (deprecated blocks) count as not reachable. The most specific
// block containing an address decides. IPv4 multicast (RFC 5771) is added:
// no TCP connection goes there.
type special struct {
	prefix netip.Prefix
	global bool
	class  AddrClass
	name   string
}

func sp(prefix string, global bool, class AddrClass, name string) special {
	return special{netip.MustParsePrefix(prefix), global, class, name}
}

var specials = []special{
	// IPv4: iana-ipv4-special-registry.
	sp("0.0.0.0/8", false, AddrSpecial, `"this network" (RFC 791)`),
	sp("10.0.0.0/8", false, AddrPrivate, "private-use (RFC 1918)"),
	sp("100.64.0.0/10", false, AddrSpecial, "shared (carrier-grade NAT, RFC 6598)"),
	sp("127.0.0.0/8", false, AddrLoopback, "loopback (RFC 1122)"),
	sp("169.254.0.0/16", false, AddrSpecial, "link-local (RFC 3927)"),
	sp("172.16.0.0/12", false, AddrPrivate, "private-use (RFC 1918)"),
	sp("192.0.0.0/24", false, AddrSpecial, "IETF protocol assignment (RFC 6890)"),
	sp("192.0.0.9/32", true, AddrPublic, ""),  // Port Control Protocol anycast (RFC 7723)
	sp("192.0.0.10/32", true, AddrPublic, ""), // TURN anycast (RFC 8155)
	sp("192.0.2.0/24", false, AddrSpecial, "documentation (TEST-NET-1, RFC 5737)"),
	sp("192.88.99.0/24", false, AddrSpecial, "deprecated 6to4 relay anycast (RFC 7526)"),
	sp("192.168.0.0/16", false, AddrPrivate, "private-use (RFC 1918)"),
	sp("198.18.0.0/15", false, AddrSpecial, "benchmarking (RFC 2544)"),
	sp("198.51.100.0/24", false, AddrSpecial, "documentation (TEST-NET-2, RFC 5737)"),
	sp("203.0.113.0/24", false, AddrSpecial, "documentation (TEST-NET-3, RFC 5737)"),
	sp("224.0.0.0/4", false, AddrSpecial, "multicast (RFC 5771)"),
	sp("240.0.0.0/4", false, AddrSpecial, "reserved (RFC 1112)"),
	sp("255.255.255.255/32", false, AddrSpecial, "limited broadcast (RFC 919)"),
	// IPv6: iana-ipv6-special-registry, within the global unicast space
	// 2000::/3 (addresses outside it are decided by classify).
	sp("2001::/23", false, AddrSpecial, "IETF protocol assignment (RFC 2928)"),
	sp("2001::/32", false, AddrSpecial, "Teredo (RFC 4380)"),
	sp("2001:1::1/128", true, AddrPublic, ""), // PCP anycast (RFC 7723)
	sp("2001:1::2/128", true, AddrPublic, ""), // TURN anycast (RFC 8155)
	sp("2001:1::3/128", true, AddrPublic, ""), // DNS-SD SRP anycast (RFC 9665)
	sp("2001:2::/48", false, AddrSpecial, "benchmarking (RFC 5180)"),
	sp("2001:3::/32", true, AddrPublic, ""),     // AMT (RFC 7450)
	sp("2001:4:112::/48", true, AddrPublic, ""), // AS112-v6 (RFC 7535)
	sp("2001:10::/28", false, AddrSpecial, "deprecated ORCHID (RFC 4843)"),
	sp("2001:20::/28", true, AddrPublic, ""), // ORCHIDv2 (RFC 7343)
	sp("2001:30::/28", true, AddrPublic, ""), // DRIP DETs (RFC 9374)
	sp("2001:db8::/32", false, AddrSpecial, "documentation (RFC 3849)"),
	sp("2002::/16", false, AddrSpecial, "6to4 (RFC 3056; it reaches the IPv4 address inside it)"),
	sp("3fff::/20", false, AddrSpecial, "documentation (RFC 9637)"),
}

// The IPv6 ranges outside 2000::/3 that classify names.
var (
	globalUnicast = netip.MustParsePrefix("2000::/3")
	nat64         = netip.MustParsePrefix("64:ff9b::/96") // RFC 6052: an IPv4 address inside
	v6Named       = []special{
		sp("::/128", false, AddrSpecial, "unspecified (RFC 4291)"),
		sp("::1/128", false, AddrLoopback, "loopback (RFC 4291)"),
		sp("::/96", false, AddrSpecial, "IPv4-compatible (deprecated, RFC 4291 2.5.5.1)"),
		sp("64:ff9b:1::/48", false, AddrSpecial, "local-use IPv4/IPv6 translation (RFC 8215)"),
		sp("100::/64", false, AddrSpecial, "discard-only (RFC 6666)"),
		sp("100:0:0:1::/64", false, AddrSpecial, "dummy prefix (RFC 9780)"),
		sp("5f00::/16", false, AddrSpecial, "SRv6 SID (RFC 9602)"),
		sp("fc00::/7", false, AddrPrivate, "unique local (RFC 4193)"),
		sp("fe80::/10", false, AddrSpecial, "link-local (RFC 4291)"),
		sp("fec0::/10", false, AddrSpecial, "site-local (deprecated, RFC 3879)"),
		sp("ff00::/8", false, AddrSpecial, "multicast (RFC 4291)"),
	}
)

// ClassifyAddr returns the class of ip and, when it is not public, the
// name of its range (e.g. "loopback (RFC 1122)"), from IANA's IPv4 and
// IPv6 Special-Purpose Address Registries. It is the one classification
// of addresses: the gateway's policy on dialled addresses and the follow
// rule (MayFollow) both read it. IPv4-mapped IPv6 addresses are the IPv4 address they
// carry (the kernel connects to it); a NAT64 address (64:ff9b::/96) is
// public only when the IPv4 address inside it is; IPv6 addresses outside
// the global unicast space 2000::/3 are never public.
func ClassifyAddr(ip netip.Addr) (AddrClass, string) {
	if !ip.IsValid() {
		return AddrSpecial, "invalid"
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is6() {
		if nat64.Contains(ip) {
			b := ip.As16()
			v4 := netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
			if c, name := ClassifyAddr(v4); c != AddrPublic {
				return AddrSpecial, "NAT64 (RFC 6052) form of a " + name
			}
			return AddrPublic, ""
		}
		if !globalUnicast.Contains(ip) {
			if s, ok := mostSpecific(v6Named, ip); ok {
				return s.class, s.name
			}
			return AddrSpecial, "reserved IPv6 (outside the global unicast space 2000::/3, RFC 4291)"
		}
	}
	if s, ok := mostSpecific(specials, ip); ok && !s.global {
		return s.class, s.name
	}
	return AddrPublic, ""
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
