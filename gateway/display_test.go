package gateway

import (
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/hostile"
)

// Display strings from servers with bidi controls (issue 34, finding 5):
// a gopher menu's display string, an ftp name, a Prospero link's name.
// In the page each control is shown as a visible mark ("[U+202E]", or
// "\u202e" where access escaped the name already) and
// none is left to reorder the name; the names are isolated
// (unicode-bidi:isolate in the style sheet) so that right-to-left text
// in one cannot reorder what is around it.
func TestDisplayControlsShown(t *testing.T) {
	const evil = "photo\u202egpj.exe"
	const shown = "photo[U+202E]gpj.exe"
	menu := "0" + evil + "\t/a\th.example\t70\r\n" +
		"i\u2067info\u2069 line\t\th.example\t70\r\n" +
		"1\u200fdir\u200e\t/d\th.example\t70\r\n.\r\n"
	g := gopherServer(t, map[string][]byte{"/m": []byte(menu)})
	f := &hostile.FTP{Features: []string{"MLST type*;size*;modify*;"},
		MLSD: "type=file;size=3;modify=20261124215700; " + evil + "\r\n"}
	fs := hostile.Serve(t, f.Serve)
	d := &hostile.ProsperoDirectory{Size: 1250, Window: 16, Answer: func(req string) string {
		return "LINK L FILE '" + evil + "' INTERNET-D h(1) ASCII '/x' 0\n"
	}}
	ps := hostile.ServeUDP(t, d.Handle)
	base := serve(t, New(allow(g, fs.Addr, ps.Addr)))
	for _, c := range []struct {
		target string
		want   []string
	}{
		{"/gopher://" + g + "/1/m", []string{shown + "</a>", "[U+2067]info[U+2069] line", "[U+200F]dir[U+200E]</a>"}},
		{"/ftp://" + fs.Addr + "/pub/", []string{">" + shown + "</a>"}},
		// access escapes a Prospero listing's names (access.EscapeText).
		{"/prospero://" + ps.Addr + "//d", []string{`>photo\u202egpj.exe</a>`}},
	} {
		resp, body := raw(t, base, "GET", c.target)
		body = strings.ReplaceAll(body, "&#43;", "+") // html/template's "+"
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", c.target, resp.StatusCode, body)
		}
		for _, w := range c.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: the page lacks %q:\n%s", c.target, w, body)
			}
		}
		for _, r := range body {
			if r == 0x202e || r == 0x2067 || r == 0x2069 || r == 0x200e || r == 0x200f {
				t.Errorf("%s: the page holds U+%04X", c.target, r)
				break
			}
		}
		if !strings.Contains(body, "a,.info,.error,.url,td,h1,nav.crumbs{unicode-bidi:isolate}") {
			t.Errorf("%s: the names are not isolated", c.target)
		}
	}
}
