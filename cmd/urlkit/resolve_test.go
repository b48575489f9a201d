package main

import (
	"bytes"
	"strings"
	"testing"
)

func runResolveCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(&env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}, args)
	return out.String(), errb.String(), code
}

func TestResolveCommand(t *testing.T) {
	tests := []struct {
		args   []string
		stdin  string
		out    string
		errHas string
		code   int
	}{
		// RFC 1630 "Partial (relative) form" examples: the rule by default,
		// the printed table with --mode libwww.
		{args: []string{"resolve", "magic://a/b/c//d/e/f", "g", "/g", "//g", "../g", "g:h"},
			out: "magic://a/b/c//d/e/g\nmagic://a/b/c//d/g\nmagic://g\nmagic://a/b/c//d/g\ng:h\n"},
		{args: []string{"resolve", "--mode", "libwww", "magic://a/b/c//d/e/f", "//g"}, out: "magic://g/\n"},
		{args: []string{"resolve", "--mode", "libwww", "magic://a/b/c//d/e/f", "/g"}, out: "magic://a/g\n"},
		// RFC 3986 5.4.1, references from standard input.
		{args: []string{"resolve", "--mode=rfc3986", "http://a/b/c/d;p?q"}, stdin: "?y\n../../g\r\n;x\n",
			out: "http://a/b/c/d;p?y\nhttp://a/g\nhttp://a/b/c/;x\n"},
		{args: []string{"resolve", "--mode", "rfc1808", "http://a/b/c/d;p?q#f", ";x"}, out: "http://a/b/c/d;x\n"},
		{args: []string{"resolve", "--json", "--mode", "rfc3986", "http://a/b", "g"},
			out: `{"input":"g","valid":true,"base":"http://a/b","mode":"rfc3986","result":"http://a/g","warnings":[]}` + "\n"},
		// Issue 10: a base that breaks only http's rules resolves, with a
		// warning on stderr and in "warnings"; --strict makes it a failure.
		{args: []string{"resolve", "http:///s//a/b/c", "g"}, out: "http:///s//a/b/g\n", errHas: `warning: base "http:///s//a/b/c": offset 7 in host: missing host`},
		{args: []string{"resolve", "--strict", "http:///s//a/b/c", "g"}, errHas: `warning: base "http:///s//a/b/c"`, code: exitInvalid},
		{args: []string{"resolve", "--json", "--mode", "rfc3986", "http://a/b/c/d;p?q", "//g?y"},
			out:    `{"input":"//g?y","valid":true,"base":"http://a/b/c/d;p?q","mode":"rfc3986","result":"http://g?y","warnings":[{"part":"result","text":"http://g?y","offset":8,"component":"host","message":"\"?\" is not allowed in a host name: the url-path, and any search part, must start with \"/\" (RFC 1738 3.1)"}]}` + "\n",
			errHas: "warning: result"},
		// RFC 1630: a colon before any slash is an absolute form.
		{args: []string{"resolve", "http://a/b/c/d", "a_b:y"}, errHas: `reference "a_b:y": offset 1 in scheme`, code: exitInvalid},
		{args: []string{"resolve", "--mode", "rfc1808", "http://a/b/c/d", "a_b:y"}, out: "http://a/b/c/a_b:y\n"},
		// Errors: positioned, non-zero exit, the other references still done.
		{args: []string{"resolve", "http://a/b/c", "g h", "x"}, out: "http://a/b/x\n", errHas: `reference "g h": offset 1 in path`, code: exitInvalid},
		{args: []string{"resolve", "http://a b/", "x"}, errHas: `base "http://a b/": offset 8 in host`, code: exitInvalid},
		{args: []string{"resolve", "--mode", "rfc2396", "http://a/", "x"}, errHas: "unknown resolution mode", code: exitUsage},
		{args: []string{"resolve"}, errHas: "missing BASE", code: exitUsage},
		// relative: the inverse.
		{args: []string{"relative", "--mode", "rfc3986", "http://a/b/c/d;p?q", "http://a/b/g", "http://a/b/c/d;p?y", "ftp://x/"},
			out: "../g\n?y\nftp://x/\n"},
		{args: []string{"relative", "magic://a/b/c//d/e/f", "magic://a/b/c//d/g"}, out: "/g\n"},
		{args: []string{"relative", "http:///s//a/b/c", "http:///s//a/g"}, out: "/g\n", errHas: `warning: base "http:///s//a/b/c"`},
		{args: []string{"relative", "--strict", "http:///s//a/b/c", "http:///s//a/g"}, errHas: "--strict", code: exitInvalid},
		{args: []string{"relative", "--mode", "rfc3986", "http://a/b/c", "http://a/./g"}, errHas: "no reference resolves to the target", code: exitInvalid},
		{args: []string{"relative", "http://a/b/c", "http://a/%zz"}, errHas: `target "http://a/%zz": offset 9 in path`, code: exitInvalid},
	}
	for _, tt := range tests {
		out, errOut, code := runResolveCLI(t, tt.stdin, tt.args...)
		if out != tt.out || code != tt.code || (tt.errHas != "" && !strings.Contains(errOut, tt.errHas)) || (tt.errHas == "" && errOut != "") {
			t.Errorf("urlkit %q: code %d, stdout %q, stderr %q; want code %d, stdout %q, stderr containing %q", tt.args, code, out, errOut, tt.code, tt.out, tt.errHas)
		}
	}
}
