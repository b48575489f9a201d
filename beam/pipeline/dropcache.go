package pipeline

import (
	"io"
	"os"
)

// A dropBehind reads a local input file and tells the kernel, every
// dropEvery bytes, that the pages it has read are not needed again
// (POSIX_FADV_DONTNEED, which drops clean pages from the page cache at
// once; the kernel keeps a page only partly in the range). The job reads
// its input once, and its batch files then take the pages the input
// leaves instead of memory the machine has not used lately, which on a
// virtual machine (this project's is one) costs several times more a
// byte to touch first: at 10^8 lines the input is 6.5 GB and the batch
// files 6.7 GB (docs/scale.md). Config.KeepInputCache turns it off.
type dropBehind struct {
	f         *os.File
	off, from int64 // the read offset; where the pages not yet dropped start
}

// dropEvery is how far a dropBehind reads between two drops. A drop
// starts and, but for the last, ends at a multiple of dropAlign: the page
// cache holds a file in folios of up to 2 MiB, and the kernel drops no
// folio that the range holds only in part.
const (
	dropEvery = 4 << 20
	dropAlign = 2 << 20
)

// dropInputPages returns rc reading through a dropBehind when rc is a
// local file (a compressed or remote file is returned as it is).
func dropInputPages(rc io.ReadCloser) io.ReadCloser {
	if f, ok := rc.(*os.File); ok {
		return &dropBehind{f: f}
	}
	return rc
}

func (d *dropBehind) Read(p []byte) (int, error) {
	n, err := d.f.Read(p)
	d.off += int64(n)
	if d.off-d.from >= dropEvery {
		d.drop(false)
	}
	return n, err
}

// Seek moves the read offset (the line reader seeks to its range's
// start). Nothing before it is dropped, nor the rest of the folio that
// holds it: the range before may not have read them yet (another
// bundle, or another worker's part of the file), and a page dropped
// before it is read is read from disk again.
func (d *dropBehind) Seek(offset int64, whence int) (int64, error) {
	off, err := d.f.Seek(offset, whence)
	if err == nil {
		d.off, d.from = off, (off+dropAlign-1)&^(dropAlign-1)
	}
	return off, err
}

// Close drops the pages read since the last drop and closes the file.
func (d *dropBehind) Close() error {
	d.drop(true)
	return d.f.Close()
}

// drop drops the pages from from (a multiple of dropAlign) to the last
// multiple of dropAlign before the read offset, or at the end to the read
// offset (the kernel keeps a folio that holds bytes past it: the range
// after may not have read them yet).
func (d *dropBehind) drop(end bool) {
	start, to := d.from, d.off
	if !end {
		to &^= dropAlign - 1
	}
	if to > start {
		dropPages(d.f, start, to-start)
		d.from = to
	}
}
