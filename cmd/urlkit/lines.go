package main

// The line engine: every command that takes URLs reads them through here,
// from its arguments, from --url-file files or from standard input, and
// writes its results through here, in input order, from N workers.
//
// Rules for lines read from a stream (a file or standard input):
//   - the line ending (LF or CRLF) is removed;
//   - surrounding white space (ASCII and Unicode, U+00A0 included) is
//     trimmed, and a line left empty is skipped: linkset.Line, the rule the
//     link-set pipeline applies too, on each line as its worker takes it
//     (arguments are taken exactly as given: "urlkit parse ' http://a/'"
//     is an error at offset 0, as the library says);
//   - a line longer than maxLine bytes is reported with its line number
//     and skipped, and the stream goes on;
//   - every message names the line number (and the file when there is one).
//
// Output is buffered and still streams: the engine flushes standard output
// whenever the next read of the input might block (no complete line is
// buffered), so a line typed at a terminal, or written by a slow producer,
// is answered at once, while a file is answered in large writes.

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"unsafe"

	"golang.org/x/term"

	"github.com/urlkit/urlkit/linkset"
	"github.com/urlkit/urlkit/scheme"
)

// defaultMaxLine is the longest line the engine accepts: far beyond any
// URL a server would take (RFC 1738 sets no limit; browsers stop at 2 MB).
const defaultMaxLine = 1 << 20

// An input is one URL (or string) to process.
type input struct {
	text string
	line int    // line number in its stream; 0 for a command-line argument
	src  string // the stream's name for messages: "" (argument), "standard input" or a file name
	// tooLong is set, with text empty, for a line that was over the limit.
	tooLong bool
}

// where returns the prefix that locates the input in messages:
// "line 3: " on standard input, "urls.txt line 3: " in a file, "" for an
// argument.
func (in *input) where(b []byte) []byte {
	if in.line == 0 {
		return b
	}
	if in.src != "" && in.src != stdinName {
		b = append(b, in.src...)
		b = append(b, ' ')
	}
	b = append(b, "line "...)
	b = strconv.AppendInt(b, int64(in.line), 10)
	return append(b, ": "...)
}

const stdinName = "standard input"

// lineOpts are the engine's settings shared by every command: the sources
// beyond the arguments and the parallelism.
type lineOpts struct {
	urlFiles []string // --url-file, in order; "-" is standard input
	workers  int      // --workers; 0 means GOMAXPROCS
	maxLine  int      // --max-line
	// raw keeps lines exactly (only the line ending is removed) and does not
	// skip blank ones: for escape and unescape, whose inputs are strings.
	raw bool
}

// output collects what one batch of inputs writes, so that workers can run
// ahead while results reach the streams in input order. Messages for
// standard error are recorded with the position they take among the
// standard output bytes, so the two streams interleave as they would
// sequentially.
type results struct {
	cmd  string // "urlkit parse", for messages
	buf  []byte // standard output
	errs []errRec
	// ebuf holds the messages' bytes, one after another (errRec.msg
	// are its slices): a rejected line's message costs no allocation.
	ebuf   []byte
	status int
	// jw is the JSON writer of writeJSON, kept here so that a result
	// line costs no allocation of its own.
	jw jw
	// plainInput: the command has found that the next result's input
	// needs no JSON escaping (jsonw.Plain), so writeJSON copies it as it
	// is instead of scanning it again; writeJSON clears it.
	plainInput bool
	// line writes the line numbers of appendPlainHead.
	line decimal
	// view is storage for the scheme view a command builds for one input
	// (parse --json: scheme.ViewInto), reused with the batch.
	view scheme.ViewBuf
}

type errRec struct {
	pos int // len(buf) when the message was written
	msg []byte
}

// setStatus raises the exit status to s.
func (o *results) setStatus(s int) {
	if s > o.status {
		o.status = s
	}
}

// message writes "urlkit CMD: <where>MSG\n" to standard error.
func (o *results) message(in *input, msg []byte) {
	o.endMessage(append(o.startMessage(in), msg...))
}

