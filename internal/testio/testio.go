// Package testio holds small I/O helpers that tests of several packages
// share.
package testio

import (
	"bytes"
	"sync"
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
