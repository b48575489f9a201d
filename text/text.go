// Package text finds URLs in free text: mail, news, RFCs, minutes.
//
// It follows the appendix of RFC 1738, "Recommendations for URLs in
// Context": a URL may be wrapped as "<URL:...>" (or in plain angle
// brackets), the wrapper is not part of the URL, white space that breaks a
// wrapped URL across lines is ignored, and a line break right after a
// hyphen leaves it open whether the hyphen belongs to the URL. Bare URLs of
// the schemes urlkit knows are found too, without the punctuation of the
// sentence around them.
//
// [Extract] works on a string; a [Scanner] works on a stream in bounded
// memory and yields each URL as soon as its end is certain. An [Extractor]
// sets the options both share: how URLs holding non-ASCII characters are
// treated, and a function told about each candidate that is given up, with
// the reason.
//
// Every URL found parses strictly with [urlkit.Parse] as written or, with
// [Extractor.Lenient], is what the lenient reading ([lenient.Parse])
// makes of it, with its repairs reported.
package text

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/schemes"
	"github.com/urlkit/urlkit/lenient"
	"github.com/urlkit/urlkit/scheme"
)

// MaxSpan bounds the text one URL may take in free text, in bytes of
// input. A wrapper whose ">" does not come within MaxSpan bytes of its "<"
// is given up, and so is a bare URL longer than MaxSpan. Giving up a wrapper
// loses nothing: extraction goes on just after its "<", so the URLs that
// follow, and a bare URL written inside the unclosed wrapper, are still
// found. MaxSpan is also what bounds the memory of a [Scanner].
const MaxSpan = 4096

// maxSchemeLen is the longest scheme name looked for before a ":" in free
// text. No scheme urlkit knows comes close.
const maxSchemeLen = 32

// A Match is one URL found in free text by [Extract] or a [Scanner].
//
// Start and End give the byte range [Start, End) of the input the URL
// takes, wrapper and "URL:" prefix included. Inside it the URL may be
// broken across lines: RFC 1738's appendix ("Recommendations for URLs in
// Context") says whitespace added to break a long URL is to be ignored, so
// Text and URL are the URL with that whitespace taken out and without the
// "<", "URL:" and ">" around it.
//
// A line break right after a hyphen is the one case the appendix leaves
// open: the hyphen "may or may not actually be part of the URL". Such a
// match is Ambiguous and Alternatives holds both readings, the one that
// keeps the hyphen first; URL and Text are that first reading. A writer who
// follows the appendix never breaks a line after a hyphen of the URL, but
// in the texts of the period a hyphen at the end of a line within a URL is
// nearly always one of the URL's own (RFC 2368's "In-Reply-To" and
// "current-issue" examples are broken this way), which is why it is kept
// first.
type Match struct {
	// URL is the URL as it should be used: it parses strictly, either as
	// written or after the repairs listed in Warnings.
	URL urlkit.URL
	// Text is the URL as written, with the wrapper, the "URL:" prefix and
	// the whitespace taken out. It differs from URL.String() only when
	// the URL had to be repaired.
	Text string
	// Start and End are byte offsets in the input: [Start, End) covers
	// the URL, its wrapper and its prefix.
	Start, End int
	// Line is the number of the line Start is on, counting from 1.
	Line int
	// Wrapped reports whether the URL was enclosed in "<" and ">", with or
	// without the "URL:" prefix.
	Wrapped bool
	// Prefixed reports whether the URL was preceded by "URL:".
	Prefixed bool
	// Ambiguous reports a line break right after a hyphen: the hyphen may
	// or may not belong to the URL (RFC 1738 appendix).
	Ambiguous bool
	// Alternatives holds, for an ambiguous match, each reading that
	// parses: with the hyphens first, without them second. It is nil for
	// a match that is not ambiguous.
	Alternatives []urlkit.URL
	// Warnings lists the repairs the lenient reading made to Text to
	// obtain URL, with offsets into the input. It is nil when Text parses
	// strictly.
	Warnings []urlkit.Warning
}

// String returns the URL as it should be used.
func (m Match) String() string { return m.URL.String() }

// The kinds of [Rejection] that are not syntax errors.
var (
	// ErrNonASCII: the candidate holds a non-ASCII letter, digit or mark
	// (as in "http://bücher.example/"), which no URL may hold unencoded
	// (RFC 1738 2.2). Taking the URL up to that character would give a
	// different URL, so the candidate is given up whole; with
	// [Extractor.Lenient] it is percent-encoded instead (a host is mapped
	// by IDNA).
	ErrNonASCII = errors.New("non-ASCII character in a URL: RFC 1738 2.2 says it must be encoded")
	// ErrUnclosed: a wrapper whose ">" does not come within MaxSpan
	// bytes, or comes after a "<" or a blank line.
	ErrUnclosed = errors.New(`wrapper not closed: no ">" before a "<", a blank line or MaxSpan bytes`)
	// ErrEmpty: a "<URL:>" wrapper with nothing but white space in it.
	ErrEmpty = errors.New("empty wrapper")
	// ErrTooLong: a bare URL longer than MaxSpan bytes.
	ErrTooLong = errors.New("longer than MaxSpan bytes")
)

