package gateway

import (
	"bufio"
	"net"
)

func newReader(c net.Conn) *bufio.Reader { return bufio.NewReader(c) }

// allow returns a Config whose policy reaches the given loopback test
// servers by name (rule T4), as urlkit serve --allow does.
func allow(addrs ...string) Config { return Config{Policy: Policy{Allow: addrs}} }
