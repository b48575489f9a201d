package gateway

import (
	"bytes"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"strings"

	"github.com/urlkit/urlkit/lenient"
)

// pageCSP is the Content-Security-Policy of every page the gateway builds:
// no script of any kind, styles only from the page itself, no plugins, no
// framing, forms only back to the gateway.
const pageCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// entry is one line of a listing page: a menu item, a file, a group or an
// article. Href is empty for text-only lines. It is a template.URL because
// it is built only by link, linkOut and the literal relative links of
// listings, each from a URL that has been parsed and whose scheme has been
// checked against an allowlist.
type entry struct {
	Kind  string
	Text  string
	Href  template.URL
	Shown string // the URL the entry stands for, without user or password
}

// link returns the href for target as seen from the current page: the
// gateway's path form "/"+target for browsers, or the URL itself for a
// client that came through the proxy form (it will ask the gateway again).
func (g *Gateway) link(q *request, target string) template.URL {
	if q.proxy {
		return template.URL(target)
	}
	return template.URL("/" + target)
}

// bar is what the header bar of every page shows besides the URL box's
// form: the page's URL in the box (without user or password), the
// breadcrumbs and the up link.
type bar struct {
	URL string
	trail
}

// trustedURL marks a URL checked by the caller as safe to link to.
func trustedURL(s string) template.URL { return template.URL(s) }

// pageStyle is the style sheet of every page.
const pageStyle = `body{font-family:system-ui,sans-serif;max-width:64em;margin:0 auto;padding:0 1em 1em;line-height:1.4}
header.bar{position:sticky;top:0;background:#eef1f5;border-bottom:1px solid #ccd;margin:0 -1em 1em;padding:.4em 1em}
header.bar form{display:flex;gap:.4em;align-items:center;margin:0}
header.bar .home{font-weight:bold;text-decoration:none;color:#234}
header.bar input[type=text]{flex:1;font-family:monospace;font-size:1em;width:auto}
nav.crumbs{font-size:.9em;margin-top:.3em;word-break:break-all}
nav.crumbs a[rel=up]{font-weight:bold}
pre.menu{font-family:monospace;line-height:1.35;white-space:pre;overflow-x:auto}
pre.menu form{display:inline;margin:0}
pre.menu input[type=search]{font-family:monospace}
h1{font-size:1.2em;word-break:break-all}
ul.items{list-style:none;padding:0}
ul.items li{margin:.15em 0}
.kind{display:inline-block;min-width:5em;color:#666;font-family:monospace}
.info{white-space:pre-wrap;font-family:monospace}
.url{color:#777;font-size:.8em;margin-left:.5em;word-break:break-all}
.error{color:#a00}
input[type=text]{width:70%}
footer{margin-top:2em;color:#777;font-size:.8em}
pre.input{background:#f6f6f6;padding:.3em}
mark{background:#fbb;outline:1px solid #a00}
table.files{border-collapse:collapse;font-family:monospace}
table.files td,table.files th{padding:.1em .8em .1em 0;text-align:left;white-space:pre}
table.files .size{text-align:right}
.truncated{color:#a60;font-weight:bold}
a,.info,.error,.url,td,h1,nav.crumbs{unicode-bidi:isolate}
`

// head is the start of every page, up to its header bar (the template
// function "head"): the document's head with its title and style sheet
// (pageStyle and the page kind's rules, style), then the bar: the URL box
// with url (or, for a page answering the proxy form, which has no gateway
// origin to send a form to, the gateway's name), and the breadcrumbs with
// the up link. It is written by hand, not by html/template, which took
// about 30 microseconds a page for it; the escaping is appendHTML's and
// appendHref's (TestHead holds it to html/template's).
func head(title string, proxy bool, url string, crumbs []crumb, up template.URL, style template.CSS) template.HTML {
	return template.HTML(appendHead(make([]byte, 0, 3072+len(style)), title, proxy, url, crumbs, up, style))
}