// A Rejection is a candidate URL that was given up, and why: a wrapper
// whose contents do not parse (such as a host name ending with "." as the
// 1993 URL draft writes them), a wrapper that is not closed, a bare URL
// that does not parse, or a URL cut by a non-ASCII letter.
//
// A candidate is a "<URL:" prefix, a "<" followed by what [Extract] takes
// for a URL, or a scheme urlkit knows followed by ":" in running text. A
// bare candidate inside a rejected wrapper is not reported again.
type Rejection struct {
	// Text is the candidate as written, with the wrapper, the prefix and
	// the white space taken out.
	Text string
	// Start and End are byte offsets in the input of the candidate,
	// wrapper and prefix included. An unclosed wrapper spans its "<" and
	// what follows it on its line.
	Start, End int
	// Line is the number of the line Start is on, counting from 1.
	Line int
	// Offset is the byte offset in the input of the first offending byte.
	Offset int
	// Wrapped and Prefixed are as in [Match].
	Wrapped, Prefixed bool
	// Err says what was wrong: one of ErrNonASCII, ErrUnclosed, ErrEmpty
	// and ErrTooLong, or a *[urlkit.SyntaxError] (offsets in Text) for a
	// candidate that does not parse.
	Err error
}

// Reason returns what was wrong, in words, without offsets.
func (r Rejection) Reason() string {
	var se *urlkit.SyntaxError
	if errors.As(r.Err, &se) {
		return se.Component.String() + ": " + se.Reason()
	}
	return r.Err.Error()
}

// String returns the rejection as "offset N (line L): TEXT: REASON".
func (r Rejection) String() string {
	return fmt.Sprintf("offset %d (line %d): %q: %s", r.Offset, r.Line, r.Text, r.Reason())
}

// An Extractor finds URLs in text with options; its zero value is what
// [Extract] and [NewScanner] use.
type Extractor struct {
	// Lenient reads each candidate with the lenient reading
	// ([lenient.Parse]) when it is not a URL as written: non-ASCII
	// letters, digits or marks in a path, search part or fragment are
	// percent-encoded, byte by byte of the input as written (UTF-8 "ü"
	// becomes "%C3%BC"), as RFC 1738 2.2 says non-ASCII octets must be;
	// an international host name is mapped to its A-labels by IDNA
	// ("bücher.example" becomes "xn--bcher-kva.example"); an IPv6 literal
	// host is accepted. Each repair is reported in [Match.Warnings].
	// Without Lenient every candidate with non-ASCII characters is given
	// up with [ErrNonASCII].
	//
	// Either way a URL is never cut short at a non-ASCII character that
	// continues the word it is in: "https://bücher.example/" never gives
	// "https://b". Non-ASCII white space, punctuation and symbols (such
	// as U+00A0, "”" and "→") end a bare URL like their ASCII kin.
	Lenient bool
	// Rejected, when not nil, is called for each candidate given up, in
	// the order of the input.
	Rejected func(Rejection)
}

// Extract returns, in order, every URL in the free text s: URLs in RFC
// 1738's "<URL:...>" wrapper, URLs in plain angle brackets, and bare URLs
// of the schemes urlkit knows (those of package scheme's registry).
//
// Within a wrapper, white space and line breaks are ignored (RFC 1738,
// appendix "Recommendations for URLs in Context"), Unicode white space
// such as U+00A0 included, and a line break right after a hyphen gives an
// ambiguous match with both readings. A wrapper is given up when its ">"
// is not within [MaxSpan] bytes, or when a "<" or a blank line comes
// first; extraction then goes on just after its "<".
//
// A plain "<...>" is taken for a wrapper when a scheme name and ":" follow
// the "<" directly and the scheme is one urlkit knows or its
// scheme-specific part starts with "//"; "<URL:...>" may hold a URL of any
// scheme. A bare URL is a scheme urlkit knows, ":" and what follows up to
// the first character that cannot be in a URL; a scheme using the common
// Internet scheme syntax must be followed by "//". Punctuation that ends a
// sentence (".", ",", ";", ":", "!", "?", a closing quote, and a closing
// bracket that has no opening one in the URL) is not taken as part of a
// bare URL. A bare URL is never joined with the next line, except after a
// hyphen that ends the line, where both readings are given.
//
// Every match parses strictly, as written or after the repairs that
// the lenient reading makes and reports in [Match.Warnings]; candidates
// that do not are skipped (see [Extractor] to hear about them). The URLs
// of the matches are substrings of s whenever no whitespace had to be
// removed.
func Extract(s string) []Match {
	return Extractor{}.Extract(s)
}

// Extract is [Extract] with the options of e.
func (e Extractor) Extract(s string) []Match {
	x := extractor{text: s, final: true, lenient: e.Lenient, rejected: e.Rejected, line: 1}
	x.run(0)
	return x.out
}

// Byte classes of the extractor, built once from the core's class table.
const (
	cBare   = 1 << iota // may be part of a bare URL
	cScheme             // may be part of a scheme name
	cAlpha              // a letter
	cAlnum              // a letter or a digit
)

// class holds the classes above for every byte, from the core's table. A bare URL runs over RFC
// 1738's xchar, "%" (for escapes), "#" (for the fragment) and "~", which
// RFC 1738 calls unsafe but which is common in the URLs people write; a
// URL holding one is reported with the repair that encodes it.
var class = func() (t [256]uint8) {
	for b := 0; b < 256; b++ {
		c := byte(b)
		if chars.Is(c, chars.Xchar) || c == '%' || c == '#' || c == '~' {
			t[b] |= cBare
		}
		if chars.Is(c, chars.SchemeChar) {
			t[b] |= cScheme
		}
		if chars.Is(c, chars.Alpha) {
			t[b] |= cAlpha
		}
		if chars.Is(c, chars.AlphaDigit) {
			t[b] |= cAlnum
		}
	}
	return t
}()

