package main

import (
	"encoding/json"
	"flag"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

func init() {
	register(&command{
		name:    "plan",
		summary: "print how a client accesses each URL: the commands it sends (RFC 1738 section 3)",
		usage:   "[--json] [URL...]",
		lines:   true,
		flags: func(fs *flag.FlagSet) {
			fs.Bool("json", false, `print one JSON object per input, the plan under a key named after the scheme (e.g. "ftp")`)
		},
		run: runPlan,
	})
}

func runPlan(e *env, fs *flag.FlagSet, args []string) int {
	asJSON := flagBool(fs, "json")
	cfg := scheme.ConfigFromEnv(e.getenv)
	return engineFor(e, "plan", fs).run(args, func(o *output, in *input) {
		var p scheme.Plan
		u, err := urlkit.Parse(in.text)
		if err == nil {
			p, err = scheme.PlanOf(u, cfg)
		}
		var pj []byte
		if err == nil && asJSON {
			// The plan types belong to package scheme and carry their
			// own JSON form.
			pj, err = json.Marshal(p)
		}
		if err != nil {
			o.fail(in, err)
		}
		if asJSON {
			o.writeJSON(in, err == nil, in.text, err, func(w *jw) {
				if err == nil {
					w.kstr("scheme", p.Scheme())
					w.key(p.Scheme())
					w.raw(pj)
				}
			})
			return
		}
		if err != nil {
			return
		}
		o.buf = append(append(o.buf, u.String()...), '\n')
		for _, s := range p.Steps() {
			o.buf = append(append(append(o.buf, "  "...), s...), '\n')
		}
	})
}
