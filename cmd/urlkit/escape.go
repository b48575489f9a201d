package main

import (
	"flag"
	"strings"

	"github.com/urlkit/urlkit"
)

func init() {
	register(&command{
		name:    "escape",
		summary: "percent-encode strings for one URL component (upper-case hex, RFC 1738 2.2)",
		usage:   "[--set NAME] [--json] [STRING...]",
		lines:   true,
		raw:     true,
		flags: func(fs *flag.FlagSet) {
			fs.String("set", "unreserved", "what the string is to be, by `name`: a part ("+partNameList()+"), or "+extraSetList())
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

// extraSets are the choices of "escape --set" beyond the part names of
// parts.go (whose sets are urlkit.Escape's for that component): one path
// segment, one word of a search part, and the unreserved characters only.
var extraSets = []struct {
	name, what string
	escape     func(string) string
}{
	{"segment", "one path segment", urlkit.EscapeSegment},
	{"searchword", "one key or value of a search part, space as +", urlkit.EscapeSearchWord},
	{"unreserved", "the unreserved characters kept, the default", func(s string) string { return urlkit.Escape(s, urlkit.ComponentNone) }},
}

// setAliases are other spellings of escape sets.
var setAliases = map[string]string{"login": "user", "search-word": "searchword"}

func extraSetList() string {
	var b strings.Builder
	for i, x := range extraSets {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(x.name + " (" + x.what + ")")
	}
	return b.String()
}

// escapeSet returns the escaping function of "escape --set NAME".
func escapeSet(name string) (func(string) string, bool) {
	if a, ok := setAliases[name]; ok {
		name = a
	}
	for _, x := range extraSets {
		if x.name == name {
			return x.escape, true
		}
	}
	if c, ok := partByName(name); ok {
		return func(s string) string { return urlkit.Escape(s, c) }, true
	}
	return nil, false
}

func runEscape(e *env, fs *flag.FlagSet, args []string) int {
	name := fs.Lookup("set").Value.String()
	escape, ok := escapeSet(name)
	if !ok {
		e.stderr.Write([]byte("urlkit escape: --set: unknown name " + quote(name) + "; the names are the parts " + partNameList() +
			", and segment, searchword, unreserved\n"))
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
