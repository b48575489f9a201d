// Command compare measures urlkit against its peers honestly: every
// implementation runs in this one process on the same inputs, the order of
// the implementations is shuffled in every round, each sample is the
// process CPU time (user + system, from getrusage) of one pass over the
// inputs, and the figures are medians over many rounds. A round takes the
// groups in a random order and each group's implementations one after the
// other, in a random order. Ratios are taken
// round by round (each implementation against the peer measured in the
// same round) and their median is reported, so that load from other
// programs on a shared machine cancels out as far as it can.
//
// Usage, from the module root:
//
//	go run ./bench/cmd/compare                       # every group, 15 rounds
//	go run ./bench/cmd/compare -rounds 31 -run parse # the parse groups only
//
// The corpora are read from ../shared/corpora (or $URLKIT_CORPORA). Each
// corpus is measured twice: on all its lines, and on the subset that
// urlkit's strict Parse accepts. The output is one Markdown table per
// group: median ns per URL, MB/s over the URL bytes, allocations per URL,
// the spread of the samples (lowest and highest), and the ratio against
// the group's peer. The parse groups also time a yardstick, the simplest
// scan (one class-table lookup per byte), and give each implementation's
// time divided by the yardstick's in the same round: a figure that holds
// when the machine as a whole runs faster or slower.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/testkit/benchpeer"
	"github.com/urlkit/urlkit/internal/testkit/corpus"
	"github.com/urlkit/urlkit/scheme"
)

// An impl is one implementation of a group's work. run does the work once
// for every input and returns a count that depends on the results, so that
// the compiler cannot drop the calls.
type impl struct {
	name      string
	peer      bool // the implementation ratios are taken against
	yardstick bool // the reference scan that times are also divided by
	run       func(inputs []string) int
}

// A group is one kind of work on one set of inputs.
type group struct {
	title  string
	inputs []string
	bytes  int // total length of the inputs
	impls  []impl
	reps   int // passes over the inputs per sample, set by calibrate
}

// A result holds the samples of one implementation in one group.
type result struct {
	g      *group
	im     impl
	ns     []float64 // ns per input, one per round
	ratio  []float64 // peer time / this time, one per round
	vsYard []float64 // this time / the yardstick's time, one per round
	allocs float64   // allocations per input
}

var (
	rounds  = flag.Int("rounds", 15, "number of `rounds`; each round measures every implementation once, in a new random order")
	run     = flag.String("run", "", "measure only the groups whose title matches this `regexp`")
	minTime = flag.Duration("sample", 20*time.Millisecond, "minimum CPU `time` of one sample; a sample repeats its pass over the inputs until it is this long")
	files   = flag.String("corpora", "ada-url-datasets/kasztp.txt,ada-url-datasets/node_files.txt", "comma-separated corpus `files` under the corpora folder")
	seed    = flag.Uint64("seed", 0, "random `seed` for the order of the implementations (0: from the clock)")
)

