package hostile

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"time"
)

// FTP is a small FTP server (RFC 959) serving files from a map, for
// tests: USER/PASS (any), CWD (any), TYPE, EPSV or PASV, RETR, NLST, QUIT.
// Its fields change how it misbehaves.
type FTP struct {
	Files map[string][]byte // by name, as RETR gives it
	// NoEPSV refuses EPSV, so the client must fall back to PASV.
	NoEPSV bool
	// PASVHost is the address the PASV reply names (a client must ignore
	// it and use the control connection's peer); default 127.0.0.1.
	PASVHost string
	// Greeting replaces the 220 greeting's text.
	Greeting string
	// RefuseText, when set, is the text of a 550 reply to every RETR.
	RefuseText string
	// PassivePort, when set, is the port the EPSV and PASV replies name
	// instead of the data listener's: a server pointing the client at
	// another service on its host (the data connection is then never
	// accepted here).
	PassivePort int
	// Features, when not nil, is FEAT's answer (RFC 2389 3.2), one
	// feature a line; nil refuses FEAT with 502.
	Features []string
	// MLSD and LIST are the listings those commands send; empty refuses
	// the command with 502 (as a server that does not carry it out).
	MLSD, LIST string
	// HugeListing, when positive, makes NLST and LIST send generated
	// entries (names, or "ls -l" lines for LIST), about 100 bytes each,
	// until that many bytes: a listing far larger than any page.
	// HugeNameLen, when positive, makes each name that long, of markup
	// characters (each escaped in a page).
	HugeListing int64
	HugeNameLen int
	// AnnounceSize, when positive, is the size RETR's 150 reply announces
	// ("(N bytes)") whatever the file's length.
	AnnounceSize int64
	// StallData makes each transfer stall: the 150 reply is sent and the
	// data connection accepted, then nothing is sent on it until the
	// client closes it (at most 20 s), as a server that hangs mid-transfer.
	StallData bool
	// Quits counts the QUIT commands received (Server.Received mixes the
	// bytes of concurrent connections; this does not).
	Quits atomic.Int64
}

// transfer accepts the data connection on dl (within 10 s), closes dl,
// has send write the data and closes the connection; false when no
// client connected.
func transfer(dl net.Listener, send func(net.Conn)) bool {
	dl.(*net.TCPListener).SetDeadline(time.Now().Add(10 * time.Second))
	d, err := dl.Accept()
	dl.Close()
	if err != nil {
		return false
	}
	send(d)
	d.Close()
	return true
}

// hugeListing writes generated listing lines to w until limit bytes,
// names of about nameLen bytes (0: about 60).
func hugeListing(w io.Writer, long bool, limit int64, nameLen int) {
	var b bytes.Buffer
	filler := strings.Repeat("n", 40)
	if nameLen > 0 {
		filler = strings.Repeat("<&'>", nameLen/4)
	}
	for i := 0; b.Len() < 64<<10; i++ {
		name := fmt.Sprintf("file-%08d-%s.txt", i, filler)
		if long {
			fmt.Fprintf(&b, "-rw-r--r--   1 ftp      ftp          %6d Nov 24 09:57 %s\r\n", i, name)
		} else {
			fmt.Fprintf(&b, "%s\r\n", name)
		}
	}
	endless(w, "", b.Bytes(), limit)
}

// Serve handles one control connection.
func (f *FTP) Serve(c net.Conn) {
	say := func(s string) { fmt.Fprintf(c, "%s\r\n", s) }
	g := f.Greeting
	if g == "" {
		g = "220 hostile ftp"
	}
	say(g)
	var dl net.Listener
	defer func() {
		if dl != nil {
			dl.Close()
		}
	}()
	for {
		line, err := readLine(c)
		if err != nil {
			return
		}
		cmd, arg, _ := strings.Cut(line, " ")
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
			if f.NoEPSV {
				say("500 EPSV not understood")
				continue
			}
			dl, _ = net.Listen("tcp", "127.0.0.1:0")
			p := dl.Addr().(*net.TCPAddr).Port
			if f.PassivePort != 0 {
				p = f.PassivePort
			}
			say(fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", p))
		case "PASV":
			dl, _ = net.Listen("tcp", "127.0.0.1:0")
			p := dl.Addr().(*net.TCPAddr).Port
			if f.PassivePort != 0 {
				p = f.PassivePort
			}
			h := f.PASVHost
			if h == "" {
				h = "127.0.0.1"
			}
			say(fmt.Sprintf("227 Entering Passive Mode (%s,%d,%d).", strings.ReplaceAll(h, ".", ","), p>>8, p&255))
		case "FEAT":
			if f.Features == nil {
				say("502 FEAT not implemented")
				continue
			}
			var b strings.Builder
			b.WriteString("211-Features:\r\n")
			for _, l := range f.Features {
				b.WriteString(" " + l + "\r\n")
			}
			b.WriteString("211 End")
			say(b.String())
		case "MLSD", "LIST":
			listing := f.MLSD
			if cmd == "LIST" {
				listing = f.LIST
			}
			if cmd == "LIST" && f.HugeListing > 0 {
				listing = "huge"
			}
			if listing == "" {
				say("502 " + cmd + " not implemented")
				continue
			}
			if dl == nil {
				say("425 no data connection")
				continue
			}
			say("150 listing")
			if !transfer(dl, func(d net.Conn) {
				if listing == "huge" && f.HugeListing > 0 {
					hugeListing(d, true, f.HugeListing, f.HugeNameLen)
				} else {
					d.Write([]byte(listing))
				}
			}) {
				return
			}
			dl = nil
			say("226 done")
		case "RETR", "NLST":
			if dl == nil {
				say("425 no data connection")
				continue
			}
			data, ok := f.Files[arg]
			if cmd == "RETR" && (!ok || f.RefuseText != "") {
				t := f.RefuseText
				if t == "" {
					t = "no such file"
				}
				say("550 " + t)
				continue
			}
			if cmd == "NLST" {
				var b strings.Builder
				for name := range f.Files {
					b.WriteString(name + "\r\n")
				}
				data = []byte(b.String())
			}
			announce := int64(len(data))
			if cmd == "RETR" && f.AnnounceSize > 0 {
				announce = f.AnnounceSize
			}
			if cmd == "NLST" && f.HugeListing > 0 {
				say("150 here it comes")
			} else {
				say(fmt.Sprintf("150 here it comes (%d bytes)", announce))
			}
			if !transfer(dl, func(d net.Conn) {
				if f.StallData {
					d.SetDeadline(time.Now().Add(20 * time.Second))
					io.Copy(io.Discard, d) // until the client gives up
					return
				}
				if cmd == "NLST" && f.HugeListing > 0 {
					hugeListing(d, false, f.HugeListing, f.HugeNameLen)
				} else {
					d.Write(data)
				}
			}) {
				return
			}
			dl = nil
			say("226 done")
		case "QUIT":
			f.Quits.Add(1)
			say("221 bye")
			return
		default:
			say("502 not implemented")
		}
	}
}
