package scheme

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

func mustView(t *testing.T, s string) View {
	t.Helper()
	v, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return v
}

func mustPlan(t *testing.T, s string, cfg Config) Plan {
	t.Helper()
	p, err := mustView(t, s).Plan(cfg)
	if err != nil {
		t.Fatalf("Plan(%q): %v", s, err)
	}
	return p
}

// wantOffset checks that err is a *urlkit.SyntaxError wrapping sentinel at
// offset off.
func wantOffset(t *testing.T, in string, err error, sentinel error, off int) {
	t.Helper()
	if err == nil {
		t.Fatalf("%q: no error, want %v at offset %d", in, sentinel, off)
	}
	var se *urlkit.SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("%q: error %T %v is not a *urlkit.SyntaxError", in, err, err)
	}
	if !errors.Is(err, sentinel) {
		t.Errorf("%q: error %v does not wrap %v", in, err, sentinel)
	}
	if se.Offset != off {
		t.Errorf("%q: offset %d, want %d (%v)", in, se.Offset, off, err)
	}
}

var anon = Config{Email: "me@my.dom"}

func TestFTPPlanRFC1738(t *testing.T) {
	tests := []struct {
		cite, in string
		cmds     []string
		cwd      []string
		name     string
		typ      byte
	}{
		// RFC 1738 3.2.2: "<URL:ftp://myname@host.dom/%2Fetc/motd> is
		// interpreted by FTP-ing to "host.dom", logging in as "myname"
		// (prompting for a password if it is asked for), and then
		// executing "CWD /etc" and then "RETR motd"."
		{"RFC 1738 3.2.2 example 1", "ftp://myname@host.dom/%2Fetc/motd",
			[]string{"USER myname", "PASS <ask the user>", "CWD /etc", "TYPE I", "EPSV", "RETR motd", "QUIT"}, []string{"/etc"}, "motd", 'i'},
		// "<URL:ftp://myname@host.dom/etc/motd> which would "CWD etc" and then "RETR motd""
		{"RFC 1738 3.2.2 example 2", "ftp://myname@host.dom/etc/motd",
			[]string{"USER myname", "PASS <ask the user>", "CWD etc", "TYPE I", "EPSV", "RETR motd", "QUIT"}, []string{"etc"}, "motd", 'i'},
		// "<URL:ftp://myname@host.dom//etc/motd>, would "CWD " with a null
		// argument, then "CWD etc", and then "RETR motd"."
		{"RFC 1738 3.2.2 example 3", "ftp://myname@host.dom//etc/motd",
			[]string{"USER myname", "PASS <ask the user>", "CWD ", "CWD etc", "TYPE I", "EPSV", "RETR motd", "QUIT"}, []string{"", "etc"}, "motd", 'i'},
		// RFC 1738 3.2.1: no user name: anonymous, the e-mail address as password.
		{"RFC 1738 3.2.1 anonymous", "ftp://host.dom/pub/file.txt;type=a",
			[]string{"USER anonymous", "PASS me@my.dom", "CWD pub", "TYPE A", "EPSV", "RETR file.txt", "QUIT"}, []string{"pub"}, "file.txt", 'a'},
		// RFC 1738 3.2.2: "If the typecode is "d", perform a NLST".
		{"RFC 1738 3.2.2 type d", "ftp://u:p@host.dom/pub;type=D",
			[]string{"USER u", "PASS p", "EPSV", "NLST pub", "QUIT"}, []string{}, "pub", 'd'},
		{"RFC 1738 3.2.2 type i", "ftp://host.dom/a/b/c.bin;type=i",
			[]string{"USER anonymous", "PASS me@my.dom", "CWD a", "CWD b", "TYPE I", "EPSV", "RETR c.bin", "QUIT"}, []string{"a", "b"}, "c.bin", 'i'},
		// RFC 1738 3.2.2: "The whole url-path may be omitted".
		{"RFC 1738 3.2.2 no url-path", "ftp://host.dom",
			[]string{"USER anonymous", "PASS me@my.dom", "EPSV", "NLST", "QUIT"}, []string{}, "", 'd'},
		// RFC 1630 FTP data type: a "/" suffix means directory listing.
		{"RFC 1630 FTP / suffix", "ftp://host.dom/pub/",
			[]string{"USER anonymous", "PASS me@my.dom", "CWD pub", "EPSV", "NLST", "QUIT"}, []string{"pub"}, "", 'd'},
		// RFC 1738 5: fsegment allows "?" unencoded: it is not a search part.
		{"RFC 1738 5 fsegment ?", "ftp://host.dom/what?.txt",
			[]string{"USER anonymous", "PASS me@my.dom", "TYPE A", "EPSV", "RETR what?.txt", "QUIT"}, []string{}, "what?.txt", 'a'},
		// RFC 1738 3.1: encoded ":" and "@" in user and password.
		{"RFC 1738 3.1 login escapes", "ftp://a%3Ab:c%40d@host.dom/f",
			[]string{"USER a:b", "PASS c@d", "TYPE I", "EPSV", "RETR f", "QUIT"}, []string{}, "f", 'i'},
	}
	for _, tt := range tests {
		t.Run(tt.cite, func(t *testing.T) {
			p := mustPlan(t, tt.in, anon).(*FTPPlan)
			if got := ftpLines(p); !reflect.DeepEqual(got, tt.cmds) {
				t.Errorf("%s: commands\n got %q\nwant %q", tt.in, got, tt.cmds)
			}
			if cwd := ftpArgs(p, FTPCwd); !reflect.DeepEqual(cwd, tt.cwd) || p.Name != tt.name || p.Type != tt.typ {
				t.Errorf("%s: cwd %q name %q type %q, want %q %q %q", tt.in, cwd, p.Name, p.Type, tt.cwd, tt.name, tt.typ)
			}
		})
	}
}

