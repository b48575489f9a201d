// Package resolve holds the four readings of partial-form resolution that
// urlkit.Resolve, urlkit.Relative and urlkit.RemoveDotSegments offer: RFC
// 1630's rule as written, CERN libwww's practice, RFC 3986 and RFC 1808.
//
// It works on texts already split the generic way ([Parts]); it parses
// nothing, and checks only what a mode adds to the syntax: whether a
// reference with a colon is an absolute form ([AbsoluteForm]). The urlkit package keeps the API (the Mode
// type and its documentation, the errors and warnings), splits its URLs
// into Parts with the offsets its parser found, calls [Into] or
// [Candidates], and parses the result. Keeping the modes here leaves the
// core package with what a URL is, and lets the modes share their steps:
// the generic split, the merge of a relative path with the context's
// directory (RFC 3986 5.2.3), and the query and fragment a result takes
// from the reference or the context ([appendTail]).
package resolve

import "strings"

// Mode is one reading of partial-form resolution, numbered as urlkit.Mode
// numbers them.
type Mode uint8

// The modes; urlkit.Mode's documentation says what each does.
const (
	RFC1630 Mode = iota
	Libwww
	RFC3986
	RFC1808
)

// Opt is an optional component: its text, and whether it is present at
// all (an absent query and an empty one differ: "http://a/b" and
// "http://a/b?").
type Opt struct {
	Text string
	Has  bool
}

// appendTo appends sep and the text when the component is present.
func (o Opt) appendTo(b []byte, sep byte) []byte {
	if o.Has {
		b = append(b, sep)
		b = append(b, o.Text...)
	}
	return b
}

// or returns o when it is present, else p.
func (o Opt) or(p Opt) Opt {
	if o.Has {
		return o
	}
	return p
}

// Parts is a URL split the generic way of RFC 3986 appendix B: scheme,
// authority (after "//", up to the next "/"), path, query and fragment.
// Every field is a substring of Text.
type Parts struct {
	Text         string // the whole URL
	Scheme       string // without its ":"
	Auth         string // without its "//"
	Path         string
	Query, Frag  Opt // without their "?" and "#"
	HasScheme    bool
	HasAuth      bool
	SchemeEnd    int // the index just after "scheme:", or 0
	HierEnd      int // the index of the "?" or "#" ending the path, or len(Text)
	FragmentFrom int // the index of the fragment's "#", or len(Text)
}

// SplitAfterScheme fills the authority, path and query of p from Text,
// the generic way, for a URL whose parser found no login; Text,
// SchemeEnd and FragmentFrom must be set.
func SplitAfterScheme(p *Parts) {
	h := p.Text[p.SchemeEnd:p.FragmentFrom]
	if i := strings.IndexByte(h, '?'); i >= 0 {
		p.Query = Opt{h[i+1:], true}
		h = h[:i]
	}
	p.HierEnd = p.SchemeEnd + len(h)
	if len(h) >= 2 && h[0] == '/' && h[1] == '/' {
		p.HasAuth = true
		h = h[2:]
		i := strings.IndexByte(h, '/')
		if i < 0 {
			i = len(h)
		}
		p.Auth = h[:i]
		h = h[i:]
	}
	p.Path = h
}

// Direct says that a resolution's result is one of its inputs unchanged.
type Direct uint8

// The inputs a resolution can return unchanged.
const (
	Neither Direct = iota
	IsBase
	IsRef
)

// Into appends to b the text of ref resolved in the context of base by
// mode, or says with direct that the result is base or ref unchanged (and
// appends nothing). ok is false for a mode that does not exist.
func Into(b []byte, base, ref *Parts, mode Mode) (out []byte, direct Direct, ok bool) {
	switch mode {
	case RFC1630:
		b, direct = rfc1630(b, base, ref)
	case Libwww:
		b, direct = libwww(b, base, ref)
	case RFC3986:
		b = rfc3986(b, base, ref)
	case RFC1808:
		b, direct = rfc1808(b, base, ref)
	default:
		return b, Neither, false
	}
	return b, direct, true
}

// appendSchemeAuth appends the scheme of s and the authority of a, each
// when present.
func appendSchemeAuth(b []byte, s, a *Parts) []byte { return appendAuth(appendScheme(b, s), a) }

