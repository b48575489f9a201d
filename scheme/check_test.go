package scheme

import (
	"testing"

	"github.com/urlkit/urlkit"
)

func TestCheck(t *testing.T) {
	type want struct {
		sev  Severity
		code string
		off  int
	}
	tests := []struct {
		cite, in string
		want     []want
	}{
		{"clean", "http://h.dom/x", nil},
		{"default port given", "ftp://h.dom:21/x", nil},
		// RFC 1738 6: "the use of gopher URLs to cause a rude message to be sent via a SMTP server".
		{"RFC 1738 6 gopher to SMTP", "gopher://h.dom:25/0HELO%20x", []want{{SeverityDanger, CodePort, 15}}},
		{"RFC 1738 6 reserved range", "http://h.dom:999/", []want{{SeverityDanger, CodePort, 13}}},
		{"RFC 1738 6 other port", "http://h.dom:8000/", []want{{SeverityWarning, CodePort, 13}}},
		{"WHATWG Fetch bad port above 1024", "gopher://h.dom:6000/", []want{{SeverityDanger, CodePort, 15}}},
		{"a high port of no service", "gopher://h.dom:7070/", []want{{SeverityWarning, CodePort, 15}}},
		{"another scheme's default", "gopher://h.dom:80/", []want{{SeverityDanger, CodePort, 15}}},
		{"above 65535", "gopher://h.dom:70000/", []want{{SeverityError, CodePort, 15}}},
		// RFC 1738 6: encoded CR LF must not be decoded before transmission.
		{"RFC 1738 6 CR LF", "ftp://h.dom/a%0D%0ADELE%20b", []want{{SeverityError, CodeControl, 13}, {SeverityError, CodeControl, 16}}},
		{"RFC 1738 6 gopher CR LF", "gopher://h.dom/1sel%0d%0aINJECT", []want{{SeverityError, CodeControl, 19}, {SeverityError, CodeControl, 22}}},
		// RFC 1738 6: "The use of URLs containing passwords that should be secret is clearly unwise."
		{"RFC 1738 6 password", "ftp://u:secret@h.dom/", []want{{SeverityWarning, CodePassword, 8}}},
		// RFC 1738 3.3: no user or password in http.
		{"RFC 1738 3.3 http login", "http://u:p@h.dom/", []want{{SeverityWarning, CodePassword, 9}, {SeverityError, CodeLogin, 7}}},
		// RFC 1630 file: a file URL naming another host.
		{"RFC 1630 file other host", "file://vms.host.edu/disk$user/my/notes/note12345.txt", []want{{SeverityWarning, CodeRemoteFile, 7}}},
		{"reserved", "z39.50:x", []want{{SeverityInfo, CodeReserved, 0}}},
		{"experimental", "x-foo:bar", []want{{SeverityInfo, CodeExperimental, 0}}},
		{"prefix offsets", "URL:ftp://h.dom:25/a%0Ab", []want{{SeverityDanger, CodePort, 16}, {SeverityError, CodeControl, 20}}},
		{"http encoded CR stays encoded", "http://h.dom/a%0D%0Ab", nil},
	}
	for _, tt := range tests {
		fs := Check(urlkit.MustParse(tt.in))
		if len(fs) != len(tt.want) {
			t.Errorf("%s: %s: %d findings %v, want %d", tt.cite, tt.in, len(fs), fs, len(tt.want))
			continue
		}
		for i, w := range tt.want {
			f := fs[i]
			if f.Severity != w.sev || f.Code != w.code || f.Offset != w.off {
				t.Errorf("%s: %s: finding %d = %v (%s, offset %d), want %s %s %d", tt.cite, tt.in, i, f, f.Code, f.Offset, w.sev, w.code, w.off)
			}
		}
		if HasErrors(fs) != (len(tt.want) > 0 && func() bool {
			for _, w := range tt.want {
				if w.sev == SeverityError {
					return true
				}
			}
			return false
		}()) {
			t.Errorf("%s: HasErrors wrong", tt.in)
		}
	}
}

// PortWarning is the rule a client warns by before connecting (issue 25
// item 5): another protocol's port (a well-known one, the Fetch Standard's
// bad port list) or the reserved range below 1024, never an ordinary high
// port nor the scheme's default; Check still reports every port that is
// not the default.
func TestPortWarning(t *testing.T) {
	for _, tt := range []struct {
		in   string
		warn bool
		why  string
	}{
		{"gopher://h.dom/", false, "no port"},
		{"gopher://h.dom:70/", false, "the default"},
		{"gopher://127.0.0.1:7070/", false, "an ordinary high port, loopback"},
		{"http://h.dom:8080/", false, "an ordinary high port"},
		{"ftp://h.dom:2121/", false, "an ordinary high port"},
		{"gopher://h.dom:25/", true, "SMTP (RFC 1738 6)"},
		{"http://h.dom:1/", true, "tcpmux, bad port list"},
		{"http://h.dom:999/", true, "reserved range"},
		{"http://h.dom:6379/", true, "Redis"},
		{"gopher://h.dom:6667/", true, "IRC, bad port list"},
		{"http://h.dom:10080/", true, "amanda, bad port list"},
		{"nntp://h.dom:119/g", false, "nntp's own default, on the bad port list"},
		{"ftp://h.dom:21/", false, "ftp's own default"},
		{"gopher://h.dom:21/", true, "ftp's port"},
		{"wais://h.dom:210/db?x", false, "wais's own default"},
	} {
		u := urlkit.MustParse(tt.in)
		f, warn := PortWarning(u)
		if warn != tt.warn {
			t.Errorf("%s (%s): PortWarning = %v %q, want %v", tt.in, tt.why, warn, f.Message, tt.warn)
		}
		if warn && (f.Code != CodePort || f.Severity != SeverityDanger || f.Message == "") {
			t.Errorf("%s: finding %+v", tt.in, f)
		}
		_, hasPort := u.RawPort()
		reported := false
		for _, c := range Check(u) {
			reported = reported || c.Code == CodePort
		}
		if isDefault := !tt.warn && (tt.why == "the default" || tt.why == "no port" || tt.why == "ftp's own default" || tt.why == "wais's own default" || tt.why == "nntp's own default, on the bad port list"); reported == isDefault || reported != hasPort && !isDefault {
			t.Errorf("%s: Check reports the port: %v", tt.in, reported)
		}
	}
	if s, bad := BadPort("gopher", 25); !bad || s != "smtp" {
		t.Errorf("BadPort(gopher, 25) = %q %v", s, bad)
	}
	if _, bad := BadPort("ftp", 21); bad {
		t.Error("BadPort(ftp, 21): a scheme's own default is never bad")
	}
}
