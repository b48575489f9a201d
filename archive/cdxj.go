package archive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/lenient"
)

// This file is the CDXJ index: one line per capture, in the form pywb and
// the Webrecorder tools read (pywb's CDXJ, warcio.js's "cdx-index
// --format cdxj"):
//
//	SORTKEY TIMESTAMP {"url": ..., "mime": ..., "status": ..., "digest": ..., "length": ..., "offset": ..., "filename": ...}
//
// sorted as bytes, so that every capture of one URL is on consecutive
// lines, oldest first, and a lookup is a binary search over the file that
// reads a few small windows of it, never the whole.

// Entry is one line of a CDXJ index.
type Entry struct {
	Key       string // the sort key, see SortKey
	Timestamp string // the capture's WARC-Date as 14 digits, YYYYMMDDhhmmss
	URL       string // the WARC-Target-URI
	Mime      string // the payload's media type (an http response's Content-Type), no parameters
	Status    string // an http response's status code; "" for the other schemes, which have none
	Digest    string // the WARC-Payload-Digest without its algorithm ("sha1:")
	Length    int64  // the record's length in its file
	Offset    int64  // the record's offset in its file
	Filename  string // the file's name
}

// Time returns the entry's timestamp as a time (zero if unreadable).
func (e *Entry) Time() time.Time {
	t, _ := time.Parse(timestampLayout, e.Timestamp)
	return t
}

const timestampLayout = "20060102150405"

// Timestamp returns t as a CDXJ timestamp (14 digits, UTC).
func Timestamp(t time.Time) string { return t.UTC().Format(timestampLayout) }

// AppendLine appends the entry as a CDXJ line, newline included. The JSON
// fields are written in warcio.js's order, numbers as numbers; an empty
// status or mime is left out, as warcio.js leaves out what a record lacks.
func (e *Entry) AppendLine(b []byte) []byte {
	b = append(b, e.Key...)
	b = append(b, ' ')
	b = append(b, e.Timestamp...)
	b = append(b, ` {"url":`...)
	b = appendJSONString(b, e.URL)
	if e.Mime != "" {
		b = append(b, `,"mime":`...)
		b = appendJSONString(b, e.Mime)
	}
	if e.Status != "" {
		b = append(b, `,"status":`...)
		b = appendJSONString(b, e.Status)
	}
	if e.Digest != "" {
		b = append(b, `,"digest":`...)
		b = appendJSONString(b, e.Digest)
	}
	b = append(b, `,"length":`...)
	b = strconv.AppendInt(b, e.Length, 10)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, e.Offset, 10)
	b = append(b, `,"filename":`...)
	b = appendJSONString(b, e.Filename)
	return append(b, "}\n"...)
}

func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}

// LineError is a CDXJ line that could not be read: the index file, the
// byte offset of the line, and what was wrong.
type LineError struct {
	File   string
	Offset int64
	Reason string
}

func (e *LineError) Error() string {
	return fmt.Sprintf("%s: index line at offset %d: %s", e.File, e.Offset, e.Reason)
}

// flexString reads a JSON string or number as a string (pywb writes
// "length": "123", warcio.js "length": 123).
type flexString string

func (f *flexString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		err := json.Unmarshal(b, &s)
		*f = flexString(s)
		return err
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*f = flexString(n)
	return nil
}

// ParseLine reads one CDXJ line (without its newline).
func ParseLine(line []byte) (Entry, error) {
	key, rest, ok1 := bytes.Cut(line, []byte(" "))
	ts, js, ok2 := bytes.Cut(rest, []byte(" "))
	if !ok1 || !ok2 || len(key) == 0 {
		return Entry{}, errors.New("not a CDXJ line (sort key, timestamp, JSON)")
	}
	if len(ts) == 0 || len(ts) > 14 || bytes.ContainsFunc(ts, func(r rune) bool { return r < '0' || r > '9' }) {
		return Entry{}, fmt.Errorf("timestamp %q is not up to 14 digits", clip(ts, 20))
	}
	var j struct {
		URL, Mime, Status, Digest, Filename flexString
		Length, Offset                      flexString
	}
	if err := json.Unmarshal(js, &j); err != nil {
		return Entry{}, fmt.Errorf("its JSON is unreadable: %v", err)
	}
	e := Entry{Key: string(key), Timestamp: string(ts), URL: string(j.URL), Mime: string(j.Mime), Status: string(j.Status),
		Digest: string(j.Digest), Filename: string(j.Filename)}
	var err error
	if e.Length, err = strconv.ParseInt(string(j.Length), 10, 64); err != nil || e.Length < 0 {
		return Entry{}, fmt.Errorf("length %q is not a length", j.Length)
	}
	if e.Offset, err = strconv.ParseInt(string(j.Offset), 10, 64); err != nil || e.Offset < 0 {
		return Entry{}, fmt.Errorf("offset %q is not an offset", j.Offset)
	}
	return e, nil
}