func appendScheme(b []byte, p *Parts) []byte {
	if p.HasScheme {
		b = append(b, p.Scheme...)
		b = append(b, ':')
	}
	return b
}

func appendAuth(b []byte, p *Parts) []byte {
	if p.HasAuth {
		b = append(b, '/', '/')
		b = append(b, p.Auth...)
	}
	return b
}

// appendTail appends a result's query and fragment: each mode decides
// which input each comes from.
func appendTail(b []byte, query, frag Opt) []byte {
	return frag.appendTo(query.appendTo(b, '?'), '#')
}

// appendMerged appends the merge of RFC 3986 5.2.3 (RFC 1808 step 6 and
// libwww alike): the context's path bpath up to and including its last
// "/", or "/" for a context with an authority and an empty path, followed
// by the reference's path rpath.
func appendMerged(b []byte, B *Parts, bpath, rpath string) []byte {
	if B.HasAuth && bpath == "" {
		b = append(b, '/')
	} else {
		b = append(b, bpath[:strings.LastIndexByte(bpath, '/')+1]...)
	}
	return append(b, rpath...)
}

// rfc3986 is RFC 3986 section 5.2.2 (strict) with 5.2.3 merge and 5.3
// recomposition.
func rfc3986(b []byte, B, R *Parts) []byte {
	var ps int
	switch {
	case R.HasScheme:
		b = appendSchemeAuth(b, R, R)
		ps = len(b)
		b = append(b, R.Path...)
	case R.HasAuth:
		b = appendSchemeAuth(b, B, R)
		ps = len(b)
		b = append(b, R.Path...)
	case R.Path == "":
		b = appendSchemeAuth(b, B, B)
		b = append(b, B.Path...)
		return appendTail(b, R.Query.or(B.Query), R.Frag)
	case R.Path[0] == '/':
		b = appendSchemeAuth(b, B, B)
		ps = len(b)
		b = append(b, R.Path...)
	default:
		b = appendSchemeAuth(b, B, B)
		ps = len(b)
		b = appendMerged(b, B, B.Path, R.Path)
	}
	b = b[:ps+dots3986(b[ps:])]
	return appendTail(b, R.Query, R.Frag)
}

// libwww follows libwww's practice; see urlkit.ModeLibwww.
func libwww(b []byte, B, R *Parts) ([]byte, Direct) {
	if R.HasScheme {
		// HTParse compared scheme names exactly (strcmp): HTTP:g in an
		// http context is absolute.
		if !B.HasScheme || R.Scheme != B.Scheme || R.HasAuth {
			// HTParse gives an empty path the path "/": after a host
			// (http://v gives http://v/, http://?y gives http:///?y),
			// and when nothing follows the scheme at all (https: gives
			// https:/).
			if R.Path != "" || (!R.HasAuth && R.Query.Has) {
				return b, IsRef
			}
			b = appendSchemeAuth(b, R, R)
			b = append(b, '/')
			return appendTail(b, R.Query, R.Frag), Neither
		}
		// Same scheme, no "//": read the rest as a partial form.
	}
	switch {
	case R.HasAuth:
		b = appendSchemeAuth(b, B, R)
		b = append(b, R.Path...)
		if R.Path == "" {
			b = append(b, '/') // HTParse: a host with no path gets "/"
		}
		return appendTail(b, R.Query, R.Frag), Neither
	case R.Path != "" && R.Path[0] == '/':
		b = appendSchemeAuth(b, B, B)
		b = append(b, R.Path...)
		return appendTail(b, R.Query, R.Frag), Neither
	case R.Path == "" && !R.Query.Has:
		hostOnly := B.HasAuth && B.Path == ""
		if !R.Frag.Has && !hostOnly {
			return b, IsBase
		}
		b = append(b, B.Text[:B.HierEnd]...)
		if hostOnly {
			b = append(b, '/')
		}
		// The empty reference keeps the context's fragment.
		return appendTail(b, B.Query, R.Frag.or(B.Frag)), Neither
	}
	b = appendSchemeAuth(b, B, B)
	ps := len(b)
	b = appendMerged(b, B, B.Path, R.Path)
	b = b[:ps+dotsLibwww(b[ps:])]
	return appendTail(b, R.Query, R.Frag), Neither
}

