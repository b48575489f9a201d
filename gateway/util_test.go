package gateway

import (
	"bufio"
	"net"
	"strings"

	"github.com/urlkit/urlkit/internal/testkit/testio"
)

func newReader(c net.Conn) *bufio.Reader { return bufio.NewReader(c) }

// allow returns a Config whose policy reaches the given loopback test
// servers by name (rule T4), as urlkit serve --allow does.
func allow(addrs ...string) Config { return Config{Policy: Policy{Allow: addrs}} }

// syncBuffer is a log the handler writes while a test reads it.
type syncBuffer struct{ testio.SyncBuffer }

// wait reports whether the log holds want within 5 s (the log line
// is written when the handler returns, which may be just after the client
// has the response).
func (s *syncBuffer) wait(want string) bool {
	return testio.Eventually(func() bool { return strings.Contains(s.String(), want) })
}
