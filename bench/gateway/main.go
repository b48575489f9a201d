// Command gateway measures urlkit's gateway (issue 15) beside its anchors,
// every side in one run, interleaved, on the same in-process upstream
// servers (internal/testkit/fakeservers: a Go ftp server and a Go gopher server
// serving from memory, so the upstream is not the limit):
//
//   - ftp, a 2 KB file: `urlkit serve` (proxy form) against Squid (Debian's
//     squid, caching off, its own configuration, port and directory,
//     loopback only), both asked "GET ftp://... HTTP/1.1" by the same HTTP
//     client code over keep-alive connections. Both gateways run as
//     processes of their own, as their users run them (urlkit is built from
//     this checkout), so neither shares the client's CPU share;
//   - gopher, a 2 KB document: through the gateway against fetching it
//     directly from the upstream with urlkit's access layer (Debian's Squid
//     no longer carries gopher: CVE-2023-46728), with the settings of the
//     gateway's own upstream leg and a reused buffer, as the HTTP client
//     reuses its own. Here the gateway's handler runs inside this process
//     behind the http.Server that urlkit serve uses (Gateway.HTTPServer),
//     as the direct fetch does, so that both sides share one process's CPU
//     (a separate process would get a share of its own on a loaded machine
//     and look faster than it is);
//   - menu (issue 22): the gateway's page of a 1,000-item gopher menu
//     against fetching the menu directly, the same way;
//   - for both, a floor: the gateway's response, recorded once, served
//     from memory behind the same http.Server settings to the same client
//     (the HTTP exchange alone);
//   - for both, two legs: the direct fetch, then the floor's exchange, one
//     after the other by the same client: what a gateway that did no work
//     at all between its upstream leg and its HTTP leg would cost. Its
//     rate against the direct fetch's is the best ratio any gateway can
//     reach in this harness (the "bound" line), and the gateway's CPU
//     time beyond it is all the gateway's own work.
//
// For 1, 8 and 32 concurrent clients it reports requests per second, the
// median and the 99th percentile latency, and the ratios; for the
// in-process sides also this process's CPU time per request, and how much
// of the gateway's extra is the floor. The Go benchmarks in main_test.go
// measure the same sides. Run it with
//
//	go run ./bench/gateway
//
// (as root when Squid is to be started: Squid drops to its own user;
// -only gopher, -only menu or -only ftp runs one part, -c, -rounds and -window set the
// concurrency levels and the measuring windows, -cpuprofile writes a CPU
// profile). It starts nothing that outlives it: Squid runs in the
// foreground under this process and is stopped, its directory removed, at
// the end.
package main

