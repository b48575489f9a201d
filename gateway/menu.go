package gateway

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"html/template"
	"strings"
	"unicode/utf8"

	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/scheme"
)

// A gopher menu is shown as one monospace block, as lynx and Floodgap's
// proxy show it, so that the ASCII art of info lines keeps its columns:
// each item is a compact type label ("(DIR)", "(TXT)") whose meaning in
// RFC 1436 or Gopher+ shows on hover, then the display string, linked; the
// item's own URL shows on hover (the browser's status bar shows the link,
// the gateway's path form of it), not repeated on every line. Info
// lines (i) are text, indented to the display strings' column. A search
// item (7) carries its search field on its line.
//
// The lines are written by hand with appends rather than by html/template,
// which costs about ten microseconds an item in reflection, and an
// ordinary item's line is written in one pass over the views of its fields
// (menuLines.appendOrdinary), without allocating or copying the line. A
// label is a span whose class names its type ("k30" for type 0); the
// page's style sheet (menuStyle) holds each type's meaning once and shows
// it on hover, rather than every line repeating it in a title attribute:
// that halves the label's bytes, and a long menu's page is mostly labels
// and links. Every string from the server goes through appendHTML.

// itemType is how a menu shows one gopher item type.
type itemType struct {
	label   string // five columns wide: "(DIR)"; "" for info lines
	meaning string // on hover
	html    string // the label's span and a space; its class names the type
}

// gopherTypes are the labels and meanings of the item types: RFC 1436 3.8,
// then Gopher+ (":", ";", "<") and the types in common use since (g, I, h,
// i, s, d, p...), as Floodgap's and lynx's gopher views label them.
var gopherTypes = func() (t [256]itemType) {
	for c, lm := range map[byte][2]string{
		'0': {"(TXT)", "0: a text file (RFC 1436)"},
		'1': {"(DIR)", "1: a gopher menu, a directory of items (RFC 1436)"},
		'2': {"(CSO)", "2: a CSO phone-book server (RFC 1436)"},
		'3': {"(ERR)", "3: an error the server reports (RFC 1436)"},
		'4': {"(HQX)", "4: a Macintosh file in BinHex (RFC 1436)"},
		'5': {"(DOS)", "5: a DOS binary archive (RFC 1436)"},
		'6': {"(UUE)", "6: a uuencoded file (RFC 1436)"},
		'7': {"(?)  ", "7: an index-search server: type words, get a menu (RFC 1436)"},
		'8': {"(TEL)", "8: a telnet session (RFC 1436)"},
		'9': {"(BIN)", "9: a binary file (RFC 1436)"},
		'+': {"(MIR)", "+: a mirror of the server of the item before (RFC 1436)"},
		'T': {"(3270", "T: a tn3270 session (RFC 1436)"},
		'g': {"(GIF)", "g: a GIF image (RFC 1436)"},
		'I': {"(IMG)", "I: an image (RFC 1436)"},
		':': {"(IMG)", ": a bitmap image (Gopher+)"},
		';': {"(MOV)", "; a movie (Gopher+)"},
		'<': {"(SND)", "<: a sound (Gopher+)"},
		'h': {"(HTM)", "h: an HTML document, or a link to a web page (URL:)"},
		's': {"(SND)", "s: a sound file"},
		'd': {"(DOC)", "d: a document (PDF, Word and the like)"},
		'p': {"(PNG)", "p: a PNG image"},
		'r': {"(RTF)", "r: a document in RTF"},
		'M': {"(MIM)", "M: a MIME message"},
		'c': {"(CAL)", "c: a calendar"},
		'x': {"(XML)", "x: an XML document"},
		'i': {"", "i: an information line"},
	} {
		v := itemType{label: lm[0], meaning: lm[1]}
		if c != 'i' {
			v.html = `<span class=` + typeClass(c) + `>` + string(appendHTML(nil, v.label)) + "</span> "
		}
		t[c] = v
	}
	return t
}()

// typeClass is the class of item type c's label: "k" and c in hex.
func typeClass(c byte) string {
	const hex = "0123456789abcdef"
	return string([]byte{'k', hex[c>>4], hex[c&15]})
}