// lookupScheme reports whether name is a scheme urlkit knows, and whether it
// uses the common Internet scheme syntax ("//" after the ":").
func lookupScheme(name string) (known, ip bool) {
	info, ok := schemes.Lookup(name)
	return ok, info.Syntax == schemes.IP || info.Syntax == schemes.IPOptionalHost
}

// isSpace reports whether c is ASCII white space that may break a URL
// across lines: space, tab, line feed, carriage return, vertical tab or
// form feed.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// spaceAt returns the length of the white space character at t[i], ASCII
// or Unicode (unicode.IsSpace: U+0085, U+00A0, U+2000 to U+200A, U+3000,
// ...), or 0 if there is none.
func spaceAt(t string, i int) int {
	c := t[i]
	if c < utf8.RuneSelf {
		if isSpace(c) {
			return 1
		}
		return 0
	}
	r, w := utf8.DecodeRuneInString(t[i:])
	if unicode.IsSpace(r) {
		return w
	}
	return 0
}

// wordAt returns the length of the character at t[i] if it continues a
// run of URL characters: an ASCII byte a URL may hold, or a non-ASCII
// character that is not white space, punctuation or a symbol (a letter, a
// digit, a mark, or a byte that is not UTF-8). It returns 0 for a
// character that ends a URL.
func wordAt(t string, i int) (n int, nonASCII bool) {
	c := t[i]
	if c < utf8.RuneSelf {
		if class[c]&cBare != 0 {
			return 1, false
		}
		return 0, false
	}
	r, w := utf8.DecodeRuneInString(t[i:])
	if endsURL(r, w) {
		return 0, false
	}
	return w, true
}

// endsURL reports whether the non-ASCII character r, w bytes long, ends
// a bare URL: white space, punctuation or a symbol. A byte that is not
// UTF-8 (r is utf8.RuneError, w is 1), as in Latin-1 text, does not: it
// may be a letter.
func endsURL(r rune, w int) bool {
	if r == utf8.RuneError && w <= 1 {
		return false
	}
	return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r)
}

// extractor finds URLs in text. Positions are indices into text; base is
// the offset of text[0] in the whole input.
type extractor struct {
	text  string
	base  int
	final bool // text runs to the end of the input
	more  bool // an examination needs more text than there is
	// inWrapper tells, with more, that the examination waits for the end
	// of a wrapper: only a ">", a "<" or a line feed can decide it.
	inWrapper bool
	floor     int  // no match may start before text[floor]
	quiet     int  // no bare candidate before text[quiet] is reported
	clone     bool // copy the URLs out of text (a Scanner's window is reused)
	lenient   bool
	rejected  func(Rejection)
	resume    wrapState // where a wrapper's examination stopped for more text
	lineAt    int       // text[lineAt] is on line number line
	line      int
	out       []Match
}

// wrapState is how far the examination of a wrapper got when the text
// ran out, with positions as offsets in the whole input: the "<" (at), the
// next byte to read (k), the last line feed and the last byte that is not
// white space (-1 for none), and the piece found so far.
type wrapState struct {
	ok                       bool
	at, k, lastNL, lastSolid int
	p                        piece
}

// needMore reports whether the text may go on beyond its end: if so, the
// examination under way must wait for more, and more is set.
func (x *extractor) needMore() bool {
	if x.final {
		return false
	}
	x.more = true
	return true
}

// lineOf returns the line number of text[i]. Calls come in nearly
// increasing order of i, so counting goes on from the last one.
func (x *extractor) lineOf(i int) int {
	if i >= x.lineAt {
		x.line += strings.Count(x.text[x.lineAt:i], "\n")
	} else {
		x.line -= strings.Count(x.text[i:x.lineAt], "\n")
	}
	x.lineAt = i
	return x.line
}

// run examines each "<" and ":" of text[pos:] and returns where the next
// examination should start. If one needs more text than there is (see
// needMore), run returns its position with more set.
func (x *extractor) run(pos int) int {
	t := x.text
	lt, co := -1, -1
	for pos < len(t) {
		if lt < pos {
			lt = indexFrom(t, pos, '<')
		}
		if co < pos {
			co = indexFrom(t, pos, ':')
		}
		i := min(lt, co)
		if i >= len(t) {
			return len(t)
		}
		if i == lt {
			pos = x.wrapped(i)
		} else {
			pos = x.bare(i)
		}
		if x.more {
			return i
		}
	}
	return pos
}

// indexFrom returns the index of the first c in t[from:], or len(t).
func indexFrom(t string, from int, c byte) int {
	if k := strings.IndexByte(t[from:], c); k >= 0 {
		return from + k
	}
	return len(t)
}

// piece describes a candidate URL in text[a:b] that may contain
// whitespace to ignore and hyphens followed by a line break.
type piece struct {
	a, b     int
	spaces   bool // text[a:b] holds whitespace to take out
	hyphens  bool // text[a:b] holds a hyphen that ends a line
	nonASCII int  // index of the first non-ASCII word character, or -1
}