import (
	"bufio"
	"bytes"
	"context"
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

func main() {
	var (
		squidBin = flag.String("squid", "/usr/sbin/squid", "the squid binary (empty: no squid side)")
		window   = flag.Duration("window", 500*time.Millisecond, "length of one measuring window")
		rounds   = flag.Int("rounds", 8, "windows per side and concurrency, interleaved")
		levels   = flag.String("c", "1,8,32", "client concurrency levels")
		only     = flag.String("only", "", `run only one part: "gopher", "ftp" or "menu" (empty: all)`)
		cpuprof  = flag.String("cpuprofile", "", "write this process's CPU profile to the file")
	)
	flag.Parse()
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *only != "" && *only != "gopher" && *only != "ftp" && *only != "menu" {
		fmt.Fprintf(os.Stderr, "bench/gateway: -only %q: want gopher, ftp or menu\n", *only)
		os.Exit(2)
	}
	if err := run(ctx, *squidBin, *window, *rounds, *levels, *only); err != nil {
		fmt.Fprintln(os.Stderr, "bench/gateway:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// env is the benchmark's servers and sides, ready to measure.
type env struct {
	sides  map[string]func(*client) error
	groups [][]string // sides measured together, the gateway's first
	ftpSrv *fakeservers.Server
	stops  []func() // run by close, last first
}

// close stops what setup started.
func (e *env) close() {
	for i := len(e.stops) - 1; i >= 0; i-- {
		e.stops[i]()
	}
}

// setup starts the upstream servers, the gateway, the floor server and
// what else the part only needs ("" for all), checks that every side
// delivers its document exactly, and returns the sides.
func setup(ctx context.Context, squidBin, only string) (_ *env, err error) {
	e := &env{sides: map[string]func(*client) error{}}
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
	menu := fakeservers.LongMenu(1000)
	menuItems := len(menu) - len(".\r\n")
	gopherSrv, err := fakeservers.Gopher(map[string][]byte{"/d2k": doc, "/menu": menu})
	if err != nil {
		return nil, err
	}
	e.stops = append(e.stops, gopherSrv.Close)

	// The gateway in this process (beside the direct gopher client) and
	// as `urlkit serve` (beside Squid).
	gwLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	// The upstream servers are on loopback, on ports the policy opens
	// only by name (Policy.Allow), as urlkit serve --allow does.
	allow := []string{ftpSrv.Addr(), gopherSrv.Addr()}
	g := gateway.New(gateway.Config{MaxUpstream: 256, Policy: gateway.Policy{Allow: allow}})
	gw := g.HTTPServer() // configured as urlkit serve runs it
	go gw.Serve(gwLn)
	e.stops = append(e.stops, g.Close, func() { gw.Close() })
	inAddr := gwLn.Addr().String()
	// The floor of each in-process side: the same http.Server settings and
	// the same client, the response served from memory (see floorServer).
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
	serveAddr := ""
	doGopher, doFTP, doMenu := only == "" || only == "gopher", only == "" || only == "ftp", only == "" || only == "menu"
	if doFTP {
		serve, err := startServe(ctx, allow)
		if err != nil {
			return nil, fmt.Errorf("urlkit serve: %w", err)
		}
		e.stops = append(e.stops, serve.stop)
		serveAddr = serve.addr
	}

	ftpURL := "ftp://" + ftpSrv.Addr() + "/pub/f2k.bin"
	gopherURL := "gopher://" + gopherSrv.Addr() + "/9/d2k"

	var squidAddr string
	if squidBin != "" && doFTP {
		sq, err := startSquid(ctx, squidBin)
		if err != nil {
			return nil, fmt.Errorf("squid: %w", err)
		}
		e.stops = append(e.stops, sq.stop)
		squidAddr = sq.addr
	}

	// Every side must deliver the document exactly before it is timed.
	direct := directGopher(gopherURL)
	sides := e.sides
	if doGopher {
		sides["gateway gopher"] = func(c *client) error { return c.get(inAddr, gopherURL, doc) }
		sides["direct gopher"] = func(c *client) error { return direct(c, doc) }
		// The gateway's response, from memory: its headers and the document.
		resp, err := captured(inAddr, gopherURL)
		if err != nil {
			return nil, fmt.Errorf("gateway gopher: %w", err)
		}
		floor.add("/doc", resp)
		sides["http floor"] = func(c *client) error { return c.get(floorAddr, "/doc", doc) }
		sides["two legs"] = func(c *client) error {
			if err := direct(c, doc); err != nil {
				return err
			}
			return c.get(floorAddr, "/doc", doc)
		}
		e.groups = append(e.groups, []string{"gateway gopher", "direct gopher", "http floor", "two legs"})
	}
	if doMenu {
		// The page must hold the last item; the fetch is the menu as sent,
		// terminator removed (access's menu stream).
		menuURL := "gopher://" + gopherSrv.Addr() + "/1/menu"
		last := []byte("Document number 0999 of the long menu")
		directMenu := directGopher(menuURL)
		sides["gateway menu page"] = func(c *client) error {
			return c.getCheck(inAddr, "/"+menuURL, func(b []byte) error {
				if !bytes.Contains(b, last) || !bytes.HasSuffix(bytes.TrimSpace(b), []byte("</html>")) {
					return fmt.Errorf("the page lacks the last item or its end (%d bytes)", len(b))
				}
				return nil
			})
		}
		sides["direct menu fetch"] = func(c *client) error { return directMenu(c, menu[:menuItems]) }
		resp, err := captured(inAddr, "/"+menuURL)
		if err != nil {
			return nil, fmt.Errorf("gateway menu page: %w", err)
		}
		floor.add("/page", resp)
		sides["page floor"] = func(c *client) error { return c.get(floorAddr, "/page", resp.body) }
		sides["two menu legs"] = func(c *client) error {
			if err := directMenu(c, menu[:menuItems]); err != nil {
				return err
			}
			return c.get(floorAddr, "/page", resp.body)
		}
		e.groups = append(e.groups, []string{"gateway menu page", "direct menu fetch", "page floor", "two menu legs"})
	}
	if doFTP {
		sides["gateway ftp"] = func(c *client) error { return c.get(serveAddr, ftpURL, doc) }
		group := []string{"gateway ftp"}
		if squidAddr != "" {
			sides["squid ftp"] = func(c *client) error { return c.get(squidAddr, ftpURL, doc) }
			group = append(group, "squid ftp")
		}
		e.groups = append(e.groups, group)
	}
	for name, f := range sides {
		c := &client{}
		if err := f(c); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		c.close()
	}
	return e, nil
}

func run(ctx context.Context, squidBin string, window time.Duration, rounds int, levels, only string) error {
	e, err := setup(ctx, squidBin, only)
	if err != nil {
		return err
	}
	defer e.close()

	fmt.Printf("bench/gateway: %s, %d rounds of %v per side and level, interleaved; load average %s\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), rounds, window, loadAverage())
	fmt.Println("gopher: the gateway's handler in this process vs access directly; ftp: urlkit serve vs squid, each its own process")
	fmt.Println("cpu µs/req: this process's CPU time (user+system) per request, gopher sides only (all their work is in this process)")
	fmt.Printf("%-15s %3s %10s %10s %10s %8s %13s %10s\n", "side", "c", "req/s", "p50", "p99", "errors", "ftp logins/req", "cpu µs/req")
	for _, field := range strings.Split(levels, ",") {
		var conc int
		fmt.Sscan(field, &conc)
		if conc < 1 {
			continue
		}
		for _, group := range e.groups {
			res, err := e.measureGroup(ctx, group, conc, rounds, window, 0)
			if err != nil {
				return err
			}
			inProcess := group[0] == "gateway gopher" || group[0] == "gateway menu page"
			for _, name := range group {
				res[name].print(name, conc, inProcess)
			}
			if len(group) >= 2 {
				a, b := res[group[0]], res[group[1]]
				cpu := "-"
				if inProcess {
					cpu = fmt.Sprintf("%.2fx", a.cpuPerReq()/b.cpuPerReq())
				}
				fmt.Printf("%-15s %3d %9.2fx %9.2fx %9.2fx %8s %13s %10s\n", "  ratio", conc, a.rate()/b.rate(),
					float64(a.pct(50))/float64(b.pct(50)), float64(a.pct(99))/float64(b.pct(99)), "", "", cpu)
			}
			if len(group) == 4 && inProcess {
				// What of the gateway's CPU time beyond the direct fetch's
				// is the HTTP exchange itself (server and client), and
				// what the two legs together cost beyond the direct fetch.
				a, b, f, two := res[group[0]].cpuPerReq(), res[group[1]].cpuPerReq(), res[group[2]].cpuPerReq(), res[group[3]].cpuPerReq()
				fmt.Printf("%-15s %3d %s\n", "  floor", conc, fmt.Sprintf("gateway - direct = %.0f µs/req; the floor is %.0f of it, the gateway's own work %.0f", a-b, f, a-b-f))
				fmt.Printf("%-15s %3d %s\n", "  bound", conc, fmt.Sprintf("two legs / direct: rate %.2fx, p50 %.2fx, cpu %.2fx (the best a gateway can reach here); gateway - two legs = %.0f µs/req",
					res[group[3]].rate()/res[group[1]].rate(), float64(res[group[3]].pct(50))/float64(res[group[1]].pct(50)), two/b, a-two))
			}
		}
	}
	fmt.Printf("ftp upstream: %d control connections, %d logins\n", e.ftpSrv.Conns.Load(), e.ftpSrv.Logins.Load())
	return nil
}

// measureGroup measures the sides of group at conc clients in rounds,
// each side in turn, the order alternating from round to round: each turn
// lasts window, or is n requests when n > 0.
func (e *env) measureGroup(ctx context.Context, group []string, conc, rounds int, window time.Duration, n int) (map[string]*result, error) {
	res := map[string]*result{}
	for r := 0; r < rounds; r++ {
		order := append([]string(nil), group...)
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
	elapsed time.Duration
	cpu     time.Duration // this process's CPU time during the windows
	errs    int
	lastErr error
}

func (r *result) rate() float64 { return float64(len(r.lat)) / r.elapsed.Seconds() }

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

// cpuPerReq is this process's CPU time per request, in microseconds.
func (r *result) cpuPerReq() float64 {
	return float64(r.cpu.Microseconds()) / float64(max(len(r.lat), 1))
}

func (r *result) print(name string, conc int, inProcess bool) {
	cpu := "-"
	if inProcess {
		cpu = fmt.Sprintf("%.0f", r.cpuPerReq())
	}
	fmt.Printf("%-15s %3d %10.0f %10s %10s %8d %13.3f %10s\n", name, conc, r.rate(),
		r.pct(50).Round(time.Microsecond), r.pct(99).Round(time.Microsecond), r.errs, float64(r.logins)/float64(max(len(r.lat), 1)), cpu)
	if r.lastErr != nil {
		fmt.Printf("    last error: %v\n", r.lastErr)
	}
}

// measure runs conc clients calling f for window (or, when n > 0, n
// times in all) and adds to res.
func measure(ctx context.Context, f func(*client) error, conc int, window time.Duration, n int, res *result) {
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		end = time.Now().Add(window)
	)
	// The garbage of the window before (the other side's, half the time)
	// is collected before this one starts, not charged to it.
	runtime.GC()
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
				if err := f(c); err != nil {
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
	return c.getCheck(proxy, target, func(b []byte) error {
		if !bytes.Equal(b, want) {
			return fmt.Errorf("body differs (%d bytes)", len(b))
		}
		return nil
	})
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
	if _, err := io.WriteString(c.c, "GET "+target+" HTTP/1.1\r\nHost: "+proxy+"\r\nUser-Agent: urlkit-bench\r\n\r\n"); err != nil {
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

// startSquid runs Squid in the foreground (-N) on a free loopback port
// with caching off: "cache deny all", no cache_dir, no memory cache.
func startSquid(ctx context.Context, bin string) (*process, error) {
	if _, err := os.Stat(bin); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "urlkit-bench-squid-")
	if err != nil {
		return nil, err
	}
	os.Chmod(dir, 0o777)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	conf := fmt.Sprintf(`http_port %s
pid_filename %s/squid.pid
cache_log %s/cache.log
access_log none
cache_store_log none
cache deny all
cache_mem 0 MB
coredump_dir %s
acl localhost src 127.0.0.1/32
http_access allow localhost
http_access deny all
ftp_passive on
ftp_user urlkit-bench@localhost
pinger_enable off
netdb_filename none
shutdown_lifetime 0 seconds
dns_v4_first on
workers 1
`, addr, dir, dir, dir)
	if err := os.WriteFile(filepath.Join(dir, "squid.conf"), []byte(conf), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-N", "-f", filepath.Join(dir, "squid.conf"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &process{cmd: cmd, dir: dir, addr: addr}
	for i := 0; i < 200; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return s, nil
		}
		if ctx.Err() != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.stop()
	log, _ := os.ReadFile(filepath.Join(dir, "cache.log"))
	return nil, fmt.Errorf("did not start listening on %s: %s %s", addr, out.String(), log)
}

// process is a server process started by the benchmark, in its own
// process group, stopped at the end.
type process struct {
	cmd  *exec.Cmd
	dir  string
	addr string
}

func (p *process) stop() {
	if p.cmd.Process != nil {
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { p.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}
	os.RemoveAll(p.dir)
}

// startServe builds urlkit from this checkout and runs `urlkit serve` on a
// free loopback port, reading the address from its first line.
func startServe(ctx context.Context, allow []string) (*process, error) {
	dir, err := os.MkdirTemp("", "urlkit-bench-serve-")
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(dir, "urlkit")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/urlkit/urlkit/cmd/urlkit")
	if out, err := build.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("go build: %v: %s", err, out)
	}
	cmd := exec.Command(bin, "serve", "--listen", "127.0.0.1:0", "--quiet", "--max-upstream", "256", "--allow", strings.Join(allow, ","))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	p := &process{cmd: cmd, dir: dir}
	line, err := bufio.NewReader(stderr).ReadString('\n')
	const marker = "gateway on http://"
	i := strings.Index(line, marker)
	if err != nil || i < 0 {
		p.stop()
		return nil, fmt.Errorf("unexpected first line %q: %v", line, err)
	}
	p.addr = strings.TrimSuffix(strings.Fields(line[i+len(marker):])[0], "/")
	go io.Copy(io.Discard, stderr)
	return p, nil
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
