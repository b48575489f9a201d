package archive

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/nlnwa/gowarc/v3"
	"github.com/urlkit/urlkit/internal/tempfile"
)

// DigestAlgorithm is the algorithm of the WARC-Block-Digest and
// WARC-Payload-Digest fields urlkit writes: SHA-1 in base 32, as Heritrix,
// wget and warcio write them and as CDX(J) indexes and pywb expect.
const DigestAlgorithm = "sha1"

// SpoolThreshold is the largest block a record keeps in memory while it is
// built; a larger one is spooled to a temporary file in the WARC file's
// directory, so that its digests are known before its header is written
// without holding it in memory.
const SpoolThreshold = 1 << 20

// A Writer writes WARC/1.1 records to one file, each record its own gzip
// member (WARC/1.1 annex D.2), as the tools that read WARC files expect.
// The records go to a temporary file in the same directory; Close syncs it
// and renames it to its name, so the file is complete or absent. A record
// whose writing fails or is interrupted is cut off: the file holds only
// whole records. A Writer is safe for concurrent use; records are written
// one at a time.
type Writer struct {
	mu     sync.Mutex
	path   string
	tmp    *os.File
	end    int64 // the offset after the last whole record
	closed bool
	opts   []gowarc.WarcRecordOption
	// payloads maps a payload digest to the record that first held it,
	// for revisit records.
	payloads map[string]*gowarc.RevisitRef
	zw       *gzip.Writer
	// info is the warcinfo record's id.
	info string
}

// Create starts the WARC file path (conventionally ending ".warc.gz"): a
// temporary file is made beside it, and the warcinfo record written
// first, with the fields of info (WARC/1.1 section 6.2: software, format,
// and any others, as application/warc-fields).
func Create(path string, info [][2]string) (*Writer, error) {
	return create(path, info, nil, 0)
}

// create is Create, the file starting with the first n bytes of prefix
// (whole records of the file being continued, see Resume).
func create(path string, info [][2]string, prefix io.Reader, n int64) (*Writer, error) {
	dir := filepath.Dir(path)
	tmp, err := tempfile.Create(dir, "."+filepath.Base(path)+".", ".tmp")
	if err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	if prefix != nil {
		if _, err := io.CopyN(tmp, prefix, n); err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			return nil, fmt.Errorf("archive: copying the records of %s: %w", path, err)
		}
	}
	w := &Writer{
		end:  n,
		path: path,
		tmp:  tmp,
		opts: []gowarc.WarcRecordOption{
			gowarc.WithDefaultDigestAlgorithm(DigestAlgorithm),
			gowarc.WithRecordIdFunc(recordID),
			gowarc.WithAddMissingDigest(true),
			gowarc.WithBufferTmpDir(dir),
			gowarc.WithBufferMaxMemBytes(SpoolThreshold),
		},
		payloads: map[string]*gowarc.RevisitRef{},
	}
	b := w.builder(gowarc.Warcinfo)
	b.AddWarcHeader(gowarc.WarcFilename, filepath.Base(path))
	b.AddWarcHeader(gowarc.ContentType, gowarc.ApplicationWarcFields)
	var fields strings.Builder
	for _, f := range info {
		fields.WriteString(f[0] + ": " + f[1] + "\r\n")
	}
	b.WriteString(fields.String())
	rec, err := w.write(b)
	if err != nil {
		w.Abort()
		return nil, err
	}
	w.info = rec.RecordId()
	return w, nil
}

// Path returns the name the file gets when it is closed.
func (w *Writer) Path() string { return w.path }

// builder returns a record builder of type t with urlkit's options and a
// WARC-Date of now.
func (w *Writer) builder(t gowarc.RecordType) gowarc.WarcRecordBuilder {
	b := newRecordBuilder(t, w.opts...)
	b.AddWarcHeaderTime(gowarc.WarcDate, time.Now().UTC())
	if w.info != "" {
		// WARC/1.1 5.14: the warcinfo record that describes this one.
		b.AddWarcHeader(gowarc.WarcWarcinfoID, "<"+w.info+">")
	}
	return b
}

// write builds the record of b (its digests computed) and appends it as
// one gzip member. On any failure the file is cut back to its last whole
// record.
func (w *Writer) write(b gowarc.WarcRecordBuilder) (gowarc.WarcRecord, error) {
	rec, _, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("archive: building a record: %w", err)
	}
	defer rec.Close()
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.append(rec); err != nil {
		return nil, err
	}
	return rec, nil
}

// append writes rec as one gzip member at the end of the file; w.mu is
// held.
func (w *Writer) append(rec gowarc.WarcRecord) error {
	if w.closed {
		return errors.New("archive: write to a closed WARC file")
	}
	if w.zw == nil {
		w.zw = gzip.NewWriter(w.tmp)
	} else {
		w.zw.Reset(w.tmp)
	}
	err := marshal(w.zw, rec)
	if err == nil {
		err = w.zw.Close()
	}
	var off int64
	if err == nil {
		off, err = w.tmp.Seek(0, io.SeekCurrent)
	}
	if err != nil {
		w.cut()
		return fmt.Errorf("archive: writing record %s to %s: %w", rec.RecordId(), w.path, err)
	}
	w.end = off
	return nil
}

