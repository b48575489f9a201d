package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// A docSample is one command of a ```console block in README.md or
// docs/*.md: a line "$ COMMAND" and the lines it prints, up to the next
// "$ " line or the end of the block.
type docSample struct {
	file    string   // path from the repository root
	line    int      // 1-based line of the "$ " line
	command string   // the text after "$ "
	want    []string // the output lines as written
	first   int      // 0-based line index of the first output line
	end     int      // 0-based line index just past the last output line
}

// consoleSamples returns the commands of every ```console block of text.
// A block opens with a line "```console" (leading spaces allowed) and
// closes with a line "```"; output lines before the block's first "$ "
// line are an error, reported as a sample whose command is empty.
func consoleSamples(file, text string) []docSample {
	lines := strings.Split(text, "\n")
	var out []docSample
	in := false
	var cur *docSample
	flush := func(end int) {
		if cur != nil {
			cur.end = end
			cur.want = trimBlankTail(lines[cur.first:end])
			out = append(out, *cur)
			cur = nil
		}
	}
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case !in && t == "```console":
			in = true
		case in && t == "```":
			flush(i)
			in = false
		case in && strings.HasPrefix(t, "$ "):
			flush(i)
			cur = &docSample{file: file, line: i + 1, command: strings.TrimPrefix(t, "$ "), first: i + 1}
		case in && cur == nil && t != "":
			out = append(out, docSample{file: file, line: i + 1, want: []string{l}})
		}
	}
	return out
}

func trimBlankTail(ls []string) []string {
	for len(ls) > 0 && strings.TrimSpace(ls[len(ls)-1]) == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// splitOutput splits a stream into lines, without the final line ending
// and without trailing blank lines.
func splitOutput(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil
	}
	return trimBlankTail(strings.Split(s, "\n"))
}

// sampleMatches reports whether want is the standard output and standard
// error of a command, interleaved: each stream's lines in their order,
// the two in any order between them (a terminal shows them merged, and the
// merge depends on when each stream is flushed). In want, a line "..."
// stands for any number of lines of either stream, and a line ending in
// "..." for any line that starts with the text before it.
func sampleMatches(want, stdout, stderr []string) bool {
	type key struct{ i, j, k int }
	memo := map[key]bool{}
	var match func(i, j, k int) bool
	lineOK := func(w, got string) bool {
		if w == got {
			return true
		}
		if p, ok := strings.CutSuffix(w, "..."); ok && p != "" {
			return strings.HasPrefix(got, p)
		}
		return false
	}
	match = func(i, j, k int) bool {
		if i == len(want) {
			return j == len(stdout) && k == len(stderr)
		}
		kk := key{i, j, k}
		if r, ok := memo[kk]; ok {
			return r
		}
		var r bool
		if strings.TrimSpace(want[i]) == "..." {
			r = match(i+1, j, k) ||
				(j < len(stdout) && match(i, j+1, k)) ||
				(k < len(stderr) && match(i, j, k+1))
		} else {
			r = (j < len(stdout) && lineOK(want[i], stdout[j]) && match(i+1, j+1, k)) ||
				(k < len(stderr) && lineOK(want[i], stderr[k]) && match(i+1, j, k+1))
		}
		memo[kk] = r
		return r
	}
	return match(0, 0, 0)
}

// sampleShell prepares what every sample runs in: a directory of its own
// as the working directory, and a bin directory whose urlkit is this test
// binary (TestMain runs main under URLKIT_TEST_MAIN=1). The environment is
// fixed so that the output is the same on every machine: USER=joe (the
// anonymous ftp password of a plan is joe@localhost), no EMAIL,
// NNTPSERVER or proxy settings, TZ=UTC, the C locale with UTF-8.
func sampleShell(t *testing.T) (dir string, env []string, wrap []string) {
	t.Helper()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	dir = filepath.Join(tmp, "work")
	for _, d := range []string{bin, dir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(bin, "urlkit")); err != nil {
		t.Fatal(err)
	}
	env = []string{
		"PATH=" + bin + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + tmp,
		"USER=joe",
		"LOGNAME=joe",
		"TZ=UTC",
		"LC_ALL=C.UTF-8",
		"URLKIT_TEST_MAIN=1",
	}
	// Offline: in a network namespace of its own (only a loopback that is
	// down) when the machine allows one, so a sample that would reach a
	// server fails here rather than pass by luck.
	for _, w := range [][]string{{"unshare", "-n", "--"}, {"unshare", "-r", "-n", "--"}} {
		if exec.Command(w[0], append(w[1:], "true")...).Run() == nil {
			return dir, env, w
		}
	}
	t.Logf("no network namespace here (unshare -n failed): samples run with the machine's network")
	return dir, env, nil
}

// runSample runs one command with sh -c, standard input empty, and
// returns its two streams.
func runSample(dir string, env, wrap []string, command string) (stdout, stderr []byte) {
	args := append(append([]string{}, wrap...), "/bin/sh", "-c", command)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	_ = cmd.Run() // the exit status is shown only when a sample prints it ($?)
	return o.Bytes(), e.Bytes()
}

