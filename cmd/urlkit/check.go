package main

import (
	"flag"
	"fmt"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

func init() {
	register(&command{
		name:    "check",
		summary: "report security findings for URLs (RFC 1738 section 6); exit 1 when any is an error",
		usage:   "[--json] [URL...]",
		flags: func(fs *flag.FlagSet) {
			fs.Bool("json", false, "print one JSON object per input")
		},
		run: runCheck,
	})
}

type checkResult struct {
	Input    string           `json:"input"`
	Findings []scheme.Finding `json:"findings"`
	Error    *jsonError       `json:"error,omitempty"`
}

func runCheck(e *env, fs *flag.FlagSet, args []string) int {
	asJSON := fs.Lookup("json").Value.(flag.Getter).Get().(bool)
	status := exitOK
	err := eachInput(e, args, func(in string) bool {
		u, err := urlkit.Parse(in)
		if err != nil {
			status = exitInvalid
			fmt.Fprintf(e.stderr, "urlkit: %q: %v\n", in, err)
			if asJSON {
				writeJSON(e.stdout, checkResult{Input: in, Findings: []scheme.Finding{}, Error: errorJSON(err)})
			}
			return true
		}
		fs := scheme.Check(u)
		if scheme.HasErrors(fs) {
			status = exitInvalid
		}
		if asJSON {
			if fs == nil {
				fs = []scheme.Finding{}
			}
			writeJSON(e.stdout, checkResult{Input: in, Findings: fs})
			return true
		}
		if len(fs) == 0 {
			fmt.Fprintf(e.stdout, "%s: ok\n", in)
		}
		for _, f := range fs {
			fmt.Fprintf(e.stdout, "%s: %s\n", in, f)
		}
		return true
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "urlkit: reading input: %v\n", err)
		return exitInvalid
	}
	return status
}
