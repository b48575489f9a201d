package archive

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/scheme"
)

// This file gives captures back: an Archive is a set of WARC files and
// their CDXJ index, and Resource reads one capture into the
// *access.Resource access.Execute returned when it was captured (through
// ResourceOf, conventions.go), without dialling anything.

// Archive is a set of WARC files opened for replay.
type Archive struct {
	// files are the WARC files' paths by the name index entries carry.
	// A file is opened for each capture read and closed with it, so that
	// replay holds a descriptor a request, as live retrieval holds a
	// connection, whatever the number of files.
	files map[string]string
	index *Index
	dir   string // the temporary directory of the index
	cfg   scheme.Config
}

// NotArchivedError is a URL of which the archive holds no capture.
type NotArchivedError struct {
	URL string
	// Searches are the captured searches of the same search item or
	// database, when URL is a search (see Archive.Searches).
	Searches []string
}

func (e *NotArchivedError) Error() string {
	s := "not in the archive: " + e.URL + " was not captured (the gateway is replaying an archive and fetches nothing)"
	if len(e.Searches) > 0 {
		s += "; the searches of it the archive holds: " + strings.Join(e.Searches, " ")
	}
	return s
}

// maxSearches bounds the captured searches Searches returns.
const maxSearches = 20

// Searches returns the URLs of the captured searches of the search item
// or database the URL raw searches (a gopher type 7 selector followed by
// %09 and the words, RFC 1738 3.4; a WAIS database followed by "?" and the
// words, 3.9), at most 20; none for a URL that is not a search.
func (a *Archive) Searches(raw string) ([]string, error) {
	key := SortKey(raw)
	var prefix string
	switch {
	case strings.HasPrefix(key, "gopher://"):
		i := strings.Index(key, "%09")
		_, path, _ := strings.Cut(key, ")/")
		if i < 0 || !strings.HasPrefix(path, "7") {
			return nil, nil
		}
		prefix = key[:i+3]
	case strings.HasPrefix(key, "wais://"):
		i := strings.IndexByte(key, '?')
		if i < 0 {
			return nil, nil
		}
		prefix = key[:i+1]
	default:
		return nil, nil
	}
	es, err := a.index.Prefix(prefix, 4*maxSearches)
	var out []string
	for _, e := range es {
		if exchangeTypes[e.Mime] || len(out) > 0 && out[len(out)-1] == e.URL {
			continue
		}
		if len(out) == maxSearches {
			break
		}
		out = append(out, e.URL)
	}
	return out, err
}

// OpenArchive opens the WARC files named by paths (files, or directories
// searched for .warc and .warc.gz files) and indexes them into a
// temporary CDXJ file, sorted within a bounded memory (Sorter). A record
// that cannot be read is given to bad and left out; the others are
// served. cfg plans the captured URLs as access planned them.
//
// A path ending in ".cdxj" is an index of the files made before (urlkit
// index -o), used as it is: the files are not read until a capture is
// (an archive of gigabytes starts at once).
func OpenArchive(paths []string, cfg scheme.Config, bad func(error)) (*Archive, error) {
	var indexes, warcs []string
	for _, p := range paths {
		if strings.HasSuffix(p, ".cdxj") {
			indexes = append(indexes, p)
		} else {
			warcs = append(warcs, p)
		}
	}
	if len(indexes) > 1 {
		return nil, fmt.Errorf("%s: one index at a time (urlkit index -o writes one for any number of files)", strings.Join(indexes, ", "))
	}
	names, err := WARCFiles(warcs)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no WARC files (.warc, .warc.gz) in %s", strings.Join(paths, ", "))
	}
	dir, err := os.MkdirTemp("", "urlkit-replay-")
	if err != nil {
		return nil, err
	}
	a := &Archive{files: map[string]string{}, dir: dir, cfg: cfg}
	ok := false
	defer func() {
		if !ok {
			a.Close()
		}
	}()
	for _, n := range names {
		base := filepath.Base(n)
		if _, dup := a.files[base]; dup {
			return nil, fmt.Errorf("%s: two WARC files are named %s; an index names files by their base name", n, base)
		}
		a.files[base] = n
	}
	if len(indexes) == 1 {
		if a.index, err = OpenIndex(indexes[0]); err != nil {
			return nil, err
		}
		ok = true
		return a, nil
	}
	srt := &Sorter{Dir: dir}
	defer srt.Close()
	var addErr error
	for _, n := range names {
		base := filepath.Base(n)
		f, err := Open(n)
		if err != nil {
			return nil, err
		}
		IndexFile(f, base, func(e Entry) {
			if addErr == nil {
				addErr = srt.Add(e.AppendLine(nil))
			}
		}, bad)
		f.Close()
		if addErr != nil {
			return nil, addErr
		}
	}
	out, err := os.Create(filepath.Join(dir, "index.cdxj"))
	if err != nil {
		return nil, err
	}
	if _, err := srt.WriteTo(out); err != nil {
		out.Close()
		return nil, err
	}
	if err := out.Close(); err != nil {
		return nil, err
	}
	if a.index, err = OpenIndex(out.Name()); err != nil {
		return nil, err
	}
	ok = true
	return a, nil
}

