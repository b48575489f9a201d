package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/urlkit/urlkit"
)

func init() {
	register(&command{
		name:    "canon",
		summary: "bring URLs to one encoding level (RFC 1630 equivalence)",
		usage:   "[--json] [URL...]",
		flags: func(fs *flag.FlagSet) {
			fs.Bool("json", false, "print one JSON object per input")
		},
		run: runCanon,
	})
	register(&command{
		name:    "equal",
		summary: "report whether URLs are equivalent (RFC 1630): all arguments against the first, or two URLs per input line",
		usage:   "[--json] [URL URL...]",
		flags: func(fs *flag.FlagSet) {
			fs.Bool("json", false, "print one JSON object per comparison")
		},
		run: runEqual,
	})
}

func runCanon(e *env, fs *flag.FlagSet, args []string) int {
	asJSON := fs.Lookup("json").Value.String() == "true"
	status := exitOK
	err := eachInput(e, args, func(in string) bool {
		u, err := urlkit.ParseRef(in)
		if err != nil {
			status = exitInvalid
			fmt.Fprintf(e.stderr, "urlkit canon: %q: %v\n", in, err)
			if asJSON {
				writeJSON(e.stdout, map[string]any{"input": in, "valid": false, "error": errorJSON(err)})
			}
			return true
		}
		c := urlkit.Canonical(u)
		if asJSON {
			writeJSON(e.stdout, map[string]any{"input": in, "valid": true, "canonical": c.String()})
		} else {
			fmt.Fprintln(e.stdout, c)
		}
		return true
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "urlkit canon: reading input: %v\n", err)
		return exitInvalid
	}
	return status
}

func runEqual(e *env, fs *flag.FlagSet, args []string) int {
	asJSON := fs.Lookup("json").Value.String() == "true"
	status := exitOK
	bad := func(in string, err error) {
		status = exitInvalid
		fmt.Fprintf(e.stderr, "urlkit equal: %q: %v\n", in, err)
		if asJSON {
			writeJSON(e.stdout, map[string]any{"input": in, "error": errorJSON(err)})
		}
	}
	compare := func(a, b string) {
		ua, err := urlkit.ParseRef(a)
		if err != nil {
			bad(a, err)
			return
		}
		ub, err := urlkit.ParseRef(b)
		if err != nil {
			bad(b, err)
			return
		}
		eq := urlkit.Equal(ua, ub)
		if !eq {
			status = exitInvalid
		}
		switch {
		case asJSON:
			writeJSON(e.stdout, map[string]any{"a": a, "b": b, "equal": eq,
				"canonical_a": urlkit.Canonical(ua).String(), "canonical_b": urlkit.Canonical(ub).String()})
		case eq:
			fmt.Fprintf(e.stdout, "equal\t%s\t%s\n", a, b)
		default:
			fmt.Fprintf(e.stdout, "different\t%s\t%s\n", a, b)
		}
	}
	if len(args) == 1 {
		fmt.Fprintln(e.stderr, "urlkit equal: need at least two URLs")
		return exitUsage
	}
	if len(args) > 1 {
		for _, b := range args[1:] {
			compare(args[0], b)
		}
		return status
	}
	err := eachInput(e, nil, func(line string) bool {
		f := strings.Fields(line)
		if len(f) == 0 {
			return true
		}
		if len(f) != 2 {
			status = exitInvalid
			fmt.Fprintf(e.stderr, "urlkit equal: %q: want two URLs separated by white space, got %d fields\n", line, len(f))
			return true
		}
		compare(f[0], f[1])
		return true
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "urlkit equal: reading input: %v\n", err)
		return exitInvalid
	}
	return status
}
