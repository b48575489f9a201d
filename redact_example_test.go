package urlkit_test

import (
	"fmt"

	"github.com/urlkit/urlkit"
)

func ExampleURL_Redacted() {
	u := urlkit.MustParse("ftp://myname:secret@host.dom/etc/motd")
	fmt.Println(u.Redacted())
	// Output: ftp://myname:xxxxx@host.dom/etc/motd
}

func ExampleRedactString() {
	// The text does not parse (an IPv6 host is not RFC 1738), but the
	// password must still not reach a log.
	s := "http://joe:s3cret@[::1]:8080/"
	if _, err := urlkit.Parse(s); err != nil {
		fmt.Println("invalid:", urlkit.RedactString(s))
	}
	// Output: invalid: http://joe:xxxxx@[::1]:8080/
}
