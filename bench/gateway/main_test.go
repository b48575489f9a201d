package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The benchmarks below measure the in-process parts of the command (the
// gateway's handler against fetching directly, for gopher and for a
// 1,000-item menu's page): the same sides as `go run ./bench/gateway
// -only gopher-handler` and `-only menu-handler`, set up by the same code,
// measured the same way (this process's CPU time per request, every side
// in turn, the order alternating), b.N requests per side in four rounds.
// The two legs side (the direct fetch, then the floor's exchange) bounds
// what any gateway can reach in this harness. They report each side's CPU
// time per request and the ratios; the rates depend on the machine's load
// (docs/performance.md says how to read them), the CPU ratios much less.
// Run them with
//
//	go test ./bench/gateway -run X -bench . -benchtime 4000x -count 3

func BenchmarkGopher8(b *testing.B)  { benchGroup(b, "gopher-handler", 8) }
func BenchmarkGopher32(b *testing.B) { benchGroup(b, "gopher-handler", 32) }
func BenchmarkMenu1(b *testing.B)    { benchGroup(b, "menu-handler", 1) }

// benchGroup measures the in-process group of part at conc clients.
func benchGroup(b *testing.B, part string, conc int) {
	e, err := setup(context.Background(), "", map[string]bool{part: true})
	if err != nil {
		b.Fatal(err)
	}
	defer e.close()
	group := e.groups[0].sides
	b.ResetTimer()
	res, err := e.measureGroup(context.Background(), group, conc, 4, 0, max(b.N/4, 1))
	if err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	for _, name := range group {
		if r := res[name]; r.errs > 0 {
			b.Fatalf("%s: %d errors, the last: %v", name, r.errs, r.lastErr)
		}
	}
	gw, direct, floor, two := res[group[0]], res[group[1]], res[group[2]], res[group[3]]
	b.ReportMetric(gw.cpuPerReq(), "gateway-cpu-µs/req")
	b.ReportMetric(direct.cpuPerReq(), "direct-cpu-µs/req")
	b.ReportMetric(floor.cpuPerReq(), "floor-cpu-µs/req")
	b.ReportMetric(gw.cpuPerReq()/direct.cpuPerReq(), "cpu-ratio")
	b.ReportMetric(gw.rate()/direct.rate(), "rate-ratio")
	b.ReportMetric(float64(gw.pct(50))/float64(direct.pct(50)), "p50-ratio")
	// The two legs with nothing between them: the best any gateway can
	// reach here, and the gateway's own work beyond them.
	b.ReportMetric(two.rate()/direct.rate(), "bound-rate-ratio")
	b.ReportMetric(gw.cpuPerReq()-two.cpuPerReq(), "gateway-beyond-legs-µs/req")
}

// A request to a proxy for a URL is in absolute form, its Host the URL's
// authority without userinfo; a request for a path is in origin form, its
// Host the server's (RFC 7230 sections 5.3.1, 5.3.2 and 5.4). Squid and
// urlkit serve are asked the same way.
func TestRequestHead(t *testing.T) {
	for _, tc := range []struct{ target, want string }{
		{"gopher://127.0.0.1:7070/9/d2k", "GET gopher://127.0.0.1:7070/9/d2k HTTP/1.1\r\nHost: 127.0.0.1:7070\r\n"},
		{"ftp://anonymous:x@[::1]:2121/pub/f?x", "GET ftp://anonymous:x@[::1]:2121/pub/f?x HTTP/1.1\r\nHost: [::1]:2121\r\n"},
		{"gopher://h.example", "GET gopher://h.example HTTP/1.1\r\nHost: h.example\r\n"},
		{"/gopher://127.0.0.1:7070/1/menu", "GET /gopher://127.0.0.1:7070/1/menu HTTP/1.1\r\nHost: 127.0.0.1:3128\r\n"},
	} {
		got := requestHead("127.0.0.1:3128", tc.target)
		if !strings.HasPrefix(got, tc.want) || !strings.HasSuffix(got, "\r\n\r\n") || strings.Count(got, "\r\n\r\n") != 1 {
			t.Errorf("requestHead(%q) = %q, want it to start %q and end with one empty line", tc.target, got, tc.want)
		}
	}
}

// The ratios are one side's figures over another's; CPU time counts this
// process's and the server process's, per request.
func TestRatioOf(t *testing.T) {
	ms := time.Millisecond
	lat := func(n int, d time.Duration) []time.Duration {
		l := make([]time.Duration, n)
		for i := range l {
			l[i] = d + time.Duration(i)*time.Microsecond
		}
		return l
	}
	// urlkit: 100 requests in 1 s, 4 ms here and 6 ms in its server: 100 µs a request.
	a := &result{lat: lat(100, ms), elapsed: time.Second, cpu: 4 * ms, srvCPU: 6 * ms}
	// direct: 200 requests in 1 s, 10 ms here: 50 µs a request.
	b := &result{lat: lat(200, ms/2), elapsed: time.Second, cpu: 10 * ms}
	if got := a.totalPerReq(); got != 100 {
		t.Errorf("totalPerReq = %v, want 100", got)
	}
	if got, want := a.srvPerReq(), 60.0; got != want {
		t.Errorf("srvPerReq = %v, want %v", got, want)
	}
	r := ratioOf(a, b)
	if r.rate != 0.5 || r.cpu != 2 {
		t.Errorf("ratioOf = %+v, want rate 0.5 and cpu 2", r)
	}
	// The medians: a's 50th of 100 is 1 ms + 49 µs, b's 100th of 200 is 0.5 ms + 99 µs.
	if want := float64(ms+49*time.Microsecond) / float64(ms/2+99*time.Microsecond); r.p50 != want {
		t.Errorf("p50 ratio = %v, want %v", r.p50, want)
	}
	if z := ratioOf(a, &result{}); z.rate != 0 || z.p50 != 0 || z.p99 != 0 || z.cpu != 0 {
		t.Errorf("ratio over an empty side = %+v, want zeros", z)
	}
}

// The goals' report gives issue 36's ratios at 8 and 32 clients and says
// whether each goal is met.
func TestGoalReport(t *testing.T) {
	side := func(n int, cpu time.Duration) *result {
		return &result{n: n, elapsed: time.Second, cpu: cpu}
	}
	all := map[string]map[int]map[string]*result{
		"gopher": {
			1:  {urlkitGopher: side(10, 0), directGopherS: side(10, 0)},
			8:  {urlkitGopher: side(90, 9e6), directGopherS: side(100, 5e6), squidGopher: side(60, 9e6)},
			32: {urlkitGopher: side(80, 6.4e6), directGopherS: side(100, 5e6), rawGopher: side(80, 4e6), nethttpGopher: side(80, 6e6)},
		},
		"menu": {
			1:  {urlkitMenu: side(10, 15e6), directMenu: side(10, 10e6)},
			8:  {urlkitMenu: side(10, 30e6), directMenu: side(10, 10e6), rawMenu: side(10, 15e6)},
			32: {urlkitMenu: side(10, 30e6), directMenu: side(10, 10e6), rawMenu: side(10, 20e6), rawMenuRelay: side(10, 12e6)},
		},
	}
	got := goalReport(all)
	for _, want := range []string{
		"gopher,  8 clients: urlkit/direct rate 0.90x (goal >= 0.85x: met), cpu 2.00x; urlkit/squid rate 1.50x (goal >= 1.30x: met), cpu 0.67x\n",
		"gopher, 32 clients: urlkit/direct rate 0.80x (goal >= 0.85x: not met), cpu 1.60x\n",
		"menu page,  1 clients: urlkit/direct cpu 1.50x (goal <= 1.50x: met), 500 ns an item beyond the fetch\n",
		// The raw gateway: a floor below the goal puts it beyond reach,
		// one at or above it leaves it within.
		"gopher, 32 clients: urlkit/direct rate 0.80x (goal >= 0.85x: not met), cpu 1.60x\n" +
			"    the raw floor: raw/direct rate 0.80x, cpu 1.00x; urlkit/raw rate 1.00x, cpu 1.60x: the rate goal of 0.85x is beyond the physical floor of this harness (the raw gateway reaches a rate of 0.80x the direct fetch's)\n",
		"menu page,  8 clients: urlkit/direct cpu 3.00x (goal <= 1.50x: not met), 2000 ns an item beyond the fetch\n" +
			"    the raw floor: raw/direct cpu 1.50x, urlkit/raw cpu 2.00x: the cpu goal of 1.50x is within the floor's reach\n",
		"menu page, 32 clients: urlkit/direct cpu 3.00x (goal <= 1.50x: not met), 2000 ns an item beyond the fetch\n" +
			"    the raw floor: raw/direct cpu 2.00x, urlkit/raw cpu 1.50x: the cpu goal of 1.50x is beyond the physical floor of this harness (the raw gateway reaches a cpu of 2.00x the direct fetch's)\n" +
			// The relay floor: the menu's own bytes, no page.
			fmt.Sprintf("    the relay floor (the menu's own %d bytes moved, no page): relay/direct cpu 1.20x: the cpu goal of 1.50x is within the floor's reach\n", menuBytes),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("goalReport lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "net/http's server") != 1 {
		t.Errorf("goalReport gives the net/http split %d times, want 1 (where it was measured):\n%s", strings.Count(got, "net/http's server"), got)
	}
	if strings.Count(got, "raw floor") != 3 {
		t.Errorf("goalReport gives the raw floor %d times, want 3 (where it was measured):\n%s", strings.Count(got, "raw floor"), got)
	}
	if strings.Count(got, "relay floor") != 1 {
		t.Errorf("goalReport gives the relay floor %d times, want 1 (where it was measured):\n%s", strings.Count(got, "relay floor"), got)
	}
	if strings.Contains(got, " 1 clients: urlkit/direct rate") {
		t.Errorf("goalReport gives gopher at 1 client, which item 6 does not name:\n%s", got)
	}
	if goalReport(map[string]map[int]map[string]*result{}) != "" {
		t.Error("goalReport of nothing measured is not empty")
	}
}

func TestSelectParts(t *testing.T) {
	all, err := selectParts("")
	if err != nil || len(all) != len(parts) {
		t.Errorf(`selectParts("") = %v, %v; want every part`, all, err)
	}
	two, err := selectParts("menu, gopher")
	if err != nil || len(two) != 2 || !two["menu"] || !two["gopher"] {
		t.Errorf(`selectParts("menu, gopher") = %v, %v`, two, err)
	}
	if _, err := selectParts("gopher,squid"); err == nil || !strings.Contains(err.Error(), `"squid"`) {
		t.Errorf(`selectParts("gopher,squid") = %v, want an error naming "squid"`, err)
	}
	if l, err := parseLevels("8, 32"); err != nil || len(l) != 2 || l[0] != 8 || l[1] != 32 {
		t.Errorf(`parseLevels("8, 32") = %v, %v`, l, err)
	}
	for _, bad := range []string{"0", "8,", "x"} {
		if _, err := parseLevels(bad); err == nil {
			t.Errorf("parseLevels(%q) gave no error", bad)
		}
	}
}

// A /proc/PID/stat line (proc(5)): the command in parentheses may hold
// spaces and parentheses; the process group is field 5, the CPU times
// fields 14 to 17.
func TestParseStat(t *testing.T) {
	line := "4242 (squid (coord) x) S 1 4240 4240 0 -1 4194560 900 0 0 0 120 30 7 3 20 0 1 0 100 1000 200 rest\n"
	st, err := parseStat([]byte(line))
	if err != nil || st != (stat{'S', 4240, 160}) {
		t.Errorf("parseStat = %+v, %v; want state S, group 4240, 160 ticks", st, err)
	}
	for _, bad := range []string{"4242 squid S 1", "4242 (squid) S 1 4240 4240", "4242 (squid) S 1 x 4240 0 -1 0 0 0 0 0 1 1 1 1"} {
		if _, err := parseStat([]byte(bad)); err == nil {
			t.Errorf("parseStat(%q) gave no error", bad)
		}
	}
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Skip("no /proc:", err)
	}
	if st, err := parseStat(b); err != nil || st.pgrp != syscall.Getpgrp() || st.state != 'R' {
		t.Errorf("parseStat(/proc/self/stat) = %+v, %v; want group %d, running", st, err, syscall.Getpgrp())
	}
}

// A server process's CPU time is its process group's, children included,
// from /proc; stop ends the whole group and removes its directory.
func TestProcessCPUAndStop(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc:", err)
	}
	dir := t.TempDir()
	// A child that spins, then sleeps, under a shell that waits for it.
	p := &process{dir: filepath.Join(dir, "run")}
	os.Mkdir(p.dir, 0o755)
	spin := `i=0; while [ $i -lt 3000000 ]; do i=$((i+1)); done; sleep 100`
	if err := p.start(exec.Command("sh", "-c", "sh -c '"+spin+"' & wait"), nil); err != nil {
		t.Fatal(err)
	}
	defer p.stop()
	started := time.Now()
	var cpu time.Duration
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cpu = p.cpu(); cpu >= 200*time.Millisecond {
			break
		}
	}
	if cpu < 200*time.Millisecond {
		t.Fatalf("the group's CPU time is %v, want 200 ms or more from its spinning child", cpu)
	}
	// One process spins at a time: the group's CPU time is within its
	// wall time (and one clock tick).
	if wall := time.Since(started) + clockTick; cpu > wall {
		t.Errorf("the group's CPU time %v is more than its wall time %v: other processes counted", cpu, wall)
	}
	if none := groupCPU("/proc", 1<<30); none != 0 {
		t.Errorf("group 1<<30, beyond any pid, has CPU time %v", none)
	}
	if n := groupLive("/proc", p.cmd.Process.Pid); n < 2 {
		t.Errorf("%d processes live in the group, want 2 or more (the shell and its child)", n)
	}
	pid := p.cmd.Process.Pid
	p.stop()
	if n := groupLive("/proc", pid); n != 0 {
		t.Errorf("after stop, %d processes of its group live on", n)
	}
	if _, err := os.Stat(p.dir); !os.IsNotExist(err) {
		t.Errorf("after stop, its directory: %v", err)
	}
	p.stop() // twice is fine
}