// menuStyle is the part of a menu page's style sheet that shows each
// label's meaning on hover: one rule a known type, written once a page.
var menuStyle = func() template.CSS {
	b := []byte(`pre.menu span[class^=k]{color:#667;position:relative;cursor:help}` +
		`pre.menu span[class^=k]:hover::after{position:absolute;left:0;top:1.3em;z-index:1;background:#ffe;color:#000;border:1px solid #998;padding:0 .3em;white-space:pre}` + "\n")
	for c := range gopherTypes {
		t := gopherTypes[c]
		if t.html == "" {
			continue
		}
		b = append(b, "pre.menu ."...)
		b = append(b, typeClass(byte(c))...)
		b = append(b, `:hover::after{content:"`...)
		for i := 0; i < len(t.meaning); i++ {
			// A CSS string: anything but letters, digits, spaces and
			// plain punctuation as a hex escape (no quote, no "<" in a
			// style element).
			ch := t.meaning[i]
			if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || strings.IndexByte(" ,.:()-", ch) >= 0 {
				b = append(b, ch)
				continue
			}
			b = fmt.Appendf(b, `\%x `, ch)
		}
		b = append(b, "\"}\n"...)
	}
	return template.CSS(b)
}()

// labelHTML appends the span of an unknown type's label, its meaning in a
// title (the style sheet has no rule for it).
func labelHTML(dst []byte, t itemType) []byte {
	dst = append(dst, `<span class=k title="`...)
	dst = appendHTML(dst, t.meaning)
	dst = append(dst, `">`...)
	dst = appendHTML(dst, t.label)
	return append(dst, "</span> "...)
}

// typeOf returns how item type c is shown; an unknown type is "(???)".
func typeOf(c byte) itemType {
	if t := gopherTypes[c]; t.meaning != "" {
		return t
	}
	return itemType{label: "(???)", meaning: string(rune(c)) + ": an item type the gateway does not know"}
}

// appendLabel appends the label of item type c.
func appendLabel(dst []byte, c byte) []byte {
	if t := gopherTypes[c]; t.html != "" {
		return append(dst, t.html...)
	}
	return labelHTML(dst, typeOf(c))
}

// appendHTML appends s escaped for HTML text and attribute values. Bytes
// that are not UTF-8 are read as windows-1252, the single-byte fallback of
// the gateway's text (contentType): a Latin-1 menu keeps its accents.
// Invisible formatting characters (access.IsFormatControl: bidi controls
// and the like) are shown as visible marks (appendShownControl). Runs of
// bytes that need nothing are copied whole.
func appendHTML[T ~string | ~[]byte](dst []byte, s T) []byte {
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time while none is special (the usual case).
		for i+8 <= len(s) && !htmlSpecial8(uint64(s[i])|uint64(s[i+1])<<8|uint64(s[i+2])<<16|uint64(s[i+3])<<24|
			uint64(s[i+4])<<32|uint64(s[i+5])<<40|uint64(s[i+6])<<48|uint64(s[i+7])<<56) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if !htmlSpecial[c] {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		if c >= utf8.RuneSelf {
			// At most four bytes: the conversion does not allocate.
			r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
			switch {
			case r == utf8.RuneError && size == 1:
				r = cp1252(c)
				if access.IsFormatControl(r) {
					dst = appendShownControl(dst, r)
				} else {
					dst = utf8.AppendRune(dst, r)
				}
			case access.IsFormatControl(r):
				dst = appendShownControl(dst, r)
			default:
				dst = append(dst, s[i:i+size]...)
			}
			i += size
			start = i
			continue
		}
		switch c {
		case '&':
			dst = append(dst, "&amp;"...)
		case '<':
			dst = append(dst, "&lt;"...)
		case '>':
			dst = append(dst, "&gt;"...)
		case '"':
			dst = append(dst, "&#34;"...)
		case '\'':
			dst = append(dst, "&#39;"...)
		case 0:
			dst = append(dst, "\uFFFD"...)
		}
		i++
		start = i
	}
	return append(dst, s[start:]...)
}

