//go:build unix

package testio

import (
	"net"
	"strconv"
	"syscall"
	"testing"
)

// ClosedAddr returns a loopback TCP address on which a connection is
// refused, for as long as the test runs. The port is held by a socket that
// is bound but never listens (and does not set SO_REUSEADDR), so no other
// listener of this or another process can take it meanwhile, as one could
// take the port of a listener opened and closed again.
func ClosedAddr(t testing.TB) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatalf("a socket for a closed port: %v", err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatalf("binding a closed port: %v", err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatalf("the closed port's address: %v", err)
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(sa.(*syscall.SockaddrInet4).Port))
}
