package testio

import (
	"errors"
	"net"
	"syscall"
	"testing"
	"time"
)

// A connection to ClosedAddr is refused, and the port cannot be taken by
// a listener while the test runs.
func TestClosedAddr(t *testing.T) {
	a := ClosedAddr(t)
	c, err := net.DialTimeout("tcp", a, 2*time.Second)
	if err == nil {
		c.Close()
		t.Fatalf("a connection to %s was accepted", a)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("dial %s: %v, want connection refused", a, err)
	}
	if ln, err := net.Listen("tcp", a); err == nil {
		ln.Close()
		t.Fatalf("a listener took %s", a)
	}
}
