package access

import (
	"net/netip"
	"testing"
)

// The address classes, at the edges of every block of IANA's IPv4 and
// IPv6 Special-Purpose Address Registries (iana-ipv4-special-registry,
// iana-ipv6-special-registry, as of 2025), of the IPv6 addressing
// architecture (RFC 4291: global unicast is 2000::/3) and of the forms
// that carry an IPv4 address (IPv4-mapped, RFC 4291 2.5.5.2; NAT64,
// RFC 6052; IPv4-compatible, RFC 4291 2.5.5.1). "pub" is public, "lo"
// loopback, "priv" private-use, "sp" any other special-purpose range.
func TestAddressClasses(t *testing.T) {
	cases := map[string]string{
		// IPv4
		"0.0.0.0": "sp", "0.255.255.255": "sp", "1.0.0.0": "pub", "8.8.8.8": "pub",
		"9.255.255.255": "pub", "10.0.0.0": "priv", "10.255.255.255": "priv", "11.0.0.0": "pub",
		"100.63.255.255": "pub", "100.64.0.0": "sp", "100.127.255.255": "sp", "100.128.0.0": "pub",
		"126.255.255.255": "pub", "127.0.0.1": "lo", "127.255.255.255": "lo", "128.0.0.0": "pub",
		"169.253.255.255": "pub", "169.254.0.0": "sp", "169.254.169.254": "sp", "169.255.0.0": "pub",
		"172.15.255.255": "pub", "172.16.0.0": "priv", "172.31.255.255": "priv", "172.32.0.0": "pub",
		"191.255.255.255": "pub", "192.0.0.0": "sp", "192.0.0.8": "sp", "192.0.0.9": "pub", "192.0.0.10": "pub",
		"192.0.0.11": "sp", "192.0.0.170": "sp", "192.0.0.171": "sp", "192.0.0.255": "sp", "192.0.1.0": "pub",
		"192.0.2.0": "sp", "192.0.2.255": "sp", "192.0.3.0": "pub",
		"192.31.196.1": "pub", "192.52.193.1": "pub", "192.175.48.1": "pub",
		"192.88.98.255": "pub", "192.88.99.0": "sp", "192.88.99.255": "sp", "192.88.100.0": "pub",
		"192.167.255.255": "pub", "192.168.0.0": "priv", "192.168.255.255": "priv", "192.169.0.0": "pub",
		"198.17.255.255": "pub", "198.18.0.0": "sp", "198.19.255.255": "sp", "198.20.0.0": "pub",
		"198.51.99.255": "pub", "198.51.100.0": "sp", "198.51.100.255": "sp", "198.51.101.0": "pub",
		"203.0.112.255": "pub", "203.0.113.0": "sp", "203.0.113.255": "sp", "203.0.114.0": "pub",
		"223.255.255.255": "pub", "224.0.0.1": "sp", "239.255.255.255": "sp", "240.0.0.0": "sp",
		"255.255.255.254": "sp", "255.255.255.255": "sp",
		// IPv6 outside 2000::/3
		"::": "sp", "::1": "lo", "::2": "sp", "::1.2.3.4": "sp", "::8.8.8.8": "sp",
		"::ffff:127.0.0.1": "lo", "::ffff:10.1.2.3": "priv", "::ffff:8.8.8.8": "pub", "::ffff:169.254.169.254": "sp",
		"64:ff9b::8.8.8.8": "pub", "64:ff9b::127.0.0.1": "sp", "64:ff9b::10.0.0.1": "sp", "64:ff9b::192.168.1.1": "sp",
		"64:ff9b:1::1": "sp", "100::1": "sp", "100:0:0:1::1": "sp", "1fff:ffff::1": "sp",
		"4000::1": "sp", "5f00::1": "sp", "fbff::1": "sp", "fc00::1": "priv", "fdff:ffff::1": "priv",
		"fe80::1": "sp", "fe80::1%eth0": "sp", "febf::1": "sp", "fec0::1": "sp", "feff::1": "sp", "ff02::1": "sp",
		// IPv6 within 2000::/3
		"2000::1": "pub", "2001::1": "sp", "2001:0:4136:e378::1": "sp", "2001:1::1": "pub", "2001:1::2": "pub",
		"2001:1::3": "pub", "2001:1::4": "sp", "2001:2::1": "sp", "2001:3::1": "pub", "2001:4:112::1": "pub",
		"2001:4:113::1": "sp", "2001:10::1": "sp", "2001:20::1": "pub", "2001:30::1": "pub", "2001:40::1": "sp",
		"2001:1ff:ffff::1": "sp", "2001:200::1": "pub", "2001:4860:4860::8888": "pub",
		"2001:db7:ffff::1": "pub", "2001:db8::1": "sp", "2001:db8:ffff::1": "sp", "2001:db9::1": "pub",
		"2002::1": "sp", "2002:7f00:1::1": "sp", "2002:808:808::1": "sp", "2003::1": "pub",
		"2620:4f:8000::1": "pub", "2606:4700::1111": "pub",
		"3ffe::1": "pub", "3fff::1": "sp", "3fff:fff:ffff::1": "sp", "3fff:1000::1": "pub",
	}
	names := map[AddrClass]string{AddrPublic: "pub", AddrLoopback: "lo", AddrPrivate: "priv", AddrSpecial: "sp"}
	for addr, want := range cases {
		ip, err := netip.ParseAddr(addr)
		if err != nil {
			t.Fatal(err)
		}
		c, name := ClassifyAddr(ip)
		if names[c] != want {
			t.Errorf("%s: %s (%s), want %s", addr, names[c], name, want)
		}
		if c != AddrPublic && name == "" {
			t.Errorf("%s: no name for its range", addr)
		}
	}
}