// appendHead appends what head returns to b: listing pages write their
// head so (newPage), into the page's buffer, without a template's
// reflection or a copy.
func appendHead(b []byte, title string, proxy bool, url string, crumbs []crumb, up template.URL, style template.CSS) []byte {
	b = append(b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><meta name=\"referrer\" content=\"no-referrer\">\n<title>"...)
	b = appendHTML(b, title)
	b = append(b, "</title>\n<style>\n"...)
	b = append(b, pageStyle...)
	b = append(b, style...)
	b = append(b, "</style></head><body>\n<header class=\"bar\">"...)
	if !proxy {
		b = append(b, `<form method="get" action="/go"><a class="home" href="/" title="the gateway's front page">urlkit</a>`+"\n"+`<input type="text" name="url" value="`...)
		b = appendHTML(b, url)
		b = append(b, `" placeholder="gopher://gopher.floodgap.com/1/, ftp.example.org, ..." aria-label="URL"`...)
		if url == "" {
			b = append(b, " autofocus"...)
		}
		b = append(b, ">\n"+`<input type="submit" value="go"></form>`...)
	} else {
		b = append(b, `<span class="home">urlkit gateway</span>`...)
	}
	b = append(b, '\n')
	if len(crumbs) > 0 {
		b = append(b, `<nav class="crumbs">`...)
		if up != "" {
			b = append(b, `<a href="`...)
			b = appendHref(b, up)
			b = append(b, `" rel="up" title="one level up">&uarr; up</a> · `...)
		}
		for i, c := range crumbs {
			if i > 0 {
				b = append(b, " / "...)
			}
			if c.Href != "" {
				b = append(b, `<a href="`...)
				b = appendHref(b, c.Href)
				b = append(b, `">`...)
				b = appendHTML(b, c.Name)
				b = append(b, "</a>"...)
			} else if i < len(crumbs)-1 {
				// a step with no page of its own (a WAIS server)
				b = appendHTML(b, c.Name)
			} else {
				b = append(b, "<strong>"...)
				b = appendHTML(b, c.Name)
				b = append(b, "</strong>"...)
			}
		}
		b = append(b, "</nav>\n"...)
	}
	return append(b, "</header>\n"...)
}