// startMessage starts a message for standard error in o's message buffer,
// "urlkit CMD: <where>", and returns the buffer for the caller to append
// the message to and hand to endMessage.
func (o *results) startMessage(in *input) []byte {
	m := append(o.ebuf, o.cmd...)
	m = append(m, ": "...)
	if in != nil {
		m = in.where(m)
	}
	return m
}

// endMessage ends the message that startMessage began, m being the buffer
// it returned with the message appended.
func (o *results) endMessage(m []byte) {
	m = append(m, '\n')
	start := len(o.ebuf)
	o.ebuf = m
	// The slice keeps the bytes even when a later message moves the
	// buffer (the old array stays as it was); its capacity ends at its
	// length, so nothing appends over the next message.
	o.errs = append(o.errs, errRec{len(o.buf), m[start:len(m):len(m)]})
}

// inputError reports err about text for in on standard error, quoting the
// text around the error's offset (describeInputError).
func (o *results) inputError(in *input, text string, err error) {
	o.endMessage(describeInputError(o.startMessage(in), text, err))
}

// fail reports err for in on standard error, quoting the input around the
// error's offset, and sets the exit status to 1.
func (o *results) fail(in *input, err error) {
	o.setStatus(exitInvalid)
	o.inputError(in, in.text, err)
}

// reset empties o for reuse.
func (o *results) reset() {
	o.buf = o.buf[:0]
	o.errs = o.errs[:0]
	o.ebuf = o.ebuf[:0]
	o.status = 0
}

// A batch is a run of consecutive inputs handled by one worker.
type batch struct {
	data  []byte // the lines' bytes, back to back
	items []item
	out   results
	in    input // the input handed to the handler, reused for each item
	flush bool  // flush standard output after this batch: the input may block
	done  chan struct{}
	err   error // a read error that ended the stream after these items
}

type item struct {
	start, end int
	line       int
	src        string
	tooLong    bool
}

// streamGCPercent is the garbage collector's target while a stream runs.
const streamGCPercent = 400

const (
	batchLines = 256
	batchBytes = 32 << 10
)

// engine runs one command's handler over its inputs.
type engine struct {
	e    *env
	cmd  string // "urlkit parse"
	opts lineOpts
	pool sync.Pool
}

func newEngine(e *env, name string, opts lineOpts) *engine {
	if opts.maxLine <= 0 {
		opts.maxLine = defaultMaxLine
	}
	g := &engine{e: e, cmd: "urlkit " + name, opts: opts}
	g.pool.New = func() any { return &batch{done: make(chan struct{}, 1)} }
	return g
}

// handler processes one input, writing its results to o. It may be called
// from several goroutines at once.
//
// The lifetime of in.text: a line of a stream is a string over its batch's
// buffer, made without a copy (unsafe.String in process), and that buffer
// is overwritten by later lines as soon as the batch's output is written.
// So a handler must not keep in.text, or any substring of it, past its
// call: not in a variable that outlives the call, a map, a channel or a
// goroutine, and not in o other than by appending its bytes (o.buf and
// messages are byte slices: appending copies). What it needs later it
// copies (strings.Clone). An argument, and a line of get's engine (each),
// is an ordinary string, but a handler cannot tell which it has.
// TestHandlersKeepNoLine runs every command with each batch's buffer
// overwritten once written (env.recycled), and fails when the output
// differs from a run without.
type handler func(o *results, in *input)

// run calls h for every argument, then for every line of every --url-file,
// or, when there are neither, for every line of standard input. It returns
// the highest exit status the handler set (0 when none).
func (g *engine) run(args []string, h handler) int {
	w := newWriter(g.e)
	defer w.flush()
	status := exitOK
	if len(args) > 0 {
		o := &results{cmd: g.cmd}
		for _, a := range args {
			// An argument is taken exactly as given: a space around it
			// is part of it (and an error with its offset for a URL).
			h(o, &input{text: a})
		}
		w.write(o)
		status = o.status
	}
	return max(status, g.sources(len(args) > 0, w.flush, func(r io.Reader, src string) int {
		return g.stream(w, r, src, h)
	}))
}

