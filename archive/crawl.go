package archive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"strings"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/scheme"
)

// A Crawl captures a tree of resources into a WARC file: the seeds, then
// what their listings link to (gopher menu items, ftp directory entries,
// WAIS hits, Prospero links), breadth first. One retrieval at a time, so
// never more than one connection to a server at once. Every link followed
// is held to the follow rule (access.MayFollow): the retrieval's
// Options.Origin is the address of the server whose listing named it.
type Crawl struct {
	// Writer receives the records.
	Writer *Writer
	// Options are the retrievals' options (timeouts, limits); Capture,
	// OnPlan and Origin are set per retrieval.
	Options access.Options
	// Config plans each URL.
	Config scheme.Config
	// Depth is how many links deep from a seed the crawl goes: 0 is the
	// seeds alone.
	Depth int
	// MaxItems, when positive, stops the crawl after that many
	// retrievals (robots.txt files not counted).
	MaxItems int
	// MaxBytes, when positive, stops the crawl once the resources
	// retrieved hold that many bytes in all.
	MaxBytes int64
	// Wait is the pause between two retrievals.
	Wait time.Duration
	// AnyServer follows links to other servers; without it only links to
	// the servers of the seeds are followed.
	AnyServer bool
	// Skip, when set, says a target (its WARC-Target-URI) is already
	// captured: it is not retrieved again, but its listing, read from
	// Have, is still followed (urlkit get -r --continue).
	Skip func(target string) bool
	// Have, when set, returns the captured resource of a skipped target
	// (see Skip), for its links: nil when it is no listing.
	Have func(target string) (*access.Resource, error)
	// Progress, when set, is told of each retrieval as it starts.
	Progress func(CrawlStatus)
	// Failed, when set, is told of each retrieval that failed or was
	// refused; the crawl goes on.
	Failed func(url string, err error)
}

// CrawlStatus is where a crawl is.
type CrawlStatus struct {
	Items   int // retrievals done (robots.txt not counted)
	Skipped int // targets already in the WARC file (--continue)
	Failed  int // retrievals that failed or were refused
	// Excluded counts the gopher items a robots.txt excluded.
	Excluded int
	Queued   int   // links waiting
	Bytes    int64 // bytes of the resources retrieved
	URL      string
	Depth    int
}

// ExcludedError is what Crawl.Failed is told of an item a gopher
// server's robots.txt excludes.
type ExcludedError struct {
	Server, Selector string
}

// Error says which rule excluded the item.
func (e *ExcludedError) Error() string {
	return fmt.Sprintf("not captured: the robots.txt of %s excludes selector %q (read as Veronica-2 reads it: User-agent veronica or *)", e.Server, e.Selector)
}

// ErrCrawlLimit is wrapped by the error Run returns when MaxItems or
// MaxBytes stopped the crawl.
var ErrCrawlLimit = errors.New("crawl limit reached")

// link is a URL to retrieve: how deep it is, and the address of the server
// whose listing named it (invalid for a seed).
type link struct {
	u      urlkit.URL
	depth  int
	origin netip.Addr
}

// maxQueued bounds the links known (queued or done): a crawl of more
// distinct URLs than this stops following new ones.
const maxQueued = 1 << 20

// Run crawls from seeds. It returns the crawl's status, and an error when
// the context ended, the WARC file failed, or a limit stopped it
// (ErrCrawlLimit); a retrieval that fails is reported to Failed and the
// crawl goes on.
func (c *Crawl) Run(ctx context.Context, seeds []urlkit.URL) (CrawlStatus, error) {
	var st CrawlStatus
	servers := map[string]bool{}
	seen := map[string]bool{}
	robots := map[string]*robotsRules{}
	var queue []link
	push := func(l link) {
		key := canonical(l.u)
		if seen[key] || len(seen) >= maxQueued {
			return
		}
		seen[key] = true
		queue = append(queue, l)
	}
	for _, s := range seeds {
		servers[serverOf(s)] = true
		push(link{u: s})
	}
	// follow queues a link of a listing: to the seeds' servers only,
	// unless AnyServer.
	follow := func(n link) {
		if c.AnyServer || servers[serverOf(n.u)] {
			push(n)
		}
	}
	first := true
	for len(queue) > 0 {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		if c.MaxItems > 0 && st.Items >= c.MaxItems {
			return st, fmt.Errorf("%w: --max-items %d", ErrCrawlLimit, c.MaxItems)
		}
		if c.MaxBytes > 0 && st.Bytes >= c.MaxBytes {
			return st, fmt.Errorf("%w: --max-bytes %d", ErrCrawlLimit, c.MaxBytes)
		}
		l := queue[0]
		queue = queue[1:]
		target := canonical(l.u)
		st.URL, st.Depth, st.Queued = target, l.depth, len(queue)
		fail := func(err error) {
			st.Failed++
			if c.Failed != nil {
				c.Failed(l.u.Redacted(), err)
			}
		}
		if c.Skip != nil && c.Skip(target) {
			st.Skipped++
			if c.Have != nil && l.depth < c.Depth {
				r, err := c.Have(target)
				if err != nil {
					fail(err)
				} else if r != nil {
					links, _, err := c.links(r, l)
					r.Close()
					if err == nil && len(links) > 0 && !r.ServerAddr.IsValid() {
						// The follow rule needs the server's address
						// (WARC-IP-Address): without it, nothing is
						// followed.
						err = fmt.Errorf("%s: the capture in the WARC file has no WARC-IP-Address: its links are not followed (the follow rule needs the server's address)", target)
						links = nil
					}
					if err != nil {
						fail(err)
					}
					for _, n := range links {
						n.origin = r.ServerAddr
						follow(n)
					}
				}
			}
			continue
		}
		p, err := scheme.PlanOf(l.u, c.Config)
		if err != nil {
			fail(err)
			continue
		}
		if gp, ok := p.(*scheme.GopherPlan); ok {
			rules, err := c.robots(ctx, gp, l, robots, &first)
			if err != nil {
				return st, err
			}
			if rules.disallows(gp.Selector) {
				st.Excluded++
				if c.Failed != nil {
					c.Failed(l.u.Redacted(), &ExcludedError{Server: gp.Addr, Selector: gp.Selector})
				}
				continue
			}
		}
		if !first && c.Wait > 0 {
			if err := sleep(ctx, c.Wait); err != nil {
				return st, err
			}
		}
		first = false
		if c.Progress != nil {
			c.Progress(st)
		}
		st.Items++
		links, n, err := c.fetch(ctx, p, l)
		st.Bytes += n
		if err != nil {
			var we *writeError
			if errors.As(err, &we) {
				return st, we.err
			}
			fail(err)
			if ctx.Err() != nil {
				return st, ctx.Err()
			}
		}
		for _, n := range links {
			follow(n)
		}
	}
	st.Queued, st.URL = 0, ""
	return st, nil
}

