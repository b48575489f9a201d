package gateway

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/cputime"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
)

// BenchmarkRelayGopher holds the gateway's cost of relaying a 2 KB gopher
// document (issue 36 item 6), the way bench/gateway measures it: clients
// asking in the proxy form over keep-alive connections, the server as
// urlkit serve runs it (HTTPServer on Listener), the upstream an
// in-process gopher server; every side's work is in this process. Its
// sub-benchmarks are the direct fetch (access, with the gateway's upstream
// settings), the gateway (and the gateway logging each request to a
// file), the HTTP exchange alone (the same server
// answering 2 KB from memory), the two legs (the direct fetch, then that
// exchange, by one client: a gateway doing nothing between them), and,
// for reference, the same exchange with
// a responder that does nothing but read the header's lines and write a
// fixed answer (rawResponder: what net/http's server costs beyond the
// system calls), at 1 and 8 clients. Each reports, besides
// ns/op and the allocations, the process's CPU time per request
// (cpu-µs/op), which a loaded machine stretches much less than the wall
// time: the gateway's cpu-µs/op against direct's is the ratio to watch.
// Run it with
//
//	go test ./gateway -run X -bench Relay -benchtime 4000x -count 3
func BenchmarkRelayGopher(b *testing.B) {
	doc := benchDoc()
	gs, _ := fakeservers.Gopher(map[string][]byte{"/d": doc})
	defer gs.Close()
	target := "gopher://" + gs.Addr() + "/9/d"

	g := New(Config{MaxUpstream: 256, Policy: Policy{Allow: []string{gs.Addr()}}})
	defer g.Close()
	gwAddr := serveOn(b, g, g.HTTPServer())
	// The same gateway writing its Common Log Format line of each request
	// to a file, as urlkit serve --log does (without --log, to standard
	// error; --quiet, none).
	logFile, err := os.Create(filepath.Join(b.TempDir(), "access.log"))
	if err != nil {
		b.Fatal(err)
	}
	defer logFile.Close()
	gl := New(Config{MaxUpstream: 256, Policy: Policy{Allow: []string{gs.Addr()}}, Log: logFile})
	defer gl.Close()
	logAddr := serveOn(b, gl, gl.HTTPServer())
	static := g.HTTPServer()
	static.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "application/octet-stream")
		h.Set("Content-Length", "2048")
		w.Write(doc)
	})
	staticAddr := serveOn(b, g, static)
	rawAddr := rawResponder(b, doc)

	u, _ := urlkit.Parse(target)
	direct := func(c *relayClient) error { return c.check(fetchDirect(u, &c.body), doc) }
	sides := []struct {
		name string
		do   func(c *relayClient) error
	}{
		{"direct", direct},
		{"gateway", func(c *relayClient) error { return c.get(gwAddr, target, doc) }},
		{"gateway-log", func(c *relayClient) error { return c.get(logAddr, target, doc) }},
		{"http", func(c *relayClient) error { return c.get(staticAddr, target, doc) }},
		// The direct fetch, then the HTTP exchange, by the same client:
		// what a gateway doing nothing between its two legs would cost.
		{"two-legs", func(c *relayClient) error {
			if err := direct(c); err != nil {
				return err
			}
			return c.get(staticAddr, target, doc)
		}},
		{"raw", func(c *relayClient) error { return c.get(rawAddr, target, doc) }},
	}
	for _, conc := range []int{1, 8} {
		for _, s := range sides {
			b.Run(fmt.Sprintf("%s/c=%d", s.name, conc), func(b *testing.B) {
				relayClients(b, conc, s.do)
			})
		}
	}
}

// serveOn serves srv on a loopback listener behind g's Listener, as
// urlkit serve does, until the benchmark ends.
func serveOn(b *testing.B, g *Gateway, srv *http.Server) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go srv.Serve(g.Listener(ln))
	b.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// rawResponder answers every request on a loopback listener with doc,
// reading nothing but the lines of each header: no server, only the
// system calls of an exchange, for reference beside net/http's.
func rawResponder(b *testing.B, doc []byte) string {
	resp := append([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: "+strconv.Itoa(len(doc))+"\r\n\r\n"), doc...)
	s, err := fakeservers.Func(func(c net.Conn) {
		br := bufio.NewReader(c)
		for {
			for {
				line, err := br.ReadSlice('\n')
				if err != nil {
					return
				}
				if len(bytes.TrimRight(line, "\r\n")) == 0 {
					break
				}
			}
			if _, err := c.Write(resp); err != nil {
				return
			}
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	return s.Addr()
}

// relayClients makes b.N requests with do, shared among conc clients, and
// reports the process's CPU time per request.
func relayClients(b *testing.B, conc int, do func(*relayClient) error) {
	var (
		wg   sync.WaitGroup
		errs = make(chan error, conc)
	)
	b.ReportAllocs()
	runtime.GC()
	b.ResetTimer()
	cpu0 := cputime.Now()
	for i := 0; i < conc; i++ {
		n := b.N / conc
		if i < b.N%conc {
			n++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &relayClient{}
			defer c.close()
			for k := 0; k < n; k++ {
				if err := do(c); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	cpu := cputime.Now() - cpu0
	b.StopTimer()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
}

// relayClient is one client: a keep-alive connection to a proxy asked in
// the proxy form, and the body of the last answer.
type relayClient struct {
	conn net.Conn
	br   *bufio.Reader
	body bytes.Buffer
}

func (c *relayClient) close() {
	if c.conn != nil {
		c.conn.Close()
	}
}

func (c *relayClient) get(addr, target string, want []byte) error {
	if c.conn == nil {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			return err
		}
		c.conn, c.br = conn, bufio.NewReader(conn)
	}
	if _, err := io.WriteString(c.conn, "GET "+target+" HTTP/1.1\r\nHost: "+addr+"\r\n\r\n"); err != nil {
		return err
	}
	resp, err := http.ReadResponse(c.br, nil)
	if err != nil {
		return err
	}
	c.body.Reset()
	_, err = c.body.ReadFrom(resp.Body)
	resp.Body.Close()
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("status %s", resp.Status)
	}
	return c.check(err, want)
}

func (c *relayClient) check(err error, want []byte) error {
	if err == nil && !bytes.Equal(c.body.Bytes(), want) {
		err = fmt.Errorf("body differs: %d bytes", c.body.Len())
	}
	return err
}
