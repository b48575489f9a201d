package scheme

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

func extendedT(t *testing.T, s string) urlkit.URL {
	t.Helper()
	u, err := urlkit.ParseExtended(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestPlansIPv6 checks that every plan connects to an IPv6 host as
// "[addr]:port", the form net.Dial takes, and that an https plan's TLS
// server name is the address without brackets.
func TestPlansIPv6(t *testing.T) {
	for in, addr := range map[string]string{
		"ftp://[::1]:2121/pub/f.txt":     "[::1]:2121",
		"gopher://[2001:db8::7]/0/x":     "[2001:db8::7]:70",
		"http://[::1]:8080/a?b":          "[::1]:8080",
		"https://[::1]/":                 "[::1]:443",
		"nntp://[::1]/comp.misc/12":      "[::1]:119",
		"telnet://[::1]:2323":            "[::1]:2323",
		"wais://[::1]/db?q":              "[::1]:210",
		"prospero://[::1]/x":             "[::1]:1525",
		"http://[::ffff:127.0.0.1]:81/x": "[::ffff:127.0.0.1]:81",
	} {
		p, err := PlanOf(extendedT(t, in), Config{Email: "a@b"})
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		var texts []string
		for _, s := range p.Steps() {
			texts = append(texts, s.Text())
		}
		if c, ok := p.Steps()[0].(Connect); ok && c.Addr != addr || !strings.Contains(strings.Join(texts, "\n"), " "+addr) {
			t.Errorf("%s: the plan does not connect to %q: %q", in, addr, texts)
		}
	}
	p, _ := PlanOf(extendedT(t, "https://[2001:DB8::1]:8443/"), Config{})
	h := p.(*HTTPPlan)
	if h.ServerName != "2001:db8::1" || h.Header[0] != (HeaderField{"Host", "[2001:DB8::1]:8443"}) {
		t.Errorf("server name %q, Host field %v", h.ServerName, h.Header[0])
	}
}

// TestHTTPLogin checks the login RFC 1738 3.3 refuses in an http URL: an
// error in a URL of RFC 1738's syntax; in one of the extended syntax (the
// lenient reading's) a relaxed rule, reported by Relaxed, and sent as
// HTTP Basic credentials (RFC 7617), masked wherever the plan is shown.
func TestHTTPLogin(t *testing.T) {
	strict := urlkit.MustParse("http://us%20er:p%40ss@h.example/x")
	if err := Validate(strict); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("strict: %v, want ErrNotAllowed", err)
	}
	if w := Relaxed(strict); w != nil {
		t.Errorf("Relaxed of a strict URL: %v", w)
	}
	u := extendedT(t, "http://us%20er:p%40ss@h.example/x")
	if err := Validate(u); err != nil {
		t.Fatal(err)
	}
	if w := Relaxed(u); len(w) != 1 || w[0].Offset != 7 || w[0].Component != urlkit.ComponentUser {
		t.Errorf("Relaxed = %v", w)
	}
	p, err := PlanOf(u, Config{})
	if err != nil {
		t.Fatal(err)
	}
	h := p.(*HTTPPlan)
	if h.Base().String() != u.String() || h.URL != "http://us%20er:xxxxx@h.example/x" {
		t.Errorf("base %q, URL %q", h.Base(), h.URL)
	}
	// base64("us er:p@ss")
	if h.Header[1] != (HeaderField{"Authorization", "Basic dXMgZXI6cEBzcw=="}) || !strings.Contains(h.Wire(), "\r\nAuthorization: Basic dXMgZXI6cEBzcw==\r\n") {
		t.Errorf("header %v", h.Header)
	}
	var texts []string
	for _, s := range p.Steps() {
		texts = append(texts, s.Text())
	}
	j, _ := json.Marshal(p)
	if shown := strings.Join(texts, "\n") + string(j); strings.Contains(shown, "dXMgZXI6cEBzcw") || strings.Contains(shown, "p%40ss") || !strings.Contains(shown, "Authorization: Basic xxxxx") {
		t.Errorf("the credentials are shown:\n%s", shown)
	}
	// A user name with ":" cannot be sent (RFC 7617 2), nor a control.
	for _, in := range []string{"http://a%3Ab:c@h/", "http://a%0D%0AX:c@h/"} {
		if _, err := PlanOf(extendedT(t, in), Config{}); err == nil {
			t.Errorf("%s: planned", in)
		}
	}
	// Only http and https relax the rule: gopher still refuses a login.
	if err := Validate(extendedT(t, "gopher://u@h/1")); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("gopher login: %v", err)
	}
}
