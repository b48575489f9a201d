package archive

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	gowarc "github.com/nlnwa/gowarc/v3"
)

// This file reads WARC files record by record, knowing where each record
// sits in its file (the offset of its gzip member, or of its "WARC/" line in
// an uncompressed file, and how many bytes it takes there), so that an
// index can point back at it and replay can read it again alone. The WARC
// grammar (ISO 28500 section 4: version line, named fields, block, two
// CRLFs) is read by gowarc; this file adds the framing around it: gzip
// member boundaries, bounds on what one record may make the reader hold,
// and what happens after a bad record (the reader names it and goes on
// with the next one).

// DefaultMaxHeader bounds one record's header block (the version line and
// the named fields) in bytes. WARC writers put a few hundred bytes there;
// a larger block is refused as a bad record rather than read into memory.
const DefaultMaxHeader = 64 << 10

// ReadError is a record that could not be read: the file, the offset at
// which the record starts (its gzip member, for a compressed file) and
// what was wrong, in plain words. The records after it are still read.
type ReadError struct {
	File   string
	Offset int64
	Reason string
	Err    error // the underlying error, if any
}

func (e *ReadError) Error() string {
	return fmt.Sprintf("%s: record at offset %d: %s", e.File, e.Offset, e.Reason)
}

func (e *ReadError) Unwrap() error { return e.Err }

// ErrNotWARC is wrapped by the ReadError for a file that does not start
// with a WARC record, gzipped or not.
var ErrNotWARC = errors.New("not a WARC file")

// Record is one record's header, and where it is.
type Record struct {
	File   string // the file's name as given
	Offset int64  // where the record starts in the file
	// Length is the number of bytes the record takes in the file: its
	// gzip member's compressed length, or for an uncompressed file the
	// header, the block and the closing CRLFs.
	Length int64
	// Gzip says the record is a gzip member of its own.
	Gzip bool
	// Fields are the record's named fields as written.
	Fields *gowarc.WarcFields
	// ContentLength is the length of the block.
	ContentLength int64
	// Head is the start of the block when the indexer asked for it.
	Head []byte
}

// Get returns the value of the named field (WARC-Type, WARC-Target-URI, ...), "" if absent.
func (r *Record) Get(name string) string { return r.Fields.Get(name) }

// Type returns the record's WARC-Type ("response", "resource", ...).
func (r *Record) Type() string { return r.Fields.Get(gowarc.WarcType) }

// TargetURI returns the record's WARC-Target-URI, its angle brackets (WARC/1.0's form) removed.
func (r *Record) TargetURI() string {
	return strings.TrimSuffix(strings.TrimPrefix(r.Fields.Get(gowarc.WarcTargetURI), "<"), ">")
}

// Date returns the record's WARC-Date (zero if absent or unreadable).
func (r *Record) Date() time.Time {
	t, err := time.Parse(time.RFC3339Nano, r.Fields.Get(gowarc.WarcDate))
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// Scanner reads the records of one WARC file in order.
type Scanner struct {
	name      string
	ra        io.ReaderAt
	size      int64
	maxHeader int

	next  int64 // where the next record starts (or the search for it)
	first bool  // no record read yet
	gz    *gzip.Reader
	in    *bufio.Reader // over gz
	br    *bufio.Reader
	cr    countingReader
	um    gowarc.Unmarshaler
	// peek, when set, says how many of a record's first block bytes to
	// keep in its Head.
	peek func(*Record) int
}

// File is a WARC file opened for reading.
type File struct {
	*os.File
	Name string
	Size int64
}

// Open opens the named WARC file (compressed or not).
func Open(name string) (*File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: is a directory, not a WARC file", name)
	}
	return &File{File: f, Name: name, Size: st.Size()}, nil
}

// Scan returns a scanner over the records of f from its start.
func (f *File) Scan() *Scanner { return NewScanner(f.Name, f.File, f.Size) }

// NewScanner returns a scanner over the records of the WARC file of the
// given size read through ra; name is used in errors.
func NewScanner(name string, ra io.ReaderAt, size int64) *Scanner {
	s := newScanner()
	s.reset(name, ra, size)
	return s
}

// reset makes s a scanner over another file (or the same again) from its start.
func (s *Scanner) reset(name string, ra io.ReaderAt, size int64) {
	s.name, s.ra, s.size, s.next, s.first, s.peek = name, ra, size, 0, true, nil
	s.seek(0)
}

// scanners keeps the scanners replay reads single records with (their
// buffers and gzip reader are most of what a replayed request allocates).
var scanners = sync.Pool{New: func() any { return newScanner() }}

