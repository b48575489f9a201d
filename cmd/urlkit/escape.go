package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/urlkit/urlkit"
)

func init() {
	names := make([]string, len(urlkit.EscapeSets))
	for i, s := range urlkit.EscapeSets {
		names[i] = s.Name()
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

func runEscape(e *env, fs *flag.FlagSet, args []string) int {
	name := fs.Lookup("set").Value.String()
	set, ok := urlkit.LookupEscapeSet(name)
	if !ok {
		fmt.Fprintf(e.stderr, "urlkit escape: unknown escape set %q\n", name)
		return exitUsage
	}
	err := eachInput(e, args, func(s string) bool {
		fmt.Fprintln(e.stdout, urlkit.Escape(s, set))
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