// marshal writes rec as gowarc's Marshaler does (WARC/1.1 section 4:
// version line, header, CRLF, block, CRLF CRLF), spelling the header
// field of the IIPC proposal "WARC-Protocol" as the proposal does (gowarc
// writes a field it does not know in HTTP's canonical case; field names
// are case-insensitive, WARC/1.1 section 5.1, but readers grep).
func marshal(w io.Writer, rec gowarc.WarcRecord) error {
	var h bytes.Buffer
	h.WriteString(rec.Version().String() + "\r\n")
	if _, err := rec.WarcHeader().Write(&h); err != nil {
		return err
	}
	head := bytes.ReplaceAll(h.Bytes(), []byte("\r\nWarc-Protocol:"), []byte("\r\n"+WARCProtocolField+":"))
	head = append(head, "\r\n"...)
	if _, err := w.Write(head); err != nil {
		return err
	}
	block, err := rec.Block().RawBytes()
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, block); err != nil {
		return err
	}
	_, err = io.WriteString(w, "\r\n\r\n")
	return err
}

// cut drops a partly written record: the file ends after the last whole
// one.
func (w *Writer) cut() {
	w.tmp.Truncate(w.end)
	w.tmp.Seek(w.end, io.SeekStart)
}

// Close ends the file: its records are synced to disk and the file gets
// its name, replacing any file of that name.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	name := w.tmp.Name()
	err := w.tmp.Sync()
	if cerr := w.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, w.path)
	}
	if err == nil {
		err = syncDir(filepath.Dir(w.path))
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("archive: %w", err)
	}
	return nil
}

// Abort drops the file: nothing is left of it.
func (w *Writer) Abort() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	w.closed = true
	w.tmp.Close()
	os.Remove(w.tmp.Name())
}

// syncDir syncs a directory, so that a rename in it is on disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// WARCProtocolField is the name of the field of the IIPC proposal
// (iipc/warc-specifications issue 42).
const WARCProtocolField = "WARC-Protocol"

// group is the records of one exchange: the payload record (resource or
// response) and the record of what was sent (metadata or request; nil for
// file), which names the payload record in WARC-Concurrent-To.
type group struct {
	target       string
	ip           netip.Addr
	protocols    []string
	payload      gowarc.WarcRecordBuilder
	payloadType  string
	exchange     gowarc.WarcRecordBuilder
	exchangeType string
}

// built is a record ready to be written, with the payload digest it
// registers (for revisits) once written.
type built struct {
	rec    gowarc.WarcRecord
	digest string
	ref    *gowarc.RevisitRef
}

// writeGroups builds the records of gs and writes them all, or none: a
// failure cuts the file back to before the first. A payload whose digest
// is already in the file becomes a revisit record.
func (w *Writer) writeGroups(gs []group) error {
	var recs []built
	closeAll := func() {
		for _, b := range recs {
			b.rec.Close()
		}
	}
	defer closeAll()
	fail := func(err error) error {
		for _, g := range gs {
			for _, b := range []gowarc.WarcRecordBuilder{g.payload, g.exchange} {
				if b != nil {
					b.Close()
				}
			}
		}
		return err
	}
	for _, g := range gs {
		common := func(b gowarc.WarcRecordBuilder, ct string) {
			b.AddWarcHeader(gowarc.WarcTargetURI, g.target)
			if g.ip.IsValid() {
				b.AddWarcHeader(gowarc.WarcIPAddress, g.ip.String())
			}
			for _, p := range g.protocols {
				b.AddWarcHeader(WARCProtocolField, p)
			}
			if ct != "" {
				b.AddWarcHeader(gowarc.ContentType, ct)
			}
		}
		common(g.payload, g.payloadType)
		rec, _, err := g.payload.Build()
		if err != nil {
			return fail(fmt.Errorf("archive: building the record of %s: %w", g.target, err))
		}
		g.payload = nil
		b := built{rec: rec, digest: rec.WarcHeader().Get(gowarc.WarcPayloadDigest)}
		w.mu.Lock()
		first := w.payloads[b.digest]
		w.mu.Unlock()
		if first != nil && b.digest != "" {
			rv, err := rec.ToRevisitRecord(first)
			if err != nil {
				rec.Close()
				return fail(fmt.Errorf("archive: a revisit record for %s: %w", g.target, err))
			}
			rec.Close()
			b = built{rec: rv}
		} else if b.digest != "" {
			b.ref, _ = rec.CreateRevisitRef(RevisitProfile)
		}
		recs = append(recs, b)
		if g.exchange == nil {
			continue
		}
		common(g.exchange, g.exchangeType)
		g.exchange.AddWarcHeader(gowarc.WarcConcurrentTo, "<"+b.rec.RecordId()+">")
		xrec, _, err := g.exchange.Build()
		g.exchange = nil
		if err != nil {
			return fail(fmt.Errorf("archive: building the exchange record of %s: %w", g.target, err))
		}
		if h := xrec.WarcHeader(); !h.Has(gowarc.WarcPayloadDigest) {
			// A metadata record's payload is its block.
			h.Set(gowarc.WarcPayloadDigest, h.Get(gowarc.WarcBlockDigest))
		}
		recs = append(recs, built{rec: xrec})
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	start := w.end
	for _, b := range recs {
		if err := w.append(b.rec); err != nil {
			w.end = start
			w.cut()
			return err
		}
	}
	for _, b := range recs {
		if b.ref != nil {
			if _, ok := w.payloads[b.digest]; !ok {
				w.payloads[b.digest] = b.ref
			}
		}
	}
	return nil
}
