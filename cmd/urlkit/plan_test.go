package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func runCLIEnv(t *testing.T, stdin string, vars map[string]string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(&env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(k string) string { return vars[k] }}, args)
	return out.String(), errb.String(), code
}

func TestPlanText(t *testing.T) {
	// RFC 1738 3.2.2, first example.
	out, _, code := runCLIEnv(t, "", map[string]string{"EMAIL": "me@my.dom"}, "plan", "ftp://myname@host.dom/%2Fetc/motd")
	want := "ftp://myname@host.dom/%2Fetc/motd\n  connect to host.dom:21 (FTP control connection)\n  USER myname\n  PASS <ask the user>\n  CWD /etc\n  TYPE I (guessed from the name: the URL has no ;type=, RFC 1738 3.2.3)\n  EPSV (PASV if refused; the data connection goes to the control connection's address)\n  RETR motd\n" +
		// The name has no ;type= and no final /: it may be a directory
		// (issue 25 item 6), listed when RETR is refused with 550.
		"  when RETR is refused with 550, \"motd\" may be a directory (the URL has no ;type= and no final /): if the server accepts CWD to it, it is listed, as lynx does\n" +
		"  CWD motd\n  EPSV (PASV if refused; the data connection goes to the control connection's address)\n  NLST\n  QUIT\n"
	if code != exitOK || out != want {
		t.Errorf("code %d, output\n%s\nwant\n%s", code, out, want)
	}
}

func TestPlanJSON(t *testing.T) {
	out, _, code := runCLIEnv(t, "", nil, "plan", "--json", "ftp://h.dom//etc/motd;type=a")
	if code != exitOK {
		t.Fatalf("code %d", code)
	}
	var r struct {
		Scheme string
		FTP    struct {
			CWD  []string
			Name string
			Type string
		} `json:"ftp"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err, out)
	}
	if r.Scheme != "ftp" || !reflect.DeepEqual(r.FTP.CWD, []string{"", "etc"}) || r.FTP.Name != "motd" || r.FTP.Type != "a" {
		t.Errorf("json %s", out)
	}
}

func TestPlanNewsFromEnv(t *testing.T) {
	out, _, code := runCLIEnv(t, "news:comp.lang.go\n", map[string]string{"NNTPSERVER": "news.my.dom"}, "plan")
	if code != exitOK || !strings.Contains(out, "connect to news.my.dom:119 (NNTP)") || !strings.Contains(out, "GROUP comp.lang.go") {
		t.Errorf("code %d out %q", code, out)
	}
}

func TestPlanRefusesControl(t *testing.T) {
	out, errs, code := runCLIEnv(t, "", nil, "plan", "--json", "gopher://h.dom/1sel%0d%0aINJECT")
	if code != exitInvalid || !strings.Contains(errs, "offset 19 in path") || !strings.Contains(out, `"offset":19`) {
		t.Errorf("code %d out %q err %q", code, out, errs)
	}
	_, errs, code = runCLIEnv(t, "", nil, "plan", "urn:x")
	if code != exitInvalid || !strings.Contains(errs, "no access method") {
		t.Errorf("urn: code %d err %q", code, errs)
	}
}

func TestParseJSONSchemeKey(t *testing.T) {
	out, _, code := runCLIEnv(t, "", nil, "parse", "--json", "gopher://h.dom/7/srch%09gopher%20url")
	if code != exitOK {
		t.Fatalf("code %d", code)
	}
	var r struct {
		Host   string
		Gopher struct {
			Type, Selector, Search string
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err, out)
	}
	if r.Host != "h.dom" || r.Gopher.Type != "7" || r.Gopher.Selector != "/srch" || r.Gopher.Search != "gopher url" {
		t.Errorf("json %s", out)
	}
	// A URL valid by the generic syntax but not by its scheme's grammar.
	out, _, _ = runCLIEnv(t, "", nil, "parse", "--json", "http://u@h.dom/")
	if !strings.Contains(out, `"valid":false,`) || !strings.Contains(out, `"error":{"offset":7,"component":"user"`) {
		t.Errorf("json %s", out)
	}
}
