package urlkit

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/schemes"
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
	URL URL
	// Text is the URL as written, with the wrapper, the "URL:" prefix and
	// the whitespace taken out. It differs from URL.String() only when
	// the URL had to be repaired.
	Text string
	// Start and End are byte offsets in the input: [Start, End) covers
	// the URL, its wrapper and its prefix.
	Start, End int
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
	Alternatives []URL
	// Warnings lists the repairs [ParseLenient] made to Text to obtain
	// URL, with offsets into the input. It is nil when Text parses
	// strictly.
	Warnings []Warning
}

// String returns the URL as it should be used.
func (m Match) String() string { return m.URL.String() }

// Extract returns, in order, every URL in the free text s: URLs in RFC
// 1738's "<URL:...>" wrapper, URLs in plain angle brackets, and bare URLs
// of the schemes urlkit knows (see [Schemes]).
//
// Within a wrapper, whitespace and line breaks are ignored (RFC 1738,
// appendix "Recommendations for URLs in Context"), and a line break right
// after a hyphen gives an ambiguous match with both readings. A wrapper is
// given up when its ">" is not within [MaxSpan] bytes, or when a "<" or a
// blank line comes first; extraction then goes on just after its "<".
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
// [ParseLenient] makes and reports in [Match.Warnings]; candidates that do
// not are skipped. The URLs of the matches are substrings of s whenever no
// whitespace had to be removed.
func Extract(s string) []Match {
	x := extractor{text: s}
	x.run(0, len(s))
	return x.out
}

// bareOK marks the bytes that may be part of a bare URL: RFC 1738's xchar,
// "%" (for escapes), "#" (for the fragment) and "~", which RFC 1738 calls
// unsafe but which is common in the URLs people write; a URL holding one is
// reported with the repair that encodes it.
var bareOK = func() (t [256]bool) {
	for b := 0; b < 256; b++ {
		t[b] = chars.Table[b]&chars.Xchar != 0
	}
	t['%'], t['#'], t['~'] = true, true, true
	return t
}()

// isSpace reports whether c is whitespace that may break a URL across
// lines: space, tab, line feed, carriage return, vertical tab or form feed.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// extractor finds URLs in text. Positions are indices into text; base is
// the offset of text[0] in the whole input.
type extractor struct {
	text  string
	base  int
	floor int  // no match may start before text[floor]
	clone bool // copy the URLs out of text (a Scanner's window is reused)
	out   []Match
}

