package gateway

import (
	"os/exec"
	"strings"
	"testing"
)

// lynxDump returns lynx -dump -nolist of url, the way a text-browser user
// sees the page (skipped where lynx is not installed; CI installs it).
func lynxDump(t *testing.T, url string) string {
	t.Helper()
	lynx, err := exec.LookPath("lynx")
	if err != nil {
		t.Skip("lynx not installed")
	}
	cmd := exec.Command(lynx, "-dump", "-nolist", "-width=200", "-display_charset=utf-8", url)
	cmd.Env = []string{"HOME=" + t.TempDir(), "TERM=dumb"} // no user configuration, no proxies
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("lynx -dump %s: %v", url, err)
	}
	return string(out)
}

// A menu's search items (type 7) carry their search field on their own
// line, and lynx shows the menu with no blank line after one: it breaks
// the line where a form ends, so the field's form ends the line (issue
// 22). The menu block is the oracle's: each item one line, in order.
func TestLynxMenuSearchLines(t *testing.T) {
	menu := "iWelcome\t\terror.host\t1\r\n" +
		"7Find things\t/find\t127.0.0.1\t70\r\n" +
		"0Doc\t/doc\t127.0.0.1\t70\r\n" +
		"7Veronica\t/v\t127.0.0.1\t70\r\n" +
		"7Last search\t/w\t127.0.0.1\t70\r\n" +
		".\r\n"
	addr := gopherServer(t, map[string][]byte{"/m": []byte(menu)})
	base := serve(t, New(allow(addr)))
	dump := lynxDump(t, base+"/gopher://"+addr+"/1/m")
	var lines []string
	in := false
	for _, l := range strings.Split(dump, "\n") {
		l = strings.TrimRight(l, " ")
		if strings.HasPrefix(strings.TrimSpace(l), "Welcome") {
			in = true
		}
		if in {
			if strings.Contains(l, "urlkit gateway") {
				break
			}
			lines = append(lines, strings.Join(strings.Fields(l), " "))
		}
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // the space between the menu and the footer
	}
	want := []string{
		"Welcome",
		"(?) Find things ________________________(BUTTON)search",
		"(TXT) Doc",
		"(?) Veronica ________________________(BUTTON)search",
		"(?) Last search ________________________(BUTTON)search",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("lynx shows the menu as\n%s\nwant\n%s\n(whole dump:\n%s)", strings.Join(lines, "\n"), strings.Join(want, "\n"), dump)
	}
}

// A search item's own page (a type-7 URL without a search string, typed
// or linked from a proxy-form menu) is titled with the selector's last
// part, decoded, not with the raw URL (issue 22); the server names it
// when the selector is empty.
func TestSearchPageTitle(t *testing.T) {
	addr := gopherServer(t, nil)
	base := serve(t, New(allow(addr)))
	for target, title := range map[string]string{
		"/gopher://" + addr + "/7/cgi-bin/find%20it": "search: find it",
		"gopher://" + addr + "/7/v/":                 "search: v",
		"/gopher://" + addr + "/7":                   "search: " + addr,
		"/gopher://" + addr + "/7%3Cb%3E":            "search: &lt;b&gt;",
	} {
		resp, body := raw(t, base, "GET", target)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d\n%s", target, resp.StatusCode, body)
		}
		for _, want := range []string{"<title>" + title + "</title>", "<h1>" + title + "</h1>"} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the page lacks %s:\n%s", target, want, body)
			}
		}
	}
}