// htmlSpecial8 reports whether any of the eight bytes of w is one that
// htmlSpecial marks (a byte of 0x80 or more, NUL, or one of "&<>\"'"),
// by the classic test for a zero byte in a word ((x-lo) &^ x has a high
// bit set if and only if some byte of x is zero), applied to w, and to w
// XOR a special byte repeated: "&" (0x26) and "'" (0x27) in one test with
// the low bit of each byte set, "<" (0x3C) and ">" (0x3E) in one with bit
// 1 set. Small enough to be inlined.
func htmlSpecial8(w uint64) bool {
	const (
		lo = 0x0101010101010101
		hi = 0x8080808080808080
	)
	a := (w | lo) ^ 0x27*lo
	b := (w | 2*lo) ^ 0x3E*lo
	c := w ^ '"'*lo
	return (w|(w-lo)&^w|(a-lo)&^a|(b-lo)&^b|(c-lo)&^c)&hi != 0
}

// htmlPlain returns how many bytes at the start of b appendHTML copies as
// they are, testing eight at a time.
func htmlPlain(b []byte) int {
	i := 0
	for i+8 <= len(b) && !htmlSpecial8(binary.LittleEndian.Uint64(b[i:])) {
		i += 8
	}
	if i+8 > len(b) && len(b) >= 8 && !htmlSpecial8(binary.LittleEndian.Uint64(b[len(b)-8:])) {
		return len(b) // the tail, in the last eight bytes (overlapping plain ones), is plain
	}
	for i < len(b) && !htmlSpecial[b[i]] {
		i++
	}
	return i
}

// appendShownControl appends the visible mark that stands for the
// invisible formatting character r in a page: "[U+202E]". A name from a
// server is shown with its controls in sight, and none of them can
// reorder or hide what the page shows (a "photo\u202egpj.exe" reads
// "photo[U+202E]gpj.exe", not "photoexe.jpg"). The mark is plain text, fit
// for attribute values too.
func appendShownControl(dst []byte, r rune) []byte {
	const hex = "0123456789ABCDEF"
	dst = append(dst, "[U+"...)
	digits := 4
	if r > 0xffff {
		digits = 5
	}
	for i := digits - 1; i >= 0; i-- {
		dst = append(dst, hex[(r>>(4*i))&15])
	}
	return append(dst, ']')
}

// shownControls returns s with its invisible formatting characters shown
// as appendShownControl marks: for the strings html/template writes (the
// entries of lists and ftp directories).
func shownControls(s string) string {
	if !strings.ContainsFunc(s, access.IsFormatControl) {
		return s
	}
	var b []byte
	for _, r := range s {
		if access.IsFormatControl(r) {
			b = appendShownControl(b, r)
		} else {
			b = utf8.AppendRune(b, r)
		}
	}
	return string(b)
}

// appendHTMLBytes is appendHTML for bytes, its plain start found eight
// bytes at a time (htmlPlain) and copied at once.
func appendHTMLBytes(dst, b []byte) []byte {
	i := htmlPlain(b)
	dst = append(dst, b[:i]...)
	if i < len(b) {
		dst = appendHTML(dst, b[i:])
	}
	return dst
}

// htmlSpecial marks the bytes appendHTML does not copy as they are: the
// five HTML specials, NUL, and every byte of a non-ASCII character.
var htmlSpecial = func() (t [256]bool) {
	for _, c := range "&<>\"'\x00" {
		t[c] = true
	}
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] = true
	}
	return t
}()

// appendHref appends a link's address for an href attribute as
// html/template normalizes one: the bytes RFC 3986 allows in a URL as they
// are (and "%" of an escape), every other byte percent-encoded, then "&"
// written as "&amp;". The links are the gateway's own paths or URLs whose
// scheme menuEntry checked against its allowlist.
func appendHref[T ~string | ~[]byte](dst []byte, s T) []byte {
	const hex = "0123456789ABCDEF"
	start := 0
	for i := 0; i < len(s); i++ {
		// Eight bytes at a time while all are plainly kept (letters,
		// digits and most of a URL's punctuation).
		for i+8 <= len(s) && hrefPlain8(uint64(s[i])|uint64(s[i+1])<<8|uint64(s[i+2])<<16|uint64(s[i+3])<<24|
			uint64(s[i+4])<<32|uint64(s[i+5])<<40|uint64(s[i+6])<<48|uint64(s[i+7])<<56) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if hrefKeep[c] {
			continue
		}
		dst = append(dst, s[start:i]...)
		if c == '&' {
			dst = append(dst, "&amp;"...)
		} else {
			dst = append(dst, '%', hex[c>>4], hex[c&15])
		}
		start = i + 1
	}
	return append(dst, s[start:]...)
}

