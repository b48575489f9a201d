package edit_test

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/edit"
)

func ExampleBuild() {
	u, err := edit.Build(urlkit.Parts{Scheme: "gopher", Host: "spinaltap.micro.umn.edu", Path: "00/Weather/California/Los%20Angeles"})
	fmt.Println(u, err)
	// RFC 1738 3.10: a file URL may name no host, but keeps its "//".
	f, _ := edit.Build(urlkit.Parts{Scheme: "file", Authority: true, Path: "etc/motd"})
	fmt.Println(f)
	// Output:
	// gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles <nil>
	// file:///etc/motd
}

func ExampleBuild_error() {
	// Build takes encoded text: a space is an error, with its offset in
	// the part.
	_, err := edit.Build(urlkit.Parts{Scheme: "http", Host: "h.com", Path: "my docs"})
	fmt.Println(err)
	// Output: offset 2 in path: space must be encoded as %20 (RFC 1738 2.2: unsafe)
}

func ExampleSet() {
	u := urlkit.MustParse("ftp://myname@host.dom/etc/motd")
	v, _ := edit.Set(u, urlkit.ComponentPath, "%2Fetc/motd;type=a")
	fmt.Println(v)
	_, err := edit.Set(u, urlkit.ComponentUser, "me@home")
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

func ExampleSetUnescaped() {
	u := urlkit.MustParse("ftp://host.dom/")
	v, _ := edit.SetUnescaped(u, urlkit.ComponentUser, "me@home")
	v, _ = edit.SetUnescaped(v, urlkit.ComponentPath, "my docs/notes;type=a")
	fmt.Println(v)
	// Output: ftp://me%40home@host.dom/my%20docs/notes;type=a
}

func ExampleClear() {
	u := urlkit.MustParse("http://info.cern.ch:8000/x?q#top")
	u, _ = edit.Clear(u, urlkit.ComponentPort)
	u, _ = edit.Clear(u, urlkit.ComponentFragment)
	fmt.Println(u)
	// Output: http://info.cern.ch/x?q
}

func ExampleSet_scheme() {
	u, _ := edit.Set(urlkit.MustParse("http://h.com/a"), urlkit.ComponentScheme, "https")
	fmt.Println(u)
	_, err := edit.Set(urlkit.MustParse("http://h.com/a"), urlkit.ComponentScheme, "mailto")
	fmt.Println(errors.Is(err, edit.ErrConflict))
	// Output:
	// https://h.com/a
	// true
}

func ExampleSet_user() {
	u, _ := edit.Set(urlkit.MustParse("ftp://host.dom/"), urlkit.ComponentUser, "myname")
	fmt.Println(u)
	// Output: ftp://myname@host.dom/
}

func ExampleSet_password() {
	u, _ := edit.Set(urlkit.MustParse("ftp://myname@host.dom/"), urlkit.ComponentPassword, "secret")
	fmt.Println(u.Redacted())
	// Output: ftp://myname:xxxxx@host.dom/
}

func ExampleSet_host() {
	u, _ := edit.Set(urlkit.MustParse("http://old.example.com/a"), urlkit.ComponentHost, "info.cern.ch")
	fmt.Println(u)
	_, err := edit.Set(u, urlkit.ComponentHost, "under_score.com")
	fmt.Println(err)
	// Output:
	// http://info.cern.ch/a
	// offset 5 in host: "_" is not allowed in a host name: labels are letters, digits and "-" (RFC 1738 3.1, RFC 1034 3.5)
}

func ExampleSet_port() {
	u, _ := edit.Set(urlkit.MustParse("gopher://h.com/"), urlkit.ComponentPort, "7070")
	fmt.Println(u)
	// Output: gopher://h.com:7070/
}

func ExampleSet_path() {
	u, _ := edit.Set(urlkit.MustParse("http://h.com"), urlkit.ComponentPath, "a/b.html")
	fmt.Println(u)
	// Output: http://h.com/a/b.html
}

func ExampleSet_search() {
	u, _ := edit.Set(urlkit.MustParse("http://h.com/find"), urlkit.ComponentSearch, "where+name%3Ddobbins")
	raw, _ := u.Search()
	s, _ := urlkit.UnescapeSearch(raw)
	fmt.Println(u, s)
	// Output: http://h.com/find?where+name%3Ddobbins where name=dobbins
}

func ExampleSet_fragment() {
	u, _ := edit.Set(urlkit.MustParse("http://h.com/doc"), urlkit.ComponentFragment, "section2")
	fmt.Println(u)
	// Output: http://h.com/doc#section2
}

func ExampleJoinPath() {
	u := urlkit.MustParse("ftp://host.dom/pub/")
	v, _ := edit.JoinPath(u, "my docs", "a/b", "..")
	fmt.Println(v)
	// Output: ftp://host.dom/pub/my%20docs/a%2Fb/%2E%2E
}

func ExampleParseSearch() {
	pairs, _ := edit.ParseSearch("name=marie+claude&lang=fr&flag")
	for _, p := range pairs {
		fmt.Printf("%q=%q %v\n", p.Key, p.Value, p.NoEquals)
	}
	// Output:
	// "name"="marie claude" false
	// "lang"="fr" false
	// "flag"="" true
}

func ExampleEncodeSearch() {
	pairs, _ := edit.ParseSearch("b=%62&a=1")
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].Key < pairs[j].Key })
	pairs = append(pairs, edit.SearchPair{Key: "q", Value: "1+1 = 2"})
	// Unchanged pairs keep their bytes ("%62" stays); new ones are encoded.
	fmt.Println(edit.EncodeSearch(pairs))
	// Output: a=1&b=%62&q=1%2B1+%3D+2
}

