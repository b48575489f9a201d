package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/archive"
	"github.com/urlkit/urlkit/internal/tempfile"
	"github.com/urlkit/urlkit/scheme"
)

// Exit statuses of get beyond the common ones.
const (
	// exitNotSupported is the status for a URL whose protocol urlkit has
	// no retrieval for (mid, cid): the plan is printed.
	exitNotSupported = 3
	// exitInterrupted is the status after Ctrl-C (128 + SIGINT); SIGTERM
	// and SIGHUP end get with 128 plus theirs (signals.go).
	exitInterrupted = 130
)

// outputList collects -o FILE and -O in order: one entry per URL,
// remoteMark for -O (name the file after the URL's last segment).
type outputList struct{ names *[]string }

func (o outputList) String() string { return "" }
func (o outputList) Set(s string) error {
	if s == "" {
		return errors.New("empty file name (use - for standard output)")
	}
	*o.names = append(*o.names, s)
	return nil
}

// remoteMark stands for -O in the list of outputs: no file name holds a
// NUL byte.
const remoteMark = "\x00-O"

type remoteName struct{ names *[]string }

func (o remoteName) String() string   { return "" }
func (o remoteName) IsBoolFlag() bool { return true }
func (o remoteName) Set(s string) error {
	if s != "true" {
		return errors.New("-O takes no value")
	}
	*o.names = append(*o.names, remoteMark)
	return nil
}

// getNotes is the part of get's help (and plan's) the flags cannot say.
const getNotes = `-I (--head) sends: http and https HEAD (the status line and header are
shown; a 4xx or 5xx exits 1); ftp TYPE I, SIZE and MDTM, shown as
Content-Length and Last-Modified, with no data connection (a directory URL,
ending in /: its CWDs alone); gopher the Gopher+ attribute request,
selector TAB ! (a server that answers without a Gopher+ header line is
said not to speak Gopher+). Other schemes have none.
ftp: a last segment without ;type= and without a final / may name a
directory: when the server refuses RETR with 550 and accepts CWD to it,
it is listed as a directory, as lynx does (with -I: SIZE refused, nothing
more asked), and a note on standard error gives its URL with the /.
`

