// Package fakeservers runs small, fast gopher and ftp servers inside a test
// or benchmark process, on loopback, serving content held in memory. They
// answer what the gateway tests and the gateway benchmark need and no more;
// the real daemons (gophernicus, vsftpd) are what conformance is tested
// against. Unlike internal/testkit/hostile's servers, which record every byte a
// client sends so that tests can compare it with a plan, these keep
// nothing, so a benchmark can run them for as long as it likes.
package fakeservers

import (
	"bufio"
	"fmt"
	"net"
	"path"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Server is a running fake server.
type Server struct {
	ln    net.Listener
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns map[net.Conn]bool
	// Conns counts the connections accepted (control connections for ftp).
	Conns atomic.Int64
	// Logins counts ftp USER commands.
	Logins atomic.Int64
}

// Addr returns the host:port the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close stops the server and closes its connections.
func (s *Server) Close() {
	s.ln.Close()
	s.mu.Lock()
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// Open returns the number of connections open now (control connections
// for ftp).
func (s *Server) Open() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// CloseConns closes the server's side of every open connection, as a
// server's idle timeout does, and keeps listening.
func (s *Server) CloseConns() {
	s.mu.Lock()
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
}

func start(handle func(s *Server, c net.Conn)) (*Server, error) {
	return startOn("127.0.0.1:0", handle)
}

// Func starts a server on a free loopback port that serves each
// connection with handle (the connection is closed when it returns). It
// records nothing of what is received, so a benchmark's responder costs
// only what handle does.
func Func(handle func(c net.Conn)) (*Server, error) {
	return start(func(_ *Server, c net.Conn) { handle(c) })
}

func startOn(addr string, handle func(s *Server, c net.Conn)) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &Server{ln: ln, conns: map[net.Conn]bool{}}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.Conns.Add(1)
			s.mu.Lock()
			s.conns[c] = true
			s.mu.Unlock()
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				defer func() {
					s.mu.Lock()
					delete(s.conns, c)
					s.mu.Unlock()
					c.Close()
				}()
				handle(s, c)
			}()
		}
	}()
	return s, nil
}

// Gopher starts a gopher server (RFC 1436) answering each selector with
// the bytes in docs, sent as they are (a menu or text must carry its own
// "." terminator if the test wants one). An unknown selector gets a
// type-3 error line.
func Gopher(docs map[string][]byte) (*Server, error) {
	return GopherOn("127.0.0.1:0", docs)
}

// GopherOn is Gopher listening on addr ("[::1]:0" for IPv6 loopback).
func GopherOn(addr string, docs map[string][]byte) (*Server, error) {
	return gopherServe(addr, func(sel string) ([]byte, bool) {
		d, ok := docs[sel]
		return d, ok
	})
}

// Docs are the documents of a gopher server started by GopherDocs, which
// a test may add to while the server runs (a menu that names the server's
// own address is written once the address is known), safely for the race
// detector.
type Docs struct {
	mu sync.RWMutex
	m  map[string][]byte
}

// Set makes the server answer selector sel with b.
func (d *Docs) Set(sel string, b []byte) {
	d.mu.Lock()
	d.m[sel] = b
	d.mu.Unlock()
}

func (d *Docs) get(sel string) ([]byte, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	b, ok := d.m[sel]
	return b, ok
}

// GopherDocs is Gopher with documents set afterwards (Docs.Set).
func GopherDocs() (*Server, *Docs, error) {
	d := &Docs{m: map[string][]byte{}}
	s, err := gopherServe("127.0.0.1:0", d.get)
	return s, d, err
}

// gopherServe starts a gopher server on addr answering each selector with
// what doc gives it.
func gopherServe(addr string, doc func(sel string) ([]byte, bool)) (*Server, error) {
	return startOn(addr, func(s *Server, c net.Conn) {
		br := bufio.NewReader(c)
		line, err := br.ReadString('\n')
		if err != nil {
			return
		}
		sel := strings.TrimRight(line, "\r\n")
		if i := strings.IndexByte(sel, '\t'); i >= 0 {
			sel = sel[:i]
		}
		if d, ok := doc(sel); ok {
			c.Write(d)
			return
		}
		fmt.Fprintf(c, "3'%s' does not exist\t\terror.host\t1\r\n.\r\n", sel)
	})
}

