package access

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/urlkit/urlkit/scheme"
)

func init() { registerClient((*execution).file) }

// file opens the plan's local file, or for a directory returns a listing:
// the entries' names sorted, one a line, directories marked with a
// trailing "/". Opening a FIFO or a device can block (a FIFO until a
// writer comes): the open is abandoned when the context ends.
func (x *execution) file(p *scheme.FilePlan) (*Resource, error) {
	if p.Path == "" {
		return nil, fmt.Errorf("file: empty path")
	}
	if strings.IndexByte(p.Path, 0) >= 0 {
		return nil, fmt.Errorf("file: path %q holds NUL", EscapeText(p.Path))
	}
	step := "open " + p.Path
	f, err := x.openFile(p.Path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("file: %w", err)
	}
	if !st.IsDir() {
		stop := x.watch(f)
		m := x.newMeter(f, "file", "read "+p.Path)
		size := int64(-1)
		if st.Mode().IsRegular() {
			size = st.Size()
		}
		b := x.newBody(m, m, "file", step, nil, func() error { stop(); return f.Close() })
		return &Resource{ReadCloser: b, Plan: p, Kind: "file", ContentType: mime.TypeByExtension(filepath.Ext(p.Path)), Size: size}, nil
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("file: listing %s: %w", p.Path, err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() {
			n += "/"
		}
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	for _, n := range names {
		buf.WriteString(n)
		buf.WriteByte('\n')
	}
	m := x.newMeter(&buf, "file", "list "+p.Path)
	b := x.newBody(m, m, "file", step, nil, nil)
	return &Resource{ReadCloser: b, Plan: p, Kind: "directory", ContentType: "text/plain", Size: int64(buf.Len())}, nil
}

// openFile opens name for reading. A regular file or directory is opened
// at once; anything else (a FIFO, a device) is opened in a goroutine, and
// when the context ends first the open is abandoned: for a FIFO the
// blocked open is released by opening its write side without blocking.
func (x *execution) openFile(name string) (*os.File, error) {
	if err := x.ctx.Err(); err != nil {
		return nil, x.ctxErr("file", "open "+name)
	}
	st, err := os.Stat(name)
	if err != nil {
		return nil, fmt.Errorf("file: %w", err)
	}
	if st.Mode().IsRegular() || st.IsDir() {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("file: %w", err)
		}
		return f, nil
	}
	f, err := Interruptible(x.ctx, func() (*os.File, error) { return os.Open(name) }, func(f *os.File) {
		if f != nil {
			f.Close()
		}
	})
	if abandoned(x.ctx, err) {
		// A FIFO's blocked open is released by opening its write side
		// without blocking; the late open is then closed.
		if st.Mode()&fs.ModeNamedPipe != 0 {
			if fd, err := syscall.Open(name, syscall.O_WRONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0); err == nil {
				syscall.Close(fd)
			}
		}
		return nil, x.ctxErr("file", "open "+name)
	}
	if err != nil {
		return nil, fmt.Errorf("file: %w", err)
	}
	return f, nil
}

// readAll is io.ReadAll bounded by max bytes (an error past it).
func readAll(r io.Reader, max int64, what string) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, &LimitError{Protocol: "mailto", Step: what, Limit: "message size", Value: fmt.Sprintf("%d bytes", max)}
	}
	return b, nil
}