// SortKey returns the sort key of a URL, the first field of its index
// lines. For http and https it is the SURT form pywb and warcio.js write
// (lower case, a leading "www." dropped, the host's labels reversed and
// joined by commas, a port other than the default, ")", the path, the
// query's parameters sorted: "org,example)/a?b=1&c=2"), so that our
// index and theirs agree. For the other schemes the scheme is kept (a
// gopher and an ftp URL on one host are different resources) and only
// the host is reordered, as Heritrix's SURT form writes it
// ("gopher://(org,example,:7070)/1/sel"): a gopher selector or an ftp
// path keeps its case. A URL without a host (news:message-id) is its own
// key. The URL is put in canonical form first (urlkit.Canonical), so
// that the ways of writing one URL share one key.
func SortKey(raw string) string {
	u, err := urlkit.Parse(raw)
	if err != nil {
		lu, _, lerr := lenient.Parse(raw)
		if lerr != nil {
			return raw
		}
		u = lu
	}
	u = urlkit.Canonical(u)
	s := u.String()
	scheme := u.Scheme()
	if !u.HasAuthority() {
		return s
	}
	host := strings.ToLower(u.Host())
	_, rest, _ := strings.Cut(s, "://")
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		rest = rest[i:]
	} else {
		rest = ""
	}
	port, _ := u.RawPort()
	if scheme == "http" || scheme == "https" {
		host = trimWWW(host)
		rest = strings.ToLower(rest)
		if path, q, ok := strings.Cut(rest, "?"); ok {
			args := strings.Split(q, "&")
			slices.Sort(args)
			rest = path + "?" + strings.Join(args, "&")
		}
		if rest == "" {
			rest = "/"
		}
		k := reverseHost(host, ",")
		if port != "" {
			k += ":" + port
		}
		return k + ")" + rest
	}
	k := scheme + "://(" + reverseHost(host, ",") + ","
	if port != "" {
		k += ":" + port
	}
	return k + ")" + rest
}

// trimWWW drops "www." or "www" and digits and "." from the start of a host, as pywb's SURT does.
func trimWWW(host string) string {
	if !strings.HasPrefix(host, "www") {
		return host
	}
	i := 3
	for i < len(host) && host[i] >= '0' && host[i] <= '9' {
		i++
	}
	if i < len(host) && host[i] == '.' && i+1 < len(host) {
		return host[i+1:]
	}
	return host
}

// reverseHost writes a host's labels in reverse order joined by sep, an
// IPv4 address's too, as pywb's SURT (reverse_ipaddr) and warcio.js write
// it ("1,0,0,127"); an IPv6 literal is kept as it is.
func reverseHost(host, sep string) string {
	if strings.HasPrefix(host, "[") {
		return host
	}
	labels := strings.Split(host, ".")
	slices.Reverse(labels)
	return strings.Join(labels, sep)
}

// SortLines sorts CDXJ lines as bytes (as "LC_ALL=C sort" does, the order
// pywb and the binary search expect).
func SortLines(lines [][]byte) {
	slices.SortFunc(lines, compareLines)
}

// compareLines compares two lines as bytes without their newlines, as
// sort(1) does: "K" sorts before "K\x00...", whose newline-ended form
// would sort after it, and the binary search of scan compares lines
// without their newlines.
func compareLines(a, b []byte) int {
	return bytes.Compare(bytes.TrimSuffix(a, []byte("\n")), bytes.TrimSuffix(b, []byte("\n")))
}

// Index is a sorted CDXJ file opened for lookups. It is not read into
// memory: a lookup reads a few small windows of it (a binary search over
// byte offsets), so that the cost of a lookup grows with the logarithm of
// the file's size.
type Index struct {
	name string
	ra   io.ReaderAt
	size int64
	f    *os.File
}

// maxLine bounds one index line; a longer one is an error.
const maxLine = 64 << 10

// MaxCaptures bounds the entries one Lookup returns.
const MaxCaptures = 10000

// OpenIndex opens a sorted CDXJ file for lookups.
func OpenIndex(name string) (*Index, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Index{name: name, ra: f, size: st.Size(), f: f}, nil
}

// NewIndex returns an index over a sorted CDXJ file of the given size
// read through ra; name is used in errors.
func NewIndex(name string, ra io.ReaderAt, size int64) *Index {
	return &Index{name: name, ra: ra, size: size}
}

