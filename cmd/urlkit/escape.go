package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/urlkit/urlkit"
)

func init() {
	names := make([]string, len(escapeSets))
	for i, s := range escapeSets {
		names[i] = s.name
	}
	register(&command{
		name:    "escape",
		summary: "percent-encode strings for one URL component (upper-case hex, RFC 1738 2.2)",
		usage:   "[--set NAME] [STRING...]",
		flags: func(fs *flag.FlagSet) {
			fs.String("set", "unreserved", "the component's escape set: "+strings.Join(names, ", "))
		},
		run: runEscape,
	})
	register(&command{
		name:    "unescape",
		summary: "decode percent escapes; a malformed escape is an error with its offset",
		usage:   "[--search] [STRING...]",
		flags: func(fs *flag.FlagSet) {
			fs.Bool("search", false, `also decode "+" as a space, as in a search part (RFC 1630)`)
		},
		run: runUnescape,
	})
}

// escapeSets are the choices of "escape --set": a component's rules, one
// path segment, or one word of a search part.
var escapeSets = []struct {
	name   string
	escape func(string) string
}{
	{"unreserved", func(s string) string { return urlkit.Escape(s, urlkit.ComponentNone) }},
	{"login", func(s string) string { return urlkit.Escape(s, urlkit.ComponentUser) }},
	{"segment", urlkit.EscapeSegment},
	{"path", func(s string) string { return urlkit.Escape(s, urlkit.ComponentPath) }},
	{"search", func(s string) string { return urlkit.Escape(s, urlkit.ComponentSearch) }},
	{"searchword", urlkit.EscapeSearchWord},
	{"fragment", func(s string) string { return urlkit.Escape(s, urlkit.ComponentFragment) }},
	{"opaque", func(s string) string { return urlkit.Escape(s, urlkit.ComponentOpaque) }},
}

func runEscape(e *env, fs *flag.FlagSet, args []string) int {
	name := fs.Lookup("set").Value.String()
	var escape func(string) string
	for _, s := range escapeSets {
		if s.name == name {
			escape = s.escape
		}
	}
	if escape == nil {
		fmt.Fprintf(e.stderr, "urlkit escape: unknown escape set %q\n", name)
		return exitUsage
	}
	err := eachInput(e, args, func(s string) bool {
		fmt.Fprintln(e.stdout, escape(s))
		return true
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "urlkit escape: reading input: %v\n", err)
		return exitInvalid
	}
	return exitOK
}

func runUnescape(e *env, fs *flag.FlagSet, args []string) int {
	search := fs.Lookup("search").Value.String() == "true"
	status := exitOK
	err := eachInput(e, args, func(s string) bool {
		var out string
		var err error
		if search {
			out, err = urlkit.UnescapeSearch(s)
		} else {
			out, err = urlkit.Unescape(s)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "urlkit unescape: %q: %v\n", s, err)
			status = exitInvalid
			return true
		}
		fmt.Fprintln(e.stdout, out)
		return true
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "urlkit unescape: reading input: %v\n", err)
		return exitInvalid
	}
	return status
}