// writeError is a failure of the WARC file, which ends the crawl.
type writeError struct{ err error }

func (e *writeError) Error() string { return e.err.Error() }

// fetch retrieves l with its plan p into the WARC file and returns the
// links of its listing (none past Depth) and the bytes retrieved.
func (c *Crawl) fetch(ctx context.Context, p scheme.Plan, l link) ([]link, int64, error) {
	opts := c.Options
	opts.Origin = l.origin
	f := c.Writer.Capture(l.u, &opts)
	r, err := access.Execute(ctx, p, &opts)
	if err != nil {
		if RecordsFailure(err) {
			if ferr := f.Finish(); ferr != nil {
				return nil, 0, &writeError{ferr}
			}
		} else {
			f.Abandon()
		}
		return nil, 0, err
	}
	rr := f.Resource(r)
	cr := &countReader{r: rr}
	var links []link
	if l.depth < c.Depth {
		rc := *rr
		rc.ReadCloser = struct {
			io.Reader
			io.Closer
		}{cr, rr}
		links, _, err = c.links(&rc, l)
	}
	if err == nil {
		_, err = io.Copy(io.Discard, cr) // the rest, to its end: the record is whole
	}
	rr.Close()
	if err != nil {
		f.Abandon()
		return nil, cr.n, err
	}
	if err := f.Finish(); err != nil {
		return nil, cr.n, &writeError{err}
	}
	from := r.ServerAddr
	if !from.IsValid() && len(links) > 0 {
		// Not a network retrieval's listing: the follow rule has no
		// address to hold its links to, so none is followed.
		return nil, cr.n, fmt.Errorf("%s: no server address to hold its links to (the follow rule): not followed", l.u.Redacted())
	}
	for i := range links {
		links[i].origin = from
	}
	return links, cr.n, nil
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// links reads the listing r (a menu, a directory, hits) and returns the
// links it names that a crawl follows, one level deeper than l; a
// document names none.
func (c *Crawl) links(r *access.Resource, l link) ([]link, bool, error) {
	var out []link
	listing, err := ListingLinks(r, l.u, c.Options.MaxReplyLine, func(k Link) {
		if k.GopherType != 0 && !followedGopherType(k.GopherType) {
			return
		}
		u, err := urlkit.Parse(k.URL)
		if err != nil {
			if u, err = urlkit.ParseExtended(k.URL); err != nil {
				return // a link that is no URL is not followed
			}
		}
		out = append(out, link{u: u, depth: l.depth + 1})
	})
	if err != nil {
		return nil, listing, err
	}
	return out, listing, nil
}

// followedGopherType reports whether a recursive capture retrieves gopher
// items of type t (RFC 1436 3.8; Gopher+ and common types): documents and
// menus, not searches (7: they need words), sessions (8, T), CSO (2),
// information (i), errors (3) or duplicates (+: another server of the
// item before).
func followedGopherType(t byte) bool {
	switch t {
	case '0', '1', '4', '5', '6', '9', 'g', 'I', 'h', 's', 'd', 'p', ';', 'c', 'M':
		return true
	}
	return false
}

// serverOf is the server a URL names, scheme included:
// "gopher://host:port" (its canonical form's: a default port is left
// out of it).
func serverOf(u urlkit.URL) string {
	c := urlkit.Canonical(u)
	port, _ := c.RawPort()
	return c.Scheme() + "://" + strings.ToLower(c.Host()) + ":" + port
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
