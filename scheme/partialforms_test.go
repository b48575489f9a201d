package scheme

import (
	"errors"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// TestDroppedForms decides each form of RFC 1630 and of the 1993 URL
// Internet-Draft that RFC 1738's grammar leaves out (issue 10, item 6):
// accepted where RFC 1738 allows it, otherwise rejected with an error that
// names the old form and what RFC 1738 writes instead. README lists the
// rejected ones among the deliberate divergences.
func TestDroppedForms(t *testing.T) {
	// RFC 1630 ftptype = A formcode | E formcode | I | L digits; RFC 1738
	// 3.2.2 ftptype = "A" | "I" | "D" | "a" | "i" | "d".
	for _, tt := range []struct{ in, hint string }{
		{"ftp://h/f;type=AN", `";type=a"`},
		{"ftp://h/f;type=AT", `";type=a"`},
		{"ftp://h/f;type=L8", `";type=i"`},
		{"ftp://h/f;type=E", "EBCDIC"},
		{"ftp://h/f;type=EN", "EBCDIC"},
	} {
		_, err := FTPOf(urlkit.MustParse(tt.in))
		var se *urlkit.SyntaxError
		if !errors.Is(err, ErrBadType) || !errors.As(err, &se) || se.Offset != strings.Index(tt.in, "=")+1 ||
			!strings.Contains(err.Error(), "RFC 1630") || !strings.Contains(err.Error(), tt.hint) {
			t.Errorf("%s: %v; want ErrBadType at offset %d naming RFC 1630 and %s", tt.in, err, strings.Index(tt.in, "=")+1, tt.hint)
		}
	}
	if v, err := FTPOf(urlkit.MustParse("ftp://h/f;type=I")); err != nil || v.Type != 'i' {
		t.Errorf("RFC 1630 and RFC 1738 both allow ;type=I: %v", err)
	}
	if _, err := FTPOf(urlkit.MustParse("ftp://h/f;type=x")); err == nil || strings.Contains(err.Error(), "RFC 1630") {
		t.Errorf(";type=x is in neither RFC: %v", err)
	}

	// RFC 1630 nntpaddress = nntp : group / digits, with no host; RFC 1738
	// 3.7 nntpurl = "nntp://" hostport "/" group [ "/" digits ].
	if _, err := urlkit.Parse("nntp:comp.infosystems.www/123"); !errors.Is(err, urlkit.ErrMissingSlashes) {
		t.Errorf("nntp:group/digits: %v; want the missing \"//\" error", err)
	}
	if u, err := urlkit.ParseGeneric("nntp:comp.infosystems.www/123"); err != nil || u.Opaque() != "comp.infosystems.www/123" {
		t.Errorf("nntp:group/digits is still a generic URL (for resolution): %v", err)
	}

	// 1993 draft gopheraddress = gopher://hostport [/ gtype [ selector ]]
	// [ ? search ]; RFC 1738 3.4 puts the search after %09, and "?" is an
	// ordinary selector character.
	g, err := GopherOf(urlkit.MustParse("gopher://h/7index?word"))
	if err != nil || g.Selector != "index?word" || g.HasSearch {
		t.Errorf("gopher ?search: %+v, %v; want the selector index?word and no search", g, err)
	}

	// 1993 draft httpaddress = http://hostport [/ path] [? search]; RFC
	// 1738 3.3: "http://" hostport [ "/" hpath [ "?" search ]].
	if h, err := HTTPOf(urlkit.MustParse("http://h/p?s")); err != nil || h.URL().String() != "http://h/p?s" {
		t.Errorf("http://h/p?s: %v", err)
	}
	if _, err := urlkit.Parse("http://h?s"); err == nil {
		t.Error("http://h?s: RFC 1738 3.3 needs the \"/\" before the search part")
	}
	// The lenient reading repairs it into http://h/?s: lenient.TestParse.

	// 1993 draft waisdoc = wais://hostport/database/wtype/digits/path (a
	// length field); RFC 1738 3.9: wais://host:port/database/wtype/wpath.
	_, err = WAISOf(urlkit.MustParse("wais://h/db/TEXT/1234/docid"))
	var se *urlkit.SyntaxError
	if !errors.Is(err, ErrBadPath) || !errors.As(err, &se) || se.Offset != len("wais://h/db/TEXT/") || !strings.Contains(err.Error(), "length field") {
		t.Errorf("wais length form: %v", err)
	}
	if w, err := WAISOf(urlkit.MustParse("wais://h/db/TEXT/docid")); err != nil || w.WPath != "docid" {
		t.Errorf("RFC 1738 wais document: %v", err)
	}

	// 1993 draft telnetaddress = telnet://[user@] hostport; RFC 1738 3.8
	// allows the user without a password.
	tv, err := TelnetOf(urlkit.MustParse("telnet://guest@h"))
	if err != nil || tv.User != "guest" || !tv.HasUser {
		t.Errorf("telnet with a user only: %+v, %v", tv, err)
	}
}
