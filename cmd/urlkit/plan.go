package main

import (
	"flag"
	"fmt"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

func init() {
	register(&command{
		name:    "plan",
		summary: "print how a client accesses each URL: the commands it sends (RFC 1738 section 3)",
		usage:   "[--json] [URL...]",
		flags: func(fs *flag.FlagSet) {
			fs.Bool("json", false, `print one JSON object per input, the plan under a key named after the scheme (e.g. "ftp")`)
		},
		run: runPlan,
	})
}

func runPlan(e *env, fs *flag.FlagSet, args []string) int {
	asJSON := fs.Lookup("json").Value.(flag.Getter).Get().(bool)
	cfg := scheme.ConfigFromEnv(e.getenv)
	status := exitOK
	err := eachInput(e, args, func(in string) bool {
		var p scheme.Plan
		u, err := urlkit.Parse(in)
		if err == nil {
			p, err = scheme.PlanOf(u, cfg)
		}
		if err != nil {
			status = exitInvalid
			fmt.Fprintf(e.stderr, "urlkit: %q: %v\n", in, err)
			if asJSON {
				writeJSON(e.stdout, map[string]any{"input": in, "valid": false, "error": errorJSON(err)})
			}
			return true
		}
		if asJSON {
			writeJSON(e.stdout, map[string]any{"input": in, "valid": true, "scheme": p.Scheme(), p.Scheme(): p})
			return true
		}
		fmt.Fprintln(e.stdout, u.String())
		for _, s := range p.Steps() {
			fmt.Fprintf(e.stdout, "  %s\n", s)
		}
		return true
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "urlkit: reading input: %v\n", err)
		return exitInvalid
	}
	return status
}
