package archive

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// FuzzScanner: any bytes given as a WARC file are read to the end without
// a panic, each Next making progress; every record read can be opened
// again at its offset and its block read (the replay path), and a
// record's place lies inside the file. Seeds: the records the tests write
// (gzipped and not) and damaged forms of them.
func FuzzScanner(f *testing.F) {
	var plain, gz []byte
	for _, r := range sampleRecords() {
		plain = append(plain, marshalRecord(f, r, false)...)
		gz = append(gz, marshalRecord(f, r, true)...)
	}
	f.Add(plain)
	f.Add(gz)
	f.Add(gz[:len(gz)-7])
	f.Add(plain[:len(plain)/2])
	f.Add([]byte("WARC/1.1\r\nContent-Length: 5\r\n\r\nabc\r\n\r\nWARC/1.0\r\n\r\n"))
	f.Add([]byte("\x1f\x8b\x08WARC/1."))
	f.Fuzz(func(t *testing.T, data []byte) {
		size := int64(len(data))
		s := NewScanner("fuzz.warc", bytes.NewReader(data), size)
		last := int64(-1)
		for i := 0; ; i++ {
			if i > len(data)+2 {
				t.Fatalf("more than %d results from %d bytes", i, len(data))
			}
			rec, err := s.Next()
			if err == io.EOF {
				break
			}
			if s.next <= last && s.next < size {
				t.Fatalf("no progress: next %d after %d", s.next, last)
			}
			last = s.next
			if err != nil {
				var re *ReadError
				if !asReadError(err, &re) || re.File != "fuzz.warc" || re.Offset < 0 || re.Offset > size {
					t.Fatalf("error %T %v", err, err)
				}
				continue
			}
			if rec.Offset < 0 || rec.Length <= 0 || rec.Offset+rec.Length > size {
				t.Fatalf("record at %d+%d in %d bytes", rec.Offset, rec.Length, size)
			}
			// Read again alone, as replay does.
			r := NewScanner("fuzz.warc", bytes.NewReader(data), size)
			r.seek(rec.Offset)
			head, _ := r.br.Peek(len(warcMagic))
			again, in, err := r.head(rec.Offset, bytes.HasPrefix(head, gzipMagic))
			if err != nil {
				t.Fatalf("record at %d read in order but not alone: %v", rec.Offset, err)
			}
			n, err := io.Copy(io.Discard, newBlockReader(r, again, in))
			if n != again.ContentLength && err == nil {
				t.Fatalf("block of %d bytes read as %d without an error", again.ContentLength, n)
			}
		}
	})
}

func asReadError(err error, re **ReadError) bool {
	e, ok := err.(*ReadError)
	*re = e
	return ok
}

// FuzzIndexLookup: a lookup in any sorted set of lines finds exactly the
// lines a reading of every line finds (or reports a line it cannot read,
// naming the index), and a lookup in unsorted bytes ends without a panic.
func FuzzIndexLookup(f *testing.F) {
	e := Entry{Key: "gopher://(org,example,)/1/", Timestamp: "19940601120000", URL: "gopher://example.org/1/", Mime: "text/x-gopher-menu", Length: 1, Offset: 2, Filename: "a.warc.gz"}
	line := string(e.AppendLine(nil))
	f.Add([]byte(line+line+strings.Replace(line, "/1/", "/0/x", 2)), "gopher://(org,example,)/1/")
	f.Add([]byte("a 1 {}\nb 2 {\"length\":1,\"offset\":0}\n"), "b")
	f.Add([]byte("\n\n\nk"), "k")
	f.Fuzz(func(t *testing.T, data []byte, key string) {
		if strings.ContainsAny(key, " \n") {
			return
		}
		// Unsorted: anything but a panic or a runaway.
		x := NewIndex("fuzz.cdxj", bytes.NewReader(data), int64(len(data)))
		x.Lookup(key)
		// Sorted: the same answer as every line read.
		var lines [][]byte
		for _, l := range bytes.Split(data, []byte("\n")) {
			if len(l) > 0 {
				lines = append(lines, append(l, '\n'))
			}
		}
		SortLines(lines)
		sorted := bytes.Join(lines, nil)
		x = NewIndex("fuzz.cdxj", bytes.NewReader(sorted), int64(len(sorted)))
		got, err := x.Lookup(key)
		var want []Entry
		for _, l := range lines {
			if string(lineKey(l[:len(l)-1])) != key {
				continue
			}
			e, perr := ParseLine(l[:len(l)-1])
			if perr != nil {
				if err == nil && len(l) <= maxLine {
					t.Fatalf("line %q is unreadable (%v) but the lookup reported nothing", l, perr)
				}
				return
			}
			want = append(want, e)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.cdxj: index line at offset ") {
				t.Fatalf("error %v", err)
			}
			return
		}
		if len(got) != len(want) {
			t.Fatalf("Lookup(%q) = %d entries, every line read gives %d", key, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("entry %d: %+v, want %+v", i, got[i], want[i])
			}
		}
	})
}
