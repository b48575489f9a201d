package pipeline

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/archive"
	"github.com/urlkit/urlkit/linkset"
	"github.com/urlkit/urlkit/scheme"
)

func init() {
	register.DoFn5x1[context.Context, fileio.ReadableFile, fileFn, fileFn, emitFn, error](&warcFn{})
}

// KindBadRecord is the rejection kind of a WARC record that could not be
// read (cut short, a lying Content-Length, a damaged gzip member, a block
// that does not match its digest, a file that is not a WARC file, a
// listing that cannot be read): its rejected line names the file as the
// input, the record's offset in the file as the offset, and what was
// wrong.
const KindBadRecord = "bad-record"

// maxOriginals bounds the records of one file a revisit can refer to:
// about 100 bytes each. A revisit of a record past the bound (or in
// another file) is reported, not read.
const maxOriginals = 1 << 17

// warcFn reads one WARC file (compressed record by record or not) and
// classifies the URLs of what its records hold, as the line source
// classifies lines: the links of each archived listing (gopher menu, ftp
// directory, WAIS hits, Prospero directory: archive.ListingLinks, the
// links a recursive capture follows) and the URLs in each archived text
// document (linkset.ExtractLines, as --extract reads a text file). A
// revisit record is read as the record it refers to, under its own target
// URI. A record that cannot be read is a rejected line of kind
// KindBadRecord, and the records after it are still read.
type warcFn struct {
	Lenient  bool
	Shards   int
	Tmp      string
	InMemory bool // see readLinesFn

	b bundle
}

func (f *warcFn) StartBundle(ctx context.Context, canon, rejected fileFn, counts emitFn) {
	f.b.start(ctx, linkset.Options{Lenient: f.Lenient}, f.Shards, f.Tmp, f.InMemory, canon, rejected, counts)
}

func (f *warcFn) FinishBundle(_ context.Context, canon, rejected fileFn, counts emitFn) error {
	return f.b.finish()
}

func (f *warcFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, canon, rejected fileFn, counts emitFn) error {
	name := file.Metadata.Path
	// The file's own bytes: a .warc.gz is read member by member, not
	// through ReadableFile.Open's gunzip of the whole.
	ra, size, done, err := openAt(ctx, name)
	if err != nil {
		return fmt.Errorf("urlkit-beam: opening %s: %w", name, err)
	}
	defer done()
	opt := linkset.Options{Lenient: f.Lenient}
	err = ReadWARC(name, ra, size, opt, f.b.line, func(r linkset.Record) {
		if r.Kind == KindBadRecord {
			log.Warnf(ctx, "urlkit-beam: %s: record at offset %d: %s", r.Input, r.Offset, r.Reason)
		}
		f.b.record(r)
	})
	f.b.drain()
	if f.b.err != nil {
		return f.b.err
	}
	return err
}

// openAt opens a file of any file system Beam knows for reading at
// offsets: a local file as it is, another (gs://...) copied to a
// temporary local file first (disk, not memory, holds it).
func openAt(ctx context.Context, name string) (io.ReaderAt, int64, func(), error) {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return nil, 0, nil, err
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, name)
	if err != nil {
		return nil, 0, nil, err
	}
	if f, ok := rc.(*os.File); ok {
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, 0, nil, err
		}
		return f, st.Size(), func() { f.Close() }, nil
	}
	defer rc.Close()
	tmp, err := os.CreateTemp("", "urlkit-beam-warc-")
	if err != nil {
		return nil, 0, nil, err
	}
	done := func() { tmp.Close(); os.Remove(tmp.Name()) }
	n, err := io.Copy(tmp, rc)
	if err != nil {
		done()
		return nil, 0, nil, err
	}
	return tmp, n, done, nil
}

// original is what a revisit needs of the record it refers to.
type original struct {
	rec        archive.Record // Offset, Gzip and ContentLength only
	typ, ctype string
}

// ReadWARC reads the WARC file of the given size through ra (name is used
// in errors) and calls url with each URL the archived listings link to
// and each URL in the archived text documents, and rejected with each
// candidate the text extractor gave up and with a record of kind
// KindBadRecord for each record that could not be read (its Input the
// file's name, its Offset the record's). It returns an error only for a
// failure to read the file at all; memory is bounded by a record's header
// (archive.DefaultMaxHeader), a listing's line and text.MaxSpan, and
// maxOriginals.
func ReadWARC(name string, ra io.ReaderAt, size int64, opt linkset.Options, url func(string), rejected func(linkset.Record)) error {
	bad := func(off int64, reason string) {
		rejected(linkset.Record{Input: name, Status: linkset.Rejected, Kind: KindBadRecord, Offset: int(off), Reason: reason})
	}
	sc := archive.NewScanner(name, ra, size)
	originals := map[string]original{}
	for {
		rec, err := sc.Next()
		if err == io.EOF {
			return nil
		}
		var re *archive.ReadError
		if errors.As(err, &re) {
			bad(re.Offset, re.Reason)
			continue
		}
		if err != nil {
			return fmt.Errorf("urlkit-beam: reading %s: %w", name, err)
		}
		o := original{rec: archive.Record{Offset: rec.Offset, Gzip: rec.Gzip, ContentLength: rec.ContentLength},
			typ: rec.Type(), ctype: rec.Get("Content-Type")}
		target := rec.TargetURI()
		switch o.typ {
		case archive.TypeResource, archive.TypeResponse:
			if !links(name, sc, o, target, opt, url, rejected) {
				continue // damaged: no revisit reads it
			}
			if d := rec.Get("WARC-Payload-Digest"); d != "" && len(originals) < maxOriginals {
				if _, seen := originals[d]; !seen {
					originals[d] = o
				}
			}
		case archive.TypeRevisit:
			d := rec.Get("WARC-Payload-Digest")
			orig, ok := originals[d]
			if !ok {
				bad(rec.Offset, fmt.Sprintf("a revisit record of %s whose original (payload digest %s) is not a readable record before it in this file: what it holds is not read", target, d))
				continue
			}
			links(name, sc, orig, target, opt, url, rejected)
		}
	}
}

