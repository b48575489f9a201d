package access

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/testservers"
	"github.com/urlkit/urlkit/scheme"
)

// planFor parses in and returns its plan under cfg.
func planFor(t testing.TB, in string, cfg scheme.Config) scheme.Plan {
	t.Helper()
	return planParsed(t, urlkit.Parse, in, cfg)
}

// planParsed is planFor with in read by parse (urlkit.ParseExtended for
// an IPv6 host).
func planParsed(t testing.TB, parse func(string) (urlkit.URL, error), in string, cfg scheme.Config) scheme.Plan {
	t.Helper()
	u, err := parse(in)
	if err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	p, err := scheme.PlanOf(u, cfg)
	if err != nil {
		t.Fatalf("%s: plan: %v", in, err)
	}
	return p
}

// get executes the plan of in and reads the whole resource.
func get(t testing.TB, in string, cfg scheme.Config, opts *Options) ([]byte, *Resource, error) {
	t.Helper()
	r, err := Execute(context.Background(), planFor(t, in, cfg), opts)
	if err != nil {
		return nil, nil, err
	}
	b, err := io.ReadAll(r)
	if cerr := r.Close(); err == nil {
		err = cerr
	}
	return b, r, err
}

// mustGet is get that fails the test on error.
func mustGet(t testing.TB, in string, cfg scheme.Config, opts *Options) []byte {
	t.Helper()
	b, _, err := get(t, in, cfg, opts)
	if err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	return b
}

func realServer(t *testing.T, addrVar string) map[string]string {
	t.Helper()
	return testservers.Require(t, addrVar)
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wireProxy is a loopback TCP proxy in front of a real daemon that records
// every byte the client sends to it: the commands the server received.
type wireProxy struct {
	addr string
	mu   sync.Mutex
	sent bytes.Buffer
	wg   sync.WaitGroup
}

func startProxy(t *testing.T, target string) *wireProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &wireProxy{addr: ln.Addr().String()}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.wg.Add(2)
			go func() {
				defer p.wg.Done()
				buf := make([]byte, 4096)
				for {
					n, err := c.Read(buf)
					if n > 0 {
						p.mu.Lock()
						p.sent.Write(buf[:n])
						p.mu.Unlock()
						s.Write(buf[:n])
					}
					if err != nil {
						s.(*net.TCPConn).CloseWrite()
						return
					}
				}
			}()
			go func() {
				defer p.wg.Done()
				io.Copy(c, s)
				c.Close()
				s.Close()
			}()
		}
	}()
	t.Cleanup(func() { ln.Close(); p.wg.Wait() })
	return p
}

// lines returns what the client sent, split into CRLF-ended lines.
func (p *wireProxy) lines() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := strings.TrimSuffix(p.sent.String(), "\r\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\r\n")
}

func (p *wireProxy) raw() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sent.String()
}

// silentListener accepts connections and never answers.
func silentListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	return ln.Addr().String()
}

// commandLines returns the lines of an FTP or NNTP plan's commands, each
// exactly as sent (a password in clear; the fallback of a command left
// out).
func commandLines(p scheme.Plan) []string {
	var out []string
	switch p := p.(type) {
	case *scheme.FTPPlan:
		for _, c := range p.Commands {
			out = append(out, c.Line())
		}
	case *scheme.NNTPPlan:
		for _, c := range p.Commands {
			out = append(out, c.Line())
		}
	}
	return out
}