func init() {
	register(&command{
		name:    "get",
		summary: "fetch the resource over its real protocol (ftp, gopher, news/nntp, http, file, wais, prospero); describe telnet sessions, compose mail",
		usage:   "[--lenient] [flags] URL...",
		lines:   true,
		single:  true,
		aliases: map[string]string{"s": "silent", "I": "head"},
		notes:   getNotes,
		flags: func(fs *flag.FlagSet) {
			outs := new([]string)
			fs.Var(outputList{outs}, "o", "write the next URL's resource to `FILE` (- for standard output); repeat for several URLs")
			fs.Var(remoteName{outs}, "O", "write the next URL's resource to a file named after the URL's last segment; repeat for several URLs")
			fs.Bool("r", false, "with --warc: capture recursively, following gopher menu items, ftp directory entries, WAIS hits and Prospero links (docs/archiving.md)")
			fs.Int("depth", 5, "-r: how many links deep to follow from the URLs given")
			fs.Int("max-items", 10000, "-r: stop after this many retrievals (0: no limit)")
			fs.Int64("max-bytes", 0, "-r: stop once the resources retrieved hold this many bytes (0: no limit)")
			fs.Duration("wait", 0, "-r: pause this long between two retrievals")
			fs.Bool("any-server", false, "-r: follow links to other servers too (default: only to the servers of the URLs given)")
			fs.Bool("continue", false, "-r: take up the WARC file where it ends: what it holds is not fetched again, its listings are followed")
			fs.String("warc", "", "also record every fetch, the exact bytes exchanged, into the WARC file `FILE`.warc.gz (docs/archiving.md); a URL without -o or -O is then not written to standard output")
			fs.Bool("keep-partial", false, "on failure keep what was received, as FILE.part (the target itself is never touched)")
			fs.Bool("i", false, "http: include the response status line and headers")
			fs.Bool("v", false, "show each plan and the protocol exchange on standard error (passwords masked, server text escaped)")
			fs.Bool("raw", false, "gopher: write a menu as the server sent it instead of a listing of gopher URLs")
			fs.Bool("L", false, "http: follow redirects (each hop a new plan; only to http or https)")
			fs.Bool("location", false, "same as -L")
			fs.Bool("allow-private-follow", false, "let a server steer the retrieval to a more private address than its own (a redirect, a Prospero forward or access method, to loopback or the local network), which is refused by default")
			fs.Int("max-redirs", access.DefaultMaxRedirects, "http: the most redirects -L follows")
			fs.Duration("connect-timeout", access.DefaultConnectTimeout, "time allowed to connect, name resolution included")
			fs.Duration("timeout", access.DefaultReadTimeout, "time allowed between reads")
			fs.Duration("max-time", 0, "time allowed for the whole transfer (0: no limit)")
			fs.Int64("speed-limit", 0, "stop a transfer slower than this many bytes a second over --speed-time (0: off)")
			fs.Duration("speed-time", access.DefaultSpeedTime, "the window of --speed-limit")
			fs.Int64("max-size", 0, "stop a transfer after this many bytes received (0: no limit)")
			fs.Int("max-reply", access.DefaultMaxReply, "the largest protocol reply (ftp, nntp, smtp; an http header), in bytes")
			fs.Int("max-line", access.DefaultMaxReplyLine, "the longest reply line or gopher menu line, in bytes")
			addLenientFlag(fs)
			planFlags(fs)
			fs.Bool("exec", false, "telnet, tn3270, rlogin: start the system's client (the URL's user is passed, never the password)")
			fs.String("subject", "", "mailto: the Subject of the message")
			fs.String("from", "", "mailto: the From address; default the --email address")
			fs.String("send", "", "mailto: send through the SMTP server at host:port instead of printing the message")
			fs.String("proxy", "", "fetch through this gateway (http://host:port/, e.g. urlkit serve); default $<scheme>_proxy unless $no_proxy matches")
			fs.Bool("progress", true, "draw a progress meter on standard error when it is a terminal and the resource does not go to that same terminal")
			fs.Bool("no-progress", false, "draw no progress meter (warnings are still printed; -s quiets both)")
			silent := fs.Bool("silent", false, "print no warnings and no progress meter, only errors")
			fs.BoolVar(silent, "s", false, "")
		},
		run: runGet,
	})
}

// getFlags are the parsed flags of get.
type getFlags struct {
	outs                                  []string
	subject, from, send                   string
	include, verbose, raw, exec, progress bool
	head                                  bool // -I
	keepPartial, silent                   bool
	opts                                  access.Options
	proxy, via                            string     // --proxy; the gateway in use
	viaURL                                urlkit.URL // the URL asked of it
	rd                                    reading    // --lenient
	warcName                              string     // --warc
	warc                                  *archive.Writer
	crawl                                 crawlFlags // -r
}

