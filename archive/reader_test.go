package archive

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	gowarc "github.com/nlnwa/gowarc/v3"
)

// testRecord is a record the tests write with gowarc (the library's own
// writer, so that what the reader is tested on is what the library writes).
type testRecord struct {
	typ     gowarc.RecordType
	uri     string
	date    time.Time
	ctype   string
	block   string
	headers [][2]string
}

// marshalRecord returns the record's bytes, gzipped as one member when gz is set.
func marshalRecord(t testing.TB, r testRecord, gz bool) []byte {
	t.Helper()
	rb := gowarc.NewRecordBuilder(r.typ, gowarc.WithStrictValidation(), gowarc.WithAddMissingDigest(true), gowarc.WithAddMissingRecordId(true), gowarc.WithFixContentLength(true))
	if r.uri != "" {
		rb.AddWarcHeader(gowarc.WarcTargetURI, r.uri)
	}
	if r.date.IsZero() {
		r.date = time.Date(1994, 6, 1, 12, 0, 0, 0, time.UTC)
	}
	rb.AddWarcHeaderTime(gowarc.WarcDate, r.date)
	if r.ctype != "" {
		rb.AddWarcHeader(gowarc.ContentType, r.ctype)
	}
	for _, h := range r.headers {
		rb.AddWarcHeader(h[0], h[1])
	}
	rb.WriteString(r.block)
	rec, _, err := rb.Build()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	var w io.Writer = &buf
	var zw *gzip.Writer
	if gz {
		zw = gzip.NewWriter(&buf)
		w = zw
	}
	if _, _, err := gowarc.NewMarshaler().Marshal(w, rec, 0); err != nil {
		t.Fatal(err)
	}
	if zw != nil {
		zw.Close()
	}
	return buf.Bytes()
}

// sampleRecords are three records as capture writes them for a gopher
// menu and a document.
func sampleRecords() []testRecord {
	return []testRecord{
		{typ: gowarc.Warcinfo, ctype: "application/warc-fields", block: "software: urlkit\r\n"},
		{typ: gowarc.Resource, uri: "gopher://gopher.example/1/", ctype: "text/x-gopher-menu", block: "0About\t/about\tgopher.example\t70\r\n.\r\n"},
		{typ: gowarc.Resource, uri: "gopher://gopher.example/0/about", ctype: "text/plain", block: "About this hole.\n"},
	}
}

// writeWARC writes the records to a file in dir and returns its name and
// the offsets at which each record starts.
func writeWARC(t testing.TB, dir, name string, recs []testRecord, gz bool) (string, []int64) {
	t.Helper()
	var all []byte
	var offs []int64
	for _, r := range recs {
		offs = append(offs, int64(len(all)))
		all = append(all, marshalRecord(t, r, gz)...)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, all, 0o644); err != nil {
		t.Fatal(err)
	}
	return p, offs
}

