// Command mutate plants each bug listed in internal/testkit/mutate/mutants.txt in a
// copy of the module (in a temporary directory, with ../shared linked
// beside it) and requires the named tests to fail there. A test that stays
// green under a planted bug is a blind oracle, and the command exits 1.
//
// Usage, from the module root:
//
//	go run ./internal/testkit/mutate/cmd/mutate [-only name,...] [-list] [-locate]
//
// -list prints the mutants; -locate only checks that every pattern is found
// exactly once. Before the mutants, the named tests are run once in an
// unchanged copy and must pass, so a failure below is the planted bug's.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/mutate"
)

func main() {
	only := flag.String("only", "", "run only these mutants (comma-separated names)")
	list := flag.Bool("list", false, "list the mutants and exit")
	locate := flag.Bool("locate", false, "only check that every mutant's pattern is found exactly once")
	keep := flag.Bool("keep", false, "keep the temporary copies (their paths are printed)")
	flag.Parse()
	root, err := os.Getwd()
	check(err)
	data, err := os.ReadFile(filepath.Join(root, "internal", "testkit", "mutate", "mutants.txt"))
	check(err)
	ms, err := mutate.Parse(data)
	check(err)
	if *only != "" {
		want := map[string]bool{}
		for _, n := range strings.Split(*only, ",") {
			want[n] = true
		}
		var sel []mutate.Mutant
		for _, m := range ms {
			if want[m.Name] {
				sel = append(sel, m)
				delete(want, m.Name)
			}
		}
		for n := range want {
			fail("mutate: no mutant named %q", n)
		}
		ms = sel
	}
	if *list {
		for _, m := range ms {
			fmt.Printf("%-28s %s (%s: %s)\n", m.Name, m.Why, m.Package, strings.Join(m.Fail, "; "))
		}
		return
	}
	ok := true
	for _, m := range ms {
		if _, err := mutate.Locate(root, m); err != nil {
			fmt.Println("mutate:", err)
			ok = false
		}
	}
	if !ok {
		os.Exit(1)
	}
	if *locate {
		fmt.Printf("mutate: every pattern of %d mutants found once\n", len(ms))
		return
	}
	var run []mutate.Mutant
	for _, m := range ms {
		if m.Requires == "avx2" && !hasAVX2() {
			fmt.Printf("mutate: %s: skipped, its code runs only on amd64 with AVX2\n", m.Name)
			continue
		}
		run = append(run, m)
	}
	tmp, err := os.MkdirTemp("", "urlkit-mutate-")
	check(err)
	if !*keep {
		defer os.RemoveAll(tmp)
	}
	// The unchanged copy: the named tests pass there.
	base := copyModule(root, filepath.Join(tmp, "base"))
	pkgs := map[string][]string{}
	for _, m := range run {
		pkgs[m.Package] = append(pkgs[m.Package], m.Fail...)
	}
	var names []string
	for p := range pkgs {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		out, err := goTest(base, p, pkgs[p])
		if err != nil {
			fmt.Printf("mutate: %s fails in an unchanged copy of the module, so a failure under a mutant would prove nothing:\n%s\n", p, tail(out))
			os.Exit(1)
		}
	}
	failed := false
	for i, m := range run {
		start := time.Now()
		dir := copyModule(root, filepath.Join(tmp, fmt.Sprintf("m%02d", i)))
		sites, err := mutate.Locate(dir, m)
		check(err)
		check(mutate.ApplyAll(dir, sites))
		site := sites[0]
		out, _ := goTest(dir, m.Package, m.Fail)
		if bytes.Contains(out, []byte("[build failed]")) || bytes.Contains(out, []byte("[setup failed]")) || regexp.MustCompile(`(?m)^panic:`).Match(out) {
			fmt.Printf("mutate: %s (%s): the tests of %s did not run:\n%s\n", m.Name, site.File, m.Package, tail(out))
			failed = true
			continue
		}
		for _, t := range m.Fail {
			if bytes.Contains(out, []byte("--- FAIL: "+t+" ")) {
				fmt.Printf("mutate: %s (%s): caught by %s %s\n", m.Name, site.File, m.Package, t)
			} else {
				fmt.Printf("mutate: %s (%s): NOT caught by %s %s (it stayed green under a planted bug)\n", m.Name, site.File, m.Package, t)
				failed = true
			}
		}
		fmt.Printf("mutate: %s took %.0f s\n", m.Name, time.Since(start).Seconds())
		if !*keep {
			os.RemoveAll(dir)
		}
	}
	if failed {
		fmt.Println("mutate: FAILED")
		os.Exit(1)
	}
	fmt.Printf("mutate: every planted bug was caught (%d mutants)\n", len(run))
}

// copyModule copies the module to dir/urlkit and links dir/shared to the
// shared folder beside the module, so paths such as ../shared/corpora hold.
func copyModule(root, dir string) string {
	dst := filepath.Join(dir, "urlkit")
	check(os.MkdirAll(dir, 0o755))
	check(mutate.Copy(root, dst))
	if shared, err := filepath.Abs(filepath.Join(root, "..", "shared")); err == nil {
		if _, err := os.Stat(shared); err == nil {
			check(os.Symlink(shared, filepath.Join(dir, "shared")))
		}
	}
	return dst
}

// goTest runs the top-level tests of names in pkg, verbosely, in dir.
func goTest(dir, pkg string, names []string) ([]byte, error) {
	top := map[string]bool{}
	for _, n := range names {
		t, _, _ := strings.Cut(n, "/")
		top[regexp.QuoteMeta(t)] = true
	}
	var alt []string
	for t := range top {
		alt = append(alt, t)
	}
	sort.Strings(alt)
	cmd := exec.Command("go", "test", "-count=1", "-v", "-run", "^("+strings.Join(alt, "|")+")$", pkg)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}

func hasAVX2() bool {
	if runtime.GOARCH != "amd64" {
		return false
	}
	b, err := os.ReadFile("/proc/cpuinfo")
	return err == nil && regexp.MustCompile(`\bavx2\b`).Match(b)
}

func tail(b []byte) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > 30 {
		lines = lines[len(lines)-30:]
	}
	return strings.Join(lines, "\n")
}

func check(err error) {
	if err != nil {
		fail("mutate: %v", err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}
