// Package testio holds small I/O helpers that tests of several packages
// share.
package testio

import (
	"bytes"
	"sync"
	"time"
)

// A SyncBuffer is a bytes.Buffer that one goroutine may write while
// another reads it, such as a server's log or a command's output that a
// test watches as it grows. The zero value is an empty buffer.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what has been written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Eventually polls cond every 10 ms for up to 5 s and reports whether it
// came to hold: for what a server or a gateway does just after a client
// has its answer (closing a connection, writing a log line, giving back
// a slot).
func Eventually(cond func() bool) bool {
	for i := 0; i < 500; i++ {
		if cond() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cond()
}
