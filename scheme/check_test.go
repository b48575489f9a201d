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
