package archive

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/scheme"
)

var testCfg = scheme.Config{NewsServer: "news.example.org"}

func planOf(t *testing.T, s string) scheme.Plan {
	t.Helper()
	p, err := scheme.PlanOf(urlkit.MustParse(s), testCfg)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return p
}

// TestConventionsRoundTrip: every resource access returns for a
// non-http plan comes back from its record as it was (the one table kinds
// read both ways), documents with and without a known type included.
func TestConventionsRoundTrip(t *testing.T) {
	cases := []struct {
		url string
		r   access.Resource
	}{
		{"gopher://example.org/1/", access.Resource{Kind: "menu", ContentType: "text/x-gopher-menu"}},
		{"gopher://example.org/0/a.txt", access.Resource{Kind: "file", ContentType: "text/plain"}},
		{"gopher://example.org/9/a.bin", access.Resource{Kind: "file", ContentType: "application/octet-stream"}},
		{"ftp://example.org/pub/", access.Resource{Kind: "directory", ListFormat: access.ListNames}},
		{"ftp://example.org/pub/", access.Resource{Kind: "directory", ListFormat: access.ListFacts}},
		{"ftp://example.org/pub/", access.Resource{Kind: "directory", ListFormat: access.ListLong}},
		{"ftp://example.org/pub", access.Resource{Kind: "directory", ListFormat: access.ListLong, Directory: true}},
		{"ftp://example.org/pub/a.bin", access.Resource{Kind: "file", ContentType: OctetStream}},
		{"news:a1@example.org", access.Resource{Kind: "article", ContentType: "message/rfc822"}},
		{"news:comp.lang.go", access.Resource{Kind: "overview", ContentType: "text/plain"}},
		{"news:*", access.Resource{Kind: "groups", ContentType: "text/plain"}},
		{"wais://example.org/db?w", access.Resource{Kind: "search", ContentType: "text/plain; charset=utf-8"}},
		{"prospero://example.org/d", access.Resource{Kind: "directory", ContentType: "text/plain; charset=utf-8"}},
		{"file:///tmp/", access.Resource{Kind: "directory", ContentType: "text/plain"}},
		{"file:///tmp/a.html", access.Resource{Kind: "file", ContentType: "text/html; charset=utf-8"}},
	}
	for _, c := range cases {
		in := c.r
		in.Plan = planOf(t, c.url)
		media, err := PayloadMediaType(&in)
		if err != nil {
			t.Errorf("%s %s: %v", c.url, in.Kind, err)
			continue
		}
		got, err := ResourceOf(Captured{Type: TypeResource, TargetURI: c.url, ContentType: media, Length: 3,
			Block: io.NopCloser(strings.NewReader("abc"))}, testCfg)
		if err != nil {
			t.Errorf("%s %s (%q): %v", c.url, in.Kind, media, err)
			continue
		}
		if got.Kind != in.Kind || got.ListFormat != in.ListFormat || got.ContentType != in.ContentType || got.Directory != in.Directory || got.Size != 3 {
			t.Errorf("%s: %+v written as %q reads back as kind %q list %q type %q dir %v size %d", c.url, in, media, got.Kind, got.ListFormat, got.ContentType, got.Directory, got.Size)
		}
		if ProtocolOf(got.Plan) != ProtocolOf(in.Plan) {
			t.Errorf("%s: plan %T read back as %T", c.url, in.Plan, got.Plan)
		}
		b, _ := io.ReadAll(got)
		if string(b) != "abc" {
			t.Errorf("%s: payload %q", c.url, b)
		}
	}
}

// TestConventionsRefuse: the answers of HEAD plans have no convention, and
// a record of the wrong type for its URL's protocol is refused.
func TestConventionsRefuse(t *testing.T) {
	r := access.Resource{Plan: planOf(t, "ftp://example.org/a"), Kind: "head"}
	if _, err := PayloadMediaType(&r); !errors.Is(err, ErrNotCapturable) {
		t.Errorf("head: %v", err)
	}
	r = access.Resource{Plan: planOf(t, "http://example.org/"), Kind: "file"}
	if _, err := PayloadMediaType(&r); !errors.Is(err, ErrNotCapturable) {
		t.Errorf("http as resource: %v", err)
	}
	_, err := ResourceOf(Captured{Type: TypeResponse, TargetURI: "gopher://example.org/", Block: io.NopCloser(strings.NewReader(""))}, testCfg)
	if err == nil {
		t.Errorf("gopher response record read as a resource")
	}
}

// TestHTTPResourceOf: a response record gives the body, chunked transfer
// coding undone (RFC 9112 7.1), status and header; a 404 is the error
// access returns.
func TestHTTPResourceOf(t *testing.T) {
	block := "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
	r, err := ResourceOf(Captured{Type: TypeResponse, TargetURI: "http://example.org/a", ContentType: HTTPResponseType,
		Length: int64(len(block)), Block: io.NopCloser(strings.NewReader(block))}, testCfg)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r)
	if string(b) != "abc" || r.ContentType != "text/plain" || r.Status != "HTTP/1.1 200 OK" {
		t.Errorf("got %q %q %q", b, r.ContentType, r.Status)
	}
	block = "HTTP/1.0 404 Not Found\r\n\r\n"
	_, err = ResourceOf(Captured{Type: TypeResponse, TargetURI: "http://example.org/a", ContentType: HTTPResponseType,
		Block: io.NopCloser(strings.NewReader(block))}, testCfg)
	var se *access.HTTPStatusError
	if !errors.As(err, &se) || se.Code != 404 {
		t.Errorf("404: %v", err)
	}
}
