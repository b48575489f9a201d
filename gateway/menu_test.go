package gateway

import (
	"html/template"
	"strings"
	"testing"
)

// appendHTML escapes as html/template does for text and attribute values,
// and reads bytes that are not UTF-8 as windows-1252.
func TestAppendHTML(t *testing.T) {
	for in, want := range map[string]string{
		`<script>alert("x") & 'y'</script>`: `&lt;script&gt;alert(&#34;x&#34;) &amp; &#39;y&#39;&lt;/script&gt;`,
		"caf\u00e9 \u2603":                  "caf\u00e9 \u2603",
		"Caf\xe9 \x93quoted\x94":            "Caf\u00e9 \u201cquoted\u201d",
		"nul\x00":                           "nul\uFFFD",
	} {
		if got := string(appendHTML(nil, in)); got != want {
			t.Errorf("appendHTML(%q) = %q, want %q", in, got, want)
		}
	}
	// Agreement with html/template on ASCII and UTF-8 text.
	for _, s := range []string{`a<b>"c"&'d'`, "plain", "ünïcödé <&>"} {
		if got, want := string(appendHTML(nil, s)), template.HTMLEscapeString(s); got != want {
			t.Errorf("appendHTML(%q) = %q, html/template %q", s, got, want)
		}
	}
}

// appendHref writes an href as html/template does (its URL normalizer).
func TestAppendHref(t *testing.T) {
	tmpl := template.Must(template.New("").Parse(`<a href="{{.}}">`))
	for _, s := range []string{"/gopher://h:70/1javascript:alert(1)", "/gopher://h/0a%20b?x=1&y='2'", "http://e.org/a b\"c\"<d>", "/gopher://h/0café"} {
		var b strings.Builder
		tmpl.Execute(&b, template.URL(s))
		want := strings.TrimSuffix(strings.TrimPrefix(b.String(), `<a href="`), `">`)
		if got := string(appendHref(nil, s)); !strings.EqualFold(got, want) { // the hex digits upper-case here (RFC 3986 2.1)
			t.Errorf("appendHref(%q) = %q, html/template %q", s, got, want)
		}
	}
}

// Each menu line: the type label with its RFC 1436 or Gopher+ meaning on
// hover, the display string linked (no URL repeated on the line); info lines
// as text in the display strings' column; a search item with its field.
func TestAppendMenuLine(t *testing.T) {
	for _, tc := range []struct {
		t      byte
		e      entry
		search string
		want   string
	}{
		{'1', entry{Text: "Docs", Href: "/gopher://h/1/docs", Shown: "gopher://h/1/docs"}, "",
			`<span class="t" title="1: a gopher menu, a directory of items (RFC 1436)">(DIR)</span> <a href="/gopher://h/1/docs">Docs</a>` + "\n"},
		{'i', entry{Text: "  +--<art>--+"}, "", "      " + "  +--&lt;art&gt;--+\n"},
		{'7', entry{Text: "Find", Href: "/gopher://h/7/f", Shown: "gopher://h/7/f"}, "/go",
			`<span class="t" title="7: an index-search server: type words, get a menu (RFC 1436)">(?)  </span> <a href="/gopher://h/7/f">Find</a>` +
				` <form class="s" method="get" action="/go"><input type="hidden" name="url" value="gopher://h/7/f"><input type="search" name="q" size="24" aria-label="search: Find"><button>search</button></form>` + "\n"},
		{'3', entry{Text: "no <such> thing", Kind: "error"}, "", `<span class="t" title="3: an error the server reports (RFC 1436)">(ERR)</span> <span class="error">no &lt;such&gt; thing</span>` + "\n"},
		{'Q', entry{Text: "odd", Href: "/gopher://h/Qx", Shown: "gopher://h/Qx"}, "", `<span class="t" title="Q: an item type the gateway does not know">(???)</span> <a href="/gopher://h/Qx">odd</a>` + "\n"},
	} {
		if got := string(appendMenuLine(nil, tc.t, tc.e, tc.search)); got != tc.want {
			t.Errorf("%c %+v:\n got %s\nwant %s", tc.t, tc.e, got, tc.want)
		}
	}
	// Every label is five columns, so that the display strings align.
	for c := 0; c < 256; c++ {
		if l := typeOf(byte(c)).label; l != "" && len(l) != len(infoIndent)-1 {
			t.Errorf("type %q: label %q is not %d columns", rune(c), l, len(infoIndent)-1)
		}
	}
	if strings.Contains(string(appendMenuLine(nil, '0', entry{Text: "x", Href: "/y"}, "")), "title=\"\"") {
		t.Error("an empty title")
	}
}
