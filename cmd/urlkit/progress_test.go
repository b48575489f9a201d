package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestFormatMeter(t *testing.T) {
	check := func(n, total int64, elapsed time.Duration, want string) {
		t.Helper()
		if got := formatMeter(n, total, elapsed); got != want {
			t.Errorf("formatMeter(%d, %d, %v) = %q, want %q", n, total, elapsed, got, want)
		}
	}
	check(512, -1, 0, "512 B")
	// No rate before half a second: early readings are bursts.
	check(3<<20, -1, 100*time.Millisecond, "3.0 MiB")
	check(3<<20, 12<<20, time.Second, "3.0 MiB of 12.0 MiB  25%  3.0 MiB/s")
	check(1536, 0, 0, "1.5 KiB of 0 B")
	check(200, 100, 0, "200 B of 100 B  100%") // a server that sent more than it said
}

// The meter redraws at most every meterEvery, and done clears its line.
func TestMeterDrawsAndClears(t *testing.T) {
	var buf bytes.Buffer
	now := time.Unix(0, 0)
	m := &meter{w: &buf, now: func() time.Time { return now }, total: -1}
	m.size(1000)
	m.progress(100)
	now = now.Add(10 * time.Millisecond)
	m.progress(200) // too soon: not drawn
	now = now.Add(time.Second)
	m.progress(600)
	got := buf.String()
	if strings.Count(got, "\r") != 2 || !strings.Contains(got, "100 B of 1000 B  10%") || !strings.Contains(got, "600 B of 1000 B  60%") || strings.Contains(got, "200 B") {
		t.Errorf("drawn %q", got)
	}
	buf.Reset()
	m.done()
	if got := buf.String(); !strings.HasPrefix(got, "\r ") || !strings.HasSuffix(got, " \r") || strings.TrimSpace(got) != "" {
		t.Errorf("cleared with %q", got)
	}
}

// No meter unless standard error is a terminal (a buffer is not), and
// none with --silent.
func TestNoMeterOffTerminal(t *testing.T) {
	e := &env{stderr: &bytes.Buffer{}}
	if m := newMeter(e, getFlags{progress: true}, &bytes.Buffer{}); m != nil {
		t.Error("meter drawn on a buffer")
	}
	if sameTerminal(&bytes.Buffer{}, &bytes.Buffer{}) {
		t.Error("a buffer is not a terminal")
	}
}
