package scheme_test

import (
	"fmt"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

// The three ftp examples of RFC 1738 section 3.2.2.
func ExampleFTP_Plan() {
	for _, s := range []string{
		"ftp://myname@host.dom/%2Fetc/motd",
		"ftp://myname@host.dom/etc/motd",
		"ftp://myname@host.dom//etc/motd",
	} {
		v, err := scheme.Parse(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		p, _ := v.Plan(scheme.Config{})
		var lines []string
		for _, c := range p.(*scheme.FTPPlan).Commands[2:] {
			lines = append(lines, c.Line())
		}
		fmt.Printf("%q\n", lines)
	}
	// Output:
	// ["CWD /etc" "TYPE I" "EPSV" "RETR motd" "QUIT"]
	// ["CWD etc" "TYPE I" "EPSV" "RETR motd" "QUIT"]
	// ["CWD " "CWD etc" "TYPE I" "EPSV" "RETR motd" "QUIT"]
}

// A plan's steps are typed values: a program reads their fields (here the
// verb and argument of each FTP command) and prints their Text, which is
// derived from the fields, as `urlkit plan` does. RFC 1738 3.2.2's first
// example: the password is to be asked of the user, and %2F is a "/" in
// the CWD argument.
func ExamplePlan_steps() {
	v, _ := scheme.Parse("ftp://myname@host.dom/%2Fetc/motd;type=a")
	p, _ := v.Plan(scheme.Config{})
	for _, s := range p.Steps() {
		switch s := s.(type) {
		case scheme.FTPCommand:
			fmt.Printf("%-7s %-10q %s\n", s.Op(), s.Arg, s.Text())
		default:
			fmt.Printf("%-18s %s\n", s.Op(), s.Text())
		}
	}
	// Output:
	// connect            connect to host.dom:21 (FTP control connection)
	// user    "myname"   USER myname
	// pass    ""         PASS <ask the user>
	// cwd     "/etc"     CWD /etc
	// type    "A"        TYPE A
	// epsv    ""         EPSV (PASV if refused; the data connection goes to the control connection's address)
	// retr    "motd"     RETR motd
	// quit    ""         QUIT
}

// A gopher search (RFC 1738 3.4.2): the selector, a TAB and the search words.
func ExampleGopher_Plan() {
	v, _ := scheme.Parse("gopher://gopher.dom/7/srch%09gopher%20url")
	p, _ := v.Plan(scheme.Config{})
	g := p.(*scheme.GopherPlan)
	fmt.Printf("%s %q %s\n", g.Addr, g.Line(), g.Reply)
	// Output: gopher.dom:70 "/srch\tgopher url\r\n" menu
}

// Plans refuse to decode an encoded CR or LF into a command (RFC 1738 6).
func ExampleView_Plan_control() {
	v, _ := scheme.Parse("ftp://host.dom/a%0D%0ADELE%20x")
	_, err := v.Plan(scheme.Config{})
	fmt.Println(err)
	// Output: offset 16 in path: %0D decodes to control character 0x0D in the file name: it would be sent on the wire and could inject a command (RFC 1738 6)
}

// A news URL names no host: the plan reads it from the configured server.
func ExampleNews_Plan() {
	v, _ := scheme.Parse("news:comp.infosystems.www.misc")
	p, _ := v.Plan(scheme.Config{NewsServer: "news.my.dom"})
	for _, s := range p.Steps() {
		fmt.Println(s.Text())
	}
	// Output:
	// connect to news.my.dom:119 (NNTP)
	// MODE READER
	// GROUP comp.infosystems.www.misc
	// OVER 1- (XOVER 1- if the server does not know OVER, RFC 2980)
	// QUIT
}

// The security findings of RFC 1738 section 6.
func ExampleCheck() {
	for _, f := range scheme.Check(urlkit.MustParse("gopher://mail.dom:25/0HELO%0D%0A")) {
		fmt.Println(f)
	}
	// Output:
	// danger: offset 18 in port: port 25 is the SMTP port, not the gopher default 70: a client could be made to speak gopher to a SMTP server (RFC 1738 6)
	// error: offset 26 in path: %0D decodes to control character 0x0D in the gopher selector, which a client would send on the wire (RFC 1738 6)
	// error: offset 29 in path: %0A decodes to control character 0x0A in the gopher selector, which a client would send on the wire (RFC 1738 6)
}

// A file URL and the local file name it stands for (RFC 1738 3.10).
func ExampleFromLocalPath() {
	u, _ := scheme.FromLocalPath("/tmp/a b.txt")
	fmt.Println(u)
	// Output: file:///tmp/a%20b.txt
}

// Validate tells whether a URL holds to its scheme's grammar, with the
// error ViewOf would give, without building the view: RFC 1738 3.3 allows
// no user name in an http URL, and 3.10 no port in a file URL.
func ExampleValidate() {
	for _, s := range []string{"http://h.dom/a?b", "http://joe@h.dom/", "file://h.dom:21/x"} {
		fmt.Println(scheme.Validate(urlkit.MustParse(s)))
	}
	// Output:
	// <nil>
	// offset 7 in user: no user name or password is allowed in a http URL (RFC 1738 3.3: no user name or password is allowed)
	// offset 12 in port: a file URL has no port (RFC 1738 5: fileurl = "file://" [ host | "localhost" ] "/" fpath)
}

func ExampleFileName() {
	name, _ := scheme.FileName(urlkit.MustParse("gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles"))
	fmt.Printf("%q\n", name)
	_, err := scheme.FileName(urlkit.MustParse("ftp://ftp.funet.fi/pub/"))
	fmt.Println(err)
	// Output:
	// "Los Angeles"
	// the URL's last path segment "" is no file name: the URL names no file
}