func newScanner() *Scanner {
	s := &Scanner{maxHeader: DefaultMaxHeader,
		// The index needs the header: the block is skipped, not parsed
		// (its digests are checked when it is replayed).
		// The fields are read, not validated (gowarc's validation of each
		// field costs more than the rest of a replayed request): what
		// urlkit needs of them is checked where it is used.
		um: newHeaderParser()}
	s.br = bufio.NewReaderSize(&s.cr, 32<<10)
	return s
}

// newHeaderParser returns a reader of header blocks: gowarc's parser,
// without its validation of the fields. (An Unmarshaler keeps state: one
// a scanner.)
func newHeaderParser() gowarc.Unmarshaler {
	return newUnmarshaler(gowarc.WithSkipParseBlock(), gowarc.WithNoValidation(),
		gowarc.WithUnknownRecordTypePolicy(gowarc.ErrIgnore))
}

// countingReader reads a file from an offset, counting what it read.
type countingReader struct {
	ra  io.ReaderAt
	off int64
	end int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.off >= c.end {
		return 0, io.EOF
	}
	if int64(len(p)) > c.end-c.off {
		p = p[:c.end-c.off]
	}
	n, err := c.ra.ReadAt(p, c.off)
	c.off += int64(n)
	if err == io.EOF && n > 0 {
		err = nil
	}
	return n, err
}

// seek makes the scanner read from off.
func (s *Scanner) seek(off int64) {
	s.cr = countingReader{ra: s.ra, off: off, end: s.size}
	s.br.Reset(&s.cr)
}

// pos is the offset of the next byte the scanner will read.
func (s *Scanner) pos() int64 { return s.cr.off - int64(s.br.Buffered()) }

var (
	gzipMagic = []byte{0x1f, 0x8b, 0x08}
	warcMagic = []byte("WARC/1.")
)

// Next returns the next record, io.EOF after the last, or a *ReadError for
// a record that could not be read; after a ReadError, Next goes on with the
// next record found after the bad one's start (the next gzip member, or
// the next line starting "WARC/1."), so that one bad record costs only
// itself. A file that does not start with a record gives one ReadError
// wrapping ErrNotWARC and then io.EOF.
func (s *Scanner) Next() (*Record, error) {
	if s.next >= s.size {
		if s.first {
			s.first = false
			return nil, &ReadError{File: s.name, Offset: 0, Reason: "the file is empty: " + ErrNotWARC.Error(), Err: ErrNotWARC}
		}
		return nil, io.EOF
	}
	start := s.next
	if s.pos() != start {
		s.seek(start)
	}
	head, _ := s.br.Peek(len(warcMagic))
	first := s.first
	s.first = false
	if !bytes.HasPrefix(head, gzipMagic) && !bytes.Equal(head, warcMagic) {
		if len(head) < len(warcMagic) && (bytes.HasPrefix(warcMagic, head) || bytes.HasPrefix(gzipMagic, head)) {
			s.next = s.size
			return nil, &ReadError{File: s.name, Offset: start, Reason: fmt.Sprintf("record cut short: the file ends %d bytes into it", len(head)), Err: io.ErrUnexpectedEOF}
		}
		if first {
			s.next = s.size
			return nil, &ReadError{File: s.name, Offset: start, Reason: fmt.Sprintf("%v: it starts with %q, not a gzip member or \"WARC/1.\"", ErrNotWARC, head), Err: ErrNotWARC}
		}
		// Bytes between records (a previous record's Content-Length was
		// wrong): find the next record and say where the junk was.
		next := s.resync(start)
		s.next = next
		return nil, &ReadError{File: s.name, Offset: start, Reason: fmt.Sprintf("%d bytes that are not a record (%q...) before the next record", next-start, head)}
	}
	rec, err := s.read(start, bytes.HasPrefix(head, gzipMagic))
	if err != nil {
		s.next = s.resync(start + 1)
		var nr *newRecordError
		if errors.As(err, &nr) && !rec0Gzip(head) {
			// The next record starts inside this one's header.
			s.next = start + int64(nr.at)
		}
		return nil, err
	}
	s.next = start + rec.Length
	return rec, nil
}

