package access

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/testio"
	"github.com/urlkit/urlkit/scheme"
)

// The FTP client's whole conversation, pinned: for each plan variant
// (;type=a, i and d, directories with and without a final "/", the 550
// fallback to a directory listing, EPSV refused and PASV after it, a
// login with and without a password, a password asked, FEAT and the
// listing fallbacks, Head plans, refusals at each step, pooled sessions
// reused, kept or dropped), what the scripted server below received on
// each control connection, the trace (get -v), what Options.Capture saw,
// and the resource or error the caller got. The transcripts in
// testdata/ftpwire were written by the client as it was before ftpSession
// became a state machine (issue 35 item 7), so that any change in the
// commands sent, their order, the errors or the traces shows as a diff.
// URLKIT_UPDATE_FTPWIRE=1 rewrites them (review the diff before
// committing). The replies follow RFC 959 4.2 (codes), RFC 2428 (EPSV),
// RFC 2389 (FEAT) and RFC 3659 (SIZE, MDTM, MLSD); the fallbacks are
// RFC 1738 3.2.2's and lynx's reading of a name with no final "/".
func TestFTPWireTranscripts(t *testing.T) {
	update := os.Getenv("URLKIT_UPDATE_FTPWIRE") == "1"
	names := map[string]bool{}
	for _, sc := range ftpWireScenarios(t) {
		names[sc.name] = true
		t.Run(sc.name, func(t *testing.T) {
			got := runFTPWire(t, sc)
			path := filepath.Join("testdata", "ftpwire", sc.name+".txt")
			if update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (URLKIT_UPDATE_FTPWIRE=1 writes it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the conversation now:\n--- now\n%s\n--- %s\n%s", path, got, path, want)
			}
		})
	}
	// Every transcript kept has its scenario.
	files, _ := filepath.Glob(filepath.Join("testdata", "ftpwire", "*.txt"))
	for _, f := range files {
		if n := strings.TrimSuffix(filepath.Base(f), ".txt"); !names[n] && !update {
			t.Errorf("%s has no scenario", f)
		}
	}
}

// wireRule answers a command of the scripted server: the first rule whose
// cmd is the command line, or its verb, answers (and, with nth, only the
// nth time that cmd is received, counting every connection).
type wireRule struct {
	cmd   string
	nth   int
	reply string // the reply, lines joined by "\r\n"; "" for the default
	close bool   // close the control connection instead of answering
	// transfer: after reply (1xx or 2xx), data is sent on the data
	// connection, then done (unless empty, or the reply was 2xx).
	transfer bool
	data     string
	done     string
}

// wireFTP is a scripted FTP server that records, per control connection,
// each line it receives. Without a rule, it answers USER 331, PASS 230,
// CWD 250, TYPE 200, EPSV 229 and PASV 227 (opening a data listener),
// QUIT 221, and any other command 502.
type wireFTP struct {
	greeting []string
	rules    []wireRule

	mu     sync.Mutex
	counts map[string]int
	logs   [][]string
	wg     sync.WaitGroup
	ln     net.Listener
}

func (w *wireFTP) start(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w.ln, w.counts = ln, map[string]int{}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			w.mu.Lock()
			id := len(w.logs)
			w.logs = append(w.logs, nil)
			w.mu.Unlock()
			w.wg.Add(1)
			go func() {
				defer w.wg.Done()
				defer c.Close()
				w.serve(c, id)
			}()
		}
	}()
	return ln.Addr().String()
}

// stop waits for every connection to end and returns what each received.
func (w *wireFTP) stop() string {
	w.ln.Close()
	w.wg.Wait()
	var b strings.Builder
	for i, l := range w.logs {
		for _, s := range l {
			fmt.Fprintf(&b, "c%d: %s\n", i+1, s)
		}
	}
	return b.String()
}

func (w *wireFTP) log(id int, s string) {
	w.mu.Lock()
	w.logs[id] = append(w.logs[id], s)
	w.mu.Unlock()
}

