package main

import (
	"flag"
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
		usage:   "[--set NAME] [--json] [STRING...]",
		lines:   true,
		raw:     true,
		flags: func(fs *flag.FlagSet) {
			fs.String("set", "unreserved", "the component's escape set, by `name`: "+strings.Join(names, ", "))
			fs.Bool("json", false, "print one JSON object per input")
		},
		run: runEscape,
	})
	register(&command{
		name:    "unescape",
		summary: "decode percent escapes; a malformed escape is an error with its offset",
		usage:   "[--search] [--json] [STRING...]",
		lines:   true,
		raw:     true,
		flags: func(fs *flag.FlagSet) {
			fs.Bool("search", false, `also decode "+" as a space, as in a search part (RFC 1630)`)
			fs.Bool("json", false, "print one JSON object per input")
		},
		run: runUnescape,
	})
}

func runEscape(e *env, fs *flag.FlagSet, args []string) int {
	name := fs.Lookup("set").Value.String()
	set, ok := urlkit.LookupEscapeSet(name)
	if !ok {
		e.stderr.Write([]byte("urlkit escape: unknown escape set " + quote(name) + "\n"))
		return exitUsage
	}
	asJSON := flagBool(fs, "json")
	return engineFor(e, "escape", fs).run(args, func(o *output, in *input) {
		stringResult(o, in, asJSON, urlkit.Escape(in.text, set), nil)
	})
}

func runUnescape(e *env, fs *flag.FlagSet, args []string) int {
	search := flagBool(fs, "search")
	asJSON := flagBool(fs, "json")
	return engineFor(e, "unescape", fs).run(args, func(o *output, in *input) {
		var out string
		var err error
		if search {
			out, err = urlkit.UnescapeSearch(in.text)
		} else {
			out, err = urlkit.Unescape(in.text)
		}
		stringResult(o, in, asJSON, out, err)
	})
}

// stringResult writes the result of escape or unescape: the string alone,
// or {"input", "line", "valid", "result" | "error"}.
func stringResult(o *output, in *input, asJSON bool, out string, err error) {
	if err != nil {
		o.fail(in, err)
	}
	if !asJSON {
		if err == nil {
			o.buf = append(append(o.buf, out...), '\n')
		}
		return
	}
	o.writeJSON(in, err == nil, in.text, err, func(w *jw) {
		if err == nil {
			w.kstr("result", out)
		}
	})
}

func quote(s string) string { return string(appendQuoted(nil, s, -1)) }
