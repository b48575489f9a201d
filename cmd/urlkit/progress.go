package main

// The progress meter of get, drawn on standard error when it is a terminal
// that the resource itself is not being written to, at most five times a
// second, on one line:
//
//	file.iso   37% [=======>             ] 1.5 MiB of 4.0 MiB  512 KiB/s  0:05 left
//	menu       1.5 MiB  512 KiB/s  0:03
//
// the name (the output file, else the URL's file name), and, when the
// protocol announced the size (HTTP Content-Length, the "(N bytes)" of an
// FTP 150 reply, a Gopher+ length, a file's size), the percentage, a bar
// fitted to the terminal's width and the time left; else the time so far.
// The rate is that of the last few seconds, shown from half a second on.
// When the transfer completes the line is replaced by a summary that stays
// on the terminal ("file.iso: 4.0 MiB in 7.9 s, 518 KiB/s"); when it fails
// or is interrupted the line is cleared and the error follows.
//
// Why not a progress library: schollz/progressbar v3.19.1 and
// vbauerster/mpb v8.16.2 were tried for this (docs/cli.md, the progress meter). The first
// refuses a total of 0 bytes and a transfer that goes past its total (a
// server that sends more than it announced), starts a redrawing goroutine
// for an unknown total that runs until the bar finishes, and reads the
// clock itself, so a test cannot drive it; the second brings five modules
// (besides golang.org/x/sys) and two goroutines (a heap manager and a
// renderer) to draw one line. Neither has a summary line
// of its own. This file is the meter those would replace.

import (
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/urlkit/urlkit/access"
)

const (
	meterEvery   = 200 * time.Millisecond // redraw interval
	meterRateMin = 500 * time.Millisecond // no rate before this much time: early readings are bursts
	meterWindow  = 5 * time.Second        // the rate is measured over this much of the recent past
	meterWidth   = 80                     // columns when the terminal does not say
	meterBarMin  = 10                     // a bar narrower than this is left out
)

type meter struct {
	w     io.Writer
	now   func() time.Time
	cols  func() int // the terminal's width
	name  string
	mu    sync.Mutex
	total int64 // -1 when unknown
	n     int64
	start time.Time
	last  time.Time // of the last redraw
	// recent holds (time, bytes) at each redraw within meterWindow, for
	// the current rate.
	recent []meterSample
	width  int // of the last line drawn, to clear it
}

type meterSample struct {
	t time.Time
	n int64
}

// newMeter returns a meter named name for a transfer whose bytes go to
// out, or nil when none should be drawn: --no-progress, -s, standard error
// not a terminal, or the resource going to that same terminal.
func newMeter(e *env, g getFlags, out io.Writer, name string) *meter {
	if !g.progress || g.silent || !fileTerminal(e.stderr) || sameTerminal(out, e.stderr) {
		return nil
	}
	f := fileOf(e.stderr)
	cols := func() int {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w
		}
		return meterWidth
	}
	return &meter{w: e.stderr, now: time.Now, cols: cols, name: access.EscapeText(name), total: -1}
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
		m.recent = append(m.recent[:0], meterSample{now, 0})
	}
	m.n = n
	if now.Sub(m.last) < meterEvery {
		return
	}
	m.last = now
	m.recent = append(m.recent, meterSample{now, n})
	k := 0
	for k < len(m.recent)-2 && now.Sub(m.recent[k+1].t) >= meterWindow {
		k++
	}
	m.recent = m.recent[k:]
	m.draw(formatMeter(m.name, m.n, m.total, now.Sub(m.start), m.rate(now), m.cols()))
}

// rate is the rate of the recent past in bytes a second, or -1 before
// meterRateMin.
func (m *meter) rate(now time.Time) float64 {
	if now.Sub(m.start) < meterRateMin || len(m.recent) < 2 {
		return -1
	}
	first, last := m.recent[0], m.recent[len(m.recent)-1]
	d := last.t.Sub(first.t).Seconds()
	if d <= 0 {
		return -1
	}
	return float64(last.n-first.n) / d
}

// draw writes line over the one drawn before.
func (m *meter) draw(line string) {
	b := make([]byte, 0, len(line)+m.width+2)
	b = append(b, '\r')
	b = append(b, line...)
	if pad := m.width - len(line); pad > 0 {
		b = append(b, strings.Repeat(" ", pad)...)
	}
	m.width = len(line)
	m.w.Write(b)
}