// hrefPlain8 reports whether every byte of w is one appendHref keeps and
// lies in "-" (0x2D) to "z" (0x7A): letters, digits, "-./:;=?@_" and
// the brackets, the bulk of any URL. The range is checked by adding to
// each byte (a carry across bytes only follows a byte of 0x80 or more,
// which fails the test anyway); the five bytes in it that are not kept
// ("<>\^`") by the zero-byte test (see htmlSpecial8), "<" (0x3C) with
// ">" (0x3E) and "\" (0x5C) with "^" (0x5E) each in one test with bit 1
// set. Small enough to be inlined.
func hrefPlain8(w uint64) bool {
	const (
		lo = 0x0101010101010101
		hi = 0x8080808080808080
	)
	a := (w | 2*lo) ^ 0x3E*lo
	b := (w | 2*lo) ^ 0x5E*lo
	c := w ^ '`'*lo
	return (w|^(w+(0x80-0x2D)*lo)|(w+(0x80-0x7B)*lo)|(a-lo)&^a|(b-lo)&^b|(c-lo)&^c)&hi == 0
}

// hrefKeep marks the bytes appendHref copies as they are.
var hrefKeep = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range "-._~:/?#[]@!$*+,;=%" {
		t[c] = true
	}
	return t
}()

// cp1252 is the character windows-1252 gives byte c (0x80-0xFF; WHATWG
// Encoding's index, ISO-8859-1 outside 0x80-0x9F).
func cp1252(c byte) rune {
	if c >= 0x80 && c < 0xA0 {
		return cp1252High[c-0x80]
	}
	return rune(c)
}

var cp1252High = [32]rune{
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
}

// infoIndent puts an info line's text in the display strings' column.
const infoIndent = "      "

// appendMenuLine appends the menu block's line for item type t shown as
// e (menuEntry's decisions: what it links to, its text). search is the
// form action of an inline search field ("" for none: the item then links
// to its own search page).
func appendMenuLine(dst []byte, t byte, e entry, search string) []byte {
	ty := typeOf(t)
	if t == 'i' || (e.Href == "" && e.Kind != "error" && e.Kind != "invalid" && ty.label == "") {
		dst = append(dst, infoIndent...)
		dst = appendHTML(dst, e.Text)
		return append(dst, '\n')
	}
	dst = appendLabel(dst, t)
	switch {
	case e.Href != "":
		dst = appendLink(dst, "", e.Href, e.Text)
	case t == '3' || e.Kind == "invalid":
		dst = append(dst, `<span class="error">`...)
		dst = appendHTML(dst, e.Text)
		dst = append(dst, "</span>"...)
	default:
		dst = appendHTML(dst, e.Text)
		if e.Shown != "" {
			dst = append(dst, ` <span class="url">`...)
			dst = appendHTML(dst, e.Shown)
			dst = append(dst, "</span>"...)
		}
	}
	if t == '7' && search != "" && e.Shown != "" {
		return appendSearchField(dst, search, e.Shown, e.Text) // ends the line
	}
	return append(dst, '\n')
}

// menuLines writes the lines of one menu's page: an info line as text, an
// ordinary item (one whose link is its own URL, ordinaryLine) in one pass
// over its fields (appendOrdinary), any other through menuEntry and
// appendMenuLine.
type menuLines struct {
	g      *Gateway
	q      *request
	prefix string // the links' prefix: "/" for the path form, "" for the proxy form
	search string // the inline search fields' action ("" for none)
	urls   scheme.GopherItemURLs
	url    []byte // an item's URL, when its href is not the same bytes
	// The server of the last item whose URL's server part,
	// "gopher://host:port/", appendHref copies as it is, and that part's
	// length (0: none): the next item of the same server has only the
	// rest of its URL checked (hrefPlain).
	host, port []byte
	plain      int
	// The server of the last item appendPlain was given (plainKnown),
	// whether its items' URLs have a server part that appendHref copies
	// as it is (plainOK), and then the start of their links: `<a href="`,
	// the prefix and that part (scheme.GopherItemURLs.Server).
	plainHost, plainPort []byte
	plainKnown, plainOK  bool
	open                 []byte
}