// runSampleMerged runs one command with both streams on one pipe, as a
// terminal shows them, for URLKIT_UPDATE_SAMPLES.
func runSampleMerged(dir string, env, wrap []string, command string) []string {
	out, _ := runSample(dir, env, wrap, "exec 2>&1; "+command)
	return splitOutput(out)
}

// docFiles lists README.md and docs/*.md, from the repository root.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return append([]string{filepath.Join(root, "README.md")}, files...)
}

// TestDocSamples runs every command of every ```console block of README.md
// and docs/*.md with the urlkit of this build, offline, and requires the
// output written under it: standard output and standard error, each in its
// order (see sampleMatches). A stale sample fails here. Blocks of commands
// that need a network or a server are written ```sh and are not run.
// URLKIT_UPDATE_SAMPLES=1 rewrites each failing sample's output with what
// the command prints now, for review in the diff.
func TestDocSamples(t *testing.T) {
	root := filepath.Join("..", "..")
	dir, env, wrap := sampleShell(t)
	update := os.Getenv("URLKIT_UPDATE_SAMPLES") == "1"
	total := 0
	for _, path := range docFiles(t, root) {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, path)
		lines := strings.Split(string(raw), "\n")
		type edit struct {
			first, end int
			with       []string
		}
		var edits []edit
		for _, s := range consoleSamples(rel, string(raw)) {
			if s.command == "" {
				t.Errorf("%s:%d: a ```console block has output before its first \"$ \" line: %q", s.file, s.line, s.want[0])
				continue
			}
			total++
			o, e := runSample(dir, env, wrap, s.command)
			stdout, stderr := splitOutput(o), splitOutput(e)
			if sampleMatches(s.want, stdout, stderr) {
				continue
			}
			if update {
				edits = append(edits, edit{s.first, s.first + len(s.want), runSampleMerged(dir, env, wrap, s.command)})
				continue
			}
			t.Errorf("%s:%d: $ %s\nthe page says:\n%s\nstandard output:\n%s\nstandard error:\n%s",
				s.file, s.line, s.command, indent(s.want), indent(stdout), indent(stderr))
		}
		if len(edits) > 0 {
			for i := len(edits) - 1; i >= 0; i-- {
				ed := edits[i]
				lines = append(lines[:ed.first], append(ed.with, lines[ed.end:]...)...)
			}
			if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: rewrote %d samples", rel, len(edits))
		}
	}
	if total == 0 {
		t.Fatal("no ```console sample found in README.md and docs/: the extraction is broken")
	}
	t.Logf("%d samples run", total)
}

func indent(ls []string) string {
	if len(ls) == 0 {
		return "    (nothing)"
	}
	return "    " + strings.Join(ls, "\n    ")
}

// TestSampleMatches holds the comparison's rules: each stream in its
// order, the two interleaved in any way, "..." lines and line ends.
func TestSampleMatches(t *testing.T) {
	for _, tc := range []struct {
		want, out, err []string
		ok             bool
	}{
		{[]string{"a", "b"}, []string{"a", "b"}, nil, true},
		{[]string{"a", "e"}, []string{"a"}, []string{"e"}, true},
		{[]string{"e", "a"}, []string{"a"}, []string{"e"}, true},
		{[]string{"b", "a"}, []string{"a", "b"}, nil, false}, // one stream's order holds
		{[]string{"a"}, []string{"a", "b"}, nil, false},      // a line missing
		{[]string{"a", "b", "c"}, []string{"a", "b"}, nil, false},
		{[]string{"a", "..."}, []string{"a", "b", "c"}, []string{"e"}, true},
		{[]string{"...", "c"}, []string{"a", "b", "c"}, nil, true},
		{[]string{"...", "b"}, []string{"a", "b", "c"}, nil, false},
		{[]string{"warning: base ..."}, nil, []string{"warning: base \"x\": offset 7"}, true},
		{[]string{"warning: other ..."}, nil, []string{"warning: base \"x\": offset 7"}, false},
		{[]string{"a..."}, []string{"b"}, nil, false},
		{nil, nil, nil, true},
		{nil, []string{"a"}, nil, false},
	} {
		if got := sampleMatches(tc.want, tc.out, tc.err); got != tc.ok {
			t.Errorf("sampleMatches(%q, %q, %q) = %v, want %v", tc.want, tc.out, tc.err, got, tc.ok)
		}
	}
}

// TestConsoleSamples holds the extraction: commands, their output lines,
// blocks of other kinds left alone.
func TestConsoleSamples(t *testing.T) {
	text := "intro\n```console\n$ urlkit a\nout 1\n\nout 2\n\n$ urlkit b\n```\n```sh\n$ urlkit c\nx\n```\n  ```console\n  $ urlkit d\n  ```\n"
	got := consoleSamples("f.md", text)
	want := []docSample{
		{file: "f.md", line: 3, command: "urlkit a", want: []string{"out 1", "", "out 2"}, first: 3, end: 7},
		{file: "f.md", line: 8, command: "urlkit b", want: []string{}, first: 8, end: 8},
		{file: "f.md", line: 15, command: "urlkit d", want: []string{}, first: 15, end: 15},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("consoleSamples:\n got %+v\nwant %+v", got, want)
	}
}
