package urlkit

import "testing"

func TestPortHostname(t *testing.T) {
	for _, tt := range []struct {
		in    string
		port  int
		given bool
		name  string
	}{
		{"http://Info.CERN.ch/", 80, false, "info.cern.ch"}, // RFC 1738 3.3
		{"gopher://h.com:7070/", 7070, true, "h.com"},
		{"gopher://h.com/", 70, false, "h.com"}, // RFC 1738 3.4
		{"ftp://h.com:0021/", 21, true, "h.com"},
		{"file:///etc", 0, false, ""},
		{"mailto:a@b.com", 0, false, ""},
		{"//h.com/", 0, false, "h.com"},
		{"http://h.com:99999999999/", -1, true, "h.com"},
	} {
		u, err := ParseRef(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		p, given := u.Port()
		if p != tt.port || given != tt.given || u.Hostname() != tt.name {
			t.Errorf("%q: Port() = %d, %v; Hostname() = %q", tt.in, p, given, u.Hostname())
		}
	}
}