func readGetFlags(e *env, fs *flag.FlagSet) getFlags {
	str := func(n string) string { return fs.Lookup(n).Value.String() }
	get := func(n string) any { return fs.Lookup(n).Value.(flag.Getter).Get() }
	g := getFlags{
		outs:    *fs.Lookup("o").Value.(outputList).names,
		subject: str("subject"), from: str("from"), send: str("send"), proxy: str("proxy"),
		include: get("i").(bool), verbose: get("v").(bool), raw: get("raw").(bool),
		exec: get("exec").(bool), progress: get("progress").(bool) && !get("no-progress").(bool), keepPartial: get("keep-partial").(bool),
		silent: get("silent").(bool), rd: readingOf(fs), head: get("head").(bool),
		warcName: str("warc"),
		crawl: crawlFlags{on: get("r").(bool), depth: get("depth").(int), maxItems: get("max-items").(int), maxBytes: get("max-bytes").(int64),
			wait: get("wait").(time.Duration), anyServer: get("any-server").(bool), resume: get("continue").(bool)},
	}
	o := &g.opts
	o.Lenient = g.rd.lenient
	o.ConnectTimeout = get("connect-timeout").(time.Duration)
	o.ReadTimeout = get("timeout").(time.Duration)
	o.MaxTime = get("max-time").(time.Duration)
	o.SpeedLimit = get("speed-limit").(int64)
	o.SpeedTime = get("speed-time").(time.Duration)
	o.MaxSize = get("max-size").(int64)
	o.MaxReply = get("max-reply").(int)
	o.MaxReplyLine = get("max-line").(int)
	o.FollowRedirects = get("L").(bool) || get("location").(bool)
	o.MaxRedirects = get("max-redirs").(int)
	// The follow rule (access.MayFollow): a server never steers get to a
	// more private address than its own, unless this flag says so.
	o.AllowPrivateFollow = get("allow-private-follow").(bool)
	o.Dial = e.dial
	if g.verbose {
		o.Trace = e.stderr
		o.OnPlan = func(p scheme.Plan) {
			fmt.Fprintf(e.stderr, "* plan (%s):\n", p.Scheme())
			for _, s := range p.Steps() {
				fmt.Fprintf(e.stderr, "*   %s\n", access.EscapeText(s.Text()))
			}
		}
	}
	return g
}

func runGet(e *env, fs *flag.FlagSet, args []string) int {
	g := readGetFlags(e, fs)
	if len(args) > 0 && len(g.outs) > len(args) {
		fmt.Fprintf(e.stderr, "urlkit get: %d -o/-O for %d URLs\n", len(g.outs), len(args))
		return exitUsage
	}
	if g.warcName != "" && g.head {
		fmt.Fprintf(e.stderr, "urlkit get: --warc records retrievals; -I (--head) retrieves nothing\n")
		return exitUsage
	}
	if msg := g.crawl.check(g); msg != "" {
		fmt.Fprintf(e.stderr, "urlkit get: %s\n", msg)
		return exitUsage
	}
	cfg := planConfig(e, fs)
	g.opts.ListDetails = cfg.FTPListDetails // through a gateway (--proxy)
	ctx, signalled, stop := stopOnSignals() // SIGINT, SIGTERM, SIGHUP (signals.go)
	defer stop()
	if g.warcName != "" {
		// The records of each fetch are written when it is complete; a
		// fetch that a signal stops leaves none. The file is closed with
		// the complete ones whatever ends get (archive.Writer).
		w, held, err := openWARC(g.warcName, g.crawl.resume)
		if err != nil {
			fmt.Fprintf(e.stderr, "urlkit get: %v\n", err)
			return exitInvalid
		}
		if held != nil && held.Dropped != nil && !g.silent {
			fmt.Fprintf(e.stderr, "urlkit get: --continue: warning: %v\n", held.Dropped)
		}
		g.crawl.held = held
		g.warc = w
		defer func() {
			if err := w.Close(); err != nil {
				fmt.Fprintf(e.stderr, "urlkit get: --warc: %v\n", err)
			}
		}()
	}
	quietPipe()
	if g.crawl.on {
		status := runCrawl(ctx, e, fs, g, cfg, args)
		if ctx.Err() != nil {
			return signalled()
		}
		return status
	}
	// URLs from the arguments, --url-file or standard input (lines.go),
	// one at a time, in order.
	i := 0
	status := engineFor(e, "get", fs).each(args, func(line *input) int {
		if ctx.Err() != nil {
			return exitInterrupted
		}
		out := "" // standard output, not asked for with -o -
		if i < len(g.outs) {
			out = g.outs[i]
		}
		i++
		return getOne(ctx, e, g, cfg, line, out)
	})
	if ctx.Err() != nil {
		return signalled()
	}
	return status
}

