// Package testio holds small I/O helpers that tests of several packages
// share.
package testio

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
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

// KeepWARC copies the WARC file a test wrote into the directory
// $URLKIT_WARC_DIR names, when it is set, as name: CI reads every file
// there with an independent reader (.ci/warcio-check.cjs, issue 33).
func KeepWARC(t testing.TB, path, name string) {
	t.Helper()
	dir := os.Getenv("URLKIT_WARC_DIR")
	if dir == "" {
		return
	}
	b, err := os.ReadFile(path)
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	if err != nil {
		t.Errorf("keeping %s for CI: %v", path, err)
	}
}
