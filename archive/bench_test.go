package archive

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/internal/testkit/cputime"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/scheme"
)

// holeItems is the size of the benchmark's gopher hole: a menu and
// holeItems-1 documents of 2 KiB (the gateway benchmark's document).
const holeItems = 1000

// TestHelperGopherHole is not a test: run by startHole with
// URLKIT_HOLE_SERVER=1, it serves the benchmark's hole from its own
// process (so that the server's CPU time is not counted with the
// client's), prints its address and serves until its standard input
// closes.
func TestHelperGopherHole(t *testing.T) {
	if os.Getenv("URLKIT_HOLE_SERVER") != "1" {
		t.Skip("the benchmark's server process")
	}
	doc := bytes.Repeat([]byte("0123456789abcdef\n"), 121)[:2048]
	doc = append(doc, ".\r\n"...)
	gs, docs, err := fakeservers.GopherDocs()
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	h, p, _ := strings.Cut(gs.Addr(), ":")
	var menu bytes.Buffer
	for i := 1; i < holeItems; i++ {
		sel := fmt.Sprintf("/doc/%04d", i)
		docs.Set(sel, doc)
		fmt.Fprintf(&menu, "0Document %04d\t%s\t%s\t%s\r\n", i, sel, h, p)
	}
	menu.WriteString(".\r\n")
	docs.Set("", menu.Bytes())
	fmt.Println(gs.Addr())
	io.Copy(io.Discard, os.Stdin)
}

// startHole starts the hole's server process and returns its address.
func startHole(b *testing.B) string {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperGopherHole$")
	cmd.Env = append(os.Environ(), "URLKIT_HOLE_SERVER=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { in.Close(); cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	return strings.TrimSpace(addr)
}

// BenchmarkCaptureOverhead is issue 33's bound: a gopher hole of 1,000
// items captured recursively (get -r --warc: archive.Crawl, robots.txt
// included) against a plain get of the same 1,000 items, one after the
// other, interleaved round by round in one run; the server runs in its
// own process, so the CPU time measured (user+system, of this process) is
// the client's. It reports the ratio of capture to plain CPU time
// (cpu-ratio), which the issue bounds at 1.10.
func BenchmarkCaptureOverhead(b *testing.B) {
	addr := startHole(b)
	root := urlkit.MustParse("gopher://" + addr + "/1")
	var urls []urlkit.URL
	urls = append(urls, root)
	for i := 1; i < holeItems; i++ {
		urls = append(urls, urlkit.MustParse(fmt.Sprintf("gopher://%s/0/doc/%04d", addr, i)))
	}
	dir := b.TempDir()
	plain := func() {
		for _, u := range urls {
			p, err := scheme.PlanOf(u, scheme.Config{})
			if err != nil {
				b.Fatal(err)
			}
			r, err := access.Execute(context.Background(), p, nil)
			if err != nil {
				b.Fatal(err)
			}
			if r.Kind == "menu" {
				// get lists a menu (WriteMenuListing)
				_, err = access.WriteMenuListing(io.Discard, r, 0)
			} else {
				_, err = io.Copy(io.Discard, r)
			}
			r.Close()
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	capture := func() {
		w, err := Create(filepath.Join(dir, "hole.warc.gz"), [][2]string{{"software", "urlkit benchmark"}})
		if err != nil {
			b.Fatal(err)
		}
		c := &Crawl{Writer: w, Depth: 1}
		st, err := c.Run(context.Background(), []urlkit.URL{root})
		if err != nil || st.Items != holeItems {
			b.Fatalf("%+v %v", st, err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	plain() // warm up both
	capture()
	var plainCPU, captureCPU time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := cputime.Now()
		plain()
		t1 := cputime.Now()
		capture()
		t2 := cputime.Now()
		plainCPU += t1 - t0
		captureCPU += t2 - t1
	}
	b.ReportMetric(float64(captureCPU)/float64(plainCPU), "cpu-ratio")
	b.ReportMetric(float64(plainCPU.Microseconds())/float64(b.N*holeItems), "plain-cpu-us/item")
	b.ReportMetric(float64(captureCPU.Microseconds())/float64(b.N*holeItems), "capture-cpu-us/item")
}
