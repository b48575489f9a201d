package main

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"testing/synctest"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/cputime"
)

// manyInputs is a mix of valid and invalid URLs, blank lines and long
// lines, so that batches end at different places.
func manyInputs(n int) string {
	var b strings.Builder
	for i := range n {
		switch i % 7 {
		case 0:
			b.WriteString("http://a.example/" + strconv.Itoa(i) + "%2d\n")
		case 1:
			b.WriteString("http://a example/" + strconv.Itoa(i) + "\n") // invalid
		case 2:
			b.WriteString("\n")
		case 3:
			b.WriteString("  ftp://f.example/" + strings.Repeat("x", i%300) + "  \n")
		default:
			b.WriteString("gopher://g.example/1/" + strconv.Itoa(i) + "\n")
		}
	}
	return b.String()
}

// With any number of workers the output, standard error included, is
// the same as with one, in input order.
func TestWorkersKeepOrder(t *testing.T) {
	in := manyInputs(20000)
	for _, cmd := range [][]string{{"canon"}, {"parse"}, {"parse", "--json"}, {"check", "--json"}} {
		var want string
		for _, w := range []int{1, 2, 3, 8} {
			var out bytes.Buffer
			e := &env{stdin: strings.NewReader(in), stdout: &out, stderr: &out, getenv: func(string) string { return "" }}
			code := run(e, append(append([]string{}, cmd...), "--workers", strconv.Itoa(w)))
			if code != exitInvalid {
				t.Errorf("%v --workers %d: status %d", cmd, w, code)
			}
			if w == 1 {
				want = out.String()
				if !strings.Contains(want, "line 19994: ") {
					t.Fatalf("%v: no message for line 19994 in the output", cmd)
				}
				continue
			}
			if out.String() != want {
				t.Errorf("%v --workers %d: output differs from --workers 1", cmd, w)
			}
		}
	}
}

// A line written on a slow stream is answered at once, whatever the
// number of workers: the engine flushes whenever the next read might
// block (issue 13: within 100 ms). The command runs in a testing/synctest
// bubble, whose clock moves only when every goroutine in it is blocked:
// an answer that waited for a timer (a flush every so often) comes after
// the clock has moved, and one that waited for more input (which never
// comes) leaves every goroutine blocked, which synctest reports as a
// deadlock. What remains of an answer's time is the work it costs, bounded
// in CPU time, which a loaded machine does not stretch as it stretches
// wall time.
func TestStreamingAnswersEachLine(t *testing.T) {
	// The CPU the process spends from a line's write to its answer, the
	// test's own included (docs/performance.md: within 100 ms; the race detector
	// multiplies the work several times, so under it the bound is 1 s).
	limit := 100 * time.Millisecond
	if raceEnabled {
		limit = time.Second
	}
	for _, workers := range []string{"1", "4"} {
		synctest.Test(t, func(t *testing.T) {
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			e := &env{stdin: inR, stdout: outW, stderr: io.Discard, getenv: func(string) string { return "" }}
			done := make(chan int)
			go func() {
				done <- run(e, []string{"canon", "--workers", workers})
				outW.Close()
			}()
			lines := bufio.NewReader(outR)
			var worst time.Duration
			for i := range 5 {
				start, cpu := time.Now(), cputime.Now()
				io.WriteString(inW, "http://a.example/"+strconv.Itoa(i)+"%2d\n")
				got, err := lines.ReadString('\n')
				if err != nil {
					t.Fatal(err)
				}
				worst = max(worst, cputime.Now()-cpu)
				if want := "http://a.example/" + strconv.Itoa(i) + "-\n"; got != want {
					t.Fatalf("got %q, want %q", got, want)
				}
				if waited := time.Since(start); waited != 0 {
					t.Errorf("--workers %s: line %d answered after the clock moved %v: the command waited on a timer", workers, i, waited)
				}
			}
			// A partial line is not answered until it ends.
			io.WriteString(inW, "http://b.exa")
			io.WriteString(inW, "mple/\n")
			if got, _ := lines.ReadString('\n'); got != "http://b.example/\n" {
				t.Errorf("split line: got %q", got)
			}
			inW.Close()
			if code := <-done; code != exitOK {
				t.Errorf("status %d", code)
			}
			if worst > limit {
				t.Errorf("--workers %s: the costliest answer took %v of CPU time, want under %v", workers, worst, limit)
			}
		})
	}
}

func TestAppendQuotedWindow(t *testing.T) {
	long := strings.Repeat("a", 300) + "%zz" + strings.Repeat("é", 200)
	got := string(appendQuoted(nil, long, 300))
	if !strings.HasPrefix(got, `..."a`) || !strings.HasSuffix(got, `"...`) || !strings.Contains(got, "%zz") {
		t.Errorf("window %s", got)
	}
	if n := len(got); n > quoteWindow+20 {
		t.Errorf("window of %d bytes: %s", n, got)
	}
	if strings.Contains(got, `\x`) {
		t.Errorf("window cuts a character: %s", got)
	}
	if got := string(appendQuoted(nil, "short \x01", 3)); got != `"short \x01"` {
		t.Errorf("short: %s", got)
	}
}

// poison overwrites a recycled batch buffer, all its capacity, with a
// byte no input holds.
func poison(data []byte) {
	data = data[:cap(data)]
	for i := range data {
		data[i] = 0xff
	}
}

