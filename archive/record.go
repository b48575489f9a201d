package archive

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
)

// This file is urlkit serve --record: every retrieval a gateway makes for
// its users written into WARC files in one directory, through capture's
// Writer and Fetch, a new file begun when the current one passes a size.
// Each file is written under a temporary name and renamed when closed
// (Writer), so a named file is always whole; a file left under its
// temporary name by a crash is cut back to its last whole record and
// given its name when the directory is next recorded into (Recover).

// DefaultRecordFileSize is the size past which a recording file is closed
// and a new one begun (1 GB, as Heritrix's and wget's WARC files are
// commonly cut).
const DefaultRecordFileSize = 1 << 30

// Recorder writes retrievals into rotating WARC files in a directory. It
// is safe for concurrent use.
type Recorder struct {
	dir     string
	maxSize int64
	info    [][2]string

	mu     sync.Mutex
	cur    *recFile
	open   map[*recFile]bool // every file not yet closed
	seq    int
	closed bool
}

// recFile is one file being written and the fetches still open on it.
type recFile struct {
	w        *Writer
	inflight int
	retired  bool // a newer file takes the new fetches; close when idle
	closed   bool
}

// Recording is one retrieval being recorded.
type Recording struct {
	*Fetch
	r    *Recorder
	file *recFile
}

// NewRecorder records into dir (which must exist), starting a new file
// when the current one passes maxSize bytes (zero: DefaultRecordFileSize).
// info is the warcinfo record's fields of each file.
func NewRecorder(dir string, maxSize int64, info [][2]string) (*Recorder, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s: not a directory", dir)
	}
	if maxSize <= 0 {
		maxSize = DefaultRecordFileSize
	}
	return &Recorder{dir: dir, maxSize: maxSize, info: info, open: map[*recFile]bool{}}, nil
}

// fileName names the seq'th file begun at t.
func (r *Recorder) fileName(t time.Time) string {
	r.seq++
	return filepath.Join(r.dir, fmt.Sprintf("urlkit-%s-%d-%05d.warc.gz", Timestamp(t), os.Getpid(), r.seq))
}

// Capture starts recording a retrieval of target (its user and password
// are not written: the URL is recorded without them) into the current
// file; see Writer.Capture. End it with Done.
func (r *Recorder) Capture(target urlkit.URL, opts *access.Options) (*Recording, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, fmt.Errorf("archive: recorder for %s is closed", r.dir)
	}
	if r.cur == nil {
		w, err := Create(r.fileName(time.Now()), r.info)
		if err != nil {
			return nil, err
		}
		r.cur = &recFile{w: w}
		r.open[r.cur] = true
	}
	r.cur.inflight++
	return &Recording{Fetch: r.cur.w.Capture(withoutUserinfo(target), opts), r: r, file: r.cur}, nil
}

// withoutUserinfo returns u without its user and password.
func withoutUserinfo(u urlkit.URL) urlkit.URL {
	if _, ok := u.User(); !ok {
		return u
	}
	s := u.String()
	_, rest, _ := strings.Cut(s, "://")
	at := strings.LastIndexByte(rest[:strings.IndexAny(rest+"/", "/?")], '@')
	if at < 0 {
		return u
	}
	v, err := urlkit.Parse(u.Scheme() + "://" + rest[at+1:])
	if err != nil {
		if v, err = urlkit.ParseExtended(u.Scheme() + "://" + rest[at+1:]); err != nil {
			return u
		}
	}
	return v
}

// Done ends a recording: its records are written when the resource was
// read to its end (complete), dropped otherwise. The file is closed and a
// new one begun when it has passed the size.
func (c *Recording) Done(complete bool) error {
	r := c.r
	r.mu.Lock()
	closed := c.file.closed
	r.mu.Unlock()
	var err error
	if complete && !closed {
		err = c.Finish()
	} else {
		// A retrieval still going when the recorder was closed (SIGTERM)
		// is not recorded: its file is already whole without it.
		c.Abandon()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	f := c.file
	f.inflight--
	if f == r.cur && f.w.size() >= r.maxSize {
		f.retired = true
		r.cur = nil
	}
	if f.retired && f.inflight == 0 && !f.closed {
		if cerr := r.closeFile(f); err == nil {
			err = cerr
		}
	}
	return err
}

// closeFile closes f; r.mu is held.
func (r *Recorder) closeFile(f *recFile) error {
	f.closed = true
	delete(r.open, f)
	return f.w.Close()
}

// size returns the bytes of whole records written so far.
func (w *Writer) size() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.end
}

// Close closes every file now, with the records written so far: the
// retrievals still going are not recorded (call it once the gateway has
// stopped taking requests and those it could finish are done). No
// recording starts after it.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	r.cur = nil
	var first error
	for f := range r.open {
		f.retired = true
		if err := r.closeFile(f); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Recover gives their names to the files a recording into dir left under
// their temporary names (a crash, a kill): each is cut back to the end of
// its last whole record (read with Scanner) and renamed, so that every
// reader accepts it. It returns the files recovered.
func Recover(dir string) ([]string, error) {
	tmps, err := filepath.Glob(filepath.Join(dir, ".urlkit-*.warc.gz.*.tmp"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, t := range tmps {
		base := strings.TrimPrefix(filepath.Base(t), ".")
		base = base[:strings.Index(base, ".warc.gz.")+len(".warc.gz")]
		f, err := Open(t)
		if err != nil {
			return out, err
		}
		s := f.Scan()
		var end int64
		for {
			rec, err := s.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				break // the record cut by the crash, and anything after it
			}
			end = rec.Offset + rec.Length
		}
		f.Close()
		if end == 0 {
			os.Remove(t)
			continue
		}
		if err := os.Truncate(t, end); err != nil {
			return out, err
		}
		name := filepath.Join(dir, base)
		if err := os.Rename(t, name); err != nil {
			return out, err
		}
		out = append(out, name)
	}
	return out, nil
}
