package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/scheme"
)

// exitNotSupported is the status of get for a URL whose protocol urlkit
// has no retrieval for (wais, prospero, mid, cid): the plan is printed.
const exitNotSupported = 3

func init() {
	register(&command{
		name:    "get",
		summary: "fetch the resource over its real protocol (ftp, gopher, news/nntp, http, file); describe telnet sessions, compose mail",
		usage:   "[flags] URL...",
		flags: func(fs *flag.FlagSet) {
			fs.String("o", "", "write the resource to this file instead of standard output")
			fs.Bool("i", false, "http: include the response status line and headers")
			fs.Bool("v", false, "show the protocol exchange on standard error (passwords masked)")
			fs.Bool("raw", false, "gopher: write a menu as the server sent it instead of a listing of gopher URLs")
			fs.Duration("connect-timeout", access.DefaultConnectTimeout, "time allowed to connect")
			fs.Duration("timeout", access.DefaultReadTimeout, "time allowed between reads")
			fs.Int64("max-size", 0, "stop a transfer larger than this many bytes (0: no limit)")
			fs.String("email", "", "your e-mail address, the anonymous ftp password (RFC 1738 3.2.1); default $EMAIL or $USER@localhost")
			fs.String("nntp-server", "", "news server host[:port] for news: URLs; default $NNTPSERVER")
			fs.Bool("exec", false, "telnet, tn3270, rlogin: start the system's client (the URL's user is passed, never the password)")
			fs.String("subject", "", "mailto: the Subject of the message")
			fs.String("from", "", "mailto: the From address; default the --email address")
			fs.String("send", "", "mailto: send through the SMTP server at host:port instead of printing the message")
			fs.String("proxy", "", "fetch through this gateway (http://host:port/, e.g. urlkit serve); default $<scheme>_proxy unless $no_proxy matches")
			fs.Bool("progress", true, "draw a progress bar on standard error when it is a terminal")
		},
		run: runGet,
	})
}

// getFlags are the parsed flags of get.
type getFlags struct {
	out, email, nntp, subject, from, send, proxy string
	include, verbose, raw, exec, progress        bool
	opts                                         access.Options
}

func readGetFlags(e *env, fs *flag.FlagSet) getFlags {
	str := func(n string) string { return fs.Lookup(n).Value.String() }
	get := func(n string) any { return fs.Lookup(n).Value.(flag.Getter).Get() }
	g := getFlags{
		out: str("o"), email: str("email"), nntp: str("nntp-server"),
		subject: str("subject"), from: str("from"), send: str("send"), proxy: str("proxy"),
		include: get("i").(bool), verbose: get("v").(bool), raw: get("raw").(bool),
		exec: get("exec").(bool), progress: get("progress").(bool),
	}
	g.opts.ConnectTimeout = get("connect-timeout").(time.Duration)
	g.opts.ReadTimeout = get("timeout").(time.Duration)
	g.opts.MaxSize = get("max-size").(int64)
	if g.verbose {
		g.opts.Trace = e.stderr
	}
	return g
}

func runGet(e *env, fs *flag.FlagSet, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(e.stderr, "urlkit get: no URL given")
		return exitUsage
	}
	g := readGetFlags(e, fs)
	cfg := scheme.ConfigFromEnv(e.getenv)
	if g.email != "" {
		cfg.Email = g.email
	}
	if g.nntp != "" {
		cfg.NewsServer = g.nntp
	}
	out := e.stdout
	if g.out != "" {
		f, err := os.Create(g.out)
		if err != nil {
			fmt.Fprintf(e.stderr, "urlkit get: %v\n", err)
			return exitInvalid
		}
		defer f.Close()
		out = f
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	status := exitOK
	for _, arg := range args {
		if s := getOne(ctx, e, g, cfg, arg, out); s > status {
			status = s
		}
	}
	return status
}

