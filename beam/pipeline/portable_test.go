//go:build linux

package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// sandboxEnv is set, to the sandbox's root directory, in the process that
// TestUniversalRunner starts in network and mount namespaces of its own.
const sandboxEnv = "URLKIT_BEAM_SANDBOX"

// TestUniversalRunner runs urlkit-beam the way a Flink or Spark deployment
// runs it, with Prism standing in for the cluster: Prism started as its
// own job-service process (the Beam Go SDK's prism command), the pipeline
// submitted to it over Beam's portable API with --runner=universal, the
// binary staged as the workers' artifact, and the SDK workers in the
// submitting process (LOOPBACK), in processes Prism starts through the Go
// SDK's container entry point, boot (PROCESS), and in a worker pool
// started beside Prism (boot --worker_pool, EXTERNAL); and as a cluster
// of two worker machines would, with the pool's two worker processes
// sharing the lines (--read_envs=2: the reading in two parts, each in an
// environment of its own, and Prism starts a worker per environment): each
// part read in one process, a different one, and the lines they read
// adding up to the summary's. Each run's outputs, shard by shard, must
// equal those of the in-process Prism run (--runner=prism) of the same
// binary over the same input.
//
// Prism's job service and boot's worker pool listen on every interface
// and run what is submitted to them, so the test runs them in a network
// namespace of its own with only a loopback interface, and in a mount
// namespace whose /tmp is a directory of the test (boot leaves the staged
// binary and its copy in /tmp): nothing is reachable from outside and
// nothing is left behind. Where namespaces cannot be made (not Linux, no
// user namespaces) the test is skipped, or fails with
// URLKIT_REQUIRE_PORTABLE=1 (as in CI).
//
// The binaries come from URLKIT_BEAM_BIN (a directory holding urlkit-beam,
// prism and container, as `go build -o DIR/ tool ./cmd/urlkit-beam` in
// beam/ makes them), or are built here.
func TestUniversalRunner(t *testing.T) {
	if root := os.Getenv(sandboxEnv); root != "" {
		universalRunnerInSandbox(t, root)
		return
	}
	if testing.Short() {
		t.Skip("starts Prism, a worker pool and four pipelines (-short)")
	}
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	provideBinaries(t, bin)
	in := filepath.Join(root, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	// A small input (two of the ada-url datasets, 17,637 lines, valid and
	// rejected lines among them): what is checked is that the runs agree,
	// and each run costs Prism's fixed seconds more than its lines.
	for _, name := range portableInput {
		linkOrCopy(t, filepath.Join(corpora(t), "ada-url-datasets", name), filepath.Join(in, name))
	}

	ctx := context.Background()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-10*time.Second))
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestUniversalRunner$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), sandboxEnv+"="+root)
	cmd.SysProcAttr = sandboxAttr()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		msg := fmt.Sprintf("cannot start a process in network and mount namespaces of its own: %v", err)
		if os.Getenv("URLKIT_REQUIRE_PORTABLE") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("in the sandbox: %v\n%s", err, out.String())
	}
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, "portable_test.go") {
			t.Log(strings.TrimSpace(l))
		}
	}
}

// sandboxAttr starts a process in new network and mount namespaces, and
// in a new user namespace (mapping the caller to root) when the caller is
// not root.
func sandboxAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{
		Cloneflags: syscall.CLONE_NEWNET | syscall.CLONE_NEWNS,
		Pdeathsig:  syscall.SIGKILL,
	}
	if os.Getuid() != 0 {
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
		attr.GidMappingsEnableSetgroups = false
	}
	return attr
}

// provideBinaries puts urlkit-beam, prism and container (boot) in dir:
// linked from URLKIT_BEAM_BIN, or built.
func provideBinaries(t *testing.T, dir string) {
	t.Helper()
	names := []string{"urlkit-beam", "prism", "container"}
	if from := os.Getenv("URLKIT_BEAM_BIN"); from != "" {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			linkOrCopy(t, filepath.Join(from, n), filepath.Join(dir, n))
		}
		return
	}
	cmd := exec.Command("go", "build", "-o", dir+"/", "tool", "./cmd/urlkit-beam")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building %v: %v\n%s", names, err, out)
	}
}

