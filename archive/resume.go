package archive

import (
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"

	"github.com/nlnwa/gowarc/v3"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/scheme"
)

// Held is what a WARC file held when Resume continued it: the targets of
// its payload records, for a crawl to skip (urlkit get -r --continue) and
// to read its listings back from.
type Held struct {
	path string
	// at is the offset of the payload record of each target (the record
	// a revisit refers to, for a revisit).
	at map[string]int64
	// Records is the number of whole records kept; Dropped is set when
	// the file ended in a damaged or cut record, which was left out: its
	// offset and what was wrong.
	Records int
	Dropped error
}

// Resume continues the WARC file path: its whole records are kept (copied
// into the new file first), a damaged or cut record at its end is dropped
// (Held.Dropped says where and why), a warcinfo record with info is added,
// and the payloads it holds are known for revisit records. Without a file
// at path it is Create. The file is replaced when the Writer is closed.
func Resume(path string, info [][2]string) (*Writer, *Held, error) {
	h := &Held{path: path, at: map[string]int64{}}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		w, err := Create(path, info)
		return w, h, err
	}
	if err != nil {
		return nil, nil, fmt.Errorf("archive: %w", err)
	}
	// Records are appended as gzip members: the file must be made of
	// them (WARC/1.1 annex D), or be empty.
	var magic [2]byte
	if n, _ := io.ReadFull(f, magic[:]); n > 0 && magic != [2]byte{0x1f, 0x8b} {
		f.Close()
		return nil, nil, fmt.Errorf("archive: %s does not start with a gzip member (a .warc.gz file, one member a record): it cannot be continued", path)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("archive: %w", err)
	}
	rd, err := newWarcFileReaderFromStream(f, 0, gowarc.WithDefaultDigestAlgorithm(DigestAlgorithm))
	if err != nil {
		return nil, nil, fmt.Errorf("archive: %s: %w", path, err)
	}
	ids := map[string]int64{}
	payloads := map[string]*gowarc.RevisitRef{}
	var end int64
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			h.Dropped = fmt.Errorf("archive: %s: the record at offset %d: %w (it and what follows are left out)", path, end, err)
			break
		}
		wr := rec.WarcRecord
		hd := wr.WarcHeader()
		// The block is read to its end: a record cut short, or whose
		// length or digests do not hold, is found here; what follows a
		// record of the wrong length cannot be trusted.
		v, err := wr.ValidateDigest()
		if err == nil && len(v) > 0 {
			err = errors.Join(v...)
		}
		if err != nil {
			rec.Close()
			h.Dropped = fmt.Errorf("archive: %s: the record at offset %d: %w (it and what follows are left out)", path, rec.Offset, err)
			break
		}
		ids[hd.GetId(gowarc.WarcRecordID)] = rec.Offset
		target := hd.Get(gowarc.WarcTargetURI)
		switch wr.Type() {
		case gowarc.Resource, gowarc.Response:
			if _, ok := h.at[target]; !ok {
				h.at[target] = rec.Offset
			}
			if d := hd.Get(gowarc.WarcPayloadDigest); d != "" {
				if _, ok := payloads[d]; !ok {
					payloads[d], _ = wr.CreateRevisitRef(RevisitProfile)
				}
			}
		case gowarc.Revisit:
			if off, ok := ids[hd.GetId(gowarc.WarcRefersTo)]; ok {
				if _, ok := h.at[target]; !ok {
					h.at[target] = off
				}
			}
		}
		end = rec.Offset + rec.Size
		h.Records++
		rec.Close()
	}
	rd.Close() // it closes f
	src, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("archive: %w", err)
	}
	defer src.Close()
	w, err := create(path, info, src, end)
	if err != nil {
		return nil, nil, err
	}
	for d, ref := range payloads {
		w.payloads[d] = ref
	}
	return w, h, nil
}

// Has reports whether the file held a capture of target (a
// WARC-Target-URI).
func (h *Held) Has(target string) bool {
	_, ok := h.at[target]
	return ok
}

// Resource returns the capture of target the file held, as access gave
// it (ResourceOf).
func (h *Held) Resource(target string, cfg scheme.Config) (*access.Resource, error) {
	off, ok := h.at[target]
	if !ok {
		return nil, fmt.Errorf("archive: %s holds no capture of %s", h.path, target)
	}
	rd, err := newWarcFileReader(h.path, off, gowarc.WithDefaultDigestAlgorithm(DigestAlgorithm))
	if err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	rec, err := rd.Next()
	if err != nil {
		rd.Close()
		return nil, fmt.Errorf("archive: %s: the record at offset %d: %w", h.path, off, err)
	}
	wr := rec.WarcRecord
	block, err := wr.Block().RawBytes()
	if err != nil {
		rec.Close()
		rd.Close()
		return nil, err
	}
	n, _ := wr.ContentLength()
	r, err := ResourceOf(Captured{Type: wr.Type().String(), TargetURI: target, ContentType: wr.WarcHeader().Get(gowarc.ContentType),
		Length: n, Block: struct {
			io.Reader
			io.Closer
		}{block, closers{rec, rd}}}, cfg)
	if err != nil {
		return nil, err
	}
	// The server's address as the capture recorded it (the follow rule
	// holds the listing's links to it).
	if ip, err := netip.ParseAddr(wr.WarcHeader().Get(gowarc.WarcIPAddress)); err == nil {
		r.ServerAddr = ip
	}
	return r, nil
}
