package access

import (
	"bufio"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

// The real-server tests read the environment that .ci/servers.sh writes
// (by default to /tmp/urlkit-servers.env; URLKIT_SERVERS_ENV overrides).

var serverEnv map[string]string

func loadServerEnv() map[string]string {
	if serverEnv != nil {
		return serverEnv
	}
	serverEnv = map[string]string{}
	name := os.Getenv("URLKIT_SERVERS_ENV")
	if name == "" {
		name = "/tmp/urlkit-servers.env"
	}
	f, err := os.Open(name)
	if err != nil {
		return serverEnv
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if ok {
			serverEnv[k] = v
		}
	}
	return serverEnv
}

// realServer returns the variables for one daemon after checking that
// addrVar's address accepts connections. Without the daemon the test is
// skipped, or fails when URLKIT_REAL_SERVERS=1 (as CI sets it).
func realServer(t *testing.T, addrVar string) map[string]string {
	t.Helper()
	env := loadServerEnv()
	addr := env[addrVar]
	why := ""
	if addr == "" {
		why = addrVar + " is not set in the servers env file"
	} else if h, _, err := net.SplitHostPort(addr); err != nil || !net.ParseIP(h).IsLoopback() {
		t.Fatalf("%s=%q: the tests only talk to loopback addresses", addrVar, addr)
	} else if c, err := net.DialTimeout("tcp", addr, 2*time.Second); err != nil {
		why = "cannot connect to " + addr + ": " + err.Error()
	} else {
		c.Close()
	}
	if why != "" {
		if os.Getenv("URLKIT_REAL_SERVERS") == "1" {
			t.Fatalf("real server missing (%s); URLKIT_REAL_SERVERS=1 requires it: run `bash .ci/servers.sh` first", why)
		}
		t.Skipf("real server not running (%s); run `sudo bash .ci/servers.sh` to start vsftpd, gophernicus and innd", why)
	}
	return env
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