// head reads the header of the record at start and returns it with the
// reader its block follows in (the gzip member's content, or the file).
func (s *Scanner) head(start int64, gz bool) (*Record, *bufio.Reader, error) {
	in := s.br
	if gz {
		var err error
		if s.gz == nil {
			s.gz, err = gzip.NewReader(s.br)
		} else {
			err = s.gz.Reset(s.br)
		}
		if err != nil {
			return nil, nil, s.bad(start, err, "%s", gzipReason(err, "gzip header"))
		}
		s.gz.Multistream(false)
		if s.in == nil {
			s.in = bufio.NewReaderSize(s.gz, 4<<10)
		} else {
			s.in.Reset(s.gz)
		}
		in = s.in
	}
	hdr, err := readHeader(in, s.maxHeader)
	if err != nil {
		return nil, nil, s.bad(start, err, "%s", gzipReason(err, "header block"))
	}
	rec, err := s.parse(hdr)
	if err != nil {
		return nil, nil, s.bad(start, err, "unreadable header: %v", err)
	}
	rec.File, rec.Offset, rec.Gzip = s.name, start, gz
	if !gz && start+int64(len(hdr))+rec.ContentLength > s.size {
		return nil, nil, s.bad(start, io.ErrUnexpectedEOF, "record cut short: its Content-Length %d runs past the end of the file (%d bytes follow its header)", rec.ContentLength, s.size-start-int64(len(hdr)))
	}
	return rec, in, nil
}

func (s *Scanner) bad(start int64, err error, format string, args ...any) error {
	return &ReadError{File: s.name, Offset: start, Reason: fmt.Sprintf(format, args...), Err: err}
}

// read reads the record at start, its block skipped.
func (s *Scanner) read(start int64, gz bool) (*Record, error) {
	rec, in, err := s.head(start, gz)
	if err != nil {
		return nil, err
	}
	block := &io.LimitedReader{R: in, N: rec.ContentLength}
	if s.peek != nil {
		if n := min(int64(s.peek(rec)), rec.ContentLength); n > 0 {
			rec.Head = make([]byte, n)
			m, _ := io.ReadFull(block, rec.Head)
			rec.Head = rec.Head[:m]
		}
	}
	if _, err := io.Copy(io.Discard, block); err != nil {
		return nil, s.bad(start, err, "%s", gzipReason(err, fmt.Sprintf("block (Content-Length %d)", rec.ContentLength)))
	}
	if err := s.end(rec, in, block); err != nil {
		return nil, err
	}
	return rec, nil
}

// end checks that the record's block was whole and is followed by the
// closing CRLF CRLF (and, in a gzip member, by nothing else), and sets
// the record's Length.
func (s *Scanner) end(rec *Record, in *bufio.Reader, block *io.LimitedReader) error {
	start, cl := rec.Offset, rec.ContentLength
	if block.N > 0 {
		return s.bad(start, io.ErrUnexpectedEOF, "record cut short: Content-Length %d, but the %s ends after %d bytes of block", cl, memberOrFile(rec.Gzip), cl-block.N)
	}
	var end [4]byte
	n, err := io.ReadFull(in, end[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return s.bad(start, err, "%s", gzipReason(err, "record end"))
	}
	if err != nil && string(end[:n]) == "\r\n\r\n"[:n] {
		return s.bad(start, err, "record cut short: the %s ends inside its closing CRLF CRLF", memberOrFile(rec.Gzip))
	}
	if string(end[:n]) != "\r\n\r\n" {
		if rec.Gzip {
			// Damage to the member itself is the first thing to say.
			if _, err := io.Copy(io.Discard, io.LimitReader(in, 1<<20)); err != nil {
				return s.bad(start, err, "%s", gzipReason(err, "block"))
			}
		}
		return s.bad(start, nil, "Content-Length %d does not end the block: %q follows it where the record's closing CRLF CRLF belongs", cl, end[:n])
	}
	if rec.Gzip {
		// The member must end here, its checksum and length right.
		if next, _ := in.Peek(len(warcMagic)); bytes.Equal(next, warcMagic) {
			return s.bad(start, nil, "its gzip member goes on with another record: the file was gzipped whole, not record by record (WARC/1.1 annex D), so its records have no offsets to be served from; gunzip it, or recompress it record by record")
		}
		extra, err := io.Copy(io.Discard, io.LimitReader(in, 1<<20))
		if err != nil {
			return s.bad(start, err, "%s", gzipReason(err, "record end"))
		}
		if extra > 0 {
			return s.bad(start, nil, "%d bytes follow the record's end in its gzip member (its Content-Length %d is short)", extra, cl)
		}
		if err := s.gz.Close(); err != nil {
			return s.bad(start, err, "%s", gzipReason(err, "gzip trailer"))
		}
	}
	rec.Length = s.pos() - start
	return nil
}

func memberOrFile(gz bool) string {
	if gz {
		return "gzip member"
	}
	return "file"
}

// gzipReason says in plain words what went wrong while reading what.
func gzipReason(err error, what string) string {
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return "record cut short: the data ends inside its " + what
	case errors.Is(err, gzip.ErrChecksum):
		return "gzip member damaged: its checksum does not match its data"
	case errors.Is(err, gzip.ErrHeader):
		return "gzip member damaged: bad gzip header"
	case errors.Is(err, errHeaderTooLarge), errors.As(err, new(*newRecordError)):
		return err.Error()
	}
	if strings.Contains(err.Error(), "flate") {
		return "gzip member damaged (" + err.Error() + ") in its " + what
	}
	return what + ": " + err.Error()
}

