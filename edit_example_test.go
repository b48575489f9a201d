package urlkit_test

import (
	"errors"
	"fmt"
	"sort"

	"github.com/urlkit/urlkit"
)

func ExampleBuild() {
	u, err := urlkit.Build(urlkit.Parts{Scheme: "gopher", Host: "spinaltap.micro.umn.edu", Path: "00/Weather/California/Los%20Angeles"})
	fmt.Println(u, err)
	// RFC 1738 3.10: a file URL may name no host, but keeps its "//".
	f, _ := urlkit.Build(urlkit.Parts{Scheme: "file", Authority: true, Path: "etc/motd"})
	fmt.Println(f)
	// Output:
	// gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles <nil>
	// file:///etc/motd
}

func ExampleBuild_error() {
	// Build takes encoded text: a space is an error, with its offset in
	// the part.
	_, err := urlkit.Build(urlkit.Parts{Scheme: "http", Host: "h.com", Path: "my docs"})
	fmt.Println(err)
	// Output: offset 2 in path: space must be encoded as %20 (RFC 1738 2.2: unsafe)
}

func ExampleURL_Parts() {
	p := urlkit.MustParse("ftp://@host.com/").Parts()
	fmt.Printf("user %q %v, path %q %v\n", p.User, p.HasUser, p.Path, p.HasPath)
	// Output: user "" true, path "" true
}

func ExampleURL_Set() {
	u := urlkit.MustParse("ftp://myname@host.dom/etc/motd")
	v, _ := u.Set(urlkit.ComponentPath, "%2Fetc/motd;type=a")
	fmt.Println(v)
	_, err := u.Set(urlkit.ComponentUser, "me@home")
	fmt.Println(err)
	var se *urlkit.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Input, se.Offset, se.Component)
	}
	// Output:
	// ftp://myname@host.dom/%2Fetc/motd;type=a
	// offset 2 in user: "@" is reserved here and must be encoded as %40 (RFC 1738 3.1: within the user and password, ":", "@" and "/" must be encoded)
	// me@home 2 user
}

func ExampleURL_SetUnescaped() {
	u := urlkit.MustParse("ftp://host.dom/")
	v, _ := u.SetUnescaped(urlkit.ComponentUser, "me@home")
	v, _ = v.SetUnescaped(urlkit.ComponentPath, "my docs/notes;type=a")
	fmt.Println(v)
	// Output: ftp://me%40home@host.dom/my%20docs/notes;type=a
}

func ExampleURL_Clear() {
	u := urlkit.MustParse("http://info.cern.ch:8000/x?q#top")
	u, _ = u.Clear(urlkit.ComponentPort)
	u, _ = u.Clear(urlkit.ComponentFragment)
	fmt.Println(u)
	// Output: http://info.cern.ch/x?q
}

func ExampleURL_SetScheme() {
	u, _ := urlkit.MustParse("http://h.com/a").SetScheme("https")
	fmt.Println(u)
	_, err := urlkit.MustParse("http://h.com/a").SetScheme("mailto")
	fmt.Println(errors.Is(err, urlkit.ErrConflict))
	// Output:
	// https://h.com/a
	// true
}

func ExampleURL_SetUser() {
	u, _ := urlkit.MustParse("ftp://host.dom/").SetUser("myname")
	fmt.Println(u)
	// Output: ftp://myname@host.dom/
}

func ExampleURL_SetPassword() {
	u, _ := urlkit.MustParse("ftp://myname@host.dom/").SetPassword("secret")
	fmt.Println(u.Redacted())
	// Output: ftp://myname:xxxxx@host.dom/
}

func ExampleURL_SetHost() {
	u, _ := urlkit.MustParse("http://old.example.com/a").SetHost("info.cern.ch")
	fmt.Println(u)
	_, err := u.SetHost("under_score.com")
	fmt.Println(err)
	// Output:
	// http://info.cern.ch/a
	// offset 5 in host: "_" is not allowed in a host name: labels are letters, digits and "-" (RFC 1738 3.1, RFC 1034 3.5)
}

func ExampleURL_SetPort() {
	u, _ := urlkit.MustParse("gopher://h.com/").SetPort("7070")
	fmt.Println(u)
	// Output: gopher://h.com:7070/
}

func ExampleURL_SetPath() {
	u, _ := urlkit.MustParse("http://h.com").SetPath("a/b.html")
	fmt.Println(u)
	// Output: http://h.com/a/b.html
}

