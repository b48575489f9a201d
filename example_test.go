package urlkit_test

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/urlkit/urlkit"
)

func ExampleParse() {
	u, err := urlkit.Parse("ftp://myname@host.dom/%2Fetc/motd;type=a")
	if err != nil {
		panic(err)
	}
	user, _ := u.User()
	path, _ := u.Path()
	fmt.Println(u.Scheme(), user, u.Host(), path)
	// Output: ftp myname host.dom %2Fetc/motd;type=a
}

func ExampleParse_error() {
	_, err := urlkit.Parse("http://info.cern.ch/RDB/EMP?*%20where%20name%%3Ddobbins")
	fmt.Println(err)
	var se *urlkit.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Offset, se.Component, errors.Is(err, urlkit.ErrBadEscape))
	}
	// Output:
	// offset 44 in search: "%%3" is not a valid escape (RFC 1630: % must be followed by two hex digits)
	// 44 search true
}

func ExampleParse_absentAndEmpty() {
	// RFC 1738 3.1: an empty user name is different from no user name.
	for _, s := range []string{"ftp://@host.com/", "ftp://host.com/", "ftp://foo:@host.com/"} {
		u := urlkit.MustParse(s)
		user, hasUser := u.User()
		pass, hasPass := u.Password()
		fmt.Printf("%-22s user %q %v, password %q %v\n", s, user, hasUser, pass, hasPass)
	}
	// Output:
	// ftp://@host.com/       user "" true, password "" false
	// ftp://host.com/        user "" false, password "" false
	// ftp://foo:@host.com/   user "foo" true, password "" true
}

func ExampleParseRef() {
	for _, s := range []string{"../g", "//g", "g:h", "#s"} {
		u, _ := urlkit.ParseRef(s)
		fmt.Println(s, u.IsAbsolute(), u.HasAuthority())
	}
	// Output:
	// ../g false false
	// //g false true
	// g:h true false
	// #s false false
}

func ExampleMustParse() {
	u := urlkit.MustParse("URL:http://info.cern.ch:8000/imaginary/test")
	port, _ := u.Port()
	fmt.Println(u, u.Prefixed(), port)
	// Output: http://info.cern.ch:8000/imaginary/test true 8000
}

// The extended syntax reads an IPv6 literal host (RFC 3986 3.2.2), which
// RFC 1738 has no room for; Hostname gives the address to connect to, and
// Canonical writes it in RFC 5952's form.
func ExampleParseExtended() {
	u, err := urlkit.ParseExtended("http://[2001:DB8:0:0::1]:8080/a")
	if err != nil {
		panic(err)
	}
	port, _ := u.Port()
	fmt.Println(u.Host(), u.Hostname(), port, u.Extended())
	fmt.Println(urlkit.Canonical(u))
	_, err = urlkit.Parse("http://[2001:db8::1]/")
	fmt.Println(err)
	// Output:
	// [2001:DB8:0:0::1] 2001:db8:0:0::1 8080 true
	// http://[2001:db8::1]:8080/a
	// offset 7 in host: "[" and "]" are not allowed in a host: IPv6 literals came later (RFC 2732) and are not part of RFC 1738
}

func ExampleURL_Path() {
	// RFC 1738 3.1: the "/" between the host and the url-path is not part
	// of the url-path; the search part is not part of the path either.
	u := urlkit.MustParse("http://info.my.org/AboutUs/Index/Phonebook?dobbins#top")
	path, _ := u.Path()
	search, _ := u.Search()
	frag, _ := u.Fragment()
	fmt.Println(path, search, frag)
	fmt.Println(u.PathWithSlash(), u.PathAndSearch())
	fmt.Println(u.WithoutFragment())
	// Output:
	// AboutUs/Index/Phonebook dobbins top
	// /AboutUs/Index/Phonebook AboutUs/Index/Phonebook?dobbins
	// http://info.my.org/AboutUs/Index/Phonebook?dobbins
}