// Close closes the files and removes the temporary index.
func (a *Archive) Close() error {
	if a.index != nil {
		a.index.Close()
	}
	return os.RemoveAll(a.dir)
}

// exchangeTypes are the media types of the records that hold what was
// sent (conventions.go): they are not captures of the URL to replay.
var exchangeTypes = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range []string{"http", "ftp", "gopher", "nntp", "wais", "prospero", "file"} {
		if c, ok := ConventionOf(p); ok && c.ExchangeType != "" {
			m[mediaType(c.ExchangeType)] = true
		}
	}
	return m
}()

// Captures returns the captures of the URL raw, oldest first: the index
// entries of its payload and revisit records (for a news:MESSAGE-ID URL,
// the article with that message-id, from whatever server and group it was
// captured).
func (a *Archive) Captures(raw string) ([]Entry, error) {
	es, err := a.index.Lookup(SortKey(raw))
	out := es[:0]
	for _, e := range es {
		if !exchangeTypes[e.Mime] {
			out = append(out, e)
		}
	}
	return out, err
}

// URLs returns the first max archived URLs in index order (each once;
// exchange records passed over), and whether there are more.
func (a *Archive) URLs(max int) (urls []string, more bool, err error) {
	// Enough lines for max URLs of a few captures each; a URL with more
	// captures than that shortens the list, it does not lengthen the read.
	es, err := a.index.Prefix("", 8*max)
	seen := map[string]bool{}
	for _, e := range es {
		if exchangeTypes[e.Mime] || seen[e.URL] || strings.HasPrefix(e.Key, "news:") && !strings.HasPrefix(e.URL, "news:") {
			continue
		}
		if len(urls) == max {
			return urls, true, err
		}
		seen[e.URL] = true
		urls = append(urls, e.URL)
	}
	return urls, len(es) == 8*max, err
}

