package access

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/fakeservers"
	"github.com/urlkit/urlkit/scheme"
)

func fetchAll(t *testing.T, raw string, opts *Options) (string, error) {
	t.Helper()
	u, err := urlkit.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	p, err := scheme.PlanOf(u, scheme.Config{Email: "pool@test"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Execute(context.Background(), p, opts)
	if err != nil {
		return "", err
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	return string(b), err
}

// FTPSessions: a session is reused only in the state it is known to be in.
func TestFTPSessions(t *testing.T) {
	srv, err := fakeservers.FTP(map[string][]byte{"/a/f.txt": []byte("in a\n"), "/b/f.txt": []byte("in b\n"), "/a/g.bin": {1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	pool := &FTPSessions{}
	defer pool.Close()
	var trace strings.Builder
	opts := &Options{FTPSessions: pool, Trace: &trace}
	base := "ftp://" + srv.Addr()
	for i := 0; i < 3; i++ {
		if got, err := fetchAll(t, base+"/a/f.txt", opts); err != nil || got != "in a\n" {
			t.Fatalf("fetch %d: %q %v", i, got, err)
		}
	}
	if n := srv.Conns.Load(); n != 1 {
		t.Errorf("3 fetches of one file used %d control connections, want 1", n)
	}
	// The same directory, another type: TYPE I is sent on the kept session.
	trace.Reset()
	if got, err := fetchAll(t, base+"/a/g.bin", opts); err != nil || got != "\x01\x02" {
		t.Fatalf("g.bin: %q %v", got, err)
	}
	if tr := trace.String(); !strings.Contains(tr, "> TYPE I") || strings.Contains(tr, "> CWD") || strings.Contains(tr, "> USER") {
		t.Errorf("kept session trace:\n%s", tr)
	}
	// Another directory, another login: never the kept session.
	if got, err := fetchAll(t, base+"/b/f.txt", opts); err != nil || got != "in b\n" {
		t.Fatalf("b: %q %v", got, err)
	}
	if got, err := fetchAll(t, "ftp://joe:pw@"+srv.Addr()+"/a/f.txt", opts); err != nil || got != "in a\n" {
		t.Fatalf("joe: %q %v", got, err)
	}
	if n := srv.Conns.Load(); n != 3 {
		t.Errorf("%d control connections, want 3 (a, b, joe's a)", n)
	}
	// A refused RETR is an error and the session is not kept.
	if _, err := fetchAll(t, base+"/a/missing", opts); err == nil {
		t.Error("missing file fetched")
	} else {
		var re *ReplyError
		if !errors.As(err, &re) || re.Code != 550 {
			t.Errorf("missing file: %v", err)
		}
	}
	// A kept session the server has closed is noticed and replaced.
	srv.CloseConns()
	time.Sleep(20 * time.Millisecond)
	before := srv.Conns.Load()
	if got, err := fetchAll(t, base+"/a/f.txt", opts); err != nil || got != "in a\n" {
		t.Fatalf("after the server closed: %q %v", got, err)
	}
	if srv.Conns.Load() != before+1 {
		t.Error("no new connection after the server closed the kept one")
	}
	// Stale sessions are not used.
	pool.IdleTimeout = time.Nanosecond
	before = srv.Conns.Load()
	if _, err := fetchAll(t, base+"/a/f.txt", opts); err != nil {
		t.Fatal(err)
	}
	if srv.Conns.Load() != before+1 {
		t.Error("an expired session was reused")
	}
}

// Without FTPSessions nothing is kept: get's behaviour, QUIT each time.
func TestFTPNoSessions(t *testing.T) {
	srv, err := fakeservers.FTP(map[string][]byte{"/f": []byte("x")})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for i := 0; i < 2; i++ {
		if _, err := fetchAll(t, "ftp://"+srv.Addr()+"/f", nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.Conns.Load(); n != 2 {
		t.Errorf("%d connections, want 2", n)
	}
}