// sources calls read for each stream to take inputs from: the --url-file
// files in order, or standard input when there are neither arguments nor
// files. A file that cannot be opened is reported (after calling before,
// which flushes what was written so far) and skipped. It returns the
// highest status.
func (g *engine) sources(haveArgs bool, before func(), read func(r io.Reader, src string) int) int {
	files := g.opts.urlFiles
	if !haveArgs && len(files) == 0 {
		files = []string{"-"}
	}
	status := exitOK
	for _, name := range files {
		if name == "-" {
			g.hintIfTerminal()
			status = max(status, read(g.e.stdin, stdinName))
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			before()
			g.e.stderr.Write(append(append([]byte(g.cmd+": "), describeError(err, "opening the URL file")...), '\n'))
			status = max(status, exitInvalid)
			continue
		}
		status = max(status, read(f, name))
		f.Close()
	}
	return status
}

// fileTerminal reports whether v is an *os.File open on a terminal.
func fileTerminal(v any) bool {
	f := fileOf(v)
	return f != nil && term.IsTerminal(int(f.Fd()))
}

// fileOf returns the file behind v: v itself, or the standard output or
// file that get's *output writes to; nil for anything else.
func fileOf(v any) *os.File {
	if o, ok := v.(*output); ok {
		v = o.w
	}
	f, _ := v.(*os.File)
	return f
}

// hintIfTerminal tells a person at a terminal that the command waits for
// their input.
func (g *engine) hintIfTerminal() {
	if fileTerminal(g.e.stdin) && fileTerminal(g.e.stderr) {
		io.WriteString(g.e.stderr, g.cmd+": reading from the terminal, one per line; end with Ctrl-D (urlkit help for usage)\n")
	}
}

// stream processes one stream with the configured number of workers.
func (g *engine) stream(w *writer, r io.Reader, src string, h handler) int {
	n := g.opts.workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	lr := newLineReader(r, g.opts.maxLine, src, g.opts.raw)
	status := exitOK
	// The live heap of a stream is bounded by the batches in flight (a
	// few megabytes), and the garbage is each URL's short-lived strings:
	// collecting when the heap has grown by streamGCPercent rather than
	// Go's default 100 spends less CPU on collection for a few megabytes
	// more. GOGC, when set, is the user's choice and stays.
	if g.e.getenv != nil && g.e.getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(streamGCPercent))
	}
	if n == 1 {
		for {
			b := g.read(lr)
			g.process(b, h)
			status = max(status, w.writeBatch(b))
			last := b.err != nil
			g.recycle(b)
			if last {
				return status
			}
		}
	}
	work := make(chan *batch, n)
	order := make(chan *batch, 2*n+2)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range work {
				g.process(b, h)
				b.done <- struct{}{}
			}
		}()
	}
	go func() {
		for {
			b := g.read(lr)
			order <- b
			work <- b
			if b.err != nil {
				break
			}
		}
		close(work)
		close(order)
	}()
	for b := range order {
		<-b.done
		status = max(status, w.writeBatch(b))
		g.recycle(b)
	}
	wg.Wait()
	return status
}

// recycle returns a written batch to the pool, where its buffer will hold
// later lines: the strings its handlers saw end here (see handler).
func (g *engine) recycle(b *batch) {
	if g.e.recycled != nil {
		g.e.recycled(b.data)
	}
	g.pool.Put(b)
}