// scanAll reads every record of the file, returning the records and the errors.
func scanAll(t testing.TB, name string) ([]*Record, []error) {
	t.Helper()
	f, err := Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := f.Scan()
	var recs []*Record
	var errs []error
	for i := 0; i < 10000; i++ {
		r, err := s.Next()
		if err == io.EOF {
			return recs, errs
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		recs = append(recs, r)
	}
	t.Fatal("scanner does not end")
	return nil, nil
}

// TestScanOffsets: each record is found at the offset its gzip member (or,
// uncompressed, its "WARC/1.1" line) starts at, with the length it takes
// (ISO 28500 annex D: one gzip member per record).
func TestScanOffsets(t *testing.T) {
	for _, gz := range []bool{true, false} {
		t.Run(fmt.Sprint("gzip=", gz), func(t *testing.T) {
			name, offs := writeWARC(t, t.TempDir(), "a.warc.gz", sampleRecords(), gz)
			recs, errs := scanAll(t, name)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if len(recs) != len(offs) {
				t.Fatalf("read %d records, wrote %d", len(recs), len(offs))
			}
			st, _ := os.Stat(name)
			for i, r := range recs {
				end := st.Size()
				if i+1 < len(offs) {
					end = offs[i+1]
				}
				if r.Offset != offs[i] || r.Length != end-offs[i] {
					t.Errorf("record %d at %d+%d, want %d+%d", i, r.Offset, r.Length, offs[i], end-offs[i])
				}
				if r.Gzip != gz {
					t.Errorf("record %d: Gzip %v", i, r.Gzip)
				}
			}
			if got := recs[1].TargetURI(); got != "gopher://gopher.example/1/" {
				t.Errorf("TargetURI %q", got)
			}
			if recs[2].Type() != "resource" || recs[2].ContentLength != int64(len("About this hole.\n")) {
				t.Errorf("record 2: %s, %d", recs[2].Type(), recs[2].ContentLength)
			}
			if !recs[1].Date().Equal(time.Date(1994, 6, 1, 12, 0, 0, 0, time.UTC)) {
				t.Errorf("date %v", recs[1].Date())
			}
		})
	}
}

// damage writes sampleRecords with the middle record (index 1) changed by
// f, and returns the file's name and the middle record's offset.
func damage(t *testing.T, gz bool, f func(rec []byte) []byte) (string, int64) {
	t.Helper()
	var all []byte
	var off int64
	for i, r := range sampleRecords() {
		b := marshalRecord(t, r, gz)
		if i == 1 {
			off = int64(len(all))
			b = f(b)
		}
		all = append(all, b...)
	}
	name := filepath.Join(t.TempDir(), "bad.warc")
	if err := os.WriteFile(name, all, 0o644); err != nil {
		t.Fatal(err)
	}
	return name, off
}

// gzipped re-compresses a record's text as one member.
func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func gunzip(b []byte) []byte {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		panic(err)
	}
	out, _ := io.ReadAll(zr)
	return out
}

// TestBadRecords: each kind of damage the issue lists gives one ReadError
// naming the file, the bad record's offset and what was wrong, and the
// records before and after it are still read.
func TestBadRecords(t *testing.T) {
	setCL := func(n string) func([]byte) []byte {
		return func(b []byte) []byte {
			i := bytes.Index(b, []byte("Content-Length: "))
			j := i + bytes.IndexByte(b[i:], '\r')
			return append(append(append([]byte{}, b[:i]...), "Content-Length: "+n...), b[j:]...)
		}
	}
	cases := []struct {
		name string
		gz   bool
		f    func([]byte) []byte
		want string
		// lost: records after the bad one that cannot be told apart from it
		keep int
	}{
		{"truncated gzip member", true, func(b []byte) []byte { return b[:len(b)-20] }, "gzip member damaged|cut short", 1},
		{"gzip member cut in its header", true, func(b []byte) []byte { return b[:5] }, "gzip", 1},
		{"corrupt gzip data", true, func(b []byte) []byte {
			c := append([]byte{}, b...)
			c[len(c)-12] ^= 0xff
			return c
		}, "gzip member damaged", 1},
		{"Content-Length too long, gzip", true, func(b []byte) []byte { return gzipped(setCL("500")(gunzip(b))) }, "Content-Length 500, but the gzip member ends", 1},
		{"Content-Length too short, gzip", true, func(b []byte) []byte { return gzipped(setCL("3")(gunzip(b))) }, "Content-Length 3 does not end the block", 1},
		{"Content-Length too short", false, setCL("3"), "Content-Length 3 does not end the block", 1},
		{"Content-Length too long", false, setCL("60"), "does not end the block", 0},
		{"Content-Length not a number", false, setCL("x1"), `Content-Length "x1" is not a length`, 1},
		{"huge header block", true, func(b []byte) []byte {
			raw := gunzip(b)
			big := "X-Pad: " + strings.Repeat("a", DefaultMaxHeader) + "\r\n"
			raw = bytes.Replace(raw, []byte("\r\n\r\n"), []byte("\r\n"+big+"\r\n"), 1)
			return gzipped(raw)
		}, "header block too large", 1},
		{"record cut in its header", false, func(b []byte) []byte { return b[:len(b)/2] }, "comes inside its header block", 1},
		{"record cut in its block", false, func(b []byte) []byte { return b[:len(b)-10] }, "does not end the block", 0},
		{"gzip member cut in its block", true, func(b []byte) []byte { return gzipped(gunzip(b)[:len(gunzip(b))-10]) }, "but the gzip member ends after", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			name, off := damage(t, c.gz, c.f)
			recs, errs := scanAll(t, name)
			if len(errs) == 0 {
				t.Fatalf("no error; read %d records", len(recs))
			}
			var re *ReadError
			if !errors.As(errs[0], &re) {
				t.Fatalf("%T %v", errs[0], errs[0])
			}
			if re.File != name || re.Offset != off || !regexp.MustCompile(c.want).MatchString(re.Error()) {
				t.Errorf("error %q; want file %s, offset %d, %q", re, name, off, c.want)
			}
			if !strings.Contains(re.Error(), fmt.Sprintf("%s: record at offset %d: ", name, off)) {
				t.Errorf("error %q does not name the file and offset", re)
			}
			if len(recs) < 1 || recs[0].Type() != "warcinfo" {
				t.Errorf("the record before the bad one is lost: %d records", len(recs))
			}
			if c.keep == 1 && (len(recs) != 2 || recs[1].TargetURI() != "gopher://gopher.example/0/about") {
				t.Errorf("the record after the bad one is lost: %d records, errors %v", len(recs), errs)
			}
		})
	}
}

