package scheme_test

import (
	"fmt"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

// finger is a scheme a program adds, as RFC 1738 section 4 lets new
// schemes be defined.
type finger struct{}

func (finger) Info() scheme.Info {
	return scheme.Info{Name: "x-finger", Syntax: scheme.SyntaxIP, DefaultPort: 79, Source: "example"}
}

func (finger) View(u urlkit.URL) (scheme.View, error) { return scheme.For(urlkit.URL{}).View(u) }

func ExampleRegister() {
	scheme.Register(finger{})
	// The core parser now reads x-finger URLs with the common Internet
	// scheme syntax: "//" is required.
	_, err := urlkit.Parse("x-finger:user")
	fmt.Println(err)
	fmt.Println(scheme.DefaultPort("x-finger"))
	// Output:
	// offset 9 in scheme-specific part: x-finger URLs use the common Internet scheme syntax x-finger://<host>/<url-path> (RFC 1738 3.1)
	// 79
}

func ExampleDefaultPort() {
	fmt.Println(scheme.DefaultPort("http"), scheme.DefaultPort("WAIS"), scheme.DefaultPort("prospero"), scheme.DefaultPort("mailto"))
	// Output: 80 210 1525 0
}

func ExampleIsExperimental() {
	fmt.Println(scheme.IsExperimental("x-mine"), scheme.IsExperimental("xmine"))
	// Output: true false
}

func ExampleLookup() {
	s, ok := scheme.Lookup("GOPHER")
	info := s.Info()
	fmt.Println(ok, info.Name, info.DefaultPort, info.Syntax == scheme.SyntaxIP, info.Source)
	// Output: true gopher 70 true RFC 1738 3.4
}
