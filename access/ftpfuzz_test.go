package access

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlkit/urlkit/scheme"
)

// FuzzFTPSession gives the FTP client a server whose every reply is the
// fuzzer's: the first line greets, and each command, or a pause while the
// client waits for more of a reply, gets the next line; the data
// connections send the rest of the input. Whatever the replies, the
// session ends within its time, never panics, and sends only the lines its
// plan names (the plan's commands and Directory commands, each with its
// Else verbs, and QUIT): a server cannot steer the state machine into a
// command the plan does not hold (RFC 1738 3.2: the client sends what the
// URL asks; RFC 959 4.2 for the replies' form).
func FuzzFTPSession(f *testing.F) {
	for _, s := range []string{
		"\x00220 hi\n331 pw\n230 in\n200 ok\n229 (|||2121|)\n150 go (7 bytes)\n226 done\n221 bye\n\npayload",
		"\x01220 hi\n331 pw\n230 in\n250 cwd\n200 ok\n229 (|||2121|)\n550 no\n250 dir\n229 (|||2121|)\n150 go\n226 ok\n221 bye\na.txt\r\n",
		"\x02220-multi\n 220 more\n220 end\n230 in\n211-Features:\n MLST type*;\n211 End\n500 no\n227 (127,0,0,1,8,73)\n502 no\n229 (|||1|)\n",
		"\x03120 wait\n220 hi\n331 pw\n230 in\n213 12\n213 20250101000000\n221 bye\n",
		"\x04220 hi\n230 no password\n200 ok\n229 (|||2121|)\n250 done first\n221 bye\n\nx",
		"\x00220 hi\n332 account\n221 bye",
		"\x04220 hi\n331 pw\n530 no\n221 bye",
		"\x01421 busy\n221 bye",
		"\x03220 hi\n331 pw\n230 in\n250 cwd\n200 ok\n550 no\n550 not a dir\n221 bye",
		"\x02hello\n",
	} {
		f.Add([]byte(s))
	}
	plans := []struct {
		url string
		cfg scheme.Config
	}{
		{"ftp://h/f;type=i", scheme.Config{}},
		{"ftp://h/pub/sub", scheme.Config{}},
		{"ftp://h/pub;type=d", scheme.Config{FTPListDetails: true}},
		{"ftp://h/pub/f.txt", scheme.Config{Head: true}},
		{"ftp://u@h/f", scheme.Config{}},
	}
	for i, p := range plans {
		plans[i].url = strings.Replace(p.url, "h/", "127.0.0.1/", 1)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 || len(in) > 4096 {
			return
		}
		pc := plans[int(in[0])%len(plans)]
		p := planFor(t, pc.url, pc.cfg).(*scheme.FTPPlan)
		allowed := map[string]bool{"QUIT": true, "PASS typed": true}
		for _, c := range append(append([]scheme.FTPCommand{}, p.Commands...), p.Directory...) {
			allowed[c.Line()] = true
			for _, v := range append([]scheme.FTPVerb{c.Feature}, c.Else[:]...) {
				if v != 0 {
					c.Verb = v
					allowed[c.Line()] = true
				}
			}
		}
		control, data, _ := bytes.Cut(in[1:], []byte("\n\n"))
		srv := &scriptServer{lines: strings.Split(string(control), "\n"), data: data}
		opts := &Options{Dial: srv.dial, ReadTimeout: 100 * time.Millisecond,
			PasswordPrompt: func(context.Context) (string, error) { return "typed", nil }}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		start := time.Now()
		r, err := Execute(ctx, p, opts)
		if err == nil {
			io.Copy(io.Discard, io.LimitReader(r, 1<<20))
			r.Close()
		}
		if d := time.Since(start); d > 2500*time.Millisecond {
			t.Errorf("the session took %v", d)
		}
		srv.wait()
		for _, l := range srv.received() {
			if !allowed[l] {
				t.Errorf("the client sent %q, which plan %q does not hold (replies %q, error %v)", l, redactedLines(p), control, err)
			}
		}
		if err != nil && errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("the session ran into the context's deadline: %v", err)
		}
	})
}

// scriptServer answers over net.Pipe: lines is the control connection's
// replies, one per command or pause; data is what each data connection
// sends.
type scriptServer struct {
	lines []string
	data  []byte
	mu    sync.Mutex
	recv  []string
	wg    sync.WaitGroup
}

func (s *scriptServer) received() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recv
}

func (s *scriptServer) wait() { s.wg.Wait() }

func (s *scriptServer) dial(_ context.Context, _, addr string) (net.Conn, error) {
	cli, srv := net.Pipe()
	s.wg.Add(1)
	if strings.HasSuffix(addr, ":21") {
		go s.control(srv)
	} else {
		go func() {
			defer s.wg.Done()
			srv.SetDeadline(time.Now().Add(time.Second))
			srv.Write(s.data)
			srv.Close()
		}()
	}
	return pipeAddr{cli}, nil
}

func (s *scriptServer) control(c net.Conn) {
	defer s.wg.Done()
	defer c.Close()
	lines := s.lines
	next := func() bool {
		if len(lines) == 0 {
			return false
		}
		c.SetWriteDeadline(time.Now().Add(200 * time.Millisecond))
		_, err := io.WriteString(c, lines[0]+"\r\n")
		lines = lines[1:]
		return err == nil
	}
	if !next() {
		return
	}
	br := bufio.NewReader(c)
	for {
		c.SetReadDeadline(time.Now().Add(5 * time.Millisecond))
		l, err := br.ReadString('\n')
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() && l == "" {
			// The client waits for more of a reply, or reads the data.
			if !next() {
				return
			}
			continue
		}
		if err != nil {
			return
		}
		s.mu.Lock()
		s.recv = append(s.recv, strings.TrimRight(l, "\r\n"))
		s.mu.Unlock()
		if !next() {
			return
		}
	}
}
