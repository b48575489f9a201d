package hostile

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"sync"
)

// PublicHost is the address a test's "public" servers seem to have (an
// address on the Internet): PublicDial dials 127.0.0.1 for it. Tests of
// the follow rule (a server never steers a client to a more private
// address than its own) need a server outside loopback, and run on
// loopback only.
const PublicHost = "93.184.215.14"

// Public returns addr (a loopback server's host:port) as PublicHost with
// the same port.
func Public(addr string) string {
	_, port, _ := net.SplitHostPort(addr)
	return net.JoinHostPort(PublicHost, port)
}

// PublicDial is a dialer (access.Options.Dial) that routes PublicHost to
// 127.0.0.1 (the same port), the connection reporting PublicHost as its
// remote address, as a server on the Internet would be seen; every other
// address is dialled as asked. It records each address dialled.
type PublicDial struct {
	mu     sync.Mutex
	dialed []string
}

// Dial dials addr on network ("tcp" or "udp").
func (p *PublicDial) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	p.mu.Lock()
	p.dialed = append(p.dialed, network+" "+addr)
	p.mu.Unlock()
	host, port, _ := net.SplitHostPort(addr)
	var d net.Dialer
	if host != PublicHost {
		return d.DialContext(ctx, network, addr)
	}
	c, err := d.DialContext(ctx, network, net.JoinHostPort("127.0.0.1", port))
	if err != nil {
		return nil, err
	}
	return remoteAs{c, netip.MustParseAddrPort(addr)}, nil
}

// Dialed lists the addresses dialled so far, each as "network host:port".
func (p *PublicDial) Dialed() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.dialed...)
}

// String lists the addresses dialled.
func (p *PublicDial) String() string { return fmt.Sprint(p.Dialed()) }

// remoteAs is a connection that reports ap as its remote address.
type remoteAs struct {
	net.Conn
	ap netip.AddrPort
}

func (r remoteAs) RemoteAddr() net.Addr {
	if _, ok := r.Conn.(*net.UDPConn); ok {
		return net.UDPAddrFromAddrPort(r.ap)
	}
	return net.TCPAddrFromAddrPort(r.ap)
}