func ExampleURL_Opaque() {
	u := urlkit.MustParse("news:comp.infosystems.www")
	fmt.Println(u.Opaque(), u.HasAuthority(), u.Authority() == "")
	v := urlkit.MustParse("telnet://guest:secret@host.dom:2323/")
	fmt.Println(v.Authority(), v.RawScheme())
	// Output:
	// comp.infosystems.www false true
	// guest:secret@host.dom:2323 telnet
}

func ExampleURL_NetURL() {
	u := urlkit.MustParse("http://info.cern.ch/albert/bertram%2Fmarie-claude")
	nu, err := u.NetURL()
	fmt.Println(nu.Host, nu.EscapedPath(), err)
	// Output: info.cern.ch /albert/bertram%2Fmarie-claude <nil>
}

func ExampleFromNetURL() {
	nu, _ := url.Parse("gopher://gopher.micro.umn.edu/1")
	u, err := urlkit.FromNetURL(nu)
	fmt.Println(u.Scheme(), u.Host(), err)
	// Output: gopher gopher.micro.umn.edu <nil>
}

func ExampleURL_UnmarshalText() {
	var u urlkit.URL
	err := u.UnmarshalText([]byte("mailto:timbl@info.cern.ch"))
	text, _ := u.MarshalText()
	fmt.Println(string(text), err)
	// Output: mailto:timbl@info.cern.ch <nil>
}

func ExampleEscape() {
	// RFC 1738 3.1: within a user name or password, ":", "@" and "/"
	// must be encoded.
	fmt.Println(urlkit.Escape("me@home:x", urlkit.ComponentPassword))
	fmt.Println(urlkit.Escape("a b;c", urlkit.ComponentPath))
	// Output:
	// me%40home%3Ax
	// a%20b;c
}

func ExampleEscapeSegment() {
	// RFC 1738 3.2.2: a "/" inside an ftp CWD argument must be encoded.
	fmt.Println(urlkit.EscapeSegment("/etc"))
	// Output: %2Fetc
}

func ExampleEscapeSearchWord() {
	// RFC 1630: real plus signs are encoded, a space becomes "+".
	fmt.Println(urlkit.EscapeSearchWord("1+1 = 2"))
	// Output: 1%2B1+%3D+2
}

func ExampleUnescape() {
	s, err := urlkit.Unescape("marie%2Dclaude")
	fmt.Println(s, err)
	_, err = urlkit.Unescape("asdf%*.fred")
	fmt.Println(err)
	// Output:
	// marie-claude <nil>
	// offset 4 in input: "%*." is not a valid escape (RFC 1630: % must be followed by two hex digits)
}

func ExampleUnescapeSearch() {
	s, _ := urlkit.UnescapeSearch("where+name%3Ddobbins+%2B1")
	fmt.Println(s)
	// Output: where name=dobbins +1
}

func ExampleCanonical() {
	u := urlkit.MustParse("HTTP://Info.CERN.ch:80/albert/bertram/marie%2dclaude")
	fmt.Println(urlkit.Canonical(u))
	// Output: http://info.cern.ch/albert/bertram/marie-claude
}

func ExampleEqual() {
	// RFC 1630, "Encoding reserved characters", Examples 1 and 2.
	a := urlkit.MustParse("http://info.cern.ch/albert/bertram/marie-claude")
	b := urlkit.MustParse("http://info.cern.ch/albert/bertram/marie%2Dclaude")
	c := urlkit.MustParse("http://info.cern.ch/albert/bertram%2Fmarie-claude")
	fmt.Println(urlkit.Equal(a, b), urlkit.Equal(a, c))
	// Output: true false
}

func ExampleCanonical_file() {
	// RFC 1630: "A void host field is equivalent to localhost"; RFC 1738
	// 3.10 gives both the same meaning.
	u := urlkit.MustParse("file://LOCALHOST/etc/motd")
	fmt.Println(urlkit.Canonical(u), urlkit.Equal(u, urlkit.MustParse("file:///etc/motd")))
	// Output: file:///etc/motd true
}
