// Command gwsoak measures a real `urlkit serve` process against good and
// hostile upstreams on loopback (issue 21): the peak resident memory of
// one hostile listing of about 60 MiB, and of 64 at once; the descriptors
// after a flood of ftp directories (the session pool) and after a flood
// of idle client connections; and a soak of 32 clients for 60 s against
// good and hostile upstreams, in which every good request must be served
// and memory and descriptors must come back to their baseline.
//
//	go build -o /tmp/urlkit ./cmd/urlkit
//	go run ./internal/testkit/gwsoak -urlkit /tmp/urlkit                   # everything (about 2 minutes)
//	go run ./internal/testkit/gwsoak -urlkit /tmp/urlkit -run listings     # one part: listings, pool, conns, soak
//	go run ./internal/testkit/gwsoak -urlkit /tmp/urlkit -run listings -before /tmp/urlkit-old
//
// Peak memory is the process's VmHWM and descriptors the entries of
// /proc/PID/fd, both read from /proc (Linux only). Each measurement runs
// in a `urlkit serve` of its own, started for it. The exit status is 1
// when a bound does not hold: a listing's peak above -max-rss, a good
// request not served, descriptors or memory not back to baseline.
//
// -before runs the listing measurements with a second binary too (an
// older urlkit, whose serve takes none of the new flags), in the same
// run, to measure a change (docs/security.md gives the figures).
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/internal/testkit/hostile"
)

var (
	urlkitBin = flag.String("urlkit", "", "the urlkit binary to measure (required)")
	beforeBin = flag.String("before", "", "an older urlkit binary measured beside it (listings only)")
	runParts  = flag.String("run", "listings,pool,conns,soak", "the parts to run, comma-separated")
	soakTime  = flag.Duration("duration", 60*time.Second, "length of the soak")
	clients   = flag.Int("clients", 32, "clients of the soak, each from its own loopback address")
	maxRSS    = flag.Int64("max-rss", 100<<20, "the bound on one hostile listing's peak RSS, in bytes")
	listing   = flag.Int64("listing", 60<<20, "size of each hostile listing, in bytes")
	listing64 = flag.Int64("listing64", 8<<20, "size of each of the 64 listings served at once, in bytes")
	quick     = flag.Bool("quick", false, "lift the page caps only for the listings of long items (CI's run)")
)

var failed bool

func failf(format string, args ...any) {
	failed = true
	fmt.Printf("FAIL: "+format+"\n", args...)
}

// started holds every gateway process started, so that none outlives
// the command, however it ends.
var started struct {
	sync.Mutex
	list []*gateway
}

func stopAll() {
	started.Lock()
	defer started.Unlock()
	for _, g := range started.list {
		if g.cmd.ProcessState == nil {
			g.cmd.Process.Kill()
		}
	}
}

func main() {
	defer func() {
		if r := recover(); r != nil {
			stopAll()
			panic(r)
		}
	}()
	flag.Parse()
	if *urlkitBin == "" {
		fmt.Fprintln(os.Stderr, "gwsoak: -urlkit PATH is required (go build -o /tmp/urlkit ./cmd/urlkit)")
		os.Exit(2)
	}
	for _, part := range strings.Split(*runParts, ",") {
		start := time.Now()
		switch strings.TrimSpace(part) {
		case "listings":
			listings()
		case "pool":
			poolFlood(*urlkitBin, true)
			if *beforeBin != "" {
				poolFlood(*beforeBin, false)
			}
		case "conns":
			connFlood(*urlkitBin, true)
			if *beforeBin != "" {
				connFlood(*beforeBin, false)
			}
		case "soak":
			soak()
		default:
			fmt.Fprintf(os.Stderr, "gwsoak: no part %q (listings, pool, conns, soak)\n", part)
			os.Exit(2)
		}
		fmt.Printf("-- %s: %.0f s\n\n", part, time.Since(start).Seconds())
	}
	stopAll()
	if failed {
		os.Exit(1)
	}
}

