package access

// The follow rule: a server never steers a client to a more private
// address than its own. It is the address-space rule browsers apply to
// pages (Private Network Access, WICG draft: a public page may not reach
// private or local addresses), applied to every address a server names:
// a Prospero FORWARDED answer or access method, an HTTP redirect, an FTP
// passive reply, a WAIS hit, a gopher menu item, a link a crawler takes.
// Without it, a public server could make urlkit write into a service
// on the user's own machine or network (a Redis on 127.0.0.1:6379, a
// cloud metadata service on 169.254.169.254).

import (
	"fmt"
	"net/netip"
)

// followRank orders addresses from the most public (0) to the most
// private: public, private use, other special-purpose, this machine.
// "This network" (0.0.0.0/8) and the unspecified IPv6 address are this
// machine: a connection to them reaches the local host.
func followRank(ip netip.Addr) (int, AddrClass, string) {
	c, name := ClassifyAddr(ip)
	u := ip.Unmap()
	if u.IsUnspecified() || u.Is4() && u.As4()[0] == 0 {
		return int(AddrLoopback), c, name
	}
	return int(c), c, name
}

// MayFollow is the follow rule: it reports whether a server at address
// from may steer a client to address to. It may when to is public, or no
// more private than from, the classes being ordered public < private use
// (RFC 1918, RFC 4193) < other special-purpose (link-local, shared,
// documentation, ...) < this machine (loopback, 0.0.0.0/8, ::). So a
// public server may point only to public addresses; a server on the
// local network may point to the local network and the Internet; a server
// on this machine anywhere. An invalid from is taken as public (nothing is
// known of the server); an invalid to as special-purpose.
//
// Execute applies it to every connection a server named (see
// Options.Origin and Options.AllowPrivateFollow); a crawler that follows
// links from one retrieval to the next applies it by passing
// Resource.ServerAddr of the page as the next retrieval's Options.Origin,
// or calls MayFollow itself on the addresses it resolves. The error is a
// *FollowError.
func MayFollow(from, to netip.Addr) error {
	fr, fc, fname := followRank(from)
	if !from.IsValid() {
		fr, fc, fname = int(AddrPublic), AddrPublic, ""
	}
	tr, tc, tname := followRank(to)
	if tr == int(AddrPublic) || tr <= fr {
		return nil
	}
	return &FollowError{From: from, To: to, FromClass: fc, ToClass: tc, FromRange: fname, ToRange: tname}
}

// FollowError reports an address a server named that the follow rule
// (MayFollow) refuses.
type FollowError struct {
	From, To           netip.Addr // the server's address; the address it named
	FromClass, ToClass AddrClass
	FromRange, ToRange string // the ranges' names ("" for public)
}

// Error formats the refusal for a person.
func (e *FollowError) Error() string {
	from := "a public address"
	if e.FromRange != "" {
		from = "a " + e.FromRange + " address"
	}
	if e.From.IsValid() {
		from = e.From.WithZone("").String() + ", " + from
	}
	to := e.ToClass.String()
	if e.ToRange != "" {
		to = e.ToRange
	}
	return fmt.Sprintf("not followed: the server (%s) points to %s, a %s address, more private than its own (a server never steers a client to a more private address than its own; give that URL yourself, or allow it with urlkit get --allow-private-follow)",
		from, e.To.WithZone(""), to)
}
