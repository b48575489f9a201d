package urlkit_test

import (
	"fmt"

	"github.com/urlkit/urlkit"
)

// Check tells a URL from a string that is not one, and says where and why
// not, without allocating: for filtering many strings where the
// explanation is not needed.
func ExampleCheck() {
	for _, s := range []string{
		"http://info.cern.ch/hypertext/WWW/TheProject.html",
		"http://www.cs.example/~user/",
		"http://bad_host.example/",
	} {
		off, c, kind := urlkit.Check(s)
		if kind == nil {
			fmt.Println("valid")
			continue
		}
		fmt.Printf("offset %d in %v: %v\n", off, c, kind)
	}
	// Output:
	// valid
	// offset 22 in path: unsafe character must be encoded
	// offset 10 in host: invalid host
}