// The configuration Squid gets is squid/squid.conf.in's: on loopback, with
// caching off, every placeholder filled in.
func TestSquidConfig(t *testing.T) {
	conf, err := squidConfig("/tmp/run", "127.0.0.1:3129")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nhttp_port 127.0.0.1:3129\n", "\ncache deny all\n", "\ncache_mem 0 MB\n", "\npid_filename /tmp/run/squid.pid\n", "\nhttp_access deny all\n"} {
		if !strings.Contains(conf, want) {
			t.Errorf("the configuration lacks %q", want)
		}
	}
	if strings.Contains(conf, "@") && strings.Contains(conf, "@WORK@") || strings.Contains(conf, "@PORT@") || strings.Contains(conf, "cache_dir") {
		t.Errorf("a placeholder left, or a cache directory:\n%s", conf)
	}
	for _, addr := range []string{"0.0.0.0:3128", "[::]:3128", "192.0.2.1:3128", "3128"} {
		if _, err := squidConfig("/tmp/run", addr); err == nil {
			t.Errorf("squidConfig for %q gave no error", addr)
		}
	}
}

// TestMain lets the test binary stand in for Squid (URLKIT_BENCH_FAKE_SQUID
// set): it listens where the configuration it is given says, or exits at
// once, or never listens, as the variable asks.
//
// With the hidden first argument rawMode, it is the raw gateway, as the
// benchmark's own binary is (main).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == rawMode {
		os.Exit(rawMain(os.Args[2:]))
	}
	switch os.Getenv("URLKIT_BENCH_FAKE_SQUID") {
	case "":
		os.Exit(m.Run())
	case "exit":
		os.Exit(3)
	case "mute":
		time.Sleep(time.Hour)
	case "listen":
		conf, err := os.ReadFile(os.Args[len(os.Args)-1])
		if err != nil {
			os.Exit(4)
		}
		for _, l := range strings.Split(string(conf), "\n") {
			if a, ok := strings.CutPrefix(l, "http_port "); ok {
				if ln, err := net.Listen("tcp", a); err == nil {
					defer ln.Close()
					time.Sleep(time.Hour)
				}
			}
		}
		os.Exit(5)
	}
}