// read fills a batch from lr: up to batchLines lines or batchBytes bytes,
// fewer when the next read might block.
func (g *engine) read(lr *lineReader) *batch {
	b := g.pool.Get().(*batch)
	b.data, b.items, b.flush, b.err = b.data[:0], b.items[:0], false, nil
	b.out.reset()
	b.out.cmd = g.cmd
	for len(b.items) < batchLines && len(b.data) < batchBytes {
		// The complete lines already read, taken together; one at a
		// time below when there are none (reading, blocking, the end
		// of the stream, a line over the limit).
		if added, more := lr.takeBuffered(b); added {
			if !more {
				b.flush = true
				return b
			}
			continue
		}
		line, n, tooLong, err := lr.next()
		if err != nil {
			b.err = err
			b.flush = true
			return b
		}
		if tooLong || len(line) > 0 || lr.raw {
			start := len(b.data)
			b.data = append(b.data, line...)
			b.items = append(b.items, item{start: start, end: len(b.data), line: n, src: lr.src, tooLong: tooLong})
		}
		if lr.mayBlock() {
			b.flush = true
			return b
		}
	}
	return b
}

// process runs h over the items of b.
func (g *engine) process(b *batch, h handler) {
	if len(b.data) == 0 && len(b.items) == 0 {
		g.readError(b)
		return
	}
	// The batch owns data until it is written and recycled: the handler
	// sees the lines as strings without a copy, for the length of its
	// call (see handler).
	all := unsafe.String(unsafe.SliceData(b.data), len(b.data))
	for i := range b.items {
		it := &b.items[i]
		// One input per batch, reused: a handler keeps nothing of it
		// past its call (see handler), and a new one per line would be
		// an allocation per line (the handler is a func value).
		in := &b.in
		*in = input{text: all[it.start:it.end], line: it.line, src: it.src, tooLong: it.tooLong}
		if it.tooLong {
			b.out.setStatus(exitInvalid)
			b.out.message(in, g.tooLong())
			continue
		}
		if !g.opts.raw {
			var ok bool
			if in.text, ok = linkset.Line(in.text); !ok {
				continue
			}
		}
		h(&b.out, in)
	}
	g.readError(b)
}

// tooLong is the message for a line over the limit.
func (g *engine) tooLong() []byte {
	return []byte("longer than the limit of " + strconv.Itoa(g.opts.maxLine) + " bytes; skipped (--max-line sets the limit)")
}

func (g *engine) readError(b *batch) {
	if b.err != nil && b.err != io.EOF {
		b.out.setStatus(exitInvalid)
		b.out.message(nil, describeError(b.err, "reading the input"))
	}
}

// A lineReader splits a stream into lines with a bounded buffer.
type lineReader struct {
	r    *bufio.Reader
	src  string
	line int
	raw  bool
}

func newLineReader(r io.Reader, maxLine int, src string, raw bool) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, maxLine), src: src, raw: raw}
}

// next returns the next line, without its line ending, with its number
// (the engine applies the line rule, linkset.Line, later). A line over the
// limit is consumed to its end and returned empty with tooLong
// set. At the end of the stream err is io.EOF; a last line without a line
// ending is returned first.
func (lr *lineReader) next() (line []byte, n int, tooLong bool, err error) {
	b, err := lr.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		lr.line++
		for err == bufio.ErrBufferFull {
			_, err = lr.r.ReadSlice('\n')
		}
		if err != nil && err != io.EOF {
			return nil, lr.line, false, err
		}
		return nil, lr.line, true, nil
	}
	if err != nil && (err != io.EOF || len(b) == 0) {
		return nil, lr.line, false, err
	}
	lr.line++
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
		if len(b) > 0 && b[len(b)-1] == '\r' {
			b = b[:len(b)-1]
		}
	}
	return b, lr.line, false, nil
}

