// Command gateway measures urlkit's gateway (issues 15, 22 and 36) beside
// its anchors, every side in one run, interleaved, on the same in-process
// upstream servers (internal/testkit/fakeservers: a Go ftp server and a Go
// gopher server serving from memory, so the upstream is not the limit).
// Its parts (-only takes a comma-separated list of them; all by default):
//
//   - gopher, a 2 KB document: `urlkit serve` (built from this checkout)
//     and Squid with its gopher gateway (Debian's squid 5.7 rebuilt with
//     gopher, see ../shared/squid-gopher/build.sh; caching off, loopback only, the settings
//     of squid/squid.conf.in), each as a process of its own, both asked
//     "GET gopher://HOST:PORT/9/d2k HTTP/1.1" (absolute form) by the same
//     HTTP client code over keep-alive connections, against fetching the
//     document directly with urlkit's access layer, with the settings of
//     the gateway's own upstream leg and a reused buffer, as the HTTP
//     client reuses its own;
//   - menu: the page of a 1,000-item gopher menu from `urlkit serve` (path
//     form, as a browser asks) and from Squid, against fetching the menu
//     directly, the same way;
//   - in both parts, the raw gateway (rawgw.go): a minimal HTTP/1.1
//     keep-alive gateway of the benchmark's own, in a process of its own
//     (this binary in a hidden mode), asked as urlkit serve is asked: it
//     parses the target with urlkit.Parse, fetches it with the direct
//     side's code and answers with a Content-Length in one write; for the
//     menu, with urlkit serve's page of it, recorded once. It is the
//     physical floor of a gateway process in this harness: the raw/direct
//     and urlkit/raw ratios say how far a goal is within its reach;
//   - ftp, a 2 KB file: `urlkit serve` against Squid, both asked
//     "GET ftp://... HTTP/1.1". urlkit serve runs with a per-client
//     connection cap above the clients' number (maxConnsPerClient);
//   - gopher-handler and menu-handler: the gateway's handler inside this
//     process, served as urlkit serve serves it (Gateway.HTTPServer on
//     Gateway.Listener), against the direct fetch, with two more sides:
//     the floor (the gateway's response, recorded once, served from memory
//     behind the same http.Server settings to the same client: the HTTP
//     exchange alone) and the two legs (the direct fetch, then the floor's
//     exchange, one after the other by the same client: what a gateway that
//     did no work between its upstream leg and its HTTP leg would cost, so
//     the best ratio any gateway can reach in this harness).
//
// For each concurrency level (-c) it reports requests per second, the
// median and the 99th percentile latency, and the CPU time (user+system)
// per request of this process (the clients and the upstream servers) and
// of the server process a side asks (read from /proc for its process
// group), and their sum; then the ratios (urlkit/direct, urlkit/squid)
// and, at the end, the figures of issue 36's speed goals. Run it with
//
//	go run ./bench/gateway -squid /tmp/squid-gopher/sbin/squid
//
// as root when Squid is to be started (Squid drops to the user nobody);
// -squid "" leaves Squid out, -c, -rounds and -window set the concurrency
// levels and the measuring windows, -cpuprofile writes this process's CPU
// profile. It starts nothing that outlives it, even when interrupted:
// urlkit serve and Squid run in the foreground in process groups of their
// own, are stopped by their process group at the end, and their
// directories are removed.
package main

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/gateway"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/scheme"
)

// parts are the benchmark's parts, in the order they are measured.
var parts = []string{"gopher", "menu", "ftp", "gopher-handler", "menu-handler"}

