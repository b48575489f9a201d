package scheme

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/urlkit/urlkit"
)

var fuzzSeeds = []string{
	"ftp://myname@host.dom/%2Fetc/motd", "ftp://u:p@h.dom//a/b;type=d", "ftp://h.dom/a%0D%0Ab",
	"gopher://h.dom/0sel%09%09+%091%0D%0A+-1%0D%0Ared%0D%0A.%0D%0A", "gopher://h.dom/%2", "gopher://h.dom/%41",
	"news:*", "news:a@b.dom", "nntp://h.dom/g/1", "mailto:a@b.dom", "mid:x@y", "telnet://u:p@h.dom/",
	"wais://h.dom/db/t/0=a;", "wais://h.dom/db/t/0%3Da%3B", "wais://h.dom/db?x+y", "file:///a/b", "file://h.dom/x", "prospero://h.dom/a%00%001", "prospero://h.dom/a%00b",
	"prospero://h.dom/a;b=c", "http://h.dom/a?b", "urn:x", "x-y:z", "URL:ftp://h.dom:25/x",
}

// FuzzView checks that no input makes a view, plan or check panic, that
// every error is positioned inside the input, and that plans marshal.
func FuzzView(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := urlkit.Parse(s)
		if err != nil {
			return
		}
		v, err := ViewOf(u)
		checkPositioned(t, s, err)
		checkFPathScan(t, u)
		for _, fd := range Check(u) {
			if fd.Offset > len(s) {
				t.Fatalf("%q: finding offset %d beyond input: %v", s, fd.Offset, fd)
			}
		}
		if err != nil {
			return
		}
		p, err := v.Plan(Config{NewsServer: "news.dom", Email: "a@b"})
		checkPositioned(t, s, err)
		if err == nil {
			p.Steps()
			if _, err := json.Marshal(p); err != nil {
				t.Fatalf("%q: marshal plan: %v", s, err)
			}
		}
		if _, err := json.Marshal(v); err != nil {
			t.Fatalf("%q: marshal view: %v", s, err)
		}
	})
}

func checkPositioned(t *testing.T, s string, err error) {
	var se *urlkit.SyntaxError
	if errors.As(err, &se) && (se.Offset < 0 || se.Offset > len(s) || se.Input != s) {
		t.Fatalf("%q: error offset %d / input %q out of place: %v", s, se.Offset, se.Input, err)
	}
}

// FuzzFTPPlanNoControls checks that an FTP plan never carries a control
// character in a command (RFC 1738 6).
func FuzzFTPPlanNoControls(f *testing.F) {
	f.Add("a/b/c;type=i", "u", "p")
	f.Add("%0D%0A", "%0a", "%00")
	f.Fuzz(func(t *testing.T, path, user, pass string) {
		u, err := urlkit.Parse("ftp://" + user + ":" + pass + "@h.dom/" + path)
		if err != nil {
			return
		}
		v, err := ViewOf(u)
		if err != nil {
			return
		}
		p, err := v.Plan(Config{Email: "a@b"})
		if err != nil {
			return
		}
		for _, cmd := range p.(*FTPPlan).Commands {
			c := cmd.Line()
			for i := 0; i < len(c); i++ {
				if isControl(c[i]) {
					t.Fatalf("command %q holds control 0x%02X", c, c[i])
				}
			}
		}
	})
}

// FuzzGopherPlanLine checks that a gopher request line holds a CR LF only at
// its end or in a well-formed form (RFC 1738 3.4.9, 6).
func FuzzGopherPlanLine(f *testing.F) {
	f.Add("1sel%09q%09+")
	f.Add("0s%09%09+%091%0D%0A+-1%0D%0Aa%0D%0A.%0D%0A")
	f.Fuzz(func(t *testing.T, path string) {
		u, err := urlkit.Parse("gopher://h.dom/" + path)
		if err != nil {
			return
		}
		v, err := ViewOf(u)
		if err != nil {
			return
		}
		p, err := v.Plan(Config{})
		if err != nil {
			return
		}
		g := p.(*GopherPlan)
		if g.HasPlus && v.(*Gopher).Plus.Kind == PlusForm {
			return
		}
		line := g.Line()
		body := line[:len(line)-2]
		for i := 0; i < len(body); i++ {
			if body[i] == '\r' || body[i] == '\n' || body[i] == 0 {
				t.Fatalf("line %q holds control 0x%02X", line, body[i])
			}
		}
	})
}
