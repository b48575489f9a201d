package access

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/internal/testkit/testio"
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

// Issue 21 item 5: the pool's caps (per key, per server, in all) close the
// oldest idle session to make room, with QUIT; the reaper closes every
// session IdleTimeout after it was put back, with QUIT, so that a burst
// leaves no connection open.
func TestFTPSessionsCapsAndReaper(t *testing.T) {
	files := map[string][]byte{"f": []byte("data")}
	fa, fb := &hostile.FTP{Files: files}, &hostile.FTP{Files: files}
	a, b := hostile.Serve(t, fa.Serve), hostile.Serve(t, fb.Serve)
	quits := func() int64 { return fa.Quits.Load() + fb.Quits.Load() }
	pool := &FTPSessions{MaxIdle: 2, MaxIdlePerHost: 3, MaxIdleTotal: 5, IdleTimeout: 1500 * time.Millisecond}
	defer pool.Close()
	opts := &Options{FTPSessions: pool}
	// Ten directories on a: at most 3 kept for that server.
	for i := 0; i < 10; i++ {
		if got, err := fetchAll(t, fmt.Sprintf("ftp://%s/d%d/f", a.Addr, i), opts); err != nil || got != "data" {
			t.Fatalf("a/d%d: %q %v", i, got, err)
		}
	}
	if n := pool.Len(); n != 3 {
		t.Errorf("%d sessions kept after 10 directories of one server, want 3 (MaxIdlePerHost)", n)
	}
	// Four directories on b: 5 in all.
	for i := 0; i < 4; i++ {
		if _, err := fetchAll(t, fmt.Sprintf("ftp://%s/d%d/f", b.Addr, i), opts); err != nil {
			t.Fatal(err)
		}
	}
	if n := pool.Len(); n != 5 {
		t.Errorf("%d sessions kept in all, want 5 (MaxIdleTotal)", n)
	}
	// Each session that gave way was sent QUIT and closed: 14 logins, 9
	// gone, 5 kept.
	if !testio.Eventually(func() bool { return a.Open()+b.Open() == 5 }) {
		t.Fatalf("%d sessions open upstream, want the 5 kept", a.Open()+b.Open())
	}
	if q := quits(); q != 9 {
		t.Errorf("%d QUITs for 9 evicted sessions", q)
	}
	// The reaper: nothing idle, nothing open, after the idle timeout.
	if !testio.Eventually(func() bool { return pool.Len() == 0 && a.Open()+b.Open() == 0 }) {
		t.Fatalf("after the idle timeout: %d kept, %d open upstream", pool.Len(), a.Open()+b.Open())
	}
	if q := quits(); q != 14 {
		t.Errorf("%d QUITs in all, want 14", q)
	}
	// A session put back after Close is closed at once.
	pool.Close()
	if _, err := fetchAll(t, "ftp://"+a.Addr+"/x/f", opts); err != nil {
		t.Fatal(err)
	}
	if !testio.Eventually(func() bool { return pool.Len() == 0 && a.Open() == 0 }) {
		t.Fatalf("a session given back after Close: %d kept, %d open upstream", pool.Len(), a.Open())
	}
}
