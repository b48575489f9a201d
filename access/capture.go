package access

import (
	"crypto/tls"
	"net"
	"net/netip"
)

// ExchangeKind says what an Exchange reports.
type ExchangeKind uint8

const (
	// Connected: a connection is open. Conn is set, Conn.Addr the
	// address it is connected to.
	Connected ExchangeKind = iota + 1
	// Sent: bytes written to a connection, exactly, but for a password,
	// masked as `urlkit plan` shows it (scheme.FTPCommand.Redacted).
	Sent
	// Received: bytes read from a connection that are not the
	// resource's: control replies, status and header lines, a Gopher+
	// length line, WAIS messages, ARDP datagrams. For http, every byte
	// of the response: status line, header and body as they arrived
	// (transfer coding and content coding kept).
	Received
	// Secured: the connection is now TLS; Data is the version as the
	// IIPC WARC-Protocol proposal writes it ("tls/1.3").
	Secured
)

// An Exchange is one piece of a protocol exchange, as Options.Capture
// receives it: a connection opened, or bytes sent or received on it, in
// the order they were.
type Exchange struct {
	Kind ExchangeKind
	// Conn is the connection: its Protocol, Name, Addr (the address
	// connected to), Data for an FTP data connection, Network.
	Conn Connection
	// Unit is true when Data is one whole message of a binary protocol
	// (a WAIS message, an ARDP datagram), false when it is a line or a
	// piece of a stream.
	Unit bool
	// Data holds the bytes; it is valid only during the call.
	Data []byte
}

// capture reports an exchange on c to Options.Capture; the callers check
// that Capture is set, so an unset one costs one comparison.
func (o *Options) capture(kind ExchangeKind, c Connection, unit bool, data []byte) {
	o.Capture(Exchange{Kind: kind, Conn: c, Unit: unit, Data: data})
}

// captured is a connection opened while Options.Capture is set: it
// remembers what the connection is, for the exchanges reported on it.
type captured struct {
	net.Conn
	c Connection
}

// connected reports a connection just opened and returns it marked (see
// connOf).
func (o *Options) connected(c Connection, conn net.Conn) net.Conn {
	if cc, ok := conn.(*captured); ok {
		conn = cc.Conn // a kept FTP session, marked when it was opened
	}
	if ap, err := netip.ParseAddrPort(conn.RemoteAddr().String()); err == nil {
		c.Addr = ap
	}
	if c.Network == "" {
		c.Network = "tcp"
	}
	o.capture(Connected, c, false, nil)
	return &captured{Conn: conn, c: c}
}

// connOf returns what conn is, for a connection dialled while
// Options.Capture was set.
func connOf(conn net.Conn) Connection {
	if cc, ok := conn.(*captured); ok {
		return cc.c
	}
	return Connection{}
}

// sent reports the bytes p written to conn.
func (o *Options) sent(conn net.Conn, unit bool, p []byte) {
	o.capture(Sent, connOf(conn), unit, p)
}

// received reports the bytes p read from conn.
func (o *Options) received(conn net.Conn, unit bool, p []byte) {
	o.capture(Received, connOf(conn), unit, p)
}

// tlsName is a TLS version as WARC-Protocol writes it.
func tlsName(v uint16) string {
	switch v {
	case tls.VersionTLS10:
		return "tls/1.0"
	case tls.VersionTLS11:
		return "tls/1.1"
	case tls.VersionTLS12:
		return "tls/1.2"
	case tls.VersionTLS13:
		return "tls/1.3"
	}
	return "tls"
}

// capConn is a connection whose every byte is reported: the one http's
// response is read from (after TLS, so the bytes are the plaintext ones).
type capConn struct {
	net.Conn
	o *Options
	c Connection
}

func (c *capConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.o.capture(Received, c.c, false, p[:n])
	}
	return n, err
}

func (c *capConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if n > 0 {
		c.o.capture(Sent, c.c, false, p[:n])
	}
	return n, err
}
