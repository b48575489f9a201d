package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/urlkit/urlkit"
)

func init() {
	register(&command{
		name:    "resolve",
		summary: "expand partial (relative) URLs in the context of a base URL (RFC 1630, libwww, RFC 3986 or RFC 1808)",
		usage:   "[--mode rfc1630|libwww|rfc3986|rfc1808] [--json] [--strict] BASE [REF...]",
		flags: func(fs *flag.FlagSet) {
			m := urlkit.ModeRFC1630
			fs.Var(&m, "mode", "resolution rules: rfc1630 (the RFC's rule as written), libwww (CERN libwww's HTParse, the RFC's printed examples), rfc3986, rfc1808")
			fs.Bool("json", false, "print one JSON object per reference")
			fs.Bool("strict", false, "fail (exit 1, no result) when the base, reference or result breaks its scheme's rules; without it that is a warning on stderr and in the JSON \"warnings\" array")
		},
		run: func(e *env, fs *flag.FlagSet, args []string) int {
			return runPair(e, fs, args, "resolve", urlkit.ResolveString)
		},
	})
	register(&command{
		name:    "relative",
		summary: "write URLs as the shortest partial form that resolves back to them from a base URL",
		usage:   "[--mode rfc1630|libwww|rfc3986|rfc1808] [--json] [--strict] BASE [TARGET...]",
		flags: func(fs *flag.FlagSet) {
			m := urlkit.ModeRFC1630
			fs.Var(&m, "mode", "resolution rules the partial form must work under: rfc1630, libwww, rfc3986, rfc1808")
			fs.Bool("json", false, "print one JSON object per target")
			fs.Bool("strict", false, "fail (exit 1) when the base or target breaks its scheme's rules; without it that is a warning")
		},
		run: func(e *env, fs *flag.FlagSet, args []string) int {
			return runPair(e, fs, args, "relative", relativeString)
		},
	})
}

func relativeString(base, target string, m urlkit.Mode) (urlkit.URL, error) {
	var findings []urlkit.SchemeFinding
	parse := func(s, part string) (urlkit.URL, error) {
		u, err := urlkit.ParseRef(s)
		if err == nil {
			return u, nil
		}
		g, gerr := urlkit.ParseGeneric(s)
		if gerr != nil {
			return urlkit.URL{}, &urlkit.ResolveError{Op: "relative", Mode: m, Base: base, Ref: target, Part: part, Err: gerr}
		}
		findings = append(findings, urlkit.SchemeFinding{Part: part, Text: s, Err: err})
		return g, nil
	}
	b, err := parse(base, "base")
	if err != nil {
		return urlkit.URL{}, err
	}
	t, err := parse(target, "target")
	if err != nil {
		return urlkit.URL{}, err
	}
	r, err := urlkit.Relative(b, t, m)
	if err == nil && findings != nil {
		// Generic URLs that break their scheme's rules: a warning, as
		// for resolve.
		return r, &urlkit.ResolveWarning{Mode: m, Base: base, Ref: target, Result: r.String(), Findings: findings}
	}
	return r, err
}

// runPair runs resolve or relative: the first argument is the base, the
// others (or the lines of standard input) are the second operand.
func runPair(e *env, fs *flag.FlagSet, args []string, name string, op func(base, s string, m urlkit.Mode) (urlkit.URL, error)) int {
	if len(args) == 0 {
		fmt.Fprintf(e.stderr, "urlkit %s: missing BASE\n", name)
		fs.Usage()
		return exitUsage
	}
	mode := *fs.Lookup("mode").Value.(*urlkit.Mode)
	asJSON := fs.Lookup("json").Value.String() == "true"
	strict := false
	if f := fs.Lookup("strict"); f != nil {
		strict = f.Value.String() == "true"
	}
	base := args[0]
	status := exitOK
	err := eachInput(e, args[1:], func(in string) bool {
		u, err := op(base, in, mode)
		var warn *urlkit.ResolveWarning
		if errors.As(err, &warn) && !strict {
			// Resolved on the generic syntax; the scheme's complaints
			// are warnings (issue 10).
			for _, f := range warn.Findings {
				fmt.Fprintf(e.stderr, "urlkit %s: %q against %q: warning: %s\n", name, in, base, f)
			}
			err = nil
		}
		if err != nil {
			status = exitInvalid
			if warn != nil {
				fmt.Fprintf(e.stderr, "urlkit %s: --strict: %v\n", name, err)
			} else {
				fmt.Fprintf(e.stderr, "urlkit %s: %v\n", name, err)
			}
			if asJSON {
				writeJSON(e.stdout, map[string]any{"base": base, "input": in, "mode": mode.String(), "valid": false, "error": errorJSON(err)})
			}
			return true
		}
		if asJSON {
			obj := map[string]any{"base": base, "input": in, "mode": mode.String(), "valid": true, "result": u.String()}
			obj["warnings"] = warningsJSON(warn)
			writeJSON(e.stdout, obj)
			return true
		}
		fmt.Fprintln(e.stdout, u)
		return true
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "urlkit %s: reading input: %v\n", name, err)
		return exitInvalid
	}
	return status
}

// resolveWarningJSON is one entry of resolve's "warnings" array: a rule of
// the scheme that the base, the reference or the result breaks, with the
// offset in that text.
type resolveWarningJSON struct {
	Part      string `json:"part"`
	Text      string `json:"text"`
	Offset    int    `json:"offset"`
	Component string `json:"component,omitempty"`
	Message   string `json:"message"`
}

// warningsJSON lists w's findings; it is empty, not null, without any.
func warningsJSON(w *urlkit.ResolveWarning) []resolveWarningJSON {
	out := []resolveWarningJSON{}
	if w == nil {
		return out
	}
	for _, f := range w.Findings {
		j := resolveWarningJSON{Part: f.Part, Text: f.Text, Offset: -1, Message: f.Err.Error()}
		var se *urlkit.SyntaxError
		if errors.As(f.Err, &se) {
			j.Offset, j.Component, j.Message = se.Offset, se.Component.String(), se.Reason()
		}
		out = append(out, j)
	}
	return out
}
