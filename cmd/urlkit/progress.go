package main

// The progress meter of get: bytes so far, the total and a percentage when
// the protocol announced the size (HTTP Content-Length, the "(N bytes)" of
// an FTP 150 reply), and a rate once there is enough time to measure one.
// It is drawn only when standard error is a terminal that the resource
// itself is not being written to, at most a few times a second, and cleared
// when the transfer ends, whether it completed, failed or was interrupted.

import (
	"io"
	"os"
	"strconv"
	"sync"
	"time"
)

const (
	meterEvery   = 200 * time.Millisecond // redraw interval
	meterRateMin = 500 * time.Millisecond // no rate before this much time: early readings are bursts
)

type meter struct {
	w     io.Writer
	now   func() time.Time
	mu    sync.Mutex
	total int64 // -1 when unknown
	n     int64
	start time.Time
	last  time.Time
	width int // of the last line drawn, to clear it
}

// newMeter returns a meter for a transfer whose bytes go to out, or nil when
// none should be drawn.
func newMeter(e *env, g getFlags, out io.Writer) *meter {
	if !g.progress || g.silent || !fileTerminal(e.stderr) || sameTerminal(out, e.stderr) {
		return nil
	}
	return &meter{w: e.stderr, now: time.Now, total: -1}
}

// sameTerminal reports whether out is the terminal that err is.
func sameTerminal(out, err any) bool {
	if !fileTerminal(out) {
		return false
	}
	a, b := fileOf(out), fileOf(err)
	sa, err1 := a.Stat()
	sb, err2 := b.Stat()
	return err1 != nil || err2 != nil || os.SameFile(sa, sb)
}

// size records the announced size of the resource.
func (m *meter) size(n int64) {
	m.mu.Lock()
	m.total = n
	m.mu.Unlock()
}

// progress records that n bytes have arrived in all, redrawing when due.
func (m *meter) progress(n int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if m.start.IsZero() {
		m.start = now
	}
	m.n = n
	if now.Sub(m.last) < meterEvery {
		return
	}
	m.last = now
	m.draw(now)
}

func (m *meter) draw(now time.Time) {
	b := append([]byte{'\r'}, formatMeter(m.n, m.total, now.Sub(m.start))...)
	if pad := m.width - (len(b) - 1); pad > 0 {
		for range pad {
			b = append(b, ' ')
		}
	}
	m.width = len(b) - 1
	m.w.Write(b)
}

// done clears the meter's line.
func (m *meter) done() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.width > 0 {
		b := make([]byte, 0, m.width+2)
		b = append(b, '\r')
		for range m.width {
			b = append(b, ' ')
		}
		b = append(b, '\r')
		m.w.Write(b)
		m.width = 0
	}
}

// formatMeter is one reading: "1.5 MiB of 4.0 MiB  37%  512 KiB/s", or
// "1.5 MiB  512 KiB/s" when the size is unknown. The rate is the average
// since the first byte, shown from meterRateMin on.
func formatMeter(n, total int64, elapsed time.Duration) string {
	s := formatBytes(n)
	if total >= 0 {
		s += " of " + formatBytes(total)
		if total > 0 {
			pct := min(n*100/total, 100)
			s += "  " + strconv.FormatInt(pct, 10) + "%"
		}
	}
	if elapsed >= meterRateMin {
		rate := int64(float64(n) / elapsed.Seconds())
		s += "  " + formatBytes(rate) + "/s"
	}
	return s
}

// formatBytes writes a byte count in binary units, one decimal above KiB.
func formatBytes(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	v := float64(n) / 1024
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + units[i]
}
