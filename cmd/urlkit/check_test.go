package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckCLI(t *testing.T) {
	// RFC 1738 6: a gopher URL aimed at SMTP with an encoded CR LF.
	out, _, code := runCLIEnv(t, "", nil, "check", "gopher://mail.dom:25/0HELO%0D%0A")
	if code != exitInvalid {
		t.Errorf("code %d, want %d", code, exitInvalid)
	}
	for _, want := range []string{"danger: offset 18 in port", "error: offset 26 in path", "error: offset 29 in path"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Warnings only: exit 0.
	out, _, code = runCLIEnv(t, "", nil, "check", "ftp://u:pw@h.dom/x")
	if code != exitOK || !strings.Contains(out, "warning: offset 8 in password") {
		t.Errorf("code %d out %q", code, out)
	}
	out, _, code = runCLIEnv(t, "http://h.dom/\n", nil, "check")
	if code != exitOK || out != "http://h.dom/: ok\n" {
		t.Errorf("code %d out %q", code, out)
	}
}

func TestCheckJSON(t *testing.T) {
	out, _, code := runCLIEnv(t, "", nil, "check", "--json", "http://u@h.dom/")
	if code != exitInvalid {
		t.Errorf("code %d", code)
	}
	var r struct {
		Valid    bool
		Findings []struct {
			Code   string
			Offset int
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 1 || r.Findings[0].Code != "login" || r.Findings[0].Offset != 7 {
		t.Errorf("findings %+v", r.Findings)
	}
	if r.Valid {
		t.Errorf("valid with an error finding: %s", out)
	}
	if !strings.Contains(out, `"severity":"error"`) {
		t.Errorf("severity not named: %s", out)
	}
}