// assemble returns the candidate text: text[a:b] without whitespace and,
// when drop is set, without the hyphens that end a line. If offs is not
// nil it receives the text index of every byte of the result.
func (x *extractor) assemble(p piece, drop bool, offs *[]int) string {
	t := x.text
	if !p.spaces && offs == nil {
		return t[p.a:p.b]
	}
	var sb strings.Builder
	sb.Grow(p.b - p.a)
	for i := p.a; i < p.b; {
		if w := spaceAt(t, i); w > 0 {
			i += w
			continue
		}
		c := t[i]
		if c == '-' && drop && hyphenBreak(t, i+1, p.b) {
			i++
			continue
		}
		sb.WriteByte(c)
		if offs != nil {
			*offs = append(*offs, i)
		}
		i++
	}
	return sb.String()
}

// hyphenBreak reports whether t[i:end] starts with optional white space
// other than a line feed, and a line feed: the hyphen before i ends a line.
func hyphenBreak(t string, i, end int) bool {
	i = skipSpace(t, i, end, true)
	return i < end && t[i] == '\n'
}

// skipSpace returns the index of the first byte of t[k:end] that is not
// white space, or that is a line feed when stopNL is set; end if none.
func skipSpace(t string, k, end int, stopNL bool) int {
	for k < end && !(stopNL && t[k] == '\n') {
		w := spaceAt(t, k)
		if w == 0 {
			break
		}
		k += w
	}
	return k
}

// reject reports a candidate given up, if anyone listens.
func (x *extractor) reject(p piece, start, end, at int, wrapped, prefixed bool, err error) {
	if x.rejected == nil || (!wrapped && start < x.quiet) {
		return
	}
	text := x.assemble(p, false, nil)
	if x.clone {
		text = strings.Clone(text)
	}
	x.rejected(Rejection{Text: text, Start: x.base + start, End: x.base + end, Line: x.lineOf(start),
		Offset: x.base + at, Wrapped: wrapped, Prefixed: prefixed, Err: err})
	if wrapped {
		x.quiet = max(x.quiet, end)
	}
}

// emit parses the candidate p and, if it or its lenient repair is a URL,
// records a match spanning text[start:end]; if not, it reports the
// candidate as rejected.
func (x *extractor) emit(p piece, start, end int, wrapped, prefixed bool) bool {
	if p.nonASCII >= 0 && !x.lenient {
		x.reject(p, start, end, p.nonASCII, wrapped, prefixed, ErrNonASCII)
		return false
	}
	text := x.assemble(p, false, nil)
	if x.clone {
		text = strings.Clone(text)
	}
	u, warns, err := x.parseCandidate(text)
	var alts []urlkit.URL
	dropped := false
	if p.hyphens {
		other := x.assemble(p, true, nil)
		if x.clone {
			other = strings.Clone(other)
		}
		if v, w, err2 := x.parseCandidate(other); err2 == nil {
			if err == nil {
				alts = []urlkit.URL{u, v}
			} else {
				// Only the reading without the hyphens is a URL.
				text, u, warns, err, dropped = other, v, w, nil, true
			}
		}
	}
	if err != nil {
		if x.rejected == nil {
			return false
		}
		at := p.b
		var se *urlkit.SyntaxError
		if errors.As(err, &se) {
			var offs []int
			x.assemble(p, false, &offs)
			if se.Offset >= 0 && se.Offset < len(offs) {
				at = offs[se.Offset]
			}
		}
		x.reject(p, start, end, at, wrapped, prefixed, err)
		return false
	}
	m := Match{URL: u, Text: text, Start: x.base + start, End: x.base + end, Line: x.lineOf(start),
		Wrapped: wrapped, Prefixed: prefixed, Ambiguous: alts != nil, Alternatives: alts}
	if warns != nil {
		var offs []int
		x.assemble(p, dropped, &offs)
		for _, w := range warns {
			if w.Offset < len(offs) {
				w.Offset = offs[w.Offset]
			} else {
				w.Offset = p.b
			}
			w.Offset += x.base
			m.Warnings = append(m.Warnings, w)
		}
	}
	x.out = append(x.out, m)
	x.floor = end
	return true
}

// parseCandidate parses s strictly, or else by the lenient reading
// (package lenient), except that a "%" that does not start an escape is
// not repaired: RFC 1630 calls such URIs illegal ("all % characters imply
// encodings", Example 3), and encoding it as "%25" would guess between a
// literal "%" and a typing mistake. Without [Extractor.Lenient] only the
// encodings of RFC 1738 2.2 are repaired: a strict error in the host or
// port is final, told as the text was written, and the URL returned is of
// RFC 1738's syntax, without the warnings of the scheme rules the lenient
// reading relaxes.
func (x *extractor) parseCandidate(s string) (urlkit.URL, []urlkit.Warning, error) {
	u, err := urlkit.Parse(s)
	if err == nil {
		return u, nil, nil
	}
	if off := badEscape(s); off >= 0 {
		var se *urlkit.SyntaxError
		if errors.As(err, &se) && se.Offset == off {
			return urlkit.URL{}, nil, err
		}
		return urlkit.URL{}, nil, &urlkit.SyntaxError{Input: s, Offset: off, Component: urlkit.ComponentNone, Err: urlkit.ErrBadEscape}
	}
	// A host or port the strict parser refuses: final without Lenient,
	// but for the two repairs RFC 1738's own examples call for (a ":"
	// without a port, a "?" straight after the host).
	var se *urlkit.SyntaxError
	hostErr := errors.As(err, &se) && (se.Component == urlkit.ComponentHost || se.Component == urlkit.ComponentPort) &&
		!errors.Is(err, urlkit.ErrEmptyPort) && (se.Offset >= len(s) || s[se.Offset] != '?')
	if hostErr && !x.lenient {
		return urlkit.URL{}, nil, err
	}
	v, warns, err2 := lenient.Parse(s)
	if err2 != nil {
		if hostErr {
			return urlkit.URL{}, nil, err
		}
		return urlkit.URL{}, nil, err2
	}
	if !x.lenient {
		// Only encodings were repaired: the text is a URL of RFC 1738's
		// syntax. The scheme's relaxed rules come last among the
		// warnings (lenient.Parse); they do not apply here.
		w, err := urlkit.Parse(v.String())
		if err != nil {
			return urlkit.URL{}, nil, err
		}
		return w, warns[:len(warns)-len(scheme.Relaxed(v))], nil
	}
	return v, warns, nil
}

