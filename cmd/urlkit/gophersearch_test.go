package main

import (
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
)

// Issue 36 item 3: the lenient reading takes the "?" of a gopher search
// item (type 7) as the start of its search, as lynx does, and says so;
// strictly (RFC 1738 3.4) it is part of the selector. A menu of error
// items only (RFC 1436 3.8) is the server refusing the selector: get
// prints it and exits non-zero.
func TestGetGopherSearchAndErrorItem(t *testing.T) {
	gs, err := fakeservers.Gopher(map[string][]byte{
		// (the fake server answers "/search" whatever the search after a
		// TAB; any other selector with an error item)
		"/search": []byte("0Found hello\t/hello.txt\th.example\t70\r\n.\r\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	u := "gopher://" + gs.Addr() + "/7/search?hello"
	out, errOut, code := runCLI(t, "", "get", "--lenient", u)
	if code != exitOK || out != "gopher://h.example:70/0/hello.txt\tFound hello\n" || !strings.Contains(errOut, `"?" of a gopher search item (type 7) read as the start of its search`) {
		t.Errorf("--lenient: %d %q %q", code, out, errOut)
	}
	out, errOut, code = runCLI(t, "", "get", u)
	if code == exitOK || out != "# error: '/search?hello' does not exist\n" || !strings.Contains(errOut, "the server answered with an error item only: '/search?hello' does not exist") {
		t.Errorf("strict: %d %q %q", code, out, errOut)
	}
	out, _, code = runCLI(t, "", "plan", "--lenient", u)
	if code != exitOK || !strings.Contains(out, `send: /search\thello\r\n`) {
		t.Errorf("plan --lenient: %d %q", code, out)
	}
	out, _, code = runCLI(t, "", "plan", u)
	if code != exitOK || !strings.Contains(out, `send: /search?hello\r\n`) {
		t.Errorf("plan: %d %q", code, out)
	}
}