func main() {
	if len(os.Args) > 1 && os.Args[1] == rawMode {
		os.Exit(rawMain(os.Args[2:]))
	}
	var (
		squidBin = flag.String("squid", "/tmp/squid-gopher/sbin/squid", "the squid binary, built with gopher by ../shared/squid-gopher/build.sh (empty: no squid sides)")
		window   = flag.Duration("window", 500*time.Millisecond, "length of one measuring window")
		rounds   = flag.Int("rounds", 8, "windows per side and concurrency, interleaved")
		levels   = flag.String("c", "1,8,32", "client concurrency levels")
		only     = flag.String("only", "", "run only these parts, comma-separated: "+strings.Join(parts, ", ")+" (empty: all)")
		cpuprof  = flag.String("cpuprofile", "", "write this process's CPU profile to the file")
	)
	flag.Parse()
	sel, err := selectParts(*only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/gateway:", err)
		os.Exit(2)
	}
	conc, err := parseLevels(*levels)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/gateway:", err)
		os.Exit(2)
	}
	if *cpuprof != "" {
		f, err := os.Create(*cpuprof)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench/gateway:", err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	// An interrupt, a hang-up or a TERM ends the run; what it started is
	// stopped on the way out (run's deferred close).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if err := run(ctx, *squidBin, *window, *rounds, conc, sel); err != nil {
		fmt.Fprintln(os.Stderr, "bench/gateway:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// selectParts reads -only: the parts named, or all of them for "".
func selectParts(only string) (map[string]bool, error) {
	sel := map[string]bool{}
	if strings.TrimSpace(only) == "" {
		for _, p := range parts {
			sel[p] = true
		}
		return sel, nil
	}
	for _, f := range strings.Split(only, ",") {
		f = strings.TrimSpace(f)
		ok := false
		for _, p := range parts {
			ok = ok || p == f
		}
		if !ok {
			return nil, fmt.Errorf("-only: no part %q (the parts: %s)", f, strings.Join(parts, ", "))
		}
		sel[f] = true
	}
	return sel, nil
}

// parseLevels reads -c: concurrency levels, comma-separated, each at
// least 1.
func parseLevels(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-c: %q is not a number of clients (1 or more)", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// side is one way of getting a document, measured on its own.
type side struct {
	do   func(*client) error
	proc *process // the server process it asks, whose CPU time is counted; nil: none
}

// group is sides measured together, interleaved, and the ratios printed
// for them: the first side is urlkit's.
type group struct {
	part   string
	sides  []string
	ratios []pair
}

// pair names a ratio: side a over side b, printed with label.
type pair struct{ label, a, b string }

// env is the benchmark's servers and sides, ready to measure.
type env struct {
	sides  map[string]side
	groups []group
	ftpSrv *fakeservers.Server
	stops  []func() // run by close, last first
}

// close stops what setup started.
func (e *env) close() {
	for i := len(e.stops) - 1; i >= 0; i-- {
		e.stops[i]()
	}
	e.stops = nil
}

// The names of the sides.
const (
	urlkitGopher  = "urlkit gopher"
	directGopherS = "direct gopher"
	squidGopher   = "squid gopher"
	rawGopher     = "raw gopher"
	nethttpGopher = "net/http gopher"
	urlkitMenu    = "urlkit menu page"
	directMenu    = "direct menu fetch"
	squidMenu     = "squid menu page"
	rawMenu       = "raw menu page"
	rawMenuRelay  = "raw menu relay"
	nethttpMenu   = "net/http menu"
	urlkitFTP     = "urlkit ftp"
	squidFTP      = "squid ftp"
	handlerGopher = "handler gopher"
	httpFloor     = "http floor"
	twoLegs       = "two legs"
	handlerMenu   = "handler menu page"
	pageFloor     = "page floor"
	twoMenuLegs   = "two menu legs"
)

// setup starts the upstream servers and what the selected parts need
// (urlkit serve, Squid unless squidBin is "", the in-process gateway and
// floor server), checks that every side delivers its document exactly,
// and returns the sides. On an error it stops what it started.
func setup(ctx context.Context, squidBin string, sel map[string]bool) (_ *env, err error) {
	e := &env{sides: map[string]side{}}
	defer func() {
		if err != nil {
			e.close()
		}
	}()
	doc := make([]byte, 2048)
	for i := range doc {
		doc[i] = "abcdefghijklmnopqrstuvwxyz0123456789\n"[i%37]
	}
	ftpSrv, err := fakeservers.FTP(map[string][]byte{"/pub/f2k.bin": doc})
	if err != nil {
		return nil, err
	}
	e.ftpSrv = ftpSrv
	e.stops = append(e.stops, ftpSrv.Close)
	// A menu of 1,000 items (issue 22): the gateway's page of it against
	// fetching it.
	menu := fakeservers.LongMenu(menuItems)
	menuEnd := len(menu) - len(".\r\n")
	gopherSrv, err := fakeservers.Gopher(map[string][]byte{"/d2k": doc, "/menu": menu})
	if err != nil {
		return nil, err
	}
	e.stops = append(e.stops, gopherSrv.Close)
	// The upstream servers are on loopback, on ports the policy opens
	// only by name (Policy.Allow), as urlkit serve --allow does.
	allow := []string{ftpSrv.Addr(), gopherSrv.Addr()}
	ftpURL := "ftp://" + ftpSrv.Addr() + "/pub/f2k.bin"
	gopherURL := "gopher://" + gopherSrv.Addr() + "/9/d2k"
	menuURL := "gopher://" + gopherSrv.Addr() + "/1/menu"
	// The page must hold the last item; the fetch is the menu as sent,
	// terminator removed (access's menu stream).
	last := []byte("Document number 0999 of the long menu")
	pageCheck := func(b []byte) error {
		end := bytes.ToLower(bytes.TrimSpace(b[max(len(b)-64, 0):]))
		if !bytes.Contains(b, last) || !bytes.HasSuffix(end, []byte("</html>")) {
			return fmt.Errorf("the page lacks the last item or its end (%d bytes)", len(b))
		}
		return nil
	}
	direct := directGopher(gopherURL)
	dirMenu := directGopher(menuURL)
	e.sides[directGopherS] = side{do: func(c *client) error { return direct(c, doc) }}
	e.sides[directMenu] = side{do: func(c *client) error { return dirMenu(c, menu[:menuEnd]) }}

	// urlkit serve, the raw gateway and Squid, each a process of its own.
	var serve, raw, nethttp, squid *process
	if sel["gopher"] || sel["menu"] || sel["ftp"] {
		if serve, err = startServe(ctx, allow); err != nil {
			return nil, fmt.Errorf("urlkit serve: %w", err)
		}
		e.stops = append(e.stops, serve.stop)
		if sel["gopher"] || sel["menu"] {
			// The raw gateway answers the menu with urlkit serve's page
			// of it, recorded once: the same bytes moved.
			resp, err := captured(serve.addr, "/"+menuURL)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", urlkitMenu, err)
			}
			if raw, err = startRaw(ctx, allow, resp.body, false); err != nil {
				return nil, fmt.Errorf("raw gateway: %w", err)
			}
			e.stops = append(e.stops, raw.stop)
			if nethttp, err = startRaw(ctx, allow, resp.body, true); err != nil {
				return nil, fmt.Errorf("raw gateway on net/http: %w", err)
			}
			e.stops = append(e.stops, nethttp.stop)
		}
		if squidBin != "" {
			if squid, err = startSquid(ctx, squidBin); err != nil {
				return nil, fmt.Errorf("squid: %w", err)
			}
			e.stops = append(e.stops, squid.stop)
		}
	}
	// A part asks urlkit serve, the raw gateway and the same on net/http
	// (if rawSide and nethttpSide are not "") and Squid for the same
	// document (each proxy's target for it given), against the direct
	// side named (if not "").
	proxied := func(part, urlkitSide, direct, rawSide, nethttpSide, squidSide, urlkitTarget, squidTarget string, check func([]byte) error) {
		g := group{part: part, sides: []string{urlkitSide}}
		e.sides[urlkitSide] = side{do: func(c *client) error { return c.getCheck(serve.addr, urlkitTarget, check) }, proc: serve}
		if direct != "" {
			g.sides = append(g.sides, direct)
			g.ratios = append(g.ratios, pair{"urlkit/direct", urlkitSide, direct})
		}
		if rawSide != "" {
			// Asked as urlkit serve is asked.
			e.sides[rawSide] = side{do: func(c *client) error { return c.getCheck(raw.addr, urlkitTarget, check) }, proc: raw}
			e.sides[nethttpSide] = side{do: func(c *client) error { return c.getCheck(nethttp.addr, urlkitTarget, check) }, proc: nethttp}
			g.sides = append(g.sides, rawSide, nethttpSide)
			g.ratios = append(g.ratios, pair{"raw/direct", rawSide, direct}, pair{"urlkit/raw", urlkitSide, rawSide},
				pair{"net/http/raw", nethttpSide, rawSide}, pair{"urlkit/net/http", urlkitSide, nethttpSide})
		}
		if squid != nil {
			e.sides[squidSide] = side{do: func(c *client) error { return c.getCheck(squid.addr, squidTarget, check) }, proc: squid}
			g.sides = append(g.sides, squidSide)
			g.ratios = append(g.ratios, pair{"urlkit/squid", urlkitSide, squidSide})
		}
		e.groups = append(e.groups, g)
	}
	if sel["gopher"] {
		proxied("gopher", urlkitGopher, directGopherS, rawGopher, nethttpGopher, squidGopher, gopherURL, gopherURL, bodyIs(doc))
	}
	if sel["menu"] {
		// urlkit serve is asked in path form, as a browser asks it.
		proxied("menu", urlkitMenu, directMenu, rawMenu, nethttpMenu, squidMenu, "/"+menuURL, menuURL, pageCheck)
		if raw != nil {
			// The floor of any page of this menu: the raw gateway
			// relays the menu's own bytes, asked for as a type 9 item
			// (so it answers no page): what a gateway pays to move the
			// menu's information, however small its page.
			relayURL := "gopher://" + gopherSrv.Addr() + "/9/menu"
			e.sides[rawMenuRelay] = side{do: func(c *client) error { return c.getCheck(raw.addr, relayURL, bodyIs(menu)) }, proc: raw}
			g := &e.groups[len(e.groups)-1]
			g.sides = append(g.sides, rawMenuRelay)
			g.ratios = append(g.ratios, pair{"relay/direct", rawMenuRelay, directMenu})
		}
	}
	if sel["ftp"] {
		proxied("ftp", urlkitFTP, "", "", "", squidFTP, ftpURL, ftpURL, bodyIs(doc))
	}

	if sel["gopher-handler"] || sel["menu-handler"] {
		// The gateway's handler in this process, behind the http.Server
		// urlkit serve runs, and the floor server beside it.
		gwLn, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		g := gateway.New(gateway.Config{MaxUpstream: 256, MaxConnsPerClient: maxConnsPerClient, Policy: gateway.Policy{Allow: allow}})
		gw := g.HTTPServer() // configured and served as urlkit serve runs it
		go gw.Serve(g.Listener(gwLn))
		e.stops = append(e.stops, g.Close, func() { gw.Close() })
		inAddr := gwLn.Addr().String()
		floor := &floorServer{}
		flLn, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		fl := g.HTTPServer()
		fl.Handler = floor
		go fl.Serve(flLn)
		e.stops = append(e.stops, func() { fl.Close() })
		floorAddr := flLn.Addr().String()
		if sel["gopher-handler"] {
			e.sides[handlerGopher] = side{do: func(c *client) error { return c.get(inAddr, gopherURL, doc) }}
			resp, err := captured(inAddr, gopherURL)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", handlerGopher, err)
			}
			floor.add("/doc", resp)
			e.sides[httpFloor] = side{do: func(c *client) error { return c.get(floorAddr, "/doc", doc) }}
			e.sides[twoLegs] = side{do: func(c *client) error {
				if err := direct(c, doc); err != nil {
					return err
				}
				return c.get(floorAddr, "/doc", doc)
			}}
			e.groups = append(e.groups, group{part: "gopher-handler", sides: []string{handlerGopher, directGopherS, httpFloor, twoLegs},
				ratios: []pair{{"handler/direct", handlerGopher, directGopherS}, {"two legs/direct", twoLegs, directGopherS}}})
		}
		if sel["menu-handler"] {
			e.sides[handlerMenu] = side{do: func(c *client) error { return c.getCheck(inAddr, "/"+menuURL, pageCheck) }}
			resp, err := captured(inAddr, "/"+menuURL)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", handlerMenu, err)
			}
			floor.add("/page", resp)
			e.sides[pageFloor] = side{do: func(c *client) error { return c.get(floorAddr, "/page", resp.body) }}
			e.sides[twoMenuLegs] = side{do: func(c *client) error {
				if err := dirMenu(c, menu[:menuEnd]); err != nil {
					return err
				}
				return c.get(floorAddr, "/page", resp.body)
			}}
			e.groups = append(e.groups, group{part: "menu-handler", sides: []string{handlerMenu, directMenu, pageFloor, twoMenuLegs},
				ratios: []pair{{"handler/direct", handlerMenu, directMenu}, {"two legs/direct", twoMenuLegs, directMenu}}})
		}
	}

	// Every side must deliver the document exactly before it is timed.
	for _, g := range e.groups {
		for _, name := range g.sides {
			c := &client{}
			err := e.sides[name].do(c)
			c.close()
			if err != nil {
				if name == squidGopher || name == squidMenu {
					err = fmt.Errorf("%w (a squid without gopher? Debian's squid has none since CVE-2023-46728: build one with ../shared/squid-gopher/build.sh, or leave squid out with -squid '')", err)
				}
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	return e, nil
}

func run(ctx context.Context, squidBin string, window time.Duration, rounds int, levels []int, sel map[string]bool) error {
	e, err := setup(ctx, squidBin, sel)
	if err != nil {
		return err
	}
	defer e.close()

	fmt.Printf("bench/gateway: %s, %d rounds of %v per side and level, interleaved; load average %s\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), rounds, window, loadAverage())
	fmt.Println("cpu µs/req (user+system): bench = this process (the clients and the upstream servers), server = the process the side asks (urlkit serve, squid), total = both")
	fmt.Printf("%-18s %3s %9s %9s %9s %6s %10s %7s %7s %7s\n", "side", "c", "req/s", "p50", "p99", "errors", "logins/req", "bench", "server", "total")
	all := map[string]map[int]map[string]*result{} // part, clients, side
	for _, conc := range levels {
		for _, g := range e.groups {
			res, err := e.measureGroup(ctx, g.sides, conc, rounds, window, 0)
			if err != nil {
				return err
			}
			if all[g.part] == nil {
				all[g.part] = map[int]map[string]*result{}
			}
			all[g.part][conc] = res
			for _, name := range g.sides {
				res[name].print(name, conc)
			}
			for _, p := range g.ratios {
				r := ratioOf(res[p.a], res[p.b])
				fmt.Printf("  %-16s %3d %8.2fx %8.2fx %8.2fx %6s %10s %7s %7s %6.2fx\n", p.label, conc, r.rate, r.p50, r.p99, "", "", "", "", r.cpu)
			}
		}
	}
	if e.ftpSrv != nil && sel["ftp"] {
		fmt.Printf("ftp upstream: %d control connections, %d logins\n", e.ftpSrv.Conns.Load(), e.ftpSrv.Logins.Load())
	}
	fmt.Print(goalReport(all))
	fmt.Printf("load average at the end %s\n", loadAverage())
	return nil
}

// ratio is one side's figures over another's: requests per second,
// median and 99th percentile latency, and CPU time per request (total).
type ratio struct{ rate, p50, p99, cpu float64 }

// ratioOf is a's figures over b's.
func ratioOf(a, b *result) ratio {
	div := func(x, y float64) float64 {
		if y == 0 {
			return 0
		}
		return x / y
	}
	return ratio{
		rate: div(a.rate(), b.rate()),
		p50:  div(float64(a.pct(50)), float64(b.pct(50))),
		p99:  div(float64(a.pct(99)), float64(b.pct(99))),
		cpu:  div(a.totalPerReq(), b.totalPerReq()),
	}
}

// menuItems is the number of items of the menu part's menu.
const menuItems = 1000

// menuBytes is the size of the menu of menuItems items, as sent.
var menuBytes = len(fakeservers.LongMenu(menuItems))

// The speed goals of issue 36, item 6: gopher through the gateway at
// least 0.85x the direct rate and 1.3x Squid's at 8 and 32 clients; the
// 1,000-item menu page at most 1.5x the direct fetch's CPU time.
const (
	goalDirectRate = 0.85
	goalSquidRate  = 1.3
	goalMenuCPU    = 1.5
)

// goalReport gives the figures of issue 36's speed goals from the results
// by part, clients and side: "" when none of them was measured.
func goalReport(all map[string]map[int]map[string]*result) string {
	var b strings.Builder
	met := func(ok bool) string {
		if ok {
			return "met"
		}
		return "not met"
	}
	for _, conc := range sortedKeys(all["gopher"]) {
		if conc != 8 && conc != 32 {
			continue
		}
		res := all["gopher"][conc]
		r := ratioOf(res[urlkitGopher], res[directGopherS])
		fmt.Fprintf(&b, "  gopher, %2d clients: urlkit/direct rate %.2fx (goal >= %.2fx: %s), cpu %.2fx", conc, r.rate, goalDirectRate, met(r.rate >= goalDirectRate), r.cpu)
		if res[squidGopher] != nil {
			s := ratioOf(res[urlkitGopher], res[squidGopher])
			fmt.Fprintf(&b, "; urlkit/squid rate %.2fx (goal >= %.2fx: %s), cpu %.2fx", s.rate, goalSquidRate, met(s.rate >= goalSquidRate), s.cpu)
		}
		b.WriteString("\n")
		if res[rawGopher] != nil {
			f := ratioOf(res[rawGopher], res[directGopherS])
			u := ratioOf(res[urlkitGopher], res[rawGopher])
			fmt.Fprintf(&b, "    the raw floor: raw/direct rate %.2fx, cpu %.2fx; urlkit/raw rate %.2fx, cpu %.2fx: %s\n", f.rate, f.cpu, u.rate, u.cpu,
				reach(f.rate >= goalDirectRate, fmt.Sprintf("the rate goal of %.2fx", goalDirectRate), fmt.Sprintf("a rate of %.2fx the direct fetch's", f.rate)))
		}
		b.WriteString(nethttpLine(res[urlkitGopher], res[nethttpGopher], res[rawGopher]))
	}
	for _, conc := range sortedKeys(all["menu"]) {
		res := all["menu"][conc]
		r := ratioOf(res[urlkitMenu], res[directMenu])
		beyond := (res[urlkitMenu].totalPerReq() - res[directMenu].totalPerReq()) * 1e3 / menuItems
		fmt.Fprintf(&b, "  menu page, %2d clients: urlkit/direct cpu %.2fx (goal <= %.2fx: %s), %.0f ns an item beyond the fetch", conc, r.cpu, goalMenuCPU, met(r.cpu <= goalMenuCPU), beyond)
		if res[squidMenu] != nil {
			s := ratioOf(res[urlkitMenu], res[squidMenu])
			fmt.Fprintf(&b, "; urlkit/squid cpu %.2fx, rate %.2fx", s.cpu, s.rate)
		}
		b.WriteString("\n")
		if res[rawMenu] != nil {
			f := ratioOf(res[rawMenu], res[directMenu])
			u := ratioOf(res[urlkitMenu], res[rawMenu])
			fmt.Fprintf(&b, "    the raw floor: raw/direct cpu %.2fx, urlkit/raw cpu %.2fx: %s\n", f.cpu, u.cpu,
				reach(f.cpu <= goalMenuCPU, fmt.Sprintf("the cpu goal of %.2fx", goalMenuCPU), fmt.Sprintf("a cpu of %.2fx the direct fetch's", f.cpu)))
		}
		if res[rawMenuRelay] != nil {
			f := ratioOf(res[rawMenuRelay], res[directMenu])
			fmt.Fprintf(&b, "    the relay floor (the menu's own %d bytes moved, no page): relay/direct cpu %.2fx: %s\n", menuBytes, f.cpu,
				reach(f.cpu <= goalMenuCPU, fmt.Sprintf("the cpu goal of %.2fx", goalMenuCPU), fmt.Sprintf("a cpu of %.2fx the direct fetch's relaying the menu unchanged", f.cpu)))
		}
		b.WriteString(nethttpLine(res[urlkitMenu], res[nethttpMenu], res[rawMenu]))
	}
	if b.Len() == 0 {
		return ""
	}
	return "issue 36 item 6, the goals:\n" + b.String()
}

// nethttpLine splits urlkit's distance from the raw gateway with the
// net/http side (the raw gateway's answers on net/http's server): what
// net/http's server costs over the raw one, and urlkit's own code over
// that. "" when either was not measured.
func nethttpLine(urlkit, nethttp, raw *result) string {
	if nethttp == nil || raw == nil {
		return ""
	}
	n := ratioOf(nethttp, raw)
	u := ratioOf(urlkit, nethttp)
	return fmt.Sprintf("    the same on net/http's server: net/http/raw rate %.2fx, cpu %.2fx; urlkit/net/http rate %.2fx, cpu %.2fx\n", n.rate, n.cpu, u.rate, u.cpu)
}

// reach says whether a goal is within the raw gateway's reach: it is when
// the raw gateway meets it (ok); otherwise the physical floor of this
// harness (floor, what the raw gateway reaches) lies beyond it.
func reach(ok bool, goal, floor string) string {
	if ok {
		return goal + " is within the floor's reach"
	}
	return goal + " is beyond the physical floor of this harness (the raw gateway reaches " + floor + ")"
}

func sortedKeys(m map[int]map[string]*result) []int {
	var k []int
	for c := range m {
		k = append(k, c)
	}
	sort.Ints(k)
	return k
}

// measureGroup measures the sides named at conc clients in rounds, each
// side in turn, the order alternating from round to round: each turn
// lasts window, or is n requests when n > 0.
func (e *env) measureGroup(ctx context.Context, names []string, conc, rounds int, window time.Duration, n int) (map[string]*result, error) {
	res := map[string]*result{}
	for r := 0; r < rounds; r++ {
		order := append([]string(nil), names...)
		if r%2 == 1 {
			for i, j := 0, len(order)-1; i < j; i, j = i+1, j-1 {
				order[i], order[j] = order[j], order[i]
			}
		}
		for _, name := range order {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if res[name] == nil {
				res[name] = &result{}
			}
			before := e.ftpSrv.Logins.Load()
			measure(ctx, e.sides[name], conc, window, n, res[name])
			res[name].logins += e.ftpSrv.Logins.Load() - before
		}
	}
	return res, nil
}

// loadAverage is the machine's load average over 1, 5 and 15 minutes, as
// /proc/loadavg gives it ("?" where there is none).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "?"
}

// result accumulates one side's measurements at one concurrency.
type result struct {
	logins  int64 // ftp logins the upstream saw during this side's windows
	lat     []time.Duration
	n       int // requests, when lat is not kept (tests)
	elapsed time.Duration
	cpu     time.Duration // this process's CPU time during the windows
	srvCPU  time.Duration // the server process's CPU time during the windows
	errs    int
	lastErr error
}

func (r *result) count() int { return max(len(r.lat), r.n) }

func (r *result) rate() float64 {
	if r.elapsed <= 0 {
		return 0
	}
	return float64(r.count()) / r.elapsed.Seconds()
}

func (r *result) pct(p int) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	sort.Slice(r.lat, func(i, j int) bool { return r.lat[i] < r.lat[j] })
	i := (len(r.lat)*p + 99) / 100
	if i > 0 {
		i--
	}
	return r.lat[i]
}

func perReq(d time.Duration, n int) float64 {
	return float64(d.Nanoseconds()) / 1e3 / float64(max(n, 1))
}

// cpuPerReq is this process's CPU time per request, in microseconds.
func (r *result) cpuPerReq() float64 { return perReq(r.cpu, r.count()) }

// srvPerReq is the server process's CPU time per request, in microseconds.
func (r *result) srvPerReq() float64 { return perReq(r.srvCPU, r.count()) }

// totalPerReq is both processes' CPU time per request, in microseconds.
func (r *result) totalPerReq() float64 { return perReq(r.cpu+r.srvCPU, r.count()) }

func (r *result) print(name string, conc int) {
	fmt.Printf("%-18s %3d %9.0f %9s %9s %6d %10.3f %7.0f %7.0f %7.0f\n", name, conc, r.rate(),
		r.pct(50).Round(time.Microsecond), r.pct(99).Round(time.Microsecond), r.errs,
		float64(r.logins)/float64(max(r.count(), 1)), r.cpuPerReq(), r.srvPerReq(), r.totalPerReq())
	if r.lastErr != nil {
		fmt.Printf("    last error: %v\n", r.lastErr)
	}
}

// measure runs conc clients calling s.do for window (or, when n > 0, n
// times in all) and adds to res, with this process's and s's server
// process's CPU time.
func measure(ctx context.Context, s side, conc int, window time.Duration, n int, res *result) {
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		end = time.Now().Add(window)
	)
	// The garbage of the window before (the other side's, half the time)
	// is collected before this one starts, not charged to it.
	runtime.GC()
	srv0 := s.proc.cpu()
	start, cpu0 := time.Now(), processCPU()
	for i := 0; i < conc; i++ {
		wg.Add(1)
		mine := n / conc // this client's share of n
		if i < n%conc {
			mine++
		}
		go func() {
			defer wg.Done()
			c := &client{}
			defer c.close()
			var lat []time.Duration
			errs := 0
			var last error
			for k := 0; (n > 0 && k < mine || n <= 0 && time.Now().Before(end)) && ctx.Err() == nil; k++ {
				t := time.Now()
				if err := s.do(c); err != nil {
					errs++
					last = err
					c.close()
					continue
				}
				lat = append(lat, time.Since(t))
			}
			mu.Lock()
			res.lat = append(res.lat, lat...)
			res.errs += errs
			if last != nil {
				res.lastErr = last
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.elapsed += time.Since(start)
	res.cpu += processCPU() - cpu0
	if s.proc != nil {
		// The server's work on the clients' last requests and closes
		// ends a moment after theirs.
		time.Sleep(10 * time.Millisecond)
		res.srvCPU += s.proc.cpu() - srv0
	}
}

// processCPU is the CPU time (user and system) this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// client is one HTTP/1.1 keep-alive connection to a proxy, sending proxy
// form requests. The same code asks the gateway and Squid.
type client struct {
	addr string
	c    net.Conn
	br   *bufio.Reader
	buf  []byte
	// The last response's status, header and whether it had a length.
	status int
	header http.Header
	length bool
}

func (c *client) close() {
	if c.c != nil {
		c.c.Close()
		c.c = nil
	}
}

func (c *client) get(proxy, target string, want []byte) error {
	return c.getCheck(proxy, target, bodyIs(want))
}

// bodyIs is a check that a body is want.
func bodyIs(want []byte) func([]byte) error {
	return func(b []byte) error {
		if !bytes.Equal(b, want) {
			return fmt.Errorf("body differs (%d bytes)", len(b))
		}
		return nil
	}
}

// requestHead is the request a client sends to proxy for target: in
// absolute form ("GET gopher://HOST:PORT/9/d2k HTTP/1.1") when target is
// a URL, in origin form when it is a path. Its Host is the URL's
// authority without userinfo for the absolute form, the proxy's address
// for the origin form (RFC 7230 section 5.4).
func requestHead(proxy, target string) string {
	host := proxy
	if !strings.HasPrefix(target, "/") {
		if i := strings.Index(target, "://"); i > 0 {
			auth := target[i+3:]
			if j := strings.IndexAny(auth, "/?#"); j >= 0 {
				auth = auth[:j]
			}
			if j := strings.LastIndexByte(auth, '@'); j >= 0 {
				auth = auth[j+1:]
			}
			host = auth
		}
	}
	return "GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: urlkit-bench\r\n\r\n"
}

// getCheck asks proxy for target and checks the body with check.
func (c *client) getCheck(proxy, target string, check func([]byte) error) error {
	if c.c == nil || c.addr != proxy {
		c.close()
		conn, err := net.Dial("tcp", proxy)
		if err != nil {
			return err
		}
		c.c, c.addr, c.br = conn, proxy, bufio.NewReaderSize(conn, 8192)
	}
	c.c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.WriteString(c.c, requestHead(proxy, target)); err != nil {
		return err
	}
	resp, err := http.ReadResponse(c.br, nil)
	if err != nil {
		return err
	}
	c.status, c.header, c.length = resp.StatusCode, resp.Header, resp.ContentLength >= 0
	c.buf = c.buf[:0]
	b := bytes.NewBuffer(c.buf)
	_, err = b.ReadFrom(resp.Body)
	resp.Body.Close()
	c.buf = b.Bytes()
	if resp.Close {
		c.close()
	}
	if err != nil {
		return err
	}
	if resp.StatusCode != 200 {
		return fmt.Errorf("status %s: %.200q", resp.Status, c.buf)
	}
	return check(c.buf)
}

// directGopher fetches the gopher URL straight from the upstream with the
// access layer, the same client code the gateway runs, with the same
// settings as the gateway's upstream leg (gateway/upstream.go: no TCP
// keep-alive set-up; the gateway's policy hook is the gateway's own cost
// and is left out). The document is read into the client's buffer, reused
// from request to request as the HTTP side's client reuses its own.
func directGopher(raw string) func(c *client, want []byte) error {
	u, err := urlkit.Parse(raw)
	if err != nil {
		panic(err)
	}
	opts := &access.Options{KeepAlive: -1}
	return func(c *client, want []byte) error {
		plan, err := scheme.PlanOf(u, scheme.Config{})
		if err != nil {
			return err
		}
		rc, err := access.Execute(context.Background(), plan, opts)
		if err != nil {
			return err
		}
		defer rc.Close()
		b := bytes.NewBuffer(c.buf[:0])
		_, err = b.ReadFrom(rc)
		c.buf = b.Bytes()
		if err != nil {
			return err
		}
		if !bytes.Equal(c.buf, want) {
			return errors.New("body differs")
		}
		return nil
	}
}

// squidConf is the configuration Squid runs with (squid/squid.conf.in:
// loopback only, caching off, no access log), its placeholders to fill.
//
//go:embed squid/squid.conf.in
var squidConf string

// squidConfig is squidConf for a run in dir, listening on addr
// (127.0.0.1:PORT).
func squidConfig(dir, addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || host != "127.0.0.1" {
		return "", fmt.Errorf("squid must listen on 127.0.0.1, not %q", addr)
	}
	return strings.NewReplacer("@WORK@", dir, "@PORT@", port).Replace(squidConf), nil
}

// startSquid runs Squid in the foreground (-N), in a process group of its
// own, on a free loopback port with squidConf's settings, in a new
// directory removed when it stops. It waits until Squid listens, and
// stops it when it does not or when ctx ends first.
func startSquid(ctx context.Context, bin string) (_ *process, err error) {
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("%w (build a squid with gopher with ../shared/squid-gopher/build.sh, or leave squid out with -squid '')", err)
	}
	dir, err := os.MkdirTemp("", "urlkit-bench-squid-")
	if err != nil {
		return nil, err
	}
	p := &process{dir: dir}
	defer func() {
		if err != nil {
			p.stop()
		}
	}()
	// Squid started by root works as nobody, which must write there.
	if err := os.Chmod(dir, 0o777); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p.addr = ln.Addr().String()
	ln.Close()
	conf, err := squidConfig(dir, p.addr)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "squid.conf"), []byte(conf), 0o644); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := p.start(exec.Command(bin, "-N", "-f", filepath.Join(dir, "squid.conf")), &out); err != nil {
		return nil, err
	}
	if err := p.waitListening(ctx, 10*time.Second); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "cache.log"))
		p.stop() // its output is complete once it has been waited for
		return nil, fmt.Errorf("%w: %s %s", err, bytes.TrimSpace(out.Bytes()), lastLines(log, 10))
	}
	return p, nil
}