func ExampleSearchPair_String() {
	fmt.Println(edit.SearchPair{Key: "to", Value: "a&b"})
	// Output: to=a%26b
}

func ExampleSearchPairs() {
	pairs, _ := edit.SearchPairs(urlkit.MustParse("http://h.com/?x=1&y=2"))
	fmt.Println(len(pairs), pairs[1].Key, pairs[1].Value)
	// Output: 2 y 2
}

func ExampleSearchValue() {
	v, ok := edit.SearchValue(urlkit.MustParse("http://h.com/?q=marie+claude"), "q")
	fmt.Println(v, ok)
	// Output: marie claude true
}

func ExampleSetSearchPairs() {
	u := urlkit.MustParse("http://h.com/?b=2&a=1")
	pairs, _ := edit.SearchPairs(u)
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].Key < pairs[j].Key })
	u, _ = edit.SetSearchPairs(u, pairs)
	fmt.Println(u)
	// Output: http://h.com/?a=1&b=2
}

func ExampleAddSearch() {
	u, _ := edit.AddSearch(urlkit.MustParse("http://h.com/find?lang=fr"), "q", "marie claude")
	fmt.Println(u)
	// Output: http://h.com/find?lang=fr&q=marie+claude
}

func ExampleAddSearchPair() {
	u, _ := edit.AddSearchPair(urlkit.MustParse("http://h.com/"), edit.SearchPair{Key: "debug", NoEquals: true})
	fmt.Println(u)
	// Output: http://h.com/?debug
}

func ExampleDeleteSearch() {
	u, _ := edit.DeleteSearch(urlkit.MustParse("http://h.com/?utm=x&id=7"), "utm")
	fmt.Println(u)
	// Output: http://h.com/?id=7
}

// A "/" at the start of the path, as net/url writes it, is read as the
// "/" after the host: one slash, never two. The path setter refuses it.
func ExampleBuild_leadingSlash() {
	u, err := edit.Build(urlkit.Parts{Scheme: "http", Host: "h.example", Path: "/a/b"})
	fmt.Println(u, err)
	_, err = edit.Set(u, urlkit.ComponentPath, "/c")
	fmt.Println(errors.Is(err, edit.ErrConflict))
	// Output:
	// http://h.example/a/b <nil>
	// true
}

// One call per key, as net/url's Values.Get, Set and Del; the pairs not
// named keep their bytes.
func ExampleSetSearchValue() {
	u := urlkit.MustParse("http://h.example/find?q=old&page=2&q=again")
	u, _ = edit.SetSearchValue(u, "q", "new words")
	fmt.Println(u)
	v, _ := edit.SearchValue(u, "q")
	fmt.Println(v)
	u, _ = edit.DeleteSearch(u, "page")
	fmt.Println(u)
	// Output:
	// http://h.example/find?q=new+words&page=2
	// new words
	// http://h.example/find?q=new+words
}

// FilterSearch keeps the pairs a function chooses: here every key but the
// tracking ones, as urlkit edit --delete 'search:utm_*' does.
func ExampleFilterSearch() {
	u := urlkit.MustParse("http://h.example/a?utm_source=x&id=7&utm_medium=y")
	u, _ = edit.FilterSearch(u, func(p edit.SearchPair) bool { return !strings.HasPrefix(p.Key, "utm_") })
	fmt.Println(u)
	// Output: http://h.example/a?id=7
}

// An Editor chains edits; the first that fails stops the chain and says
// which it was.
func ExampleEditor() {
	base := urlkit.MustParse("ftp://myname@host.dom/pub")
	u, err := edit.From(base).SetHost("ftp.example.org").JoinPath("my docs").SetSearchValue("x", "1").URL()
	fmt.Println(u, err)
	_, err = edit.From(base).JoinPath("a").SetHost("under_score").URL()
	fmt.Println(err)
	// Output:
	// ftp://myname@ftp.example.org/pub/my%20docs?x=1 <nil>
	// edit 2 (Set host): offset 5 in host: "_" is not allowed in a host name: labels are letters, digits and "-" (RFC 1738 3.1, RFC 1034 3.5)
}

// Must wraps one edit for URLs written into a program.
func ExampleMust() {
	u := edit.Must(edit.JoinPath(urlkit.MustParse("http://h.example/docs/"), "a b.txt"))
	fmt.Println(u)
	// Output: http://h.example/docs/a%20b.txt
}
