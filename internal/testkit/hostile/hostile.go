// Package hostile runs small misbehaving servers on loopback for tests:
// FTP, NNTP and SMTP servers whose replies never end or never break a
// line, gopher servers whose menus never end or whose text puts a "." just
// past a read buffer, HTTP servers that drip, redirect to other schemes or
// send compressed bombs. Each server misbehaves one way, so that a test
// can prove that one bound holds. Only 127.0.0.1 is ever listened on.
package hostile

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Server is a loopback listener that runs a behaviour on each connection
// and records what clients send.
type Server struct {
	loop
	// accepted counts the connections accepted, open those not yet
	// closed.
	accepted, open atomic.Int64
	mu             sync.Mutex
	recv           bytes.Buffer
}

// loop is what the TCP and the UDP servers share: the address, the
// goroutines Close waits for, and done, closed when the server stops.
type loop struct {
	Addr string
	sock io.Closer // the listener or the packet socket
	wg   sync.WaitGroup
	done chan struct{}
}

// run starts serve, the server's loop over sock, in a goroutine.
func (l *loop) run(addr string, sock io.Closer, serve func()) {
	l.Addr, l.sock, l.done = addr, sock, make(chan struct{})
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		serve()
	}()
}

// Close stops the server and waits for its goroutines.
func (l *loop) Close() {
	close(l.done)
	l.sock.Close()
	l.wg.Wait()
}

// forTest returns s, stopped at the end of the test, or fails the test
// with err.
func forTest[S interface{ Close() }](t testing.TB, s S, err error) S {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// Start listens on 127.0.0.1 (port 0: any free port) and serves each
// connection with handle. Close stops it.
func Start(port int, handle func(c net.Conn)) (*Server, error) {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return nil, err
	}
	s := &Server{}
	s.run(ln.Addr().String(), ln, func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.accepted.Add(1)
			s.open.Add(1)
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				defer s.open.Add(-1)
				defer c.Close()
				stop := make(chan struct{})
				go func() {
					select {
					case <-s.done:
						c.Close()
					case <-stop:
					}
				}()
				handle(&recorder{Conn: c, s: s})
				close(stop)
			}()
		}
	})
	return s, nil
}

// Accepted returns the number of connections accepted so far: a test that
// a client was refused before connecting expects it to stay 0.
func (s *Server) Accepted() int64 { return s.accepted.Load() }

// Open returns the number of connections accepted and not yet closed (a
// connection counts as closed once its handler has returned; handlers
// that read until the client closes return when it does).
func (s *Server) Open() int64 { return s.open.Load() }

// Received returns every byte clients have sent so far.
func (s *Server) Received() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recv.String()
}

type recorder struct {
	net.Conn
	s *Server
}

func (r *recorder) Read(p []byte) (int, error) {
	n, err := r.Conn.Read(p)
	r.s.mu.Lock()
	r.s.recv.Write(p[:n])
	r.s.mu.Unlock()
	return n, err
}

// readLine reads one CRLF- or LF-ended line from c, byte by byte (so that
// nothing after it is consumed), at most 4096 bytes.
func readLine(c net.Conn) (string, error) {
	var b []byte
	one := make([]byte, 1)
	for len(b) < 4096 {
		if _, err := c.Read(one); err != nil {
			return string(b), err
		}
		if one[0] == '\n' {
			return strings.TrimSuffix(string(b), "\r"), nil
		}
		b = append(b, one[0])
	}
	return string(b), nil
}

// endless writes chunk to c again and again until the client goes away or
// limit bytes (when positive) are written; it returns the bytes written.
func endless(c io.Writer, prefix string, chunk []byte, limit int64) int64 {
	n, _ := io.WriteString(c, prefix)
	total := int64(n)
	for limit <= 0 || total < limit {
		k, err := c.Write(chunk)
		total += int64(k)
		if err != nil {
			break
		}
	}
	return total
}

// HugeMultilineReply greets with an endless multi-line reply: "code-" and
// then one "code-filler" line after another (FTP, SMTP; RFC 959 4.2).
func HugeMultilineReply(code string) func(net.Conn) {
	return func(c net.Conn) {
		line := []byte(code + "-" + strings.Repeat("x", 70) + "\r\n")
		chunk := bytes.Repeat(line, 512)
		endless(c, code+"-hello\r\n", chunk, 0)
	}
}

// EndlessLine greets with "code " and a line that never ends (FTP, NNTP,
// SMTP).
func EndlessLine(code string) func(net.Conn) {
	return func(c net.Conn) {
		endless(c, code+" ", bytes.Repeat([]byte("y"), 32<<10), 0)
	}
}

