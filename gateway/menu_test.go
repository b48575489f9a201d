package gateway

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/internal/testkit/corpus"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
)

// appendHTML escapes as html/template does for text and attribute values,
// and reads bytes that are not UTF-8 as windows-1252.
func TestAppendHTML(t *testing.T) {
	for in, want := range map[string]string{
		`<script>alert("x") & 'y'</script>`: `&lt;script&gt;alert(&#34;x&#34;) &amp; &#39;y&#39;&lt;/script&gt;`,
		"caf\u00e9 \u2603":                  "caf\u00e9 \u2603",
		"Caf\xe9 \x93quoted\x94":            "Caf\u00e9 \u201cquoted\u201d",
		"nul\x00":                           "nul\uFFFD",
		"ends in \xc3":                      "ends in \u00c3", // a cut UTF-8 sequence: windows-1252
	} {
		if got := string(appendHTML(nil, in)); got != want {
			t.Errorf("appendHTML(%q) = %q, want %q", in, got, want)
		}
		if got := string(appendHTML(nil, []byte(in))); got != want {
			t.Errorf("appendHTML([]byte(%q)) = %q, want %q", in, got, want)
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
			`<span class=k31>(DIR)</span> <a href="/gopher://h/1/docs">Docs</a>` + "\n"},
		{'i', entry{Text: "  +--<art>--+"}, "", "      " + "  +--&lt;art&gt;--+\n"},
		{'7', entry{Text: "Find", Href: "/gopher://h/7/f", Shown: "gopher://h/7/f"}, "/go",
			`<span class=k37>(?)  </span> <a href="/gopher://h/7/f">Find</a>` +
				` <form action="/go"><input type=hidden name=url value="gopher://h/7/f"><input type=search name=q size=24 aria-label="search: Find"><button>search</button>` + "\n</form>"},
		{'3', entry{Text: "no <such> thing", Kind: "error"}, "", `<span class=k33>(ERR)</span> <span class="error">no &lt;such&gt; thing</span>` + "\n"},
		{'Q', entry{Text: "odd", Href: "/gopher://h/Qx", Shown: "gopher://h/Qx"}, "", `<span class=k title="Q: an item type the gateway does not know">(???)</span> <a href="/gopher://h/Qx">odd</a>` + "\n"},
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

// Each known type's label names a class whose rule in the menu's style
// sheet shows the type's meaning on hover; the sheet holds no "<" (it is
// inside a style element) and no quote but the strings' own.
func TestMenuStyle(t *testing.T) {
	css := string(menuStyle)
	if strings.ContainsAny(css, "<>") {
		t.Errorf("menuStyle holds < or >: %s", css)
	}
	rule := regexp.MustCompile(`pre\.menu \.(k[0-9a-f]{2}):hover::after\{content:"([^"]*)"\}`)
	meanings := map[string]string{}
	for _, m := range rule.FindAllStringSubmatch(css, -1) {
		unescaped := regexp.MustCompile(`\\([0-9a-f]+) `).ReplaceAllStringFunc(m[2], func(e string) string {
			n, _ := strconv.ParseUint(strings.TrimSpace(e[1:]), 16, 8)
			return string(rune(n))
		})
		meanings[m[1]] = unescaped
	}
	known := 0
	for c := 0; c < 256; c++ {
		ty := gopherTypes[c]
		if ty.html == "" {
			continue
		}
		known++
		class := typeClass(byte(c))
		if !strings.HasPrefix(ty.html, "<span class="+class+">") {
			t.Errorf("type %q: label %q does not carry class %s", rune(c), ty.html, class)
		}
		if meanings[class] != ty.meaning {
			t.Errorf("type %q: the style sheet shows %q on hover, want %q", rune(c), meanings[class], ty.meaning)
		}
	}
	if known < 20 || len(meanings) != known {
		t.Errorf("%d known types, %d rules", known, len(meanings))
	}
	if !strings.Contains(css, `pre.menu span[class^=k]:hover::after{position:absolute`) {
		t.Error("no rule places the meaning on hover")
	}
}

// menuCorpus is many menu lines: LongMenu's, lines of every kind of item
// (info, error, session, h items naming a URL, searches, IPv6 servers,
// bad ports and hosts), and those with bytes put in or cut out at random,
// rich in what HTML escapes, what an href encodes ("'()&%"), controls,
// bytes that are not UTF-8 and TABs, at every offset of an eight-byte
// word.
func menuCorpus() []string {
	lines := strings.SplitAfter(string(fakeservers.LongMenu(40)), "\n")
	lines = append(lines, "0Hello\t/hello.txt\th\t70\r\n", "1Docs <&> 'x'\t/a&b'(c)\th\t70\r\n", "7Find \"it\"\t/q?x&y\th\t70\r\n",
		"9Caf\xe9\t/b in\t::1\t70\r\n", "QOdd\tx\th\t70\r\n", "iinfo <b>\t\tfake\t0\r\n", "3error & more\t\terror.host\t1\r\n",
		"8Telnet\tuser\th\t23\r\n", "TIBM\t\th\t23\r\n", "2CSO\t\th\t105\r\n", "hWeb\tURL:http://w.example/a?b&c\th\t70\r\n",
		"hJS\tURL:javascript:alert(1)\th\t70\r\n", "hLogin\tURL:http://u:p@w.example/\th\t70\r\n", "hPage\t/page.html\th\t70\r\n",
		"0Bad port\t/x\th\t99999\r\n", "0Bad host\t/x\th/evil\t70\r\n", "0Ctl\t/x\x01y\th\t70\r\n", "0Quote\t'q\th.example\t70\r\n", "1Paren\t(p)\th.example\t7\r\n",
		"(Type\t/t\th.example\t7070\r\n", "'Type\t/t\tg.example\t7070\r\n", "0Amp\t&a\tg.example\t70\r\n", "1Six\t/s\th.example\t700000\r\n", "1Long "+strings.Repeat("word ", 30)+"\t/"+strings.Repeat("seg/", 20)+"\th.example\t7070\r\n")
	r := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"\t", "&", "<", ">", "\"", "'", "(", ")", "%", "%4", " ", "\x00", "\x01", "\x7f", "\x80", "\xe9", "é", "\u2603", "\xc3", "#", "?", "\\", "^", "`", "{", "|", "URL:", ":", "[", "]"}
	return corpus.Mutate(r, lines, pieces, 20000)
}

// The one-pass line of an ordinary item (appendOrdinary, which forms the
// URL where the href goes), and the copied line of a plain one
// (appendPlain), are the line appendMenuLine writes for the entry
// menuEntry makes: on the menu corpus, read as one menu (one
// GopherItemURLs remembering servers across lines), in the path form and
// the proxy form.
func TestMenuLinesAgree(t *testing.T) {
	var b strings.Builder
	for _, l := range strings.SplitAfter(strings.Join(menuCorpus(), ""), "\n") {
		if strings.TrimRight(l, "\r\n") != "." { // the menu's end
			b.WriteString(l)
		}
	}
	g := New(Config{})
	for _, proxy := range []bool{false, true} {
		items, fast, plain := checkMenuLines(t, g, proxy, []byte(b.String()))
		if items < 10000 || fast < items/3 || plain < items/4 {
			t.Fatalf("proxy %v: %d items, %d in one pass, %d plain", proxy, items, fast, plain)
		}
	}
}

// checkMenuLines reads the menu in and fails t unless every item's line,
// as the page writes it (appendLine) and as appendOrdinary and
// appendPlain write it when they take the item, is the line
// appendMenuLine writes for the entry menuEntry makes (the general rule:
// the item's URL from scheme.GopherItemURL, escaped for its href); the
// page is in the proxy form or the path form. It returns the number of
// items, and of those appendOrdinary and appendPlain took.
func checkMenuLines(t *testing.T, g *Gateway, proxy bool, in []byte) (items, fast, plain int) {
	t.Helper()
	q := &request{proxy: proxy}
	m := g.newMenuLines(q)
	mr := access.NewMenuReader(bytes.NewReader(in), 1<<20)
	var (
		line []byte
		l    access.MenuLine
	)
	for {
		err := mr.NextLine(&l)
		if err == io.EOF {
			return items, fast, plain
		}
		if err != nil {
			t.Fatal(err)
		}
		items++
		it := l.Item()
		want := string(appendMenuLine(nil, it.Type, g.menuEntry(q, it), m.search))
		if ordinaryLine(&l) {
			if out, ok := m.appendOrdinary(nil, &l); ok {
				fast++
				if string(out) != want {
					t.Fatalf("proxy %v: %+v:\n got %s\nwant %s", proxy, it, out, want)
				}
			}
			if out, ok := m.appendPlain([]byte("x"), &l); ok {
				plain++
				if string(out) != "x"+want {
					t.Fatalf("proxy %v: %+v: appendPlain\n got %s\nwant x%s", proxy, it, out, want)
				}
			} else if string(out) != "x" {
				t.Fatalf("proxy %v: %+v: appendPlain refused the item and wrote %q", proxy, it, out)
			}
		}
		line = m.appendLine(line[:0], &l)
		if string(line) != want {
			t.Fatalf("proxy %v: %+v: appendLine\n got %s\nwant %s", proxy, it, line, want)
		}
	}
}

// htmlSpecial8 finds a special byte wherever it is in a word, and finds
// none in a word of ordinary bytes: it agrees with htmlSpecial byte by
// byte for every byte value in every position.
func TestHTMLSpecial8(t *testing.T) {
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 8; pos++ {
			w := uint64(0x6161616161616161) // "aaaaaaaa"
			w = w&^(0xff<<(8*pos)) | uint64(c)<<(8*pos)
			if got := htmlSpecial8(w); got != htmlSpecial[c] {
				t.Errorf("byte %#x at %d: htmlSpecial8 %v, htmlSpecial %v", c, pos, got, htmlSpecial[c])
			}
		}
	}
}

