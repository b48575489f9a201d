package archive

import (
	"bufio"
	"bytes"
	"container/heap"
	"fmt"
	"io"
	"mime"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
)

// This file turns WARC files into CDXJ lines (the records warcio.js's
// cdx-index indexes: all but warcinfo and request records) and sorts them
// within a bounded memory.

// peekBytes is how much of a block the indexer reads: an http response's
// status line and header, an article's header for its Message-ID.
const peekBytes = 16 << 10

// IndexFile scans the WARC file f and gives emit the index entries of its
// records, in file order; a record that cannot be read is given to bad
// (a *ReadError) and skipped. filename is the name the entries carry
// (the file's base name, as pywb finds files in its archive directory).
// An article (message/rfc822) also gets an entry keyed by its
// news:MESSAGE-ID URL, so that the article is found by its message-id
// whatever server and group it was captured from.
func IndexFile(f *File, filename string, emit func(Entry), bad func(error)) {
	s := f.Scan()
	s.peek = func(r *Record) int {
		switch r.Type() {
		case TypeResponse:
			return peekBytes
		case TypeResource:
			if mediaType(r.Get("Content-Type")) == "message/rfc822" {
				return peekBytes
			}
		}
		return 0
	}
	for {
		r, err := s.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			bad(err)
			continue
		}
		typ := r.Type()
		if typ == TypeWarcinfo || typ == TypeRequest || r.TargetURI() == "" {
			continue
		}
		e := Entry{URL: r.TargetURI(), Timestamp: Timestamp(r.Date()), Length: r.Length, Offset: r.Offset, Filename: filename}
		e.Key = SortKey(e.URL)
		if d := r.Get("WARC-Payload-Digest"); d != "" {
			_, e.Digest, _ = strings.Cut(d, ":")
		}
		switch typ {
		case TypeRevisit:
			e.Mime = "warc/revisit"
		case TypeResponse:
			if strings.HasPrefix(mediaType(r.Get("Content-Type")), "application/http") {
				e.Status, e.Mime = httpHead(r.Head)
			}
		default:
			e.Mime = mediaType(r.Get("Content-Type"))
		}
		if n := len(e.AppendLine(nil)); n > maxLine {
			// A line no lookup could read past (the bound of Index).
			bad(&ReadError{File: f.Name, Offset: r.Offset, Reason: fmt.Sprintf("its WARC-Target-URI of %d bytes makes an index line of %d bytes, over the %d an index line may have: not indexed", len(e.URL), n, maxLine)})
			continue
		}
		emit(e)
		if typ == TypeResource && e.Mime == "message/rfc822" {
			if id := messageID(r.Head); id != "" {
				m := e
				m.Key = SortKey("news:" + id)
				if m.Key != e.Key { // captured as news:MESSAGE-ID already: one entry
					emit(m)
				}
			}
		}
	}
}

// mediaType returns a Content-Type's media type without parameters, in
// lower case ("" for none).
func mediaType(ct string) string {
	if ct == "" {
		return ""
	}
	if mt, _, err := mime.ParseMediaType(ct); err == nil {
		return mt
	}
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// httpHead reads the status code and media type of an http response's
// first bytes.
func httpHead(b []byte) (status, mt string) {
	tp := textproto.NewReader(bufio.NewReader(bytes.NewReader(b)))
	line, err := tp.ReadLine()
	if err != nil {
		return "", ""
	}
	if _, rest, ok := strings.Cut(line, " "); ok {
		status, _, _ = strings.Cut(rest, " ")
	}
	h, _ := tp.ReadMIMEHeader()
	return status, mediaType(h.Get("Content-Type"))
}

// messageID returns the Message-ID of an article's header, without its
// angle brackets (the form of a news URL, RFC 1738 3.6), "" if none.
func messageID(b []byte) string {
	tp := textproto.NewReader(bufio.NewReader(bytes.NewReader(b)))
	h, _ := tp.ReadMIMEHeader()
	id := strings.TrimSpace(h.Get("Message-Id"))
	if len(id) < 3 || id[0] != '<' || id[len(id)-1] != '>' || strings.ContainsAny(id, " \t/") {
		return ""
	}
	return id[1 : len(id)-1]
}

// WARCFiles returns the WARC files named by paths: a file as it is, a
// directory's files ending in .warc or .warc.gz, its subdirectories
// included, in lexical order.
func WARCFiles(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(path, ".warc") || strings.HasSuffix(path, ".warc.gz")) {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Sorter sorts CDXJ lines within a bounded memory: lines are kept until
// they pass RunBytes, then sorted and written to a temporary file (a
// run); WriteTo merges the runs.
type Sorter struct {
	// Dir is where runs are written (default: the system's temporary
	// directory). RunBytes bounds the lines held in memory (default 64 MiB).
	Dir      string
	RunBytes int

	lines [][]byte
	held  int
	runs  []*os.File
}

// Add adds one line (with its newline).
func (s *Sorter) Add(line []byte) error {
	s.lines = append(s.lines, line)
	s.held += len(line) + 24
	limit := s.RunBytes
	if limit <= 0 {
		limit = 64 << 20
	}
	if s.held >= limit {
		return s.spill()
	}
	return nil
}

func (s *Sorter) spill() error {
	SortLines(s.lines)
	f, err := os.CreateTemp(s.Dir, "urlkit-cdxj-run-*")
	if err != nil {
		return err
	}
	os.Remove(f.Name()) // the descriptor keeps it until Close
	w := bufio.NewWriterSize(f, 256<<10)
	for _, l := range s.lines {
		w.Write(l)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	s.runs = append(s.runs, f)
	s.lines, s.held = nil, 0
	return nil
}

// WriteTo writes every line added, sorted, to w, and releases the runs.
func (s *Sorter) WriteTo(w io.Writer) (int64, error) {
	defer s.Close()
	bw := bufio.NewWriterSize(w, 256<<10)
	var n int64
	if len(s.runs) == 0 {
		SortLines(s.lines)
		for _, l := range s.lines {
			m, err := bw.Write(l)
			n += int64(m)
			if err != nil {
				return n, err
			}
		}
		return n, bw.Flush()
	}
	if len(s.lines) > 0 {
		if err := s.spill(); err != nil {
			return 0, err
		}
	}
	h := &runHeap{}
	for _, f := range s.runs {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return 0, err
		}
		r := &run{br: bufio.NewReaderSize(f, 64<<10)}
		if r.next() {
			heap.Push(h, r)
		}
	}
	for h.Len() > 0 {
		r := (*h)[0]
		m, err := bw.Write(r.line)
		n += int64(m)
		if err != nil {
			return n, err
		}
		if r.next() {
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
	}
	return n, bw.Flush()
}

// Close releases the runs.
func (s *Sorter) Close() {
	for _, f := range s.runs {
		f.Close()
	}
	s.runs, s.lines = nil, nil
}

type run struct {
	br   *bufio.Reader
	line []byte
}

func (r *run) next() bool {
	l, err := r.br.ReadBytes('\n')
	r.line = l
	return err == nil || len(l) > 0
}

type runHeap []*run

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return compareLines(h[i].line, h[j].line) < 0 }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*run)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
