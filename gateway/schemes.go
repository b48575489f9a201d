package gateway

import (
	"bufio"
	"html/template"
	"io"
	"net"
	"net/http"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/edit"
	"github.com/urlkit/urlkit/scheme"
)

// gopher serves a gopher plan: menus and search results as pages, a
// search item without a search string as a form, documents with the type
// their item type names.
func (g *Gateway) gopher(q *request, p *scheme.GopherPlan) {
	switch p.Type {
	case '2', '8', 'T':
		g.fail(q, &unsupportedError{scheme: "gopher", why: "item type " + string(rune(p.Type)) + " is an interactive session, not a document"})
		return
	case '7':
		if !p.HasSearch {
			g.searchPage(q)
			return
		}
	}
	rc, err := g.open(q, p)
	if err != nil {
		g.fail(q, err)
		return
	}
	if rc.Kind == "menu" {
		defer rc.Close()
		g.menuPage(q, rc)
		return
	}
	ctype := gopherType(p.Type, p.Selector)
	if p.HasPlus && (strings.HasPrefix(p.PlusString, "!") || strings.HasPrefix(p.PlusString, "$")) {
		ctype = textPlain // Gopher+ attribute blocks
	}
	g.sendBody(q, rc, rc.Size, ctype)
}

// ftp serves an ftp plan: a directory as a page of links, a file with the
// type its name suggests. A URL without ";type=" and without a final "/"
// that names a directory (access: RETR refused with 550, CWD to the name
// accepted, the listing read instead; urlkit get lists it the same way)
// is redirected to the same URL with the "/", so that relative links
// resolve.
func (g *Gateway) ftp(q *request, p *scheme.FTPPlan) {
	rc, err := g.open(q, p)
	if err != nil {
		g.fail(q, err)
		return
	}
	if rc.Directory {
		rc.Close()
		q.w.Header().Set("Location", "./"+escapeSegment(p.Name)+"/")
		g.errorPage(q.w, q.r, problem{Status: http.StatusMovedPermanently, Message: "a directory: its listing is at the same URL with a final /"})
		return
	}
	if rc.Kind == "directory" {
		defer rc.Close()
		g.ftpListing(q, rc, rc.ListFormat)
		return
	}
	// By the name, else ";type=a" says text, else the first bytes decide
	// (contentType sniffs them).
	def := sniffType
	if (p.Type == 'a' || p.Type == 'A') && !p.Guessed {
		def = textPlain
	}
	g.sendBody(q, rc, rc.Size, typeByName(p.Name, def))
}

// kindByName labels an ftp directory entry by its name.
func kindByName(name string) string {
	t := typeByName(name, "")
	switch {
	case t == "":
		return "file"
	case strings.HasPrefix(t, "text/"):
		return "text"
	}
	return t[:strings.IndexByte(t, '/')]
}

// escapeSegment escapes a name for use as one path segment of an ftp URL:
// the octets RFC 1738 section 2.2 does not allow bare, and the reserved
// characters that would change the URL's structure (RFC 1738 3.2.2).
func escapeSegment(s string) string { return escape(s, ";/?:@=&") }