// linkOrCopy makes dst a hard link to src, or a copy of it.
func linkOrCopy(t *testing.T, src, dst string) {
	t.Helper()
	if os.Link(src, dst) == nil {
		return
	}
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, fi.Mode().Perm())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// portableInput is TestUniversalRunner's input: the two smallest ada-url
// datasets.
var portableInput = []string{"isaacs_files.txt", "userbait.txt"}

// universalRunnerInSandbox is TestUniversalRunner inside the namespaces:
// root (which holds bin/ and in/) becomes /tmp.
func universalRunnerInSandbox(t *testing.T, root string) {
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	must("making mounts private", syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""))
	must("mounting the test's directory on /tmp", syscall.Mount(root, "/tmp", "", syscall.MS_BIND|syscall.MS_REC, ""))
	must("chdir /tmp", os.Chdir("/tmp"))
	os.Setenv("TMPDIR", "/tmp")
	must("bringing the loopback interface up", loopbackUp())

	const jobService, pool = "localhost:8073", "localhost:50000"
	stopPrism := daemon(t, "prism", "/tmp/bin/prism", "--job_port=8073", "--serve_http=false")
	stopPool := daemon(t, "pool", "/tmp/bin/container", "--worker_pool")
	waitListening(t, jobService)
	waitListening(t, pool)

	// Prism 2.77 starts a PROCESS worker with --id='ID', the quotes inside
	// the argument, which boot then sends as its worker id and Prism does
	// not know: this wrapper takes them off.
	wrapper := "/tmp/boot-process.sh"
	must("writing the boot wrapper", os.WriteFile(wrapper, []byte(`#!/bin/sh
for a; do
  case $a in
    --id=*) id=${a#--id=}; id=${id#\'}; id=${id%\'} ;;
    --provision_endpoint=*) ep=${a#--provision_endpoint=} ;;
  esac
done
exec /tmp/bin/container --id="$id" --provision_endpoint="$ep" --semi_persist_dir=/tmp/process
`), 0o755))

	common := []string{"--input=/tmp/in/*.txt", "--shards=4"}
	runs := []struct {
		name string
		args []string
		// workers is the number of worker processes the pool must
		// start that share the lines (--read_envs), or zero.
		workers int
	}{
		{"prism", []string{"--runner=prism"}, 0},
		{"LOOPBACK", []string{"--runner=universal", "--endpoint=" + jobService, "--environment_type=LOOPBACK"}, 0},
		{"PROCESS", []string{"--runner=universal", "--endpoint=" + jobService, "--environment_type=PROCESS",
			`--environment_config={"command":"` + wrapper + `"}`}, 0},
		{"EXTERNAL", []string{"--runner=universal", "--endpoint=" + jobService, "--environment_type=EXTERNAL",
			"--environment_config=" + pool}, 0},
		{"EXTERNAL, two workers", []string{"--runner=universal", "--endpoint=" + jobService, "--environment_type=EXTERNAL",
			"--environment_config=" + pool, "--read_envs=2"}, 2},
	}
	var want map[string][]string
	for _, r := range runs {
		prefix := "/tmp/out-" + strings.ReplaceAll(strings.ReplaceAll(r.name, ",", ""), " ", "-") + "/links"
		logStart := len(readFile("/tmp/prism.log"))
		args := append(append([]string{}, r.args...), common...)
		args = append(args, "--output="+prefix)
		start := time.Now()
		cmd := exec.Command("/tmp/bin/urlkit-beam", args...)
		var log strings.Builder
		cmd.Stdout, cmd.Stderr = &log, &log
		cmd.WaitDelay = time.Second
		done := make(chan error, 1)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%s: urlkit-beam %s: %v\n%s\nprism's log:\n%s", r.name, strings.Join(args, " "), err, tail(log.String()), tail(readFile("/tmp/prism.log")))
			}
		case <-time.After(5 * time.Minute):
			cmd.Process.Kill()
			t.Fatalf("%s: no result after 5 minutes\n%s\nprism's log:\n%s", r.name, tail(log.String()), tail(readFile("/tmp/prism.log")))
		}
		got := outputFiles(t, prefix)
		t.Logf("%s: %d output files, %.1f s", r.name, len(got), time.Since(start).Seconds())
		if want == nil {
			want = got
			// Every shard file is there, and the shards hold URLs and
			// rejected lines (each rejected shard starts with its header).
			nCanon, nRejected := 0, 0
			for i := range 4 {
				c, okc := want[fmt.Sprintf("links-canonical-%05d-of-00004.txt", i)]
				r, okr := want[fmt.Sprintf("links-rejected-%05d-of-00004.tsv", i)]
				if !okc || !okr {
					t.Fatalf("prism: shard %d of 4 missing: %d files", i, len(want))
				}
				nCanon += len(c)
				nRejected += len(r) - 1
			}
			if nCanon < 1000 || nRejected < 10 {
				t.Fatalf("prism: %d canonical URLs and %d rejected lines in the shards, want some of each", nCanon, nRejected)
			}
			continue
		}
		diffFiles(t, r.name, got, want)
		if r.workers > 0 {
			checkWorkers(t, r.name, readFile("/tmp/prism.log")[logStart:], r.workers, want["links-summary.txt"])
		}
	}
	// A worker that boot started outlives its job (Prism and the pool stop
	// boot, not boot's child): it is in the process group of the daemon
	// that started it, and ends with it. Nothing may be left running.
	stopPrism()
	stopPool()
	if ps := processes(t); len(ps) > 0 {
		t.Errorf("processes left running after Prism and the pool stopped: %s", strings.Join(ps, "; "))
	}
}