// HugeReplyAfter answers the commands of script (one reply a line, sent in
// order as commands arrive: the first is the greeting, sent unasked), then
// answers the next command with an endless multi-line reply (code-...).
// It reads an NNTP server's conversation as well as FTP's or SMTP's.
func HugeReplyAfter(script []string, code string) func(net.Conn) {
	return func(c net.Conn) {
		for i, r := range script {
			if i > 0 {
				if _, err := readLine(c); err != nil {
					return
				}
			}
			fmt.Fprintf(c, "%s\r\n", r)
		}
		if _, err := readLine(c); err != nil {
			return
		}
		HugeMultilineReply(code)(c)
	}
}

// nntpSession answers MODE READER and GROUP, and ARTICLE with article(c),
// which returns false to end the session.
func nntpSession(c net.Conn, article func(c net.Conn) bool) {
	fmt.Fprint(c, "200 hostile news\r\n")
	for {
		l, err := readLine(c)
		if err != nil {
			return
		}
		switch {
		case strings.HasPrefix(l, "MODE"):
			fmt.Fprint(c, "200 ok\r\n")
		case strings.HasPrefix(l, "GROUP"):
			fmt.Fprint(c, "211 1 1 1 g\r\n")
		case strings.HasPrefix(l, "ARTICLE"):
			if !article(c) {
				return
			}
		case strings.HasPrefix(l, "QUIT"):
			fmt.Fprint(c, "205 bye\r\n")
			return
		default:
			fmt.Fprint(c, "500 what\r\n")
		}
	}
}

// NNTPEndlessArticle answers MODE READER, GROUP and ARTICLE, then sends an
// article body without end, lines of 100 bytes, never the "." line.
func NNTPEndlessArticle(c net.Conn) {
	nntpSession(c, func(c net.Conn) bool {
		endless(c, "220 1 <a@b> article\r\n", bytes.Repeat([]byte(strings.Repeat("z", 98)+"\r\n"), 512), 0)
		return false
	})
}

// NNTPArticle answers MODE READER, GROUP and ARTICLE with body, which must
// be dot-stuffed already and end with ".\r\n" if it is to be complete;
// without that ending the connection is closed after the body.
func NNTPArticle(body string) func(net.Conn) {
	return func(c net.Conn) {
		nntpSession(c, func(c net.Conn) bool {
			io.WriteString(c, "220 1 <a@b> article\r\n"+body)
			return strings.HasSuffix(body, "\r\n.\r\n")
		})
	}
}

// Serve starts a server for a test, any free port, closed when the test
// ends.
func Serve(t testing.TB, handle func(net.Conn)) *Server {
	t.Helper()
	s, err := Start(0, handle)
	return forTest(t, s, err)
}

// GopherReply reads the request line and sends reply, then closes.
func GopherReply(reply string) func(net.Conn) {
	return func(c net.Conn) {
		if _, err := readLine(c); err != nil {
			return
		}
		io.WriteString(c, reply)
	}
}

// GopherEndlessMenu reads the request line and sends menu items, each a
// valid item of about 100 bytes, until limit bytes (when positive) or the
// client goes away; then the terminator.
func GopherEndlessMenu(limit int64) func(net.Conn) {
	return gopherMenu(limit, func(b *bytes.Buffer, i int) {
		fmt.Fprintf(b, "0Item %06d %s\t/item/%06d\t127.0.0.1\t70\r\n", i, strings.Repeat("m", 50), i)
	})
}

// GopherLongMenu reads the request line and sends menu items whose
// display strings are 16,000 bytes of markup characters (as long as a
// menu line may be, and each byte escaped in a page: the most page per
// byte), until limit bytes; then the terminator.
func GopherLongMenu(limit int64) func(net.Conn) {
	return gopherMenu(limit, func(b *bytes.Buffer, i int) {
		fmt.Fprintf(b, "0%s %06d\t/long/%06d\t127.0.0.1\t70\r\n", strings.Repeat("<&\"'>", 3200), i, i)
	})
}

// gopherMenu reads the request line and sends 64 KiB of the items item
// writes (item i in b) again and again, until limit bytes (when positive)
// or the client goes away; then the terminator.
func gopherMenu(limit int64, item func(b *bytes.Buffer, i int)) func(net.Conn) {
	var b bytes.Buffer
	for i := 0; b.Len() < 64<<10; i++ {
		item(&b, i)
	}
	return func(c net.Conn) {
		if _, err := readLine(c); err != nil {
			return
		}
		endless(c, "", b.Bytes(), limit)
		io.WriteString(c, ".\r\n")
	}
}

