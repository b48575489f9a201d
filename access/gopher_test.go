package access

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// RFC 1436: binary items (type 9) are the file's bytes, read to the close.
func TestGopherRealBinary(t *testing.T) {
	env := realServer(t, "URLKIT_GOPHER_ADDR")
	want := readFile(t, env["URLKIT_CONTENT_BINARY"])
	rc, err := FetchGopher(context.Background(), &GopherRequest{Addr: env["URLKIT_GOPHER_ADDR"], Type: '9', Selector: "/all256.bin"}, nil)
	if got := fetchAll(t, rc, err); !bytes.Equal(got, want) {
		t.Fatalf("got %d bytes, want the 256-byte fixture", len(got))
	}
}

// RFC 1436: text items are CRLF-terminated lines; the file written with LF
// ends comes back line for line.
func TestGopherRealText(t *testing.T) {
	env := realServer(t, "URLKIT_GOPHER_ADDR")
	file := readFile(t, env["URLKIT_GOPHER_ROOT"]+"/plain.txt")
	want := strings.ReplaceAll(string(file), "\n", "\r\n")
	rc, err := FetchGopher(context.Background(), &GopherRequest{Addr: env["URLKIT_GOPHER_ADDR"], Type: '0', Selector: "/plain.txt"}, nil)
	if got := fetchAll(t, rc, err); string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	// The server's log records the selector it was asked for.
	logb := readFile(t, env["URLKIT_SERVERS_DIR"]+"/log/gophernicus.log")
	if !bytes.Contains(logb, []byte(`"GET 0/plain.txt`)) {
		t.Errorf("gophernicus log does not show the request:\n%s", logb)
	}
}

// RFC 1436: a lone "." line ends a text item. gophernicus sends the file
// hello.txt, whose third line is ".", without dot-stuffing, so an RFC client
// stops there: the text is the first two lines.
func TestGopherRealTerminatorInFile(t *testing.T) {
	env := realServer(t, "URLKIT_GOPHER_ADDR")
	file := string(readFile(t, env["URLKIT_CONTENT_TEXT"]))
	lines := strings.SplitAfter(file, "\n")
	want := strings.TrimSuffix(strings.TrimSuffix(lines[0], "\n"), "\r") + "\r\n" + strings.TrimSuffix(lines[1], "\n") + "\r\n"
	if strings.TrimRight(lines[2], "\r\n") != "." {
		t.Fatalf("fixture changed: third line %q", lines[2])
	}
	rc, err := FetchGopher(context.Background(), &GopherRequest{Addr: env["URLKIT_GOPHER_ADDR"], Type: '0', Selector: "/hello.txt"}, nil)
	if got := fetchAll(t, rc, err); string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// A menu (type 1) parsed into items and rendered as gopher URLs (RFC 1738
// 3.4); the items are the ones the script wrote into the gophermap.
func TestGopherRealMenu(t *testing.T) {
	env := realServer(t, "URLKIT_GOPHER_ADDR")
	addr := env["URLKIT_GOPHER_ADDR"]
	items, err := FetchGopherMenu(context.Background(), &GopherRequest{Addr: addr, Type: '1', Selector: ""}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var listing bytes.Buffer
	if err := WriteMenuListing(&listing, items); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"gopher://" + addr + "/0/hello.txt\tHello text\n",
		"gopher://" + addr + "/9/all256.bin\tAll bytes\n",
		"gopher://" + addr + "/1/docs\tDocs directory\n",
		"gopher://" + addr + "/0/a%20b.txt\tSelector with space\n",
		"gopher://example.invalid:70/1/x\tElsewhere\n",
		"# urlkit test menu\n",
	} {
		if !strings.Contains(listing.String(), want) {
			t.Errorf("listing lacks %q:\n%s", want, listing.String())
		}
	}
	// Following the menu's own item for the binary gives the fixture back.
	for _, it := range items {
		if it.Type == '9' {
			rc, err := FetchGopher(context.Background(), &GopherRequest{Addr: it.Addr(), Type: it.Type, Selector: it.Selector}, nil)
			if got := fetchAll(t, rc, err); !bytes.Equal(got, readFile(t, env["URLKIT_CONTENT_BINARY"])) {
				t.Errorf("item %q: %d bytes differ from the fixture", it.Selector, len(got))
			}
		}
	}
}

// gophernicus ignores the Gopher+ string and answers as plain Gopher; the
// client notices the missing "+" header and still delivers the item.
func TestGopherRealPlusFallback(t *testing.T) {
	env := realServer(t, "URLKIT_GOPHER_ADDR")
	rc, err := FetchGopher(context.Background(), &GopherRequest{Addr: env["URLKIT_GOPHER_ADDR"], Type: '9', Selector: "/all256.bin", PlusString: "+", HasPlus: true}, nil)
	if got := fetchAll(t, rc, err); !bytes.Equal(got, readFile(t, env["URLKIT_CONTENT_BINARY"])) {
		t.Fatalf("got %d bytes", len(got))
	}
}

// fakeGopher answers one connection with reply and records the request line.
func fakeGopher(t *testing.T, reply string) (addr string, got func() string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			ch <- ""
			return
		}
		defer c.Close()
		buf := make([]byte, 4096)
		var req []byte
		for !bytes.HasSuffix(req, []byte("\r\n")) {
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			n, err := c.Read(buf)
			req = append(req, buf[:n]...)
			if err != nil {
				break
			}
		}
		ch <- string(req)
		io.WriteString(c, reply)
	}()
	t.Cleanup(func() { ln.Close() })
	return ln.Addr().String(), func() string { return <-ch }
}

