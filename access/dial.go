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
// same way (x.opts.dial).

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

// dial opens a connection for protocol proto to addr (host:port).
func (o *Options) dial(ctx context.Context, proto, addr string) (net.Conn, error) {
	return o.dialConn(ctx, Connection{Protocol: proto, Name: addr})
}

// dialUDP opens a connected UDP socket for protocol proto to addr.
func (o *Options) dialUDP(ctx context.Context, proto, addr string) (net.Conn, error) {
	return o.dialConn(ctx, Connection{Protocol: proto, Name: addr, Network: "udp"})
}

// dialConn opens the connection c, asking Options.Policy first. With the
// default dialer the policy is asked for each address the name resolves
// to, after the socket is made and before it connects (net.Dialer's
// Control); with Options.Dial it is asked about the address the returned
// connection is connected to, before anything is written to it.
func (o *Options) dialConn(ctx context.Context, c Connection) (net.Conn, error) {
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
		conn, err = o.Dial(ctx, network, c.Name)
		if err == nil && o.Policy != nil {
			cc := c
			if ap, perr := netip.ParseAddrPort(conn.RemoteAddr().String()); perr == nil {
				cc.Addr = ap
			}
			if perr := o.Policy(cc); perr != nil {
				conn.Close()
				return nil, &RefusedError{Conn: cc, Err: perr}
			}
		}
	} else {
		d := net.Dialer{KeepAlive: o.KeepAlive}
		if o.Policy != nil {
			d.Control = func(_, address string, _ syscall.RawConn) error {
				cc := c
				ap, err := netip.ParseAddrPort(address)
				if err != nil {
					return &RefusedError{Conn: cc, Err: fmt.Errorf("the address %q cannot be checked: %v", address, err)}
				}
				cc.Addr = ap
				if err := o.Policy(cc); err != nil {
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