func ExampleURL_SetSearch() {
	u, _ := urlkit.MustParse("http://h.com/find").SetSearch("where+name%3Ddobbins")
	raw, _ := u.Search()
	s, _ := urlkit.UnescapeSearch(raw)
	fmt.Println(u, s)
	// Output: http://h.com/find?where+name%3Ddobbins where name=dobbins
}

func ExampleURL_SetFragment() {
	u, _ := urlkit.MustParse("http://h.com/doc").SetFragment("section2")
	fmt.Println(u)
	// Output: http://h.com/doc#section2
}

func ExampleURL_JoinPath() {
	u := urlkit.MustParse("ftp://host.dom/pub/")
	v, _ := u.JoinPath("my docs", "a/b", "..")
	fmt.Println(v)
	// Output: ftp://host.dom/pub/my%20docs/a%2Fb/%2E%2E
}

func ExampleURL_Port() {
	for _, s := range []string{"http://h.com/", "http://h.com:8080/", "mailto:a@b.com"} {
		port, given := urlkit.MustParse(s).Port()
		fmt.Println(port, given)
	}
	// Output:
	// 80 false
	// 8080 true
	// 0 false
}

func ExampleURL_RawPort() {
	port, ok := urlkit.MustParse("ftp://h.com:0021/").RawPort()
	fmt.Println(port, ok)
	// Output: 0021 true
}

func ExampleURL_Hostname() {
	fmt.Println(urlkit.MustParse("http://Info.CERN.ch/").Hostname())
	// Output: info.cern.ch
}

func ExampleURL_PathWithSlash() {
	u := urlkit.MustParse("ftp://h.com/a/b;type=i?x")
	p, _ := u.Path()
	fmt.Println(u.PathWithSlash(), p)
	// Output: /a/b;type=i a/b;type=i
}

func ExampleURL_PathAndSearch() {
	fmt.Println(urlkit.MustParse("gopher://h.com/7search?word#f").PathAndSearch())
	// Output: 7search?word
}

func ExampleParseSearch() {
	pairs, _ := urlkit.ParseSearch("name=marie+claude&lang=fr&flag")
	for _, p := range pairs {
		fmt.Printf("%q=%q %v\n", p.Key, p.Value, p.NoEquals)
	}
	// Output:
	// "name"="marie claude" false
	// "lang"="fr" false
	// "flag"="" true
}

func ExampleEncodeSearch() {
	pairs, _ := urlkit.ParseSearch("b=%62&a=1")
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].Key < pairs[j].Key })
	pairs = append(pairs, urlkit.SearchPair{Key: "q", Value: "1+1 = 2"})
	// Unchanged pairs keep their bytes ("%62" stays); new ones are encoded.
	fmt.Println(urlkit.EncodeSearch(pairs))
	// Output: a=1&b=%62&q=1%2B1+%3D+2
}

func ExampleSearchPair_String() {
	fmt.Println(urlkit.SearchPair{Key: "to", Value: "a&b"})
	// Output: to=a%26b
}

func ExampleURL_SearchPairs() {
	pairs, _ := urlkit.MustParse("http://h.com/?x=1&y=2").SearchPairs()
	fmt.Println(len(pairs), pairs[1].Key, pairs[1].Value)
	// Output: 2 y 2
}

func ExampleURL_SearchValue() {
	v, ok := urlkit.MustParse("http://h.com/?q=marie+claude").SearchValue("q")
	fmt.Println(v, ok)
	// Output: marie claude true
}

func ExampleURL_SetSearchPairs() {
	u := urlkit.MustParse("http://h.com/?b=2&a=1")
	pairs, _ := u.SearchPairs()
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].Key < pairs[j].Key })
	u, _ = u.SetSearchPairs(pairs)
	fmt.Println(u)
	// Output: http://h.com/?a=1&b=2
}

func ExampleURL_AddSearch() {
	u, _ := urlkit.MustParse("http://h.com/find?lang=fr").AddSearch("q", "marie claude")
	fmt.Println(u)
	// Output: http://h.com/find?lang=fr&q=marie+claude
}

func ExampleURL_AddSearchPair() {
	u, _ := urlkit.MustParse("http://h.com/").AddSearchPair(urlkit.SearchPair{Key: "debug", NoEquals: true})
	fmt.Println(u)
	// Output: http://h.com/?debug
}

func ExampleURL_DeleteSearch() {
	u, _ := urlkit.MustParse("http://h.com/?utm=x&id=7").DeleteSearch("utm")
	fmt.Println(u)
	// Output: http://h.com/?id=7
}
