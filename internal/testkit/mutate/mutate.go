// Package mutate plants known bugs in a copy of the module and checks that
// the test suites catch each one, as mutation-testing tools such as
// go-mutesting do: the production files carry no hook, build tag or
// variable for it. Each mutant is a source edit named by a pattern (the
// code to find, the code to put in its place), not by a line number, so it
// follows the code when the code moves between files; a pattern that is
// found nowhere, or more than once, is an error that names the mutant.
//
// The mutants are listed in mutants.txt beside this file; the command
// ./internal/testkit/mutate/cmd/mutate runs them (see .ci/mutate.sh).
package mutate

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A Mutant is one planted bug: the edit, the package whose tests must
// catch it and the tests that must fail.
type Mutant struct {
	Name     string   // short name, e.g. "host-underscore"
	Why      string   // what the bug does, in words
	Package  string   // the package to test, as go test names it ("./internal/testkit/conformance/")
	Fail     []string // tests that must fail, as go test -v prints them after "--- FAIL: " (subtests with "_" for spaces)
	Requires string   // "avx2" for a bug in code that runs only there; "" otherwise
	Edits    []Edit   // the edits, made together
	Line     int      // where the mutant starts in mutants.txt, for messages
}

// An Edit is one place a mutant changes.
type Edit struct {
	Find    []string // the lines to find (one line: a substring of one line)
	Replace []string // what replaces them
}

// Parse reads a mutants file. A mutant starts with "== name"; then
// "why:", "package:", "fail:" (repeated), "requires:" lines, and "find:" and
// "replace:" each followed by lines that start with a tab (the tab is
// dropped). Lines starting with "#" and blank lines between mutants are
// ignored.
func Parse(data []byte) ([]Mutant, error) {
	var out []Mutant
	var cur *Mutant
	var block *[]string
	sc := bufio.NewScanner(bytes.NewReader(data))
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if block != nil && strings.HasPrefix(line, "\t") {
			*block = append(*block, line[1:])
			continue
		}
		block = nil
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "== "):
			out = append(out, Mutant{Name: strings.TrimSpace(line[3:]), Line: n})
			cur = &out[len(out)-1]
			continue
		}
		if cur == nil {
			return nil, fmt.Errorf("mutants line %d: %q before the first \"== name\" line", n, line)
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("mutants line %d (%s): %q is not \"key: value\"", n, cur.Name, line)
		}
		val = strings.TrimSpace(val)
		switch key {
		case "why":
			cur.Why = val
		case "package":
			cur.Package = val
		case "fail":
			cur.Fail = append(cur.Fail, val)
		case "requires":
			cur.Requires = val
		case "find":
			cur.Edits = append(cur.Edits, Edit{})
			block = &cur.Edits[len(cur.Edits)-1].Find
		case "replace":
			if len(cur.Edits) == 0 || cur.Edits[len(cur.Edits)-1].Replace != nil {
				return nil, fmt.Errorf("mutants line %d (%s): replace: without its find:", n, cur.Name)
			}
			e := &cur.Edits[len(cur.Edits)-1]
			e.Replace = []string{} // present, possibly empty
			block = &e.Replace
		default:
			return nil, fmt.Errorf("mutants line %d (%s): unknown key %q", n, cur.Name, key)
		}
	}
	seen := map[string]bool{}
	for _, m := range out {
		switch {
		case seen[m.Name]:
			return nil, fmt.Errorf("mutants line %d: %s is defined twice", m.Line, m.Name)
		case m.Package == "" || len(m.Fail) == 0 || len(m.Edits) == 0:
			return nil, fmt.Errorf("mutants line %d: %s needs package, fail, find and replace", m.Line, m.Name)
		}
		for _, e := range m.Edits {
			if len(e.Find) == 0 || e.Replace == nil {
				return nil, fmt.Errorf("mutants line %d: %s: each find: needs lines and a replace:", m.Line, m.Name)
			}
		}
		seen[m.Name] = true
	}
	return out, nil
}