// lastLines is the last n lines of b.
func lastLines(b []byte, n int) []byte {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	return bytes.Join(lines[max(len(lines)-n, 0):], []byte("\n"))
}

// process is a server process started by the benchmark, in its own
// process group, stopped at the end, its directory removed.
type process struct {
	cmd  *exec.Cmd
	dir  string
	addr string
	done chan struct{} // closed when the process has exited and been waited for
}

// start starts cmd in a process group of its own, its output to out (nil:
// discarded), and waits for it in the background.
func (p *process) start(cmd *exec.Cmd, out io.Writer) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if out != nil {
		cmd.Stdout, cmd.Stderr = out, out
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	p.cmd, p.done = cmd, make(chan struct{})
	go func() { cmd.Wait(); close(p.done) }()
	return nil
}

// waitListening waits until p.addr accepts a connection, p exits, ctx
// ends or limit passes.
func (p *process) waitListening(ctx context.Context, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		if c, err := net.Dial("tcp", p.addr); err == nil {
			c.Close()
			return nil
		}
		select {
		case <-p.done:
			return fmt.Errorf("exited (%v) before listening on %s", p.cmd.ProcessState, p.addr)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not listening on %s after %v", p.addr, limit)
		}
	}
}

// stop ends p's process group (TERM, then KILL after 5 s, and KILL to
// what of the group outlives its leader by a second) and removes its
// directory. It may be called more than once.
func (p *process) stop() {
	if p.cmd != nil && p.cmd.Process != nil {
		pgid := p.cmd.Process.Pid
		select {
		case <-p.done:
			// Exited and waited for: its group's id may be another's now.
		default:
			syscall.Kill(-pgid, syscall.SIGTERM)
			select {
			case <-p.done:
			case <-time.After(5 * time.Second):
				syscall.Kill(-pgid, syscall.SIGKILL)
				<-p.done
			}
			for i := 0; groupLive("/proc", pgid) > 0 && i < 40; i++ {
				if i == 20 {
					syscall.Kill(-pgid, syscall.SIGKILL)
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
	}
	if p.dir != "" {
		os.RemoveAll(p.dir)
	}
}

// cpu is the CPU time (user and system) p's process group has used: its
// processes' and the children they have waited for, from /proc. Zero for
// a nil p.
func (p *process) cpu() time.Duration {
	if p == nil || p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return groupCPU("/proc", p.cmd.Process.Pid)
}

// clockTick is the unit of /proc's CPU times (USER_HZ, 100 on Linux).
const clockTick = 10 * time.Millisecond

// groupCPU sums the CPU time of the processes in process group pgid, as
// proc (a /proc) gives it: user and system time of each and of its
// waited-for children.
func groupCPU(proc string, pgid int) time.Duration {
	var ticks int64
	eachStat(proc, func(st stat) {
		if st.pgrp == pgid {
			ticks += st.ticks
		}
	})
	return time.Duration(ticks) * clockTick
}

// groupLive counts the processes of group pgid that are alive (not
// zombies waiting to be reaped), as proc (a /proc) gives them.
func groupLive(proc string, pgid int) int {
	n := 0
	eachStat(proc, func(st stat) {
		if st.pgrp == pgid && st.state != 'Z' && st.state != 'X' {
			n++
		}
	})
	return n
}

// eachStat calls f with the stat of every process in proc (a /proc).
func eachStat(proc string, f func(stat)) {
	ents, err := os.ReadDir(proc)
	if err != nil {
		return
	}
	for _, ent := range ents {
		if _, err := strconv.Atoi(ent.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(proc, ent.Name(), "stat"))
		if err != nil {
			continue // gone meanwhile
		}
		if st, err := parseStat(b); err == nil {
			f(st)
		}
	}
}

// stat is what the benchmark reads of a /proc/PID/stat line.
type stat struct {
	state byte  // field 3: R, S, Z...
	pgrp  int   // field 5
	ticks int64 // fields 14 to 17: utime+stime+cutime+cstime, in clock ticks
}

// parseStat reads a /proc/PID/stat line (proc(5)). The command (field 2)
// is in parentheses and may hold spaces and parentheses itself, so the
// fields are counted from its last ')'.
func parseStat(b []byte) (stat, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return stat{}, errors.New("stat: no ')' after the command")
	}
	f := strings.Fields(string(b[i+1:])) // f[0] is field 3, the state
	if len(f) < 15 {
		return stat{}, fmt.Errorf("stat: %d fields after the command, want 15 or more", len(f))
	}
	st := stat{state: f[0][0]}
	var err error
	if st.pgrp, err = strconv.Atoi(f[2]); err != nil {
		return stat{}, fmt.Errorf("stat: process group %q: %w", f[2], err)
	}
	for _, s := range f[11:15] {
		t, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return stat{}, fmt.Errorf("stat: CPU time %q: %w", s, err)
		}
		st.ticks += t
	}
	return st, nil
}

// maxConnsPerClient is the gateway's cap on one client address's
// connections in the benchmark: every client comes from 127.0.0.1, and
// urlkit serve's default (16) would answer 503 to the 17th (Squid has no
// such cap). It is the default cap on all connections, 256.
const maxConnsPerClient = 256

// startServe builds urlkit from this checkout and runs `urlkit serve` on a
// free loopback port, reading the address from its first line.
func startServe(ctx context.Context, allow []string) (_ *process, err error) {
	dir, err := os.MkdirTemp("", "urlkit-bench-serve-")
	if err != nil {
		return nil, err
	}
	p := &process{dir: dir}
	defer func() {
		if err != nil {
			p.stop()
		}
	}()
	bin := filepath.Join(dir, "urlkit")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/urlkit/urlkit/cmd/urlkit")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build: %v: %s", err, out)
	}
	cmd := exec.Command(bin, "serve", "--listen", "127.0.0.1:0", "--quiet", "--max-upstream", "256",
		"--max-conns-per-client", strconv.Itoa(maxConnsPerClient), "--allow", strings.Join(allow, ","))
	if err := p.startAnnounced(ctx, cmd, "gateway on http://"); err != nil {
		return nil, err
	}
	return p, nil
}

