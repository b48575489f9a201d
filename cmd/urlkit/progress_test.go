package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestFormatMeter(t *testing.T) {
	check := func(name string, n, total int64, elapsed time.Duration, rate float64, cols int, want string) {
		t.Helper()
		got := formatMeter(name, n, total, elapsed, rate, cols)
		if got != want {
			t.Errorf("formatMeter(%q, %d, %d, %v, %v, %d) =\n%q, want\n%q", name, n, total, elapsed, rate, cols, got, want)
		}
		if len(got) > cols-1 {
			t.Errorf("%d columns on a terminal of %d: the line would wrap", len(got), cols)
		}
	}
	// Unknown size: bytes, then the rate from half a second, the time so far.
	check("menu", 512, -1, 0, -1, 80, "menu  512 B  0:00")
	check("menu", 3<<20, -1, 65*time.Second, 1<<20, 80, "menu  3.0 MiB  1.0 MiB/s  1:05")
	// Known size: percentage, a bar (at most 40 columns), the total, the
	// rate, the time left.
	check("f.iso", 3<<20, 12<<20, time.Second, 3<<20, 80,
		"f.iso   25% [=====>                 ] 3.0 MiB of 12.0 MiB  3.0 MiB/s  0:03 left")
	check("f.iso", 3<<20, 12<<20, 100*time.Millisecond, -1, 80,
		"f.iso   25% [==========>                             ] 3.0 MiB of 12.0 MiB")
	check("f.iso", 3<<20, 12<<20, time.Second, 3<<20, 100,
		"f.iso   25% [==========>                             ] 3.0 MiB of 12.0 MiB  3.0 MiB/s  0:03 left")
	// A narrow terminal: no bar, then no time left, then no rate.
	check("f.iso", 3<<20, 12<<20, time.Second, 3<<20, 60,
		"f.iso   25%  3.0 MiB of 12.0 MiB  3.0 MiB/s  0:03 left")
	check("f.iso", 3<<20, 12<<20, time.Second, 3<<20, 50,
		"f.iso   25%  3.0 MiB of 12.0 MiB  3.0 MiB/s")
	check("f.iso", 3<<20, 12<<20, time.Second, 3<<20, 34,
		"f.iso   25%  3.0 MiB of 12.0 MiB")
	check("f.iso", 3<<20, 12<<20, time.Second, 3<<20, 30, "f.iso   25%  3.0 MiB of 12.0 ") // cut, never wrapped
	// A long name keeps its end.
	check("a-very-long-file-name-for-the-meter.tar.gz", 1, 2, 0, -1, 60,
		"...-the-meter.tar.gz   50% [=========>         ] 1 B of 2 B")
	// Done: no time left; more than announced stays at 100%, bar full.
	check("f", 100, 100, time.Second, 100, 80, "f  100% [========================================] 100 B of 100 B  100 B/s")
	check("f", 200, 100, time.Second, 200, 80, "f  100% [========================================] 200 B of 100 B  200 B/s")
	check("empty", 0, 0, 0, -1, 80, "empty  0 B of 0 B")
	// An hour left.
	check("big", 1<<20, 1<<40, time.Second, 1<<28, 100, "big    0% [>                                       ] 1.0 MiB of 1.0 TiB  256.0 MiB/s  1:08:16 left")
}

func TestFormatSummary(t *testing.T) {
	if got := formatSummary("f.iso", 4<<20, 8*time.Second); got != "f.iso: 4.0 MiB in 8.0 s, 512.0 KiB/s" {
		t.Errorf("summary %q", got)
	}
	if got := formatSummary("f", 10, 0); got != "f: 10 B in 0.0 s" {
		t.Errorf("summary %q", got)
	}
	if got := formatSummary("f", 90<<20, 90*time.Second); got != "f: 90.0 MiB in 1:30, 1.0 MiB/s" {
		t.Errorf("summary %q", got)
	}
}

// The meter redraws at most every meterEvery, measures the rate over the
// recent past, and ends with a summary that stays (complete) or a cleared
// line (failed).
func TestMeterDrawsAndEnds(t *testing.T) {
	var buf bytes.Buffer
	now := time.Unix(0, 0)
	m := &meter{w: &buf, now: func() time.Time { return now }, cols: func() int { return 80 }, name: "f", total: -1}
	m.size(1000)
	m.progress(100)
	now = now.Add(10 * time.Millisecond)
	m.progress(200) // too soon: not drawn
	now = now.Add(time.Second)
	m.progress(600)
	got := buf.String()
	if strings.Count(got, "\r") != 2 || !strings.Contains(got, "f   10% [") || !strings.Contains(got, "600 B of 1000 B") || strings.Contains(got, "200 B") {
		t.Errorf("drawn %q", got)
	}
	// The rate: 600 bytes over the 1.01 s since the first reading.
	if !strings.Contains(got, "594 B/s") || !strings.Contains(got, "0:01 left") {
		t.Errorf("rate in %q", got)
	}
	buf.Reset()
	now = now.Add(time.Second)
	m.progress(1000)
	m.done(true)
	// The summary replaces the line (padded over it) and stays: 1000 B in
	// the 2.01 s since the first byte.
	if got := buf.String(); !strings.Contains(got, "\rf: 1000 B in 2.0 s, 497 B/s   ") || !strings.HasSuffix(got, " \n") {
		t.Errorf("summary drawn as %q", got)
	}
	// A failed transfer: the line is cleared and nothing stays.
	buf.Reset()
	m = &meter{w: &buf, now: func() time.Time { return now }, cols: func() int { return 80 }, name: "f", total: -1}
	m.progress(10)
	m.done(false)
	if got := buf.String(); !strings.HasSuffix(got, "\r") || strings.Contains(got, "\n") || strings.TrimSpace(got[strings.LastIndexByte(got[:len(got)-1], '\r'):]) != "" {
		t.Errorf("cleared with %q", got)
	}
}

// The rate over a window forgets the start: after a stall the rate falls.
func TestMeterRateWindow(t *testing.T) {
	now := time.Unix(0, 0)
	m := &meter{w: &bytes.Buffer{}, now: func() time.Time { return now }, cols: func() int { return 80 }, total: -1}
	n := int64(0)
	for range 50 { // 10 s at 1000 B/s
		now = now.Add(200 * time.Millisecond)
		n += 200
		m.progress(n)
	}
	if r := m.rate(now); r < 990 || r > 1010 {
		t.Errorf("rate %v, want 1000", r)
	}
	for range 50 { // 10 s at 100 B/s
		now = now.Add(200 * time.Millisecond)
		n += 20
		m.progress(n)
	}
	if r := m.rate(now); r < 99 || r > 101 {
		t.Errorf("rate %v after the slowdown, want 100 (the last %v)", r, meterWindow)
	}
}

// No meter unless standard error is a terminal (a buffer is not), and
// none with --silent.
func TestNoMeterOffTerminal(t *testing.T) {
	e := &env{stderr: &bytes.Buffer{}}
	if m := newMeter(e, getFlags{progress: true}, &bytes.Buffer{}, "x"); m != nil {
		t.Error("meter drawn on a buffer")
	}
	if sameTerminal(&bytes.Buffer{}, &bytes.Buffer{}) {
		t.Error("a buffer is not a terminal")
	}
}
