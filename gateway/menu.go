package gateway

import (
	"unicode/utf8"
)

// A gopher menu is shown as one monospace block, as lynx and Floodgap's
// proxy show it, so that the ASCII art of info lines keeps its columns:
// each item is a compact type label ("(DIR)", "(TXT)") whose meaning in
// RFC 1436 or Gopher+ is on hover, then the display string, linked; the
// item's own URL shows on hover (the browser's status bar shows the link,
// the gateway's path form of it), not repeated on every line. Info
// lines (i) are text, indented to the display strings' column. A search
// item (7) carries its search field on its line.
//
// The lines are written by hand with appends rather than by html/template,
// which costs about ten microseconds an item in reflection: a 1,000-item
// menu is rendered in less than the time it takes to fetch it (bench/gateway
// -only menu). Every string from the server goes through appendHTML.

// itemType is how a menu shows one gopher item type.
type itemType struct {
	label   string // five columns wide: "(DIR)"; "" for info lines
	meaning string // on hover
	html    string // the label's span, meaning in its title, and a space
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
		v.html = string(labelHTML(nil, v))
		t[c] = v
	}
	return t
}()

// labelHTML appends the span of a type's label, its meaning on hover.
func labelHTML(dst []byte, t itemType) []byte {
	dst = append(dst, `<span class="t" title="`...)
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

// appendHTML appends s escaped for HTML text and attribute values. Bytes
// that are not UTF-8 are read as windows-1252, the single-byte fallback of
// the gateway's text (contentType): a Latin-1 menu keeps its accents.
// Runs of bytes that need nothing are copied whole.
func appendHTML(dst []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if !htmlSpecial[c] {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, cp1252(c))
			} else {
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
func appendHref(dst []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	start := 0
	for i := 0; i < len(s); i++ {
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
	if ty.html != "" {
		dst = append(dst, ty.html...)
	} else {
		dst = labelHTML(dst, ty) // an unknown type
	}
	switch {
	case e.Href != "":
		// The item's URL shows on hover in the browser's status bar (the
		// link is the gateway's path form of it), not on the page.
		dst = append(dst, `<a href="`...)
		dst = appendHref(dst, string(e.Href))
		dst = append(dst, `">`...)
		dst = appendHTML(dst, e.Text)
		dst = append(dst, "</a>"...)
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
		dst = append(dst, ` <form class="s" method="get" action="`...)
		dst = appendHTML(dst, search)
		dst = append(dst, `"><input type="hidden" name="url" value="`...)
		dst = appendHTML(dst, e.Shown)
		dst = append(dst, `"><input type="search" name="q" size="24" aria-label="search: `...)
		dst = appendHTML(dst, e.Text)
		dst = append(dst, `"><button>search</button></form>`...)
	}
	return append(dst, '\n')
}