// hrefPlain8 passes a word only when appendHref keeps all its bytes: for
// every byte value in every position, a word of "a"s with that byte passes
// only if the byte is kept (it may refuse kept bytes outside "-" to "z",
// which the byte loop then takes).
func TestHrefPlain8(t *testing.T) {
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 8; pos++ {
			w := uint64(0x6161616161616161)
			w = w&^(0xff<<(8*pos)) | uint64(c)<<(8*pos)
			got, inRange := hrefPlain8(w), c >= '-' && c <= 'z'
			if got && !hrefKeep[c] || inRange && hrefKeep[c] && !got {
				t.Errorf("byte %#x at %d: hrefPlain8 %v, kept %v", c, pos, got, hrefKeep[c])
			}
		}
	}
}

// The word-at-a-time skips of appendHTML, appendHTMLBytes and appendHref
// change nothing: on random strings, rich in the bytes they must stop at,
// each writes what a byte-by-byte reference writes, and hrefPlain says
// whether appendHref's reference changes a byte.
func TestAppendWordSkips(t *testing.T) {
	refHTML := func(s string) string {
		var b strings.Builder
		for i := 0; i < len(s); {
			c := s[i]
			switch {
			case c >= utf8.RuneSelf:
				r, size := utf8.DecodeRuneInString(s[i:])
				if r == utf8.RuneError && size == 1 {
					r = cp1252(c)
				}
				switch {
				case access.IsFormatControl(r):
					fmt.Fprintf(&b, "[U+%04X]", r) // shown, not applied
				case size == 1:
					b.WriteRune(r)
				default:
					b.WriteString(s[i : i+size])
				}
				i += size
				continue
			case c == 0:
				b.WriteString("\uFFFD")
			case strings.IndexByte(`&<>"'`, c) >= 0:
				b.WriteString(map[byte]string{'&': "&amp;", '<': "&lt;", '>': "&gt;", '"': "&#34;", '\'': "&#39;"}[c])
			default:
				b.WriteByte(c)
			}
			i++
		}
		return b.String()
	}
	refHref := func(s string) string {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case hrefKeep[c]:
				b.WriteByte(c)
			case c == '&':
				b.WriteString("&amp;")
			default:
				fmt.Fprintf(&b, "%%%02X", c)
			}
		}
		return b.String()
	}
	rng := rand.New(rand.NewPCG(22, 7))
	alphabet := "abcXYZ019 -./:;=?@_~<>&\"'\\^`{}|()[]%\x00\x7f\x80\xc3\xa9\xe2\x82\xac\xff\t"
	for n := 0; n < 20000; n++ {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			if rng.IntN(4) == 0 {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			} else {
				b[i] = "abcdefghijklmnopqrstuvwxyz0123456789/."[rng.IntN(38)]
			}
		}
		s := string(b)
		if got, want := string(appendHTML(nil, s)), refHTML(s); got != want {
			t.Fatalf("appendHTML(%q) = %q, reference %q", s, got, want)
		}
		if got, want := string(appendHTML(nil, b)), refHTML(s); got != want {
			t.Fatalf("appendHTML([]byte(%q)) = %q, reference %q", s, got, want)
		}
		if got, want := string(appendHref(nil, b)), refHref(s); got != want {
			t.Fatalf("appendHref(%q) = %q, reference %q", s, got, want)
		}
		if got, want := string(appendHTMLBytes([]byte("x"), b)), "x"+refHTML(s); got != want {
			t.Fatalf("appendHTMLBytes(%q) = %q, reference %q", s, got, want)
		}
		if got, want := hrefPlain(b), refHref(s) == s; got != want {
			t.Fatalf("hrefPlain(%q) = %v, reference %v", s, got, want)
		}
	}
}

// FuzzMenuLines: on any menu text, every line the menu page writes
// (appendLine, with its one-pass and plain paths) is the line
// appendMenuLine writes for the entry menuEntry makes of the same item
// (the general rule: the item's URL formed by scheme.GopherItemURL,
// escaped for its href), in the path form and the proxy form.
func FuzzMenuLines(f *testing.F) {
	for _, s := range []string{"0Doc\t/doc\th.example\t70\r\n7Find\t/q\th.example\t70\r\n1Dir\t/d\tOther.Example\t7070\r\n",
		"0Caf\xe9 & <x>\t/a b?c#d&e\th\t70\r\n9Bin\t/b\t::1\t70\r\n0p\t/p\th\t 70 \t+\r\n", "0a\t/x\th\t70\r\n0c\t/x\th/e\t70\r\n0b\t/x\th\t071\r\n0d\t/x\th\t70\r\n"} {
		f.Add([]byte(s))
	}
	g := New(Config{})
	f.Fuzz(func(t *testing.T, in []byte) {
		checkMenuLines(t, g, false, in)
		checkMenuLines(t, g, true, in)
	})
}