// startSquid leaves nothing behind when Squid exits at once, never
// listens or is interrupted, and stop removes what it started.
func TestStartSquidCleansUp(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	left := func(when string) {
		t.Helper()
		if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
			t.Errorf("%s: %s left in TMPDIR", when, ents[0].Name())
		}
	}
	if _, err := startSquid(context.Background(), filepath.Join(tmp, "no-squid")); err == nil || !strings.Contains(err.Error(), "build.sh") {
		t.Errorf("a missing squid: %v, want an error naming the build script", err)
	}
	t.Setenv("URLKIT_BENCH_FAKE_SQUID", "exit")
	if _, err := startSquid(context.Background(), self); err == nil || !strings.Contains(err.Error(), "exited") {
		t.Errorf("a squid that exits: %v, want an error saying it exited", err)
	}
	left("after a squid that exits")
	t.Setenv("URLKIT_BENCH_FAKE_SQUID", "mute")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := startSquid(ctx, self); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a squid interrupted before it listens: %v, want the context's error", err)
	}
	left("after an interrupted squid")
	t.Setenv("URLKIT_BENCH_FAKE_SQUID", "listen")
	p, err := startSquid(context.Background(), self)
	if err != nil {
		t.Fatal(err)
	}
	conf, _ := os.ReadFile(filepath.Join(p.dir, "squid.conf"))
	if !strings.Contains(string(conf), "http_port "+p.addr+"\n") {
		t.Errorf("squid listens on %s, its configuration says otherwise:\n%s", p.addr, conf)
	}
	pid := p.cmd.Process.Pid
	p.stop()
	if n := groupLive("/proc", pid); n != 0 {
		t.Errorf("after stop, %d processes of squid's group live on", n)
	}
	left("after stop")
}