// cutParams splits an RFC 1808 path at its first ";" into path and params.
func cutParams(p string) (path string, params Opt) {
	if i := strings.IndexByte(p, ';'); i >= 0 {
		return p[:i], Opt{p[i+1:], true}
	}
	return p, Opt{}
}

// rfc1808 is RFC 1808 section 4, steps 1 to 7.
func rfc1808(b []byte, B, R *Parts) ([]byte, Direct) {
	if len(R.Text) == 0 { // step 2a
		return b, IsBase
	}
	if R.HasScheme { // step 2b
		return b, IsRef
	}
	b = appendScheme(b, B) // step 2c
	if R.HasAuth {         // step 3
		return append(b, R.Text...), Neither
	}
	b = appendAuth(b, B)
	if R.Path != "" && R.Path[0] == '/' { // step 4
		return append(b, R.Text...), Neither
	}
	rp, rparams := cutParams(R.Path)
	bp, bparams := cutParams(B.Path)
	if rp == "" { // step 5
		b = append(b, bp...)
		if rparams.Text != "" {
			b = rparams.appendTo(b, ';')
			return appendTail(b, R.Query, R.Frag), Neither
		}
		b = bparams.appendTo(b, ';')
		query := B.Query
		if R.Query.Text != "" {
			query = R.Query
		}
		return appendTail(b, query, R.Frag), Neither
	}
	ps := len(b) // step 6
	b = appendMerged(b, B, bp, rp)
	b = b[:ps+dotsKeep(b[ps:])]
	b = rparams.appendTo(b, ';')
	return appendTail(b, R.Query, R.Frag), Neither // step 7
}

// rfc1630 is the rule of RFC 1630 as written; see urlkit.ModeRFC1630.
func rfc1630(b []byte, B, R *Parts) ([]byte, Direct) {
	if R.HasScheme {
		return b, IsRef
	}
	if R.Path == "" && !R.Query.Has && !R.HasAuth { // "" or "#s"
		if !R.Frag.Has && !B.Frag.Has {
			return b, IsBase
		}
		b = append(b, B.Text[:B.FragmentFrom]...)
		return appendTail(b, Opt{}, R.Frag), Neither
	}
	ctx := B.Text[:B.HierEnd]
	start := len(b) + B.SchemeEnd
	if n := leadingSlashes(R.Text); n > 0 {
		cut := findRun(ctx, B.SchemeEnd, n)
		if cut < 0 {
			cut = len(ctx)
		}
		b = append(b, ctx[:cut]...)
		return append(b, R.Text...), Neither
	}
	dir, slash := contextDir(B)
	b = append(b, dir...)
	if slash {
		b = append(b, '/')
	}
	b = append(b, R.Path...)
	b = b[:start+dots1630(b[start:])]
	return appendTail(b, R.Query, R.Frag), Neither
}

// contextDir returns what RFC 1630's rule keeps of the context B for a
// reference that does not start with "/": the context up to and including
// the last "/" of its scheme-specific part (up to the scheme's ":" when it
// has none), or the whole context when it is "//" and a host alone, which
// then needs a "/" after it (slash), since RFC 1738 3.1 lets an empty
// url-path be written without its "/".
func contextDir(B *Parts) (dir string, slash bool) {
	ctx := B.Text[:B.HierEnd]
	sp := ctx[B.SchemeEnd:]
	if len(sp) >= 2 && sp[0] == '/' && sp[1] == '/' && strings.IndexByte(sp[2:], '/') < 0 {
		return ctx, true
	}
	return ctx[:B.SchemeEnd+strings.LastIndexByte(sp, '/')+1], false
}

func leadingSlashes(s string) int {
	n := 0
	for n < len(s) && s[n] == '/' {
		n++
	}
	return n
}

// findRun returns the index in ctx (searching from from) of the first run
// of exactly n slashes that has no longer run of slashes to its right, or
// -1.
func findRun(ctx string, from, n int) int {
	cand := -1
	for i := from; i < len(ctx); {
		if ctx[i] != '/' {
			i++
			continue
		}
		j := i
		for j < len(ctx) && ctx[j] == '/' {
			j++
		}
		switch l := j - i; {
		case l > n:
			cand = -1
		case l == n && cand < 0:
			cand = i
		}
		i = j
	}
	return cand
}
