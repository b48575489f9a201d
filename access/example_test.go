package access_test

import (
	"fmt"
	"os"

	"github.com/urlkit/urlkit/access"
)

// A gopher menu line rendered as an RFC 1738 gopher URL: the space and the
// tilde are among the octets RFC 1738 section 2.2 says to encode.
func ExampleMenuItem_URL() {
	it := access.MenuItem{Type: '0', Display: "About", Selector: "/~fred/about me.txt", Host: "gopher.example.org", Port: "70"}
	fmt.Println(it.URL())
	// Output: gopher://gopher.example.org:70/0/%7Efred/about%20me.txt
}

// How an RFC 1738 FTP URL's path maps onto a request:
// ftp://ftp.example.org/pub/docs/readme.txt;type=a becomes CWD pub, CWD
// docs, TYPE A, RETR readme.txt.
func ExampleGuessFTPType() {
	req := access.FTPRequest{Addr: "ftp.example.org:21", CWD: []string{"pub", "docs"}, Name: "readme.txt", Type: 'a'}
	fmt.Printf("%c %c %c\n", req.Type, access.GuessFTPType("x.tar.gz"), access.GuessFTPType(""))
	// Output: a i d
}

// Advisory text for a telnet URL never shows the password.
func ExampleSession_Describe() {
	s := access.Session{Program: "telnet", Host: "bbs.example.org", User: "guest", Password: "secret"}
	fmt.Fprint(os.Stdout, s.Describe())
	// Output:
	// telnet session to host bbs.example.org, logging in as user "guest".
	// A password is given in the URL (not shown).
	// The URL only designates the session; the program does not log in for you: give the user name and password when the remote system asks.
}
