package scheme

import (
	"errors"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// Helpers for tests that compare plans with lines written by hand or by
// a peer.

// ftpLines returns each command's Line, a password to be asked written
// "PASS <ask the user>", as RFC 1738 3.2.2's first example describes the
// prompt.
func ftpLines(p *FTPPlan) []string {
	out := make([]string, len(p.Commands))
	for i, c := range p.Commands {
		out[i] = c.Line()
		if c.Pass == PassAsk {
			out[i] = c.Text()
		}
	}
	return out
}

// ftpArgs returns the arguments of the commands with the verb v, in order
// (empty, not nil, when there is none).
func ftpArgs(p *FTPPlan, v FTPVerb) []string {
	out := []string{}
	for _, c := range p.Commands {
		if c.Verb == v {
			out = append(out, c.Arg)
		}
	}
	return out
}

// nntpLines returns each command's Line.
func nntpLines(p *NNTPPlan) []string {
	out := make([]string, len(p.Commands))
	for i, c := range p.Commands {
		out[i] = c.Line()
	}
	return out
}

// stepURLs are URLs of every scheme with a plan, with logins, escapes,
// listings, searches, Gopher+ strings and forms.
var stepURLs = []string{
	"ftp://host.dom", "ftp://host.dom/pub/", "ftp://u@host.dom/%2Fetc/motd", "ftp://u:se%20cret@host.dom:2121/a/b/c/d/e;type=a",
	"ftp://host.dom/d;type=d", "ftp://host.dom/x.bin", "ftp://host.dom//etc/motd;type=i",
	"http://h.dom/a%20b?q=1", "https://h.dom:8443/", "gopher://h.dom", "gopher://h.dom/7s%09q%20w",
	"gopher://h.dom/0s%09%09+%091%0D%0A+-1%0D%0Ared%0D%0A.%0D%0A", "gopher://h.dom/1x%09%09!", "gopher://h.dom/8x",
	"news:*", "news:comp.lang.go", "news:1234@h.dom", "nntp://h.dom/alt.test", "nntp://h.dom/alt.test/42",
	"telnet://joe:pw@h.dom/", "rlogin://h.dom", "mailto:joe@h.dom", "file:///etc/motd",
	"wais://h.dom/db", "wais://h.dom/db?w%20x", "wais://h.dom/db/TEXT/doc", "prospero://h.dom/a/b;f=v", "mid:m@h.dom", "cid:c@h.dom",
}

// Every step of every plan has an Op (lower case, "_" between words) and a
// Text of one non-empty line; a command's Text starts with its Redacted
// line; no Text shows a password from the URL.
func TestStepTexts(t *testing.T) {
	for _, s := range stepURLs {
		for _, cfg := range []Config{{}, {NewsServer: "news.dom", Email: "me@my.dom"}} {
			p, err := PlanOf(urlkit.MustParse(s), cfg)
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			steps := p.Steps()
			if len(steps) == 0 {
				t.Errorf("%s: no steps", s)
			}
			for _, st := range steps {
				op, text := st.Op(), st.Text()
				if op == "" || strings.Trim(op, "abcdefghijklmnopqrstuvwxyz_") != "" || text == "" || strings.ContainsAny(text, "\r\n") {
					t.Errorf("%s: step %#v: op %q text %q", s, st, op, text)
				}
				if strings.Contains(text, "se cret") || strings.Contains(text, ":pw") || strings.Contains(text, `"pw"`) {
					t.Errorf("%s: step text %q shows the password", s, text)
				}
				switch c := st.(type) {
				case FTPCommand:
					if !strings.HasPrefix(text, c.Redacted()) && c.Pass != PassAsk {
						t.Errorf("%s: text %q does not start with the line %q", s, text, c.Redacted())
					}
				case NNTPCommand:
					if !strings.HasPrefix(text, c.Line()) {
						t.Errorf("%s: text %q does not start with the line %q", s, text, c.Line())
					}
				}
			}
		}
	}
}

// An FTP command's line is its verb, then a space and the argument when
// the verb takes one (RFC 959 4.1: "CWD " with an empty argument is sent,
// RFC 1738 3.2.2), and a password is masked only where it is shown.
func TestFTPCommandLines(t *testing.T) {
	for _, tc := range []struct {
		c                 FTPCommand
		line, shown, text string
	}{
		{FTPCommand{Verb: FTPCwd}, "CWD ", "CWD ", "CWD "},
		{FTPCommand{Verb: FTPNlst}, "NLST", "NLST", "NLST"},
		{FTPCommand{Verb: FTPNlst, Arg: "d"}, "NLST d", "NLST d", "NLST d"},
		{FTPCommand{Verb: FTPQuit, Arg: "ignored"}, "QUIT", "QUIT", "QUIT"},
		{FTPCommand{Verb: FTPPass, Arg: "pw", Pass: PassURL}, "PASS pw", "PASS ****", "PASS ****"},
		{FTPCommand{Verb: FTPPass, Arg: "me@my.dom", Pass: PassAnonymous}, "PASS me@my.dom", "PASS me@my.dom", "PASS me@my.dom"},
		{FTPCommand{Verb: FTPPass, Pass: PassAsk}, "PASS ", "PASS ****", "PASS <ask the user>"},
		{FTPCommand{Verb: FTPType, Arg: "I", Guessed: true}, "TYPE I", "TYPE I", "TYPE I (guessed from the name: the URL has no ;type=, RFC 1738 3.2.3)"},
		{FTPCommand{Verb: FTPEpsv, Else: [2]FTPVerb{FTPPasv}}, "EPSV", "EPSV", "EPSV (PASV if refused; the data connection goes to the control connection's address)"},
		{FTPCommand{Verb: FTPRetr, Arg: "f", Else: [2]FTPVerb{FTPNlst}}, "RETR f", "RETR f", "RETR f (NLST if refused)"},
		{FTPCommand{Verb: FTPMlsd, Else: [2]FTPVerb{FTPList, FTPNlst}}, "MLSD", "MLSD", "MLSD (LIST if refused, NLST if LIST is refused)"},
		{FTPCommand{Verb: FTPMlsd, Arg: "d", Feature: FTPMlst, Else: [2]FTPVerb{FTPList, FTPNlst}}, "MLSD d", "MLSD d",
			"MLSD d (RFC 3659 7; sent as LIST, RFC 959 4.1.3, when the FEAT reply does not offer MLST, and as NLST when LIST is refused)"},
		{FTPCommand{Verb: FTPFeat}, "FEAT", "FEAT", "FEAT (asks which extensions the server offers, RFC 2389)"},
	} {
		if l, r, x := tc.c.Line(), tc.c.Redacted(), tc.c.Text(); l != tc.line || r != tc.shown || x != tc.text {
			t.Errorf("%+v: line %q, redacted %q, text %q; want %q %q %q", tc.c, l, r, x, tc.line, tc.shown, tc.text)
		}
	}
}

// positionedURLs break a scheme's own rules (views and plans), each at a
// place the scheme package finds with the parser's offsets.
var positionedURLs = []string{
	"nntp://h.dom", "nntp://h.dom/1g", "nntp://h.dom/g/1x", "nntp://h.dom/g/1/2", "nntp://u@h.dom/g", "nntp://h.dom/g?x",
	"telnet://h.dom/x", "file://h.dom:21/x", "file://h.dom", "file://u@h.dom/x", "http://u:p@h.dom/", "https://h.dom/?a/b",
	"gopher://u@h.dom/", "gopher://h.dom/0a%0Db", "gopher://h.dom/7s%09q%0Ax", "news:1g", "news:a@-b.dom", "news:a%0D@b.dom",
	"ftp://h.dom/a;type=x", "ftp://h.dom/a;b/c", "ftp://u%0A:p@h.dom/f", "ftp://u:p%00@h.dom/f", "ftp://h.dom/a%0D/f", "ftp://h.dom:70000/f",
	"mailto:joe", "mailto:a%0Ab@c.dom", "mid:x", "wais://h.dom/db?a%0Db", "prospero://h.dom/a%0Ab", "telnet://u%0D@h.dom/",
	"file:///a%00b", "file://remote.dom/x", "http://h.dom:99999/",
}

// A "URL:" prefix (RFC 1738's appendix) moves every offset the scheme
// package reports by its four bytes: view and plan errors and Check's
// findings.
func TestOffsetsWithPrefix(t *testing.T) {
	type result struct {
		off  int
		comp urlkit.Component
		msg  string
	}
	results := func(in string) []result {
		u, err := urlkit.Parse(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		var out []result
		add := func(err error) {
			var se *urlkit.SyntaxError
			if errors.As(err, &se) {
				if se.Input != in || se.Offset < 0 || se.Offset > len(in) {
					t.Errorf("%s: error %q at %d of %q", in, se.Reason(), se.Offset, se.Input)
				}
				out = append(out, result{se.Offset, se.Component, se.Reason()})
			}
		}
		v, err := ViewOf(u)
		add(err)
		if err == nil {
			_, err = v.Plan(Config{NewsServer: "n.dom"})
			add(err)
		}
		for _, f := range Check(u) {
			out = append(out, result{f.Offset, f.Component, f.Message})
		}
		return out
	}
	for _, s := range positionedURLs {
		plain, prefixed := results(s), results("URL:"+s)
		if len(plain) == 0 {
			t.Errorf("%s: no error and no finding", s)
		}
		if len(plain) != len(prefixed) {
			t.Fatalf("%s: %v without the prefix, %v with it", s, plain, prefixed)
		}
		for i := range plain {
			if want := plain[i].off + 4; plain[i].off >= 0 && (prefixed[i].off != want || prefixed[i].comp != plain[i].comp || prefixed[i].msg != plain[i].msg) {
				t.Errorf("%s: %+v with the prefix, want %+v moved by 4", s, prefixed[i], plain[i])
			}
		}
	}
}

// addrOf takes host:port from the URL's text when the URL writes it so,
// without allocating, and writes it otherwise.
func TestAddrOf(t *testing.T) {
	for _, tc := range []struct {
		in, host string
		port     int
		want     string
		allocs   float64
	}{
		{"ftp://h.dom:2121/x", "h.dom", 2121, "h.dom:2121", 0},
		{"URL:ftp://u:p@h.dom:2121/x", "h.dom", 2121, "h.dom:2121", 0},
		{"ftp://h.dom/x", "h.dom", 21, "h.dom:21", 1},
		{"ftp://h.dom:021/x", "h.dom", 21, "h.dom:21", 1},
		{"ftp://h.dom:2121/x", "h.dom", 2122, "h.dom:2122", 1},
		{"ftp://h.dom:2121/x", "other.dom", 2121, "other.dom:2121", 1},
		{"ftp://h.dom:99999/x", "h.dom", 99999, "h.dom:99999", 0},
	} {
		u := urlkit.MustParse(tc.in)
		if got := addrOf(u, tc.host, tc.port); got != tc.want {
			t.Errorf("%s, %s, %d: %q, want %q", tc.in, tc.host, tc.port, got, tc.want)
		}
		if n := testing.AllocsPerRun(20, func() { addrOf(u, tc.host, tc.port) }); n != tc.allocs {
			t.Errorf("%s: %v allocations, want %v", tc.in, n, tc.allocs)
		}
	}
	u, err := urlkit.ParseExtended("ftp://[::1]:2121/x")
	if err != nil {
		t.Fatal(err)
	}
	if got := addrOf(u, u.Host(), 2121); got != "[::1]:2121" {
		t.Errorf("IPv6: %q", got)
	}
}
