package urlkit_test

import (
	"fmt"

	"github.com/urlkit/urlkit"
)

func ExampleURL_Parts() {
	p := urlkit.MustParse("ftp://@host.com/").Parts()
	fmt.Printf("user %q %v, path %q %v\n", p.User, p.HasUser, p.Path, p.HasPath)
	// Output: user "" true, path "" true
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

func ExampleCheckComponent() {
	fmt.Println(urlkit.CheckComponent(urlkit.ComponentPath, "pub/my%20docs;type=a"))
	fmt.Println(urlkit.CheckComponent(urlkit.ComponentUser, "me@home"))
	// Output:
	// <nil>
	// offset 2 in user: "@" is reserved here and must be encoded as %40 (RFC 1738 3.1: within the user and password, ":", "@" and "/" must be encoded)
}
