package access

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/scheme"
)

// The buffers of gopher replies are pooled (gopherBufs): a closed
// resource reads nothing more, and a fetch that takes the buffer another
// one gave back reads its own reply, never the other's bytes, even with
// many fetches at once (run with -race too).
func TestGopherBuffersPooled(t *testing.T) {
	docs := map[string][]byte{}
	for i, c := range "abcdefgh" {
		// Larger than one buffer, text and binary, some Gopher+.
		body := bytes.Repeat([]byte(fmt.Sprintf("%c%d line of document\r\n", c, i)), 3000)
		docs[fmt.Sprintf("/%c", c)] = body
		docs[fmt.Sprintf("/p%c", c)] = append([]byte(fmt.Sprintf("+%d\r\n", len(body))), body...)
	}
	gs, err := fakeservers.Gopher(docs)
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	fetch := func(typ, c string, plus bool) (*Resource, error) {
		u := "gopher://" + gs.Addr() + "/" + typ + "/" + c
		if plus { // a Gopher+ reply of declared length, read through the pooled buffer
			u = "gopher://" + gs.Addr() + "/" + typ + "/p" + c + "%09%09+"
		}
		return Execute(context.Background(), planFor(t, u, scheme.Config{}), nil)
	}

	// Closed early: a read after Close is refused, and the next fetch
	// (given the same buffer back) reads only its own bytes.
	r, err := fetch("9", "a", false)
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 10)
	if _, err := io.ReadFull(r, p); err != nil {
		t.Fatal(err)
	}
	r.Close()
	r2, err := fetch("0", "b", false)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := r.Read(p); n != 0 || err == nil {
		t.Errorf("read after Close: %d bytes, %v", n, err)
	}
	got, err := io.ReadAll(r2)
	r2.Close()
	if err != nil || !bytes.Equal(got, docs["/b"]) {
		t.Fatalf("after a closed fetch: %d bytes, %v; want %d", len(got), err, len(docs["/b"]))
	}

	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 12; i++ {
				c := string("abcdefgh"[(g+i)%8])
				typ, plus := "9", i%3 == 1
				if i%2 == 0 {
					typ = "0"
				}
				r, err := fetch(typ, c, plus)
				if err != nil {
					t.Error(err)
					return
				}
				if i%4 == 3 { // some closed half read
					io.ReadFull(r, make([]byte, 5000))
					r.Close()
					continue
				}
				got, err := io.ReadAll(r)
				r.Close()
				if err != nil || !bytes.Equal(got, docs["/"+c]) {
					t.Errorf("%s %s plus %v: %d bytes, %v; want %d", typ, c, plus, len(got), err, len(docs["/"+c]))
					return
				}
			}
		}()
	}
	wg.Wait()
}
