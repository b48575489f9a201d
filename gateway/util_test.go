package gateway

import (
	"bufio"
	"net"
	"strings"
	"time"

	"github.com/urlkit/urlkit/internal/testio"
)

func newReader(c net.Conn) *bufio.Reader { return bufio.NewReader(c) }

// allow returns a Config whose policy reaches the given loopback test
// servers by name (rule T4), as urlkit serve --allow does.
func allow(addrs ...string) Config { return Config{Policy: Policy{Allow: addrs}} }

// syncBuffer is a log the handler writes while a test reads it.
type syncBuffer struct{ testio.SyncBuffer }

// wait reports whether the log holds want within a second (the log line
// is written when the handler returns, which may be just after the client
// has the response).
func (s *syncBuffer) wait(want string) bool {
	for i := 0; i < 100; i++ {
		if strings.Contains(s.String(), want) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}