// daemon starts a program in a process group of its own, with its output
// in /tmp/NAME.log; stop (called at the latest when the test ends) stops
// the group: SIGTERM, then SIGKILL after 10 s.
func daemon(t *testing.T, name, path string, args ...string) (stop func()) {
	t.Helper()
	logf, err := os.Create("/tmp/" + name + ".log")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
			done := make(chan struct{})
			go func() { cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				<-done
			}
			// The group's other members (workers) get the signal too;
			// give them the same time.
			for i := 0; i < 100 && syscall.Kill(-cmd.Process.Pid, 0) == nil; i++ {
				time.Sleep(100 * time.Millisecond)
			}
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			logf.Close()
		})
	}
	t.Cleanup(stop)
	return stop
}

// waitListening waits until addr accepts a connection.
func waitListening(t *testing.T, addr string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing listens on %s after a minute: %v\nprism's log:\n%s", addr, err, tail(readFile("/tmp/prism.log")))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// loopbackUp brings up the loopback interface of a new network namespace
// (SIOCSIFFLAGS with IFF_UP, as `ip link set lo up` does).
func loopbackUp() error {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	var ifr struct {
		name  [syscall.IFNAMSIZ]byte
		flags uint16
		_     [22]byte
	}
	copy(ifr.name[:], "lo")
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.SIOCGIFFLAGS, uintptr(unsafe.Pointer(&ifr))); e != 0 {
		return e
	}
	ifr.flags |= syscall.IFF_UP
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.SIOCSIFFLAGS, uintptr(unsafe.Pointer(&ifr))); e != 0 {
		return e
	}
	return nil
}

// outputFiles reads every output file under prefix: base name to sorted
// lines.
func outputFiles(t *testing.T, prefix string) map[string][]string {
	t.Helper()
	names, err := filepath.Glob(prefix + "*")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, n := range names {
		lines := strings.Split(strings.TrimSuffix(readFile(n), "\n"), "\n")
		sort.Strings(lines)
		out[filepath.Base(n)] = lines
	}
	return out
}

// diffFiles reports the files and lines that differ between two runs.
func diffFiles(t *testing.T, name string, got, want map[string][]string) {
	t.Helper()
	for f, w := range want {
		g, ok := got[f]
		if !ok {
			t.Errorf("%s: no %s", name, f)
			continue
		}
		if strings.Join(g, "\n") != strings.Join(w, "\n") {
			t.Errorf("%s: %s differs from the in-process run's (%d lines, %d there)", name, f, len(g), len(w))
		}
	}
	for f := range got {
		if _, ok := want[f]; !ok {
			t.Errorf("%s: %s, which the in-process run did not write", name, f)
		}
	}
}

