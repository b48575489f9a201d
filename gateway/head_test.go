package gateway

import (
	"html/template"
	"regexp"
	"strings"
	"testing"
)

// headOracle is the page head as html/template wrote it before head was
// written by hand: the same markup, html/template's escaping.
var headOracle = template.Must(template.New("").Parse(`{{define "oracle"}}{{template "head-open" .}}{{template "head-close" .}}{{end}}
{{define "head-open"}}<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<title>{{.Title}}</title>
<style>
{{.Sheet}}{{end}}
{{define "head-close"}}</style></head><body>
<header class="bar">{{if not .Proxy}}<form method="get" action="/go"><a class="home" href="/" title="the gateway's front page">urlkit</a>
<input type="text" name="url" value="{{.URL}}" placeholder="gopher://gopher.floodgap.com/1/, ftp.example.org, ..." aria-label="URL"{{if not .URL}} autofocus{{end}}>
<input type="submit" value="go"></form>{{else}}<span class="home">urlkit gateway</span>{{end}}
{{if .Crumbs}}<nav class="crumbs">{{if .Up}}<a href="{{.Up}}" rel="up" title="one level up">&uarr; up</a> · {{end}}{{range $i, $c := .Crumbs}}{{if $i}} / {{end}}{{if $c.Href}}<a href="{{$c.Href}}">{{$c.Name}}</a>{{else}}<strong>{{$c.Name}}</strong>{{end}}{{end}}</nav>
{{end}}</header>
{{end}}
`))

// head escapes its title, URL box value, breadcrumb names and links as
// html/template does, for hostile values too, up to the escape
// html/template adds for "+" (which HTML does not need) and the case of
// percent-encodings' hex digits (upper-case here, as RFC 3986 2.1
// recommends).
func TestHead(t *testing.T) {
	hostile := `"><script>alert('x')</script>&+<b>`
	for _, tc := range []struct {
		title, url string
		proxy      bool
		crumbs     []crumb
		up         template.URL
		style      template.CSS
	}{
		{"urlkit gateway", "", false, nil, "", ""},
		{"gopher://h:70/1/a/b", "gopher://h:70/1/a/b", false, []crumb{{"h:70", "/gopher://h:70/1/"}, {"a", "/gopher://h:70/1/a"}, {"b", ""}}, "/gopher://h:70/1/a", menuStyle},
		{hostile, hostile, false, []crumb{{hostile, template.URL("/gopher://h/1/" + hostile)}, {"café", ""}}, template.URL("/x?a=1&b='2'"), ""},
		{"gopher://h/1/x", "gopher://h/1/x", true, []crumb{{"h", "./"}, {"x/", ""}}, "../", ""},
	} {
		var want strings.Builder
		data := struct {
			Title, URL string
			Proxy      bool
			Crumbs     []crumb
			Up         template.URL
			Sheet      template.CSS
		}{tc.title, tc.url, tc.proxy, tc.crumbs, tc.up, pageStyle + tc.style}
		if err := headOracle.ExecuteTemplate(&want, "oracle", data); err != nil {
			t.Fatal(err)
		}
		got := string(head(tc.title, tc.proxy, tc.url, tc.crumbs, tc.up, tc.style))
		w := strings.ReplaceAll(want.String(), "&#43;", "+")
		w = regexp.MustCompile(`%[0-9a-f]{2}`).ReplaceAllStringFunc(w, strings.ToUpper)
		if got != w {
			t.Errorf("%q:\n got %s\nwant %s", tc.title, got, w)
		}
	}
}
