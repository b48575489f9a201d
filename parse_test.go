package urlkit

import (
	"errors"
	"strings"
	"testing"
)

// absent marks a component that must be absent in a parseTest.
const absent = "\x00absent"

type parts struct {
	scheme, user, password, host, port, path, search, fragment string
}

func got(u URL) parts {
	o := func(s string, ok bool) string {
		if !ok {
			return absent
		}
		return s
	}
	p := parts{scheme: u.Scheme(), host: u.Host()}
	p.user = o(u.User())
	p.password = o(u.Password())
	p.port = o(u.RawPort())
	p.path = o(u.Path())
	p.search = o(u.Search())
	p.fragment = o(u.Fragment())
	return p
}

// parseTests are valid URLs, each with its components. The source of each
// case is named beside it.
var parseTests = []struct {
	in   string
	want parts
	src  string
}{
	// RFC 1738 3.1: empty user vs no user vs empty password.
	{"ftp://@host.com/", parts{"ftp", "", absent, "host.com", absent, "", absent, absent}, "RFC 1738 3.1"},
	{"ftp://host.com/", parts{"ftp", absent, absent, "host.com", absent, "", absent, absent}, "RFC 1738 3.1"},
	{"ftp://foo:@host.com/", parts{"ftp", "foo", "", "host.com", absent, "", absent, absent}, "RFC 1738 3.1"},
	// RFC 1738 3.2.2: the three myname@host.dom examples.
	{"ftp://myname@host.dom/%2Fetc/motd", parts{"ftp", "myname", absent, "host.dom", absent, "%2Fetc/motd", absent, absent}, "RFC 1738 3.2.2"},
	{"ftp://myname@host.dom/etc/motd", parts{"ftp", "myname", absent, "host.dom", absent, "etc/motd", absent, absent}, "RFC 1738 3.2.2"},
	{"ftp://myname@host.dom//etc/motd", parts{"ftp", "myname", absent, "host.dom", absent, "/etc/motd", absent, absent}, "RFC 1738 3.2.2"},
	// RFC 1738 3.6, 3.10, 3.11.
	{"news:*", parts{"news", absent, absent, "", absent, "*", absent, absent}, "RFC 1738 3.6"},
	{"file://vms.host.edu/disk$user/my/notes/note12345.txt", parts{"file", absent, absent, "vms.host.edu", absent, "disk$user/my/notes/note12345.txt", absent, absent}, "RFC 1738 3.10"},
	{"prospero://host.dom//pros/name", parts{"prospero", absent, absent, "host.dom", absent, "/pros/name", absent, absent}, "RFC 1738 3.11"},
	// RFC 1738 appendix: the example paragraph and the references.
	{"ftp://info.cern.ch/pub/www/doc;type=d", parts{"ftp", absent, absent, "info.cern.ch", absent, "pub/www/doc;type=d", absent, absent}, "RFC 1738 appendix"},
	{"ftp://ds.internic.net/rfc", parts{"ftp", absent, absent, "ds.internic.net", absent, "rfc", absent, absent}, "RFC 1738 appendix"},
	{"http://ds.internic.net/instructions/overview.html#WARNING", parts{"http", absent, absent, "ds.internic.net", absent, "instructions/overview.html", absent, "WARNING"}, "RFC 1738 appendix"},
	{"URL:ftp://ds.internic.net/rfc/rfc1436.txt;type=a", parts{"ftp", absent, absent, "ds.internic.net", absent, "rfc/rfc1436.txt;type=a", absent, absent}, "RFC 1738 appendix [1]"},
	{"ftp://info.cern.ch/pub/www/doc/http-spec.txt.Z", parts{"ftp", absent, absent, "info.cern.ch", absent, "pub/www/doc/http-spec.txt.Z", absent, absent}, "RFC 1738 appendix [4]"},
	// RFC 1630 "HTTP" examples.
	{"http://www.my.work.com/", parts{"http", absent, absent, "www.my.work.com", absent, "", absent, absent}, "RFC 1630 HTTP"},
	{"http://www.library.my.town.va.us/Catalogue/76523471236%2Fwen44--4.98", parts{"http", absent, absent, "www.library.my.town.va.us", absent, "Catalogue/76523471236%2Fwen44--4.98", absent, absent}, "RFC 1630 HTTP"},
	{"http://www.my.org/462F4F2D4241522A314159265358979323846", parts{"http", absent, absent, "www.my.org", absent, "462F4F2D4241522A314159265358979323846", absent, absent}, "RFC 1630 HTTP"},
	{"http://info.cern.ch:8000/imaginary/test", parts{"http", absent, absent, "info.cern.ch", "8000", "imaginary/test", absent, absent}, "RFC 1630 HTTP"},
	{"http://www.myu.edu/org/admin/people#andy", parts{"http", absent, absent, "www.myu.edu", absent, "org/admin/people", absent, "andy"}, "RFC 1630 HTTP"},
	{"http://info.my.org/AboutUs/Index/Phonebook?dobbins", parts{"http", absent, absent, "info.my.org", absent, "AboutUs/Index/Phonebook", "dobbins", absent}, "RFC 1630 HTTP"},
	{"urn:/iana/dns/ch/cern/cn/techdoc/94/1642-3", parts{"urn", absent, absent, "", absent, "/iana/dns/ch/cern/cn/techdoc/94/1642-3", absent, absent}, "RFC 1630 URN"},
	// RFC 1630 Examples 1 and 2 are valid URLs too.
	{"http://info.cern.ch/albert/bertram/marie%2Dclaude", parts{"http", absent, absent, "info.cern.ch", absent, "albert/bertram/marie%2Dclaude", absent, absent}, "RFC 1630 Example 1"},
	{"http://info.cern.ch/albert/bertram%2Fmarie-claude", parts{"http", absent, absent, "info.cern.ch", absent, "albert/bertram%2Fmarie-claude", absent, absent}, "RFC 1630 Example 2"},
	// Absent vs empty: port, path, search, fragment (RFC 1738 3.1, 3.3).
	{"http://h", parts{"http", absent, absent, "h", absent, absent, absent, absent}, "RFC 1738 3.3: the / may be omitted"},
	{"http://h/?", parts{"http", absent, absent, "h", absent, "", "", absent}, "RFC 1738 3.3"},
	{"http://h/#", parts{"http", absent, absent, "h", absent, "", absent, ""}, "RFC 1630 fragmentaddress"},
	{"http://a:b@h:0080/p?q?r#f", parts{"http", "a", "b", "h", "0080", "p", "q?r", "f"}, "RFC 1738 5 (http forbids a login, which the scheme package checks)"},
	{"telnet://u;x=y?z&w:p;q@10.0.0.1:23/", parts{"telnet", "u;x=y?z&w", "p;q", "10.0.0.1", "23", "", absent, absent}, "RFC 1738 5: user = *[ uchar | ; | ? | & | = ]"},
	{"HTTP://EX.com/", parts{"http", absent, absent, "EX.com", absent, "", absent, absent}, "RFC 1738 5: scheme is case-ignore"},
	{"file:///etc/motd", parts{"file", absent, absent, "", absent, "etc/motd", absent, absent}, "RFC 1738 5: fileurl host is optional"},
	{"x-my.scheme+1:anything;goes/here?yes", parts{"x-my.scheme+1", absent, absent, "", absent, "anything;goes/here", "yes", absent}, "RFC 1738 5: otherurl = genericurl"},
	{"x-w://@@", parts{"x-w", absent, absent, "", absent, "//@@", absent, absent}, "RFC 1738 5: schemepart = *xchar | ip-schemepart"},
	{"mailto:timbl@info.cern.ch", parts{"mailto", absent, absent, "", absent, "timbl@info.cern.ch", absent, absent}, "RFC 1630 author address"},
	{"gopher://a.b/1a%09b", parts{"gopher", absent, absent, "a.b", absent, "1a%09b", absent, absent}, "RFC 1738 3.4"},
	{"ftp://a/b@h/", parts{"ftp", absent, absent, "a", absent, "b@h/", absent, absent}, "RFC 1738 3.1: the first / ends the login"},
	{"URL:", parts{"url", absent, absent, "", absent, "", absent, absent}, "RFC 1738 appendix: a prefix needs a URL after it"},
	{"URL:URL:x", parts{"url", absent, absent, "", absent, "URL:x", absent, absent}, "one prefix at most"},
	{"a:", parts{"a", absent, absent, "", absent, "", absent, absent}, "RFC 1738 5: schemepart = *xchar may be empty"},
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		u, err := Parse(tt.in)
		if err != nil {
			t.Errorf("%s: Parse(%q): %v", tt.src, tt.in, err)
			continue
		}
		if g := got(u); g != tt.want {
			t.Errorf("%s: Parse(%q)\n got %+q\nwant %+q", tt.src, tt.in, g, tt.want)
		}
		want := tt.in
		if u.Prefixed() {
			want = tt.in[4:]
		}
		if u.String() != want {
			t.Errorf("%s: Parse(%q).String() = %q, want %q", tt.src, tt.in, u.String(), want)
		}
		if u.Prefixed() != (strings.HasPrefix(tt.in, "URL:") && u.Scheme() != "url") {
			t.Errorf("Parse(%q).Prefixed() = %v", tt.in, u.Prefixed())
		}
		if u.RawScheme() != tt.in[len(tt.in)-len(want):][:len(u.RawScheme())] {
			t.Errorf("Parse(%q).RawScheme() = %q", tt.in, u.RawScheme())
		}
	}
}

