package archive

import (
	"crypto/rand"
	"fmt"
	"io"
	"sync"

	"github.com/nlnwa/gowarc/v3"
)

// gowarc writes a global each time it makes a set of options (every
// NewRecordBuilder, NewUnmarshaler, NewWarcFileReader calls
// uuid.EnableRandPool, which sets a flag of the uuid package), and its
// default record ids read that flag (uuid.New): two records built at once,
// as a recording gateway builds them, race. So those constructors are
// called under gowarcMu, and record ids are made here (recordID) without
// the uuid package.
var gowarcMu sync.Mutex

func newRecordBuilder(t gowarc.RecordType, opts ...gowarc.WarcRecordOption) gowarc.WarcRecordBuilder {
	gowarcMu.Lock()
	defer gowarcMu.Unlock()
	return gowarc.NewRecordBuilder(t, opts...)
}

func newUnmarshaler(opts ...gowarc.WarcRecordOption) gowarc.Unmarshaler {
	gowarcMu.Lock()
	defer gowarcMu.Unlock()
	return gowarc.NewUnmarshaler(opts...)
}

func newWarcFileReaderFromStream(r io.Reader, offset int64, opts ...gowarc.WarcRecordOption) (*gowarc.WarcFileReader, error) {
	gowarcMu.Lock()
	defer gowarcMu.Unlock()
	return gowarc.NewWarcFileReaderFromStream(r, offset, opts...)
}

func newWarcFileReader(name string, offset int64, opts ...gowarc.WarcRecordOption) (*gowarc.WarcFileReader, error) {
	gowarcMu.Lock()
	defer gowarcMu.Unlock()
	return gowarc.NewWarcFileReader(name, offset, opts...)
}

// recordID returns a new WARC-Record-ID: a random (version 4) UUID as a
// URN (WARC/1.1 section 5.2).
func recordID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("urn:uuid:%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
}