// newMenuLines returns the writer of q's menu lines.
func (g *Gateway) newMenuLines(q *request) *menuLines {
	m := &menuLines{g: g, q: q, prefix: "/", search: "/go"}
	if q.proxy {
		// A page reached through the proxy form has no gateway origin to
		// send a search to, and links to each search's own page instead.
		m.prefix, m.search = "", ""
	}
	return m
}

// appendLine appends the menu block's line of item l.
func (m *menuLines) appendLine(dst []byte, l *access.MenuLine) []byte {
	if l.Type == 'i' { // text, as appendMenuLine writes an info entry
		dst = append(dst, infoIndent...)
		dst = appendHTMLBytes(dst, l.Display())
		return append(dst, '\n')
	}
	if ordinaryLine(l) {
		if out, ok := m.appendPlain(dst, l); ok {
			return out
		}
		if out, ok := m.appendOrdinary(dst, l); ok {
			return out
		}
	}
	return appendMenuLine(dst, l.Type, m.g.menuEntry(m.q, l.Item()), m.search)
}

// appendPlain appends the line of an ordinary item whose type and
// selector hold only linkPlain bytes, of a server whose URLs' server part
// appendHref copies as it is: the line appendOrdinary writes, copied
// field by field: the item's URL is the server part, the type and the
// selector as they are (scheme.GopherItemURLs.Server), and so is its
// href. Only the display string is escaped (appendHTMLBytes). It reports
// false, dst unchanged, for any other item; appendOrdinary writes those.
// Most items of most menus are such items.
func (m *menuLines) appendPlain(dst []byte, l *access.MenuLine) ([]byte, bool) {
	label := gopherTypes[l.Type].html
	if label == "" || !linkPlain[l.Type] || !m.plainServer(l) {
		return dst, false
	}
	sel := l.Selector()
	for _, c := range sel {
		if !linkPlain[c] {
			return dst, false
		}
	}
	dst = append(dst, label...)
	dst = append(dst, m.open...)
	mark := len(dst) - (len(m.open) - len(`<a href="`) - len(m.prefix)) // the URL's start
	dst = append(dst, l.Type)
	dst = append(dst, sel...)
	end := len(dst)
	dst = append(dst, `">`...)
	dst = appendHTMLBytes(dst, l.Display())
	dst = append(dst, "</a>"...)
	if l.Type == '7' && m.search != "" {
		// The URL's bytes are read from dst while it grows: append
		// copies from the array they are in, whichever dst becomes.
		return appendSearchField(dst, m.search, dst[mark:end], l.Display()), true // ends the line
	}
	return append(dst, '\n'), true
}

// plainServer reports whether the server of item l has a server part
// that appendHref copies as it is, and makes m.open the start of its
// links; the answer for the last server is kept for the items after it.
func (m *menuLines) plainServer(l *access.MenuLine) bool {
	host, port := l.Host(), l.Port()
	if m.plainKnown && bytes.Equal(host, m.plainHost) && bytes.Equal(port, m.plainPort) {
		return m.plainOK
	}
	server, err := m.urls.Server(host, port)
	m.open = append(append(append(m.open[:0], `<a href="`...), m.prefix...), server...)
	m.plainKnown, m.plainOK = true, err == nil && hrefPlain(m.open[len(m.open)-len(server):])
	m.plainHost, m.plainPort = append(m.plainHost[:0], host...), append(m.plainPort[:0], port...)
	return m.plainOK
}

// linkPlain marks the bytes an item's type and selector may hold for
// appendPlain to write the item: those the path of a gopher URL keeps
// bare (chars.EscPath, the escape set of scheme.GopherItemURLs) and
// appendHref copies as they are. No control character, no byte of 0x80
// or more, no "&", "?", "#", "[" or "]" is one.
var linkPlain = func() (t [256]bool) {
	for c := range t {
		t[c] = chars.EscPath.Keeps(byte(c)) && hrefKeep[c]
	}
	return t
}()

