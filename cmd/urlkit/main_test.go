package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// runCLI runs urlkit in-process with the given standard input and
// arguments, and returns its output streams and exit status.
func runCLI(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	code = run(e, args)
	return out.String(), errOut.String(), code
}

func TestUsage(t *testing.T) {
	if _, errOut, code := runCLI(t, ""); code != exitUsage || !strings.Contains(errOut, "usage: urlkit") {
		t.Errorf("no args: code %d, stderr %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, "", "frobnicate"); code != exitUsage || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Errorf("unknown command: code %d, stderr %q", code, errOut)
	}
	out, _, code := runCLI(t, "", "help")
	for _, c := range []string{"parse", "escape", "unescape", "canon", "equal"} {
		if !strings.Contains(out, "  "+c+" ") || code != exitOK {
			t.Errorf("help does not list %s: %q", c, out)
		}
	}
	for _, c := range []string{"parse", "escape", "unescape", "canon", "equal"} {
		out, _, code := runCLI(t, "", c, "--help")
		if code != exitOK || !strings.Contains(out, "usage: urlkit "+c) {
			t.Errorf("%s --help: code %d, %q", c, code, out)
		}
	}
	if _, _, code := runCLI(t, "", "parse", "--bogus"); code != exitUsage {
		t.Errorf("bad flag: code %d", code)
	}
}

func TestParseCommand(t *testing.T) {
	out, errOut, code := runCLI(t, "", "parse", "ftp://myname@host.dom/%2Fetc/motd;type=a")
	if code != exitOK || errOut != "" {
		t.Fatalf("code %d stderr %q", code, errOut)
	}
	for _, want := range []string{`user:     "myname"`, `host:     "host.dom"`, `path:     "%2Fetc/motd;type=a"`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "password") {
		t.Errorf("absent password printed:\n%s", out)
	}
}

func TestParseJSON(t *testing.T) {
	in := "ftp://@host.com/\nftp://foo:@host.com/\nhttp://h/a%zz\nhttp://h/?#\n"
	out, errOut, code := runCLI(t, in, "parse", "--json")
	if code != exitInvalid {
		t.Errorf("code %d, want 1 (one input is invalid)", code)
	}
	if !strings.Contains(errOut, `offset 10 in path: "%zz" is not a valid escape`) {
		t.Errorf("stderr lacks the positioned error: %q", errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("want 4 JSON lines, got %d:\n%s", len(lines), out)
	}
	var objs []map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("bad JSON %q: %v", l, err)
		}
		objs = append(objs, m)
	}
	// RFC 1738 3.1: empty user, no password.
	if objs[0]["user"] != "" || objs[0]["password"] != nil || objs[0]["port"] != nil || objs[0]["path"] != "" {
		t.Errorf("ftp://@host.com/: %v", objs[0])
	}
	if objs[1]["user"] != "foo" || objs[1]["password"] != "" {
		t.Errorf("ftp://foo:@host.com/: %v", objs[1])
	}
	e, _ := objs[2]["error"].(map[string]any)
	if objs[2]["valid"] != false || e == nil || e["offset"] != float64(10) || !strings.Contains(e["message"].(string), "%zz") {
		t.Errorf("invalid input: %v", objs[2])
	}
	if objs[3]["search"] != "" || objs[3]["fragment"] != "" || objs[3]["input"] != "http://h/?#" {
		t.Errorf("empty search and fragment: %v", objs[3])
	}
	for _, k := range []string{"input", "valid", "scheme", "host", "path"} {
		if _, ok := objs[0][k]; !ok {
			t.Errorf("key %q missing: %v", k, objs[0])
		}
	}
}

func TestParseLenientCommand(t *testing.T) {
	out, errOut, code := runCLI(t, "", "parse", "--lenient", "http://h/a b")
	if code != exitOK || !strings.Contains(out, "http://h/a%20b") || !strings.Contains(errOut, "warning: offset 10 in path") {
		t.Errorf("code %d out %q err %q", code, out, errOut)
	}
	if _, _, code := runCLI(t, "", "parse", "http://h/a b"); code != exitInvalid {
		t.Errorf("strict parse accepted a space")
	}
}

