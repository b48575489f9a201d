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
		usage:   "[--json] [plan flags] [URL...]",
		flags: func(fs *flag.FlagSet) {
			fs.Bool("json", false, `print one JSON object per input, the plan under a key named after the scheme (e.g. "ftp")`)
			planFlags(fs)
		},
		run: runPlan,
	})
}

// planFlags defines the flags that change a plan. plan and get both call
// it, and both read them with planConfig, so that what plan prints is what
// get sends.
func planFlags(fs *flag.FlagSet) {
	fs.String("email", "", "your e-mail address, the anonymous ftp password (RFC 1738 3.2.1); default $EMAIL or $USER@localhost")
	fs.String("nntp-server", "", "news server host[:port] for news: URLs; default $NNTPSERVER")
	fs.Bool("compressed", false, "http: ask for a compressed body (Accept-Encoding: gzip) and decode it")
}

// planConfig is the plan configuration: the environment (EMAIL, USER,
// NNTPSERVER), then the flags of planFlags.
func planConfig(e *env, fs *flag.FlagSet) scheme.Config {
	cfg := scheme.ConfigFromEnv(e.getenv)
	if v := fs.Lookup("email").Value.String(); v != "" {
		cfg.Email = v
	}
	if v := fs.Lookup("nntp-server").Value.String(); v != "" {
		cfg.NewsServer = v
	}
	cfg.Compressed = fs.Lookup("compressed").Value.(flag.Getter).Get().(bool)
	return cfg
}

// printablePlan returns the plan as it may be shown: an ftp password from
// the URL masked.
func printablePlan(p scheme.Plan) scheme.Plan {
	if f, ok := p.(*scheme.FTPPlan); ok {
		return f.Redacted()
	}
	return p
}

func runPlan(e *env, fs *flag.FlagSet, args []string) int {
	asJSON := fs.Lookup("json").Value.(flag.Getter).Get().(bool)
	cfg := planConfig(e, fs)
	status := exitOK
	err := eachInput(e, args, func(in string) bool {
		var p scheme.Plan
		u, err := urlkit.Parse(in)
		if err == nil {
			p, err = scheme.PlanOf(u, cfg)
		}
		if err != nil {
			status = exitInvalid
			fmt.Fprintf(e.stderr, "urlkit: %q: %v\n", redact(in), redactErr(in, err))
			if asJSON {
				writeJSON(e.stdout, map[string]any{"input": redact(in), "valid": false, "error": errorJSON(err)})
			}
			return true
		}
		p = printablePlan(p)
		if asJSON {
			writeJSON(e.stdout, map[string]any{"input": redact(in), "valid": true, "scheme": p.Scheme(), p.Scheme(): p})
			return true
		}
		fmt.Fprintln(e.stdout, redact(u.String()))
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