// parseErrorTests are strings Parse must reject, with the offset of the
// first offending byte, its component and the kind of error.
var parseErrorTests = []struct {
	in     string
	offset int
	comp   Component
	kind   error
	src    string
}{
	// RFC 1630 Example 3: "%" must start an escape.
	{"fxqn:/us/va/reston/cnri/ietf/24/asdf%*.fred", 36, ComponentOpaque, ErrBadEscape, "RFC 1630 Example 3"},
	{"news:12345667123%asdghfh@info.cern.ch", 16, ComponentOpaque, ErrBadEscape, "RFC 1630 Example 3"},
	// RFC 1630's own search example breaks its rule with "%%3D".
	{"http://info.cern.ch/RDB/EMP?*%20where%20name%%3Ddobbins", 44, ComponentSearch, ErrBadEscape, "RFC 1630 HTTP (an example that contradicts Example 3)"},
	// RFC 1630's reference with spaces in a gopher selector.
	{"gopher://gopher.micro.umn.edu/00/Information About Gopher/About", 44, ComponentPath, ErrUnsafeChar, "RFC 1630 references; RFC 1738 2.2"},
	// The 1993 draft wrote a host with a trailing dot; RFC 1738's hostname forbids it.
	{"ftp://info.cern.ch./pub/www/doc/http-spec.txt", 18, ComponentHost, ErrBadHost, "1993 draft references; RFC 1738 5 hostname"},
	// RFC 1738 2.2: unsafe characters.
	{"http://h/a b", 10, ComponentPath, ErrUnsafeChar, "RFC 1738 2.2 space"},
	{"http://h/~user/", 9, ComponentPath, ErrUnsafeChar, "RFC 1738 2.2 national ~"},
	{"http://h/a{b}", 10, ComponentPath, ErrUnsafeChar, "RFC 1738 2.2 national {"},
	{"http://h/a|b", 10, ComponentPath, ErrUnsafeChar, "RFC 1738 2.2 national |"},
	{"http://h/a\\b", 10, ComponentPath, ErrUnsafeChar, "RFC 1738 2.2 national \\"},
	{"http://h/a<b", 10, ComponentPath, ErrUnsafeChar, "RFC 1738 2.2 punctuation <"},
	{"http://h/a\"b", 10, ComponentPath, ErrUnsafeChar, "RFC 1738 2.2 punctuation \""},
	{"http://h/a#b#c", 12, ComponentFragment, ErrUnsafeChar, "RFC 1738 2.2: # in a fragment"},
	{"http://h/a\x7fb", 10, ComponentPath, ErrUnsafeChar, "RFC 1738 2.2 control 7F"},
	{"http://h/\xc3\xa9", 9, ComponentPath, ErrUnsafeChar, "RFC 1738 2.2 non-ASCII"},
	{"http://h/?a\tb", 11, ComponentSearch, ErrUnsafeChar, "RFC 1738 2.2 control in search"},
	{"http://h/%zz", 9, ComponentPath, ErrBadEscape, "RFC 1630: % + two hex"},
	{"http://h/%4", 9, ComponentPath, ErrBadEscape, "RFC 1630: % + two hex (truncated)"},
	{"http://h/#%G0", 10, ComponentFragment, ErrBadEscape, "RFC 1630: % + two hex in a fragment"},
	// RFC 1738 3.1: user and password.
	{"ftp://a:b:c@h/", 9, ComponentPassword, ErrReservedChar, "RFC 1738 3.1: : in password"},
	{"ftp://a@b@h/", 9, ComponentHost, ErrBadHost, "RFC 1738 3.1: @ in user must be encoded"},
	{"ftp://a~@h/", 7, ComponentUser, ErrUnsafeChar, "RFC 1738 2.2 in user"},
	// RFC 1738 3.1 and 5: host and port.
	{"http:///p", 7, ComponentHost, ErrMissingHost, "RFC 1738 5: login needs hostport"},
	// A file URL may have no host, but not a port without one (found by
	// FuzzGrammarMutate: "file://@::#").
	{"file://:8/x", 7, ComponentHost, ErrMissingHost, "RFC 1738 5: hostport = host [ \":\" port ]"},
	{"file://@::#", 8, ComponentHost, ErrMissingHost, "RFC 1738 5: hostport = host [ \":\" port ]"},
	{"file://a:b@:8/x", 11, ComponentHost, ErrMissingHost, "RFC 1738 5: hostport = host [ \":\" port ]"},
	{"http://h:/p", 8, ComponentPort, ErrEmptyPort, "RFC 1738 3.1: if the port is omitted, the colon is as well"},
	{"http://h:8a/", 10, ComponentPort, ErrBadPort, "RFC 1738 5: port = digits"},
	{"http://h:1:2/", 10, ComponentPort, ErrReservedChar, "RFC 1738 5: port = digits"},
	// RFC 1738 5: hostport = host [ ":" port ]; the host's bad byte comes
	// first, so it is the one named (FuzzGrammarMutate found the port's
	// "@" named instead).
	{"ftp://@&&:@A#", 7, ComponentHost, ErrBadHost, "RFC 1738 5: host before port"},
	{"http://h&:x/", 8, ComponentHost, ErrBadHost, "RFC 1738 5: host before port"},
	{"http://1.2.3/", 11, ComponentHost, ErrBadHost, "RFC 1738 3.1: host number has four parts"},
	{"http://1.2.3.4.5/", 15, ComponentHost, ErrBadHost, "RFC 1738 3.1: host number has four parts"},
	{"http://a.1b/", 9, ComponentHost, ErrBadHost, "RFC 1738 3.1: toplabel starts with alpha"},
	{"http://-a.b/", 7, ComponentHost, ErrBadHost, "RFC 1738 5: domainlabel starts with alphadigit"},
	{"http://a-.b/", 8, ComponentHost, ErrBadHost, "RFC 1738 5: domainlabel ends with alphadigit"},
	{"http://a..b/", 9, ComponentHost, ErrBadHost, "RFC 1738 5: empty label"},
	{"http://a_b.c/", 8, ComponentHost, ErrBadHost, "RFC 1738 5: _ is not in a hostname"},
	{"http://[::1]/", 7, ComponentHost, ErrBadHost, "RFC 1738 5: no IPv6 literals"},
	{"http://h%41/", 8, ComponentHost, ErrBadHost, "RFC 1738 5: no escapes in a host"},
	{"http://h?q", 8, ComponentHost, ErrBadHost, "RFC 1738 5: httpurl needs / before ?"},
	{"x-w://not a host", 9, ComponentHost, ErrBadHost, "RFC 1738 5: neither ip-schemepart nor *xchar"},
	// Scheme and structure.
	{"", 0, ComponentNone, ErrEmpty, "empty"},
	{":x", 0, ComponentScheme, ErrBadScheme, "RFC 1738 5: scheme = 1*[...]"},
	{"ht tp://h/", 2, ComponentScheme, ErrBadScheme, "RFC 1738 5: scheme chars"},
	{"www.example.com", 15, ComponentScheme, ErrMissingScheme, "RFC 1738 2.1"},
	{"/a/b", 0, ComponentScheme, ErrMissingScheme, "RFC 1630: a partial form needs a base"},
	{"http:h/p", 5, ComponentOpaque, ErrMissingSlashes, "RFC 1738 3.1: //"},
	{"URL:http://h/%", 13, ComponentPath, ErrBadEscape, "offsets count the prefix"},
}

