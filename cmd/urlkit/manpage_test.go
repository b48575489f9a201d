package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The generated files committed for packagers and readers of the source:
// the man page and one completion script per shell. URLKIT_UPDATE_DOCS=1
// rewrites them from the flag definitions.
var generatedDocs = []struct {
	path    string // from the repository root
	command string // what writes it
	text    func() string
}{
	{"docs/man/urlkit.1", "urlkit help --man", manPage},
	{"docs/completion/urlkit.bash", "urlkit help --completion bash", bashCompletion},
	{"docs/completion/_urlkit", "urlkit help --completion zsh", zshCompletion},
	{"docs/completion/urlkit.fish", "urlkit help --completion fish", fishCompletion},
}

// TestGeneratedDocsCurrent requires the committed man page and completion
// scripts to be what the command line writes now, so that a flag added,
// renamed or described anew without them fails here.
func TestGeneratedDocsCurrent(t *testing.T) {
	for _, g := range generatedDocs {
		path := filepath.Join("..", "..", g.path)
		want := g.text()
		if os.Getenv("URLKIT_UPDATE_DOCS") == "1" {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v (write it with %s > %s)", g.path, err, g.command, g.path)
			continue
		}
		if string(got) != want {
			t.Errorf("%s is not what %s writes now: rerun URLKIT_UPDATE_DOCS=1 go test ./cmd/urlkit -run TestGeneratedDocsCurrent, or %s > %s", g.path, g.command, g.command, g.path)
		}
	}
}

// manSections splits a man page into its commands' subsections, by the
// name after ".SS \"".
func manSections(page string) map[string]string {
	out := map[string]string{}
	parts := strings.Split(page, "\n.SS \"")
	for _, p := range parts[1:] {
		name, _, _ := strings.Cut(p, " ")
		if i := strings.Index(p, "\n.SH "); i >= 0 {
			p = p[:i]
		}
		out[name] = p
	}
	return out
}

// TestManPageHasEveryFlag reads the committed urlkit(1) and requires, for
// every command and every flag the command parses, the command's
// subsection and in it an entry (.TP) tagged with the flag's spellings and
// its value's name, followed by its description.
func TestManPageHasEveryFlag(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "man", "urlkit.1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range manPageProblems(string(page)) {
		t.Error(p)
	}
}

// manPageProblems lists each command and flag that page lacks.
func manPageProblems(page string) []string {
	var problems []string
	sections := manSections(page)
	for _, c := range orderedCommands() {
		sec, ok := sections[c.name]
		if !ok {
			problems = append(problems, "urlkit(1) has no subsection for the command "+c.name)
			continue
		}
		for _, f := range commandFlags(c) {
			entry := ".TP\n" + manFlagLine(f) + "\n" + roff(f.usage)
			if !strings.Contains(sec, entry) {
				problems = append(problems, fmt.Sprintf("urlkit(1): %s %s has no entry (want %q)", c.name, strings.Join(f.spellings(), "/"), entry))
			}
		}
	}
	return problems
}

// TestManPageProblemsFinds plants the two ways a page can fall behind: a
// flag missing from its command's subsection, and a command missing.
func TestManPageProblemsFinds(t *testing.T) {
	page := manPage()
	if p := manPageProblems(page); len(p) > 0 {
		t.Fatalf("the generated page itself: %q", p)
	}
	var f flagDoc
	for _, d := range commandFlags(commands["get"]) {
		if d.name == "max-time" {
			f = d
		}
	}
	for name, planted := range map[string]string{
		"flag":    strings.Replace(page, ".TP\n"+manFlagLine(f)+"\n", "", 1),
		"command": strings.Replace(page, ".SS \"extract ", ".SS \"extracted ", 1),
	} {
		if planted == page {
			t.Fatalf("the %s plant changed nothing", name)
		}
		if p := manPageProblems(planted); len(p) != 1 {
			t.Errorf("a page with a %s removed: %q, want one problem", name, p)
		}
	}
}

