package main

import (
	"flag"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

func init() {
	register(&command{
		name:    "check",
		summary: "report security findings for URLs (RFC 1738 section 6); exit 1 when any is an error",
		usage:   "[--json] [--lenient] [URL...]",
		lines:   true,
		flags: func(fs *flag.FlagSet) {
			fs.Bool("json", false, "print one JSON object per input")
			addLenientFlag(fs)
		},
		run: runCheck,
	})
}

func runCheck(e *env, fs *flag.FlagSet, args []string) int {
	asJSON := flagBool(fs, "json")
	rd := readingOf(fs)
	return engineFor(e, "check", fs).run(args, func(o *results, in *input) {
		u, warns, err := rd.url(in.text)
		o.warn(in, in.text, warns)
		var findings []scheme.Finding
		if err != nil {
			o.fail(in, err)
		} else {
			findings = scheme.Check(u)
			if scheme.HasErrors(findings) {
				o.setStatus(exitInvalid)
			}
		}
		if asJSON {
			o.writeJSON(in, err == nil && !scheme.HasErrors(findings), in.text, err, func(w *jw) {
				w.Key("findings")
				w.OpenArray()
				for _, f := range findings {
					w.Open()
					w.KStr("severity", f.Severity.String())
					w.KStr("code", f.Code)
					w.KNum("offset", f.Offset)
					w.KStr("component", componentName(f.Offset, f.Component))
					w.KStr("message", f.Message)
					w.Close()
				}
				w.CloseArray()
			})
			return
		}
		if err != nil {
			return
		}
		// The findings' offsets are in the URL as read: repaired, with
		// --lenient.
		shown := in.text
		if rd.lenient {
			shown = u.String()
		}
		if len(findings) == 0 {
			o.buf = append(append(o.buf, shown...), ": ok\n"...)
		}
		for _, f := range findings {
			o.buf = append(append(append(o.buf, shown...), ": "...), f.String()...)
			o.buf = append(o.buf, '\n')
		}
	})
}

// componentName is the JSON name of the component a finding is in: "" for
// a finding about the URL as a whole (offset -1).
func componentName(off int, c urlkit.Component) string {
	if off < 0 {
		return ""
	}
	return c.String()
}