// run examines each "<" and ":" of text[pos:stop] and returns where the
// next examination should start (at stop or after it). Examining one may
// read up to MaxSpan+maxSchemeLen+8 bytes past it, and maxSchemeLen+5
// bytes before it.
func (x *extractor) run(pos, stop int) int {
	t := x.text
	lt, co := -1, -1
	for pos < stop {
		if lt < pos {
			lt = indexFrom(t, pos, '<')
		}
		if co < pos {
			co = indexFrom(t, pos, ':')
		}
		i := min(lt, co)
		if i >= stop {
			return stop
		}
		if i == lt {
			pos = x.wrapped(i)
		} else {
			pos = x.bare(i)
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
	a, b    int
	spaces  bool // text[a:b] holds whitespace to take out
	hyphens bool // text[a:b] holds a hyphen that ends a line
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
	for i := p.a; i < p.b; i++ {
		c := t[i]
		if isSpace(c) {
			continue
		}
		if c == '-' && drop && hyphenBreak(t, i+1, p.b) {
			continue
		}
		sb.WriteByte(c)
		if offs != nil {
			*offs = append(*offs, i)
		}
	}
	return sb.String()
}

// hyphenBreak reports whether t[i:end] starts with optional spaces or tabs
// and a line break: the hyphen before i ends a line.
func hyphenBreak(t string, i, end int) bool {
	for i < end && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r') {
		i++
	}
	return i < end && t[i] == '\n'
}

// emit parses the candidate p and, if it or its lenient repair is a URL,
// records a match spanning text[start:end].
func (x *extractor) emit(p piece, start, end int, wrapped, prefixed bool) bool {
	text := x.assemble(p, false, nil)
	if x.clone {
		text = strings.Clone(text)
	}
	u, warns, ok := parseCandidate(text)
	var alts []URL
	dropped := false
	if p.hyphens {
		other := x.assemble(p, true, nil)
		if x.clone {
			other = strings.Clone(other)
		}
		if v, w, ok2 := parseCandidate(other); ok2 {
			if ok {
				alts = []URL{u, v}
			} else {
				// Only the reading without the hyphens is a URL.
				text, u, warns, ok, dropped = other, v, w, true, true
			}
		}
	}
	if !ok {
		return false
	}
	m := Match{URL: u, Text: text, Start: x.base + start, End: x.base + end,
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

// parseCandidate parses s strictly, or else leniently.
func parseCandidate(s string) (URL, []Warning, bool) {
	if u, err := Parse(s); err == nil {
		return u, nil, true
	}
	u, warns, err := ParseLenient(s)
	if err != nil {
		return URL{}, nil, false
	}
	return u, warns, true
}

// wrapped examines the "<" at text[i] and returns where to go on.
func (x *extractor) wrapped(i int) int {
	t := x.text
	a := i + 1
	prefixed := isURLTag(t[a:])
	if prefixed {
		a += 4
	} else {
		// A plain "<" must be followed by a scheme that urlkit knows, or
		// by any scheme and "//" (after whitespace, if any).
		j := a
		for j < len(t) && j-a <= maxSchemeLen && chars.Table[t[j]]&chars.SchemeChar != 0 {
			j++
		}
		if j == a || j >= len(t) || t[j] != ':' || chars.Table[t[a]]&chars.Alpha == 0 {
			return i + 1
		}
		if _, known := schemes.Lookup(t[a:j]); !known {
			k := j + 1
			for k < len(t) && k-i < MaxSpan && isSpace(t[k]) {
				k++
			}
			if !strings.HasPrefix(t[k:], "//") {
				return i + 1
			}
		}
	}
	p := piece{a: a}
	lastNL := -1    // index of the last line feed
	lastSolid := -1 // index of the last byte that is not whitespace
	limit := min(len(t), i+MaxSpan)
	for k := a; k < limit; k++ {
		c := t[k]
		switch {
		case c == '>':
			if lastSolid < 0 {
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
			return i + 1
		case c == '\n':
			if lastNL >= 0 && lastSolid < lastNL {
				return i + 1 // a blank line ends the paragraph
			}
			if lastSolid >= 0 && t[lastSolid] == '-' {
				p.hyphens = true
			}
			lastNL = k
			p.spaces = true
		case isSpace(c):
			p.spaces = true
		default:
			lastSolid = k
		}
	}
	return i + 1
}

// bare examines the ":" at text[i] and returns where to go on.
func (x *extractor) bare(i int) int {
	t := x.text
	if i+1 >= len(t) || !bareOK[t[i+1]] {
		return i + 1
	}
	// The scheme name before the ":".
	s := i
	for s > x.floor && i-s <= maxSchemeLen && chars.Table[t[s-1]]&chars.SchemeChar != 0 {
		s--
	}
	if i-s > maxSchemeLen {
		return i + 1
	}
	for s < i && chars.Table[t[s]]&chars.Alpha == 0 {
		s++
	}
	if s == i {
		return i + 1
	}
	info, known := schemes.Lookup(t[s:i])
	if !known {
		return i + 1
	}
	switch info.Syntax {
	case schemes.IP, schemes.IPOptionalHost:
		if !strings.HasPrefix(t[i+1:], "//") {
			return i + 1
		}
	}
	start := s
	prefixed := false
	if s-4 >= x.floor && isURLTag(t[s-4:]) {
		start -= 4
		prefixed = true
	}

	// The URL runs over bareOK bytes, and on across a line break right
	// after a hyphen.
	limit := min(len(t), s+MaxSpan)
	p := piece{a: s}
	e := i + 1
	for {
		for e < limit && bareOK[t[e]] {
			e++
		}
		if e >= limit && e < len(t) && bareOK[t[e]] {
			// Longer than MaxSpan: not a URL anyone can use; skip it.
			x.floor = limit
			return limit
		}
		if t[e-1] != '-' || !hyphenBreak(t, e, limit) {
			break
		}
		k := e
		for k < limit && isSpace(t[k]) {
			k++
		}
		if k >= limit || !bareOK[t[k]] || strings.Count(t[e:k], "\n") > 1 {
			break
		}
		p.spaces, p.hyphens = true, true
		e = k
	}
	if isTemplate(t, e) {
		// "http://<host>:<port>/<path>": a grammar template, not a URL.
		return e
	}
	runEnd := e
	e = trimTrailing(t, i+1, e)
	if e <= i+1 || (t[i+1] == '/' && e <= i+3) {
		// Nothing after the ":", or after the "//".
		return i + 1
	}
	p.b = e
	// A hyphen break after the end of the URL is not part of it.
	if p.hyphens && !strings.Contains(t[i:e], "\n") {
		p.spaces, p.hyphens = false, false
	}
	if x.emit(p, start, e, false, prefixed) {
		return e
	}
	// Not a URL; neither is anything else in the same run of URL
	// characters, which is not looked at again (this keeps extraction
	// linear in the length of the text).
	return runEnd
}

// isURLTag reports whether s starts with RFC 1738's "URL:" prefix, in any
// case. Unlike [Parse], which takes it only directly before a scheme name,
// a wrapper may have whitespace after it.
func isURLTag(s string) bool {
	return len(s) >= 4 && s[0]|0x20 == 'u' && s[1]|0x20 == 'r' && s[2]|0x20 == 'l' && s[3] == ':'
}

// isTemplate reports whether t[e:] starts with a placeholder such as
// "<host>" or "<url-path>", as the RFCs write URL templates: "<", a letter,
// letters, digits and "-", and ">".
func isTemplate(t string, e int) bool {
	if e+2 >= len(t) || t[e] != '<' || chars.Table[t[e+1]]&chars.Alpha == 0 {
		return false
	}
	for k := e + 2; k < len(t) && k < e+64; k++ {
		switch c := t[k]; {
		case c == '>':
			return true
		case chars.Table[c]&chars.AlphaDigit == 0 && c != '-':
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

// chunkSize is how much a Scanner reads at a time.
const chunkSize = 64 << 10

// lookahead is how far past a "<" or ":" an examination may read, and
// lookback how far before it.
const (
	lookahead = MaxSpan + maxSchemeLen + 16
	lookback  = maxSchemeLen + 8
)

// A Scanner extracts URLs from a stream, as [Extract] does from a string,
// in memory bounded by [MaxSpan] whatever the length of the input: it
// holds at most about 64 KiB plus 2*MaxSpan bytes of it. Offsets in its
// matches are offsets in the whole stream, and its matches hold copies of
// their text, not references to its buffer.
//
// Use it like a bufio.Scanner:
//
//	sc := urlkit.NewScanner(r)
//	for sc.Scan() {
//		m := sc.Match()
//		...
//	}
//	if err := sc.Err(); err != nil { ... }
type Scanner struct {
	r       io.Reader
	chunk   int // bytes to read at a time
	buf     []byte
	x       extractor
	pos     int // next index of x.text to examine
	eof     bool
	err     error
	pending []Match
	cur     Match
}

// NewScanner returns a Scanner reading from r.
func NewScanner(r io.Reader) *Scanner {
	return &Scanner{r: r, chunk: chunkSize, x: extractor{clone: true}}
}

// Scan advances to the next URL, which Match then returns. It returns false
// at the end of the input or on a read error, which Err then returns.
func (sc *Scanner) Scan() bool {
	for len(sc.pending) == 0 {
		if sc.eof && sc.pos >= len(sc.x.text) {
			return false
		}
		stop := len(sc.x.text) - lookahead
		if sc.eof {
			stop = len(sc.x.text)
		}
		if sc.pos < stop {
			sc.x.out = sc.pending[:0]
			sc.pos = sc.x.run(sc.pos, stop)
			sc.pending = sc.x.out
			sc.x.out = nil
			continue
		}
		sc.fill()
	}
	sc.cur = sc.pending[0]
	sc.pending = sc.pending[1:]
	return true
}

// fill drops what is no longer needed from the window and reads more.
func (sc *Scanner) fill() {
	keep := max(0, sc.pos-lookback)
	n := copy(sc.buf, sc.buf[keep:])
	sc.buf = sc.buf[:n]
	sc.x.base += keep
	sc.pos -= keep
	sc.x.floor = max(0, sc.x.floor-keep)
	if cap(sc.buf) < n+sc.chunk {
		nb := make([]byte, n, n+sc.chunk+lookahead+lookback)
		copy(nb, sc.buf)
		sc.buf = nb
	}
	// Read until a whole chunk has arrived or the input ends.
	// A read error ends the input: the text read so far is still
	// examined, and Err reports the error.
	want := n + sc.chunk
	for empty := 0; len(sc.buf) < want && !sc.eof; {
		k, err := sc.r.Read(sc.buf[len(sc.buf):want])
		sc.buf = sc.buf[:len(sc.buf)+k]
		switch {
		case errors.Is(err, io.EOF):
			sc.eof = true
		case err != nil:
			sc.err = fmt.Errorf("urlkit: reading text at offset %d: %w", sc.x.base+len(sc.buf), err)
			sc.eof = true
		case k == 0:
			if empty++; empty >= 100 {
				sc.err = fmt.Errorf("urlkit: reading text at offset %d: %w", sc.x.base+len(sc.buf), io.ErrNoProgress)
				sc.eof = true
			}
		}
	}
	sc.x.text = string(sc.buf)
}

// Match returns the URL found by the last call to Scan.
func (sc *Scanner) Match() Match { return sc.cur }

// Err returns the first error met while reading, or nil at a clean end of
// input.
func (sc *Scanner) Err() error { return sc.err }
