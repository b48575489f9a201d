package main

import (
	"io"
	"math"
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/jsonw"
	"github.com/urlkit/urlkit/linkset"
)

// TestPlainResultsAgree runs parse --json with and without the one-pass
// writer of the common result line (appendPlainHead and
// scheme.AppendValidViewJSON) on the ada-url datasets, on those lines with
// bytes put in (which make other lines take the general writer, and some
// extended or lenient readings), with --lenient, and on arguments (which
// have no "line" key): standard output and standard error must be the
// same bytes.
func TestPlainResultsAgree(t *testing.T) {
	var lines []string
	if d := adaDatasetsOpt(); d != nil {
		lines = strings.Split(strings.TrimSuffix(string(d), "\n"), "\n")
	}
	lines = append(lines, "http://h.example/a?b#c", "https://h.example:8443/%7Ex", "file:///a/b/", "file://localhost/x",
		"file://host.example/a;b", "ftp://u:p@h.example/a;type=d", "gopher://h.example/1x", "mailto:a@b.example",
		"news:comp.x", "x-y:z", "HTTP://H.EXAMPLE/", "http://[::1]:80/", "URL:http://h.example/", "http://u:p@h.example/")
	r := rand.New(rand.NewPCG(1, 2))
	bytes := []string{"%", "%4", "\"", "\\", "~", " ", "\x01", "é", "#", ";", "@", ":", "[", "]", "?", "/"}
	n := len(lines)
	for i := 0; i < 5000 && n > 0; i++ {
		s := lines[r.IntN(n)]
		p := r.IntN(len(s) + 1)
		lines = append(lines, s[:p]+bytes[r.IntN(len(bytes))]+s[p:])
	}
	in := strings.Join(lines, "\n") + "\n"
	run := func(args ...string) (string, string) {
		out, errs, _ := runCLI(t, in, args...)
		return out, errs
	}
	for _, args := range [][]string{{"parse", "--json"}, {"parse", "--json", "--lenient"}, append([]string{"parse", "--json"}, lines[len(lines)-40:]...)} {
		plainResults = true
		out1, err1 := run(args...)
		plainResults = false
		out2, err2 := run(args...)
		plainResults = true
		if out1 != out2 || err1 != err2 {
			a, b := strings.Split(out1, "\n"), strings.Split(out2, "\n")
			for i := range min(len(a), len(b)) {
				if a[i] != b[i] {
					t.Fatalf("%v: line %d differs:\none pass: %s\ngeneral:  %s", args[:2], i+1, a[i], b[i])
				}
			}
			t.Fatalf("%v: outputs differ (%d and %d lines; stderr equal: %v)", args[:2], len(a), len(b), err1 == err2)
		}
		if !strings.Contains(out1, `"valid":true`) {
			t.Fatalf("%v: no valid line", args)
		}
	}
}

// decimal writes every number as strconv does, counting up one by one
// across every carry, after jumps, repeats and going back.
func TestDecimal(t *testing.T) {
	var d decimal
	check := func(n int) {
		if got, want := string(d.append([]byte("x"), n)), "x"+strconv.Itoa(n); got != want {
			t.Fatalf("after %d: %d written as %q", d.n, n, got)
		}
	}
	for n := 1; n <= 1_200_000; n++ {
		check(n)
	}
	for _, n := range []int{0, 1, 1, 9, 10, 99, 100, 5, 6, 999_999_999, 1_000_000_000, 42, 42, 43, -1, 0, 1, 2, math.MaxInt64 - 1, math.MaxInt64, math.MinInt64, 1} {
		check(n)
	}
}

// The strict reading calls urlkit.Parse itself rather than through
// linkset.Read: both read every line alike (the hint aside, which only
// adds to the error).
func TestStrictReadingIsLinksetRead(t *testing.T) {
	lines := strings.Split(string(adaDatasetsOpt()), "\n")
	lines = append(lines, "", " http://a/", "URL:http://a/", "http://[::1]/", "x", "http://a/~b", "news:a@b")
	for _, s := range lines {
		u, warns, err := reading{}.url(s)
		lu, lwarns, lerr := linkset.Read(s, linkset.Options{})
		if u != lu || len(warns) != len(lwarns) || (err == nil) != (lerr == nil) || err != nil && !strings.HasPrefix(err.Error(), lerr.Error()) {
			t.Fatalf("%q: reading.url gives %q, %v, %v; linkset.Read %q, %v, %v", s, u, warns, err, lu, lwarns, lerr)
		}
	}
}

// errorJSON copies component and kind names without escaping: every name
// must need none.
func TestErrorNamesArePlain(t *testing.T) {
	names := linkset.Kinds()
	for c := urlkit.Component(0); c < 64; c++ {
		names = append(names, c.String())
	}
	for _, n := range names {
		if !jsonw.Plain(n) {
			t.Errorf("%q needs JSON escaping", n)
		}
	}
}

// TestParseJSONCPU holds the part of docs/performance.md's parse --json figure that is
// urlkit's own work: parse --json in this process (one worker, output
// discarded) against the net/url yardstick's parse and print of the same
// lines, interleaved, the least CPU time of seven rounds each (what other
// work on the machine adds only inflates a round). The whole program's
// figure (clibench: 1.00x) adds writing six times the bytes to a file. In
// process it takes about 0.9x the yardstick; the general JSON writer in
// place of the one-pass line (plainResults off) takes about 1.2x and
// fails here.
func TestParseJSONCPU(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("CPU ratio: not under -race or -short")
	}
	in := adaDatasetsOpt()
	if in == nil {
		t.Skip("the ada-url datasets are not there")
	}
	urls := strings.Split(strings.TrimSuffix(string(in), "\n"), "\n")
	var out []byte
	measure := func(f func()) int64 {
		c := cpuTime()
		f()
		return cpuTime() - c
	}
	var js, nu []int64
	for range 7 {
		js = append(js, measure(func() {
			e := &env{stdin: strings.NewReader(string(in)), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
			run(e, []string{"parse", "--json", "--workers", "1"})
		}))
		nu = append(nu, measure(func() {
			for _, s := range urls {
				if u, err := url.Parse(s); err == nil {
					out = append(out[:0], u.String()...)
					out = append(out, '\n')
				}
			}
		}))
	}
	j, n := slices.Min(js), slices.Min(nu)
	ratio := float64(j) / float64(n)
	t.Logf("parse --json %.1f ms, net/url parse and print %.1f ms: %.2fx", float64(j)/1e6, float64(n)/1e6, ratio)
	if ratio > 1.1 {
		t.Errorf("parse --json in process takes %.2fx the net/url yardstick's CPU; it took about 0.9x", ratio)
	}
}

// appendGoQuote quotes as strconv.Quote does, every byte alone and within
// text, the eight-at-a-time test's edges included.
func TestAppendGoQuote(t *testing.T) {
	for c := range 256 {
		for _, s := range []string{string(rune(c)), string([]byte{byte(c)}), "http://a/" + string([]byte{byte(c)}), "01234567" + string([]byte{byte(c)}) + "89abcdef"} {
			if got, want := string(appendGoQuote([]byte("x"), s)), "x"+strconv.Quote(s); got != want {
				t.Fatalf("appendGoQuote(%q) = %s, strconv.Quote gives %s", s, got, want)
			}
		}
	}
}