func TestParseErrors(t *testing.T) {
	for _, tt := range parseErrorTests {
		_, err := Parse(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: Parse(%q) = %v, want a *SyntaxError", tt.src, tt.in, err)
			continue
		}
		if se.Offset != tt.offset || se.Component != tt.comp || !errors.Is(err, tt.kind) {
			t.Errorf("%s: Parse(%q): offset %d, %v, %v; want offset %d, %v, %v\n  %v", tt.src, tt.in,
				se.Offset, se.Component, se.Err, tt.offset, tt.comp, tt.kind, err)
		}
		if se.Input != tt.in {
			t.Errorf("Parse(%q): error Input = %q", tt.in, se.Input)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "offset ") || !strings.Contains(msg, " in "+tt.comp.String()+": ") {
			t.Errorf("Parse(%q): message %q does not say where", tt.in, msg)
		}
	}
}

// The message format of the issue: offset, component, reason and the rule.
func TestSyntaxErrorMessage(t *testing.T) {
	_, err := Parse("http://h/abcdefg/%zz")
	want := `offset 17 in path: "%zz" is not a valid escape (RFC 1630: % must be followed by two hex digits)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestParseRef(t *testing.T) {
	for _, tt := range []struct {
		in                  string
		abs, auth           bool
		host, path, q, f    string
		hasPath, hasQ, hasF bool
	}{
		{"g", false, false, "", "g", "", "", true, false, false},
		{"/g", false, false, "", "/g", "", "", true, false, false},
		{"//g", false, true, "g", "", "", "", false, false, false},
		{"//g/x?y#z", false, true, "g", "x", "y", "z", true, true, true},
		{"///g", false, true, "", "g", "", "", true, false, false},
		{"?y", false, false, "", "", "y", "", true, true, false},
		{"#s", false, false, "", "", "", "s", true, false, true},
		{"", false, false, "", "", "", "", true, false, false},
		{"../g;x", false, false, "", "../g;x", "", "", true, false, false},
		{"a/b:c", false, false, "", "a/b:c", "", "", true, false, false},
		{"g:h", true, false, "", "h", "", "", true, false, false},
	} {
		u, err := ParseRef(tt.in)
		if err != nil {
			t.Errorf("ParseRef(%q): %v", tt.in, err)
			continue
		}
		p, hp := u.Path()
		q, hq := u.Search()
		f, hf := u.Fragment()
		if u.IsAbsolute() != tt.abs || u.HasAuthority() != tt.auth || u.Host() != tt.host ||
			p != tt.path || hp != tt.hasPath || q != tt.q || hq != tt.hasQ || f != tt.f || hf != tt.hasF || u.String() != tt.in {
			t.Errorf("ParseRef(%q) = abs %v auth %v host %q path %q/%v search %q/%v frag %q/%v", tt.in,
				u.IsAbsolute(), u.HasAuthority(), u.Host(), p, hp, q, hq, f, hf)
		}
	}
	if _, err := ParseRef("a b"); err == nil {
		t.Error(`ParseRef("a b") succeeded`)
	}
}

func TestAccessors(t *testing.T) {
	u := MustParse("URL:ftp://u:p@Host.Dom:21/a/b;type=i?x#f")
	for _, c := range []struct{ name, got, want string }{
		{"Authority", u.Authority(), "u:p@Host.Dom:21"},
		{"Opaque", u.Opaque(), "//u:p@Host.Dom:21/a/b;type=i?x"},
		{"RawPath", u.PathWithSlash(), "/a/b;type=i"},
		{"URLPath", u.PathAndSearch(), "a/b;type=i?x"},
		{"WithoutFragment", u.WithoutFragment().String(), "ftp://u:p@Host.Dom:21/a/b;type=i?x"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
	}
	if _, ok := u.WithoutFragment().Fragment(); ok {
		t.Error("WithoutFragment kept a fragment")
	}
	o := MustParse("mailto:a@b?subject")
	if o.Authority() != "" || o.PathAndSearch() != "a@b?subject" {
		t.Errorf("opaque: Authority %q URLPath %q", o.Authority(), o.PathAndSearch())
	}
	if MustParse("gopher://h").PathAndSearch() != "" {
		t.Error("URLPath of gopher://h not empty")
	}
}

func TestTextMarshaling(t *testing.T) {
	var u URL
	if err := u.UnmarshalText([]byte("http://h/x")); err != nil || u.String() != "http://h/x" {
		t.Fatalf("UnmarshalText: %v %q", err, u)
	}
	b, _ := u.MarshalText()
	if string(b) != "http://h/x" {
		t.Errorf("MarshalText = %q", b)
	}
	if err := u.UnmarshalText([]byte("http://h/%")); err == nil {
		t.Error("UnmarshalText accepted a bad escape")
	}
	if err := u.UnmarshalText(nil); err != nil || u.String() != "" {
		t.Errorf("UnmarshalText(nil) = %v, %q", err, u)
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParse did not panic")
		}
	}()
	MustParse("no scheme")
}

func TestParseAllocs(t *testing.T) {
	for _, s := range []string{"http://info.cern.ch:8000/imaginary/test?x#y", "ftp://myname@host.dom/%2Fetc/motd;type=a", "HTTP://H/"} {
		if n := testing.AllocsPerRun(100, func() { Parse(s) }); n != 0 {
			t.Errorf("Parse(%q) allocates %v times", s, n)
		}
	}
}