// processes lists the processes in the sandbox's network namespace other
// than this one (the sandbox has no process ID namespace of its own).
func processes(t *testing.T) []string {
	t.Helper()
	self, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		t.Fatal(err)
	}
	dirs, _ := os.ReadDir("/proc")
	var left []string
	for _, d := range dirs {
		pid := d.Name()
		if pid[0] < '0' || pid[0] > '9' || pid == fmt.Sprint(os.Getpid()) {
			continue
		}
		ns, err := os.Readlink("/proc/" + pid + "/ns/net")
		if err != nil || ns != self {
			continue
		}
		cmdline := strings.ReplaceAll(readFile("/proc/"+pid+"/cmdline"), "\x00", " ")
		left = append(left, pid+": "+cmdline)
	}
	return left
}

func readFile(name string) string {
	b, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err.Error()
	}
	return string(b)
}

// tail is the end of a log.
func tail(s string) string {
	const n = 4000
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// partLog is what a reading step in parts logs (see logPart): part,
// parts, process, lines.
var partLog = regexp.MustCompile(`urlkit-beam: part (\d+) of (\d+): process (\d+) read (\d+) lines of `)

// checkWorkers checks, from Prism's log of a run whose reading was in n
// parts (--read_envs=n) and its summary, that each part was read in one
// worker process of its own, started by the pool for the part's
// environment (multienv: go, go-1, ...), and that the lines they read add
// up to the summary's.
func checkWorkers(t *testing.T, name, log string, n int, summary []string) {
	t.Helper()
	procs := map[int]map[int]bool{} // part to processes
	lines := map[int]int{}          // part to lines
	for _, m := range partLog.FindAllStringSubmatch(log, -1) {
		part, _ := strconv.Atoi(m[1])
		pid, _ := strconv.Atoi(m[3])
		nl, _ := strconv.Atoi(m[4])
		if m[2] != strconv.Itoa(n) || part < 1 || part > n {
			t.Errorf("%s: a reading step logged %q", name, m[0])
			continue
		}
		if procs[part] == nil {
			procs[part] = map[int]bool{}
		}
		procs[part][pid] = true
		lines[part] += nl
	}
	seen := map[int]int{} // process to part
	total := 0
	for part := 1; part <= n; part++ {
		if len(procs[part]) != 1 {
			t.Errorf("%s: part %d of %d was read in processes %v, want one", name, part, n, procs[part])
			continue
		}
		if lines[part] == 0 {
			t.Errorf("%s: part %d of %d read no line", name, part, n)
		}
		total += lines[part]
		for pid := range procs[part] {
			if other, ok := seen[pid]; ok {
				t.Errorf("%s: parts %d and %d were both read in process %d", name, other, part, pid)
			}
			seen[pid] = part
			// The pool's worker for the part's environment (it outlives
			// its job until the pool stops).
			env := "go"
			if part > 1 {
				env = fmt.Sprintf("go-%d", part-1)
			}
			cmdline := strings.ReplaceAll(readFile(fmt.Sprintf("/proc/%d/cmdline", pid)), "\x00", " ")
			if pid == os.Getpid() || !strings.Contains(cmdline, "--worker=true ") || !strings.Contains(cmdline, "]_"+env+" ") {
				t.Errorf("%s: part %d of %d was read in process %d, not the pool's worker for environment %s: %q", name, part, n, pid, env, cmdline)
			}
		}
	}
	want := -1
	for _, l := range summary {
		if v, ok := strings.CutPrefix(l, "lines\t"); ok {
			want, _ = strconv.Atoi(v)
		}
	}
	if total != want {
		t.Errorf("%s: the parts read %d lines (%v), the summary counts %d", name, total, lines, want)
	}
	t.Logf("%s: lines read by part: %v, in processes %v", name, lines, procs)
}