// clear clears the meter's line, so that a message can be written on
// the terminal; the next reading draws it again. A nil meter does nothing.
func (m *meter) clear() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.clearLocked()
}

func (m *meter) clearLocked() {
	if m.width > 0 {
		m.w.Write([]byte("\r" + strings.Repeat(" ", m.width) + "\r"))
		m.width = 0
	}
}

// done ends the meter: with complete, the line becomes the transfer's
// summary, left on the terminal; without, it is cleared.
func (m *meter) done(complete bool) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if complete {
		elapsed := time.Duration(0)
		if !m.start.IsZero() {
			elapsed = m.now().Sub(m.start)
		}
		m.draw(formatSummary(m.name, m.n, elapsed))
		m.w.Write([]byte{'\n'})
		m.width = 0
		return
	}
	m.clearLocked()
}

// formatMeter is one reading of the meter, at most cols-1 columns wide
// (so that it never wraps): the name, then with a known total the
// percentage, a bar, the bytes of the total, the rate (rate < 0: not yet)
// and the time left; without one, the bytes, the rate and the time so far.
// On a narrow terminal the bar goes first, then the time, then the rate.
func formatMeter(name string, n, total int64, elapsed time.Duration, rate float64, cols int) string {
	fields := make([]string, 0, 3)
	if total >= 0 {
		fields = append(fields, formatBytes(n)+" of "+formatBytes(total))
	} else {
		fields = append(fields, formatBytes(n))
	}
	if rate >= 0 {
		fields = append(fields, formatBytes(int64(rate))+"/s")
	}
	switch {
	case total > 0 && n >= total:
	case total > 0 && rate > 0:
		fields = append(fields, formatClock(time.Duration(float64(total-n)/rate*float64(time.Second)))+" left")
	case total < 0:
		fields = append(fields, formatClock(elapsed))
	}
	// The name takes at most a third of the line.
	name = fitName(name, max(cols/3, 12))
	pct := ""
	if total > 0 {
		p := strconv.FormatInt(min(n*100/total, 100), 10) + "%"
		pct = "  " + strings.Repeat(" ", 4-len(p)) + p
	}
	for {
		right := strings.Join(fields, "  ")
		if total > 0 {
			// name, percentage, " [", bar, "] ", the rest.
			bar := cols - 1 - len(name) - len(pct) - 2 - 2 - len(right)
			if bar >= meterBarMin {
				bar = min(bar, 40)
				fill := int(min(n, total) * int64(bar) / total)
				head := ""
				if fill < bar {
					head = ">"
				}
				return name + pct + " [" + strings.Repeat("=", fill) + head + strings.Repeat(" ", bar-fill-len(head)) + "] " + right
			}
		}
		line := name + pct + "  " + right
		if len(line) <= cols-1 || len(fields) == 1 {
			if len(line) > cols-1 && cols > 1 {
				line = line[:cols-1]
			}
			return line
		}
		fields = fields[:len(fields)-1]
	}
}

// formatSummary is the line left when a transfer completes: "NAME: SIZE
// in TIME, RATE".
func formatSummary(name string, n int64, elapsed time.Duration) string {
	s := name + ": " + formatBytes(n) + " in " + formatSeconds(elapsed)
	if elapsed > 0 {
		s += ", " + formatBytes(int64(float64(n)/elapsed.Seconds())) + "/s"
	}
	return s
}

// fitName shortens name to at most width bytes, keeping its end (where a
// file name's extension is) after "...".
func fitName(name string, width int) string {
	if len(name) <= width {
		return name
	}
	keep := name[len(name)-(width-3):]
	for len(keep) > 0 && keep[0]&0xC0 == 0x80 { // not inside a UTF-8 sequence
		keep = keep[1:]
	}
	return "..." + keep
}

// formatClock writes a duration as m:ss or h:mm:ss.
func formatClock(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	h, m := s/3600, s/60%60
	two := func(v int64) string {
		if v < 10 {
			return "0" + strconv.FormatInt(v, 10)
		}
		return strconv.FormatInt(v, 10)
	}
	if h > 0 {
		return strconv.FormatInt(h, 10) + ":" + two(m) + ":" + two(s%60)
	}
	return strconv.FormatInt(m, 10) + ":" + two(s%60)
}

// formatSeconds writes a duration as "0.3 s", "12.0 s", or as formatClock
// from a minute on.
func formatSeconds(d time.Duration) string {
	if d >= time.Minute {
		return formatClock(d)
	}
	return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + " s"
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
