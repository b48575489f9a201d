package access

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// FileRequest names a local file as a file URL does (RFC 1738 section
// 3.10): the host, which must be this machine, and the already-decoded path.
type FileRequest struct {
	// Host is the URL's host: only "" and "localhost" (any case) mean
	// this machine.
	Host string
	// Path is the local path, e.g. "/etc/motd".
	Path string
}

// NonLocalHostError reports a file URL naming another machine. RFC 1738
// section 3.10 gives no protocol for reaching another host's files, so
// they are refused.
type NonLocalHostError struct {
	Host string
}

// Error formats the failure for a person.
func (e *NonLocalHostError) Error() string {
	return fmt.Sprintf("file: host %q is not this machine (only \"\" and \"localhost\" are)", e.Host)
}

// IsLocalHost reports whether a file URL's host names this machine.
func IsLocalHost(host string) bool {
	return host == "" || strings.EqualFold(host, "localhost")
}

// OpenFile opens the file, or for a directory returns a listing: the
// entries' names sorted, one a line, directories marked with a trailing "/".
func OpenFile(ctx context.Context, req *FileRequest, opts *Options) (io.ReadCloser, error) {
	if !IsLocalHost(req.Host) {
		return nil, &NonLocalHostError{Host: req.Host}
	}
	if req.Path == "" {
		return nil, fmt.Errorf("file: empty path")
	}
	if strings.IndexByte(req.Path, 0) >= 0 {
		return nil, &UnsafeArgumentError{Protocol: "file", Field: "Path", Value: req.Path}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := os.Open(req.Path)
	if err != nil {
		return nil, fmt.Errorf("file: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("file: %w", err)
	}
	if !st.IsDir() {
		stop := watch(ctx, f)
		return newBody(ctx, f, opts, nil, func() error { stop(); return f.Close() }), nil
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("file: listing %s: %w", req.Path, err)
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
	var b bytes.Buffer
	for _, n := range names {
		b.WriteString(n)
		b.WriteByte('\n')
	}
	return newBody(ctx, &b, opts, nil, nil), nil
}
