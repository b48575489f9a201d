package urlkit

import (
	"time"

	"github.com/urlkit/urlkit/internal/testkit/cputime"
)

// cpuTime returns the process's user and system CPU time so far (wall time
// where the system cannot tell).
func cpuTime() time.Duration { return cputime.Now() }
