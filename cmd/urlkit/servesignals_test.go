//go:build unix

package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// slowGopher is a gopher server on loopback that answers each selector
// with a line of text after wait.
func slowGopher(t *testing.T, wait time.Duration) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				bufio.NewReader(c).ReadString('\n')
				time.Sleep(wait)
				io.WriteString(c, "slow answer\r\n")
			}()
		}
	}()
	return ln.Addr().String()
}

// startServe runs `urlkit serve` as a process of its own (signals are
// sent to it) and returns it with the gateway's and the metrics' base URLs.
func startServe(t *testing.T, args ...string) (cmd *exec.Cmd, gw, metrics string, stderr *strings.Builder) {
	t.Helper()
	cmd = exec.Command(os.Args[0], append([]string{"serve", "--listen", "127.0.0.1:0", "--metrics", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "URLKIT_TEST_MAIN=1")
	pr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	stderr = &strings.Builder{}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	re := regexp.MustCompile(`(gateway|metrics) on (http://[0-9.:]+)`)
	deadline := time.After(20 * time.Second)
	for gw == "" || metrics == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("serve ended: %s", stderr)
			}
			stderr.WriteString(l + "\n")
			if m := re.FindStringSubmatch(l); m != nil && m[1] == "gateway" {
				gw = m[2]
			} else if m != nil {
				metrics = m[2]
			}
		case <-deadline:
			t.Fatalf("serve did not start: %s", stderr)
		}
	}
	go func() {
		for l := range lines {
			_ = l // the rest is not looked at; the pipe is drained
		}
	}()
	return cmd, gw, metrics, stderr
}

func fetchBody(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Issue 36 item 7: urlkit serve as a service. --metrics serves the
// gateway's metrics in Prometheus's format (parsed here by Prometheus's
// own parser); SIGHUP reopens --log and --log-json (log rotation: after
// the rename, new lines go to a new file); SIGTERM lets a request in
// flight finish and the process end with status 0.
func TestServeSignals(t *testing.T) {
	slow := slowGopher(t, time.Second)
	dir := t.TempDir()
	clf, js := filepath.Join(dir, "access.log"), filepath.Join(dir, "access.json")
	cmd, gw, metrics, stderr := startServe(t, "--allow", slow, "--log", clf, "--log-json", js, "--drain-timeout", "20s")

	if code, body := fetchBody(t, gw+"/"); code != 200 || !strings.Contains(body, "urlkit gateway") {
		t.Fatalf("front page: %d", code)
	}
	code, body := fetchBody(t, metrics+"/metrics")
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(body))
	if code != 200 || err != nil || fams["urlkit_gateway_requests_total"] == nil {
		t.Fatalf("metrics: %d %v\n%s", code, err, body)
	}

	// Rotation: rename, SIGHUP, and the next line is in a new file.
	for _, f := range []string{clf, js} {
		if err := os.Rename(f, f+".1"); err != nil {
			t.Fatal(err)
		}
	}
	cmd.Process.Signal(syscall.SIGHUP)
	time.Sleep(200 * time.Millisecond)
	fetchBody(t, gw+"/nosuch")
	waitFor(t, func() bool {
		b1, _ := os.ReadFile(clf)
		b2, _ := os.ReadFile(js)
		return strings.Contains(string(b1), `"GET /nosuch HTTP/1.1" 404`) && strings.Contains(string(b2), `"target":"/nosuch"`)
	})
	if old, _ := os.ReadFile(clf + ".1"); !strings.Contains(string(old), `"GET / HTTP/1.1" 200`) || strings.Contains(string(old), "nosuch") {
		t.Errorf("the rotated log: %q", old)
	}

	// Drain: a request in flight (the upstream answers after 1 s) when
	// SIGTERM comes is answered; then the process ends with status 0.
	type result struct {
		code int
		body string
	}
	done := make(chan result)
	go func() {
		c, b := fetchBody(t, gw+"/gopher://"+slow+"/0/x")
		done <- result{c, b}
	}()
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	r := <-done
	if r.code != 200 || r.body != "slow answer\r\n" {
		t.Errorf("the request in flight: %d %q", r.code, r.body)
	}
	werr := make(chan error)
	go func() { werr <- cmd.Wait() }()
	select {
	case err := <-werr:
		if err != nil {
			t.Errorf("serve ended with %v: %s", err, stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("serve did not end after SIGTERM")
	}
}

// The drain has a deadline: a request still in flight after
// --drain-timeout is cut, and the process ends.
func TestServeDrainDeadline(t *testing.T) {
	slow := slowGopher(t, 30*time.Second)
	cmd, gw, _, _ := startServe(t, "--allow", slow, "--quiet", "--drain-timeout", "300ms")
	done := make(chan int)
	go func() {
		c, _ := fetchBody(t, gw+"/gopher://"+slow+"/0/x")
		done <- c
	}()
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	werr := make(chan error)
	go func() { werr <- cmd.Wait() }()
	select {
	case <-werr:
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("serve took %v to end", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("serve did not end after its drain deadline")
	}
	if c := <-done; c == 200 {
		t.Errorf("the cut request was answered 200")
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	// 20 s: a loaded 2-core machine can take seconds to start a process;
	// a condition met returns at once.
	for i := 0; i < 400; i++ {
		if cond() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("condition not met in 20 s")
}