// links reads the payload of the record o as a capture of target and
// calls url with its links (a listing) or the URLs in it (a text
// document; nothing for a record whose target urlkit does not read, a
// redirect, an http error). It returns false for a record that could not
// be read, which it reports as a rejected record of the file name.
func links(name string, sc *archive.Scanner, o original, target string, opt linkset.Options, url func(string), rejected func(linkset.Record)) bool {
	bad := func(reason string) {
		rejected(linkset.Record{Input: name, Status: linkset.Rejected, Kind: KindBadRecord, Offset: int(o.rec.Offset), Reason: reason})
	}
	u, err := urlkit.Parse(target)
	if err != nil {
		if u, err = urlkit.ParseExtended(target); err != nil {
			return true // not a URL urlkit reads (dns:, urn:...): nothing to extract
		}
	}
	block, err := sc.Block(&o.rec)
	if err != nil {
		bad(reasonOf(err))
		return false
	}
	r, err := archive.ResourceOf(archive.Captured{Type: o.typ, TargetURI: target, ContentType: o.ctype, Length: o.rec.ContentLength, Block: block}, scheme.Config{})
	var redirect *access.RedirectError
	var status *access.HTTPStatusError
	switch {
	case errors.Is(err, archive.ErrNotCapturable), errors.As(err, &redirect), errors.As(err, &status):
		return true
	case err != nil:
		bad(err.Error())
		return false
	}
	defer r.Close()
	listing, err := archive.ListingLinks(r, u, 0, func(l archive.Link) { url(l.URL) })
	if err == nil && !listing {
		var text io.Reader
		if text, listing = textDocument(r); listing {
			err = linkset.ExtractLines(text, opt, url, rejected)
		}
	}
	if err == nil {
		// The rest of the block, so that its digest is checked.
		_, err = io.Copy(io.Discard, r)
	}
	if err != nil {
		bad(reasonOf(err))
		return false
	}
	return true
}

// reasonOf is what was wrong with a record: a ReadError's reason (it
// names the file and offset itself), or the error.
func reasonOf(err error) string {
	var re *archive.ReadError
	if errors.As(err, &re) {
		return re.Reason
	}
	return err.Error()
}

// textDocument reports whether r is a text document, whose URLs are
// read: a document (or news article) whose media type is text/* or
// message/*, or, when access knew no type (an ftp file), whose first
// bytes are text by http.DetectContentType's rules. It returns the reader
// to read it through.
func textDocument(r *access.Resource) (io.Reader, bool) {
	if r.Kind != "file" && r.Kind != "article" {
		return nil, false
	}
	mt, _, _ := mime.ParseMediaType(r.ContentType)
	if strings.HasPrefix(mt, "text/") || strings.HasPrefix(mt, "message/") {
		return r, true
	}
	if mt != "" && mt != archive.OctetStream {
		return nil, false
	}
	br := bufio.NewReaderSize(r, 512)
	head, _ := br.Peek(512)
	return br, strings.HasPrefix(http.DetectContentType(head), "text/")
}

// readWARCs adds the WARC source: the files cfg.InputWARC matches, read
// by warcFn, their outputs joined to those of the line source when there
// is one (canon is then valid).
func readWARCs(s beam.Scope, cfg Config, shards int, tmp string, canon, rejected, counts beam.PCollection) (beam.PCollection, beam.PCollection, beam.PCollection) {
	s = s.Scope("read WARC files")
	files := fileio.ReadMatches(s, fileio.MatchFiles(s, cfg.InputWARC), fileio.ReadDirectorySkip())
	c, r, n := beam.ParDo3(s, &warcFn{Lenient: cfg.Lenient, Shards: shards, Tmp: tmp, InMemory: cfg.InProcess}, files)
	if !canon.IsValid() {
		return c, r, n
	}
	return beam.Flatten(s, canon, c), beam.Flatten(s, rejected, r), beam.Flatten(s, counts, n)
}