// FTP starts an ftp server (RFC 959, passive mode only) serving files, a
// map from absolute path ("/pub/f.txt") to content. Directories are the
// paths' parents. Any user and password are accepted.
func FTP(files map[string][]byte) (*Server, error) {
	dirs := map[string][]string{"/": nil}
	for p := range files {
		for d, name := path.Dir(p), path.Base(p); ; d, name = path.Dir(d), path.Base(d) {
			if !contains(dirs[d], name) {
				dirs[d] = append(dirs[d], name)
			}
			if d == "/" {
				break
			}
		}
	}
	for _, names := range dirs {
		sort.Strings(names)
	}
	return start(func(s *Server, c net.Conn) { ftpSession(s, c, files, dirs) })
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func ftpSession(s *Server, c net.Conn, files map[string][]byte, dirs map[string][]string) {
	br := bufio.NewReader(c)
	bw := bufio.NewWriter(c)
	reply := func(format string, args ...any) {
		fmt.Fprintf(bw, format+"\r\n", args...)
		bw.Flush()
	}
	reply("220 fakeservers ftp ready")
	cwd := "/"
	var pasv net.Listener
	defer func() {
		if pasv != nil {
			pasv.Close()
		}
	}()
	// refuse answers a transfer command with code (550, or 502 for one
	// this server does not carry out) and forgets the passive listener,
	// as a real server does: a client that connected to it after EPSV
	// gets a new one with its next EPSV, and its next transfer is not
	// written to the stale connection left in the backlog (where the
	// client, reading the new one, would wait for nothing).
	refuse := func(code int, text string) {
		if pasv != nil {
			pasv.Close()
			pasv = nil
		}
		reply("%d %s", code, text)
	}
	transfer := func(data []byte) {
		if pasv == nil {
			reply("425 use PASV or EPSV first")
			return
		}
		reply("150 opening data connection (%d bytes)", len(data)) // as vsftpd says it
		// A client that never connects is not waited for forever (nor
		// is Close, which waits for this session).
		pasv.(*net.TCPListener).SetDeadline(time.Now().Add(10 * time.Second))
		dc, err := pasv.Accept()
		if err != nil {
			pasv.Close()
			pasv = nil
			reply("425 no data connection")
			return
		}
		dc.Write(data)
		dc.Close()
		reply("226 transfer complete")
	}
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return
		}
		cmd, arg, _ := strings.Cut(strings.TrimRight(line, "\r\n"), " ")
		target := arg
		if !strings.HasPrefix(target, "/") {
			target = path.Join(cwd, target)
		}
		switch strings.ToUpper(cmd) {
		case "USER":
			s.Logins.Add(1)
			reply("331 password please")
		case "PASS":
			reply("230 logged in")
		case "SYST":
			reply("215 UNIX Type: L8")
		case "FEAT":
			reply("211-features\r\n EPSV\r\n PASV\r\n SIZE\r\n MDTM\r\n211 end")
		case "TYPE", "MODE", "STRU", "NOOP", "OPTS":
			reply("200 ok")
		case "PWD", "XPWD":
			reply("257 \"%s\" is the current directory", cwd)
		case "CWD", "XCWD":
			if _, ok := dirs[path.Clean(target)]; ok {
				cwd = path.Clean(target)
				reply("250 directory changed")
			} else {
				reply("550 no such directory")
			}
		case "CDUP":
			cwd = path.Dir(cwd)
			reply("250 directory changed")
		case "SIZE":
			if f, ok := files[target]; ok {
				reply("213 %d", len(f))
			} else {
				reply("550 no such file")
			}
		case "MDTM":
			if _, ok := files[target]; ok {
				reply("213 20240101000000")
			} else {
				reply("550 no such file")
			}
		case "EPSV", "PASV":
			if strings.EqualFold(arg, "ALL") {
				reply("200 EPSV ALL ok")
				continue
			}
			// One passive listener per session, kept for its transfers.
			if pasv == nil {
				if pasv, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
					reply("425 cannot listen")
					continue
				}
			}
			port := pasv.Addr().(*net.TCPAddr).Port
			if strings.EqualFold(cmd, "EPSV") {
				reply("229 entering extended passive mode (|||%d|)", port)
			} else {
				reply("227 entering passive mode (127,0,0,1,%d,%d)", port>>8, port&255)
			}
		case "RETR":
			f, ok := files[target]
			if !ok {
				refuse(550, "no such file")
				continue
			}
			transfer(f)
		case "NLST", "LIST":
			d := cwd
			if arg != "" && !strings.HasPrefix(arg, "-") {
				d = path.Clean(target)
			}
			names, ok := dirs[d]
			if !ok {
				refuse(550, "no such directory")
				continue
			}
			var b strings.Builder
			for _, n := range names {
				if strings.EqualFold(cmd, "LIST") {
					kind, size := "-rw-r--r--", len(files[path.Join(d, n)])
					if _, isDir := dirs[path.Join(d, n)]; isDir {
						kind = "drwxr-xr-x"
					}
					fmt.Fprintf(&b, "%s 1 ftp ftp %d Jan 01 2024 %s\r\n", kind, size, n)
				} else {
					b.WriteString(n + "\r\n")
				}
			}
			transfer([]byte(b.String()))
		case "QUIT":
			reply("221 bye")
			return
		case "MLSD", "STOR", "STOU", "APPE":
			// Transfer commands this server does not carry out.
			refuse(502, cmd+" not implemented")
		default:
			reply("502 %s not implemented", cmd)
		}
	}
}

// LongMenu is a gopher menu of n items, as a server sends it (terminator
// included): an info line of ASCII art every tenth item, a search item
// every tenth, documents otherwise. The gateway's page of it is measured
// against fetching it (bench/gateway -only menu, gateway's
// BenchmarkHandlerMenu1000); the last document is "Document number
// NNNN of the long menu" with NNNN = n-1 when n-1 ends in neither 0
// nor 7.
func LongMenu(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch i % 10 {
		case 0:
			fmt.Fprintf(&b, "i  +---- section %04d ----+\tfake\t(NULL)\t0\r\n", i)
		case 7:
			fmt.Fprintf(&b, "7Search number %04d\t/search/%04d\tgopher.example.org\t70\r\n", i, i)
		default:
			fmt.Fprintf(&b, "0Document number %04d of the long menu\t/docs/%04d.txt\tgopher.example.org\t70\r\n", i, i)
		}
	}
	b.WriteString(".\r\n")
	return []byte(b.String())
}