// runRecycled runs urlkit with args over in, with each batch's buffer
// poisoned once written when poisoned is set, and returns standard output
// and error together (interleaved as written) and the status.
func runRecycled(in string, poisoned bool, args ...string) (string, int) {
	var out bytes.Buffer
	e := &env{stdin: strings.NewReader(in), stdout: &out, stderr: &out, getenv: func(string) string { return "" }}
	if poisoned {
		e.recycled = poison
	}
	code := run(e, args)
	return out.String(), code
}

// TestHandlersKeepNoLine holds every command of the line engine to the
// lifetime the handler type documents: a line is a string over its
// batch's buffer, valid only during the handler's call. Each command runs
// over a few thousand lines (several batches; valid and invalid URLs,
// white space, pairs for equal, strings for escape) with one and three
// workers, text and JSON, once as main runs it and once with every
// batch's buffer overwritten as soon as it is written; the two outputs
// must be the same byte for byte. A handler that kept a line and used it
// after its batch would print the overwritten bytes (0xFF) in the second
// run. TestRecycledShowsKeptLine shows that such a handler is caught.
func TestHandlersKeepNoLine(t *testing.T) {
	urls := manyInputs(3000)
	var pairs strings.Builder
	for i, l := range strings.Split(urls, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			pairs.WriteString(l + " http://a.example/" + strconv.Itoa(i) + "-\n")
		}
	}
	args := map[string][]string{"resolve": {"http://a/b/c/d;p?q"}, "relative": {"http://a.example/1/"}}
	input := map[string]string{"equal": pairs.String()}
	ran := 0
	for name, c := range commands {
		if !c.lines || c.single {
			continue
		}
		in, ok := input[name]
		if !ok {
			in = urls
		}
		fs := newFlagSet(c)
		for _, json := range []bool{false, true} {
			if json && fs.Lookup("json") == nil {
				continue
			}
			for _, w := range []string{"1", "3"} {
				a := append([]string{name, "--workers", w}, args[name]...)
				if json {
					a = append(a, "--json")
				}
				want, wantCode := runRecycled(in, false, a...)
				got, code := runRecycled(in, true, a...)
				if got != want || code != wantCode {
					i := 0
					for i < len(got) && i < len(want) && got[i] == want[i] {
						i++
					}
					t.Errorf("%v: the output changes when each batch's buffer is overwritten after it is written (status %d, %d), first at byte %d: %q",
						a, wantCode, code, i, got[i:min(len(got), i+80)])
				}
				if strings.Contains(got, "\xff") {
					t.Errorf("%v: overwritten bytes in the output", a)
				}
				ran++
			}
		}
	}
	if ran < 20 {
		t.Errorf("only %d runs: the line commands are fewer than expected", ran)
	}
}

// TestRecycledShowsKeptLine: a handler that breaks the rule, keeping each
// line and printing them all at the end, prints what TestHandlersKeepNoLine
// looks for once the buffers are overwritten, so that test can fail.
func TestRecycledShowsKeptLine(t *testing.T) {
	in := manyInputs(2000)
	keep := func(poisoned bool) string {
		var out bytes.Buffer
		e := &env{stdin: strings.NewReader(in), stdout: &out, stderr: io.Discard, getenv: func(string) string { return "" }}
		if poisoned {
			e.recycled = poison
		}
		var kept []string
		newEngine(e, "keeper", lineOpts{workers: 1}).run(nil, func(o *results, in *input) {
			kept = append(kept, in.text) // breaks the rule: no copy
			if in.line == 1999 {
				o.buf = append(o.buf, strings.Join(kept, "\n")...)
			}
		})
		return out.String()
	}
	if got := keep(true); !strings.Contains(got, "\xff") {
		t.Errorf("a handler that keeps its lines printed no overwritten byte: %q...", got[:min(len(got), 80)])
	}
}

// The engine takes the complete lines it has buffered together
// (takeBuffered) and reads one line at a time otherwise: a stream read a
// byte at a time (every line on the slow path), in halves, or whole gives
// the same output, with CRLF and lone CR line endings, blank lines, a
// line over the limit, a last line without its newline, and raw lines
// (escape keeps spaces and blank lines).
func TestTakeBufferedAgrees(t *testing.T) {
	in := manyInputs(3000) + "http://crlf.example/a\r\n\r\nhttp://cr.example/\rb\n \r\n" +
		"http://x.example/" + strings.Repeat("y", 300) + "\n\n\nhttp://last.example/no-newline"
	for _, cmd := range [][]string{{"parse", "--json", "--max-line", "200"}, {"canon", "--workers", "3"}, {"escape"}} {
		var want string
		for i, wrap := range []func(io.Reader) io.Reader{
			func(r io.Reader) io.Reader { return r },
			iotest.OneByteReader,
			iotest.HalfReader,
			iotest.DataErrReader,
		} {
			var out bytes.Buffer
			e := &env{stdin: wrap(strings.NewReader(in)), stdout: &out, stderr: &out, getenv: func(string) string { return "" }}
			run(e, cmd)
			if i == 0 {
				want = out.String()
				if !strings.Contains(want, "last.example") || !strings.Contains(want, "crlf.example") {
					t.Fatalf("%v: the last lines are missing from %q", cmd, want[max(0, len(want)-300):])
				}
				continue
			}
			if got := out.String(); got != want {
				a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
				for k := range min(len(a), len(b)) {
					if a[k] != b[k] {
						t.Fatalf("%v, reader %d: line %d is\n%q, read whole\n%q", cmd, i, k+1, b[k], a[k])
					}
				}
				t.Fatalf("%v, reader %d: %d lines, read whole %d", cmd, i, len(b), len(a))
			}
		}
	}
}