func TestEscapeCommands(t *testing.T) {
	out, _, code := runCLI(t, "", "escape", "--set", "segment", "/etc;x")
	if code != exitOK || out != "%2Fetc%3Bx\n" {
		t.Errorf("escape: %d %q", code, out)
	}
	if _, errOut, code := runCLI(t, "", "escape", "--set", "nope", "x"); code != exitUsage || !strings.Contains(errOut, `unknown name "nope"; the names are the parts scheme,`) {
		t.Errorf("escape bad set: %d %q", code, errOut)
	}
	out, errOut, code := runCLI(t, "a%20b\nasdf%*.fred\nx+y\n", "unescape")
	if code != exitInvalid || out != "a b\nx+y\n" || !strings.Contains(errOut, "offset 4") {
		t.Errorf("unescape: %d %q %q", code, out, errOut)
	}
	out, _, _ = runCLI(t, "", "unescape", "--search", "x+y%2B")
	if out != "x y+\n" {
		t.Errorf("unescape --search: %q", out)
	}
}

func TestCanonAndEqualCommands(t *testing.T) {
	out, _, code := runCLI(t, "", "canon", "HTTP://Info.CERN.ch:80/marie%2dclaude")
	if code != exitOK || out != "http://info.cern.ch/marie-claude\n" {
		t.Errorf("canon: %d %q", code, out)
	}
	if _, errOut, code := runCLI(t, "", "canon", "http://h/%"); code != exitInvalid || !strings.Contains(errOut, "offset 9") {
		t.Errorf("canon invalid: %d %q", code, errOut)
	}
	// RFC 1630 Examples 1 and 2.
	a := "http://info.cern.ch/albert/bertram/marie-claude"
	if out, _, code := runCLI(t, "", "equal", a, "http://info.cern.ch/albert/bertram/marie%2Dclaude"); code != exitOK || !strings.HasPrefix(out, "equal\t") {
		t.Errorf("equal example 1: %d %q", code, out)
	}
	if out, _, code := runCLI(t, "", "equal", a, "http://info.cern.ch/albert/bertram%2Fmarie-claude"); code != exitInvalid || !strings.HasPrefix(out, "different\t") {
		t.Errorf("equal example 2: %d %q", code, out)
	}
	out, errOut, code := runCLI(t, "http://h/ http://H:80\none\n", "equal", "--json")
	if code != exitInvalid || !strings.Contains(out, `"equal":true`) || !strings.Contains(errOut, "want two URLs") {
		t.Errorf("equal stdin: %d %q %q", code, out, errOut)
	}
	if _, _, code := runCLI(t, "", "equal", a); code != exitUsage {
		t.Errorf("equal with one URL: %d", code)
	}
}

// TestStreaming checks that output for a line of standard input is written
// before the next line arrives.
func TestStreaming(t *testing.T) {
	pr, pw := io.Pipe()
	outR, outW := io.Pipe()
	e := &env{stdin: pr, stdout: outW, stderr: io.Discard, getenv: func(string) string { return "" }}
	done := make(chan int)
	go func() { done <- run(e, []string{"canon"}); outW.Close() }()
	lines := bufio.NewReader(outR)
	for _, tt := range [][2]string{{"HTTP://A/", "http://a/"}, {"http://b/%7e", "http://b/%7E"}} {
		in, want := tt[0], tt[1]
		go pw.Write([]byte(in + "\n"))
		got := make(chan string)
		go func() { l, _ := lines.ReadString('\n'); got <- l }()
		select {
		case l := <-got:
			if strings.TrimSpace(l) != want {
				t.Errorf("got %q for %q", l, in)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no output for %q before end of input", in)
		}
	}
	pw.Close()
	if code := <-done; code != exitOK {
		t.Errorf("exit %d", code)
	}
}

// A URL that passes the generic syntax but breaks its scheme's grammar
// (RFC 1738 5: an http search has no "/") is not valid.
func TestParseSchemeError(t *testing.T) {
	out, errOut, code := runCLI(t, "", "parse", "--json", "http://h.dom/p?a/b")
	if code != exitInvalid || !strings.Contains(out, `"valid":false`) || !strings.Contains(out, `"error":{"offset":16,"component":"search"`) || !strings.Contains(errOut, `"http://h.dom/p?a/b": offset 16 in search`) {
		t.Errorf("code %d out %q err %q", code, out, errOut)
	}
}