// Nearest returns the index of the capture nearest in time to at, the
// latest when at is zero (as Wayback machines choose); on a tie, the
// earlier.
func Nearest(caps []Entry, at time.Time) int {
	if at.IsZero() {
		return len(caps) - 1
	}
	best, bestD := 0, time.Duration(1<<63-1)
	for i := range caps {
		d := caps[i].Time().Sub(at)
		if d < 0 {
			d = -d
		}
		if d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

// ParseTimestamp reads a Wayback timestamp of 1 to 14 digits
// (YYYYMMDDhhmmss, cut anywhere), the missing digits taken as the start
// of the period given ("1994" is 1994-01-01 00:00:00 UTC).
func ParseTimestamp(s string) (time.Time, error) {
	if len(s) == 0 || len(s) > 14 || strings.Trim(s, "0123456789") != "" {
		return time.Time{}, fmt.Errorf("timestamp %q is not 1 to 14 digits (YYYYMMDDhhmmss)", s)
	}
	const floor = "00000101000000"
	if len(s) < 4 {
		return time.Time{}, fmt.Errorf("timestamp %q: give at least the year", s)
	}
	full := s + floor[len(s):]
	t, err := time.Parse(timestampLayout, full)
	if err != nil {
		return time.Time{}, fmt.Errorf("timestamp %q: %v", s, strings.TrimPrefix(err.Error(), "parsing time "))
	}
	return t, nil
}

// Resource reads the capture e into the resource access.Execute returned
// when it was captured (ResourceOf), its block streamed from the file and
// checked against its WARC-Block-Digest as it is read: a block that does
// not match ends in an error, never passes for the capture. A revisit is
// read as the record it refers to (same payload digest, same URL or
// WARC-Refers-To-Target-URI).
func (a *Archive) Resource(e Entry) (*access.Resource, error) {
	rec, block, err := a.open(e)
	if err != nil {
		return nil, err
	}
	target := rec.TargetURI()
	if rec.Type() == TypeRevisit {
		block.Close()
		orig, err := a.original(rec, e)
		if err != nil {
			return nil, err
		}
		if rec, block, err = a.open(orig); err != nil {
			return nil, err
		}
	}
	return ResourceOf(Captured{Type: rec.Type(), TargetURI: target, ContentType: rec.Get("Content-Type"),
		Length: rec.ContentLength, Block: block}, a.cfg)
}

// original finds the record a revisit refers to.
func (a *Archive) original(rec *Record, e Entry) (Entry, error) {
	url := rec.Get("WARC-Refers-To-Target-URI")
	if url == "" {
		url = e.URL
	}
	caps, err := a.Captures(url)
	if err != nil {
		return Entry{}, err
	}
	for i := len(caps) - 1; i >= 0; i-- {
		if caps[i].Mime != "warc/revisit" && caps[i].Digest == e.Digest && e.Digest != "" {
			return caps[i], nil
		}
	}
	return Entry{}, &ReadError{File: e.Filename, Offset: e.Offset, Reason: "a revisit record whose original (payload digest " + e.Digest + " of " + url + ") is not in the archive"}
}

// open reads the header of the record e points at and returns it with
// its block.
func (a *Archive) open(e Entry) (*Record, io.ReadCloser, error) {
	name, ok := a.files[e.Filename]
	if !ok {
		return nil, nil, fmt.Errorf("the index names %s, which is not one of the archive's files", e.Filename)
	}
	f, err := Open(name)
	if err != nil {
		return nil, nil, err
	}
	if e.Offset >= f.Size {
		f.Close()
		return nil, nil, &ReadError{File: f.Name, Offset: e.Offset, Reason: "the index points past the end of the file"}
	}
	s := scanners.Get().(*Scanner)
	s.reset(f.Name, f.File, f.Size)
	s.seek(e.Offset)
	head, _ := s.br.Peek(len(warcMagic))
	rec, in, err := s.head(e.Offset, bytes.HasPrefix(head, gzipMagic))
	if err != nil {
		s.reset("", nil, 0)
		scanners.Put(s)
		f.Close()
		return nil, nil, err
	}
	b := newBlockReader(s, rec, in)
	b.file = f
	return rec, b, nil
}

// Block returns the block of rec, a record s returned, read again from
// s's file and checked against its WARC-Block-Digest as it is read (as
// Archive.Resource reads it): a block that is cut short or does not match
// ends in a *ReadError naming the file and the record's offset. It reads
// with a scanner of its own, so s goes on with its next record; close the
// block when done.
func (s *Scanner) Block(rec *Record) (io.ReadCloser, error) {
	bs := scanners.Get().(*Scanner)
	bs.reset(s.name, s.ra, s.size)
	bs.seek(rec.Offset)
	r, in, err := bs.head(rec.Offset, rec.Gzip)
	if err != nil {
		bs.reset("", nil, 0)
		scanners.Put(bs)
		return nil, err
	}
	return newBlockReader(bs, r, in), nil
}

// blockReader streams a record's block, checking its WARC-Block-Digest at
// the end.
type blockReader struct {
	s    *Scanner
	rec  *Record
	r    *io.LimitedReader
	h    hash.Hash
	want string // the digest's value as written
	file *File  // the file, closed with the reader
	done bool
}

func newBlockReader(s *Scanner, rec *Record, in io.Reader) *blockReader {
	b := &blockReader{s: s, rec: rec, r: &io.LimitedReader{R: in, N: rec.ContentLength}}
	if alg, v, ok := strings.Cut(rec.Get("WARC-Block-Digest"), ":"); ok {
		b.want = strings.TrimSpace(v)
		switch strings.ToLower(alg) {
		case "sha1", "sha-1":
			b.h = sha1.New()
		case "sha256", "sha-256":
			b.h = sha256.New()
		}
	}
	return b
}

// matches reports whether the digest sum is the field's value, written in
// base 32 (as Heritrix, wget and warcio write it) or in hex (as gowarc
// does by default), in either case.
func matches(sum []byte, value string) bool {
	return strings.EqualFold(value, base32.StdEncoding.EncodeToString(sum)) || strings.EqualFold(value, hex.EncodeToString(sum))
}

func (b *blockReader) Read(p []byte) (int, error) {
	if b.done {
		return 0, io.EOF
	}
	n, err := b.r.Read(p)
	if b.h != nil {
		b.h.Write(p[:n])
	}
	if err == io.EOF || err == nil && b.r.N == 0 {
		b.done = true
		if b.r.N > 0 {
			return n, b.s.bad(b.rec.Offset, io.ErrUnexpectedEOF, "record cut short: Content-Length %d, but the %s ends after %d bytes of block", b.rec.ContentLength, memberOrFile(b.rec.Gzip), b.rec.ContentLength-b.r.N)
		}
		if b.h != nil {
			if sum := b.h.Sum(nil); !matches(sum, b.want) {
				return n, b.s.bad(b.rec.Offset, nil, "its block does not match its WARC-Block-Digest (%s; the block read gives %s)", b.rec.Get("WARC-Block-Digest"), base32.StdEncoding.EncodeToString(sum))
			}
		}
		if n > 0 {
			return n, nil
		}
		return 0, io.EOF
	}
	if err != nil {
		return n, b.s.bad(b.rec.Offset, err, "%s", gzipReason(err, "block"))
	}
	return n, nil
}

// Close closes the file and gives the scanner back for another record.
func (b *blockReader) Close() error {
	if b.file != nil {
		b.file.Close()
		b.file = nil
	}
	if b.s != nil {
		b.s.reset("", nil, 0)
		scanners.Put(b.s)
		b.s, b.r = nil, &io.LimitedReader{}
		b.done = true
	}
	return nil
}
