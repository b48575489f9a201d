package gateway

import (
	"fmt"
	"io"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/scheme"
)

// wais serves a wais plan (RFC 1738 3.9): a database (no words) as a
// search form, a search as a page of its hits, each linking to its
// document's URL, a document with the media type its WAIS type names.
func (g *Gateway) wais(q *request, p *scheme.WAISPlan) {
	if p.Form == scheme.WAISDatabase {
		g.searchPage(q)
		return
	}
	rc := g.openListing(q, p, "search", func(rc *access.Resource) string { return rc.ContentType })
	if rc == nil {
		return
	}
	defer rc.Close()
	hits, diags, err := access.ReadWAISHits(rc)
	if err != nil {
		g.fail(q, err)
		return
	}
	pg := g.listPage(q, "WAIS search")
	items := make([]entry, 0, len(hits)+len(diags)+1)
	for _, h := range hits {
		e := entry{Kind: strings.ToLower(h.Type), Text: h.Headline + " — " + waisFacts(h)}
		if _, err := urlkit.Parse(h.URL); err == nil {
			e.Href, e.Shown = g.link(q, h.URL), h.URL
		}
		items = append(items, e)
	}
	for _, d := range diags {
		items = append(items, entry{Kind: "error", Text: "the server adds: " + d})
	}
	if len(hits) == 0 {
		items = append(items, entry{Kind: "info", Text: "no document matches"})
	}
	for _, e := range items {
		if !pg.Item(e) {
			break
		}
	}
	pg.End(nil)
}

// openListing executes plan for q and returns the resource when it is a
// listing of kind; any other resource is sent as it is, typed by ctype,
// and an error answered, and nil is returned.
func (g *Gateway) openListing(q *request, plan scheme.Plan, kind string, ctype func(*access.Resource) string) *access.Resource {
	rc, err := g.open(q, plan)
	if err != nil {
		g.fail(q, err)
		return nil
	}
	if rc.Kind != kind {
		g.sendBody(q, rc, rc.Size, ctype(rc))
		return nil
	}
	return rc
}

// waisFacts is a hit's score, size and lines, as a person reads them.
func waisFacts(h access.WAISHit) string {
	s := fmt.Sprintf("score %d", h.Score)
	if h.Size >= 0 {
		s += fmt.Sprintf(", %d bytes", h.Size)
	}
	if h.Lines >= 0 {
		s += fmt.Sprintf(", %d lines", h.Lines)
	}
	return s
}

// prospero serves a prospero plan (RFC 1738 3.11): a directory as a page
// of its links, each entry linking to its prospero URL (an EXTERNAL link
// to the URL of its access method, when the gateway carries that scheme);
// a file through the access method access follows (its contents from the
// Prospero server, or its ftp or gopher URL), with the type its name
// suggests.
func (g *Gateway) prospero(q *request, p *scheme.ProsperoPlan) {
	rc := g.openListing(q, p, "directory", func(*access.Resource) string {
		return typeByName(p.HSOName[strings.LastIndexByte(p.HSOName, '/')+1:], octetStream)
	})
	if rc == nil {
		return
	}
	defer rc.Close()
	pg := g.listPage(q, "Prospero directory")
	lr := access.NewProsperoListReader(rc)
	n := 0
	for {
		en, err := lr.Next()
		if err == io.EOF {
			if n == 0 {
				pg.Item(entry{Kind: "info", Text: "an empty directory"})
			}
			pg.End(nil)
			return
		}
		if err != nil {
			pg.End(err)
			return
		}
		e := entry{Kind: "info", Text: en.Note}
		if en.Note == "" {
			n++
			e = entry{Kind: prosperoKind(en.Target), Text: en.Name}
			if en.URL != "" {
				if u, err := urlkit.Parse(en.URL); err == nil {
					target, had := withoutLogin(u) // issue 21 item 7
					if had {
						e.Text += " (the server's link named a user and password; the gateway left them out)"
					}
					switch u.Scheme() {
					case "prospero", "ftp", "gopher", "wais", "news", "nntp":
						e.Href, e.Shown = g.link(q, target), target
					default:
						e.Text += " (" + target + "; not linked: the gateway links only the schemes it carries)"
					}
				}
			} else {
				e.Text += " (" + en.Target + " on " + en.Host + ", " + en.HSOName + ")"
			}
		}
		if !pg.Item(e) {
			pg.End(nil)
			return
		}
	}
}

// prosperoKind labels a link by its target.
func prosperoKind(target string) string {
	switch {
	case strings.Contains(target, "DIRECTORY"):
		return "dir"
	case target == "FILE":
		return "file"
	case target == "UNION":
		return "union"
	case target == "EXTERNAL":
		return "external"
	}
	return strings.ToLower(target)
}