// badEscape returns the offset of the first "%" in s that is not followed
// by two hex digits, or -1.
func badEscape(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && !chars.IsEscape(s, i) {
			return i
		}
	}
	return -1
}

// wrapped examines the "<" at text[i] and returns where to go on.
func (x *extractor) wrapped(i int) int {
	t := x.text
	a := i + 1
	if len(t) < a+4 && x.needMore() {
		return i
	}
	prefixed := isURLTag(t[a:])
	if prefixed {
		a += 4
	} else {
		// A plain "<" must be followed by a scheme that urlkit knows, or
		// by any scheme and "//" (after whitespace, if any).
		j := a
		for j < len(t) && j-a <= maxSchemeLen && class[t[j]]&cScheme != 0 {
			j++
		}
		if j >= len(t) && x.needMore() {
			return i
		}
		if j == a || j >= len(t) || t[j] != ':' || class[t[a]]&cAlpha == 0 {
			return i + 1
		}
		if known, _ := lookupScheme(t[a:j]); !known {
			k := skipSpace(t, j+1, min(len(t), i+MaxSpan), false)
			if len(t) < k+2 && k-i < MaxSpan && x.needMore() {
				return i
			}
			if !strings.HasPrefix(t[k:], "//") {
				return i + 1
			}
		}
	}
	p := piece{a: a, nonASCII: -1}
	lastNL := -1    // index of the last line feed
	lastSolid := -1 // index of the last byte that is not whitespace
	k := a
	if r := &x.resume; r.ok && r.at == x.base+i {
		// Go on where this wrapper's examination stopped for more text.
		d := x.base
		p = r.p
		p.a -= d
		if p.nonASCII >= 0 {
			p.nonASCII -= d
		}
		k, lastNL, lastSolid = r.k-d, max(-1, r.lastNL-d), max(-1, r.lastSolid-d)
	}
	x.resume.ok = false
	limit := min(len(t), i+MaxSpan)
	eol := func(k int) int { // the end of the line of text[k], for a report
		return min(indexFrom(t, k, '\n'), limit)
	}
	for k < limit {
		c := t[k]
		switch {
		case c == '>':
			p.b = k
			if lastSolid < 0 {
				if prefixed {
					x.reject(p, i, k+1, k, true, true, ErrEmpty)
				}
				return i + 1
			}
			p.b = k
			if x.emit(p, i, k+1, true, prefixed) {
				return k + 1
			}
			if prefixed {
				return k + 1
			}
			return i + 1
		case c == '<':
			p.b = k
			x.reject(p, i, k, k, true, prefixed, ErrUnclosed)
			return i + 1
		case c == '\n':
			if lastNL >= 0 && lastSolid < lastNL {
				// A blank line ends the paragraph.
				p.b = lastNL
				x.reject(p, i, lastNL, lastNL, true, prefixed, ErrUnclosed)
				return i + 1
			}
			if lastSolid >= 0 && t[lastSolid] == '-' {
				p.hyphens = true
			}
			lastNL = k
			p.spaces = true
			k++
		case c < utf8.RuneSelf:
			if isSpace(c) {
				p.spaces = true
			} else {
				lastSolid = k
			}
			k++
		default:
			r, w := utf8.DecodeRuneInString(t[k:])
			if unicode.IsSpace(r) {
				p.spaces = true
				k += w
				continue
			}
			if p.nonASCII < 0 {
				// Within a wrapper, any character but white space is
				// meant to be part of the URL.
				p.nonASCII = k
			}
			lastSolid = k
			k += w
		}
	}
	if limit < i+MaxSpan && x.needMore() {
		x.inWrapper = true
		// Remember how far the body was read, in offsets of the whole
		// input, so that more text is not read again from the "<".
		d := x.base
		q := p
		q.a += d
		if q.nonASCII >= 0 {
			q.nonASCII += d
		}
		keep := func(j int) int {
			if j < 0 {
				return -1
			}
			return j + d
		}
		x.resume = wrapState{ok: true, at: d + i, k: d + k, lastNL: keep(lastNL), lastSolid: keep(lastSolid), p: q}
		return i
	}
	p.b = min(eol(a), limit)
	x.reject(p, i, p.b, p.b, true, prefixed, ErrUnclosed)
	return i + 1
}