// takeBuffered adds to b the complete lines that lr has buffered, up to
// b's limits, as read adds the lines next returns: copied in one piece,
// each without its line ending, blank ones counted and skipped (kept when
// raw). added reports whether it took any line; more whether another
// complete line is buffered (when not, the next read might block).
func (lr *lineReader) takeBuffered(b *batch) (added, more bool) {
	p, _ := lr.r.Peek(lr.r.Buffered())
	base := len(b.data)
	off := 0
	for len(b.items) < batchLines && base+off < batchBytes {
		k := bytes.IndexByte(p[off:], '\n')
		if k < 0 {
			break
		}
		start, end := off, off+k
		off = end + 1
		if end > start && p[end-1] == '\r' {
			end--
		}
		lr.line++
		if end > start || lr.raw {
			b.items = append(b.items, item{start: base + start, end: base + end, line: lr.line, src: lr.src})
		}
	}
	if off == 0 {
		return false, false
	}
	b.data = append(b.data, p[:off]...)
	lr.r.Discard(off)
	return true, bytes.IndexByte(p[off:], '\n') >= 0
}

// mayBlock reports whether the next call to next might wait for input: no
// complete line is buffered.
func (lr *lineReader) mayBlock() bool {
	n := lr.r.Buffered()
	if n == 0 {
		return true
	}
	p, _ := lr.r.Peek(n)
	return bytes.IndexByte(p, '\n') < 0
}

// writer is buffered standard output and standard error. When the two
// reach the same file or terminal, output is flushed before each message,
// so that they interleave as a sequential program's would; otherwise
// messages are buffered too, and both are flushed whenever the input might
// block (a write per message would cost two system calls per bad line).
type writer struct {
	out        *bufio.Writer
	err        *bufio.Writer
	interleave bool
}

func newWriter(e *env) *writer {
	return &writer{
		out:        bufio.NewWriterSize(e.stdout, 64<<10),
		err:        bufio.NewWriterSize(e.stderr, 8<<10),
		interleave: sameDestination(e.stdout, e.stderr),
	}
}

// sameDestination reports whether writes to a and b end up in one place.
func sameDestination(a, b io.Writer) bool {
	if a == b {
		return true
	}
	fa, ok1 := a.(*os.File)
	fb, ok2 := b.(*os.File)
	if !ok1 || !ok2 {
		return false
	}
	sa, err1 := fa.Stat()
	sb, err2 := fb.Stat()
	return err1 != nil || err2 != nil || os.SameFile(sa, sb)
}

// write writes what o collected.
func (w *writer) write(o *results) {
	if !w.interleave {
		w.out.Write(o.buf)
		for _, r := range o.errs {
			w.err.Write(r.msg)
		}
		return
	}
	last := 0
	for _, r := range o.errs {
		w.out.Write(o.buf[last:r.pos])
		last = r.pos
		w.out.Flush()
		w.err.Write(r.msg)
		w.err.Flush()
	}
	w.out.Write(o.buf[last:])
}

func (w *writer) writeBatch(b *batch) int {
	w.write(&b.out)
	if b.flush {
		w.flush()
	}
	return b.out.status
}

func (w *writer) flush() {
	w.out.Flush()
	w.err.Flush()
}

// each calls f for every input in order, one at a time, on the calling
// goroutine (for get, whose output is the resources themselves). Messages
// about the input go straight to standard error. It returns the highest
// status f returned.
func (g *engine) each(args []string, f func(in *input) int) int {
	status := exitOK
	for _, a := range args {
		status = max(status, f(&input{text: a})) // exactly as given
	}
	return max(status, g.sources(len(args) > 0, func() {}, func(r io.Reader, src string) int {
		status := exitOK
		lr := newLineReader(r, g.opts.maxLine, src, g.opts.raw)
		for {
			line, n, tooLong, err := lr.next()
			if err != nil {
				if err != io.EOF {
					g.e.stderr.Write(append(append([]byte(g.cmd+": "), describeError(err, "reading the input")...), '\n'))
					status = max(status, exitInvalid)
				}
				break
			}
			in := input{line: n, src: src}
			if tooLong {
				o := results{cmd: g.cmd}
				o.message(&in, g.tooLong())
				g.e.stderr.Write(o.errs[0].msg)
				status = max(status, exitInvalid)
				continue
			}
			var ok bool
			if in.text, ok = linkset.Line(string(line)); !ok {
				continue
			}
			status = max(status, f(&in))
		}
		return status
	}))
}
