package scheme

import (
	"errors"
	"testing"

	"github.com/urlkit/urlkit"
)

// TestNewsMessageIDHost: the domain of a message-id is RFC 1738 5's host
// (article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host),
// checked by the core's one host rule: each case gets the verdict the
// parser gives the same host in an http URL, and the refusals name the
// byte RFC 1738 5's hostname = *[ domainlabel "." ] toplabel refuses.
func TestNewsMessageIDHost(t *testing.T) {
	for _, tt := range []struct {
		host string
		ok   bool
		off  int // offset in the host of the refused byte
		src  string
	}{
		{"h.example", true, 0, "RFC 1738 5: hostname"},
		{"1.2.3.4", true, 0, "RFC 1738 5: hostnumber"},
		{"a-b.c9.example", true, 0, "domainlabel with \"-\" inside"},
		{"b-.example", false, 1, "domainlabel ends with alphadigit, not \"-\""},
		{"-b.example", false, 0, "domainlabel starts with alphadigit"},
		{"b..example", false, 2, "an empty label"},
		{"b.9c", false, 2, "toplabel starts with alpha"},
		{"1.2.3", false, 4, "hostnumber has four parts"},
		{"b_c.example", false, 1, "\"_\" is in no host"},
		{"h.example.", false, 9, "no \".\" after the toplabel"},
		{"", false, 0, "the host is not optional"},
	} {
		u, err := urlkit.Parse("news:unique@" + tt.host)
		if err != nil {
			t.Fatalf("%s: %v", tt.host, err)
		}
		_, verr := NewsOf(u)
		if (verr == nil) != tt.ok {
			t.Errorf("%s: news:unique@%s: %v", tt.src, tt.host, verr)
			continue
		}
		var se *urlkit.SyntaxError
		if verr != nil && (!errors.As(verr, &se) || se.Offset != len("news:unique@")+tt.off || !errors.Is(verr, ErrBadArticle)) {
			t.Errorf("%s: news:unique@%s: %v, want ErrBadArticle at offset %d of the host", tt.src, tt.host, verr, tt.off)
		}
		if tt.host != "" {
			if _, err := urlkit.Parse("http://" + tt.host + "/"); (err == nil) != tt.ok {
				t.Errorf("%s: the parser says %v for http://%s/, the news view %v", tt.src, err, tt.host, verr)
			}
		}
	}
}
