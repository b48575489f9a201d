package gateway_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/urlkit/urlkit/gateway"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
)

// A browser asks for the path form of a gopher URL; the gateway fetches it
// and answers with the type the gopher item type names.
func Example() {
	upstream, _ := fakeservers.Gopher(map[string][]byte{"/hello": []byte("Hello, gopher.\r\n.\r\n")})
	defer upstream.Close()
	// The upstream is on this machine, on a port of its own: the policy
	// reaches it only when it is named.
	gw := gateway.New(gateway.Config{Policy: gateway.Policy{Allow: []string{upstream.Addr()}}})
	defer gw.Close()
	srv := httptest.NewServer(gw)
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/gopher://" + upstream.Addr() + "/0/hello")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status, resp.Header.Get("Content-Type"), resp.ContentLength)
	fmt.Printf("%q\n", body)
	// Output:
	// 200 OK text/plain; charset=utf-8 16
	// "Hello, gopher.\r\n"
}

// The policy refuses file URLs and the ports of other services before
// anything is sent.
func ExampleBadPort() {
	fmt.Println(gateway.BadPort("gopher", 25))
	fmt.Println(gateway.BadPort("ftp", 21))
	// Output:
	// smtp true
	//  false
}
