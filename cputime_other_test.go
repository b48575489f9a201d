//go:build !unix

package urlkit

import "time"

// cpuTime is not measured on this system; the cpu-ns/byte figure is 0.
func cpuTime() time.Duration { return 0 }
