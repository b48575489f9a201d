package main

import (
	"flag"

	"github.com/urlkit/urlkit/scheme"
)

func init() {
	register(&command{
		name:    "plan",
		summary: "print how a client accesses each URL: the commands it sends (RFC 1738 section 3)",
		usage:   "[--json] [--lenient] [-I] [plan flags] [URL...]",
		lines:   true,
		aliases: map[string]string{"I": "head"},
		notes:   getNotes,
		flags: func(fs *flag.FlagSet) {
			fs.Bool("json", false, `print one JSON object per input, the plan under a key named after the scheme (e.g. "ftp")`)
			addLenientFlag(fs)
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
	head := fs.Bool("head", false, "ask what is known about the resource instead of retrieving it: http HEAD; ftp SIZE and MDTM (shown as Content-Length and Last-Modified); gopher the Gopher+ attributes (selector TAB !)")
	fs.BoolVar(head, "I", false, "")
	fs.Bool("ftp-details", false, "ftp directories: FEAT, then MLSD (LIST where FEAT offers no MLST, NLST where LIST is refused), for sizes and dates; default NLST, names only (RFC 1738 3.2.2)")
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
	cfg.FTPListDetails = fs.Lookup("ftp-details").Value.(flag.Getter).Get().(bool)
	cfg.Head = fs.Lookup("head").Value.(flag.Getter).Get().(bool)
	return cfg
}

func runPlan(e *env, fs *flag.FlagSet, args []string) int {
	asJSON := flagBool(fs, "json")
	cfg := planConfig(e, fs)
	rd := readingOf(fs)
	return engineFor(e, "plan", fs).run(args, func(o *results, in *input) {
		var p scheme.Plan
		u, warns, err := rd.url(in.text)
		o.warn(in, in.text, warns)
		if err == nil {
			p, err = scheme.PlanOf(u, cfg)
			err = rd.hint(in.text, false, err)
		}
		// Passwords are never printed: the input is shown redacted.
		shown := input{text: redact(in.text), line: in.line, src: in.src}
		if err != nil {
			o.setStatus(exitInvalid)
			o.message(in, []byte(quote(shown.text)+": "+redactErr(in.text, err)))
		}
		if asJSON {
			o.writeJSON(&shown, err == nil, in.text, err, func(w *jw) {
				if err == nil {
					w.KStr("scheme", p.Scheme())
					w.Key(p.Scheme())
					w.Value(func(b []byte) []byte { return scheme.AppendPlanJSON(b, p) })
				}
			})
			return
		}
		if err != nil {
			return
		}
		o.buf = append(append(o.buf, redact(u.String())...), '\n')
		for _, s := range p.Steps() { // a password from the URL is masked
			o.buf = append(append(append(o.buf, "  "...), s.Text()...), '\n')
		}
	})
}