// TestManPageRenders formats urlkit(1) with groff, every warning enabled,
// and requires no warning and every flag in the text a reader sees.
func TestManPageRenders(t *testing.T) {
	groff, err := exec.LookPath("groff")
	if err != nil {
		t.Skip("groff is not installed (Debian package groff-base)")
	}
	cmd := exec.Command(groff, "-man", "-Tutf8", "-ww", "-rLL=200n")
	cmd.Stdin = strings.NewReader(manPage())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil || errb.Len() > 0 {
		t.Fatalf("groff: %v\n%s", err, errb.String())
	}
	// Plain text: no overstrike, and the hyphen groff writes for \- as -.
	text := stripOverstrike(out.String())
	for _, c := range orderedCommands() {
		for _, f := range commandFlags(c) {
			for _, s := range f.spellings() {
				if !strings.Contains(text, s) {
					t.Errorf("the formatted page does not show %s of %s", s, c.name)
				}
			}
		}
	}
}

// stripOverstrike removes grotty's bold and underline (x\bx, _\bx) and
// maps the Unicode minus and hyphen to "-".
func stripOverstrike(s string) string {
	r := []rune(s)
	var b strings.Builder
	for i := 0; i < len(r); i++ {
		if i+1 < len(r) && r[i+1] == '\b' {
			i++ // drop the overstruck character and the backspace
			continue
		}
		switch r[i] {
		case '\u2212', '\u2010':
			b.WriteRune('-')
		default:
			b.WriteRune(r[i])
		}
	}
	return b.String()
}