func (w *wireFTP) rule(line, verb string) wireRule {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.counts[line]++
	if verb != line {
		w.counts[verb]++
	}
	for _, r := range w.rules {
		if (r.cmd == line || r.cmd == verb) && (r.nth == 0 || r.nth == w.counts[r.cmd]) {
			return r
		}
	}
	return wireRule{}
}

func (w *wireFTP) serve(c net.Conn, id int) {
	say := func(s string) { io.WriteString(c, s+"\r\n") }
	greeting := w.greeting
	if greeting == nil {
		greeting = []string{"220 scripted"}
	}
	for _, g := range greeting {
		say(g)
	}
	var dl net.Listener
	defer func() {
		if dl != nil {
			dl.Close()
		}
	}()
	br := bufio.NewReader(c)
	for {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		line, err := br.ReadString('\n')
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				w.log(id, "(the client left the connection open)")
			} else {
				w.log(id, "(closed by the client)")
			}
			return
		}
		line = strings.TrimRight(line, "\r\n")
		w.log(id, line)
		verb, _, _ := strings.Cut(line, " ")
		r := w.rule(line, verb)
		switch {
		case r.close:
			w.log(id, "(closed by the server)")
			return
		case r.reply == "" && (verb == "EPSV" || verb == "PASV"):
			if dl != nil {
				dl.Close()
			}
			dl, _ = net.Listen("tcp", "127.0.0.1:0")
			p := dl.Addr().(*net.TCPAddr).Port
			if verb == "EPSV" {
				say(fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", p))
			} else {
				say(fmt.Sprintf("227 Entering Passive Mode (127,0,0,1,%d,%d).", p>>8, p&255))
			}
		case r.transfer:
			say(r.reply)
			if dl == nil {
				w.log(id, "(no data listener)")
				continue
			}
			dl.(*net.TCPListener).SetDeadline(time.Now().Add(5 * time.Second))
			d, err := dl.Accept()
			dl.Close()
			dl = nil
			if err != nil {
				w.log(id, "(no data connection)")
				continue
			}
			io.WriteString(d, r.data)
			d.Close()
			if r.done != "" && r.reply[0] == '1' {
				say(r.done)
			}
		case r.reply != "":
			say(r.reply)
		default:
			say(plainFTPReply(verb))
		}
		if verb == "QUIT" {
			return
		}
	}
}

// plainFTPReply is a willing server's reply to verb: USER 331, PASS 230,
// CWD 250, TYPE 200, QUIT 221; any other command 502.
func plainFTPReply(verb string) string {
	switch verb {
	case "USER":
		return "331 password please"
	case "PASS":
		return "230 logged in"
	case "CWD":
		return "250 directory changed"
	case "TYPE":
		return "200 type set"
	case "QUIT":
		return "221 bye"
	}
	return "502 " + verb + " not implemented"
}

// wireFetch is one retrieval of a scenario: a URL ("S" stands for the
// server's address) under cfg, or a plan made by hand.
type wireFetch struct {
	url    string
	cfg    scheme.Config
	plan   func(addr string) *scheme.FTPPlan
	prompt func(context.Context) (string, error)
	// readNone closes the stream without reading it.
	readNone bool
}

type wireScenario struct {
	name     string
	greeting []string
	rules    []wireRule
	pool     bool
	fetches  []wireFetch
}

// wireFile answers RETR name with a transfer of data, announced in the 150
// reply as vsftpd does.
func wireFile(name, data string) wireRule {
	return wireRule{cmd: "RETR " + name, transfer: true, reply: fmt.Sprintf("150 Opening BINARY mode data connection for %s (%d bytes).", name, len(data)), data: data, done: "226 Transfer complete."}
}

// wireListing answers line (NLST, LIST or MLSD with its argument) with a
// transfer of data.
func wireListing(line, data string) wireRule {
	return wireRule{cmd: line, transfer: true, reply: "150 Here comes the directory listing.", data: data, done: "226 Directory send OK."}
}

