package access

import "testing"

// The size in a 150 reply to RETR, as vsftpd and wu-ftpd word it (RFC 959
// leaves the text free, so anything else is "unknown", never a guess).
func TestSizeIn150(t *testing.T) {
	for _, tt := range []struct {
		code int
		msg  string
		n    int64
		ok   bool
	}{
		{150, "Opening BINARY mode data connection for motd (59 bytes).", 59, true},
		{150, "Opening ASCII mode data connection for /etc/motd (1234 bytes)", 1234, true},
		{150, "Here comes the directory listing.", 0, false},
		{125, "Data connection already open (5 bytes)", 0, false},
		{150, "Opening (x bytes)", 0, false},
		{150, "Opening (-3 bytes)", 0, false},
	} {
		n, ok := sizeIn150(tt.code, tt.msg)
		if n != tt.n || ok != tt.ok {
			t.Errorf("sizeIn150(%d, %q) = %d, %v; want %d, %v", tt.code, tt.msg, n, ok, tt.n, tt.ok)
		}
	}
}