// The in-process parts set up as the command sets them up: every side
// delivers its document (setup checks each once), in the groups the
// report expects, and a few requests a side measure without errors.
func TestSetupHandlerParts(t *testing.T) {
	e, err := setup(context.Background(), "", map[string]bool{"gopher-handler": true, "menu-handler": true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.close()
	want := [][]string{{handlerGopher, directGopherS, httpFloor, twoLegs}, {handlerMenu, directMenu, pageFloor, twoMenuLegs}}
	measureEachGroup(t, e, want)
}

// measureEachGroup checks that e's groups have the sides of want, in
// order, and that every side answers its 16 requests (two rounds at 8
// clients) without an error; it returns the process IDs of the sides
// that ask a process of their own.
func measureEachGroup(t *testing.T, e *env, want [][]string) []int {
	t.Helper()
	if len(e.groups) != len(want) {
		t.Fatalf("%d groups, want %d", len(e.groups), len(want))
	}
	var pids []int
	for i, g := range e.groups {
		if strings.Join(g.sides, ",") != strings.Join(want[i], ",") {
			t.Errorf("group %s: sides %v, want %v", g.part, g.sides, want[i])
		}
		res, err := e.measureGroup(context.Background(), g.sides, 2, 2, 0, 8)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range g.sides {
			if r := res[name]; r.errs > 0 || r.count() != 16 {
				t.Errorf("%s: %d requests, %d errors (the last: %v); want 16 without errors", name, r.count(), r.errs, r.lastErr)
			}
			if p := e.sides[name].proc; p != nil {
				pids = append(pids, p.cmd.Process.Pid)
			}
		}
	}
	return pids
}