// escape percent-encodes the octets RFC 1738 section 2.2 does not allow
// bare in a URL (controls, space, octets 80-FF, the unsafe characters
// < > " # % { } | \ ^ ~ [ ] `) and the characters in reserved.
func escape(s, reserved string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= 0x20 || c >= 0x7f || strings.IndexByte("<>\"#%{}|\\^~[]`", c) >= 0 || strings.IndexByte(reserved, c) >= 0 {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// news serves a news or nntp plan: the list of groups and a group's
// articles as pages, an article as text.
func (g *Gateway) news(q *request, p *scheme.NNTPPlan) {
	rc, err := g.open(q, p)
	if err != nil {
		if p.Addr == "" && !notArchived(err) {
			err = &unsupportedError{scheme: "news", why: "news URLs name no server and the gateway has none configured (urlkit serve --nntp-server)"}
		}
		g.fail(q, err)
		return
	}
	if rc.Kind != "groups" && rc.Kind != "overview" {
		g.sendBody(q, rc, rc.Size, textPlain) // an article, shown as text
		return
	}
	defer rc.Close()
	nntp := q.u.Scheme() == "nntp"
	hostport := ""
	if nntp {
		hostport = hostPort(q.u)
	}
	title := "newsgroups"
	if rc.Kind == "overview" {
		title = "articles in " + p.Group
	}
	pg := g.listPage(q, title)
	sc := bufio.NewScanner(rc)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		f := strings.Split(strings.TrimRight(sc.Text(), "\r"), "\t")
		var target, text, kind string
		if rc.Kind == "groups" {
			// LIST: "group high low status" (RFC 977 3.6.1)
			group := strings.Fields(f[0])
			if len(group) == 0 {
				continue
			}
			text, kind = group[0], "group"
			target = "news:" + group[0]
			if nntp {
				target = "nntp://" + hostport + "/" + group[0]
			}
		} else {
			// OVER: number, subject, from, date, message-id, ... (RFC 3977 8.3)
			if len(f) < 5 {
				continue
			}
			text, kind = f[1]+" — "+f[2]+" — "+f[3], "article"
			target = "news:" + strings.TrimSuffix(strings.TrimPrefix(f[4], "<"), ">")
			if nntp {
				target = "nntp://" + hostport + "/" + p.Group + "/" + f[0]
			}
		}
		e := entry{Kind: kind, Text: text}
		if _, err := urlkit.Parse(target); err == nil {
			e.Href, e.Shown = g.link(q, target), target
		}
		if !pg.Item(e) {
			pg.End(nil)
			return
		}
	}
	pg.End(sc.Err())
}

// menuPage renders a gopher menu item by item as it arrives (stream.go),
// as one monospace block of lines (menu.go), under a header bar with the
// selector's breadcrumbs and an up link.
func (g *Gateway) menuPage(q *request, rc io.Reader) {
	link := func(s string) template.URL { return g.link(q, s) }
	pg := g.newPage(q, "menu", &pageHead{Title: q.shown(), Heading: "gopher menu", Proxy: q.proxy, Style: menuStyle,
		bar: bar{URL: q.shown(), trail: gopherTrail(q.u, link)}})
	m := g.newMenuLines(q)
	mr := access.NewMenuReader(rc, 0)
	var l access.MenuLine
	line := func(dst []byte) []byte { return m.appendLine(dst, &l) }
	for {
		err := mr.NextLine(&l)
		if err == io.EOF {
			pg.End(nil)
			return
		}
		if err != nil {
			pg.End(err)
			return
		}
		if !pg.ItemAppend(line) {
			pg.End(nil)
			return
		}
	}
}

// ordinaryLine is ordinaryItem for a line read by NextLine.
func ordinaryLine(l *access.MenuLine) bool { return ordinary(l.Type, l.Selector()) }

// ordinaryItem reports whether a menu item links to its own gopher URL
// (menuEntry's default case).
func ordinaryItem(it menuItem) bool { return ordinary(it.Type, it.Selector) }

// ordinary reports whether an item of type t with selector sel links to
// its own gopher URL: not an info or error line, not a session or phone
// book, not an h item naming a URL.
func ordinary[T ~string | ~[]byte](t byte, sel T) bool {
	switch t {
	case 'i', '3', '2', '8', 'T':
		return false
	case 'h':
		return !(len(sel) >= len("URL:") && string(sel[:len("URL:")]) == "URL:")
	}
	return true
}

// menuEntry is the page's line for one menu item. It links to the
// gateway's form of the item's own URL; h items whose selector is "URL:"
// followed by an http or https URL, and telnet and tn3270 items, link out
// directly. Nothing else is ever linked, so a hostile menu cannot plant a
// javascript: link. A user and password in an item's URL are left out of
// the link and the text, and the line says so.
func (g *Gateway) menuEntry(q *request, it menuItem) entry {
	e := entry{Kind: gopherKind(it.Type), Text: it.Display}
	switch it.Type {
	case 'i':
	case '3':
		e.Kind = "error"
	case '2':
		e.Text += " (CSO phone book at " + it.Host + ":" + it.Port + "; no client)"
	case '8', 'T':
		prog := "telnet"
		if it.Type == 'T' {
			prog = "tn3270"
		}
		// RFC 1436: the selector of a telnet item is the name to log in
		// as; escapeSegment leaves no ":" in it, so no password.
		target := prog + "://"
		if it.Selector != "" {
			target += escapeSegment(it.Selector) + "@"
		}
		target += net.JoinHostPort(it.Host, it.Port) + "/"
		g.linkOut(&e, target)
	default:
		if !ordinaryItem(it) { // an h item naming a URL
			target := it.Selector[len("URL:"):]
			if u, err := urlkit.Parse(target); err == nil && u.IsAbsolute() {
				if clean, had := withoutLogin(u); had {
					target = clean
					e.Text += " (the server's link named a user and password; the gateway left them out)"
				}
				switch u.Scheme() {
				case "http", "https", "mailto", "telnet", "tn3270":
					g.linkOut(&e, target)
				case "gopher", "ftp", "news", "nntp":
					e.Href, e.Shown = g.link(q, target), target
				}
			}
			if e.Href == "" {
				e.Text += " (not linked: the gateway links only web, mail, session, gopher, ftp and news URLs)"
				e.Shown = stripUserinfo(target)
			}
			break
		}
		target, err := itemURL(it)
		if err != nil {
			e.Kind = "invalid"
			e.Text += " (not a valid gopher item: " + err.Error() + ")"
			break
		}
		e.Href, e.Shown = g.link(q, target), target
	}
	return e
}

// withoutLogin returns u without its user and password, and whether it
// had either (item 7 of issue 21: no credentials from upstream in pages).
func withoutLogin(u urlkit.URL) (string, bool) {
	_, hasUser := u.User()
	_, hasPass := u.Password()
	if !hasUser && !hasPass {
		return u.String(), false
	}
	c, err := edit.Clear(u, urlkit.ComponentUser)
	if err != nil {
		return stripUserinfo(u.String()), true
	}
	return c.String(), true
}

// linkOut makes e link directly to target, after the checks of menuPage.
func (g *Gateway) linkOut(e *entry, target string) {
	if _, err := urlkit.Parse(target); err != nil {
		return
	}
	e.Href, e.Shown = trustedURL(target), target
}