func wireRefuse(cmd, reply string) wireRule { return wireRule{cmd: cmd, reply: reply} }

func ftpWireScenarios(t testing.TB) []wireScenario {
	refused := testio.ClosedAddr(t)
	one := func(u string) []wireFetch { return []wireFetch{{url: u}} }
	head := scheme.Config{Head: true}
	details := scheme.Config{FTPListDetails: true}
	typed := func(context.Context) (string, error) { return "typed in", nil }
	user := scheme.FTPCommand{Verb: scheme.FTPUser, Arg: "u"}
	pass := scheme.FTPCommand{Verb: scheme.FTPPass, Arg: "pw", Pass: scheme.PassURL}
	epsv := scheme.FTPCommand{Verb: scheme.FTPEpsv, Else: [2]scheme.FTPVerb{scheme.FTPPasv}}
	mlst := "211-Features:\r\n EPSV\r\n MLST type*;size*;modify*;\r\n SIZE\r\n211 End"
	const names = "a.txt\r\nsub\r\n"
	return []wireScenario{
		// The plan variants, served as asked.
		{name: "retr-type-i", rules: []wireRule{wireFile("f.bin", "payload")}, fetches: one("ftp://S/pub/f.bin;type=i")},
		{name: "retr-type-a", rules: []wireRule{wireFile("f.txt", "line\r\n")}, fetches: one("ftp://S/f.txt;type=a")},
		{name: "retr-guessed", rules: []wireRule{wireFile("f.txt", "line\r\n")}, fetches: one("ftp://S/pub/f.txt")},
		{name: "retr-empty-cwd", rules: []wireRule{wireFile("x", "payload")}, fetches: one("ftp://u:secret@S//a%20b/x;type=i")},
		{name: "nlst-type-d", rules: []wireRule{wireListing("NLST pub", names)}, fetches: one("ftp://S/pub;type=d")},
		{name: "nlst-slash", rules: []wireRule{wireListing("NLST", names)}, fetches: one("ftp://S/pub/sub/")},
		{name: "nlst-root", rules: []wireRule{wireListing("NLST", names)}, fetches: one("ftp://S/")},
		// RETR refused with 550: a directory when CWD to the name is
		// accepted; the refusal stands when it is not, when the reply is
		// not 550, or when ;type= asked for a file.
		{name: "dir-fallback", rules: []wireRule{wireRefuse("RETR sub", "550 Failed to open file."), wireListing("NLST", names)}, fetches: one("ftp://S/pub/sub")},
		{name: "dir-fallback-cwd-refused", rules: []wireRule{wireRefuse("RETR nope", "550 Failed to open file."), wireRefuse("CWD nope", "550 Failed to change directory.")}, fetches: one("ftp://S/pub/nope")},
		{name: "dir-fallback-not-550", rules: []wireRule{wireRefuse("RETR sub", "450 busy")}, fetches: one("ftp://S/pub/sub")},
		{name: "dir-fallback-type-i", rules: []wireRule{wireRefuse("RETR sub", "550 Failed to open file.")}, fetches: one("ftp://S/pub/sub;type=i")},
		{name: "dir-fallback-listing-refused", rules: []wireRule{wireRefuse("RETR sub", "550 Failed to open file."), wireRefuse("NLST", "550 no")}, fetches: one("ftp://S/sub")},
		{name: "dir-fallback-details", rules: []wireRule{wireRefuse("RETR sub", "550 Failed to open file."), wireRefuse("FEAT", mlst), wireListing("MLSD", "type=file;size=1; a.txt\r\n")}, fetches: []wireFetch{{url: "ftp://S/sub", cfg: details}}},
		// The data connection.
		{name: "epsv-refused-pasv", rules: []wireRule{wireRefuse("EPSV", "500 EPSV not understood"), wireFile("f", "payload")}, fetches: one("ftp://S/f;type=i")},
		{name: "pasv-refused", rules: []wireRule{wireRefuse("EPSV", "500 EPSV not understood"), wireRefuse("PASV", "502 no")}, fetches: one("ftp://S/f;type=i")},
		{name: "epsv-malformed", rules: []wireRule{wireRefuse("EPSV", "229 Entering Extended Passive Mode (|||x|)")}, fetches: one("ftp://S/f;type=i")},
		{name: "pasv-malformed", rules: []wireRule{wireRefuse("EPSV", "502 no"), wireRefuse("PASV", "227 Entering Passive Mode (1,2,3)")}, fetches: one("ftp://S/f;type=i")},
		{name: "epsv-no-else", rules: []wireRule{wireRefuse("EPSV", "500 EPSV not understood")}, fetches: []wireFetch{{plan: func(a string) *scheme.FTPPlan {
			return ftpPlanBy(a, user, pass, scheme.FTPCommand{Verb: scheme.FTPEpsv})
		}}}},
		{name: "pasv-alone", rules: []wireRule{wireFile("x", "payload")}, fetches: []wireFetch{{plan: func(a string) *scheme.FTPPlan {
			return ftpPlanBy(a, user, pass, scheme.FTPCommand{Verb: scheme.FTPPasv})
		}}}},
		{name: "data-port-refused", rules: []wireRule{wireRefuse("EPSV", "229 Entering Extended Passive Mode (|||1|)")}, fetches: one("ftp://S/f;type=i")},
		// The login.
		{name: "user-230", rules: []wireRule{wireRefuse("USER", "230 no password needed"), wireFile("f", "payload")}, fetches: one("ftp://S/f;type=i")},
		{name: "user-202", rules: []wireRule{wireRefuse("USER", "202 superfluous"), wireFile("f", "payload")}, fetches: one("ftp://u:pw@S/f;type=i")},
		{name: "user-332", rules: []wireRule{wireRefuse("USER", "332 need account")}, fetches: one("ftp://S/f;type=i")},
		{name: "user-530", rules: []wireRule{wireRefuse("USER", "530 not you")}, fetches: one("ftp://S/f;type=i")},
		{name: "pass-530", rules: []wireRule{wireRefuse("PASS", "530 Login incorrect.")}, fetches: one("ftp://u:wrong@S/f;type=i")},
		{name: "pass-url", rules: []wireRule{wireFile("f", "payload")}, fetches: one("ftp://u:s%65cret@S/f;type=i")},
		{name: "pass-asked", rules: []wireRule{wireFile("f", "payload")}, fetches: []wireFetch{{url: "ftp://u@S/f;type=i", prompt: typed}}},
		{name: "pass-asked-no-prompt", fetches: one("ftp://u@S/f;type=i")},
		{name: "pass-asked-prompt-fails", fetches: []wireFetch{{url: "ftp://u@S/f;type=i", prompt: func(context.Context) (string, error) { return "", errors.New("no terminal") }}}},
		{name: "pass-asked-crlf", fetches: []wireFetch{{url: "ftp://u@S/f;type=i", prompt: func(context.Context) (string, error) { return "a\r\nDELE x", nil }}}},
		{name: "pass-asked-user-230", rules: []wireRule{wireRefuse("USER", "230 no password needed"), wireFile("f", "payload")}, fetches: []wireFetch{{url: "ftp://u@S/f;type=i", prompt: func(context.Context) (string, error) { return "", errors.New("asked") }}}},
		// The greeting.
		{name: "greeting-120", greeting: []string{"120 ready in 1 minute", "220 ready"}, rules: []wireRule{wireFile("f", "payload")}, fetches: one("ftp://S/f;type=i")},
		{name: "greeting-120-forever", greeting: []string{"120 a", "120 b", "120 c", "120 d", "120 e", "120 f"}, fetches: one("ftp://S/f;type=i")},
		{name: "greeting-421", greeting: []string{"421 too many users"}, fetches: one("ftp://S/f;type=i")},
		{name: "greeting-malformed", greeting: []string{"hello"}, fetches: one("ftp://S/f;type=i")},
		{name: "greeting-multiline", greeting: []string{"220-welcome", " to the", "220 server"}, rules: []wireRule{wireFile("f", "payload")}, fetches: one("ftp://S/f;type=i")},
		// Refusals on the way.
		{name: "cwd-550", rules: []wireRule{wireRefuse("CWD a", "550 no such directory")}, fetches: one("ftp://S/a/b/f;type=i")},
		{name: "type-504", rules: []wireRule{wireRefuse("TYPE", "504 not that type")}, fetches: one("ftp://S/f;type=a")},
		{name: "server-closes", rules: []wireRule{{cmd: "TYPE", close: true}}, fetches: one("ftp://S/f;type=i")},
		{name: "dial-refused", fetches: []wireFetch{{plan: func(string) *scheme.FTPPlan { return ftpPlanBy(refused, user, pass, epsv) }}}},
		// Head plans: SIZE and MDTM.
		{name: "head-file", rules: []wireRule{wireRefuse("SIZE", "213 1234"), wireRefuse("MDTM", "213 20251104100000")}, fetches: []wireFetch{{url: "ftp://S/pub/f.txt", cfg: head}}},
		{name: "head-mdtm-refused", rules: []wireRule{wireRefuse("SIZE", "213 1234"), wireRefuse("MDTM", "550 no")}, fetches: []wireFetch{{url: "ftp://S/f.txt", cfg: head}}},
		{name: "head-mdtm-malformed", rules: []wireRule{wireRefuse("SIZE", "213 1234"), wireRefuse("MDTM", "213 2025-11-04")}, fetches: []wireFetch{{url: "ftp://S/f.txt", cfg: head}}},
		{name: "head-size-malformed", rules: []wireRule{wireRefuse("SIZE", "213 12a")}, fetches: []wireFetch{{url: "ftp://S/f.txt", cfg: head}}},
		{name: "head-size-refused", rules: []wireRule{wireRefuse("SIZE", "550 no"), wireRefuse("CWD f.txt", "550 not a directory")}, fetches: []wireFetch{{url: "ftp://S/f.txt", cfg: head}}},
		{name: "head-size-500", rules: []wireRule{wireRefuse("SIZE", "500 what")}, fetches: []wireFetch{{url: "ftp://S/f.txt", cfg: head}}},
		{name: "head-dir-fallback", rules: []wireRule{wireRefuse("SIZE", "550 no")}, fetches: []wireFetch{{url: "ftp://S/pub/sub", cfg: head}}},
		{name: "head-dir-slash", fetches: []wireFetch{{url: "ftp://S/pub/sub/", cfg: head}}},
		// Listing details: FEAT, MLSD, LIST, NLST.
		{name: "details-mlsd", rules: []wireRule{wireRefuse("FEAT", mlst), wireListing("MLSD pub", "type=file;size=1; a.txt\r\n")}, fetches: []wireFetch{{url: "ftp://S/pub;type=d", cfg: details}}},
		{name: "details-list", rules: []wireRule{wireListing("LIST pub", "-rw-r--r-- 1 ftp ftp 1 Jan 01 2024 a.txt\r\n")}, fetches: []wireFetch{{url: "ftp://S/pub;type=d", cfg: details}}},
		{name: "details-nlst", rules: []wireRule{wireRefuse("LIST pub", "502 no LIST"), wireListing("NLST pub", names)}, fetches: []wireFetch{{url: "ftp://S/pub;type=d", cfg: details}}},
		{name: "details-mlsd-refused", rules: []wireRule{wireRefuse("FEAT", mlst), wireRefuse("MLSD pub", "500 no"), wireListing("NLST pub", names)}, fetches: []wireFetch{{url: "ftp://S/pub;type=d", cfg: details}}},
		{name: "details-all-refused", rules: []wireRule{wireRefuse("LIST pub", "502 no LIST"), wireRefuse("NLST pub", "502 no NLST")}, fetches: []wireFetch{{url: "ftp://S/pub;type=d", cfg: details}}},
		{name: "details-second-epsv-refused", rules: []wireRule{wireRefuse("LIST pub", "502 no LIST"), {cmd: "EPSV", nth: 2, reply: "425 no more"}}, fetches: []wireFetch{{url: "ftp://S/pub;type=d", cfg: details}}},
		// The transfer and its completion.
		{name: "retr-completes-first", rules: []wireRule{{cmd: "RETR f", transfer: true, reply: "250 done already", data: "payload"}}, fetches: one("ftp://S/f;type=i")},
		{name: "retr-completion-refused", rules: []wireRule{{cmd: "RETR f", transfer: true, reply: "150 here (7 bytes)", data: "payload", done: "451 aborted"}}, fetches: one("ftp://S/f;type=i")},
		{name: "retr-short", rules: []wireRule{{cmd: "RETR f", transfer: true, reply: "150 here (100 bytes)", data: "payload", done: "226 done"}}, fetches: one("ftp://S/f;type=i")},
		{name: "retr-long", rules: []wireRule{{cmd: "RETR f", transfer: true, reply: "150 here (3 bytes)", data: "payload", done: "226 done"}}, fetches: one("ftp://S/f;type=i")},
		{name: "retr-no-size", rules: []wireRule{{cmd: "RETR f", transfer: true, reply: "150 here", data: "payload", done: "226 done"}}, fetches: one("ftp://S/f;type=i")},
		{name: "retr-502", rules: []wireRule{wireRefuse("RETR f", "502 no")}, fetches: one("ftp://S/f;type=i")},
		{name: "retr-malformed", rules: []wireRule{wireRefuse("RETR f", "ok then")}, fetches: one("ftp://S/f;type=i")},
		{name: "closed-unread", rules: []wireRule{wireFile("f", "payload")}, fetches: []wireFetch{{url: "ftp://S/f;type=i", readNone: true}}},
		// Plans made by hand that this client does not carry out.
		{name: "plan-retr-before-epsv", fetches: []wireFetch{{plan: func(a string) *scheme.FTPPlan { return ftpPlanBy(a, user, pass) }}}},
		{name: "plan-mlst-step", fetches: []wireFetch{{plan: func(a string) *scheme.FTPPlan {
			return ftpPlanBy(a, user, pass, scheme.FTPCommand{Verb: scheme.FTPMlst, Arg: "x"}, epsv)
		}}}},
		{name: "plan-directory-without-transfer", rules: []wireRule{wireRefuse("RETR x", "550 no")}, fetches: []wireFetch{{plan: func(a string) *scheme.FTPPlan {
			p := ftpPlanBy(a, user, pass, epsv)
			p.Directory = []scheme.FTPCommand{{Verb: scheme.FTPCwd, Arg: "x"}}
			return p
		}}}},
		// Pooled sessions (Options.FTPSessions, as the gateway sets it).
		{name: "pool-same-file", pool: true, rules: []wireRule{wireFile("f.txt", "line\r\n")}, fetches: []wireFetch{{url: "ftp://S/pub/f.txt"}, {url: "ftp://S/pub/f.txt"}, {url: "ftp://S/pub/f.txt"}}},
		{name: "pool-type-change", pool: true, rules: []wireRule{wireFile("f.txt", "line\r\n"), wireFile("g.bin", "\x01\x02")}, fetches: []wireFetch{{url: "ftp://S/pub/f.txt"}, {url: "ftp://S/pub/g.bin"}, {url: "ftp://S/pub/f.txt"}}},
		{name: "pool-other-directory", pool: true, rules: []wireRule{wireFile("f.txt", "line\r\n")}, fetches: []wireFetch{{url: "ftp://S/a/f.txt"}, {url: "ftp://S/b/f.txt"}, {url: "ftp://u:pw@S/a/f.txt"}, {url: "ftp://S/a/f.txt"}}},
		{name: "pool-feat-kept", pool: true, rules: []wireRule{wireRefuse("FEAT", mlst), wireListing("MLSD pub", "type=file;size=1; a.txt\r\n")}, fetches: []wireFetch{{url: "ftp://S/pub;type=d", cfg: details}, {url: "ftp://S/pub;type=d", cfg: details}}},
		{name: "pool-listing", pool: true, rules: []wireRule{wireListing("NLST", names)}, fetches: []wireFetch{{url: "ftp://S/pub/"}, {url: "ftp://S/pub/"}}},
		{name: "pool-dir-fallback-not-kept", pool: true, rules: []wireRule{wireRefuse("RETR sub", "550 Failed to open file."), wireListing("NLST", names)}, fetches: []wireFetch{{url: "ftp://S/pub/sub"}, {url: "ftp://S/pub/sub"}}},
		{name: "pool-kept-closed", pool: true, rules: []wireRule{wireFile("f", "payload"), {cmd: "EPSV", nth: 2, close: true}}, fetches: []wireFetch{{url: "ftp://S/f;type=i"}, {url: "ftp://S/f;type=i"}}},
		{name: "pool-kept-refuses", pool: true, rules: []wireRule{wireFile("f.txt", "line\r\n"), {cmd: "TYPE I", reply: "504 not now"}}, fetches: []wireFetch{{url: "ftp://S/f.txt"}, {url: "ftp://S/g.bin"}}},
		{name: "pool-refused-not-kept", pool: true, rules: []wireRule{wireRefuse("RETR f", "550 no")}, fetches: []wireFetch{{url: "ftp://S/f;type=i"}, {url: "ftp://S/f;type=i"}}},
		{name: "pool-short-not-kept", pool: true, rules: []wireRule{{cmd: "RETR f", transfer: true, reply: "150 here (100 bytes)", data: "payload", done: "226 done"}}, fetches: []wireFetch{{url: "ftp://S/f;type=i"}, {url: "ftp://S/f;type=i"}}},
		{name: "pool-unread-not-kept", pool: true, rules: []wireRule{wireFile("f", "payload")}, fetches: []wireFetch{{url: "ftp://S/f;type=i", readNone: true}, {url: "ftp://S/f;type=i"}}},
		{name: "pool-head-not-kept", pool: true, rules: []wireRule{wireRefuse("SIZE", "213 7"), wireRefuse("MDTM", "213 20251104100000")}, fetches: []wireFetch{{url: "ftp://S/f.txt", cfg: head}, {url: "ftp://S/f.txt", cfg: head}}},
		{name: "pool-asked-not-kept", pool: true, rules: []wireRule{wireFile("f", "payload")}, fetches: []wireFetch{{url: "ftp://u@S/f;type=i", prompt: typed}, {url: "ftp://u@S/f;type=i", prompt: typed}}},
		{name: "pool-completes-first", pool: true, rules: []wireRule{{cmd: "RETR f", transfer: true, reply: "250 done already", data: "payload"}}, fetches: []wireFetch{{url: "ftp://S/f;type=i"}, {url: "ftp://S/f;type=i"}}},
	}
}

