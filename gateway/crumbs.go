package gateway

import (
	"html/template"
	"strings"
	"unicode/utf8"

	"github.com/urlkit/urlkit"
)

// crumb is one step of a page's breadcrumbs: a name and, except for the
// page itself, a link.
type crumb struct {
	Name string
	Href template.URL
}

// trail is a page's place in its server's hierarchy: the breadcrumbs from
// the server's root to the page, and the link one level up ("" at the
// root).
type trail struct {
	Crumbs []crumb
	Up     template.URL
}

// hostPort returns u's host and port as the URL writes them ("h:70",
// "[::1]:7070", "h" without a port): an IPv6 literal keeps its one pair
// of brackets (Host returns it bracketed, so net.JoinHostPort would add
// a second).
func hostPort(u urlkit.URL) string {
	if port, ok := u.RawPort(); ok && port != "" {
		return u.Host() + ":" + port
	}
	return u.Host()
}

// gopherTrail is the trail of a gopher menu: the host's root menu, then
// each "/"-separated prefix of the selector as a menu (gopher servers lay
// selectors out as paths; the gateway only offers the prefixes, each a
// type 1 item the server may or may not have). link turns a gopher URL into
// the page's href for it. The selector is taken as the URL writes it, so
// an encoded "/" (%2F) does not split it.
func gopherTrail(u urlkit.URL, link func(string) template.URL) trail {
	hostport := hostPort(u)
	root := "gopher://" + hostport + "/1/"
	p, _ := u.Path()
	sel := ""
	if len(p) > 1 {
		sel = p[1:] // after the type character
	}
	if i := strings.Index(sel, "%09"); i >= 0 {
		sel = sel[:i] // the search and Gopher+ string are not hierarchy
	}
	segs := strings.Split(strings.Trim(sel, "/"), "/")
	if len(segs) == 1 && segs[0] == "" {
		segs = nil
	}
	t := trail{Crumbs: []crumb{{Name: hostport, Href: link(root)}}}
	lead := ""
	if strings.HasPrefix(sel, "/") {
		lead = "/"
	}
	for i, s := range segs {
		t.Crumbs = append(t.Crumbs, crumb{Name: unescapeShown(s), Href: link("gopher://" + hostport + "/1" + lead + strings.Join(segs[:i+1], "/"))})
	}
	last := len(t.Crumbs) - 1
	if last > 0 {
		t.Up = t.Crumbs[last-1].Href
	}
	t.Crumbs[last].Href = ""
	return t
}

// ftpTrail is the trail of an ftp directory page whose URL path ends in
// "/": the server's root, then each directory, linked relatively ("../",
// "../../"), so that a login in the address bar stays there and out of the
// page.
func ftpTrail(u urlkit.URL) trail {
	hostport := hostPort(u)
	p, _ := u.Path()
	if p != "" && !strings.HasSuffix(p, "/") {
		return trail{} // ";type=d" and the like: relative links would not fit
	}
	segs := strings.Split(strings.Trim(p, "/"), "/")
	if len(segs) == 1 && segs[0] == "" {
		segs = nil
	}
	t := trail{Crumbs: []crumb{{Name: hostport, Href: template.URL("./" + strings.Repeat("../", len(segs)))}}}
	for i, s := range segs {
		t.Crumbs = append(t.Crumbs, crumb{Name: unescapeShown(s) + "/", Href: template.URL("./" + strings.Repeat("../", len(segs)-1-i))})
	}
	last := len(t.Crumbs) - 1
	if last > 0 {
		t.Up = "../"
	}
	t.Crumbs[last].Href = ""
	return t
}

// unescapeShown decodes a URL segment for showing it, or keeps it as
// written when it is not valid UTF-8 once decoded.
func unescapeShown(s string) string {
	d, err := urlkit.Unescape(s)
	if err != nil || !utf8.ValidString(d) {
		return s
	}
	return d
}

// waisTrail is the trail of a WAIS page (RFC 1738 3.9): the server (no
// page of its own: a WAIS server lists no databases), its database (the
// search form), and for a search its words. link turns a wais URL into
// the page's href for it.
func waisTrail(u urlkit.URL, link func(string) template.URL) trail {
	hostport := hostPort(u)
	db, _ := u.Path()
	if i := strings.IndexByte(db, '/'); i >= 0 {
		db = db[:i] // a document's URL: its database
	}
	t := trail{Crumbs: []crumb{{Name: hostport}, {Name: unescapeShown(db), Href: link("wais://" + hostport + "/" + db)}}}
	if words, ok := u.Search(); ok {
		t.Up = t.Crumbs[1].Href
		t.Crumbs = append(t.Crumbs, crumb{Name: unescapeShown(words)})
	}
	t.Crumbs[len(t.Crumbs)-1].Href = ""
	return t
}

// prosperoTrail is the trail of a Prospero directory (RFC 1738 3.11): the
// server's name space (prospero://host:port/, which the gateway answers
// with the server's root), then each "/"-separated prefix of the hsoname
// as a directory, the fields (";name=value") left out. The prefixes above
// the server's root are linked too: the server refuses them, and the
// gateway's page for the refusal names the root.
func prosperoTrail(u urlkit.URL, link func(string) template.URL) trail {
	hostport := hostPort(u)
	p, _ := u.Path()
	if i := strings.IndexByte(p, ';'); i >= 0 {
		p = p[:i]
	}
	lead := ""
	if strings.HasPrefix(p, "/") {
		lead = "/"
	}
	segs := strings.Split(strings.Trim(p, "/"), "/")
	if len(segs) == 1 && segs[0] == "" {
		segs = nil
	}
	t := trail{Crumbs: []crumb{{Name: hostport, Href: link("prospero://" + hostport + "/")}}}
	for i, s := range segs {
		t.Crumbs = append(t.Crumbs, crumb{Name: unescapeShown(s), Href: link("prospero://" + hostport + "/" + lead + strings.Join(segs[:i+1], "/"))})
	}
	last := len(t.Crumbs) - 1
	if last > 0 {
		t.Up = t.Crumbs[last-1].Href
	}
	t.Crumbs[last].Href = ""
	return t
}