// getOne fetches one URL into out ("": standard output; "-": standard
// output as asked for with -o -; remoteMark: -O's name, found here) and
// returns the exit status for it.
func getOne(ctx context.Context, e *env, g getFlags, cfg scheme.Config, line *input, out string) int {
	in := line.text
	fail := func(err error) int {
		e.stderr.Write(getMessage(line, redact(in), redactErr(in, err)))
		if ctx.Err() != nil || errors.Is(err, context.Canceled) {
			return exitInterrupted
		}
		return exitInvalid
	}
	u, warns, err := g.rd.url(in)
	if !g.silent {
		for _, w := range warns {
			e.stderr.Write(getMessage(line, redact(in), "warning: "+w.String()))
		}
	}
	if err != nil {
		return fail(err)
	}
	// RFC 1738 6: warn before connecting to a port that belongs to
	// another protocol (scheme.PortWarning decides; check lists every
	// port that is not the default).
	if f, ok := scheme.PortWarning(u); ok && !g.silent {
		e.stderr.Write(getMessage(line, redact(in), "warning: "+f.Message))
	}
	plan, err := scheme.PlanOf(u, cfg)
	if err != nil {
		return fail(g.rd.hint(in, false, err))
	}
	// Gateways (RFC 1738 4): --proxy, <scheme>_proxy and no_proxy.
	if g.via, err = (access.ProxySettings{Proxy: g.proxy, Getenv: e.getenv}).Gateway(u, cfg.NewsServer); err != nil {
		return fail(err)
	}
	g.viaURL = u
	if g.via != "" && g.warc != nil {
		return fail(fmt.Errorf("--warc records what urlkit exchanges with the server itself, and a gateway (%s) would answer instead: unset --proxy, or name the host in no_proxy", g.via))
	}
	if g.via != "" && g.head {
		// The gateway is asked with GET (access.FetchViaProxy): -I would
		// not be what plan -I prints.
		return fail(fmt.Errorf("-I (--head) is not carried through a gateway (%s): unset --proxy, or name the host in no_proxy, to ask the server itself", g.via))
	}
	switch p := plan.(type) {
	case *scheme.Session:
		fmt.Fprint(e.stdout, access.DescribeSession(p))
		if !g.exec {
			return exitOK
		}
		cmd, err := access.SessionCommand(ctx, p)
		if err != nil {
			return fail(err)
		}
		cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
		if err := cmd.Run(); err != nil {
			return fail(err)
		}
		return exitOK
	case *scheme.MailPlan:
		return sendMail(ctx, e, g, cfg, p, fail)
	default:
		if access.Retrievable(plan) || g.via != "" {
			break // a client of access, or the gateway, retrieves it
		}
		// mid, cid: print what a client would do.
		fmt.Fprintln(e.stdout, redact(u.String()))
		for _, step := range plan.Steps() {
			fmt.Fprintln(e.stdout, "  "+step.Text())
		}
		e.stderr.Write(getMessage(line, redact(in), u.Scheme()+": "+access.ErrNotRetrievable.Error()))
		return exitNotSupported
	}
	if out == remoteMark {
		name, err := scheme.FileName(u)
		if err != nil {
			return fail(fmt.Errorf("-O: %w; use -o FILE", err))
		}
		out = name
	}
	var w *output
	if out == "" && g.warc != nil {
		w = &output{w: io.Discard} // the WARC file is the output
	} else if w, err = openOutput(e, out, g.keepPartial); err != nil {
		return fail(err)
	}
	if err := fetch(ctx, e, g, plan, w, meterName(out, u)); err != nil {
		if quietEnd(err) {
			w.abort()
			return exitInvalid
		}
		if werr := w.abort(); werr != nil {
			fmt.Fprintf(e.stderr, "urlkit get: %v\n", werr)
		}
		return fail(err)
	}
	if err := w.commit(); err != nil {
		return fail(err)
	}
	return exitOK
}

// meterName is what the meter calls a transfer: the output file's name,
// else the file name of the URL (scheme.FileName), else its host.
func meterName(out string, u urlkit.URL) string {
	if out != "" && out != "-" {
		return filepath.Base(out)
	}
	if n, err := scheme.FileName(u); err == nil {
		return n
	}
	if h := u.Host(); h != "" {
		return h
	}
	return u.Scheme()
}

