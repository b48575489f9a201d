package access

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/scheme"
)

// The hostile-server suite: each test runs one misbehaving server from
// internal/testkit/hostile and proves the bound that holds against it, with the
// error that names the limit and the protocol step. Where memory is the
// point, the heap's peak during the run is measured and checked.

// peakHeap runs f and returns the highest live heap seen while it ran,
// above the heap before it, sampled every 2 ms.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	f()
	close(stop)
	wg.Wait()
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

// wantLimit checks that err is a *LimitError for limit at a step holding
// step.
func wantLimit(t *testing.T, err error, limit, step string) {
	t.Helper()
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != limit || !strings.Contains(le.Step, step) {
		t.Fatalf("err = %v, want the %s limit at %q", err, limit, step)
	}
	if !strings.Contains(err.Error(), limit) || !strings.Contains(err.Error(), step) {
		t.Errorf("message %q does not name the limit and the step", err)
	}
}

// memBudget is what any of these runs may hold at once, garbage not yet
// collected included (with GOGC=100 the heap may grow to about twice what
// is live before a collection, and CI runs other packages' tests beside
// this one). Unbounded code is far above it: the old menu reader held
// about 9 bytes per byte of menu, some 290 MB for the 32 MiB menu below.
const memBudget = 48 << 20

// Control replies without end: a multi-line FTP greeting (net/textproto
// has no cap; curl stops at 300 KB), reply lines that never end, a GROUP
// reply without end, an HTTP header without end. Each is stopped at its
// bound, naming the limit and the step, in little memory.
func TestHostileReplies(t *testing.T) {
	for _, tc := range []struct {
		name   string
		handle func(net.Conn)
		url    string
		limit  string
		step   string
	}{
		{"ftp huge greeting", hostile.HugeMultilineReply("220"), "ftp://%s/f", "reply size", "greeting"},
		{"ftp endless line", hostile.EndlessLine("220"), "ftp://%s/f", "reply line", "greeting"},
		{"nntp endless line", hostile.EndlessLine("200"), "nntp://%s/g/1", "reply line", "greeting"},
		{"nntp huge GROUP reply", hostile.HugeReplyAfter([]string{"200 hi", "200 reader"}, "211"), "nntp://%s/g/1", "reply size", "GROUP g"},
		{"http endless header", hostile.HTTPEndlessHeader, "http://%s/", "reply size", "GET / HTTP/1.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := serve(t, tc.handle)
			var err error
			peak := peakHeap(func() { _, _, err = get(t, fmt.Sprintf(tc.url, s.Addr), scheme.Config{}, nil) })
			wantLimit(t, err, tc.limit, tc.step)
			t.Logf("peak heap %d KiB", peak>>10)
			if peak > memBudget {
				t.Errorf("peak heap %d bytes", peak)
			}
		})
	}
}

// An FTP server that answers CWD with an endless multi-line reply.
func TestHostileFTPHugeReplyToCWD(t *testing.T) {
	s := serve(t, hostile.HugeReplyAfter([]string{"220 hi", "331 pw", "230 in"}, "250"))
	_, _, err := get(t, "ftp://"+s.Addr+"/dir/f", scheme.Config{}, nil)
	wantLimit(t, err, "reply size", "CWD dir")
}

// An article without end is streamed: constant memory, and --max-size
// stops it, naming ARTICLE.
func TestHostileNNTPEndlessArticle(t *testing.T) {
	s := serve(t, hostile.NNTPEndlessArticle)
	var err error
	var n int64
	peak := peakHeap(func() {
		var r *Resource
		r, err = Execute(context.Background(), planFor(t, "nntp://"+s.Addr+"/g/1", scheme.Config{}), &Options{MaxSize: 64 << 20})
		if err == nil {
			n, err = io.Copy(io.Discard, r)
			r.Close()
		}
	})
	wantLimit(t, err, "max-size", "ARTICLE 1")
	t.Logf("%d MiB streamed, peak heap %d KiB", n>>20, peak>>10)
	if peak > memBudget || n < 60<<20 {
		t.Errorf("peak heap %d bytes after %d bytes", peak, n)
	}
}

// An article whose connection ends before the "." line is an error, not a
// silent truncation.
func TestHostileNNTPTruncatedArticle(t *testing.T) {
	s := serve(t, hostile.NNTPArticle("Subject: x\r\n\r\nbody\r\n"))
	_, _, err := get(t, "nntp://"+s.Addr+"/g/1", scheme.Config{}, nil)
	if err == nil || !strings.Contains(err.Error(), `"." line`) || !strings.Contains(err.Error(), "ARTICLE 1") {
		t.Fatalf("err = %v", err)
	}
}

// An SMTP server whose reply to EHLO never ends.
func TestHostileSMTPHugeReply(t *testing.T) {
	s := serve(t, hostile.HugeReplyAfter([]string{"220 hi"}, "250"))
	m := &MailMessage{From: "a@example.org", To: []string{"b@example.org"}, Body: []byte("x")}
	var err error
	peak := peakHeap(func() { err = SendMail(context.Background(), s.Addr, m, nil) })
	wantLimit(t, err, "reply size", "EHLO")
	t.Logf("peak heap %d KiB", peak>>10)
	if peak > memBudget {
		t.Errorf("peak heap %d bytes", peak)
	}
}

