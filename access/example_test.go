package access_test

import (
	"context"
	"fmt"
	"io"
	"net/netip"
	"os"
	"path/filepath"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/scheme"
)

// Execute carries out the plan that scheme.PlanOf gives for a URL: the
// same plan `urlkit plan` prints.
func ExampleExecute() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "note.txt"), []byte("hello\n"), 0o644)

	u, _ := urlkit.Parse("file://" + filepath.ToSlash(dir) + "/note.txt")
	plan, _ := scheme.PlanOf(u, scheme.Config{})
	r, err := access.Execute(context.Background(), plan, &access.Options{MaxSize: 1 << 20})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	body, err := io.ReadAll(r)
	fmt.Printf("%q %s %d %v\n", body, r.ContentType, r.Size, err)
	// Output: "hello\n" text/plain; charset=utf-8 6 <nil>
}

// A menu item becomes a URL through the scheme layer, or an error that
// says why it cannot.
func ExampleMenuItem_URL() {
	for _, it := range []access.MenuItem{
		{Type: '0', Display: "About", Selector: "/about us.txt", Host: "gopher.example", Port: "70"},
		{Type: '0', Display: "Broken", Selector: "/x", Host: "gopher.example", Port: ""},
	} {
		u, err := it.URL()
		fmt.Println(u, err)
	}
	// Output:
	// gopher://gopher.example:70/0/about%20us.txt <nil>
	//  gopher menu item cannot form a valid gopher URL: empty port for host "gopher.example"
}

// Server text is escaped before it reaches a terminal.
func ExampleEscapeText() {
	fmt.Println(access.EscapeText("550 \x1b[2Jgone\tnow"))
	// Output: 550 \x1b[2Jgone\tnow
}

// The follow rule, as a crawler applies it: a link found in a page of a
// public server may lead to another public server, never inward. A
// crawler passes the page's Resource.ServerAddr as Options.Origin of the
// next retrieval, and Execute holds every connection to it; MayFollow is
// the same decision on two addresses.
func ExampleMayFollow() {
	public := netip.MustParseAddr("93.184.215.14")
	for _, to := range []string{"8.8.8.8", "192.168.1.1", "169.254.169.254", "127.0.0.1"} {
		fmt.Println(to, access.MayFollow(public, netip.MustParseAddr(to)) == nil)
	}
	// From a server on the local network, the local network is fine.
	fmt.Println(access.MayFollow(netip.MustParseAddr("10.0.0.5"), netip.MustParseAddr("10.0.0.6")) == nil)
	// Output:
	// 8.8.8.8 true
	// 192.168.1.1 false
	// 169.254.169.254 false
	// 127.0.0.1 false
	// true
}