// A Site is where a mutant's pattern was found.
type Site struct {
	File       string // relative to the module root
	Start, End int    // byte offsets of the text replaced
	Text       string // the replacement
}

// ErrPattern is wrapped by Locate's errors: the pattern is not found once.
var ErrPattern = errors.New("mutant pattern not found exactly once")

// Locate finds every edit of m (see [LocateEdit]).
func Locate(root string, m Mutant) ([]Site, error) {
	var out []Site
	for k := range m.Edits {
		s, err := LocateEdit(root, m, k)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// LocateEdit finds the pattern of m's edit k in the non-test Go files of
// the module at root (directories with their own go.mod are other modules
// and are left out). A one-line pattern is a substring of one line; a
// longer one is a run of whole lines, compared without their leading and
// trailing white space. It must occur exactly once.
func LocateEdit(root string, m Mutant, k int) (Site, error) {
	e := m.Edits[k]
	var sites []Site
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || fileExists(filepath.Join(path, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for _, s := range find(string(data), e) {
			s.File = rel
			sites = append(sites, s)
		}
		return nil
	})
	if err != nil {
		return Site{}, err
	}
	if len(sites) != 1 {
		where := make([]string, len(sites))
		for i, s := range sites {
			where[i] = s.File
		}
		return Site{}, fmt.Errorf("mutant %s (mutants.txt line %d, edit %d): %w: found %d times %v; the code changed, so update the mutant's find/replace to plant the same bug", m.Name, m.Line, k+1, ErrPattern, len(sites), where)
	}
	return sites[0], nil
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// find returns every place m.Find occurs in src.
func find(src string, m Edit) []Site {
	var out []Site
	if len(m.Find) == 1 {
		pat := strings.TrimSpace(m.Find[0])
		repl := strings.TrimSpace(strings.Join(m.Replace, "\n"))
		for i := 0; ; {
			k := strings.Index(src[i:], pat)
			if k < 0 {
				return out
			}
			out = append(out, Site{Start: i + k, End: i + k + len(pat), Text: repl})
			i += k + len(pat)
		}
	}
	// Offsets of the lines of src.
	var starts []int
	for i := 0; i <= len(src); {
		starts = append(starts, i)
		k := strings.IndexByte(src[i:], '\n')
		if k < 0 {
			break
		}
		i += k + 1
	}
	line := func(j int) string {
		end := len(src)
		if j+1 < len(starts) {
			end = starts[j+1] - 1
		}
		return src[starts[j]:end]
	}
	for j := 0; j+len(m.Find) <= len(starts); j++ {
		ok := true
		for k, f := range m.Find {
			if strings.TrimSpace(line(j+k)) != strings.TrimSpace(f) {
				ok = false
				break
			}
		}
		if ok {
			last := j + len(m.Find) - 1
			end := starts[last] + len(line(last))
			out = append(out, Site{Start: starts[j], End: end, Text: strings.Join(m.Replace, "\n")})
		}
	}
	return out
}

// ApplyAll writes the edits of sites under root, in one file the later
// ones first, so that offsets stay right.
func ApplyAll(root string, sites []Site) error {
	sorted := append([]Site(nil), sites...)
	sort.Slice(sorted, func(i, j int) bool {
		if sorted[i].File != sorted[j].File {
			return sorted[i].File < sorted[j].File
		}
		return sorted[i].Start > sorted[j].Start
	})
	for _, s := range sorted {
		if err := Apply(root, s); err != nil {
			return err
		}
	}
	return nil
}

// Apply writes the mutant's edit into the file of site under root.
func Apply(root string, s Site) error {
	p := filepath.Join(root, s.File)
	data, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	out := string(data[:s.Start]) + s.Text + string(data[s.End:])
	return os.WriteFile(p, []byte(out), 0o644)
}

// Copy copies the module at src to dst (which must not exist), leaving
// out .git and the CI's output folder. Symbolic links are copied as links.
func Copy(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() && (d.Name() == ".git" || rel == "ci-output") {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			l, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(l, target)
		case d.Type().IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, info.Mode().Perm())
		}
		return nil
	})
}