// fetch carries out the plan and copies the resource to w, the meter
// (when one is drawn) naming it name.
func fetch(ctx context.Context, e *env, g getFlags, plan scheme.Plan, w *output, name string) (err error) {
	opts := g.opts
	opts.PasswordPrompt = passwordPrompt
	m := newMeter(e, g, w, name) // progress.go
	// More bytes than the server announced: delivered, with a warning
	// (fewer is the transfer's error: access.SizeError). The meter's
	// line is cleared first, and drawn again at the next reading.
	if !g.silent {
		opts.Warn = func(err error) {
			m.clear()
			fmt.Fprintf(e.stderr, "urlkit get: warning: %v\n", err)
		}
	}
	if m != nil {
		opts.Progress = m.progress
		defer func() { m.done(err == nil) }()
	}
	r, err := (*access.Resource)(nil), error(nil)
	var capture *archive.Fetch
	if g.warc != nil {
		// The exchange and the resource as read are recorded; the
		// records are written once the resource has been read whole and
		// closed (the QUIT of ftp and nntp is part of the exchange), and
		// dropped if it fails.
		f := g.warc.Capture(g.viaURL, &opts)
		capture = f
		defer func() {
			if err != nil {
				if archive.RecordsFailure(err) {
					if ferr := f.Finish(); ferr != nil {
						err = errors.Join(err, ferr)
					}
				} else {
					f.Abandon()
				}
				return
			}
			if r != nil {
				r.Close()
			}
			err = f.Finish()
		}()
	}
	if g.via != "" {
		r, err = access.FetchViaProxy(ctx, g.via, g.viaURL, &opts)
	} else {
		r, err = access.Execute(ctx, plan, &opts)
	}
	if err != nil {
		return err
	}
	if capture != nil {
		r = capture.Resource(r)
	}
	defer r.Close()
	if m != nil && r.Size >= 0 {
		m.size(r.Size)
	}
	if fp, ok := plan.(*scheme.FTPPlan); ok && r.Directory && !g.silent {
		// access listed a name the server took for a directory (RETR
		// refused with 550, CWD accepted), as lynx does.
		what, refused := "listed", "RETR"
		if g.head {
			what, refused = "nothing more is asked", "SIZE"
		}
		m.clear()
		fmt.Fprintf(e.stderr, "urlkit get: %s: note: %s is a directory (the server refused %s with 550 and accepted CWD to it): %s; its URL is %s\n",
			redact(g.viaURL.String()), quote(fp.Name), refused, what, redact(g.viaURL.WithoutFragment().String()+"/"))
	}
	if (g.include || g.head) && (r.Status != "" || len(r.Header) > 0) {
		bw := bufio.NewWriter(w)
		show := func(s string) string { return s }
		if isTerminal(w) {
			show = access.EscapeText // server text on a terminal
		}
		if r.Status != "" {
			fmt.Fprintf(bw, "%s\r\n", show(r.Status))
		}
		keys := make([]string, 0, len(r.Header))
		for k := range r.Header {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			for _, v := range r.Header[k] {
				fmt.Fprintf(bw, "%s: %s\r\n", show(k), show(v))
			}
		}
		bw.WriteString("\r\n")
		if err := bw.Flush(); err != nil {
			return err
		}
	}
	if r.Kind == "head" {
		// -I: the answer is the status and header. A status that is not
		// 2xx or 3xx is the command's failure, after it was shown.
		if code := httpCode(r.Status); code >= 400 {
			_, why, _ := strings.Cut(r.Status, " ")
			return fmt.Errorf("http: HEAD: %s", access.EscapeText(why))
		}
		return nil
	}
	if r.Kind == "menu" && !g.raw {
		_, err = access.WriteMenuListing(w, r, opts.MaxReplyLine)
		return err
	}
	terminal := isTerminal(w)
	if r.Kind != "file" && r.Kind != "article" && terminal {
		// A listing shown on a terminal: names from the server, escaped.
		return copyEscaped(w, r)
	}
	var dst io.Writer = outWriter{w}
	if terminal && !w.asked {
		dst = &terminalGuard{w: dst} // getio.go: no binary data on a terminal
	}
	_, err = io.Copy(dst, r)
	return err
}