// startRaw runs the raw gateway (rawgw.go: this binary again, in its
// hidden mode) on a free loopback port, fetching from the upstream
// servers allow names and answering a gopher menu with page, in a new
// directory removed when it stops; with nethttp, behind net/http's
// server.
func startRaw(ctx context.Context, allow []string, page []byte, nethttp bool) (_ *process, err error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "urlkit-bench-raw-")
	if err != nil {
		return nil, err
	}
	p := &process{dir: dir}
	defer func() {
		if err != nil {
			p.stop()
		}
	}()
	pageFile := filepath.Join(dir, "page.html")
	if err := os.WriteFile(pageFile, page, 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command(self, rawMode, "-listen", "127.0.0.1:0", "-allow", strings.Join(allow, ","), "-page", pageFile, "-nethttp="+strconv.FormatBool(nethttp))
	if err := p.startAnnounced(ctx, cmd, rawListening); err != nil {
		return nil, err
	}
	return p, nil
}

// startAnnounced starts cmd as p (p.start) and sets p.addr from the first
// line of its standard error, which names the address after marker (as
// "... gateway on http://ADDR/"); the rest of that output is discarded.
// The caller stops p when it fails.
func (p *process) startAnnounced(ctx context.Context, cmd *exec.Cmd, marker string) error {
	if err := ctx.Err(); err != nil {
		return err // interrupted already: nothing is started
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := p.start(cmd, nil); err != nil {
		return err
	}
	type first struct {
		line string
		err  error
	}
	got := make(chan first, 1)
	go func() {
		line, err := bufio.NewReader(stderr).ReadString('\n')
		got <- first{line, err}
	}()
	var line string
	select {
	case f := <-got:
		line, err = f.line, f.err
	case <-ctx.Done():
		return ctx.Err() // stopping it ends the read
	}
	i := strings.Index(line, marker)
	if err != nil || i < 0 {
		return fmt.Errorf("unexpected first line %q: %v", line, err)
	}
	p.addr = strings.TrimSuffix(strings.Fields(line[i+len(marker):])[0], "/")
	go io.Copy(io.Discard, stderr)
	return nil
}

// floorServer answers each path it was given with a response recorded
// from the gateway (captured): the same status, headers and body, from
// memory. Behind the same http.Server settings as the gateway, asked by
// the same client, it is the floor of a gateway side: the HTTP exchange
// alone, with nothing fetched or rendered. A body the gateway sent with
// its length is sent with it; one it streamed (a long page, chunked) is
// written in one piece without it, so that it goes out chunked too.
type floorServer struct {
	resps map[string]*response
}

// response is a recorded response.
type response struct {
	status int
	header http.Header
	body   []byte
	length bool // sent with a Content-Length
}

func (f *floorServer) add(path string, r *response) {
	if f.resps == nil {
		f.resps = map[string]*response{}
	}
	f.resps[path] = r
}

func (f *floorServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	resp := f.resps[r.URL.Path]
	if resp == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	for k, v := range resp.header {
		if k != "Date" && (k != "Content-Length" || resp.length) {
			h[k] = v
		}
	}
	w.WriteHeader(resp.status)
	w.Write(resp.body)
}

// captured asks the gateway at addr for target once and records the
// response.
func captured(addr, target string) (*response, error) {
	c := &client{}
	defer c.close()
	var resp *response
	err := c.getCheck(addr, target, func([]byte) error { return nil })
	if err == nil {
		resp = &response{status: c.status, header: c.header, body: append([]byte(nil), c.buf...), length: c.length}
	}
	return resp, err
}
