package access

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
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
			fetchEach(b, u, opts)
		})
	}
}

// BenchmarkFTPSession is BenchmarkFTPFetch over in-memory connections
// (net.Pipe, through Options.Dial), so that the figures are the client's
// work, not the kernel's: a new session each time, a kept one, and a name
// that is a directory.
func BenchmarkFTPSession(b *testing.B) {
	doc := bytes.Repeat([]byte("0123456789abcdef\n"), 121)[:2048]
	for _, c := range []struct {
		name, path string
		keep       bool
	}{{"new", "/pub/d", false}, {"kept", "/pub/d", true}, {"directory", "/pub/sub", false}} {
		u := urlkit.MustParse("ftp://127.0.0.1" + c.path)
		b.Run(c.name, func(b *testing.B) {
			data := make(chan net.Conn, 1)
			opts := &Options{Dial: func(_ context.Context, _, addr string) (net.Conn, error) {
				cli, srv := net.Pipe()
				if strings.HasSuffix(addr, ":21") {
					go pipeFTPServer(srv, data, doc)
				} else {
					data <- srv
				}
				return pipeAddr{cli}, nil
			}}
			if c.keep {
				opts.FTPSessions = &FTPSessions{}
				defer opts.FTPSessions.Close()
			}
			fetchEach(b, u, opts)
		})
	}
}

// pipeAddr is one end of a net.Pipe that says it is connected to
// 127.0.0.1:21, where the data connections go too.
type pipeAddr struct{ net.Conn }

func (pipeAddr) RemoteAddr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 21} }

// pipeFTPServer answers one control connection of BenchmarkFTPSession:
// directories pub and sub, the file d (doc), each data connection taken
// from data.
func pipeFTPServer(c net.Conn, data <-chan net.Conn, doc []byte) {
	defer c.Close()
	br := bufio.NewReader(c)
	say := func(s string) { io.WriteString(c, s+"\r\n") }
	say("220 ready")
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return
		}
		verb, arg, _ := strings.Cut(strings.TrimRight(line, "\r\n"), " ")
		switch verb {
		case "CWD":
			if arg == "pub" || arg == "sub" {
				say(plainFTPReply(verb))
			} else {
				say("550 no such directory")
			}
		case "EPSV":
			say("229 Entering Extended Passive Mode (|||2121|)")
		case "RETR", "NLST":
			d := <-data
			if verb == "RETR" && arg != "d" {
				d.Close()
				say("550 Failed to open file.")
				continue
			}
			out := doc
			if verb == "NLST" {
				out = []byte("a.txt\r\n")
			}
			say(fmt.Sprintf("150 Opening BINARY mode data connection (%d bytes).", len(out)))
			d.Write(out)
			d.Close()
			say("226 Transfer complete.")
		case "QUIT":
			say(plainFTPReply(verb))
			return
		default:
			say(plainFTPReply(verb))
		}
	}
}

// fetchEach fetches u b.N times under opts, reading each resource to its
// end: the loop of the fetch benchmarks.
func fetchEach(b *testing.B, u urlkit.URL, opts *Options) {
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
}
