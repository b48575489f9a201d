package fakeservers

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// ftpClient is a raw control connection to an ftp server.
type ftpClient struct {
	t  *testing.T
	c  net.Conn
	br *bufio.Reader
}

func dialFTP(t *testing.T, addr string) *ftpClient {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	f := &ftpClient{t: t, c: c, br: bufio.NewReader(c)}
	f.reply("220")
	return f
}

// reply reads one reply (a multi-line one whole) and checks its code.
func (f *ftpClient) reply(code string) string {
	f.t.Helper()
	var all strings.Builder
	for {
		line, err := f.br.ReadString('\n')
		if err != nil {
			f.t.Fatalf("awaiting %s: %v", code, err)
		}
		all.WriteString(line)
		if len(line) >= 4 && line[3] == ' ' {
			if !strings.HasPrefix(line, code) {
				f.t.Fatalf("reply %q, want %s", all.String(), code)
			}
			return all.String()
		}
	}
}

func (f *ftpClient) cmd(line, code string) string {
	f.t.Helper()
	fmt.Fprintf(f.c, "%s\r\n", line)
	return f.reply(code)
}

// epsv opens a data connection as the EPSV reply says.
func (f *ftpClient) epsv() net.Conn {
	f.t.Helper()
	msg := f.cmd("EPSV", "229")
	var port int
	if _, err := fmt.Sscanf(msg[strings.Index(msg, "|||"):], "|||%d|", &port); err != nil {
		f.t.Fatalf("EPSV reply %q: %v", msg, err)
	}
	d, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { d.Close() })
	d.SetDeadline(time.Now().Add(3 * time.Second))
	return d
}

// A client whose transfer command is refused as one the server does not
// carry out (MLSD, 502) closes that data connection and opens another
// for its next choice (LIST), as access's fallback does (RFC 3659 7,
// RFC 959 4.1.3). The server keeps one passive listener a session: the
// refused command's connection must not be the one the next transfer is
// written to, or the client waits on the new one for nothing.
func TestFTPRefusedTransferForgetsDataConnection(t *testing.T) {
	s, err := FTP(map[string][]byte{"/pub/a.txt": []byte("a\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f := dialFTP(t, s.Addr())
	f.cmd("USER anonymous", "331")
	f.cmd("PASS x@", "230")
	f.cmd("CWD /pub", "250")
	first := f.epsv()
	f.cmd("MLSD", "502")
	first.Close()
	second := f.epsv()
	f.cmd("NLST", "150")
	b, err := io.ReadAll(second)
	if err != nil || string(b) != "a.txt\r\n" {
		t.Fatalf("the listing on the second data connection: %q, %v", b, err)
	}
	f.reply("226")
	// And a file after it, on a third.
	third := f.epsv()
	f.cmd("RETR a.txt", "150")
	if b, err := io.ReadAll(third); err != nil || string(b) != "a\n" {
		t.Fatalf("the file: %q, %v", b, err)
	}
	f.reply("226")
}
