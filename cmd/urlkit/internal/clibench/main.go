// Command clibench measures the urlkit command line against the net/url
// yardstick program on one input file: each variant runs as a child
// process reading the file on standard input and writing to a file, in a
// shuffled order each round; it reports, per variant, the median over the
// rounds of wall time and of CPU time (user + system, from the child's
// rusage), their ratio (how many cores were busy), and each median as a
// ratio to the yardstick's. With -before, a second urlkit binary (the
// build before a change) runs the same variants in the same rounds, so
// that a change is measured interleaved, under the same load. With
// -floor, each variant's output format gets a floor too: outfloor copying
// that output, computed once, a line per input line (no work on the URLs).
//
//	go build -o /tmp/urlkit ./cmd/urlkit
//	go build -o /tmp/neturlprint ./cmd/urlkit/internal/neturlprint
//	go run ./cmd/urlkit/internal/clibench -urlkit /tmp/urlkit -ref /tmp/neturlprint -in urls.txt -rounds 15
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

type variant struct {
	name string
	argv []string
	wall []time.Duration
	cpu  []time.Duration
}

func main() {
	urlkit := flag.String("urlkit", "urlkit", "the urlkit binary")
	ref := flag.String("ref", "neturlprint", "the net/url yardstick binary")
	in := flag.String("in", "", "the input file, one URL per line")
	rounds := flag.Int("rounds", 15, "rounds")
	out := flag.String("out", os.TempDir()+"/clibench.out", "where each run's standard output goes")
	extra := flag.String("variants", "canon;parse;parse --json", "urlkit command lines to time, separated by ';'")
	before := flag.String("before", "", "a second urlkit binary to time on the same variants (named \"before\")")
	floor := flag.String("floor", "", "the outfloor binary: adds, for each variant, its output format's floor (outfloor copying the variant's output, computed once, line by line)")
	flag.Parse()
	vs := []*variant{{name: "net/url program", argv: []string{*ref}}}
	if *floor != "" {
		for i, c := range strings.Split(*extra, ";") {
			// The variant's output, computed once, for outfloor to copy.
			pre := fmt.Sprintf("%s.floor%d", *out, i)
			if _, _, err := runOnce(append([]string{*urlkit}, strings.Fields(c)...), *in, pre); err != nil {
				fmt.Fprintf(os.Stderr, "clibench: %s: %v\n", c, err)
				os.Exit(1)
			}
			defer os.Remove(pre)
			vs = append(vs, &variant{name: "floor of " + c, argv: []string{*floor, pre}})
		}
	}
	for _, c := range strings.Split(*extra, ";") {
		if *before != "" {
			vs = append(vs, &variant{name: "before " + c, argv: append([]string{*before}, strings.Fields(c)...)})
		}
		vs = append(vs, &variant{name: "urlkit " + c, argv: append([]string{*urlkit}, strings.Fields(c)...)})
	}
	for r := 0; r < *rounds; r++ {
		order := rand.Perm(len(vs))
		for _, i := range order {
			v := vs[i]
			wall, cpu, err := runOnce(v.argv, *in, *out)
			if err != nil {
				fmt.Fprintf(os.Stderr, "clibench: %s: %v\n", v.name, err)
				os.Exit(1)
			}
			v.wall = append(v.wall, wall)
			v.cpu = append(v.cpu, cpu)
		}
	}
	refWall, refCPU := median(vs[0].wall), median(vs[0].cpu)
	fmt.Printf("%d rounds, medians; input %s\n", *rounds, *in)
	fmt.Printf("%-24s %9s %9s %8s %10s %10s\n", "variant", "wall", "CPU", "CPU/wall", "wall/ref", "CPU/ref")
	for _, v := range vs {
		w, c := median(v.wall), median(v.cpu)
		fmt.Printf("%-24s %8.3fs %8.3fs %8.2f %9.2fx %9.2fx\n", v.name, w.Seconds(), c.Seconds(),
			c.Seconds()/w.Seconds(), w.Seconds()/refWall.Seconds(), c.Seconds()/refCPU.Seconds())
	}
}

func runOnce(argv []string, in, out string) (wall, cpu time.Duration, err error) {
	f, err := os.Open(in)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	o, err := os.Create(out)
	if err != nil {
		return 0, 0, err
	}
	defer o.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout = f, o
	start := time.Now()
	err = cmd.Run()
	wall = time.Since(start)
	if _, ok := err.(*exec.ExitError); ok {
		err = nil // invalid URLs in the input make urlkit exit 1
	}
	if cmd.ProcessState != nil {
		cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	return wall, cpu, err
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