var (
	errHeaderTooLarge = errors.New("header block too large")
)

// newRecordError is a header block with the start of another record in it,
// at at bytes from the start of the block.
type newRecordError struct{ at int }

func (e *newRecordError) Error() string {
	return `record cut short: "WARC/1.", the start of another record, comes inside its header block`
}

func rec0Gzip(head []byte) bool { return bytes.HasPrefix(head, gzipMagic) }

// readHeader reads a record's header block, the version line to the empty
// line included, at most max bytes.
func readHeader(in *bufio.Reader, max int) ([]byte, error) {
	var hdr []byte
	for {
		line, err := in.ReadSlice('\n')
		if len(hdr)+len(line) > max {
			return nil, fmt.Errorf("%w: no end of the header block within %d bytes", errHeaderTooLarge, max)
		}
		if err == bufio.ErrBufferFull {
			hdr = append(hdr, line...)
			continue
		}
		if err != nil {
			return nil, err
		}
		if i := bytes.Index(line, warcMagic); len(hdr) > 0 && i >= 0 {
			return nil, &newRecordError{at: len(hdr) + i}
		}
		hdr = append(hdr, line...)
		if len(line) == 2 && line[0] == '\r' || len(line) == 1 {
			return hdr, nil
		}
	}
}

// parse reads the header block hdr with gowarc (a record with an empty
// block standing in for the real one, which is read apart).
func (s *Scanner) parse(hdr []byte) (*Record, error) {
	if !bytes.HasPrefix(hdr, warcMagic) {
		return nil, fmt.Errorf("it does not start with \"WARC/1.\" (%q)", clip(hdr, 16))
	}
	// The fields alone: the Content-Length is read here, so that gowarc
	// is handed a record whose block is empty.
	fields := hdr[:len(hdr)-len(lineEnd(hdr))]
	var buf bytes.Buffer
	cl := int64(-1)
	for _, line := range bytes.SplitAfter(fields, []byte("\n")) {
		name, value, ok := bytes.Cut(line, []byte(":"))
		if ok && strings.EqualFold(string(bytes.TrimSpace(name)), "Content-Length") {
			v, err := strconv.ParseInt(string(bytes.TrimSpace(value)), 10, 64)
			if err != nil || v < 0 {
				return nil, fmt.Errorf("Content-Length %q is not a length", bytes.TrimSpace(value))
			}
			if cl >= 0 {
				// Which one would be the block's? (gowarc's WarcFields.Set
				// also fails on a field given twice.)
				return nil, errors.New("it has two Content-Length fields")
			}
			cl = v
			buf.WriteString("Content-Length: 0\r\n")
			continue
		}
		buf.Write(line)
	}
	if cl < 0 {
		return nil, errors.New("no Content-Length")
	}
	buf.WriteString("\r\n\r\n\r\n")
	r, _, _, err := s.um.Unmarshal(bufio.NewReader(&buf))
	if err != nil {
		return nil, err
	}
	r.WarcHeader().Set(gowarc.ContentLength, strconv.FormatInt(cl, 10))
	return &Record{Fields: r.WarcHeader(), ContentLength: cl}, nil
}

// lineEnd returns the empty line ending hdr.
func lineEnd(hdr []byte) []byte {
	if bytes.HasSuffix(hdr, []byte("\r\n")) {
		return []byte("\r\n")
	}
	return []byte("\n")
}

func clip(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

// resync returns the offset of the first record start at or after from:
// a gzip member's magic, or "WARC/1." at the start of a line; the file's
// size when there is none.
func (s *Scanner) resync(from int64) int64 {
	const win = 32 << 10
	buf := make([]byte, win+len(warcMagic))
	for off := from; off < s.size; off += win {
		n, _ := s.ra.ReadAt(buf, off)
		chunk := buf[:n]
		for i := 0; i < n && i < win; i++ {
			switch chunk[i] {
			case gzipMagic[0]:
				if bytes.HasPrefix(chunk[i:], gzipMagic) {
					return off + int64(i)
				}
			case 'W':
				if bytes.HasPrefix(chunk[i:], warcMagic) && s.lineStart(off+int64(i), chunk, i) {
					return off + int64(i)
				}
			}
		}
	}
	return s.size
}

// lineStart reports whether the byte at off (chunk[i]) starts a line.
func (s *Scanner) lineStart(off int64, chunk []byte, i int) bool {
	if off == 0 {
		return true
	}
	if i > 0 {
		return chunk[i-1] == '\n'
	}
	var b [1]byte
	s.ra.ReadAt(b[:], off-1)
	return b[0] == '\n'
}
