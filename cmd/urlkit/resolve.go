package main

import (
	"errors"
	"flag"

	"github.com/urlkit/urlkit"
)

func init() {
	register(&command{
		name:    "resolve",
		summary: "expand partial (relative) URLs in the context of a base URL (RFC 1630, libwww, RFC 3986 or RFC 1808)",
		usage:   "[--mode rfc1630|libwww|rfc3986|rfc1808] [--json] [--strict] [--lenient] BASE [REF...]",
		lines:   true,
		flags: func(fs *flag.FlagSet) {
			fs.TextVar(new(urlkit.Mode), "mode", urlkit.ModeRFC1630, "resolution `rules`: rfc1630 (the default: RFC 1630's rule as written), libwww (CERN libwww's HTParse, the RFC's printed examples), "+
				"rfc3986 (what browsers, curl and trurl do: --mode rfc3986), rfc1808")
			fs.Bool("json", false, "print one JSON object per reference")
			addLenientFlag(fs)
			fs.Bool("strict", false, "fail (exit 1, no result) when the base, reference or result breaks its scheme's rules; without it that is a warning on stderr and in the JSON \"warnings\" array")
		},
		run: func(e *env, fs *flag.FlagSet, args []string) int {
			return runPair(e, fs, args, "resolve", urlkit.ResolveStringWith)
		},
	})
	register(&command{
		name:    "relative",
		summary: "write URLs as the shortest partial form that resolves back to them from a base URL",
		usage:   "[--mode rfc1630|libwww|rfc3986|rfc1808] [--json] [--strict] [--lenient] BASE [TARGET...]",
		lines:   true,
		flags: func(fs *flag.FlagSet) {
			fs.TextVar(new(urlkit.Mode), "mode", urlkit.ModeRFC1630, "resolution `rules` the partial form must work under: rfc1630 (the default), libwww, rfc3986, rfc1808")
			fs.Bool("json", false, "print one JSON object per target")
			addLenientFlag(fs)
			fs.Bool("strict", false, "fail (exit 1) when the base or target breaks its scheme's rules; without it that is a warning")
		},
		run: func(e *env, fs *flag.FlagSet, args []string) int {
			return runPair(e, fs, args, "relative", urlkit.RelativeStringWith)
		},
	})
}

// runPair runs resolve or relative: the first argument is the base, the
// others (or the lines of the --url-file files or standard input) are the
// second operand. Both are read as --lenient says (reading.parser); the
// base's repairs are reported once, before the results.
func runPair(e *env, fs *flag.FlagSet, args []string, name string, op func(base, s string, m urlkit.Mode, parse func(string) (urlkit.URL, error)) (urlkit.URL, error)) int {
	if len(args) == 0 {
		e.stderr.Write([]byte("urlkit " + name + ": missing BASE\nusage: urlkit " + name + " " + commands[name].usage + "\n"))
		return exitUsage
	}
	mode := *fs.Lookup("mode").Value.(flag.Getter).Get().(*urlkit.Mode)
	asJSON := flagBool(fs, "json")
	strict := flagBool(fs, "strict")
	rd := readingOf(fs)
	base := args[0] // an argument is taken exactly as given
	if parse, repairs := rd.parser(); rd.lenient {
		if _, err := parse(base); err == nil {
			for _, w := range repairs()[base] {
				e.stderr.Write([]byte("urlkit " + name + ": base " + string(appendQuoted(nil, urlkit.RedactString(base), w.Offset)) + ": warning: " + w.String() + "\n"))
			}
		}
	}
	return engineFor(e, name, fs).run(args[1:], func(o *results, in *input) {
		parse, repairs := rd.parser()
		u, err := op(base, in.text, mode, parse)
		if w := repairs()[in.text]; w != nil {
			o.warn(in, in.text, w)
		}
		var re *urlkit.ResolveError
		if errors.As(err, &re) {
			// A strict error the lenient reading would repair says so.
			switch re.Part {
			case "base":
				re.Err = rd.hint(base, true, re.Err)
			case "reference", "target":
				re.Err = rd.hint(in.text, true, re.Err)
			}
		}
		var warn *urlkit.ResolveWarning
		if errors.As(err, &warn) && !strict {
			// Resolved on the generic syntax; the scheme's complaints
			// are warnings (issue 10).
			for _, f := range warn.Findings {
				o.message(in, []byte(quote(in.text)+" against "+quote(base)+": warning: "+f.String()))
			}
			err = nil
		}
		if err != nil {
			if warn != nil {
				o.setStatus(exitInvalid)
				o.message(in, []byte("--strict: "+plainError(err)))
			} else {
				o.fail(in, err)
			}
		}
		if !asJSON {
			if err == nil {
				o.buf = append(append(o.buf, u.String()...), '\n')
			}
			return
		}
		o.writeJSON(in, err == nil, in.text, err, func(w *jw) {
			w.KStr("base", base)
			w.KStr("mode", mode.String())
			if err != nil {
				return
			}
			w.KStr("result", u.String())
			w.Key("warnings")
			w.OpenArray()
			if warn != nil {
				for _, f := range warn.Findings {
					w.Open()
					w.KStr("part", f.Part)
					w.KStr("text", f.Text)
					off, comp, msg := -1, "", plainError(f.Err)
					var se *urlkit.SyntaxError
					if errors.As(f.Err, &se) {
						off, comp, msg = se.Offset, se.Component.String(), se.Reason()
					}
					w.KNum("offset", off)
					w.KStr("component", comp)
					w.KStr("message", msg)
					w.Close()
				}
			}
			w.CloseArray()
		})
	})
}