// GopherLongLines reads the request line and sends text whose lines are
// longer than a read buffer (4 KiB and 32 KiB pieces), with ".." placed
// at the start of pieces, each long line followed by a dot-stuffed line
// ("..stuffed") and by a line whose "." falls at the start of a 32 KiB
// piece without beginning a line; then the terminator and text after it.
// want is what a correct client delivers: every line, dots un-stuffed
// only at line starts, nothing after the terminator.
func GopherLongLines() (handler func(net.Conn), want string) {
	var sent, got strings.Builder
	for i, n := range []int{4095, 4096, 4097, 32767, 32768, 32769, 100000} {
		line := []byte(strings.Repeat("a", n))
		for k := 4096; k < n; k += 4096 {
			line[k-1] = '.'
			line[k] = '.'
		}
		fmt.Fprintf(&sent, "%s\r\n..stuffed %d\r\n", line, i)
		fmt.Fprintf(&got, "%s\r\n.stuffed %d\r\n", line, i)
		fmt.Fprintf(&sent, "%s.\r\n", strings.Repeat("b", 32<<10))
		fmt.Fprintf(&got, "%s.\r\n", strings.Repeat("b", 32<<10))
	}
	sent.WriteString(".\r\nafter the terminator\r\n")
	return GopherReply(sent.String()), got.String()
}

// Drip reads a request line, sends header, then one byte of body every
// interval until the client goes away.
func Drip(header string, interval time.Duration) func(net.Conn) {
	return func(c net.Conn) {
		if _, err := readLine(c); err != nil {
			return
		}
		io.WriteString(c, header)
		for {
			if _, err := c.Write([]byte("d")); err != nil {
				return
			}
			time.Sleep(interval)
		}
	}
}

// Garbage reads a request line and answers with binary junk without a
// line end (NUL, control bytes, invalid UTF-8), size bytes, then closes.
func Garbage(size int) func(net.Conn) {
	junk := make([]byte, size)
	for i := range junk {
		junk[i] = byte(i*131+7) &^ 0x0a // never a line feed
	}
	return func(c net.Conn) {
		if _, err := readLine(c); err != nil {
			return
		}
		c.Write(junk)
	}
}

// Closed closes each connection at once, without reading or answering.
func Closed(c net.Conn) {}

// NNTPHugeListing answers MODE READER, GROUP and then LIST (RFC 977 3.6.1)
// and OVER or XOVER (RFC 3977 8.3) with generated lines, about 100 bytes
// each (or with subjects of about subjectLen bytes of markup characters,
// when positive), until limit bytes, then the terminating ".".
func NNTPHugeListing(limit int64, subjectLen int) func(net.Conn) {
	var list, over bytes.Buffer
	for i := 0; list.Len() < 64<<10; i++ {
		fmt.Fprintf(&list, "alt.hostile.group%06d.%s 0000000010 0000000001 y\r\n", i, strings.Repeat("g", 40))
	}
	subject := strings.Repeat("s", 20)
	if subjectLen > 0 {
		subject = strings.Repeat("<&'>", subjectLen/4)
	}
	for i := 1; over.Len() < 64<<10; i++ {
		fmt.Fprintf(&over, "%d\tSubject %06d %s\tposter@example.org\t24 Nov 2026 09:57:00 GMT\t<%d@example.org>\t\t1000\t20\r\n", i, i, subject, i)
	}
	return func(c net.Conn) {
		fmt.Fprint(c, "200 hostile news\r\n")
		for {
			l, err := readLine(c)
			if err != nil {
				return
			}
			verb, _, _ := strings.Cut(l, " ")
			switch strings.ToUpper(verb) {
			case "MODE":
				fmt.Fprint(c, "200 ok\r\n")
			case "GROUP":
				fmt.Fprint(c, "211 100000 1 100000 g\r\n")
			case "LIST":
				endless(c, "215 list follows\r\n", list.Bytes(), limit)
				io.WriteString(c, ".\r\n")
			case "OVER", "XOVER":
				endless(c, "224 overview follows\r\n", over.Bytes(), limit)
				io.WriteString(c, ".\r\n")
			case "QUIT":
				fmt.Fprint(c, "205 bye\r\n")
				return
			default:
				fmt.Fprint(c, "500 what\r\n")
			}
		}
	}
}

// Silent accepts and never answers.
func Silent(c net.Conn) {
	io.Copy(io.Discard, c)
}

// HTTPResponse reads a request head and sends resp.
func HTTPResponse(resp string) func(net.Conn) {
	return func(c net.Conn) {
		for {
			l, err := readLine(c)
			if err != nil || l == "" {
				break
			}
		}
		io.WriteString(c, resp)
	}
}

// HTTPEndlessHeader answers with a status line and header fields without
// end.
func HTTPEndlessHeader(c net.Conn) {
	for {
		l, err := readLine(c)
		if err != nil || l == "" {
			break
		}
	}
	endless(c, "HTTP/1.0 200 OK\r\n", bytes.Repeat([]byte("X-Filler: "+strings.Repeat("f", 60)+"\r\n"), 512), 0)
}

// GzipBomb returns an HTTP response whose gzip body expands to size zero
// bytes, sent with Content-Encoding: gzip whatever the request asked.
func GzipBomb(size int64) string {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for left := size; left > 0; left -= int64(len(zeros)) {
		zw.Write(zeros[:min(int64(len(zeros)), left)])
	}
	zw.Close()
	return fmt.Sprintf("HTTP/1.0 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n", b.Len()) + b.String()
}
