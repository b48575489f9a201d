package main

import (
	"strings"
	"testing"
)

func TestEdit(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--set", "host=info.cern.ch", "--set", "path=/hypertext/WWW", "http://a.com/x"}, "http://info.cern.ch/hypertext/WWW\n"},
		{[]string{"--set", "path:=%2Fetc/motd", "ftp://h.com/"}, "ftp://h.com/%2Fetc/motd\n"}, // RFC 1738 3.2.2
		{[]string{"--set", "user=me@home", "ftp://h.com/"}, "ftp://me%40home@h.com/\n"},
		{[]string{"--append", "path=my docs", "--append", "search=q=a b", "ftp://h.com/pub"}, "ftp://h.com/pub/my%20docs?q=a+b\n"},
		{[]string{"--append", "search=flag", "http://h.com/"}, "http://h.com/?flag\n"},
		{[]string{"--delete", "port", "--delete", "fragment", "gopher://h.com:70/1x#y"}, "gopher://h.com/1x\n"},
		{[]string{"--delete", "search:utm", "http://h.com/?utm=1&id=2&utm=3"}, "http://h.com/?id=2\n"},
		{[]string{"--sort-search", "http://h.com/?b=2&a=%31&a=0"}, "http://h.com/?a=0&a=%31&b=2\n"},
		{[]string{"--redirect", "../g", "http://a/b/c/d"}, "http://a/b/g\n"}, // RFC 1630 partial form
		{[]string{"--canonical", "--set", "scheme=HTTP", "http://h.com:80"}, "http://h.com/\n"},
		{[]string{"--format", "{host} {default:port} {search:q}", "--set", "port=8080", "http://h.com/?q=a+b"}, "h.com 8080 a b\n"},
		{[]string{"--set", "opaque=joe@x.org", "mailto:a@b.com"}, "mailto:joe@x.org\n"},
	} {
		out, errOut, code := runCLI(t, "", append([]string{"edit"}, tt.args...)...)
		if out != tt.want || code != exitOK {
			t.Errorf("edit %q = %q, %d (%s); want %q", tt.args, out, code, errOut, tt.want)
		}
	}
}

func TestEditOrder(t *testing.T) {
	// Edits apply in the order given.
	out, _, _ := runCLI(t, "", "edit", "--set", "search=a", "--delete", "search", "http://h.com/")
	if out != "http://h.com/\n" {
		t.Errorf("set then delete = %q", out)
	}
	out, _, _ = runCLI(t, "", "edit", "--delete", "search", "--set", "search=a", "http://h.com/")
	if out != "http://h.com/?a\n" {
		t.Errorf("delete then set = %q", out)
	}
}

func TestEditErrors(t *testing.T) {
	// An invalid edit: message with the offset in the part, exit 1, and the
	// next input still edited.
	out, errOut, code := runCLI(t, "http://a.com/\nhttp://b.com/\n", "edit", "--set", "host=x_y.com")
	if code != exitInvalid || out != "" || strings.Count(errOut, `offset 1 in host: "_" is not allowed`) != 2 {
		t.Errorf("bad host: %d %q %q", code, out, errOut)
	}
	out, errOut, code = runCLI(t, "", "edit", "--set", "port=8o", "http://a.com/", "http://b.com:1/")
	if code != exitInvalid || out != "" || !strings.Contains(errOut, "--set port=8o: offset 1 in port") {
		t.Errorf("bad port: %d %q %q", code, out, errOut)
	}
	// The scheme's grammar is checked: no password in an http URL (RFC
	// 1738 3.3), and the password is never printed.
	_, errOut, code = runCLI(t, "", "edit", "--set", "user=u", "--set", "password=hunter2", "http://a.com/")
	if code != exitInvalid || !strings.Contains(errOut, "RFC 1738 3.3") || strings.Contains(errOut, "hunter2") {
		t.Errorf("http password: %d %q", code, errOut)
	}
	_, errOut, code = runCLI(t, "", "edit", "--set", "path=x", "ftp://u:hunter2@a.com/%zz")
	if code != exitInvalid || strings.Contains(errOut, "hunter2") || !strings.Contains(errOut, "xxxxx") {
		t.Errorf("invalid input with a password: %d %q", code, errOut)
	}
	// Usage errors stop before any input.
	for _, args := range [][]string{
		{"--set", "colour=red"}, {"--set", "host"}, {"--append", "fragment=x"}, {"--delete", "opaque"},
		{"--format", "{nope}"}, {"--format", "{host"}, {"--mode", "rfc9999"},
	} {
		_, errOut, code := runCLI(t, "", append(append([]string{"edit"}, args...), "http://a.com/")...)
		if code != exitUsage || errOut == "" {
			t.Errorf("edit %q: %d %q", args, code, errOut)
		}
	}
}

func TestParseFormat(t *testing.T) {
	out, errOut, code := runCLI(t, "", "parse", "--format", `{scheme}|{user}|{password}|{host}|{port}|{path}|{search}|{fragment}|{url}\t{{x}}`,
		"ftp://me:pw@h.com:2121/a%20b?q=1#f")
	if code != exitOK || out != "ftp|me|pw|h.com|2121|/a%20b|q=1|f|ftp://me:pw@h.com:2121/a%20b?q=1#f\t{x}\n" {
		t.Errorf("parse --format = %q, %d %q", out, code, errOut)
	}
	out, _, _ = runCLI(t, "", "parse", "--format", "{port}/{default:port}/{search:q}/{query:z}/{:host}", "gopher://h.com/?q=a%0Ab+c")
	if out != "/70/a%0Ab c//h.com\n" {
		t.Errorf("defaults and search values = %q", out)
	}
	if _, errOut, code := runCLI(t, "", "parse", "--format", "{zoneid}", "http://h.com/"); code != exitUsage || !strings.Contains(errOut, "offset 0 in template: unknown field {zoneid}") {
		t.Errorf("unknown field: %d %q", code, errOut)
	}
}
