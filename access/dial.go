package access

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
)

// Every protocol client in this package opens its connections through one
// step, Options.dialConn: the control connection and the data connection of
// FTP, the gopher, NNTP, HTTP and SMTP connections, the connection to a
// gateway. A policy set in Options.Policy is therefore asked about every
// connection any client opens, and a new client gets it by dialling the
// same way (x.dial). So is the follow rule (follow.go) on every
// connection a server named.

// Connection is one connection a client is about to open, as
// Options.Policy sees it.
type Connection struct {
	// Protocol names the client: "ftp", "gopher", "nntp", "http", "smtp",
	// "gateway" (a connection to an HTTP gateway), and any protocol a
	// client added later names.
	Protocol string
	// Name is the address as the plan names it, "host:port", before name
	// resolution. For an FTP data connection it is the control
	// connection's peer address with the port of the server's EPSV or
	// PASV reply.
	Name string
	// Addr is the address about to be connected to, after name
	// resolution: the policy decides on the address actually dialled, so
	// a name that resolves to a refused address is refused too.
	Addr netip.AddrPort
	// Data marks an FTP data connection: its port comes from the server's
	// reply, not from the URL.
	Data bool
	// Control is, for a data connection, the Name of its control
	// connection.
	Control string
	// Network is "tcp", or "udp" for the datagrams of Prospero (a
	// connected UDP socket: only the server's datagrams reach it). The
	// policy applies to both alike.
	Network string
}

// RefusedError reports a connection that Options.Policy refused; nothing
// was sent, and no connection was attempted to the refused address.
type RefusedError struct {
	Conn Connection
	Err  error // the policy's reason
}

// Error formats the refusal for a person.
func (e *RefusedError) Error() string {
	what := "connection"
	if e.Conn.Data {
		what = "data connection"
	}
	addr := e.Conn.Name
	if e.Conn.Addr.IsValid() && e.Conn.Addr.String() != addr {
		addr += " (" + e.Conn.Addr.String() + ")"
	}
	return fmt.Sprintf("%s: %s to %s: %v", e.Conn.Protocol, what, addr, e.Err)
}

// Unwrap returns the policy's reason.
func (e *RefusedError) Unwrap() error { return e.Err }

// dial opens a connection for protocol proto to addr (host:port), one
// the user chose (a gateway to go through): the follow rule does not
// apply.
func (o *Options) dial(ctx context.Context, proto, addr string) (net.Conn, error) {
	return o.dialConn(ctx, Connection{Protocol: proto, Name: addr}, nil)
}

// dial opens a connection of the execution for protocol proto to addr
// (host:port).
func (x *execution) dial(proto, addr string) (net.Conn, error) {
	return x.dialConn(Connection{Protocol: proto, Name: addr})
}

// dialUDP opens a connected UDP socket of the execution for protocol
// proto to addr.
func (x *execution) dialUDP(proto, addr string) (net.Conn, error) {
	return x.dialConn(Connection{Protocol: proto, Name: addr, Network: "udp"})
}

// dialConn opens a connection of the execution, holding it to the follow
// rule (MayFollow) when a server named it: every connection after the
// execution's first is named by the server of the one before (a
// redirect, a forward, an access method, a passive reply), and is held
// to that server's address; the first is held to Options.Origin when it
// is set (a link a crawler follows), and is the user's own choice when
// not. Options.AllowPrivateFollow turns the rule off.
func (x *execution) dialConn(c Connection) (net.Conn, error) {
	conn, err := x.opts.dialConn(x.ctx, c, x.follow())
	if err == nil {
		x.connected(conn)
	}
	return conn, err
}

// follow returns the follow rule's check of the execution's next
// connection (see dialConn), nil when it does not apply.
func (x *execution) follow() func(netip.Addr) error {
	from, held := x.server, x.server.IsValid()
	if !held && x.opts.Origin.IsValid() {
		from, held = x.opts.Origin, true
	}
	if !held || x.opts.AllowPrivateFollow {
		return nil
	}
	return func(to netip.Addr) error { return MayFollow(from, to) }
}

