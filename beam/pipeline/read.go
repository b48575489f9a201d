package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/urlkit/urlkit/linkset"
)

func init() {
	register.DoFn6x1[context.Context, *sdf.LockRTracker, fileio.ReadableFile, fileFn, fileFn, emitFn, error](&readLinesFn{})
	register.DoFn5x1[context.Context, fileio.ReadableFile, fileFn, fileFn, emitFn, error](&extractFn{})
	register.Emitter2[int, []byte]()
	register.Emitter2[int, string]()
}

// MaxLine is the longest input line read as a URL: a longer line is
// rejected (kind "too-long") without being parsed, as `urlkit canon`
// skips it with a message.
const MaxLine = 1 << 20

// blockSize is the size of the pieces a file is first split into, so that
// one large file is read by several workers; tooSmall is the size of a
// last piece merged into the one before it.
const (
	blockSize int64 = 64 << 20
	tooSmall        = blockSize / 4
)

// readLinesFn reads a file one URL per line and classifies each line in
// the same step, gathering a bundle's results (see bundle) instead of
// emitting an element per line. It is a splittable DoFn over byte ranges
// of the file, as textio's reader is: a range holds the lines that start
// in it, so a large file is read by several workers, and the runner can
// split a range while it is read. A gzip file (name ending in .gz) is
// read whole by one worker.
type readLinesFn struct {
	Lenient bool
	Shards  int
	Tmp     string // the job's temporary directory, for the batches
	// InMemory: every worker is this process, the batches may stay in
	// its memory (see memBatches).
	InMemory bool
	// KeepCache (Config.KeepInputCache): leave the pages of the input in
	// the page cache (see dropBehind).
	KeepCache bool
	// Part of Parts (Config.Parts above one): read only the lines that
	// start in this part's share of the file (see partRange).
	Part, Parts int

	b bundle
}

func gzipped(file fileio.ReadableFile) bool { return filepath.Ext(file.Metadata.Path) == ".gz" }

// CreateInitialRestriction is the whole file: its byte range, or for a
// gzip file the single position 0, claimed once for the whole stream.
func (f *readLinesFn) CreateInitialRestriction(file fileio.ReadableFile) offsetrange.Restriction {
	if gzipped(file) {
		return partRange(1, f.Part, f.Parts)
	}
	return partRange(file.Metadata.Size, f.Part, f.Parts)
}

func (f *readLinesFn) SplitRestriction(file fileio.ReadableFile, rest offsetrange.Restriction) []offsetrange.Restriction {
	if gzipped(file) {
		return []offsetrange.Restriction{rest}
	}
	splits := rest.SizedSplits(blockSize)
	if n := len(splits); n > 1 && splits[n-1].End-splits[n-1].Start <= tooSmall {
		splits[n-2].End = splits[n-1].End
		splits = splits[:n-1]
	}
	return splits
}

func (f *readLinesFn) RestrictionSize(file fileio.ReadableFile, rest offsetrange.Restriction) float64 {
	if gzipped(file) {
		return float64(file.Metadata.Size)
	}
	return rest.Size()
}

func (f *readLinesFn) CreateTracker(rest offsetrange.Restriction) *sdf.LockRTracker {
	return sdf.NewLockRTracker(offsetrange.NewTracker(rest))
}

func (f *readLinesFn) StartBundle(ctx context.Context, canon, rejected fileFn, counts emitFn) {
	f.b.start(ctx, linkset.Options{Lenient: f.Lenient}, f.Shards, f.Tmp, f.InMemory, canon, rejected, counts)
}

func (f *readLinesFn) FinishBundle(_ context.Context, canon, rejected fileFn, counts emitFn) error {
	return f.b.finish()
}

func (f *readLinesFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, file fileio.ReadableFile, canon, rejected fileFn, counts emitFn) error {
	rc, err := file.Open(ctx)
	if err != nil {
		return fmt.Errorf("urlkit-beam: opening %s: %w", file.Metadata.Path, err)
	}
	if !f.KeepCache {
		rc = dropInputPages(rc)
	}
	defer rc.Close()
	rest := rt.GetRestriction().(offsetrange.Restriction)
	lines := 0
	if f.Parts > 1 {
		defer logPart(ctx, f.Part, f.Parts, file, rest, &lines)
	}
	if gzipped(file) {
		if !rt.TryClaim(rest.Start) {
			return nil
		}
		rest.End = -1 // read to the end of the stream
	}
	lr := newLineReader(rc)
	pos := rest.Start
	if pos > 0 {
		// The range holds the lines that start in it: skip to the end of
		// the line that holds the byte before the range.
		err := lr.skip(pos - 1)
		var n int
		if err == nil {
			n, _, err = lr.next()
		}
		if err == io.EOF {
			rt.TryClaim(rest.End)
			return nil
		}
		if err != nil {
			return fmt.Errorf("urlkit-beam: reading %s: %w", file.Metadata.Path, err)
		}
		pos += int64(n) - 1
	}
	claimed := int64(-1) // the start of the last line claimed
	for {
		if rest.End >= 0 && pos > claimed {
			c, ok := claimThrough(rt, pos, pos+lr.lastStart())
			if !ok {
				break
			}
			claimed = c
		}
		n, line, err := lr.next()
		if err == io.EOF {
			if rest.End >= 0 {
				rt.TryClaim(rest.End)
			}
			f.b.drain()
			return f.b.err
		}
		if err != nil {
			return fmt.Errorf("urlkit-beam: reading %s: %w", file.Metadata.Path, err)
		}
		if n > MaxLine {
			f.b.record(tooLong(line, n))
			lines++
		} else if len(line) > 0 {
			f.b.line(f.b.keep(line))
			lines++
		}
		if f.b.err != nil {
			return f.b.err
		}
		pos += int64(n)
	}
	f.b.drain()
	return f.b.err
}