// getOne fetches one URL and returns the exit status for it.
func getOne(ctx context.Context, e *env, g getFlags, cfg scheme.Config, in string, out io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(e.stderr, "urlkit get: %s: %v\n", redact(in), err)
		return exitInvalid
	}
	u, err := urlkit.Parse(in)
	if err != nil {
		return fail(err)
	}
	// RFC 1738 6: warn of a port other than the scheme's before connecting.
	for _, f := range scheme.Check(u) {
		if f.Code == "port" {
			fmt.Fprintf(e.stderr, "urlkit get: %s: warning: %s\n", redact(in), f.Message)
		}
	}
	// Gateways (RFC 1738 4): --proxy, <scheme>_proxy and no_proxy.
	if gw, err := (access.ProxySettings{Proxy: g.proxy, Getenv: e.getenv}).Gateway(u, cfg.NewsServer); err != nil || gw != "" {
		if err != nil {
			return fail(err)
		}
		return copyOut(e, g, out, fail, func(o *access.Options) (io.ReadCloser, error) { return access.FetchViaProxy(ctx, gw, u, o) })
	}
	plan, err := scheme.PlanOf(u, cfg)
	if err != nil {
		return fail(err)
	}
	opts := g.opts
	switch p := plan.(type) {
	case *scheme.Session:
		s := access.SessionFor(p)
		fmt.Fprintln(out, s.Describe())
		if !g.exec {
			return exitOK
		}
		cmd, err := s.Command(ctx)
		if err != nil {
			return fail(err)
		}
		cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
		if err := cmd.Run(); err != nil {
			return fail(err)
		}
		return exitOK
	case *scheme.MailPlan:
		return sendMail(ctx, e, g, cfg, p, out, fail)
	case *scheme.GopherPlan:
		if (p.Type == '1' || p.Type == '7') && !g.raw {
			items, err := access.FetchGopherMenu(ctx, access.GopherRequestFor(p), &opts)
			if err != nil {
				return fail(err)
			}
			if err := access.WriteMenuListing(out, items); err != nil {
				return fail(err)
			}
			return exitOK
		}
	case *scheme.HTTPPlan:
		if g.include {
			return copyOut(e, g, out, fail, func(o *access.Options) (io.ReadCloser, error) {
				return access.FetchHTTP(ctx, &access.HTTPRequest{URL: p.URL, IncludeHeaders: true}, o)
			})
		}
	}
	switch plan.(type) {
	case *scheme.FTPPlan, *scheme.GopherPlan, *scheme.NNTPPlan, *scheme.HTTPPlan, *scheme.FilePlan:
	default:
		// wais, prospero, mid, cid: print what a client would do.
		fmt.Fprintln(out, u.String())
		for _, step := range plan.Steps() {
			fmt.Fprintln(out, "  "+step)
		}
		fmt.Fprintf(e.stderr, "urlkit get: %s: %s: %v\n", redact(in), u.Scheme(), access.ErrNotRetrievable)
		return exitNotSupported
	}
	return copyOut(e, g, out, fail, func(o *access.Options) (io.ReadCloser, error) {
		return access.Open(ctx, plan, o, passwordPrompt(e))
	})
}

// copyOut opens the resource with open and copies it to out, drawing a
// progress bar when standard error is a terminal.
func copyOut(e *env, g getFlags, out io.Writer, fail func(error) int, open func(*access.Options) (io.ReadCloser, error)) int {
	opts := g.opts
	var bar *progressbar.ProgressBar
	if g.progress && isTerminal(e.stderr) {
		bar = progressbar.NewOptions64(-1, progressbar.OptionSetWriter(e.stderr), progressbar.OptionShowBytes(true),
			progressbar.OptionSetDescription("fetching"), progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
		opts.Progress = func(n int64) { bar.Set64(n) }
	}
	rc, err := open(&opts)
	if err != nil {
		return fail(err)
	}
	defer rc.Close()
	_, err = io.Copy(out, rc)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return fail(err)
	}
	return exitOK
}

func sendMail(ctx context.Context, e *env, g getFlags, cfg scheme.Config, p *scheme.MailPlan, out io.Writer, fail func(error) int) int {
	from := g.from
	if from == "" {
		from = cfg.Email
	}
	m := &access.MailMessage{From: from, To: []string{p.To}, Subject: g.subject, Date: time.Now(), Body: e.stdin}
	if g.send == "" {
		if err := access.WriteMessage(out, m); err != nil {
			return fail(err)
		}
		return exitOK
	}
	if err := access.SendMail(ctx, g.send, m, &g.opts); err != nil {
		return fail(err)
	}
	fmt.Fprintf(e.stderr, "urlkit get: message to %s sent through %s\n", p.To, g.send)
	return exitOK
}

// passwordPrompt asks for an ftp password on the terminal, when there is
// one (RFC 1738 3.2.1: "the program interpreting the FTP URL should request
// one from the user").
func passwordPrompt(e *env) func(context.Context) (string, error) {
	return func(context.Context) (string, error) {
		tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		if err != nil {
			return "", fmt.Errorf("the server asks for a password and there is no terminal to ask on: %w", access.ErrPasswordRequired)
		}
		defer tty.Close()
		fmt.Fprint(tty, "password: ")
		b, err := term.ReadPassword(int(tty.Fd()))
		fmt.Fprintln(tty)
		return string(b), err
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// redact returns a URL for messages with any password replaced, so that
// get never prints one (RFC 1738 6).
func redact(s string) string {
	u, err := urlkit.Parse(s)
	if err != nil {
		return s
	}
	pw, ok := u.Password()
	if !ok || pw == "" {
		return s
	}
	user, _ := u.User()
	prefix := u.RawScheme() + "://" + user + ":"
	if i := strings.Index(s, prefix+pw+"@"); i >= 0 {
		return s[:i] + prefix + "****@" + s[i+len(prefix)+len(pw)+1:]
	}
	return s
}
