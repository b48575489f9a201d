package gateway

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/archive"
	"github.com/urlkit/urlkit/scheme"
)

// This file is the gateway's other source: with Config.Replay set, the
// resources come from an archive (archive.Archive.Resource, the inverse of
// capture's mapping) instead of access.Execute, and nothing is dialled.
// The pages are the same code either way (schemes.go, menu.go, ...):
// only newPage adds a banner saying which capture is shown and listing
// the others, and documents are sent byte for byte with a
// Memento-Datetime header (RFC 7089 section 2.1.1).

// replayed is what the request was answered from: the capture shown and
// every capture of its URL.
type replayed struct {
	shown archive.Entry
	all   []archive.Entry
}

// replay is open's replay side: the capture of q's URL nearest to the
// time the request names (/TIMESTAMP/URL, as Wayback machines read it),
// the latest when it names none.
func (g *Gateway) replay(q *request, plan scheme.Plan) (*access.Resource, error) {
	caps, err := g.cfg.Replay.Captures(q.u.String())
	if err != nil {
		return nil, err
	}
	if len(caps) == 0 {
		// A search not captured: which ones were.
		searches, _ := g.cfg.Replay.Searches(q.u.String())
		for i := range searches {
			searches[i] = stripUserinfo(searches[i])
		}
		return nil, &archive.NotArchivedError{URL: q.shown(), Searches: searches}
	}
	i := archive.Nearest(caps, q.at)
	rc, err := g.cfg.Replay.Resource(caps[i])
	if err != nil {
		return nil, err
	}
	q.replayed = &replayed{shown: caps[i], all: caps}
	q.w.Header().Set("Memento-Datetime", caps[i].Time().Format(http.TimeFormat))
	return rc, nil
}

// maxBannerCaptures bounds the other captures a banner lists.
const maxBannerCaptures = 40

// withBanner inserts the replay banner after the header bar of a page
// start b (the bar ends with "</header>\n"), when the request is answered
// from an archive.
func (q *request) withBanner(b []byte) []byte {
	if q.replayed == nil {
		return b
	}
	const bar = "</header>\n"
	i := bytes.Index(b, []byte(bar))
	if i < 0 {
		return b
	}
	i += len(bar)
	ban := q.banner()
	out := make([]byte, 0, len(b)+len(ban))
	out = append(out, b[:i]...)
	out = append(out, ban...)
	return append(out, b[i:]...)
}

// bannerStyle is the banner's style (inline: pages have no style sheet to
// add it to without the page code knowing).
const bannerStyle = `background:#fff6d5;border:1px solid #d9c27a;padding:.4em .8em;margin:0 0 1em;font-size:.9em`

// banner is the replay banner: the capture's date, its file, and the
// other captures of the URL as /TIMESTAMP/URL links (in the path form;
// a proxy client is shown the dates).
func (q *request) banner() []byte {
	r := q.replayed
	b := make([]byte, 0, 512)
	b = append(b, `<div class="replay" role="note" style="`+bannerStyle+`">Archived: this is the capture of `...)
	b = append(b, formatCapture(r.shown)...)
	b = append(b, " UTC, from "...)
	b = appendHTML(b, r.shown.Filename)
	b = append(b, ". The gateway is replaying an archive: nothing is fetched."...)
	if len(r.all) > 1 {
		b = append(b, "<br>Captures of this URL ("...)
		b = append(b, groupDigits(int64(len(r.all)))...)
		b = append(b, "): "...)
		from, to := 0, len(r.all)
		if to > maxBannerCaptures {
			// The ones nearest the capture shown.
			idx := 0
			for i := range r.all {
				if r.all[i] == r.shown {
					idx = i
				}
			}
			from = max(0, min(idx-maxBannerCaptures/2, len(r.all)-maxBannerCaptures))
			to = from + maxBannerCaptures
		}
		for i := from; i < to; i++ {
			c := r.all[i]
			if i > from {
				b = append(b, " · "...)
			}
			switch {
			case c == r.shown:
				b = append(b, "<strong>"...)
				b = append(b, formatCapture(c)...)
				b = append(b, "</strong>"...)
			case q.proxy:
				b = append(b, formatCapture(c)...)
			default:
				b = append(b, `<a href="/`...)
				b = append(b, c.Timestamp...)
				b = append(b, '/')
				b = appendHref(b, q.shown())
				b = append(b, `">`...)
				b = append(b, formatCapture(c)...)
				b = append(b, "</a>"...)
			}
		}
	}
	return append(b, "</div>\n"...)
}

// formatCapture writes a capture's date as people read it.
func formatCapture(e archive.Entry) string {
	t := e.Time()
	if t.IsZero() {
		return e.Timestamp
	}
	return t.Format("2006-01-02 15:04:05")
}

// replayTarget splits a path-form target "TIMESTAMP/URL" (1 to 14 digits,
// a Wayback timestamp) into the time it names and the URL; ok is false
// for a target of another form.
func replayTarget(rest string) (at time.Time, target string, ok bool, err error) {
	ts, target, found := strings.Cut(rest, "/")
	if !found || ts == "" || strings.Trim(ts, "0123456789") != "" || !hasScheme(target) {
		return time.Time{}, "", false, nil
	}
	at, err = archive.ParseTimestamp(ts)
	return at, target, true, err
}

// notArchived reports whether err is a URL the archive does not hold.
func notArchived(err error) bool {
	var na *archive.NotArchivedError
	return errors.As(err, &na)
}

// maxRootURLs bounds the archived URLs the front page lists.
const maxRootURLs = 200

// replayRootPage is a replaying gateway's front page: the archived URLs
// its index begins with, as links.
func (g *Gateway) replayRootPage(w http.ResponseWriter) {
	urls, more, err := g.cfg.Replay.URLs(maxRootURLs)
	if err != nil {
		g.errorPage(w, nil, problem{Status: http.StatusBadGateway, Message: err.Error()})
		return
	}
	var list []entry
	for _, u := range urls {
		u = stripUserinfo(u)
		if !hasScheme(u) {
			continue
		}
		list = append(list, entry{Text: u, Href: trustedURL("/" + u)})
	}
	g.render(w, "replay-root", struct {
		Title string
		Proxy bool
		URLs  []entry
		More  bool
		bar
	}{"urlkit gateway: an archive", false, list, more, bar{}}, "")
}

// archivedHTTP serves an http response from the archive (check lets http
// URLs through only when replaying): its body byte for byte, with its
// Content-Type, under the sandbox every upstream document gets; a
// response that was not 2xx is the error access gave for it.
func (g *Gateway) archivedHTTP(q *request, p *scheme.HTTPPlan) {
	rc, err := g.open(q, p)
	if err != nil {
		g.fail(q, err)
		return
	}
	g.sendBody(q, rc, rc.Size, rc.ContentType)
}