// Close closes the index file.
func (x *Index) Close() error {
	if x.f != nil {
		return x.f.Close()
	}
	return nil
}

// lineAt returns the first line starting at or after pos (pos itself if
// pos is 0 or follows a newline), its start, and a buffer holding it;
// start is the file's size when there is none.
func (x *Index) lineAt(pos int64, buf []byte) (line []byte, start int64, _ []byte, err error) {
	from := pos
	if pos > 0 {
		from = pos - 1 // the byte before: a newline there makes pos a line start
	}
	for {
		n, rerr := x.ra.ReadAt(buf, from)
		chunk := buf[:n]
		i := 0
		if pos > 0 {
			i = bytes.IndexByte(chunk, '\n')
			if i < 0 {
				if rerr != nil || n == 0 {
					return nil, x.size, buf, nil
				}
				if len(buf) >= maxLine {
					return nil, 0, buf, &LineError{File: x.name, Offset: from, Reason: fmt.Sprintf("a line longer than %d bytes", maxLine)}
				}
				buf = make([]byte, 2*len(buf))
				continue
			}
			i++
		}
		start = from + int64(i)
		if start >= x.size {
			return nil, x.size, buf, nil
		}
		j := bytes.IndexByte(chunk[i:], '\n')
		if j >= 0 {
			return chunk[i : i+j], start, buf, nil
		}
		if rerr != nil || from+int64(n) >= x.size {
			return chunk[i:], start, buf, nil // the last line, without a newline
		}
		if len(buf) >= maxLine {
			return nil, 0, buf, &LineError{File: x.name, Offset: start, Reason: fmt.Sprintf("a line longer than %d bytes", maxLine)}
		}
		// The line runs past the window: read again from its start with
		// a larger one.
		pos, from = start, start
		if start > 0 {
			pos, from = start, start-1
		}
		buf = make([]byte, 2*len(buf))
	}
}

// lineKey returns a line's sort key (up to its first space).
func lineKey(line []byte) []byte {
	if i := bytes.IndexByte(line, ' '); i >= 0 {
		return line[:i]
	}
	return line
}

// Lookup returns the entries whose sort key is key, in the index's order
// (oldest first), at most MaxCaptures of them.
func (x *Index) Lookup(key string) ([]Entry, error) {
	return x.scan(key, func(k []byte) bool { return string(k) == key }, MaxCaptures, true)
}

// Prefix returns the entries whose sort key starts with prefix, in the
// index's order, at most max of them.
func (x *Index) Prefix(prefix string, max int) ([]Entry, error) {
	return x.scan(prefix, func(k []byte) bool { return bytes.HasPrefix(k, []byte(prefix)) }, max, false)
}

// scan returns the entries from the first whose key is at least from, as
// long as match holds, at most max of them; exact (a lookup of one key)
// stops at the first line past that key's.
func (x *Index) scan(key string, match func(k []byte) bool, max int, exact bool) ([]Entry, error) {
	buf := make([]byte, 4<<10)
	// Lines are sorted as bytes, whole (SortLines): the lines that start
	// with key are together, and every line whose sort key is key (or
	// starts with it) is among them. The search is for the first line
	// that is not less than key, as bytes; from there the lines that
	// start with key are read and those whose sort key matches are kept.
	// (Comparing the keys alone would not follow the file's order where
	// a key holds a byte below the space: "a\x10 ..." sorts before "a ...".)
	lo, hi := int64(0), x.size
	for lo < hi {
		mid := lo + (hi-lo)/2
		var line []byte
		var start int64
		var err error
		line, start, buf, err = x.lineAt(mid, buf)
		if err != nil {
			return nil, err
		}
		if start < x.size && bytes.Compare(line, []byte(key)) < 0 {
			lo = start + int64(len(line)) + 1
		} else {
			hi = mid
		}
	}
	var out []Entry
	pos := lo
	for len(out) < max {
		line, start, b, err := x.lineAt(pos, buf)
		buf = b
		if err != nil {
			return out, err
		}
		if start >= x.size || !bytes.HasPrefix(line, []byte(key)) {
			break
		}
		pos = start + int64(len(line)) + 1
		if !match(lineKey(line)) {
			if exact && len(line) > len(key) && line[len(key)] > ' ' {
				// Past every line of the key ("K ..." sorts before
				// "K!..."): the keys below K's (K/a, K/b...) are not
				// read.
				break
			}
			continue
		}
		e, err := ParseLine(line)
		if err != nil {
			return out, &LineError{File: x.name, Offset: start, Reason: err.Error()}
		}
		out = append(out, e)
	}
	return out, nil
}