// RFC 1436: the terminator and dot-stuffing are undone for text; binary
// types are left alone; the request line is selector TAB search TAB plus.
func TestGopherFraming(t *testing.T) {
	for _, tc := range []struct {
		name     string
		req      GopherRequest
		reply    string
		wantLine string
		want     string
		wantErr  bool
	}{
		{"text", GopherRequest{Type: '0', Selector: "/x"}, "a\r\n..b\r\n.c\r\n.\r\nafter\r\n", "/x\r\n", "a\r\n.b\r\n.c\r\n", false},
		{"text without terminator", GopherRequest{Type: '0', Selector: "/x"}, "a\r\nb", "/x\r\n", "a\r\nb", false},
		{"binary kept", GopherRequest{Type: '9', Selector: "/b"}, "..x\r\n.\r\nmore", "/b\r\n", "..x\r\n.\r\nmore", false},
		{"search", GopherRequest{Type: '7', Selector: "/s", Search: "two words", HasSearch: true}, "0hit\t/h\th\t70\r\n.\r\n", "/s\ttwo words\r\n", "0hit\t/h\th\t70\r\n", false},
		{"plus length", GopherRequest{Type: '0', Selector: "/p", PlusString: "+", HasPlus: true}, "+5\r\n..abcdef", "/p\t+\r\n", "..abc", false},
		{"plus -1", GopherRequest{Type: '9', Selector: "/p", Search: "q", HasSearch: true, PlusString: "+", HasPlus: true}, "+-1\r\nx\r\n..y\r\n.\r\nz", "/p\tq\t+\r\n", "x\r\n.y\r\n", false},
		{"plus -2", GopherRequest{Type: '0', Selector: "/p", PlusString: "!", HasPlus: true}, "+-2\r\n.\r\nall", "/p\t!\r\n", ".\r\nall", false},
		{"plus error", GopherRequest{Type: '0', Selector: "/p", PlusString: "+", HasPlus: true}, "--1\r\n1 Item is not available.\r\n.\r\n", "/p\t+\r\n", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr, line := fakeGopher(t, tc.reply)
			tc.req.Addr = addr
			rc, err := FetchGopher(context.Background(), &tc.req, nil)
			if tc.wantErr {
				var re *ReplyError
				if !errors.As(err, &re) || !strings.Contains(re.Text, "Item is not available") {
					t.Fatalf("err = %v, want the server's Gopher+ error", err)
				}
			} else if got := fetchAll(t, rc, err); string(got) != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if l := line(); l != tc.wantLine {
				t.Errorf("request line %q, want %q", l, tc.wantLine)
			}
		})
	}
}

// RFC 1738 sections 3.4 and 6: CR, LF, NUL (and TAB inside a selector)
// are refused before connecting; session types are not fetched.
func TestGopherRefusals(t *testing.T) {
	opts := &Options{Dial: func(context.Context, string, string) (net.Conn, error) {
		t.Error("dialed")
		return nil, errors.New("no")
	}}
	for _, req := range []GopherRequest{
		{Type: '0', Selector: "a\r\nb"},
		{Type: '0', Selector: "a\tb"},
		{Type: '7', Selector: "a", Search: "x\ny", HasSearch: true},
		{Type: '0', Selector: "a", PlusString: "+\x00", HasPlus: true},
	} {
		var ue *UnsafeArgumentError
		if _, err := FetchGopher(context.Background(), &req, opts); !errors.As(err, &ue) {
			t.Errorf("%+v: err = %v", req, err)
		}
	}
	var se *GopherSessionError
	if _, err := FetchGopher(context.Background(), &GopherRequest{Type: '8'}, opts); !errors.As(err, &se) {
		t.Errorf("type 8: err = %v", err)
	}
}

func TestGopherReadTimeout(t *testing.T) {
	addr := silentListener(t)
	rc, err := FetchGopher(context.Background(), &GopherRequest{Addr: addr, Type: '0', Selector: "/"}, &Options{ReadTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	_, err = io.ReadAll(rc)
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("err = %v, want a timeout", err)
	}
}

// RFC 1738 2.2: exactly the unsafe and non-graphic octets are encoded.
func TestEscapeRFC1738(t *testing.T) {
	for in, want := range map[string]string{
		"/a b.txt":             "/a%20b.txt",
		"~user/x;y?z:@=&":      "%7Euser/x;y?z:@=&",
		"<>\"#%{}|\\^[]`":      "%3C%3E%22%23%25%7B%7D%7C%5C%5E%5B%5D%60",
		"\x00\x1f\x7f\x80\xff": "%00%1F%7F%80%FF",
		"$-_.+!*'(),":          "$-_.+!*'(),",
	} {
		if got := EscapeRFC1738(in); got != want {
			t.Errorf("EscapeRFC1738(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseMenu(t *testing.T) {
	items, err := ParseMenu(strings.NewReader("1Dir\t/d\thost\t70\t+\r\niinfo\t\tnull.host\t1\r\njunk line\r\n.\r\n0after\t/a\th\t70\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 3 || items[0] != (MenuItem{Type: '1', Display: "Dir", Selector: "/d", Host: "host", Port: "70", Plus: "+"}) ||
		items[1].Type != 'i' || items[2] != (MenuItem{Type: 'i', Display: "junk line"}) {
		t.Errorf("items %+v", items)
	}
	if u := items[0].URL(); u != "gopher://host:70/1/d" {
		t.Errorf("URL %q", u)
	}
}

// Cancelling the context during a transfer closes the connection; the read
// reports the cancellation.
func TestCancelDuringTransfer(t *testing.T) {
	addr := silentListener(t)
	ctx, cancel := context.WithCancel(context.Background())
	rc, err := FetchGopher(ctx, &GopherRequest{Addr: addr, Type: '9', Selector: "/"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err = io.ReadAll(rc)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancellation took %v", d)
	}
}
