package access

import (
	"context"
	"errors"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

// TestClientsRegistered holds the client registry to the schemes RFC 1738
// section 3 gives a retrieval protocol: each of their plans has a client
// (registered in the client's own file), and the plans of the others (a
// telnet session, a mail to compose, a message-id to look up) have none,
// so that Execute refuses them with ErrNotRetrievable.
func TestClientsRegistered(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want bool
	}{
		{"ftp://h.example/f", true},
		{"gopher://h.example/0/x", true},
		{"nntp://h.example/comp.lang.go/1", true},
		{"news:comp.lang.go", true},
		{"http://h.example/", true},
		{"https://h.example/", true},
		{"file:///etc/motd", true},
		{"wais://h.example/db?w", true},
		{"prospero://h.example/x", true},
		{"telnet://h.example/", false},
		{"mailto:joe@h.example", false},
		{"mid:a@b", false},
	} {
		p, err := scheme.PlanOf(urlkit.MustParse(tc.url), scheme.Config{NewsServer: "news.example"})
		if err != nil {
			t.Fatalf("%s: %v", tc.url, err)
		}
		if got := Retrievable(p); got != tc.want {
			t.Errorf("Retrievable(plan of %s) = %v, want %v", tc.url, got, tc.want)
		}
		if !tc.want {
			if _, err := Execute(context.Background(), p, nil); !errors.Is(err, ErrNotRetrievable) {
				t.Errorf("Execute(plan of %s): %v, want ErrNotRetrievable", tc.url, err)
			}
		}
	}
	if Retrievable(nil) {
		t.Error("Retrievable(nil) = true")
	}
	if _, err := Execute(context.Background(), nil, nil); err == nil {
		t.Error("Execute(nil): no error")
	}
}
