package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/hostile"
)

// Issue 34, finding 2: a Prospero server answering GET-OBJECT-INFO with
// ACCESS-METHOD GOPHER naming 127.0.0.1 made get write its selector into
// a local service (a Redis on 6379 in the report). A server at a public
// address (hostile.PublicDial) may no longer steer get to loopback: the
// refusal names the rule and the flag, exit 1, nothing reaches the
// service; --allow-private-follow follows it. The same for an HTTP
// redirect under -L.
func TestGetFollowRule(t *testing.T) {
	var mu sync.Mutex
	var got bytes.Buffer
	svc := serveLoopback(t, func(c net.Conn) {
		b := make([]byte, 4096)
		n, _ := io.ReadAtLeast(c, b, 7) // enough for the selector or request line
		mu.Lock()
		got.Write(b[:n])
		mu.Unlock()
	})
	sh, sp, _ := net.SplitHostPort(svc)
	d := &hostile.ProsperoDirectory{Size: 1250, Window: 16, Answer: func(req string) string {
		if strings.Contains(req, "\nDIRECTORY ") {
			return "FAILURE NOT-A-DIRECTORY\n"
		}
		return "ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE GOPHER INTERNET-D " + sh + "(" + sp + ") ASCII 0SET_x_y\n"
	}}
	pros := hostile.ServeUDP(t, d.Handle)
	redir := serveLoopback(t, func(c net.Conn) {
		c.Read(make([]byte, 1))
		fmt.Fprintf(c, "HTTP/1.0 302 Found\r\nLocation: http://%s/SET_x_y\r\nContent-Length: 0\r\n\r\n", svc)
	})
	received := func() string { mu.Lock(); defer mu.Unlock(); return got.String() }
	for _, args := range [][]string{
		{"get", "--timeout", "1s", "prospero://" + hostile.Public(pros.Addr) + "//f"},
		{"get", "--timeout", "1s", "-L", "http://" + hostile.Public(redir) + "/"},
	} {
		pd := &hostile.PublicDial{}
		var out, errOut bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }, dial: pd.Dial}
		code := run(e, args)
		if code != exitInvalid || !strings.Contains(errOut.String(), "not followed: the server ("+hostile.PublicHost+", a public address) points to 127.0.0.1") ||
			!strings.Contains(errOut.String(), "--allow-private-follow") || received() != "" {
			t.Errorf("%q: exit %d, %q; the service got %q", args, code, errOut.String(), received())
		}
		// The flag: followed, the service reached.
		errOut.Reset()
		e.dial = (&hostile.PublicDial{}).Dial
		run(e, append([]string{args[0], "--allow-private-follow"}, args[1:]...))
		if !strings.Contains(received(), "SET_x_y") {
			t.Errorf("%q --allow-private-follow: the service got %q; %q", args, received(), errOut.String())
		}
		mu.Lock()
		got.Reset()
		mu.Unlock()
	}
}

// serveLoopback runs handle for each connection to a loopback listener
// and returns its address.
func serveLoopback(t *testing.T, handle func(net.Conn)) string {
	return hostile.Serve(t, handle).Addr
}
