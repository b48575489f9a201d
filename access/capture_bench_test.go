package access

import (
	"bytes"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
)

// BenchmarkGopherFetch is one gopher document and one menu fetched with
// Options.Capture unset (the gateway's path): the cost the capture hook
// adds there is a nil comparison at each line or message sent or
// received. Compare with the same benchmark before the hook.
func BenchmarkGopherFetch(b *testing.B) {
	doc := bytes.Repeat([]byte("0123456789abcdef\n"), 121)[:2048]
	menu := fakeservers.LongMenu(200)
	gs, err := fakeservers.Gopher(map[string][]byte{"/d": doc, "/m": menu})
	if err != nil {
		b.Fatal(err)
	}
	defer gs.Close()
	for _, c := range []struct{ name, url string }{{"document", "gopher://" + gs.Addr() + "/9/d"}, {"menu", "gopher://" + gs.Addr() + "/1/m"}} {
		u := urlkit.MustParse(c.url)
		b.Run(c.name, func(b *testing.B) {
			fetchEach(b, u, nil)
		})
	}
}