func TestFTPViewFields(t *testing.T) {
	v := mustView(t, "ftp://usr:pswd@web.dom:1234/a/b;type=i").(*FTP)
	if v.Host != "web.dom" || v.Port != 1234 || v.User != "usr" || v.Password != "pswd" || !v.HasUser || !v.HasPassword {
		t.Errorf("login fields wrong: %+v", v)
	}
	v = mustView(t, "ftp://web.dom/x").(*FTP)
	if v.Port != 21 || v.HasUser || v.HasPassword {
		t.Errorf("RFC 1738 3.2: default port 21 and no login, got %+v", v)
	}
	// RFC 1738 3.1: an empty user is present.
	v = mustView(t, "ftp://@web.dom/x").(*FTP)
	if !v.HasUser || v.User != "" {
		t.Errorf("empty user: %+v", v)
	}
}

func TestFTPErrors(t *testing.T) {
	tests := []struct {
		cite, in string
		err      error
		off      int
	}{
		// RFC 1738 3.2.2: ";" is reserved within a segment.
		{"RFC 1738 3.2.2 ; reserved", "ftp://h.dom/a;b/c", urlkit.ErrReservedChar, 13},
		{"RFC 1738 5 ftptype", "ftp://h.dom/c;type=x", ErrBadType, 19},
		{"RFC 1738 5 ftptype empty", "ftp://h.dom/c;type=", ErrBadType, 19},
		{"prefix adds 4", "URL:ftp://h.dom/a;b", urlkit.ErrReservedChar, 17},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		wantOffset(t, tt.in, err, tt.err, tt.off)
	}
}

func TestFTPPlanRefusesControls(t *testing.T) {
	// RFC 1738 6: encoded CR and LF must not be decoded into commands.
	tests := []struct {
		in  string
		off int
	}{
		{"ftp://h.dom/a%0D%0ADELE%20x/f", 13},
		{"ftp://h.dom/f%0a", 13},
		{"ftp://bad%0auser:pw@h.dom/f", 9},
		{"ftp://u:p%00w@h.dom/f", 9},
		{"ftp://h.dom/f%7F", 13},
	}
	for _, tt := range tests {
		_, err := mustView(t, tt.in).Plan(anon)
		wantOffset(t, tt.in, err, ErrControl, tt.off)
	}
}

// Config.FTPListDetails: a directory plan asks FEAT, then MLSD (RFC 3659 7),
// with the name as MLSD's argument as NLST's (RFC 1738 3.2.2); Steps states
// the rule that turns MLSD into LIST or NLST on the wire. A retrieval is not
// changed, and without the option the listing is RFC 1738's NLST.
func TestFTPPlanListDetails(t *testing.T) {
	cfg := Config{Email: "me@my.dom", FTPListDetails: true}
	for _, tc := range []struct {
		in   string
		cmds []string
	}{
		{"ftp://host.dom/pub/", []string{"USER anonymous", "PASS me@my.dom", "CWD pub", "FEAT", "EPSV", "MLSD", "QUIT"}},
		{"ftp://u:p@host.dom/pub;type=d", []string{"USER u", "PASS p", "FEAT", "EPSV", "MLSD pub", "QUIT"}},
		{"ftp://host.dom/a/b/c/d/e/f/g/h/i/j/k/", []string{"USER anonymous", "PASS me@my.dom", "CWD a", "CWD b", "CWD c", "CWD d", "CWD e", "CWD f", "CWD g", "CWD h", "CWD i", "CWD j", "CWD k", "FEAT", "EPSV", "MLSD", "QUIT"}},
		{"ftp://host.dom/pub/f.txt", []string{"USER anonymous", "PASS me@my.dom", "CWD pub", "TYPE A", "EPSV", "RETR f.txt", "QUIT"}},
	} {
		p := mustPlan(t, tc.in, cfg).(*FTPPlan)
		if got := ftpLines(p); !reflect.DeepEqual(got, tc.cmds) {
			t.Errorf("%s: commands\n got %q\nwant %q", tc.in, got, tc.cmds)
		}
	}
	p := mustPlan(t, "ftp://host.dom/pub/", cfg).(*FTPPlan)
	steps := strings.Join(StepTexts(p), "\n")
	if !strings.Contains(steps, "\nFEAT (") || !strings.Contains(steps, "\nMLSD (RFC 3659 7; sent as LIST") || !strings.Contains(steps, "as NLST when LIST is refused") {
		t.Errorf("steps:\n%s", steps)
	}
	if p := mustPlan(t, "ftp://host.dom/pub/", Config{}).(*FTPPlan); p.Commands[len(p.Commands)-2].Line() != "NLST" {
		t.Errorf("without FTPListDetails: %q", ftpLines(p))
	}
}