var (
	wireAddr = regexp.MustCompile(`127\.0\.0\.1:\d+`)
	wireEPSV = regexp.MustCompile(`\(\|\|\|\d+\|\)`)
	wirePASV = regexp.MustCompile(`127,0,0,1,\d+,\d+`)
)

// runFTPWire carries out sc's fetches against a scripted server and
// returns the transcript, addresses and ports written as S and PORT.
func runFTPWire(t *testing.T, sc wireScenario) string {
	w := &wireFTP{greeting: sc.greeting, rules: sc.rules}
	addr := w.start(t)
	var pool *FTPSessions
	if sc.pool {
		pool = &FTPSessions{IdleTimeout: time.Minute}
	}
	var b strings.Builder
	for _, f := range sc.fetches {
		var p *scheme.FTPPlan
		if f.plan != nil {
			p = f.plan(addr)
			fmt.Fprintf(&b, "# plan %q\n", redactedLines(p))
		} else {
			fmt.Fprintf(&b, "# get %s", f.url)
			if f.cfg.Head {
				b.WriteString(" (head)")
			}
			if f.cfg.FTPListDetails {
				b.WriteString(" (list details)")
			}
			b.WriteString("\n")
			u := strings.Replace(f.url, "@S/", "@"+addr+"/", 1)
			u = strings.Replace(u, "//S/", "//"+addr+"/", 1)
			p = planFor(t, u, f.cfg).(*scheme.FTPPlan)
		}
		var trace, events strings.Builder
		var warnings []string
		opts := &Options{Trace: &trace, FTPSessions: pool, PasswordPrompt: f.prompt,
			Warn: func(err error) { warnings = append(warnings, err.Error()) },
			Capture: func(e Exchange) {
				c := e.Conn
				role := "control"
				if c.Data {
					role = "data (control " + c.Control + ")"
				}
				switch e.Kind {
				case Connected:
					fmt.Fprintf(&events, "connected %s %s %s to %s\n", c.Protocol, c.Network, role, c.Name)
				case Sent:
					fmt.Fprintf(&events, "sent %s %q\n", role, e.Data)
				case Received:
					fmt.Fprintf(&events, "received %s %q\n", role, e.Data)
				}
			}}
		r, err := Execute(context.Background(), p, opts)
		var result string
		if err != nil {
			result = fmt.Sprintf("error: %v (%s)\n", err, errKinds(err))
		} else {
			var body []byte
			var rerr error
			if !f.readNone {
				body, rerr = io.ReadAll(r)
			}
			cerr := r.Close()
			keys := make([]string, 0, len(r.Header))
			for k := range r.Header {
				keys = append(keys, k+": "+r.Header.Get(k))
			}
			sort.Strings(keys)
			result = fmt.Sprintf("resource: kind %q, list format %q, size %d, directory %v, header %q\nbody: %q\nread error: %v (%s)\nclose error: %v\n",
				r.Kind, r.ListFormat, r.Size, r.Directory, keys, body, rerr, errKinds(rerr), cerr)
		}
		b.WriteString("## trace\n" + trace.String())
		b.WriteString("## capture\n" + events.String())
		b.WriteString("## result\n" + result)
		for _, w := range warnings {
			b.WriteString("warning: " + w + "\n")
		}
		if pool != nil {
			fmt.Fprintf(&b, "sessions kept: %d\n", pool.Len())
		}
	}
	if pool != nil {
		pool.Close()
	}
	b.WriteString("# the server received\n" + w.stop())
	out := strings.ReplaceAll(b.String(), addr, "S")
	out = wireAddr.ReplaceAllString(out, "127.0.0.1:PORT")
	out = wireEPSV.ReplaceAllString(out, "(|||PORT|)")
	return wirePASV.ReplaceAllString(out, "127,0,0,1,P,P")
}

// errKinds names the typed errors err wraps, for the transcripts.
func errKinds(err error) string {
	if err == nil {
		return "none"
	}
	var kinds []string
	var re *ReplyError
	var se *StepError
	var le *LimitError
	var ce *ConnectError
	var ze *SizeError
	if errors.As(err, &re) {
		kinds = append(kinds, fmt.Sprintf("ReplyError step %q code %d", re.Step, re.Code))
	}
	if errors.As(err, &se) {
		kinds = append(kinds, fmt.Sprintf("StepError step %q", se.Step))
	}
	if errors.As(err, &le) {
		kinds = append(kinds, "LimitError")
	}
	if errors.As(err, &ce) {
		kinds = append(kinds, "ConnectError")
	}
	if errors.As(err, &ze) {
		kinds = append(kinds, "SizeError")
	}
	if errors.Is(err, ErrPasswordRequired) {
		kinds = append(kinds, "ErrPasswordRequired")
	}
	if len(kinds) == 0 {
		return fmt.Sprintf("%T", err)
	}
	return strings.Join(kinds, ", ")
}