// appendOrdinary appends the line of an ordinary item as appendMenuLine
// writes the entry {Text: Display, Href: prefix+URL, Shown: URL}, without
// making one or the URL's string: the URL is formed where the href goes,
// and rewritten only if appendHref would change a byte of it. It reports
// false, dst unchanged, for an item that has no valid URL.
func (m *menuLines) appendOrdinary(dst []byte, l *access.MenuLine) ([]byte, bool) {
	orig := len(dst)
	dst = appendLabel(dst, l.Type)
	dst = append(dst, `<a href="`...)
	dst = append(dst, m.prefix...)
	mark := len(dst)
	dst, err := m.urls.AppendBytes(dst, l.Type, l.Selector(), l.Host(), l.Port())
	if err != nil {
		return dst[:orig], false
	}
	search := l.Type == '7' && m.search != ""
	if search || !m.hrefPlain(dst[mark:], l) {
		m.url = append(m.url[:0], dst[mark:]...)
		dst = appendHref(dst[:mark], m.url)
	}
	dst = append(dst, `">`...)
	dst = appendHTMLBytes(dst, l.Display())
	dst = append(dst, "</a>"...)
	if search {
		return appendSearchField(dst, m.search, m.url, l.Display()), true // ends the line
	}
	return append(dst, '\n'), true
}

// hrefPlain reports whether appendHref copies every byte of u, the URL
// of item l, as it is; the server part of the URL is checked once for a
// run of items of the same server.
func (m *menuLines) hrefPlain(u []byte, l *access.MenuLine) bool {
	if m.plain == 0 || !bytes.Equal(l.Host(), m.host) || !bytes.Equal(l.Port(), m.port) {
		m.plain = 0
		// The server part ends at the first "/" after "gopher://" (a
		// host has none; were it cut short, the rest is checked below).
		n := bytes.IndexByte(u[min(len(u), len("gopher://")):], '/')
		if n < 0 || !hrefPlain(u[:len("gopher://")+n+1]) {
			return hrefPlain(u)
		}
		m.host, m.port, m.plain = append(m.host[:0], l.Host()...), append(m.port[:0], l.Port()...), len("gopher://")+n+1
	}
	return hrefPlain(u[m.plain:])
}

// hrefPlain reports whether appendHref copies every byte of b as it is.
func hrefPlain(b []byte) bool {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if !hrefPlain8(binary.LittleEndian.Uint64(b[i:])) {
			break
		}
	}
	if i+8 > len(b) && len(b) >= 8 {
		// The tail, in the last eight bytes (overlapping plain ones).
		return i == len(b) || hrefPlain8(binary.LittleEndian.Uint64(b[len(b)-8:])) || hrefPlainBytes(b[i:])
	}
	return hrefPlainBytes(b[i:])
}

// hrefPlainBytes is hrefPlain a byte at a time.
func hrefPlainBytes(b []byte) bool {
	for _, c := range b {
		if !hrefKeep[c] {
			return false
		}
	}
	return true
}

// appendLink appends a link to prefix+href (a gateway path or a URL
// menuEntry checked) reading text. The item's URL shows on hover in the
// browser's status bar (the link is the gateway's path form of it), not
// on the page.
func appendLink[T, U ~string | ~[]byte](dst []byte, prefix string, href T, text U) []byte {
	dst = append(dst, `<a href="`...)
	dst = append(dst, prefix...)
	dst = appendHref(dst, href)
	dst = append(dst, `">`...)
	dst = appendHTML(dst, text)
	return append(dst, "</a>"...)
}

// appendSearchField appends the inline search field of a type-7 item whose
// URL is shown: a GET form to search (the gateway's /go) with the URL and
// the words typed. Attribute values that are fixed words go unquoted. The
// field ends its menu line: the line's newline is the form's last
// character, inside it, since a text browser breaks the line where a form
// ends (lynx does), and a newline after it would leave a blank line; in
// the menu's <pre>, whose forms are inline (pageStyle), a browser shows
// the newline as the line's end.
func appendSearchField[T, U ~string | ~[]byte](dst []byte, search string, shown T, text U) []byte {
	dst = append(dst, ` <form action="`...)
	dst = appendHTML(dst, search)
	dst = append(dst, `"><input type=hidden name=url value="`...)
	dst = appendHTML(dst, shown)
	dst = append(dst, `"><input type=search name=q size=24 aria-label="search: `...)
	dst = appendHTML(dst, text)
	return append(dst, "\"><button>search</button>\n</form>"...)
}
