package access

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/fakeservers"
	"github.com/urlkit/urlkit/scheme"
)

// BenchmarkFTPFetch is one 2 KB file fetched over FTP from the fake
// server: on a new connection each time (urlkit get's path: greeting,
// USER, PASS, CWD, TYPE, EPSV, RETR, QUIT), on a kept session
// (Options.FTPSessions, the gateway's path: TYPE and CWD skipped), and a
// name that is a directory (RETR refused with 550, CWD, then NLST). It
// measures the client's side of ftpSession; the fake server shares the
// process, so its cost is in the figures too, the same on both sides of a
// comparison.
func BenchmarkFTPFetch(b *testing.B) {
	doc := bytes.Repeat([]byte("0123456789abcdef\n"), 121)[:2048]
	fs, err := fakeservers.FTP(map[string][]byte{"/pub/d": doc, "/pub/sub/a.txt": doc})
	if err != nil {
		b.Fatal(err)
	}
	defer fs.Close()
	for _, c := range []struct {
		name, path string
		keep       bool
	}{{"new", "/pub/d", false}, {"kept", "/pub/d", true}, {"directory", "/pub/sub", false}} {
		u := urlkit.MustParse("ftp://" + fs.Addr() + c.path)
		b.Run(c.name, func(b *testing.B) {
			opts := &Options{}
			if c.keep {
				opts.FTPSessions = &FTPSessions{}
				defer opts.FTPSessions.Close()
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				p, _ := scheme.PlanOf(u, scheme.Config{})
				r, err := Execute(context.Background(), p, opts)
				if err != nil {
					b.Fatal(err)
				}
				_, err = io.Copy(io.Discard, r)
				r.Close()
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