// httpCode returns the code of an HTTP status line ("HTTP/1.0 404 Not
// Found"), 0 when there is none.
func httpCode(status string) int {
	f := strings.Fields(status)
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// copyEscaped copies r to w line by line, escaping each line (EscapeText).
func copyEscaped(w io.Writer, r io.Reader) error {
	br := bufio.NewReaderSize(r, 32<<10)
	bw := bufio.NewWriter(w)
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 {
			l := strings.TrimRight(string(line), "\r\n")
			bw.WriteString(access.EscapeText(l))
			if len(l) < len(line) {
				bw.WriteByte('\n')
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			return bw.Flush()
		}
		if err != nil {
			bw.Flush()
			return err
		}
	}
}

func sendMail(ctx context.Context, e *env, g getFlags, cfg scheme.Config, p *scheme.MailPlan, fail func(error) int) int {
	from := g.from
	if from == "" {
		from = cfg.Email
	}
	body, err := access.ReadBody(ctx, e.stdin)
	if err != nil {
		return fail(err)
	}
	m := &access.MailMessage{From: from, To: []string{p.To}, Subject: g.subject, Date: time.Now(), Body: body}
	if g.send == "" {
		if err := access.WriteMessage(e.stdout, m); err != nil {
			return fail(err)
		}
		return exitOK
	}
	opts := g.opts
	if err := access.SendMail(ctx, g.send, m, &opts); err != nil {
		return fail(err)
	}
	fmt.Fprintf(e.stderr, "urlkit get: message to %s sent through %s\n", p.To, g.send)
	return exitOK
}

// passwordPrompt asks for an ftp password on the terminal, when there is
// one (RFC 1738 3.2.1: "the program interpreting the FTP URL should request
// one from the user"). When ctx ends first, the terminal's mode is
// restored and the prompt abandoned.
func passwordPrompt(ctx context.Context) (string, error) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return "", fmt.Errorf("the server asks for a password and there is no terminal to ask on: %w", access.ErrPasswordRequired)
	}
	fd := int(tty.Fd())
	state, err := term.GetState(fd)
	if err != nil {
		tty.Close()
		return "", fmt.Errorf("the server asks for a password and /dev/tty is not a terminal: %w", access.ErrPasswordRequired)
	}
	fmt.Fprint(tty, "password: ")
	pw, err := access.Interruptible(ctx, func() ([]byte, error) { return term.ReadPassword(fd) }, nil)
	if ctx.Err() != nil && err == ctx.Err() {
		term.Restore(fd, state)
		fmt.Fprintln(tty)
		return "", err
	}
	fmt.Fprintln(tty)
	tty.Close()
	return string(pw), err
}