// TestTruncatedLast: a file whose last gzip member is cut (a copy or a
// write that stopped) keeps its other records.
func TestTruncatedLast(t *testing.T) {
	for _, gz := range []bool{true, false} {
		name, offs := writeWARC(t, t.TempDir(), "a.warc", sampleRecords(), gz)
		b, _ := os.ReadFile(name)
		for _, cut := range []int64{offs[2] + 3, offs[2] + 40, int64(len(b)) - 3} {
			os.WriteFile(name, b[:cut], 0o644)
			recs, errs := scanAll(t, name)
			if len(recs) != 2 || len(errs) != 1 || !strings.Contains(errs[0].Error(), fmt.Sprintf("record at offset %d: ", offs[2])) ||
				!strings.Contains(errs[0].Error(), "cut short") {
				t.Errorf("gzip %v, cut at %d: %d records, errors %v", gz, cut, len(recs), errs)
			}
		}
	}
}

// TestWholeFileGzip: a WARC file gzipped whole (one member for all its
// records) is named as such: its records have no offsets to serve.
func TestWholeFileGzip(t *testing.T) {
	name, _ := writeWARC(t, t.TempDir(), "a.warc", sampleRecords(), false)
	b, _ := os.ReadFile(name)
	os.WriteFile(name+".gz", gzipped(b), 0o644)
	recs, errs := scanAll(t, name+".gz")
	if len(recs) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "record at offset 0: its gzip member goes on with another record: the file was gzipped whole") {
		t.Errorf("%d records, errors %v", len(recs), errs)
	}
}

// TestNotWARC: a file that is not a WARC gives one error saying so, naming the file.
func TestNotWARC(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"empty":    "",
		"html":     "<html>hello</html>\n",
		"tar.gz":   string(gzipped([]byte("not a warc record at all\r\n\r\n"))),
		"warc-1.2": "WARC/2.0\r\n\r\n",
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		recs, errs := scanAll(t, p)
		if len(recs) != 0 || len(errs) != 1 {
			t.Errorf("%s: %d records, errors %v", name, len(recs), errs)
			continue
		}
		if !strings.HasPrefix(errs[0].Error(), p+": record at offset 0: ") {
			t.Errorf("%s: %v", name, errs[0])
		}
	}
}

// A header with two Content-Length fields (WARC/1.1 5.3 names one):
// refused with the record's offset, not guessed (gowarc v3.1.0's
// WarcFields.Set panicked on it; found by FuzzReadWARC in beam/pipeline),
// and the next record still read.
func TestTwoContentLengths(t *testing.T) {
	bad := "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"
	good := "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 2\r\n\r\nok\r\n\r\n"
	data := bad + good
	s := NewScanner("two.warc", strings.NewReader(data), int64(len(data)))
	_, err := s.Next()
	var re *ReadError
	if !errors.As(err, &re) || re.Offset != 0 || !strings.Contains(re.Reason, "two Content-Length fields") {
		t.Fatalf("first record: %v", err)
	}
	rec, err := s.Next()
	if err != nil || rec.Offset != int64(len(bad)) {
		t.Fatalf("second record: %+v %v", rec, err)
	}
}
