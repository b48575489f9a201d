package gateway

import (
	"bufio"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/cputime"

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

// cpuInTurns runs a, then c, round times each, in turns until each has
// run b.N times or more, and returns the process CPU time (user+system)
// of a's turns and of c's, and how many times each ran. A turn starts
// after a collection: neither side is charged the other's garbage.
func cpuInTurns(b *testing.B, round int, a, c func()) (cpuA, cpuC time.Duration, n int) {
	b.ResetTimer()
	for n < b.N {
		runtime.GC()
		t0 := cputime.Now()
		for i := 0; i < round; i++ {
			a()
		}
		t1 := cputime.Now()
		runtime.GC()
		t2 := cputime.Now()
		for i := 0; i < round; i++ {
			c()
		}
		cpuA += t1 - t0
		cpuC += cputime.Now() - t2
		n += round
	}
	return cpuA, cpuC, n
}