var pages = template.Must(template.New("pages").Funcs(template.FuncMap{"head": head, "shown": shownControls}).Parse(`
{{define "head"}}{{head .Title .Proxy .URL .Crumbs .Up ""}}{{end}}
{{define "foot"}}<footer>urlkit gateway{{if not .Proxy}} · <a href="/">enter another URL</a>{{end}}</footer>
</body></html>
{{end}}
{{define "page-end"}}{{if .Truncated}}<p class="truncated">{{.Truncated}}</p>
{{end}}{{if .Failed}}<p class="error">{{.Failed}}</p>
{{end}}{{template "foot" .}}{{end}}
{{define "list-start"}}<h1>{{.Heading}}: {{.Title}}</h1>
<ul class="items">
{{end}}
{{define "list-item"}}<li>{{if .Href}}<span class="kind">{{.Kind}}</span> <a href="{{.Href}}">{{shown .Text}}</a>{{if .Shown}} <span class="url">{{shown .Shown}}</span>{{end}}{{else if eq .Kind "error"}}<span class="kind">error</span> <span class="error">{{shown .Text}}</span>{{else}}<span class="kind">{{.Kind}}</span> <span class="info">{{shown .Text}}</span>{{end}}</li>
{{end}}
{{define "list-end"}}</ul>
{{template "page-end" .}}{{end}}
{{define "menu-start"}}<h1>gopher menu: {{.Title}}</h1>
<pre class="menu">
{{end}}
{{define "menu-end"}}</pre>
{{template "page-end" .}}{{end}}
{{define "ftpdir-start"}}<h1>{{.Heading}}: {{.Title}}</h1>
<table class="files">
{{if .Details}}<tr><th>name</th><th class="size">size</th><th>modified</th><th>kind</th></tr>
{{end}}{{if .Parent}}<tr><td><a href="../">../</a></td><td></td><td></td><td>parent directory</td></tr>
{{end}}{{end}}
{{define "ftpdir-item"}}{{if .Raw}}<tr><td colspan="4" class="info">{{shown .Raw}}</td></tr>
{{else}}<tr><td>{{if .Href}}<a href="{{.Href}}">{{shown .Name}}</a>{{else}}{{shown .Name}}{{end}}</td><td class="size"{{if .Bytes}} title="{{.Bytes}}"{{end}}>{{.Size}}</td><td>{{shown .Date}}</td><td class="kind">{{shown .Kind}}</td></tr>
{{end}}{{end}}
{{define "ftpdir-end"}}</table>
{{template "page-end" .}}{{end}}
{{define "error"}}{{template "head" .}}<h1>{{.StatusText}} ({{.Status}})</h1>
<p class="error">{{.Message}}</p>
{{if .Input}}<pre class="input">{{range .Input}}{{if .Bad}}<mark>{{.Text}}</mark>{{else}}{{.Text}}{{end}}{{end}}</pre>
{{end}}{{if .Fix}}<p class="fix">{{if .FixText}}{{.FixText}}{{else}}Repaired as the URL box reads it{{end}}: <a href="{{.FixHref}}">{{.Fix}}</a></p>
{{end}}{{if .Repairs}}<ul>{{range .Repairs}}<li>repaired: {{.}}</li>{{end}}</ul>
{{end}}{{if .Retry}}<p><a href="{{.Retry}}">Retry {{.Target}}</a>{{if not .Proxy}}, or change the URL in the box above.{{end}}</p>
{{end}}{{template "foot" .}}{{end}}
{{define "hits-start"}}<h1>{{.Heading}}: {{.Title}}</h1>
<form method="get" action="{{.Action}}">
<input type="hidden" name="url" value="{{.Database}}">
<input type="search" name="q" value="{{.Words}}" aria-label="words"> <input type="submit" value="search again">
</form>
<table class="files">
<tr><th>headline</th><th class="size">score</th><th class="size">size</th><th>type</th></tr>
{{end}}
{{define "hits-item"}}{{if .Raw}}<tr><td colspan="4" class="{{if .Error}}error{{else}}info{{end}}">{{shown .Raw}}</td></tr>
{{else}}<tr><td>{{if .Href}}<a href="{{.Href}}">{{shown .Headline}}</a>{{else}}{{shown .Headline}}{{end}}</td><td class="size">{{.Score}}</td><td class="size"{{if .Bytes}} title="{{.Bytes}}"{{end}}>{{.Size}}</td><td class="kind">{{shown .Type}}</td></tr>
{{end}}{{end}}
{{define "hits-end"}}</table>
{{template "page-end" .}}{{end}}
{{define "search"}}{{template "head" .}}<h1>{{.Title}}</h1>
{{if .Fix}}<p class="fix">This URL's selector ends in "?{{.Words}}" (RFC 1738 3.4 puts a search after %09); as lynx reads it, it searches for "{{.Words}}": <a href="{{.FixHref}}">{{.Fix}}</a></p>
{{end}}<form method="get" action="{{.Action}}">
<input type="hidden" name="url" value="{{.Target}}">
<input type="text" name="q" value="{{.Words}}" autofocus> <input type="submit" value="search">
</form>
{{template "foot" .}}{{end}}
{{define "root"}}{{template "head" .}}<h1>urlkit gateway</h1>
<p>Type the URL of a gopher menu, an ftp directory or file, a newsgroup, a WAIS database or a Prospero directory into the box above,
or just a host: <code>gopher.floodgap.com</code>, <code>ftp.example.org</code>.
The gateway fetches it with urlkit's clients and shows menus and directories as pages.</p>
<p>You can also put a URL after the gateway's address: <code>/gopher://host/1/</code>,
<code>/ftp://host/pub/</code>, <code>/nntp://host/group</code>.
Clients with gateway settings (lynx with <code>gopher_proxy</code>, <code>ftp_proxy</code>) use the gateway as a proxy.</p>
{{template "foot" .}}{{end}}
{{define "replay-root"}}{{template "head" .}}<h1>urlkit gateway: an archive</h1>
<p>The gateway is replaying an archive: it fetches nothing. Type a URL into the box above, or put it after the gateway's address;
<code>/TIMESTAMP/URL</code> (<code>YYYYMMDDhhmmss</code>, or its first digits) shows the capture nearest that time.</p>
<p>Archived URLs{{if .More}} (the first {{len .URLs}}, in index order){{end}}:</p>
<ul class="items">
{{range .URLs}}<li><a href="{{.Href}}">{{.Text}}</a></li>
{{end}}</ul>
{{template "foot" .}}{{end}}
`))

