package access

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
)

// fakeFTP is a minimal scripted FTP server on 127.0.0.1 that records the
// exact command lines it receives. It refuses EPSV when noEPSV is set and
// announces 127.0.0.2 in its PASV reply (the client must use the control
// connection's address instead).
type fakeFTP struct {
	addr   string
	noEPSV bool
	file   []byte
	mu     sync.Mutex
	lines  []string
}

func startFakeFTP(t *testing.T, noEPSV bool, file []byte) *fakeFTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeFTP{addr: ln.Addr().String(), noEPSV: noEPSV, file: file}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		f.serve(c)
	}()
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	return f
}

func (f *fakeFTP) serve(c net.Conn) {
	r := bufio.NewReader(c)
	say := func(s string) { fmt.Fprintf(c, "%s\r\n", s) }
	say("220-fake server\r\n220 ready")
	var dl net.Listener
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		f.mu.Lock()
		f.lines = append(f.lines, line)
		f.mu.Unlock()
		cmd, arg, _ := strings.Cut(strings.TrimRight(line, "\r\n"), " ")
		switch cmd {
		case "USER":
			say("331 password please")
		case "PASS":
			say("230 in")
		case "CWD":
			say("250 ok")
		case "TYPE":
			say("200 type set")
		case "EPSV":
			if f.noEPSV {
				say("500 EPSV not understood")
				continue
			}
			dl, _ = net.Listen("tcp", "127.0.0.1:0")
			say(fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", dl.Addr().(*net.TCPAddr).Port))
		case "PASV":
			dl, _ = net.Listen("tcp", "127.0.0.1:0")
			p := dl.Addr().(*net.TCPAddr).Port
			say(fmt.Sprintf("227 Entering Passive Mode (127,0,0,2,%d,%d).", p>>8, p&255))
		case "RETR", "NLST":
			if dl == nil {
				say("425 no data connection")
				continue
			}
			say("150 here it comes")
			d, err := dl.Accept()
			dl.Close()
			if err != nil {
				return
			}
			if cmd == "RETR" {
				d.Write(f.file)
			} else {
				d.Write([]byte(arg + "\r\n"))
			}
			d.Close()
			say("226 done")
		case "QUIT":
			say("221 bye")
			return
		default:
			say("502 not implemented")
		}
	}
}

// The exact bytes on the wire for ftp://u@host//a%20b/x;type=i (RFC 1738
// 3.2.2: "//" gives "CWD " with an empty argument; decoded names are sent
// as they are), with the PASV fallback when EPSV is refused.
func TestFTPExactLines(t *testing.T) {
	f := startFakeFTP(t, true, []byte("payload"))
	req := &FTPRequest{Addr: f.addr, User: "u", HasUser: true, Password: "secret", HasPassword: true,
		CWD: []string{"", "a b"}, Name: "x", Type: 'i'}
	var trace bytes.Buffer
	rc, err := FetchFTP(context.Background(), req, &Options{Trace: &trace})
	got := fetchAll(t, rc, err)
	if string(got) != "payload" {
		t.Fatalf("got %q", got)
	}
	f.mu.Lock()
	lines := strings.Join(f.lines, "")
	f.mu.Unlock()
	want := "USER u\r\nPASS secret\r\nCWD \r\nCWD a b\r\nTYPE I\r\nEPSV\r\nPASV\r\nRETR x\r\nQUIT\r\n"
	if lines != want {
		t.Errorf("server received\n%q\nwant\n%q", lines, want)
	}
	if strings.Contains(trace.String(), "secret") {
		t.Errorf("trace shows the password:\n%s", trace.String())
	}
	if !strings.Contains(trace.String(), "S: 220-fake server\nS: 220 ready\nC: USER u\n") {
		t.Errorf("trace lacks the multi-line greeting:\n%s", trace.String())
	}
}

// RFC 1738 3.2.1: without a user, "anonymous" and an e-mail address.
func TestFTPAnonymousPassword(t *testing.T) {
	f := startFakeFTP(t, false, nil)
	rc, err := FetchFTP(context.Background(), &FTPRequest{Addr: f.addr, Name: "f", Type: 'd', AnonymousPassword: "me@example.org"}, nil)
	got := fetchAll(t, rc, err)
	if string(got) != "f\r\n" {
		t.Errorf("NLST data %q", got)
	}
	f.mu.Lock()
	lines := strings.Join(f.lines, "")
	f.mu.Unlock()
	if want := "USER anonymous\r\nPASS me@example.org\r\nEPSV\r\nNLST f\r\nQUIT\r\n"; lines != want {
		t.Errorf("server received %q, want %q", lines, want)
	}
}