// bare examines the ":" at text[i] and returns where to go on. Its steps:
// the scheme name before the ":" (bareScheme), the run of URL characters
// after it (bareRun), then either the URL, trimmed of the sentence's
// punctuation (bareEmit), or, when nothing is left after the ":" or the
// "//", an IPv6 literal's report (bareIPv6). Each step returns next >= 0
// when the examination ends there (no URL here, or more text needed: see
// needMore), and -1 to go on.
func (x *extractor) bare(i int) int {
	s, ip, next := x.bareScheme(i)
	if next >= 0 {
		return next
	}
	start, prefixed := s, false
	if s-4 >= x.floor && isURLTag(x.text[s-4:]) {
		start -= 4
		prefixed = true
	}
	limit := min(len(x.text), s+MaxSpan)
	p, e, next := x.bareRun(i, s, start, limit, prefixed)
	if next >= 0 {
		return next
	}
	if x.isTemplate(e) {
		// "http://<host>:<port>/<path>": a grammar template, not a URL.
		return e
	}
	if x.more {
		return i
	}
	t := x.text
	end := trimTrailing(t, i+1, e)
	if end <= i+1 || (t[i+1] == '/' && end <= i+3) {
		// Nothing after the ":", or after the "//", unless it is "[": an
		// IPv6 literal (RFC 2732), which is reported.
		if ip && end == i+3 && x.ipv6(end, limit) {
			return x.bareIPv6(i, s, end, limit, start, prefixed, p)
		}
		return i + 1
	}
	return x.bareEmit(i, end, e, start, prefixed, p)
}

// bareScheme reads the scheme name that ends at the ":" at text[i]: ASCII
// letters first, at most maxSchemeLen bytes, not the end of a longer word
// (a non-ASCII letter before it, as in "xhttp:"), a scheme text knows, and
// "//" after the ":" for an Internet scheme (RFC 1738 3.1). It returns the
// name's start and whether the scheme is an Internet one.
func (x *extractor) bareScheme(i int) (s int, ip bool, next int) {
	t := x.text
	if i+1 >= len(t) {
		if x.needMore() {
			return 0, false, i
		}
		return 0, false, i + 1
	}
	if w, _ := wordAt(t, i+1); w == 0 {
		return 0, false, i + 1
	}
	s = i
	for s > x.floor && i-s <= maxSchemeLen && class[t[s-1]]&cScheme != 0 {
		s--
	}
	if i-s > maxSchemeLen {
		return 0, false, i + 1
	}
	for s < i && class[t[s]]&cAlpha == 0 {
		s++
	}
	if s == i {
		return 0, false, i + 1
	}
	if s > x.floor && t[s-1] >= utf8.RuneSelf {
		// A non-ASCII letter before the scheme: the scheme is the end of
		// a word, as in "xhttp:".
		if r, w := utf8.DecodeLastRuneInString(t[max(x.floor, s-utf8.UTFMax):s]); !endsURL(r, w) {
			return 0, false, i + 1
		}
	}
	known, ip := lookupScheme(t[s:i])
	if !known {
		return 0, false, i + 1
	}
	if ip {
		if len(t) < i+3 && x.needMore() {
			return 0, false, i
		}
		if !strings.HasPrefix(t[i+1:], "//") {
			return 0, false, i + 1
		}
	}
	return s, ip, -1
}

// bareRun extends the URL whose scheme starts at text[s] over URL
// characters and non-ASCII letters from just after its ":" at text[i], and
// on across a line break right after a hyphen (hyphenBreakAfter), up to
// limit. It returns the piece and the end of the run. A run longer than
// MaxSpan is not a URL anyone can use: it is rejected and skipped.
func (x *extractor) bareRun(i, s, start, limit int, prefixed bool) (p piece, e, next int) {
	t := x.text
	p = piece{a: s, nonASCII: -1}
	e = i + 1
	for {
		for e < limit {
			w, non := wordAt(t, e)
			if w == 0 {
				break
			}
			if non && p.nonASCII < 0 {
				p.nonASCII = e
			}
			e += w
		}
		if e >= len(t) {
			if x.needMore() {
				return p, e, i
			}
		} else if e >= limit {
			if w, _ := wordAt(t, e); w > 0 {
				p.b = limit
				x.reject(p, start, limit, limit, false, prefixed, ErrTooLong)
				x.floor = limit
				return p, e, limit
			}
		}
		if t[e-1] != '-' {
			return p, e, -1
		}
		k, more := x.hyphenBreakAfter(e, limit)
		if more {
			return p, e, i
		}
		if k < 0 {
			return p, e, -1
		}
		p.spaces, p.hyphens = true, true
		e = k
	}
}

// hyphenBreakAfter looks past a hyphen that ends text[:e] for the line
// break that continues the URL on the next line (RFC 1738's appendix: a
// hyphen at a line break may be the URL's own or the writer's): white
// space, one line feed, white space, then a URL character. It returns where
// the URL goes on, -1 when it does not, and more when the text ends
// before that is known.
func (x *extractor) hyphenBreakAfter(e, limit int) (k int, more bool) {
	t := x.text
	k = skipSpace(t, e, limit, true)
	if k >= limit {
		return -1, limit == len(t) && x.needMore()
	}
	if t[k] != '\n' {
		return -1, false
	}
	k = skipSpace(t, k, limit, false)
	if k >= limit {
		return -1, limit == len(t) && x.needMore()
	}
	if w, _ := wordAt(t, k); w == 0 || strings.Count(t[e:k], "\n") > 1 {
		return -1, false
	}
	return k, false
}

