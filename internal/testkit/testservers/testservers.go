// Package testservers gives tests the addresses of the real daemons (vsftpd,
// gophernicus, innd) that .ci/servers.sh starts on loopback.
package testservers

import (
	"bufio"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	once sync.Once
	env  map[string]string
)

// Env returns the variables .ci/servers.sh wrote, by default to
// /tmp/urlkit-servers.env (URLKIT_SERVERS_ENV names another file). It is
// empty when the script has not run.
func Env() map[string]string {
	once.Do(func() {
		env = map[string]string{}
		name := os.Getenv("URLKIT_SERVERS_ENV")
		if name == "" {
			name = "/tmp/urlkit-servers.env"
		}
		f, err := os.Open(name)
		if err != nil {
			return
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), "="); ok {
				env[k] = v
			}
		}
	})
	return env
}

// Require returns the servers' variables after checking that addrVar's
// address accepts connections. Without the daemon the test is skipped, or
// fails when URLKIT_REAL_SERVERS=1 (as CI sets it). Only loopback addresses
// are ever used.
func Require(t testing.TB, addrVar string) map[string]string {
	t.Helper()
	return require(t, addrVar, func(addr string) string {
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err != nil {
			return "cannot connect to " + addr + ": " + err.Error()
		}
		c.Close()
		return ""
	})
}

// RequireUDP is Require for a UDP server (the Prospero server dirsrv): the
// address must be set and a Prospero STATUS request (one ARDP packet) to
// it must be answered within 2 s.
func RequireUDP(t testing.TB, addrVar string) map[string]string {
	t.Helper()
	return require(t, addrVar, func(addr string) string {
		if err := statusUDP(addr); err != nil {
			return "no answer from " + addr + ": " + err.Error()
		}
		return ""
	})
}

// require is Require with the check of the address given: probe returns
// why the server at addr does not answer, or "".
func require(t testing.TB, addrVar string, probe func(addr string) string) map[string]string {
	t.Helper()
	e := Env()
	addr := e[addrVar]
	why := ""
	if addr == "" {
		why = addrVar + " is not set in the servers env file"
	} else if h, _, err := net.SplitHostPort(addr); err != nil || !net.ParseIP(h).IsLoopback() {
		t.Fatalf("%s=%q: the tests only talk to loopback addresses", addrVar, addr)
	} else {
		why = probe(addr)
	}
	if why != "" {
		if os.Getenv("URLKIT_REAL_SERVERS") == "1" {
			t.Fatalf("real server missing (%s); URLKIT_REAL_SERVERS=1 requires it: run `bash .ci/servers.sh` first", why)
		}
		t.Skipf("real server not running (%s); run `sudo bash .ci/servers.sh` to start the test servers (vsftpd, gophernicus, innd, waisserver, dirsrv)", why)
	}
	return e
}

// statusUDP sends an ARDP packet holding "STATUS" and waits for a reply.
func statusUDP(addr string) error {
	c, err := net.Dial("udp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write([]byte("\x09\x11\x22\x00\x01\x00\x01\x00\x00STATUS\n")); err != nil {
		return err
	}
	_, err = c.Read(make([]byte, 2048))
	return err
}
