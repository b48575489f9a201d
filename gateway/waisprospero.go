package gateway

import (
	"html/template"
	"io"
	"strconv"
	"strings"
	"time"

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
	link := func(s string) template.URL { return g.link(q, s) }
	tr := waisTrail(q.u, link)
	words, _ := q.u.Search()
	head := &pageHead{Title: tr.Crumbs[len(tr.Crumbs)-1].Name + " in " + tr.Crumbs[1].Name, Heading: "WAIS search", Proxy: q.proxy,
		Database: "wais://" + hostPort(q.u) + "/" + p.Database, Words: unescapeShown(words), bar: bar{URL: q.shown(), trail: tr}}
	head.Action, head.formOrigin = g.formAction(q)
	pg := g.newPage(q, "hits", head)
	rows := make([]hitRow, 0, len(hits)+len(diags)+1)
	for _, h := range hits {
		rows = append(rows, waisRow(h, link))
	}
	for _, d := range diags {
		rows = append(rows, hitRow{Raw: "the server adds: " + d, Error: true})
	}
	if len(hits) == 0 {
		rows = append(rows, hitRow{Raw: "no document matches"})
	}
	for _, r := range rows {
		if !pg.Item(r) {
			break
		}
	}
	pg.End(nil)
}

// hitRow is one row of a page of WAIS hits: the document's headline
// linked to its URL (the document id it holds stays in the link, out of
// sight), its score, size and type; or a line of text (Raw): a diagnostic
// (Error) or a note.
type hitRow struct {
	Headline, Score, Size, Bytes, Type string
	Href                               template.URL
	Raw                                string
	Error                              bool
}

// waisRow is the row of one hit.
func waisRow(h access.WAISHit, link func(string) template.URL) hitRow {
	r := hitRow{Headline: h.Headline, Score: strconv.FormatInt(h.Score, 10), Type: h.Type}
	if r.Headline == "" {
		r.Headline = "(no headline)"
	}
	if h.Size >= 0 {
		r.Size, r.Bytes = humanSize(h.Size), groupDigits(h.Size)+" bytes"
		if h.Lines >= 0 {
			r.Bytes += ", " + groupDigits(h.Lines) + " lines"
		}
	}
	if _, err := urlkit.Parse(h.URL); err == nil {
		r.Href = link(h.URL)
	}
	return r
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
	link := func(s string) template.URL { return g.link(q, s) }
	pg := g.newPage(q, "ftpdir", &pageHead{Title: q.shown(), Heading: "Prospero directory", Proxy: q.proxy, Details: true,
		bar: bar{URL: q.shown(), trail: prosperoTrail(q.u, link)}})
	lr := access.NewProsperoListReader(rc)
	n := 0
	for {
		en, err := lr.Next()
		if err == io.EOF {
			if n == 0 {
				pg.Item(fileRow{Raw: "an empty directory"})
			}
			pg.End(nil)
			return
		}
		if err != nil {
			pg.End(err)
			return
		}
		r := fileRow{Raw: en.Note}
		if en.Note == "" {
			n++
			r = prosperoRow(en, link)
		}
		if !pg.Item(r) {
			pg.End(nil)
			return
		}
	}
}

// prosperoRow is the row of one link of a Prospero directory: its name
// linked to its prospero URL (an EXTERNAL link to the URL of its access
// method, when the gateway carries that scheme), and what the server's
// attributes say: size, last modification (RFC 1738 3.11 names the
// object; `vls -A` shows the same attributes) and kind with its access
// methods.
func prosperoRow(en access.ProsperoEntry, link func(string) template.URL) fileRow {
	r := fileRow{Name: en.Name, Kind: prosperoKind(en.Target)}
	if len(en.Access) > 0 {
		r.Kind += " (" + strings.ToLower(strings.Join(en.Access, ", ")) + ")"
	}
	if en.Size >= 0 && r.Kind != "directory" {
		r.Size, r.Bytes = humanSize(en.Size), groupDigits(en.Size)+" bytes"
	}
	if t, err := time.Parse("20060102150405Z", en.Modified); err == nil {
		r.Date = t.Format("2006-01-02 15:04")
	} else {
		r.Date = en.Modified
	}
	if en.URL == "" {
		r.Kind += " (" + en.Target + " on " + en.Host + ", " + en.HSOName + ")"
		return r
	}
	u, err := urlkit.Parse(en.URL)
	if err != nil {
		return r
	}
	target, had := withoutLogin(u) // issue 21 item 7
	if had {
		r.Kind += " (the server's link named a user and password; the gateway left them out)"
	}
	switch u.Scheme() {
	case "prospero", "ftp", "gopher", "wais", "news", "nntp":
		r.Href = link(target)
	default:
		r.Kind += " (" + target + "; not linked: the gateway links only the schemes it carries)"
	}
	return r
}

// prosperoKind labels a link by its target.
func prosperoKind(target string) string {
	switch {
	case strings.Contains(target, "DIRECTORY"):
		return "directory"
	case target == "FILE":
		return "file"
	case target == "UNION":
		return "union"
	case target == "EXTERNAL":
		return "external"
	}
	return strings.ToLower(target)
}
