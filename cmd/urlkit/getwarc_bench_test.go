package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
)

// BenchmarkGetRecursiveOverhead is issue 33's bound on recursive capture:
// a gopher hole of 1,000 items (a menu and 999 distinct documents of about
// 2 KiB) captured by `urlkit get -r --depth 1 --warc` against a plain
// `urlkit get -o FILE URL ...` of the same 1,000 items, each side its own
// urlkit process, interleaved round by round. The CPU time compared is
// the urlkit process's own (user+system, from wait4), not the server's.
// It reports the ratio capture/plain (cpu-ratio); the bound is
// 1.10.
func BenchmarkGetRecursiveOverhead(b *testing.B) {
	gs, docs, err := fakeservers.GopherDocs()
	if err != nil {
		b.Fatal(err)
	}
	defer gs.Close()
	h, p, _ := strings.Cut(gs.Addr(), ":")
	var menu bytes.Buffer
	plainArgs := []string{"get", "-s"}
	dir := b.TempDir()
	plainArgs = append(plainArgs, "-o", filepath.Join(dir, "menu"), "gopher://"+gs.Addr()+"/1")
	for i := 1; i < 1000; i++ {
		sel := fmt.Sprintf("/doc/%04d", i)
		doc := bytes.Repeat([]byte(fmt.Sprintf("document %04d line of text, as gopher holes hold them\r\n", i)), 36)
		docs.Set(sel, append(doc, ".\r\n"...))
		fmt.Fprintf(&menu, "0Document %04d\t%s\t%s\t%s\r\n", i, sel, h, p)
		plainArgs = append(plainArgs, "-o", filepath.Join(dir, fmt.Sprintf("doc%04d", i)), "gopher://"+gs.Addr()+"/0"+sel)
	}
	menu.WriteString(".\r\n")
	docs.Set("", menu.Bytes())
	captureArgs := []string{"get", "-s", "-r", "--depth", "1", "--warc", filepath.Join(dir, "hole"), "gopher://" + gs.Addr() + "/1"}
	run := func(args []string) time.Duration {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "URLKIT_TEST_MAIN=1")
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Run(); err != nil {
			b.Fatalf("%v: %s", err, errb.String())
		}
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	run(plainArgs) // the page cache and the server warm
	run(captureArgs)
	var plain, capture time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		plain += run(plainArgs)
		capture += run(captureArgs)
	}
	b.ReportMetric(float64(capture)/float64(plain), "cpu-ratio")
	b.ReportMetric(float64(plain.Microseconds())/float64(b.N*1000), "plain-cpu-us/item")
	b.ReportMetric(float64(capture.Microseconds())/float64(b.N*1000), "capture-cpu-us/item")
}