// reuse checks a connection kept from an earlier retrieval (a kept FTP
// session) as dialConn checks a new one, by the follow rule, before it is
// used for c, and notes its server.
func (x *execution) reuse(c Connection, conn net.Conn) error {
	ap, err := netip.ParseAddrPort(conn.RemoteAddr().String())
	if f := x.follow(); f != nil {
		if err == nil {
			c.Addr = ap
		}
		if ferr := f(c.Addr.Addr()); ferr != nil {
			return &RefusedError{Conn: c, Err: ferr}
		}
	}
	x.connected(conn)
	return nil
}

// connected notes the server conn is connected to: the address that
// names the next connection (see dialConn) and Resource.ServerAddr.
func (x *execution) connected(conn net.Conn) {
	if ap, err := netip.ParseAddrPort(conn.RemoteAddr().String()); err == nil {
		x.server = ap.Addr().Unmap().WithZone("")
	}
}

// dialConn opens the connection c, asking Options.Policy first, then
// follow (when not nil) about the address. With the default dialer they
// are asked for each address the name resolves to, after the socket is
// made and before it connects (net.Dialer's Control); with Options.Dial
// about the address the returned connection is connected to, before
// anything is written to it.
func (o *Options) dialConn(ctx context.Context, c Connection, follow func(netip.Addr) error) (net.Conn, error) {
	check := func(cc Connection) error {
		if o.Policy != nil {
			if err := o.Policy(cc); err != nil {
				return err
			}
		}
		if follow != nil {
			return follow(cc.Addr.Addr())
		}
		return nil
	}
	checked := o.Policy != nil || follow != nil
	if d := o.connectTimeout(); d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	network := c.Network
	if network == "" {
		network = "tcp"
	}
	if network == "udp" {
		o.tracef("* UDP to %s", c.Name)
	} else {
		o.tracef("* connect to %s", c.Name)
	}
	var (
		conn net.Conn
		err  error
	)
	if o.Dial != nil {
		if checked {
			// An address written as a literal is checked before it is
			// dialled; one a name resolves to, once Dial has connected.
			if h, p, err := net.SplitHostPort(c.Name); err == nil {
				if ap, err := netip.ParseAddrPort(net.JoinHostPort(h, p)); err == nil {
					cc := c
					cc.Addr = ap
					if err := check(cc); err != nil {
						return nil, &RefusedError{Conn: cc, Err: err}
					}
				}
			}
		}
		conn, err = o.Dial(ctx, network, c.Name)
		if err == nil && checked {
			cc := c
			if ap, perr := netip.ParseAddrPort(conn.RemoteAddr().String()); perr == nil {
				cc.Addr = ap
			}
			if perr := check(cc); perr != nil {
				conn.Close()
				return nil, &RefusedError{Conn: cc, Err: perr}
			}
		}
	} else {
		d := net.Dialer{KeepAlive: o.KeepAlive}
		if checked {
			d.Control = func(_, address string, _ syscall.RawConn) error {
				cc := c
				ap, err := netip.ParseAddrPort(address)
				if err != nil {
					return &RefusedError{Conn: cc, Err: fmt.Errorf("the address %q cannot be checked: %v", address, err)}
				}
				cc.Addr = ap
				if err := check(cc); err != nil {
					return &RefusedError{Conn: cc, Err: err}
				}
				return nil
			}
		}
		conn, err = d.DialContext(ctx, network, c.Name)
	}
	if err != nil {
		var re *RefusedError
		if errors.As(err, &re) {
			return nil, re
		}
		return nil, &ConnectError{Protocol: c.Protocol, Addr: c.Name, Err: err}
	}
	if o.Capture != nil {
		conn = o.connected(c, conn)
	}
	return conn, nil
}