// cspWithForms is pageCSP letting forms go to origin too (none when "").
func cspWithForms(origin string) string {
	if origin == "" {
		return pageCSP
	}
	return strings.Replace(pageCSP, "form-action 'self'", "form-action 'self' "+origin, 1)
}

// render writes a page built from template name with data.
func (g *Gateway) render(w http.ResponseWriter, name string, data any, formOrigin string) {
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, name, data); err != nil {
		g.errorPage(w, nil, problem{Status: http.StatusInternalServerError, Message: "page template: " + err.Error()})
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", cspWithForms(formOrigin))
	h.Set("Content-Length", fmt.Sprint(b.Len()))
	w.WriteHeader(http.StatusOK)
	w.Write(b.Bytes())
}

// listPage starts a listing page of entries (template "list") under a
// heading; the caller writes each entry with Item and ends it with End.
func (g *Gateway) listPage(q *request, heading string) *page {
	return g.newPage(q, "list", &pageHead{Title: stripUserinfo(q.u.String()), Heading: heading, Proxy: q.proxy, bar: bar{URL: q.shown()}})
}

// searchPage renders the form of a gopher search item (type 7) requested
// without a search string. The form goes to the gateway's /go, which
// redirects to the URL with the search added. The page is titled with the
// selector's last part, decoded (the breadcrumbs' last name: "find it"
// for /7/cgi/find%20it; the server for an empty selector), since a URL
// names no display string; the URL itself is in the box above.
func (g *Gateway) searchPage(q *request) {
	action, origin := g.formAction(q)
	link := func(s string) template.URL { return g.link(q, s) }
	var tr trail
	title, target, words, fix := "search: ", q.u.String(), "", ""
	if q.u.Scheme() == "wais" {
		// wais://host:port/database: the database's name (RFC 1738 3.9)
		tr, title = waisTrail(q.u, link), "search WAIS database: "
	} else {
		tr = gopherTrail(q.u, link)
		// "/7/find?words", as lynx users write a search: strictly the
		// selector "find?words" (RFC 1738 3.4), which the gateway asks
		// for; the lenient reading's search is offered beside it, and
		// its words fill the field.
		if lu, _, err := lenient.Parse(target); err == nil && lu.String() != target {
			if w, ok := q.u.Search(); ok {
				fix, words = lu.String(), unescapeShown(w)
				target = target[:len(target)-len(w)-1]
			}
		}
	}
	g.render(q.w, "search", struct {
		Title, Target, Words, Fix string
		FixHref, Action           template.URL
		Proxy                     bool
		bar
	}{title + tr.Crumbs[len(tr.Crumbs)-1].Name, target, words, fix, g.link(q, fix), action, q.proxy, bar{URL: q.shown(), trail: tr}}, origin)
}

// formAction is where a page's search form is sent (the gateway's /go),
// and the origin the page's Content-Security-Policy must let forms go to
// besides its own ("" for a page in the path form, whose origin is the
// gateway's). A page answering the proxy form has the gopher or wais URL
// as its address: the form names the gateway by the address the request
// came to.
func (g *Gateway) formAction(q *request) (action template.URL, origin string) {
	if q.proxy {
		if a, ok := q.r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
			origin = "http://" + a.String()
			return template.URL(origin + "/go"), origin
		}
	}
	return "/go", ""
}

// rootPage is the gateway's front page; a replaying gateway's lists the
// URLs its archive begins with (replay.go).
func (g *Gateway) rootPage(w http.ResponseWriter) {
	if g.cfg.Replay != nil {
		g.replayRootPage(w)
		return
	}
	g.render(w, "root", struct {
		Title string
		Proxy bool
		bar
	}{"urlkit gateway", false, bar{}}, "")
}
