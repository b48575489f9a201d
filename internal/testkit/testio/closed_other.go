//go:build !unix

package testio

import (
	"net"
	"testing"
)

// ClosedAddr returns a loopback TCP address nothing listens on: a
// listener's, closed again (where sockets cannot be bound without
// listening, another listener may take the port meanwhile).
func ClosedAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("a closed port: %v", err)
	}
	a := ln.Addr().String()
	ln.Close()
	return a
}
