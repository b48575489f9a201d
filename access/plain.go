package access

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/urlkit/urlkit"
)

// PlainError returns err's message with the innermost error the Go runtime
// wrote (a net.OpError, a DNS or path error, a timeout) replaced by plain
// words: "connecting to 127.0.0.1:7999: connection refused (no server
// listens on that port)" rather than "dial tcp 127.0.0.1:7999: connect:
// connection refused". The outer layers, which name the protocol step, are
// kept. urlkit's command line and the gateway's error pages both word
// errors with it.
func PlainError(err error) string {
	if _, ok := err.(*urlkit.SyntaxError); ok {
		return err.Error() // the parser's own words, never the runtime's
	}
	full := err.Error()
	for e := err; e != nil; e = errors.Unwrap(e) {
		plain, ok := plainRuntime(e)
		if !ok {
			continue
		}
		inner := e.Error()
		if strings.HasSuffix(full, inner) {
			return full[:len(full)-len(inner)] + plain
		}
		return full + " (" + plain + ")"
	}
	return full
}

// plainRuntime words one error of the Go runtime for a person.
func plainRuntime(err error) (string, bool) {
	var op *net.OpError
	var dns *net.DNSError
	var addr *net.AddrError
	var pe *fs.PathError
	switch {
	case errors.As(err, &dns):
		if dns.IsNotFound {
			return "host name " + strconv.Quote(dns.Name) + " not found (DNS lookup)", true
		}
		if dns.IsTimeout {
			return "looking up host name " + strconv.Quote(dns.Name) + ": no answer from DNS in time", true
		}
		return "looking up host name " + strconv.Quote(dns.Name) + ": " + dns.Err, true
	case errors.As(err, &op):
		if op.Err != nil && errors.As(op.Err, &addr) {
			return plainAddr(addr), true
		}
		if op.Err != nil && op.Err.Error() == "missing address" {
			return "no server address to connect to", true
		}
		where := ""
		if op.Addr != nil {
			where = op.Addr.String()
		}
		var step string
		switch op.Op {
		case "dial":
			step = "connecting to " + where
		case "read":
			step = "reading from " + where
		case "write":
			step = "sending to " + where
		default:
			step = op.Op + " " + where
		}
		return step + ": " + causeText(op.Err), true
	case errors.As(err, &addr):
		return plainAddr(addr), true
	case errors.As(err, &pe):
		return pe.Op + " " + strconv.Quote(pe.Path) + ": " + causeText(pe.Err), true
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return "no answer within the time limit (--timeout, --connect-timeout)", true
	case errors.Is(err, context.Canceled):
		return "interrupted", true
	}
	return "", false
}

func plainAddr(a *net.AddrError) string {
	if a.Err == "missing address" {
		return "no server address to connect to"
	}
	if a.Addr != "" {
		return "server address " + strconv.Quote(a.Addr) + ": " + a.Err
	}
	return "server address: " + a.Err
}

// causeText words the cause inside a net or path error.
func causeText(err error) string {
	if err == nil {
		return "failed"
	}
	var te interface{ Timeout() bool }
	if errors.As(err, &te) && te.Timeout() {
		return "no answer within the time limit (--timeout, --connect-timeout)"
	}
	return errnoText(err)
}

func errnoText(err error) string {
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused (no server listens on that port)"
	case errors.Is(err, syscall.ECONNRESET):
		return "the server closed the connection abruptly (connection reset)"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "the host cannot be reached from this machine (no route)"
	case errors.Is(err, syscall.EPIPE):
		return "the other side closed the connection"
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, syscall.EISDIR):
		return "is a directory"
	}
	var se *os.SyscallError
	if errors.As(err, &se) {
		return se.Syscall + ": " + se.Err.Error()
	}
	return err.Error()
}
