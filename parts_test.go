package urlkit

import (
	"errors"
	"testing"
)

// TestCheckComponent: each component's rule of RFC 1738 section 5 on a
// text alone, with the offset in that text and the parser's kind of error.
func TestCheckComponent(t *testing.T) {
	for _, tt := range []struct {
		c    Component
		text string
		off  int   // -1: valid
		kind error // the sentinel error wrapped
		src  string
	}{
		{ComponentScheme, "x-foo+v1.2", -1, nil, "RFC 1738 5: scheme = 1*[ lowalpha | digit | \"+\" | \"-\" | \".\" ]"},
		{ComponentScheme, "ht tp", 2, ErrBadScheme, "RFC 1738 5"},
		{ComponentUser, "me;x?a&b=c%40", -1, nil, "RFC 1738 5: user = *[ uchar | \";\" | \"?\" | \"&\" | \"=\" ]"},
		{ComponentUser, "a:b", 1, ErrReservedChar, "RFC 1738 3.1: \":\" must be encoded in a user"},
		{ComponentPassword, "p@ss", 1, ErrReservedChar, "RFC 1738 3.1"},
		{ComponentPassword, "pw%4", 2, ErrBadEscape, "RFC 1630: % is followed by two hex digits"},
		{ComponentHost, "info.cern.ch", -1, nil, "RFC 1738 appendix"},
		{ComponentHost, "10.0.0.1", -1, nil, "RFC 1738 3.1: hostnumber"},
		{ComponentHost, "a_b.com", 1, ErrBadHost, "RFC 1738 3.1"},
		{ComponentHost, "h.com.", 5, ErrBadHost, "RFC 1738 5: hostname ends with a toplabel"},
		{ComponentHost, "[::1]", 0, ErrBadHost, "RFC 1738 has no IPv6 literals"},
		{ComponentPort, "8080", -1, nil, "RFC 1738 3.1"},
		{ComponentPort, "8o", 1, ErrBadPort, "RFC 1738 3.1: a port is digits"},
		{ComponentPath, "pub/www/doc;type=d", -1, nil, "RFC 1738 appendix"},
		{ComponentPath, "a?b", 1, ErrReservedChar, "RFC 1738 5: hpath has no \"?\""},
		{ComponentPath, "a b", 1, ErrUnsafeChar, "RFC 1738 2.2"},
		{ComponentSearch, "a?b=c/d", -1, nil, "RFC 1738 5: search = *xchar"},
		{ComponentSearch, "x#y", 1, ErrUnsafeChar, "RFC 1738 2.2: \"#\" is unsafe"},
		{ComponentFragment, "sec/2?", -1, nil, "RFC 1630 fragmentid"},
		{ComponentFragment, "a%4", 1, ErrBadEscape, "RFC 1630"},
		{ComponentOpaque, "c@d.org?subject=hi", -1, nil, "RFC 1738 5: *xchar"},
		{ComponentOpaque, "a b", 1, ErrUnsafeChar, "RFC 1738 2.2"},
		{ComponentHost, "", -1, nil, "an empty text is the URL's to judge"},
		{ComponentPort, "", -1, nil, "an empty text is the URL's to judge"},
	} {
		err := CheckComponent(tt.c, tt.text)
		if tt.off < 0 {
			if err != nil {
				t.Errorf("CheckComponent(%s, %q) = %v; want nil (%s)", tt.c, tt.text, err, tt.src)
			}
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) || se.Input != tt.text || se.Offset != tt.off || se.Component != tt.c || !errors.Is(err, tt.kind) || se.Reason() == "" {
			t.Errorf("CheckComponent(%s, %q) = %v; want %v at %d (%s)", tt.c, tt.text, err, tt.kind, tt.off, tt.src)
		}
	}
	for _, c := range []Component{ComponentNone, ComponentPrefix} {
		if err := CheckComponent(c, "x"); err == nil {
			t.Errorf("CheckComponent(%s) = nil; want an error: the component has no rule of its own", c)
		}
	}
}

// TestCheckComponentAgreesWithParse: every component of every valid URL
// of the parse table passes on its own, and a byte the parser rejects in a
// component is the one CheckComponent rejects in its text, at the same
// place.
func TestCheckComponentAgreesWithParse(t *testing.T) {
	for _, tt := range parseTests {
		u, err := ParseRef(tt.in)
		if err != nil {
			t.Fatalf("%q: %v", tt.in, err)
		}
		p := u.Parts()
		for c, text := range map[Component]string{ComponentScheme: p.Scheme, ComponentUser: p.User, ComponentPassword: p.Password,
			ComponentHost: p.Host, ComponentPort: p.Port, ComponentPath: p.Path, ComponentSearch: p.Search, ComponentFragment: p.Fragment} {
			if err := CheckComponent(c, text); err != nil {
				t.Errorf("%q: CheckComponent(%s, %q) = %v (%s)", tt.in, c, text, err, tt.src)
			}
		}
	}
	for _, tt := range []struct {
		url  string
		c    Component
		text string
	}{
		{"http://h.com/a%zzb", ComponentPath, "a%zzb"},
		{"http://h.com/a?b c", ComponentSearch, "b c"},
		{"ftp://u{x@h.com/", ComponentUser, "u{x"},
		{"http://h.com/#a|b", ComponentFragment, "a|b"},
	} {
		_, perr := Parse(tt.url)
		var pe, ce *SyntaxError
		if !errors.As(perr, &pe) || !errors.As(CheckComponent(tt.c, tt.text), &ce) {
			t.Fatalf("%q: Parse %v, CheckComponent(%s, %q) %v", tt.url, perr, tt.c, tt.text, CheckComponent(tt.c, tt.text))
		}
		start := len(tt.url) - len(tt.text)
		if tt.c == ComponentUser {
			start = len("ftp://")
		}
		if pe.Component != ce.Component || pe.Offset-start != ce.Offset || pe.Reason() != ce.Reason() {
			t.Errorf("%q: Parse says %v; CheckComponent(%s, %q) says %v", tt.url, pe, tt.c, tt.text, ce)
		}
	}
}