// ---- the gateway process -------------------------------------------------------

// failIf returns failf when strict, else a function that only prints
// (the older binary is measured, not judged).
func failIf(strict bool) func(string, ...any) {
	if strict {
		return failf
	}
	return func(format string, args ...any) { fmt.Printf("   (before) "+format+"\n", args...) }
}

// serveFlags drops the flags (and their values) that bin's serve does not
// know: an older urlkit has none of issue 21's.
func serveFlags(bin string, args ...string) []string {
	help, _ := exec.Command(bin, "help", "serve").CombinedOutput()
	var keep []string
	for i := 0; i < len(args); i++ {
		if strings.HasPrefix(args[i], "--") && !bytes.Contains(help, []byte(args[i]+" ")) {
			i++ // and its value
			continue
		}
		keep = append(keep, args[i])
	}
	return keep
}

type gateway struct {
	cmd  *exec.Cmd
	addr string
	pid  int
}

// startServe runs bin serve with args on a free loopback port, with the
// descriptor limit ulimit (0: inherited), and waits for its address.
func startServe(bin string, ulimit int, args ...string) *gateway {
	argv := append([]string{"serve", "--listen", "127.0.0.1:0", "--quiet"}, args...)
	var cmd *exec.Cmd
	if ulimit > 0 {
		// The shell sets the limit and execs urlkit: the same process.
		q := make([]string, len(argv))
		for i, a := range argv {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		cmd = exec.Command("sh", "-c", fmt.Sprintf("ulimit -n %d && exec '%s' %s", ulimit, bin, strings.Join(q, " ")))
	} else {
		cmd = exec.Command(bin, argv...)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		panic(err)
	}
	if err := cmd.Start(); err != nil {
		panic(err)
	}
	br := bufio.NewReader(stderr)
	g := &gateway{cmd: cmd, pid: cmd.Process.Pid}
	started.Lock()
	started.list = append(started.list, g)
	started.Unlock()
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			panic(fmt.Sprintf("%s serve did not start: %v", bin, err))
		}
		if i := strings.Index(line, "gateway on http://"); i >= 0 {
			g.addr = strings.TrimSuffix(strings.Fields(line[i+len("gateway on http://"):])[0], "/")
			break
		}
		fmt.Printf("   serve: %s", line)
	}
	go io.Copy(io.Discard, br)
	return g
}

func (g *gateway) stop() {
	g.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { g.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		g.cmd.Process.Kill()
		<-done
	}
}

// status reads a field of /proc/PID/status in bytes ("VmHWM", "VmRSS").
func (g *gateway) status(field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", g.pid))
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, field+":") {
			f := strings.Fields(l)
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n << 10 // kB
		}
	}
	return -1
}

// fds counts the process's open descriptors.
func (g *gateway) fds() int {
	e, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", g.pid))
	if err != nil {
		return -1
	}
	return len(e)
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// client is an HTTP client whose connections come from the loopback
// address from (each address is another client to the gateway).
func client(from string, timeout time.Duration) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: timeout, Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4,
		DisableCompression: true, ResponseHeaderTimeout: timeout}}
}

// fetch asks the gateway for url (path form) and returns the status, the
// body's first max bytes and last 4 KiB, and its length.
func fetch(c *http.Client, gw, url string, max int) (int, []byte, int64, error) {
	status, head, _, n, err := fetchTail(c, gw, url, max)
	return status, head, n, err
}