func isTerminal(w io.Writer) bool {
	if o, ok := w.(*output); ok {
		w = o.w
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// ---- output files ------------------------------------------------------

// output is where one URL's resource goes: standard output, or a
// temporary file beside the target that is renamed onto it only when the
// whole resource has arrived. On failure the target is left as it was and
// the temporary file removed (kept as TARGET.part with --keep-partial).
type output struct {
	w      io.Writer
	asked  bool     // standard output asked for with -o -
	f      *os.File // the temporary file, nil for standard output
	dev    *os.File // a device or FIFO written directly
	target string
	keep   bool
}

func (o *output) Write(p []byte) (int, error) { return o.w.Write(p) }

// openOutput prepares the output for name: "" or "-" is standard output.
// A file is written to a new temporary file beside it, created as any new
// file is (mode 0666 less the umask, as curl and cp create theirs: 0600
// under umask 077) and given the mode of the file it replaces when there
// is one. With keep (--keep-partial), an existing NAME.part is refused
// here, before anything is fetched: a failed transfer would otherwise have
// to overwrite it.
func openOutput(e *env, name string, keep bool) (*output, error) {
	if name == "" || name == "-" {
		return &output{w: e.stdout, asked: name == "-"}, nil
	}
	st, statErr := os.Stat(name)
	if statErr == nil && !st.Mode().IsRegular() {
		if st.IsDir() {
			return nil, fmt.Errorf("output %s is a directory", name)
		}
		// A device or FIFO (such as /dev/null): written directly.
		f, err := os.OpenFile(name, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("output: %w", err)
		}
		return &output{w: f, dev: f}, nil
	}
	if keep {
		if _, err := os.Lstat(name + ".part"); err == nil {
			return nil, fmt.Errorf("--keep-partial: %s exists, and a failed transfer would overwrite it; move or remove it first (nothing was fetched)", name+".part")
		}
	}
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	f, err := tempfile.Create(dir, "."+base+".urlkit-", ".part")
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	if statErr == nil {
		f.Chmod(st.Mode().Perm()) // the file it replaces keeps its mode
	}
	return &output{w: f, f: f, target: name, keep: keep}, nil
}

// commit renames the complete temporary file onto the target.
func (o *output) commit() error {
	if o.dev != nil {
		return o.dev.Close()
	}
	if o.f == nil {
		return nil
	}
	if err := o.f.Close(); err != nil {
		os.Remove(o.f.Name())
		return fmt.Errorf("output %s: %w", o.target, err)
	}
	if err := os.Rename(o.f.Name(), o.target); err != nil {
		os.Remove(o.f.Name())
		return fmt.Errorf("output %s: %w", o.target, err)
	}
	return nil
}

// abort removes the temporary file, or with --keep-partial makes it
// TARGET.part; the target itself is not touched, and neither is a
// TARGET.part that appeared during the transfer (the link that names the
// kept file fails rather than replace it).
func (o *output) abort() error {
	if o.dev != nil {
		return o.dev.Close()
	}
	if o.f == nil {
		return nil
	}
	o.f.Close()
	if !o.keep {
		return os.Remove(o.f.Name())
	}
	part := o.target + ".part"
	err := os.Link(o.f.Name(), part)
	if err != nil && !errors.Is(err, fs.ErrExist) {
		// A file system without hard links: rename, when no
		// TARGET.part is there.
		if _, lerr := os.Lstat(part); lerr == nil {
			err = fs.ErrExist
		} else {
			err = os.Rename(o.f.Name(), part)
		}
	} else if err == nil {
		os.Remove(o.f.Name())
	}
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s appeared during the transfer and is left as it was; the partial transfer is kept in %s; %s is unchanged", part, o.f.Name(), o.target)
	}
	if err != nil {
		return fmt.Errorf("keeping the partial transfer as %s: %w (it is in %s)", part, err, o.f.Name())
	}
	return fmt.Errorf("the partial transfer is kept in %s; %s is unchanged", part, o.target)
}

// ---- redaction ---------------------------------------------------------

// redact returns s with any password masked, whether or not it parses, so
// that get and plan never print one (RFC 1738 6).
func redact(s string) string { return urlkit.RedactString(s) }

// redactErr is err's message with passwords masked: those
// urlkit.RedactString finds in it, and the password of the input in,
// as written and decoded, wherever the message quotes it (a server's
// reply may echo it). An input that does not parse reached no server, and
// its errors are the parser's, which RedactString covers.
func redactErr(in string, err error) string {
	msg := urlkit.RedactString(plainError(err)) // messages.go
	u, perr := urlkit.ParseRef(in)
	pw, ok := u.Password()
	if perr != nil || !ok || pw == "" {
		return msg
	}
	msg = strings.ReplaceAll(msg, pw, urlkit.RedactedPassword)
	if d, err := urlkit.Unescape(pw); err == nil && d != "" {
		msg = strings.ReplaceAll(msg, d, urlkit.RedactedPassword)
	}
	return msg
}