// TestBashCompletion sources the bash script and completes with it: the
// commands, every flag of every command after "-", file names after a
// FILE flag, the shells after "help --completion".
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "urlkit.bash")
	if err := os.WriteFile(script, []byte(bashCompletion()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "links.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	complete := func(words ...string) []string {
		t.Helper()
		// complete WORDS...: COMP_WORDS as given, the cursor on the last.
		prog := `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _urlkit; printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command(bash, append([]string{"--norc", "--noprofile", "-c", prog, "bash", script}, words...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		return strings.Fields(string(out))
	}
	has := func(got []string, w string) bool {
		for _, g := range got {
			if g == w {
				return true
			}
		}
		return false
	}
	if got := complete("urlkit", "pa"); strings.Join(got, " ") != "parse" {
		t.Errorf("urlkit pa<TAB>: %q, want parse", got)
	}
	for _, c := range orderedCommands() {
		if got := complete("urlkit", c.name[:2]); !has(got, c.name) {
			t.Errorf("urlkit %s<TAB>: %q lacks %s", c.name[:2], got, c.name)
		}
		got := complete("urlkit", c.name, "-")
		for _, f := range commandFlags(c) {
			for _, s := range f.spellings() {
				if !has(got, s) {
					t.Errorf("urlkit %s -<TAB>: no %s", c.name, s)
				}
			}
			if f.arg == "FILE" {
				if got := complete("urlkit", c.name, f.spellings()[0], "li"); strings.Join(got, " ") != "links.txt" {
					t.Errorf("urlkit %s %s li<TAB>: %q, want links.txt", c.name, f.spellings()[0], got)
				}
			}
		}
	}
	for _, c := range orderedCommands() {
		for _, f := range commandFlags(c) {
			if len(f.values) == 0 {
				continue
			}
			if got := complete("urlkit", c.name, f.spellings()[0], ""); strings.Join(got, " ") != strings.Join(f.values, " ") {
				t.Errorf("urlkit %s %s <TAB>: %q, want %q", c.name, f.spellings()[0], got, f.values)
			}
		}
	}
	if got := complete("urlkit", "resolve", "--mode", "rfc3"); strings.Join(got, " ") != "rfc3986" {
		t.Errorf("urlkit resolve --mode rfc3<TAB>: %q, want rfc3986", got)
	}
	if got := complete("urlkit", "get", "--timeout", "li"); len(got) != 0 {
		t.Errorf("urlkit get --timeout li<TAB>: %q, want nothing (a duration)", got)
	}
	if got := complete("urlkit", "help", "--completion", "f"); strings.Join(got, " ") != "fish" {
		t.Errorf("urlkit help --completion f<TAB>: %q", got)
	}
}

// TestZshFishCompletionSyntax parses the zsh and fish scripts with the
// shells themselves, when they are installed, and requires every flag of
// every command in each.
func TestZshFishCompletionSyntax(t *testing.T) {
	for _, sh := range []struct {
		name, check string
		text        func() string
	}{
		{"zsh", "-n", zshCompletion},
		{"fish", "--no-execute", fishCompletion},
	} {
		text := sh.text()
		for _, c := range orderedCommands() {
			for _, f := range commandFlags(c) {
				want := flagSpelling(f.name)
				if sh.name == "fish" {
					want = map[bool]string{true: " -s " + f.name, false: " -l " + f.name}[len(f.name) == 1]
				}
				if !strings.Contains(text, want) {
					t.Errorf("%s completion: %s lacks %s", sh.name, c.name, want)
				}
			}
		}
		path, err := exec.LookPath(sh.name)
		if err != nil {
			t.Logf("%s is not installed: its script's syntax is not checked here", sh.name)
			continue
		}
		file := filepath.Join(t.TempDir(), "completion")
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(path, sh.check, file).CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("%s %s: %v\n%s", sh.name, sh.check, err, out)
		}
		if sh.name == "fish" {
			fishCompletes(t, path, file)
		}
	}
}

// fishCompletes asks fish for completions with the script loaded
// (complete -C): the commands, and every flag of every command.
func fishCompletes(t *testing.T, fish, script string) {
	t.Helper()
	var prog strings.Builder
	prog.WriteString("source " + fishQuote(script) + "\n")
	prog.WriteString("echo '# commands'; complete -C'urlkit '\n")
	for _, c := range orderedCommands() {
		prog.WriteString("echo '# " + c.name + "'; complete -C'urlkit " + c.name + " -'; complete -C'urlkit " + c.name + " --'\n")
	}
	prog.WriteString("echo '# resolve --mode'; complete -C'urlkit resolve --mode '\n")
	out, err := exec.Command(fish, "--no-config", "-c", prog.String()).CombinedOutput()
	if err != nil {
		t.Fatalf("fish: %v\n%s", err, out)
	}
	offered := map[string]map[string]bool{}
	section := ""
	for _, l := range strings.Split(string(out), "\n") {
		if name, ok := strings.CutPrefix(l, "# "); ok {
			section = name
			offered[section] = map[string]bool{}
			continue
		}
		word, _, _ := strings.Cut(l, "\t")
		if section != "" && word != "" {
			offered[section][word] = true
		}
	}
	for _, m := range []string{"rfc1630", "libwww", "rfc3986", "rfc1808"} {
		if !offered["resolve --mode"][m] {
			t.Errorf("fish: urlkit resolve --mode <TAB> does not offer %s", m)
		}
	}
	for _, c := range orderedCommands() {
		if !offered["commands"][c.name] {
			t.Errorf("fish: urlkit <TAB> does not offer %s", c.name)
		}
		for _, f := range commandFlags(c) {
			for _, s := range f.spellings() {
				if !offered[c.name][s] {
					t.Errorf("fish: urlkit %s -<TAB> does not offer %s", c.name, s)
				}
			}
		}
	}
}

// TestHelpFormats runs "urlkit help --man" and "--completion" as a user
// would, and refuses what is not one of them.
func TestHelpFormats(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		status int
		out    string
	}{
		{[]string{"help", "--man"}, exitOK, manPage()},
		{[]string{"help", "--completion", "bash"}, exitOK, bashCompletion()},
		{[]string{"help", "--completion", "zsh"}, exitOK, zshCompletion()},
		{[]string{"help", "--completion", "fish"}, exitOK, fishCompletion()},
		{[]string{"help", "--completion", "tcsh"}, exitUsage, ""},
		{[]string{"help", "--completion"}, exitUsage, ""},
		{[]string{"help", "--mna"}, exitUsage, ""},
	} {
		var out, errb bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
		if got := run(e, tc.args); got != tc.status || out.String() != tc.out {
			t.Errorf("urlkit %s: status %d, %d bytes out (stderr %q); want status %d, %d bytes", strings.Join(tc.args, " "), got, out.Len(), errb.String(), tc.status, len(tc.out))
		}
		if tc.status != exitOK && errb.Len() == 0 {
			t.Errorf("urlkit %s: refused without a word", strings.Join(tc.args, " "))
		}
	}
}