func fetchTail(c *http.Client, gw, url string, keep int) (int, []byte, []byte, int64, error) {
	resp, err := c.Get("http://" + gw + "/" + url)
	if err != nil {
		return 0, nil, nil, 0, err
	}
	defer resp.Body.Close()
	var head bytes.Buffer
	n, err := io.Copy(&head, io.LimitReader(resp.Body, int64(keep)))
	tail := &tailWriter{max: 4 << 10}
	if err == nil {
		var m int64
		m, err = io.Copy(tail, resp.Body)
		n += m
	}
	if tail.b == nil {
		tail.b = head.Bytes()[max(0, head.Len()-4<<10):]
	}
	return resp.StatusCode, head.Bytes(), tail.b, n, err
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	b   []byte
	max int
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 2*t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// ---- listings ------------------------------------------------------------------

// listings: one hostile listing of -listing bytes per gateway process,
// with the default page caps and with the caps lifted (the whole listing
// streamed), then 64 at once; peak RSS of each.
func listings() {
	size := *listing
	type kind struct {
		name, url string
		allow     string
		long      bool // items of the longest kind: lifted caps always measured
	}
	menu := must(hostile.Start(0, hostile.GopherEndlessMenu(size)))
	long := must(hostile.Start(0, hostile.GopherLongMenu(size)))
	// Features: [] answers FEAT with nothing, so the gateway lists with
	// LIST (ls -l lines); an older urlkit sends NLST (names alone).
	fl := must(hostile.Start(0, (&hostile.FTP{HugeListing: size, Features: []string{}}).Serve))
	flLong := must(hostile.Start(0, (&hostile.FTP{HugeListing: size, HugeNameLen: 60000, Features: []string{}}).Serve))
	news := must(hostile.Start(0, hostile.NNTPHugeListing(size, 0)))
	newsLong := must(hostile.Start(0, hostile.NNTPHugeListing(size, 60000)))
	defer func() {
		for _, s := range []*hostile.Server{menu, long, fl, flLong, news, newsLong} {
			s.Close()
		}
	}()
	kinds := []kind{
		{"gopher menu, 100-byte items", "gopher://" + menu.Addr + "/1", menu.Addr, false},
		{"gopher menu, 16 KB items of markup", "gopher://" + long.Addr + "/1", long.Addr, true},
		{"ftp directory, 100-byte lines", "ftp://" + fl.Addr + "/pub/", fl.Addr, false},
		{"ftp directory, 60 KB names of markup", "ftp://" + flLong.Addr + "/pub/", flLong.Addr, true},
		{"news overview, 100-byte lines", "nntp://" + news.Addr + "/alt.hostile", news.Addr, false},
		{"news overview, 60 KB subjects", "nntp://" + newsLong.Addr + "/alt.hostile", newsLong.Addr, true},
	}
	fmt.Printf("== listings: one hostile listing of %s per fresh `urlkit serve`, peak RSS (VmHWM)\n", mib(size))
	fmt.Printf("%-36s %-10s %10s %10s %8s  %s\n", "listing", "binary", "peak RSS", "page", "time", "answer")
	bins := []string{*urlkitBin}
	if *beforeBin != "" {
		bins = append(bins, *beforeBin)
	}
	for _, k := range kinds {
		for _, bin := range bins {
			modes := []string{"default", "no caps"}
			if *quick && !k.long {
				modes = modes[:1]
			}
			if bin == *beforeBin {
				modes = []string{"before"}
			}
			for _, mode := range modes {
				args := []string{"--max-size", strconv.FormatInt(64<<20, 10)}
				if bin != *beforeBin {
					args = append(args, "--allow", k.allow)
					if mode == "no caps" {
						args = append(args, "--max-page-items", "1000000000", "--max-page-bytes", "1099511627776")
					}
				}
				g := startServe(bin, 0, args...)
				start := time.Now()
				status, _, tail, n, err := fetchTail(client("127.0.0.1", 5*time.Minute), g.addr, k.url, 1<<20)
				took := time.Since(start)
				hwm := g.status("VmHWM")
				g.stop()
				answer := fmt.Sprintf("%d", status)
				switch {
				case err != nil:
					answer += " " + err.Error()
				case bytes.Contains(tail, []byte(`class="truncated"`)):
					answer += ", truncated at its cap"
				case bytes.Contains(tail, []byte("</html>")):
					answer += ", whole"
				default:
					answer += ": " + strings.TrimSpace(string(tail[max(0, len(tail)-200):]))
				}
				fmt.Printf("%-36s %-10s %10s %10s %7.1fs  %s\n", k.name, mode, mib(hwm), mib(n), took.Seconds(), answer)
				if bin == *urlkitBin && hwm > *maxRSS {
					failf("%s (%s): peak RSS %s above %s", k.name, mode, mib(hwm), mib(*maxRSS))
				}
				if bin == *urlkitBin && (status != 200 || err != nil) {
					failf("%s (%s): %d %v", k.name, mode, status, err)
				}
			}
		}
	}
	// 64 at once, caps lifted: the total bound is the slots times one
	// request's. 16 clients (4 each, the per-client cap is 16) and the
	// per-server cap lifted, since every listing comes from one server.
	menu64 := must(hostile.Start(0, hostile.GopherEndlessMenu(*listing64)))
	long64 := must(hostile.Start(0, hostile.GopherLongMenu(*listing64)))
	defer menu64.Close()
	defer long64.Close()
	g := startServe(*urlkitBin, 0, "--max-size", strconv.FormatInt(64<<20, 10), "--allow", long64.Addr+","+menu64.Addr,
		"--max-page-items", "1000000000", "--max-page-bytes", "1099511627776", "--max-upstream-per-target", "64")
	var wg sync.WaitGroup
	var bad atomic.Int64
	var total atomic.Int64
	start := time.Now()
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := "gopher://" + long64.Addr + "/1"
			if i%2 == 1 {
				u = "gopher://" + menu64.Addr + "/1"
			}
			status, _, n, err := fetch(client(fmt.Sprintf("127.0.0.%d", 100+i%16), 10*time.Minute), g.addr, u, 0)
			total.Add(n)
			if status != 200 || err != nil {
				bad.Add(1)
			}
		}()
	}
	wg.Wait()
	hwm := g.status("VmHWM")
	g.stop()
	fmt.Printf("%-36s %-10s %10s %10s %7.1fs  %d of 64 failed\n", fmt.Sprintf("64 at once, %s menus", mib(*listing64)), "no caps", mib(hwm), mib(total.Load()), time.Since(start).Seconds(), bad.Load())
	if bad.Load() > 0 {
		failf("64 listings at once: %d failed", bad.Load())
	}
}