// claimThrough claims the lines that start from pos to last (the start of
// the last line complete in the reader's buffer), with one claim of last:
// a claim per line would cost a lock and an allocation each. It is made
// under the tracker's lock against the restriction's end as it is then:
// when a split has put the end at or before last, only pos is claimed
// (claiming past the end would end the restriction, leaving the lines
// before the split point unread). It returns the position claimed, or false
// when pos is past the end.
func claimThrough(rt *sdf.LockRTracker, pos, last int64) (int64, bool) {
	rt.Mu.Lock()
	defer rt.Mu.Unlock()
	if last >= rt.Rt.GetRestriction().(offsetrange.Restriction).End {
		last = pos
	}
	if !rt.Rt.TryClaim(last) {
		return 0, false
	}
	return last, true
}

// tooLong is the rejection of a line over MaxLine bytes: its first bytes
// stand for it in the rejected output.
func tooLong(start []byte, n int) linkset.Record {
	const show = 64
	return linkset.Record{
		Input:  string(start[:min(len(start), show)]) + "...",
		Status: linkset.Rejected,
		Kind:   "too-long",
		Offset: MaxLine,
		Reason: "line of " + strconv.Itoa(n) + " bytes is longer than the limit of " + strconv.Itoa(MaxLine) + " bytes; not read",
	}
}

// A lineReader splits a stream into lines with a bounded buffer.
type lineReader struct {
	r  *bufio.Reader
	rs io.Reader
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), rs: r}
}

// skip moves past the first n bytes of the stream: by seeking when the
// stream can, by reading otherwise.
func (lr *lineReader) skip(n int64) error {
	if s, ok := lr.rs.(io.Seeker); ok {
		if _, err := s.Seek(n, io.SeekStart); err != nil {
			return err
		}
		lr.r.Reset(lr.rs)
		return nil
	}
	_, err := lr.r.Discard(int(n))
	return err
}

// lastStart is the offset from the reader's position of the start of the
// last line whose line ending is in its buffer, or 0.
func (lr *lineReader) lastStart() int64 {
	b, _ := lr.r.Peek(lr.r.Buffered())
	i := bytes.LastIndexByte(b, '\n')
	if i < 0 {
		return 0
	}
	return int64(bytes.LastIndexByte(b[:i], '\n') + 1)
}

// next returns the length of the next line in bytes with its line ending,
// and the line without its "\n" (only its first bytes when it is longer
// than MaxLine). At the end of the stream err is io.EOF; a last line
// without a line ending is returned first.
func (lr *lineReader) next() (n int, line []byte, err error) {
	b, err := lr.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		// A long line: gather it up to MaxLine, then count the rest.
		line = append([]byte(nil), b...)
		n = len(b)
		for err == bufio.ErrBufferFull {
			b, err = lr.r.ReadSlice('\n')
			n += len(b)
			if len(line) <= MaxLine {
				line = append(line, b...)
			}
		}
		if err != nil && err != io.EOF {
			return 0, nil, err
		}
		return n, trimNewline(line), nil
	}
	if err != nil && (err != io.EOF || len(b) == 0) {
		return 0, nil, err
	}
	return len(b), trimNewline(b), nil
}

func trimNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		return b[:len(b)-1]
	}
	return b
}

// extractFn reads one file as free text and classifies each URL found in
// it, as written, like a line; a candidate the extractor gives up is
// recorded as a rejected line.
type extractFn struct {
	Lenient   bool
	Shards    int
	Tmp       string
	InMemory  bool // see readLinesFn
	KeepCache bool // see readLinesFn

	b bundle
}

func (f *extractFn) StartBundle(ctx context.Context, canon, rejected fileFn, counts emitFn) {
	f.b.start(ctx, linkset.Options{Lenient: f.Lenient}, f.Shards, f.Tmp, f.InMemory, canon, rejected, counts)
}

func (f *extractFn) FinishBundle(_ context.Context, canon, rejected fileFn, counts emitFn) error {
	return f.b.finish()
}

func (f *extractFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, canon, rejected fileFn, counts emitFn) error {
	rc, err := file.Open(ctx)
	if err != nil {
		return fmt.Errorf("urlkit-beam: opening %s: %w", file.Metadata.Path, err)
	}
	if !f.KeepCache {
		rc = dropInputPages(rc)
	}
	defer rc.Close()
	opt := linkset.Options{Lenient: f.Lenient}
	err = linkset.ExtractLines(rc, opt,
		func(url string) { f.b.record(linkset.Classify(url, opt)) },
		f.b.record)
	f.b.drain()
	if f.b.err != nil {
		return f.b.err
	}
	return err
}