// bareIPv6 reports the bare URL whose host, after "//" at text[i+1:end],
// is an IPv6 literal: RFC 1738 has none (RFC 2732 came later), so it is
// rejected, or with Lenient taken as the lenient reading takes it (RFC
// 3986 3.2.2), without the sentence's punctuation.
func (x *extractor) bareIPv6(i, s, end, limit, start int, prefixed bool, p piece) int {
	t := x.text
	k := end
	for k < limit && t[k] > ' ' && t[k] < utf8.RuneSelf && t[k] != '<' && t[k] != '>' && t[k] != '"' {
		k++
	}
	if k == len(t) && x.needMore() {
		return i
	}
	if x.lenient {
		if e := trimTrailing(t, i+1, k); e > i+3 {
			if _, _, err := x.parseCandidate(t[s:e]); err == nil {
				p.b = e
				x.emit(p, start, e, false, prefixed)
				return e
			}
		}
	}
	if x.rejected == nil {
		return k
	}
	p.b = k
	_, _, err := x.parseCandidate(t[s:k])
	if err == nil {
		err = ErrUnclosed // cannot happen: a URL does not start with "//["
	}
	x.reject(p, start, k, end, false, prefixed, err)
	return k
}

// bareEmit offers text[p.a:end] as a bare URL (the run went on to runEnd
// before the sentence's punctuation was trimmed) and returns where to go
// on.
func (x *extractor) bareEmit(i, end, runEnd, start int, prefixed bool, p piece) int {
	p.b = end
	// A hyphen break after the end of the URL is not part of it.
	if p.hyphens && !strings.Contains(x.text[i:end], "\n") {
		p.spaces, p.hyphens = false, false
	}
	if p.nonASCII >= end {
		p.nonASCII = -1
	}
	if x.emit(p, start, end, false, prefixed) {
		return end
	}
	// Not a URL; neither is anything else in the same run of URL
	// characters, which is not looked at again (this keeps extraction
	// linear in the length of the text).
	return runEnd
}

// ipv6 reports whether text[e:limit] starts with what looks like an IPv6
// literal: "[", hex digits, ":" and ".", and "]". A grammar's optional
// part, such as RFC 1738's "telnet://[user@]", does not.
func (x *extractor) ipv6(e, limit int) bool {
	t := x.text
	if e >= limit || t[e] != '[' {
		return false
	}
	for k := e + 1; k < limit && k < e+48; k++ {
		switch c := t[k]; {
		case c == ']':
			return k > e+1
		case c != ':' && c != '.' && !chars.Is(c, chars.HexDigit):
			return false
		}
	}
	if min(limit, e+48) == len(t) {
		x.needMore()
	}
	return false
}

// isURLTag reports whether s starts with RFC 1738's "URL:" prefix, in any
// case. Unlike [urlkit.Parse], which takes it only directly before a
// scheme name, a wrapper may have whitespace after it.
func isURLTag(s string) bool {
	return len(s) >= 4 && s[0]|0x20 == 'u' && s[1]|0x20 == 'r' && s[2]|0x20 == 'l' && s[3] == ':'
}

// isTemplate reports whether text[e:] starts with a placeholder such as
// "<host>" or "<url-path>", as the RFCs write URL templates: "<", a letter,
// letters, digits and "-", and ">". If the text ends before that is known,
// it sets more (see needMore) and returns false.
func (x *extractor) isTemplate(e int) bool {
	t := x.text
	if e >= len(t) {
		return false
	}
	if t[e] != '<' {
		return false
	}
	if e+1 >= len(t) {
		x.needMore()
		return false
	}
	if class[t[e+1]]&cAlpha == 0 {
		return false
	}
	for k := e + 2; k < e+64; k++ {
		if k >= len(t) {
			x.needMore()
			return false
		}
		switch c := t[k]; {
		case c == '>':
			return true
		case class[c]&cAlnum == 0 && c != '-':
			return false
		}
	}
	return false
}

// trimTrailing returns the end of a bare URL in t[a:e] once the
// punctuation that ends a sentence is taken off: ".", ",", ";", ":", "!",
// "?", a closing quote, and a closing parenthesis that has no opening one
// in the URL.
func trimTrailing(t string, a, e int) int {
	for e > a {
		switch t[e-1] {
		case '.', ',', ';', ':', '!', '?', '\'':
			e--
			continue
		case ')':
			if strings.Count(t[a:e], "(") < strings.Count(t[a:e], ")") {
				e--
				continue
			}
		}
		break
	}
	return e
}

// chunkSize is the most a Scanner reads at a time.
const chunkSize = 64 << 10

// lookahead is how far past a "<" or ":" an examination may read, and
// lookback how far before it.
const (
	lookahead = MaxSpan + maxSchemeLen + 16
	lookback  = maxSchemeLen + 16
)