// ---- the ftp session pool ------------------------------------------------------

// poolFlood: 300 requests for 300 distinct ftp directories, then the
// descriptors right after and once the reaper has run.
func poolFlood(bin string, strict bool) {
	failf := failIf(strict)
	// Five servers, 60 directories each: the per-server cap (8) and the
	// pool's cap (32) both bind.
	var fs []*hostile.FTP
	var srvs []*hostile.Server
	var addrs []string
	for i := 0; i < 5; i++ {
		f := &hostile.FTP{Files: map[string][]byte{"f": []byte("file\n")}}
		srv := must(hostile.Start(0, f.Serve))
		defer srv.Close()
		fs, srvs, addrs = append(fs, f), append(srvs, srv), append(addrs, srv.Addr)
	}
	open := func() (n int64) {
		for _, s := range srvs {
			n += s.Open()
		}
		return n
	}
	quits := func() (n int64) {
		for _, f := range fs {
			n += f.Quits.Load()
		}
		return n
	}
	g := startServe(bin, 0, serveFlags(bin, "--allow", strings.Join(addrs, ","), "--ftp-idle-timeout", "3s")...)
	defer g.stop()
	c := client("127.0.0.1", 30*time.Second)
	fetch(c, g.addr, "ftp://"+addrs[0]+"/warm/f", 1<<10)
	time.Sleep(4 * time.Second) // the warm-up session reaped
	c.CloseIdleConnections()
	base := g.fds()
	fmt.Printf("== pool: 300 ftp directories on 5 servers, one request each, 8 clients at once (--ftp-idle-timeout 3s), %s\n", bin)
	var wg sync.WaitGroup
	var bad atomic.Int64
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl := client("127.0.0.1", 30*time.Second)
			defer cl.CloseIdleConnections()
			for i := w; i < 300; i += 8 {
				if status, body, _, err := fetch(cl, g.addr, fmt.Sprintf("ftp://%s/d%03d/f", addrs[i%5], i), 1<<10); status != 200 || string(body) != "file\n" || err != nil {
					bad.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	time.Sleep(200 * time.Millisecond)
	after, upAfter := g.fds(), open()
	time.Sleep(4 * time.Second)
	reaped, upReaped := g.fds(), open()
	fmt.Printf("descriptors: %d before, %d after the burst (%d ftp sessions open upstream), %d 4 s later (%d open upstream); QUITs received: %d; failed requests: %d\n",
		base, after, upAfter, reaped, upReaped, quits(), bad.Load())
	if bad.Load() > 0 {
		failf("pool: %d requests failed", bad.Load())
	}
	if upAfter > 32 || after > base+32+4 {
		failf("pool: %d sessions kept (%d descriptors), more than the cap of 32", upAfter, after)
	}
	if reaped > base || upReaped != 0 {
		failf("pool: descriptors %d after the reaper, baseline %d, %d sessions still open", reaped, base, upReaped)
	}
}

// ---- client connections ----------------------------------------------------------

// connFlood: 600 idle keep-alive connections against a gateway limited to
// 512 descriptors, then a good request, then the descriptors once they
// are closed.
func connFlood(bin string, strict bool) {
	failf := failIf(strict)
	up := must(fakeservers.Gopher(map[string][]byte{"/a": []byte("good")}))
	defer up.Close()
	g := startServe(bin, 512, serveFlags(bin, "--allow", up.Addr())...)
	defer g.stop()
	target := "gopher://" + up.Addr() + "/9/a"
	base := g.fds()
	fmt.Printf("== conns: 600 idle keep-alive connections from 20 loopback addresses, `ulimit -n 512`, %s\n", bin)
	var (
		mu              sync.Mutex
		conns           []net.Conn
		refused, broken int
		wg              sync.WaitGroup
		errs            = map[string]int{}
	)
	for w := 0; w < 20; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < 600; i += 20 {
				d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(fmt.Sprintf("127.0.1.%d", 1+w))}, Timeout: 3 * time.Second}
				c, err := d.Dial("tcp", g.addr)
				if err == nil {
					mu.Lock()
					conns = append(conns, c)
					mu.Unlock()
					c.SetDeadline(time.Now().Add(3 * time.Second))
					fmt.Fprintf(c, "GET /%s HTTP/1.1\r\nHost: %s\r\n\r\n", target, g.addr)
					var resp *http.Response
					if resp, err = http.ReadResponse(bufio.NewReader(c), nil); err == nil {
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						if resp.StatusCode == 503 {
							mu.Lock()
							refused++
							mu.Unlock()
						}
					}
				}
				if err != nil {
					msg := err.Error()
					if i := strings.LastIndex(msg, ": "); i >= 0 {
						msg = msg[i+2:]
					}
					mu.Lock()
					broken++
					errs[msg]++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if broken > 0 {
		failf("conns: %d connections without an answer: %v", broken, errs)
	}
	time.Sleep(200 * time.Millisecond)
	during := g.fds()
	start := time.Now()
	gc := client("127.0.0.1", 5*time.Second)
	status, body, _, err := fetch(gc, g.addr, target, 100)
	took := time.Since(start)
	gc.CloseIdleConnections()
	for _, c := range conns {
		c.Close()
	}
	time.Sleep(time.Second)
	after := g.fds()
	fmt.Printf("descriptors: %d before, %d with 600 connections made (%d answered 503, %d without an answer), %d after they closed; a good request: %d %q %v in %v\n",
		base, during, refused, broken, after, status, body, err, took.Round(time.Millisecond))
	if status != 200 || string(body) != "good" || err != nil || took > 2*time.Second {
		failf("conns: the good request: %d %q %v after %v", status, body, err, took)
	}
	if during > 300 {
		failf("conns: %d descriptors with the flood; the cap is 256 client connections", during)
	}
	if after > base {
		failf("conns: %d descriptors after, baseline %d", after, base)
	}
}

// ---- the soak ---------------------------------------------------------------------

// soak: -clients clients for -duration, each from its own loopback
// address, asking for good resources (checked byte for byte) and, one
// request in four, a hostile upstream (drip, endless, garbage, closed,
// silent), which they give up on after 3 s. Every good request must be
// served; memory and descriptors must come back.
func soak() {
	doc := bytes.Repeat([]byte("good gopher text\r\n"), 100)
	menu := []byte("0Doc\t/doc\t127.0.0.1\t70\r\n1Menu\t/menu\t127.0.0.1\t70\r\n.\r\n")
	gs := must(fakeservers.Gopher(map[string][]byte{"/doc": doc, "/menu": menu}))
	defer gs.Close()
	ftpFile := bytes.Repeat([]byte{0, 1, 2, 3, 4, 5, 6, 7}, 20000) // 160 KB: past the first buffer
	fs := must(fakeservers.FTP(map[string][]byte{"/pub/f.bin": ftpFile, "/pub/g.txt": []byte("small\n")}))
	defer fs.Close()
	drip := must(hostile.Start(0, hostile.Drip("", 200*time.Millisecond)))
	endless := must(hostile.Start(0, hostile.GopherEndlessMenu(0)))
	garbage := must(hostile.Start(0, hostile.Garbage(1<<20)))
	closed := must(hostile.Start(0, hostile.Closed))
	silent := must(hostile.Start(0, hostile.Silent))
	for _, s := range []*hostile.Server{drip, endless, garbage, closed, silent} {
		defer s.Close()
	}
	good := []struct {
		url  string
		want func([]byte) bool
	}{
		{"gopher://" + gs.Addr() + "/0/doc", func(b []byte) bool { return bytes.Equal(b, doc) }},
		{"gopher://" + gs.Addr() + "/1/menu", func(b []byte) bool { return bytes.Contains(b, []byte(">Menu</a>")) }},
		{"ftp://" + fs.Addr() + "/pub/f.bin", func(b []byte) bool { return bytes.Equal(b, ftpFile) }},
		{"ftp://" + fs.Addr() + "/pub/g.txt", func(b []byte) bool { return string(b) == "small\n" }},
		{"ftp://" + fs.Addr() + "/pub/", func(b []byte) bool { return bytes.Contains(b, []byte(`href="./f.bin"`)) }},
	}
	bad := []string{
		"gopher://" + drip.Addr + "/0/drip", "gopher://" + endless.Addr + "/1/endless", "gopher://" + garbage.Addr + "/1/garbage",
		"gopher://" + garbage.Addr + "/0/garbage", "gopher://" + closed.Addr + "/1/closed", "gopher://" + silent.Addr + "/0/silent",
	}
	allow := []string{gs.Addr(), fs.Addr(), drip.Addr, endless.Addr, garbage.Addr, closed.Addr, silent.Addr}
	g := startServe(*urlkitBin, 0, "--allow", strings.Join(allow, ","), "--ftp-idle-timeout", "2s", "--idle-timeout", "2s")
	defer g.stop()
	// Baseline: after one of each request, good and hostile (every code
	// path has been run once), idle again.
	warm, warmBad := client("127.0.0.1", 30*time.Second), client("127.0.0.1", 3*time.Second)
	for _, r := range good {
		fetch(warm, g.addr, r.url, 1<<20)
	}
	for _, u := range bad {
		fetch(warmBad, g.addr, u, 1<<10)
	}
	warm.CloseIdleConnections()
	warmBad.CloseIdleConnections()
	time.Sleep(5 * time.Second)
	// Anonymous memory (RssAnon) is the process's own; VmRSS adds the
	// pages of the binary it has read, which only grow as code runs.
	baseFDs, baseRSS, baseAnon := g.fds(), g.status("VmRSS"), g.status("RssAnon")
	fmt.Printf("== soak: %d clients for %v, good and hostile upstreams (drip, endless, garbage, closed, silent)\n", *clients, *soakTime)
	ctx, cancel := context.WithTimeout(context.Background(), *soakTime)
	defer cancel()
	var goodN, goodBad, badN atomic.Int64
	var statuses sync.Map
	var wg sync.WaitGroup
	var peakFDs atomic.Int64
	go func() { // sample descriptors
		for ctx.Err() == nil {
			if n := int64(g.fds()); n > peakFDs.Load() {
				peakFDs.Store(n)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	for i := 0; i < *clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			from := fmt.Sprintf("127.0.2.%d", 1+i)
			gc, hc := client(from, 30*time.Second), client(from, 3*time.Second)
			defer gc.CloseIdleConnections()
			defer hc.CloseIdleConnections()
			rnd := rand.New(rand.NewSource(int64(i)))
			for ctx.Err() == nil {
				if rnd.Intn(4) == 0 {
					status, _, _, err := fetch(hc, g.addr, bad[rnd.Intn(len(bad))], 1<<10)
					key := strconv.Itoa(status)
					if err != nil {
						key = "client gave up"
						var ne net.Error
						if !errors.As(err, &ne) || !ne.Timeout() {
							key = "cut: " + strconv.Itoa(status)
						}
					}
					v, _ := statuses.LoadOrStore(key, new(atomic.Int64))
					v.(*atomic.Int64).Add(1)
					badN.Add(1)
					continue
				}
				r := good[rnd.Intn(len(good))]
				status, body, _, err := fetch(gc, g.addr, r.url, 1<<20)
				goodN.Add(1)
				if status != 200 || err != nil || !r.want(body) {
					goodBad.Add(1)
					fmt.Printf("   good request failed: %s: %d %v\n", r.url, status, err)
				}
			}
		}()
	}
	wg.Wait()
	peakRSS := g.status("VmHWM")
	time.Sleep(500 * time.Millisecond)
	endFDs := g.fds()
	var st []string
	statuses.Range(func(k, v any) bool { st = append(st, fmt.Sprintf("%s: %d", k, v.(*atomic.Int64).Load())); return true })
	fmt.Printf("good requests: %d, %d not served; hostile requests: %d (%s)\n", goodN.Load(), goodBad.Load(), badN.Load(), strings.Join(st, ", "))
	// Back to baseline: the idle timeouts (2 s client connections, 2 s ftp
	// sessions) have passed, and the runtime has had time to give memory
	// back.
	var fds int
	var rss, anon int64
	slack := int64(4 << 20) // the runtime's own caches and metadata (1.6 MiB measured)
	for i := 0; i < 20; i++ {
		time.Sleep(time.Second)
		fds, rss, anon = g.fds(), g.status("VmRSS"), g.status("RssAnon")
		if fds <= baseFDs && anon <= baseAnon+slack && i >= 4 {
			break
		}
	}
	fmt.Printf("descriptors: %d at baseline, %d at the peak, %d when the clients stopped, %d afterwards\n", baseFDs, peakFDs.Load(), endFDs, fds)
	fmt.Printf("memory: RSS %s at baseline (anonymous %s), %s at the peak, %s afterwards (anonymous %s)\n",
		mib(baseRSS), mib(baseAnon), mib(peakRSS), mib(rss), mib(anon))
	if goodBad.Load() > 0 || goodN.Load() == 0 {
		failf("soak: %d of %d good requests not served", goodBad.Load(), goodN.Load())
	}
	if fds > baseFDs {
		failf("soak: %d descriptors afterwards, baseline %d", fds, baseFDs)
	}
	if anon > baseAnon+slack {
		failf("soak: anonymous memory %s afterwards, baseline %s", mib(anon), mib(baseAnon))
	}
}
