package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// mdLink finds the target of a Markdown link: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// headingAnchor is the anchor GitHub gives a heading: lower case, letters,
// digits, "-" and "_" kept, spaces made "-", everything else dropped.
func headingAnchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchorsOf returns the anchors of a Markdown text's headings (outside
// fenced blocks).
func anchorsOf(text string) map[string]bool {
	out := map[string]bool{}
	fence := false
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") {
			fence = !fence
			continue
		}
		if !fence && strings.HasPrefix(l, "#") {
			h := strings.TrimLeft(l, "#")
			if strings.HasPrefix(h, " ") {
				out[headingAnchor(h)] = true
			}
		}
	}
	return out
}

// linkProblems checks every relative link of the Markdown file at path
// (outside fenced blocks): the file it names exists, and so does the
// heading its #anchor names. Links to other sites are not followed.
func linkProblems(path, text string) []string {
	var problems []string
	fence := false
	for n, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			dest := path
			if file != "" {
				dest = filepath.Join(filepath.Dir(path), file)
			}
			where := path + ":" + strconv.Itoa(n+1) + ": " + target
			info, err := os.Stat(dest)
			if err != nil {
				problems = append(problems, where+": no such file")
				continue
			}
			if anchor == "" || info.IsDir() {
				continue
			}
			if !strings.HasSuffix(dest, ".md") {
				problems = append(problems, where+": an anchor in a file that is not Markdown")
				continue
			}
			b, err := os.ReadFile(dest)
			if err != nil {
				problems = append(problems, where+": "+err.Error())
				continue
			}
			if !anchorsOf(string(b))[anchor] {
				problems = append(problems, where+": no heading with that anchor")
			}
		}
	}
	return problems
}

// TestDocLinks requires every relative link of README.md and docs/*.md to
// name a file that exists and, with an anchor, a heading it has; and
// README.md to link every page of docs/, so that a newcomer reaches each
// page from the front door. Links into ../shared (the specifications) are
// checked only when ../shared is there.
func TestDocLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	readme := filepath.Join(root, "README.md")
	for _, path := range docFiles(t, root) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range linkProblems(path, string(b)) {
			if strings.Contains(p, filepath.Join("..", "shared")) {
				if _, err := os.Stat(filepath.Join(root, "..", "shared")); err != nil {
					continue
				}
			}
			t.Error(p)
		}
	}
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, p := range pages {
		name := "docs/" + filepath.Base(p)
		if !strings.Contains(string(b), "]("+name+")") && !strings.Contains(string(b), "]("+name+"#") {
			t.Errorf("README.md does not link %s: add it to the list under \"Documentation\"", name)
		}
	}
}

// TestLinkProblemsFinds plants a missing file, a missing anchor and a good
// link, and requires the first two reported.
func TestLinkProblemsFinds(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "a.md")
	other := "# Title\n\n## Inputs, flags, help\n\n```\n# not a heading\n```\n"
	if err := os.WriteFile(filepath.Join(dir, "b.md"), []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	text := "[ok](b.md#inputs-flags-help) [gone](c.md) [bad](b.md#not-a-heading) [web](https://example.com/x#y)\n```\n[in a block](d.md)\n```\n"
	got := linkProblems(page, text)
	if len(got) != 2 || !strings.Contains(got[0], "c.md: no such file") || !strings.Contains(got[1], "b.md#not-a-heading: no heading") {
		t.Errorf("linkProblems: %q", got)
	}
	for h, want := range map[string]string{
		"The gateway: `urlkit serve`":                 "the-gateway-urlkit-serve",
		" Measured: hostile listings, floods, a soak": "measured-hostile-listings-floods-a-soak",
		"get: one plan, bounded, nothing lost":        "get-one-plan-bounded-nothing-lost",
	} {
		if got := headingAnchor(h); got != want {
			t.Errorf("headingAnchor(%q) = %q, want %q", h, got, want)
		}
	}
}

// TestCLIPageListsEveryCommand requires docs/cli.md's table of commands
// to have a row for every command urlkit has, so that a new command is
// documented where a reader looks for it.
func TestCLIPageListsEveryCommand(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "\n| command | what it does |\n")
	if !ok {
		t.Fatal(`docs/cli.md has no table headed "| command | what it does |"`)
	}
	rows := map[string]bool{}
	for _, l := range strings.Split(table, "\n") {
		if strings.HasPrefix(l, "|---") {
			continue
		}
		cell, ok := strings.CutPrefix(l, "| ")
		if !ok {
			break // the table's end
		}
		cell, _, _ = strings.Cut(cell, " |")
		// A cell names one or more commands: "`escape [...]`, `unescape [...]`".
		for _, part := range strings.Split(cell, "`") {
			if name, _, _ := strings.Cut(part, " "); name != "" {
				rows[name] = true
			}
		}
	}
	for _, c := range orderedCommands() {
		if !rows[c.name] {
			t.Errorf("docs/cli.md has no row for the command %s in its table of commands", c.name)
		}
	}
}
