package main

import (
	"reflect"
	"testing"
)

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"parse", "parse", 0}, {"pars", "parse", 1}, {"parsee", "parse", 1},
		{"prase", "parse", 1}, // one swap of adjacent letters
		{"pasre", "parse", 1}, {"kitten", "sitting", 3}, {"max", "raw", 2}, {"", "abc", 3}, {"ca", "abc", 3},
	} {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := editDistance(tt.b, tt.a); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d (not symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	cmds := []string{"canon", "check", "equal", "escape", "get", "parse", "plan", "resolve", "relative", "unescape"}
	flags := []string{"L", "O", "i", "json", "max-line", "max-size", "mode", "o", "raw", "s", "silent"}
	for _, tt := range []struct {
		word  string
		in    []string
		want  []string
		cause string
	}{
		{"pars", cmds, []string{"parse"}, "a letter missing"},
		{"PARSE", cmds, []string{"parse"}, "case"},
		{"resovle", cmds, []string{"resolve"}, "two letters swapped"},
		{"escap", cmds, []string{"escape"}, "nearest only, not unescape"},
		{"fetch", cmds, nil, "nothing near"},
		{"max", flags, []string{"max-line", "max-size"}, "an abbreviation"},
		{"jsn", flags, []string{"json"}, "one edit"},
		{"x", flags, nil, "one letter: no other one-letter flag is offered"},
		{"l", flags, []string{"L"}, "one letter in the other case"},
		{"mod", flags, []string{"mode"}, "one edit"},
	} {
		if got := suggest(tt.word, tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("suggest(%q) = %q, want %q (%s)", tt.word, got, tt.want, tt.cause)
		}
	}
	if got := didYouMean([]string{"a", "b", "c"}, flagSpelling); got != "; did you mean -a, -b or -c?" {
		t.Errorf("didYouMean = %q", got)
	}
}

// Every registered command has its place in help's groups.
func TestHelpListsEveryCommand(t *testing.T) {
	grouped := map[string]bool{}
	for _, g := range commandGroups {
		for _, n := range g.names {
			if commands[n] == nil {
				t.Errorf("group %q lists %q, which is no command", g.title, n)
			}
			grouped[n] = true
		}
	}
	for n := range commands {
		if !grouped[n] {
			t.Errorf("command %q is in no group of help (commandGroups)", n)
		}
	}
}
