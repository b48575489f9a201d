package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/archive"
	"github.com/urlkit/urlkit/scheme"
)

// warcName is the file `get --warc NAME` writes: NAME.warc.gz, or NAME
// itself when it already ends so.
func warcName(name string) string {
	if strings.HasSuffix(name, ".warc.gz") {
		return name
	}
	return name + ".warc.gz"
}

// openWARC starts the WARC file of get --warc, its warcinfo record saying
// what wrote it and by which conventions (WARC/1.1 section 6.2); with
// resume (get -r --continue) it continues the file there is.
func openWARC(name string, resume bool) (*archive.Writer, *archive.Held, error) {
	version := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		version = bi.Main.Version
	}
	info := [][2]string{
		{"software", "urlkit " + version},
		{"format", "WARC File Format 1.1"},
		{"conformsTo", "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"},
		{"description", "urlkit get --warc: the exact bytes exchanged, by each scheme's convention (docs/archiving.md)"},
	}
	var (
		w    *archive.Writer
		held *archive.Held
		err  error
	)
	if resume {
		w, held, err = archive.Resume(warcName(name), info)
	} else {
		w, err = archive.Create(warcName(name), info)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("--warc: %w", err)
	}
	return w, held, nil
}

// crawlFlags are get -r's flags.
type crawlFlags struct {
	on                bool
	depth, maxItems   int
	maxBytes          int64
	wait              time.Duration
	anyServer, resume bool
	held              *archive.Held // --continue: what the file holds
}

// check returns what is wrong with the flags of get -r, "" when nothing.
func (c crawlFlags) check(g getFlags) string {
	switch {
	case !c.on && (c.resume || c.anyServer):
		return "--continue and --any-server go with -r"
	case c.on && g.warcName == "":
		return "-r captures into a WARC file: give --warc FILE"
	case c.on && len(g.outs) > 0:
		return "-r writes the resources into the WARC file only: -o and -O do not go with it"
	case c.on && g.proxy != "":
		return "-r records what urlkit exchanges with the servers themselves: --proxy does not go with it"
	case c.depth < 0 || c.maxItems < 0 || c.maxBytes < 0 || c.wait < 0:
		return "--depth, --max-items, --max-bytes and --wait are not negative"
	}
	return ""
}

// runCrawl is get -r: the URLs given are the seeds of one recursive
// capture (archive.Crawl) into the WARC file.
func runCrawl(ctx context.Context, e *env, fs *flag.FlagSet, g getFlags, cfg scheme.Config, args []string) int {
	var seeds []urlkit.URL
	status := engineFor(e, "get", fs).each(args, func(line *input) int {
		u, warns, err := g.rd.url(line.text)
		if !g.silent {
			for _, w := range warns {
				e.stderr.Write(getMessage(line, redact(line.text), "warning: "+w.String()))
			}
		}
		if err != nil {
			e.stderr.Write(getMessage(line, redact(line.text), redactErr(line.text, err)))
			return exitInvalid
		}
		seeds = append(seeds, u)
		return exitOK
	})
	if len(seeds) == 0 {
		return max(status, exitUsage)
	}
	p := newCrawlProgress(e, g)
	c := &archive.Crawl{
		Writer: g.warc, Options: g.opts, Config: cfg,
		Depth: g.crawl.depth, MaxItems: g.crawl.maxItems, MaxBytes: g.crawl.maxBytes, Wait: g.crawl.wait, AnyServer: g.crawl.anyServer,
		Progress: p.show,
		Failed: func(u string, err error) {
			var ex *archive.ExcludedError
			if errors.As(err, &ex) {
				if !g.silent {
					p.clear()
					fmt.Fprintf(e.stderr, "urlkit get: %s: note: %v\n", u, err)
				}
				return
			}
			p.clear()
			fmt.Fprintf(e.stderr, "urlkit get: %s: %s\n", u, redactErr(u, err))
		},
	}
	c.Options.PasswordPrompt = nil // no prompt in the middle of a crawl
	if h := g.crawl.held; h != nil {
		c.Skip = h.Has
		c.Have = func(target string) (*access.Resource, error) { return h.Resource(target, cfg) }
	}
	st, err := c.Run(ctx, seeds)
	p.clear()
	if !g.silent {
		fmt.Fprintf(e.stderr, "urlkit get: %s: %d retrieved (%s), %d already there, %d failed, %d excluded by robots.txt\n",
			g.warc.Path(), st.Items, formatBytes(st.Bytes), st.Skipped, st.Failed, st.Excluded)
	}
	switch {
	case errors.Is(err, archive.ErrCrawlLimit):
		if !g.silent {
			fmt.Fprintf(e.stderr, "urlkit get: stopped: %v; take it up again with --continue\n", err)
		}
	case err != nil && ctx.Err() == nil:
		fmt.Fprintf(e.stderr, "urlkit get: %v\n", err)
		return exitInvalid
	}
	if st.Failed > 0 {
		status = max(status, exitInvalid)
	}
	return status
}

// crawlProgress is get -r's progress line on standard error, when it is a
// terminal and the meter is not turned off: retrievals, bytes, links
// waiting, depth and the URL being retrieved, redrawn at most five times
// a second.
type crawlProgress struct {
	w    io.Writer
	last time.Time
	on   bool
}

func newCrawlProgress(e *env, g getFlags) *crawlProgress {
	return &crawlProgress{w: e.stderr, on: g.progress && !g.silent && isTerminal(e.stderr)}
}

func (p *crawlProgress) show(st archive.CrawlStatus) {
	if !p.on || time.Since(p.last) < 200*time.Millisecond {
		return
	}
	p.last = time.Now()
	line := fmt.Sprintf("%d retrieved, %s, %d waiting, depth %d: %s", st.Items, formatBytes(st.Bytes), st.Queued, st.Depth, access.EscapeText(urlkit.RedactString(st.URL)))
	if f, ok := p.w.(*os.File); ok {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 1 && len(line) > w-1 {
			line = line[:w-1]
		}
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
}

func (p *crawlProgress) clear() {
	if p.on && !p.last.IsZero() {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