// A gopher menu of 32 MiB is listed item by item as it arrives (a 487 MB
// menu used to take 4.3 GB): the heap stays small.
func TestHostileGopherHugeMenu(t *testing.T) {
	s := serve(t, hostile.GopherEndlessMenu(32<<20))
	var n int
	var err error
	peak := peakHeap(func() {
		var r *Resource
		r, err = Execute(context.Background(), planFor(t, "gopher://"+s.Addr+"/1", scheme.Config{}), nil)
		if err == nil {
			n, err = WriteMenuListing(io.Discard, r, 0)
			r.Close()
		}
	})
	if err != nil || n < 300000 {
		t.Fatalf("%d items, %v", n, err)
	}
	t.Logf("%d items, peak heap %d KiB", n, peak>>10)
	if peak > memBudget {
		t.Errorf("peak heap %d bytes", peak)
	}
}

// A menu line longer than MaxReplyLine is an error naming the line.
func TestHostileGopherMenuLongLine(t *testing.T) {
	s := serve(t, hostile.GopherReply("0ok\t/x\th\t70\r\n0"+strings.Repeat("x", 100<<10)+"\t/y\th\t70\r\n.\r\n"))
	r, err := Execute(context.Background(), planFor(t, "gopher://"+s.Addr+"/1", scheme.Config{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = WriteMenuListing(io.Discard, r, 0)
	wantLimit(t, err, "menu line", "menu line 2")
}

// Lines longer than the read buffer, with dots where pieces begin: nothing
// is taken for the terminator but a "." line, and ".." is un-stuffed only
// at a line's start (the old dotReader dropped the rest of the document
// with exit status 0).
func TestHostileGopherLongLines(t *testing.T) {
	h, want := hostile.GopherLongLines()
	s := serve(t, h)
	got := mustGet(t, "gopher://"+s.Addr+"/0/long", scheme.Config{}, nil)
	if string(got) != want {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Fatalf("got %d bytes, want %d; first difference at %d", len(got), len(want), i)
	}
}

// A Gopher+ length that the server does not deliver is an error; a
// declared length above --max-size is refused before reading.
func TestHostileGopherPlusLength(t *testing.T) {
	s := serve(t, hostile.GopherReply("+100000\r\nshort"))
	_, _, err := get(t, "gopher://"+s.Addr+"/9/f%09%09+", scheme.Config{}, nil)
	if err == nil || !strings.Contains(err.Error(), "declared 100000 bytes") {
		t.Fatalf("err = %v", err)
	}
	_, _, err = get(t, "gopher://"+s.Addr+"/9/f%09%09+", scheme.Config{}, &Options{MaxSize: 1000})
	wantLimit(t, err, "max-size", "Gopher+ length +100000")
}

// A server that sends one byte a second: --max-time ends the transfer at
// the deadline; --speed-limit ends it after --speed-time.
func TestHostileDrip(t *testing.T) {
	s := serve(t, hostile.Drip("", 200*time.Millisecond))
	start := time.Now()
	_, _, err := get(t, "gopher://"+s.Addr+"/9/drip", scheme.Config{}, &Options{MaxTime: 700 * time.Millisecond})
	wantLimit(t, err, "max-time", "selector")
	if d := time.Since(start); d < 600*time.Millisecond || d > 3*time.Second {
		t.Errorf("stopped after %v, want about 700ms", d)
	}
	start = time.Now()
	_, _, err = get(t, "gopher://"+s.Addr+"/9/drip", scheme.Config{}, &Options{SpeedLimit: 100, SpeedTime: time.Second})
	wantLimit(t, err, "speed-limit", "selector")
	if d := time.Since(start); d < time.Second || d > 4*time.Second {
		t.Errorf("stopped after %v, want about 1s", d)
	}
}

// A server that never answers: the idle timeout names the step.
func TestHostileSilent(t *testing.T) {
	s := serve(t, hostile.Silent)
	_, _, err := get(t, "ftp://"+s.Addr+"/f", scheme.Config{}, &Options{ReadTimeout: 200 * time.Millisecond})
	wantLimit(t, err, "timeout", "greeting")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err = Execute(ctx, planFor(t, "nntp://"+s.Addr+"/g", scheme.Config{}), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// A gzip bomb (128 KiB expanding to 128 MiB): without Compressed the body is
// not decoded (and no Accept-Encoding was sent); with it, --max-size
// bounds the decoded bytes too.
func TestHostileGzipBomb(t *testing.T) {
	bomb := hostile.GzipBomb(128 << 20)
	s := serve(t, hostile.HTTPResponse(bomb))
	got := mustGet(t, "http://"+s.Addr+"/", scheme.Config{}, nil)
	if len(got) > 2<<20 || strings.Contains(s.Received(), "Accept-Encoding") {
		t.Fatalf("got %d bytes; request %q", len(got), s.Received())
	}
	var err error
	var n int
	peak := peakHeap(func() {
		var b []byte
		b, _, err = get(t, "http://"+s.Addr+"/", scheme.Config{Compressed: true}, &Options{MaxSize: 8 << 20})
		n = len(b)
	})
	wantLimit(t, err, "max-size", "decoded gzip body")
	t.Logf("compressed %d KiB; decoded stopped at %d MiB; peak heap %d MiB (the test keeps the bytes)", len(got)>>10, n>>20, peak>>20)
}
