package access

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/scheme"
)

// Issue 21 item 8: the length an FTP 150 reply announces ("(N bytes)") is
// checked when the stream ends: fewer bytes is the stream's error, never
// passed off as complete; more is delivered whole and reported to
// Options.Warn.
func TestAnnouncedSize(t *testing.T) {
	file := bytes.Repeat([]byte("0123456789"), 10000) // 100,000 bytes
	for _, c := range []struct {
		name      string
		announce  int64
		wantErr   bool
		wantWarn  bool
		keptAfter int
	}{
		{"as announced", 0, false, false, 1},
		{"more than announced", 10, false, true, 1},
		{"fewer than announced", 200000, true, false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := hostile.Serve(t, (&hostile.FTP{Files: map[string][]byte{"f.bin": file}, AnnounceSize: c.announce}).Serve)
			u, _ := urlkit.Parse("ftp://" + srv.Addr + "/f.bin")
			p, err := scheme.PlanOf(u, scheme.Config{})
			if err != nil {
				t.Fatal(err)
			}
			var warns []error
			pool := &FTPSessions{}
			defer pool.Close()
			r, err := Execute(context.Background(), p, &Options{Warn: func(err error) { warns = append(warns, err) }, FTPSessions: pool})
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(r)
			r.Close()
			var se *SizeError
			if c.wantErr {
				if !errors.As(err, &se) || !errors.Is(err, io.ErrUnexpectedEOF) || se.Announced != 200000 || se.Received != 100000 ||
					!strings.Contains(err.Error(), "announced 200000 bytes and sent 100000: the transfer is incomplete") {
					t.Errorf("error %v, want the short transfer's SizeError", err)
				}
			} else if err != nil || !bytes.Equal(got, file) {
				t.Errorf("%d bytes, %v", len(got), err)
			}
			if c.wantWarn != (len(warns) == 1) {
				t.Errorf("warnings %v", warns)
			} else if c.wantWarn && (!errors.As(warns[0], &se) || se.Announced != 10 || se.Received != 100000) {
				t.Errorf("warning %v", warns[0])
			}
			if n := pool.Len(); n != c.keptAfter {
				t.Errorf("%d sessions kept, want %d (a short transfer's session is not)", n, c.keptAfter)
			}
		})
	}
}