func main() {
	flag.Parse()
	if err := mainErr(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

func mainErr(w io.Writer) error {
	if *rounds < 1 {
		return errors.New("-rounds must be at least 1")
	}
	var re *regexp.Regexp
	if *run != "" {
		var err error
		if re, err = regexp.Compile(*run); err != nil {
			return fmt.Errorf("-run: %w", err)
		}
	}
	groups, err := makeGroups(strings.Split(*files, ","))
	if err != nil {
		return err
	}
	groups = slices.DeleteFunc(groups, func(g *group) bool { return re != nil && !re.MatchString(g.title) })
	if len(groups) == 0 {
		return errors.New("no group matches -run")
	}
	s := *seed
	if s == 0 {
		s = uint64(time.Now().UnixNano())
	}
	results, err := measure(groups, *rounds, *minTime, rand.New(rand.NewPCG(s, s>>1|1)))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d rounds, samples of at least %v CPU time, GOMAXPROCS=%d, %s %s/%s, %d CPUs\n",
		*rounds, *minTime, runtime.GOMAXPROCS(0), runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	report(w, results)
	return nil
}

// makeGroups builds the groups: for each corpus, parsing on all its lines
// and on the valid subset; Canonical on the first corpus's valid URLs; and
// the FTP and gopher plans.
func makeGroups(names []string) ([]*group, error) {
	var out []*group
	for i, name := range names {
		lines, err := corpus.ReadLines(filepath.Join(corpus.Dir(), name))
		if err != nil {
			return nil, err
		}
		if len(lines) == 0 {
			return nil, fmt.Errorf("%s: no URLs", name)
		}
		var valid []string
		for _, s := range lines {
			if _, err := urlkit.Parse(s); err == nil {
				valid = append(valid, s)
			}
		}
		base := filepath.Base(name)
		out = append(out,
			newGroup(fmt.Sprintf("parse %s, all %d URLs", base, len(lines)), lines, parseImpls()),
			newGroup(fmt.Sprintf("parse %s, the %d valid URLs", base, len(valid)), valid, parseImpls()))
		if i == 0 {
			out = append(out, newGroup(fmt.Sprintf("canonical %s, the %d valid URLs, parsing included on both sides", base, len(valid)), valid, canonImpls()))
		}
	}
	out = append(out,
		newGroup(fmt.Sprintf("resolve the %d references of RFC 3986 5.4.1 against %s, parsing included on both sides (%d times)", len(resolveRefs), resolveBase, planRepeat), repeat(resolveRefs), resolveImpls()),
		newGroup(fmt.Sprintf("unescape a %d-byte path (%d times)", len(unescapePath), planRepeat), repeat([]string{unescapePath}), unescapeImpls()))
	ftp, err := planInputs(ftpURLs, checkFTP)
	if err != nil {
		return nil, err
	}
	gopher, err := planInputs(gopherURLs, checkGopher)
	if err != nil {
		return nil, err
	}
	out = append(out,
		newGroup(fmt.Sprintf("ftp plan, %d URLs, parsing included on both sides", len(ftpURLs)), ftp, planImpls(benchpeer.FTPCommands)),
		newGroup(fmt.Sprintf("gopher plan, %d URLs, parsing included on both sides", len(gopherURLs)), gopher, planImpls(benchpeer.GopherRequest)))
	return out, nil
}

func newGroup(title string, inputs []string, impls []impl) *group {
	g := &group{title: title, inputs: inputs, impls: impls}
	for _, s := range inputs {
		g.bytes += len(s)
	}
	return g
}

func parseImpls() []impl {
	return []impl{
		{name: "urlkit.Parse", run: each(func(s string) int {
			if _, err := urlkit.Parse(s); err == nil {
				return 1
			}
			return 0
		})},
		{name: "urlkit.Check (no allocation)", run: each(func(s string) int {
			if off, _, _ := urlkit.Check(s); off < 0 {
				return 1
			}
			return 0
		})},
		{name: "net/url.Parse", peer: true, run: each(func(s string) int {
			if _, err := url.Parse(s); err == nil {
				return 1
			}
			return 0
		})},
		{name: "bound: 1 table lookup per byte", yardstick: true, run: lookupBound},
	}
}

// each returns the run function that calls f on every input and sums
// its results.
func each(f func(string) int) func([]string) int {
	return func(in []string) int {
		n := 0
		for _, s := range in {
			n += f(s)
		}
		return n
	}
}

// lookupBound is the simplest work a parser could do: one class-table
// lookup per byte. It is a reference point, not a parser.
func lookupBound(in []string) int {
	n := 0
	for _, s := range in {
		for i := 0; i < len(s); i++ {
			if chars.Is(s[i], chars.Xchar) {
				n++
			}
		}
	}
	return n
}

func canonImpls() []impl {
	return []impl{
		{name: "urlkit.Parse + Canonical + String", run: each(func(s string) int {
			if u, err := urlkit.Parse(s); err == nil {
				return len(urlkit.Canonical(u).String())
			}
			return 0
		})},
		{name: "net/url.Parse + String", peer: true, run: each(func(s string) int {
			if c, err := benchpeer.Canonical(s); err == nil {
				return len(c)
			}
			return 0
		})},
	}
}

// The resolution inputs: RFC 3986 5.4.1's normal examples.
const resolveBase = "http://a/b/c/d;p?q"

var resolveRefs = []string{
	"g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x", "g;x", "g;x?y#s",
	".", "./", "..", "../", "../g", "../..", "../../", "../../g",
}

func resolveImpls() []impl {
	out := []impl{{name: "net/url: Parse both + ResolveReference + String", peer: true, run: each(func(r string) int {
		b, err1 := url.Parse(resolveBase)
		ref, err2 := url.Parse(r)
		if err1 == nil && err2 == nil {
			return len(b.ResolveReference(ref).String())
		}
		return 0
	})}}
	for _, m := range urlkit.Modes() {
		out = append(out, impl{name: "urlkit.ResolveString, mode " + m.String(), run: each(func(r string) int {
			if u, err := urlkit.ResolveString(resolveBase, r, m); err == nil {
				return len(u.String())
			}
			return 0
		})})
	}
	return out
}

const unescapePath = "albert/bertram/marie%2Dclaude%20et%20jean%2Fpierre"

func unescapeImpls() []impl {
	return []impl{
		{name: "urlkit.Unescape", run: each(func(s string) int {
			if d, err := urlkit.Unescape(s); err == nil {
				return len(d)
			}
			return 0
		})},
		{name: "net/url.PathUnescape", peer: true, run: each(func(s string) int {
			if d, err := url.PathUnescape(s); err == nil {
				return len(d)
			}
			return 0
		})},
	}
}

// repeat returns planRepeat copies of in, so that a pass is long enough to
// time.
func repeat(in []string) []string {
	var out []string
	for range planRepeat {
		out = append(out, in...)
	}
	return out
}

// planRepeat is how many times the plan URLs are repeated in one pass, so
// that a pass is long enough to time.
const planRepeat = 500

var ftpURLs = []string{
	"ftp://myname:secret@ftp.host.dom:2121/pub/gnu/emacs/emacs-19.28.tar.gz;type=i",
	"ftp://ftp.funet.fi/pub/standards/RFC/rfc959.txt;type=a",
	"ftp://info.cern.ch/pub/www/doc/url-spec.tar.Z;type=i",
	"ftp://user:pw@host.dom/%2Fetc/motd;type=a",
}

var gopherURLs = []string{
	"gopher://gopher.host.dom/7/search/engine%09query%20words",
	"gopher://gopher.tc.umn.edu/11/Other%20Gopher%20and%20Information%20Servers",
	"gopher://info.cern.ch:70/0/about",
}

// planInputs checks that urlkit's plan and the peer agree on every URL,
// so that both sides do the same work, and repeats the URLs.
func planInputs(urls []string, check func(string) error) ([]string, error) {
	for _, s := range urls {
		if err := check(s); err != nil {
			return nil, err
		}
	}
	return repeat(urls), nil
}

func urlkitPlan(s string) (scheme.Plan, error) {
	v, err := scheme.Parse(s)
	if err != nil {
		return nil, err
	}
	return v.Plan(scheme.Config{})
}

func checkFTP(s string) error {
	p, err := urlkitPlan(s)
	if err != nil {
		return err
	}
	want, err := benchpeer.FTPCommands(s)
	if err != nil {
		return err
	}
	fp, ok := p.(*scheme.FTPPlan)
	if !ok || !slices.Equal(loginAndTransfer(fp.Commands), want) {
		return fmt.Errorf("%s: urlkit's plan %v and the net/url peer's commands %q differ", s, p, want)
	}
	return nil
}

// loginAndTransfer returns the lines of the commands of an FTP plan that
// the net/url peer also builds: the login, the CWDs, TYPE and the RETR;
// the peer does not open a data connection or say QUIT.
func loginAndTransfer(cmds []scheme.FTPCommand) []string {
	var out []string
	for _, c := range cmds {
		switch c.Verb {
		case scheme.FTPUser, scheme.FTPPass, scheme.FTPCwd, scheme.FTPType, scheme.FTPRetr:
			if c.Pass == scheme.PassAsk {
				out = append(out, c.Text()) // asked of the user: the peer sends an empty one
				continue
			}
			out = append(out, c.Line())
		}
	}
	return out
}

func checkGopher(s string) error {
	p, err := urlkitPlan(s)
	if err != nil {
		return err
	}
	want, err := benchpeer.GopherRequest(s)
	if err != nil {
		return err
	}
	gp, ok := p.(*scheme.GopherPlan)
	if !ok || gp.Line() != want {
		return fmt.Errorf("%s: urlkit's plan %v and the net/url peer's line %q differ", s, p, want)
	}
	return nil
}

func planImpls[T any](peer func(string) (T, error)) []impl {
	return []impl{
		{name: "urlkit: scheme.Parse + Plan", run: each(func(s string) int {
			if _, err := urlkitPlan(s); err == nil {
				return 1
			}
			return 0
		})},
		{name: "net/url, hand-written", peer: true, run: each(func(s string) int {
			if _, err := peer(s); err == nil {
				return 1
			}
			return 0
		})},
	}
}

// cpuTime returns the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// sample runs the implementation reps times over the inputs and returns
// the CPU time it took. The garbage of earlier samples is collected
// first, so that each implementation pays for its own.
func sample(g *group, im impl, reps int) time.Duration {
	runtime.GC()
	t0 := cpuTime()
	for range reps {
		sink += im.run(g.inputs)
	}
	return cpuTime() - t0
}

var sink int

// calibrate sets the number of passes per sample so that the slowest
// implementation of the group takes at least min.
func calibrate(g *group, min time.Duration) {
	var slowest time.Duration
	for _, im := range g.impls {
		im.run(g.inputs) // warm up
		slowest = max(slowest, sample(g, im, 1))
	}
	g.reps = 1
	if slowest > 0 && slowest < min {
		g.reps = int(min/slowest) + 1
	} else if slowest == 0 {
		g.reps = 100
	}
}

// allocsPerInput counts the heap allocations of one pass.
func allocsPerInput(g *group, im impl) float64 {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	sink += im.run(g.inputs)
	runtime.ReadMemStats(&m1)
	return float64(m1.Mallocs-m0.Mallocs) / float64(len(g.inputs))
}

func measure(groups []*group, rounds int, min time.Duration, rng *rand.Rand) ([]*result, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var all []*result
	byGroup := map[*group][]*result{}
	for _, g := range groups {
		calibrate(g, min)
		for _, im := range g.impls {
			r := &result{g: g, im: im, allocs: allocsPerInput(g, im)}
			all = append(all, r)
			byGroup[g] = append(byGroup[g], r)
		}
	}
	// Each round takes the groups in a new random order and, within a
	// group, its implementations in a new random order, one right after
	// the other: the samples a ratio compares are taken close together,
	// so that a change in the machine's speed during the round (a
	// virtual machine's neighbours) moves both.
	gorder := slices.Clone(groups)
	for range rounds {
		rng.Shuffle(len(gorder), func(i, j int) { gorder[i], gorder[j] = gorder[j], gorder[i] })
		took := map[*result]float64{}
		for _, g := range gorder {
			order := byGroup[g]
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			for _, r := range order {
				d := sample(r.g, r.im, r.g.reps)
				ns := float64(d.Nanoseconds()) / float64(r.g.reps*len(r.g.inputs))
				r.ns = append(r.ns, ns)
				took[r] = ns
			}
		}
		for _, g := range groups {
			var peer, yard float64
			for _, r := range byGroup[g] {
				if r.im.peer {
					peer = took[r]
				}
				if r.im.yardstick {
					yard = took[r]
				}
			}
			for _, r := range byGroup[g] {
				if took[r] > 0 {
					r.ratio = append(r.ratio, peer/took[r])
				}
				if yard > 0 {
					r.vsYard = append(r.vsYard, took[r]/yard)
				}
			}
		}
	}
	return all, nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func report(w io.Writer, results []*result) {
	var last *group
	for _, r := range results {
		g := r.g
		if g != last {
			last = g
			fmt.Fprintf(w, "\n### %s (%.1f bytes per URL)\n\n", g.title, float64(g.bytes)/float64(len(g.inputs)))
			if len(r.vsYard) > 0 {
				fmt.Fprintln(w, "| implementation | ns/URL (median) | lowest-highest | MB/s | allocs/URL | speed vs peer (median of per-round ratios) | time vs the bound (median of per-round ratios) |")
				fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
			} else {
				fmt.Fprintln(w, "| implementation | ns/URL (median) | lowest-highest | MB/s | allocs/URL | speed vs peer (median of per-round ratios) |")
				fmt.Fprintln(w, "|---|---|---|---|---|---|")
			}
		}
		ns := median(r.ns)
		mbs := 0.0
		if ns > 0 {
			mbs = float64(g.bytes) / float64(len(g.inputs)) / ns * 1e3
		}
		ratio := "peer"
		if !r.im.peer {
			ratio = fmt.Sprintf("%.2fx", median(r.ratio))
		}
		fmt.Fprintf(w, "| %s | %.1f | %.1f-%.1f | %.0f | %.3f | %s |",
			r.im.name, ns, slices.Min(r.ns), slices.Max(r.ns), mbs, r.allocs, ratio)
		if len(r.vsYard) > 0 {
			fmt.Fprintf(w, " %.2fx |", median(r.vsYard))
		}
		fmt.Fprintln(w)
	}
}