// A Scanner extracts URLs from a stream, as [Extract] does from a string,
// in memory bounded by [MaxSpan] whatever the length of the input: it
// holds at most about 64 KiB plus 2*MaxSpan bytes of it. Offsets in its
// matches are offsets in the whole stream, and its matches hold copies of
// their text, not references to its buffer.
//
// A Scanner yields each URL as soon as its end is certain: once the byte
// that ends it has been read (for a wrapped URL, its ">"), without waiting
// for more input. It calls Read once per wait, so a URL arriving on a pipe
// or a terminal is found when its line arrives.
//
// Use it like a bufio.Scanner:
//
//	sc := text.NewScanner(r)
//	for sc.Scan() {
//		m := sc.Match()
//		...
//	}
//	if err := sc.Err(); err != nil { ... }
type Scanner struct {
	r       io.Reader
	chunk   int // the most to read at a time
	buf     []byte
	x       extractor
	pos     int  // next index of x.text to examine
	blocked bool // the examination at pos needs more input
	seen    int  // len(buf) when it blocked
	eof     bool
	err     error
	pending []Match
	cur     Match
}

// NewScanner returns a Scanner reading from r.
func NewScanner(r io.Reader) *Scanner {
	return Extractor{}.NewScanner(r)
}

// NewScanner returns a Scanner reading from r with the options of e.
// Rejected, if set, is called from within Scan.
func (e Extractor) NewScanner(r io.Reader) *Scanner {
	return &Scanner{r: r, chunk: chunkSize,
		x: extractor{clone: true, lenient: e.Lenient, rejected: e.Rejected, line: 1}}
}

// Scan advances to the next URL, which Match then returns. It returns false
// at the end of the input or on a read error, which Err then returns.
func (sc *Scanner) Scan() bool {
	for len(sc.pending) == 0 {
		if avail, ok := sc.ready(); ok {
			sc.x.text = string(sc.buf[:avail])
			sc.x.final = sc.eof
			sc.x.more, sc.x.inWrapper = false, false
			sc.x.out = sc.pending[:0]
			sc.pos = sc.x.run(sc.pos)
			sc.pending, sc.x.out = sc.x.out, nil
			sc.blocked = sc.x.more
			sc.seen = avail
			continue
		}
		if sc.eof {
			return false
		}
		sc.fill()
	}
	sc.cur = sc.pending[0]
	sc.pending = sc.pending[1:]
	return true
}

// ready returns how much of the buffer may be examined (a character
// split by a read is left for the next), and whether examining is worth
// it: there is something new to examine, and, if an examination is
// waiting, what was read since may decide it.
func (sc *Scanner) ready() (int, bool) {
	avail := len(sc.buf)
	if !sc.eof {
		// Leave out an incomplete UTF-8 sequence at the end.
		for k := 1; k <= 3 && k <= avail; k++ {
			c := sc.buf[avail-k]
			if c < utf8.RuneSelf {
				break
			}
			if utf8.RuneStart(c) {
				if !utf8.FullRune(sc.buf[avail-k:]) {
					avail -= k
				}
				break
			}
		}
	}
	if sc.pos >= avail && !(sc.eof && sc.blocked) {
		return avail, false
	}
	if !sc.blocked || sc.eof || avail-sc.pos >= lookahead {
		return avail, true
	}
	// Only a byte that cannot continue a run of URL characters can end
	// the examination waiting, and within a wrapper only a ">", a "<" or
	// a line feed: looking again on other bytes would make a slow reader
	// cost MaxSpan work per byte.
	for _, c := range sc.buf[min(sc.seen, avail):avail] {
		if sc.x.inWrapper {
			if c == '>' || c == '<' || c == '\n' {
				return avail, true
			}
		} else if class[c]&cBare == 0 {
			return avail, true
		}
	}
	sc.seen = avail
	return avail, false
}

// fill drops what is no longer needed from the window and reads once.
func (sc *Scanner) fill() {
	if keep := sc.pos - lookback; keep > 0 {
		x := &sc.x
		if x.lineAt < keep {
			x.line += strings.Count(x.text[x.lineAt:keep], "\n")
			x.lineAt = keep
		}
		x.lineAt -= keep
		n := copy(sc.buf, sc.buf[keep:])
		sc.buf = sc.buf[:n]
		x.base += keep
		sc.pos -= keep
		sc.seen = max(0, sc.seen-keep)
		x.floor = max(0, x.floor-keep)
		x.quiet = max(0, x.quiet-keep)
		x.text = x.text[keep:]
	}
	if cap(sc.buf)-len(sc.buf) < sc.chunk {
		nb := make([]byte, len(sc.buf), len(sc.buf)+sc.chunk+lookahead+lookback)
		copy(nb, sc.buf)
		sc.buf = nb
	}
	// A read error ends the input: the text read so far is still
	// examined, and Err reports the error.
	for empty := 0; ; {
		n := len(sc.buf)
		k, err := sc.r.Read(sc.buf[n : n+sc.chunk])
		sc.buf = sc.buf[:n+k]
		switch {
		case errors.Is(err, io.EOF):
			sc.eof = true
		case err != nil:
			sc.err = fmt.Errorf("text: reading at offset %d: %w", sc.x.base+len(sc.buf), err)
			sc.eof = true
		case k == 0:
			if empty++; empty >= 100 {
				sc.err = fmt.Errorf("text: reading at offset %d: %w", sc.x.base+len(sc.buf), io.ErrNoProgress)
				sc.eof = true
			}
			continue
		}
		return
	}
}

// Match returns the URL found by the last call to Scan.
func (sc *Scanner) Match() Match { return sc.cur }

// Err returns the first error met while reading, or nil at a clean end of
// input.
func (sc *Scanner) Err() error { return sc.err }
