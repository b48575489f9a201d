package main

import (
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/internal/testkit/testservers"
)

// TestMain lets the testscript sessions run urlkit as a program ("exec
// urlkit ..."), with real standard streams, exit statuses and files.
// With URLKIT_TEST_MAIN=1 the test binary is urlkit itself (getsafe_test.go
// runs it so).
func TestMain(m *testing.M) {
	if os.Getenv("URLKIT_TEST_MAIN") == "1" {
		main()
		return
	}
	testscript.Main(m, map[string]func(){
		"urlkit": func() {
			e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
			os.Exit(run(e, os.Args[1:]))
		},
	})
}

// TestScripts runs the terminal sessions in testdata/script, one file per
// command plus the behaviours every command shares (lines.txtar,
// interface.txtar, json.txtar). URLKIT_UPDATE_SCRIPTS=1 rewrites the
// files that a script's cmp compares with, for review in the diff.
//
// Scripts can start servers on loopback (serve, received: see
// scriptServe) and test for the real daemons of .ci/servers.sh ([realftp]:
// their addresses are then in $URLKIT_FTP_ADDR and so on).
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: os.Getenv("URLKIT_UPDATE_SCRIPTS") == "1",
		Setup: func(env *testscript.Env) error {
			// The daemons' addresses only (the env file also holds the
			// test account's password, which a script's log would show).
			for k, v := range testservers.Env() {
				if strings.HasSuffix(k, "_ADDR") {
					env.Setenv(k, v)
				}
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"serve":    scriptServe,
			"received": scriptReceived,
			"crlf":     scriptCRLF,
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "pty":
				// The machine can open a pseudo-terminal (ttyin needs one).
				f, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
				if err != nil {
					return false, nil
				}
				f.Close()
				return true, nil
			case "realftp":
				// vsftpd from .ci/servers.sh answers; required (an error,
				// not a skip) under URLKIT_REAL_SERVERS=1, as in CI.
				addr := testservers.Env()["URLKIT_FTP_ADDR"]
				if h, _, err := net.SplitHostPort(addr); err == nil && net.ParseIP(h).IsLoopback() {
					if c, err := net.DialTimeout("tcp", addr, 2*time.Second); err == nil {
						c.Close()
						return true, nil
					}
				}
				if os.Getenv("URLKIT_REAL_SERVERS") == "1" {
					return false, fmt.Errorf("[realftp]: no vsftpd at %q, and URLKIT_REAL_SERVERS=1 requires it (run bash .ci/servers.sh)", addr)
				}
				return false, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}

// recorders holds the servers a script started that record what clients
// send, by the name the script gave them (scripts run in parallel: each
// has its own names, prefixed by its work directory).
var recorders = struct {
	sync.Mutex
	m map[string]*hostile.Server
}{m: map[string]*hostile.Server{}}

// scriptServe starts a server on loopback for the rest of the script and
// puts its host:port in the environment variable NAME:
//
//	serve http NAME FILE    answer every request with FILE's bytes (a whole
//	                        HTTP response), recording the requests
//	serve gopher NAME FILE  answer every request line with FILE's bytes,
//	                        recording the request lines
//	serve ftp NAME DIR      an ftp server (internal/testkit/fakeservers) with the
//	                        files under DIR; MDTM answers 20240101000000
//
// Files are read as written, except that a line ending "\n" in an http or
// gopher FILE is sent as CR LF.
func scriptServe(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: serve http|gopher|ftp NAME FILE|DIR")
	}
	kind, name, arg := args[0], args[1], ts.MkAbs(args[2])
	var addr string
	switch kind {
	case "http", "gopher":
		b, err := os.ReadFile(arg)
		ts.Check(err)
		reply := toCRLF(string(b))
		h := hostile.GopherReply(reply)
		if kind == "http" {
			h = hostile.HTTPResponse(reply)
		}
		s, err := hostile.Start(0, h)
		ts.Check(err)
		ts.Defer(s.Close)
		recorders.Lock()
		recorders.m[ts.Getenv("WORK")+"\x00"+name] = s
		recorders.Unlock()
		addr = s.Addr
	case "ftp":
		files := map[string][]byte{}
		ts.Check(filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			rel, _ := filepath.Rel(arg, p)
			files["/"+filepath.ToSlash(rel)] = b
			return err
		}))
		s, err := fakeservers.FTP(files)
		ts.Check(err)
		ts.Defer(s.Close)
		addr = s.Addr()
	default:
		ts.Fatalf("serve: unknown server kind %q (http, gopher, ftp)", kind)
	}
	ts.Setenv(name, addr)
}

// scriptReceived writes to stdout what the recording server NAME (serve
// http or gopher) has received so far, each CR LF as "\n" (so that cmp
// and stdout can check it).
func scriptReceived(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: received NAME")
	}
	recorders.Lock()
	s := recorders.m[ts.Getenv("WORK")+"\x00"+args[0]]
	recorders.Unlock()
	if s == nil {
		ts.Fatalf("received: no recording server %q (start it with serve http or serve gopher)", args[0])
	}
	fmt.Fprint(ts.Stdout(), strings.ReplaceAll(s.Received(), "\r\n", "\n"))
}

// scriptCRLF rewrites each FILE with CR LF line endings, for comparing
// output that ends its lines so (get -I shows headers as curl -I does).
func scriptCRLF(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: crlf FILE...")
	}
	for _, a := range args {
		b, err := os.ReadFile(ts.MkAbs(a))
		ts.Check(err)
		b = []byte(toCRLF(string(b)))
		ts.Check(os.WriteFile(ts.MkAbs(a), b, 0o666))
	}
}

// toCRLF ends every line of s with CR LF.
func toCRLF(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}
