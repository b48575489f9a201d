package main

import (
	"flag"
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
		e.stderr.Write([]byte("urlkit escape: unknown escape set " + quote(name) + "\n"))
		return exitUsage
	}
	asJSON := flagBool(fs, "json")
	return engineFor(e, "escape", fs).run(args, func(o *results, in *input) {
		stringResult(o, in, asJSON, escape(in.text), nil)
	})
}

func runUnescape(e *env, fs *flag.FlagSet, args []string) int {
	search := flagBool(fs, "search")
	asJSON := flagBool(fs, "json")
	return engineFor(e, "unescape", fs).run(args, func(o *results, in *input) {
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
func stringResult(o *results, in *input, asJSON bool, out string, err error) {
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
			w.KStr("result", out)
		}
	})
}

func quote(s string) string { return string(appendQuoted(nil, s, -1)) }
