package archive

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strings"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/scheme"
)

// Gopher's robots.txt as Veronica-2 reads it (Cameron Kaiser, Floodgap,
// on the gopher mailing list, June 2003: "itemtype=0 sel=robots.txt is
// what the crawler will ask for", no leading slash; the User-agent is
// "veronica" or "*"; Disallow is matched against selectors, whatever the
// item type; "Disallow: /path/ works for both /path and /path/ (not
// substrings of same)"). A recursive capture reads it once per gopher
// server, before the server's first item, and keeps it in the WARC file.

// robotsSelector is the selector Veronica-2 asks for.
const robotsSelector = "robots.txt"

// robotsMax bounds the bytes of a robots.txt read for rules (RFC 9309
// 2.5: at least 500 KiB are parsed; what follows is ignored), robotsTime
// its retrieval.
const (
	robotsMax  = 500 << 10
	robotsTime = 30 * time.Second
)

// robotsRules are the Disallow lines that apply to urlkit.
type robotsRules struct {
	disallow []string
}

// disallows reports whether a selector is excluded.
func (r *robotsRules) disallows(sel string) bool {
	if r == nil {
		return false
	}
	for _, d := range r.disallow {
		switch {
		case d == "/":
			return true
		case strings.HasSuffix(d, "/"):
			// "/path/" excludes "/path", "/path/" and what is below it,
			// not "/pathology".
			base := strings.TrimSuffix(d, "/")
			if sel == base || strings.HasPrefix(sel, d) {
				return true
			}
		case strings.HasPrefix(sel, d):
			return true
		}
	}
	return false
}

// parseRobots reads the groups of a robots.txt (the web's convention,
// which Veronica-2 follows) and keeps the Disallow lines of the groups for
// "veronica", "urlkit" and "*": a group for veronica or urlkit replaces
// the "*" group, as a named group does on the web.
func parseRobots(b []byte) *robotsRules {
	var named, star []string
	var agents []string
	inRules := false
	hasNamed := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 1024), robotsMax)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		switch k {
		case "user-agent":
			if inRules {
				agents, inRules = nil, false
			}
			agents = append(agents, strings.ToLower(v))
		case "disallow":
			inRules = true
			if v == "" {
				continue
			}
			for _, a := range agents {
				switch a {
				case "veronica", "urlkit":
					named = append(named, v)
					hasNamed = true
				case "*":
					star = append(star, v)
				}
			}
		default:
			inRules = inRules || k == "allow" || k == "crawl-delay"
		}
	}
	if hasNamed {
		return &robotsRules{disallow: named}
	}
	return &robotsRules{disallow: star}
}

// robots returns the rules of gp's server, fetching its robots.txt (and
// writing its records) the first time; a server without one (any failure,
// or a gopher error item) has none.
func (c *Crawl) robots(ctx context.Context, gp *scheme.GopherPlan, l link, cache map[string]*robotsRules, first *bool) (*robotsRules, error) {
	if r, ok := cache[gp.Addr]; ok {
		return r, nil
	}
	cache[gp.Addr] = nil
	u, err := urlkit.Parse("gopher://" + gp.Addr + "/0" + robotsSelector)
	if err != nil {
		if u, err = urlkit.ParseExtended("gopher://" + gp.Addr + "/0" + robotsSelector); err != nil {
			return nil, nil
		}
	}
	if c.Skip != nil && c.Have != nil && c.Skip(canonical(u)) {
		// --continue: the robots.txt the file holds.
		r, err := c.Have(canonical(u))
		if err != nil || r == nil {
			return nil, nil
		}
		defer r.Close()
		b, err := io.ReadAll(io.LimitReader(r, robotsMax))
		if err != nil {
			return nil, nil
		}
		rules := robotsOf(b)
		cache[gp.Addr] = rules
		return rules, nil
	}
	p, err := scheme.PlanOf(u, c.Config)
	if err != nil {
		return nil, nil
	}
	if !*first && c.Wait > 0 {
		if err := sleep(ctx, c.Wait); err != nil {
			return nil, err
		}
	}
	*first = false
	opts := c.Options
	opts.Origin = l.origin
	// A server that drips it forever does not hold the crawl: a
	// retrieval slower than robotsTime is taken as no robots.txt.
	if opts.MaxTime <= 0 || opts.MaxTime > robotsTime {
		opts.MaxTime = robotsTime
	}
	f := c.Writer.Capture(u, &opts)
	r, err := access.Execute(ctx, p, &opts)
	if err != nil {
		f.Abandon()
		return nil, nil
	}
	rr := f.Resource(r)
	var buf bytes.Buffer
	_, err = io.Copy(&buf, io.LimitReader(rr, robotsMax))
	more := false
	if err == nil {
		// Past robotsMax nothing is read: the rules are those of the
		// first robotsMax bytes, and the file is not kept whole.
		var one [1]byte
		n, rerr := rr.Read(one[:])
		more = n > 0 || (rerr != nil && rerr != io.EOF)
		if rerr != nil && rerr != io.EOF && buf.Len() < robotsMax {
			err = rerr
		}
	}
	rr.Close()
	if err != nil {
		f.Abandon()
		return nil, nil
	}
	if more {
		f.Abandon()
	} else if err := f.Finish(); err != nil {
		return nil, &writeError{err}
	}
	rules := robotsOf(buf.Bytes())
	cache[gp.Addr] = rules
	return rules, nil
}

// robotsOf reads the answer to the robots.txt selector: a gopher error
// item (a server without one) has no rules.
func robotsOf(b []byte) *robotsRules {
	if bytes.HasPrefix(b, []byte("3")) && bytes.Contains(b, []byte("\t")) {
		return nil
	}
	return parseRobots(b)
}
