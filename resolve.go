package urlkit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urlkit/urlkit/internal/resolve"
	"github.com/urlkit/urlkit/internal/schemes"
)

// Mode says which reading of partial-form resolution [Resolve], [Relative]
// and [RemoveDotSegments] follow. The zero Mode is [ModeRFC1630].
//
// The readings differ on three points: what a reference starting with
// slashes keeps of the context, how "." and ".." are simplified, and what
// "?y", ";x" and an empty reference mean. The table of
// examples in RFC 1630 itself disagrees with the rule printed above it on
// one row: in the context magic://a/b/c//d/e/f it gives /g as
// magic://a/g, while the rule (keep everything up to the first run of
// exactly one slash that has no longer run to its right) gives
// magic://a/b/c//d/g. [ModeRFC1630] follows the rule, [ModeLibwww] follows
// the examples; the RFC's author later wrote that the examples contain an
// error and that the rule gives runs like "///" their own level.
type Mode uint8

const (
	// ModeRFC1630 is the rule of RFC 1630 "Partial (relative) form" as
	// written:
	//
	//   - A reference is absolute when it has a colon before any slash; it
	//     is used as it is.
	//   - A reference that starts with n slashes keeps everything of the
	//     context (without its search part and fragment) up to, not
	//     including, the first run of exactly n slashes that has no longer
	//     run anywhere to its right, and is appended. When the context has
	//     no such run, the whole context is kept: the reference is taken
	//     to name a part below the last section of the context (so
	//     magic://a/b//c + /g gives magic://a/b//c/g, and news:a@b + /g
	//     gives news:a@b/g).
	//   - Any other reference replaces the last part of the context's path
	//     (after its rightmost slash; a trailing slash means a void last
	//     part; a context without a slash after its scheme loses its whole
	//     scheme-specific part, so news:a@b + c@d gives news:c@d). The
	//     context http://a is taken as http://a/, since RFC 1738 3.1 lets
	//     an empty url-path be written without its "/". Then "xxx/../" and
	//     "/." are removed recursively (see [RemoveDotSegments]). "?y" is
	//     such a reference: it keeps the context's directory, giving
	//     http://a/b/c/?y in the context http://a/b/c/d.
	//   - A reference that is empty or only a fragment ("#s") names the
	//     context document: the result is the context without its
	//     fragment, followed by the reference's fragment. RFC 1630 does
	//     not say this; its rule applied to an empty string would give the
	//     context's directory, which no reader of "#s" means.
	//
	// In this mode, of RFC 1630's ten printed examples, /g gives
	// magic://a/b/c//d/g instead of the printed magic://a/g, for both
	// contexts.
	ModeRFC1630 Mode = iota
	// ModeLibwww is the practice of the reference implementation of
	// 1993-94, CERN libwww's HTParse (the libwww 2.14 line that lynx is
	// built on), and of the browsers after it: "//" only marks the host,
	// "/path" keeps the scheme and host, any other path (and "?y" and
	// ";x") replaces the last segment of the context's path, and dot
	// segments of such a merged path are simplified as RFC 1808 step 6
	// says: a ".." that would climb above the root stays, and so does an
	// "xxx/.." directly after "//" (HTParse's HTSimplify took the element
	// after "//" as the start of a section). A reference "#s" keeps the
	// whole context with its fragment replaced; an empty reference is the
	// whole context. A reference with the context's own scheme, spelled
	// exactly the same (HTParse compared scheme names with strcmp), and
	// no "//" is read as partial (http:g is http://a/b/c/g), as RFC 3986
	// section 5.2.2 allows "for backward compatibility"; HTTP:g in an
	// http context is absolute. A result whose path is empty gets the
	// path "/", as HTParse wrote it: //g gives magic://g/, http://v gives
	// http://v/, https: gives https:/. A colon before any "/", "?", "#"
	// or ";" makes a reference absolute, as in HTParse's scan.
	//
	// This mode gives nine of the ten printed RFC 1630 examples (the
	// tenth, //g, is printed without the "/" HTParse adds) and the
	// results of RFC 2396 appendix C. It differs from HTParse on purpose
	// where HTParse was careless or where RFC 1738 decides (each checked
	// against lynx, see CONFORMANCE.md):
	//
	//   - a scheme name HTParse would take ("a_b:y") that is not an RFC
	//     1738 scheme name is an error, never a URL;
	//   - the search part of a host-only reference (//g?y/../x) is not a
	//     path: HTParse wrote it without "/" before "?" and simplified its
	//     dot segments; urlkit gives magic://g/?y/../x;
	//   - an empty reference keeps the context's fragment (HTParse never
	//     carried a fragment over); a fragment names a part of the same
	//     document, which the empty reference names whole;
	//   - "//h" naming the context's own host replaces the whole path
	//     (HTParse kept the context's path when the host was the same);
	//   - default ports and a trailing "." of a host name are kept as
	//     written (HTParse dropped them);
	//   - what lynx added later is not followed: RFC 3986 dot removal in
	//     lynx 2.9's HTSimplify, //localhost filled into a context without
	//     a host, and "http:" alone read as the context's directory.
	ModeLibwww
	// ModeRFC3986 is RFC 3986 section 5.2 exactly, with a strict parser
	// (http:g is absolute): "?y" keeps the context's path, dot segments
	// are removed from every result path, "." and ".." never climb above
	// the root, and an empty reference is the context without its
	// fragment.
	ModeRFC3986
	// ModeRFC1808 is RFC 1808 section 4 (June 1995): like ModeRFC3986 for
	// "?y" and ";x" (which keep the context's path, ";x" replacing its
	// parameters) but dot segments are simplified only in a merged
	// relative path, a ".." that would climb above the root stays, and an
	// empty reference is the whole context, fragment included.
	ModeRFC1808
)

var modeNames = [...]string{"rfc1630", "libwww", "rfc3986", "rfc1808"}

// ErrUnknownMode is wrapped by the errors about a [Mode] that does not exist.
var ErrUnknownMode = errors.New("unknown resolution mode")

// ErrUnreachable is wrapped by the error [Relative] returns when no
// reference resolves to the target in the context of the base under the
// given mode (for example a target whose dot segments RFC 3986 would
// remove).
var ErrUnreachable = errors.New("no reference resolves to the target")

// Modes returns every resolution mode, the default first.
func Modes() []Mode { return []Mode{ModeRFC1630, ModeLibwww, ModeRFC3986, ModeRFC1808} }

// String returns the mode's name as used by the command line: "rfc1630",
// "libwww", "rfc3986" or "rfc1808".
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// ParseMode returns the mode with the given name, in any case.
func ParseMode(name string) (Mode, error) {
	for i, n := range modeNames {
		if strings.EqualFold(n, name) {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("urlkit: %w %q (want one of %s)", ErrUnknownMode, name, strings.Join(modeNames[:], ", "))
}

// MarshalText implements encoding.TextMarshaler.
func (m Mode) MarshalText() ([]byte, error) {
	if int(m) >= len(modeNames) {
		return nil, fmt.Errorf("urlkit: %w %d", ErrUnknownMode, uint8(m))
	}
	return []byte(m.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with [ParseMode]. With
// it a Mode can be a command-line flag through [flag.TextVar].
func (m *Mode) UnmarshalText(text []byte) error {
	v, err := ParseMode(string(text))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

func (m Mode) valid() bool { return int(m) < len(modeNames) }

// A ResolveError reports why [Resolve], [ResolveString] or [Relative]
// failed. Err is a *[SyntaxError] about the input or result named by Part,
// whose Offset is a byte offset in that text, or wraps [ErrUnknownMode] or
// [ErrUnreachable].
type ResolveError struct {
	Op     string // "resolve" or "relative"
	Mode   Mode
	Base   string // the context URL
	Ref    string // the reference (for Op "relative", the target)
	Part   string // what Err is about: "base", "reference", "target", "result" or "" for the call as a whole
	Result string // for Part "result", the text that is not a URL
	Err    error
}

// Error returns a message that names the operation, the inputs and the
// part at fault, followed by the underlying error, such as
//
//	resolve "//" against "http://a/b" (rfc3986): result "http://": offset 7 in host: missing host: ...
func (e *ResolveError) Error() string {
	var b strings.Builder
	b.WriteString(e.Op)
	if e.Op == "relative" {
		fmt.Fprintf(&b, " %q to %q (%s): ", e.Ref, e.Base, e.Mode)
	} else {
		fmt.Fprintf(&b, " %q against %q (%s): ", e.Ref, e.Base, e.Mode)
	}
	switch e.Part {
	case "":
	case "result":
		fmt.Fprintf(&b, "result %q: ", e.Result)
	default:
		b.WriteString(e.Part)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ResolveError) Unwrap() error { return e.Err }

// ParseGeneric parses s as [ParseRef] does, but reads every scheme by the
// generic syntax of RFC 1738 section 5 (genericurl: a scheme name, ":" and
// either an ip-schemepart or *xchar) and RFC 1630's BNF, ignoring the rules
// a known scheme adds, such as the "//" and host of http. It accepts
// http:///s//a/b/c, which [ParseRef] rejects, as a scheme and the opaque
// part ///s//a/b/c. Resolution needs only this syntax; see [ResolveWarning].
func ParseGeneric(s string) (URL, error) { return parseGeneric(s, 0) }

// A SchemeFinding is a rule of a URL's scheme that a text breaks while it
// is still a generic URL (see [ParseGeneric]).
type SchemeFinding struct {
	Part string // "base", "reference" or "result"
	Text string // the text that breaks the rule
	Err  error  // the strict parser's error about Text: a *SyntaxError with the offset in Text
}

// String returns the finding as "base \"http:///s\": offset ...".
func (f SchemeFinding) String() string {
	return fmt.Sprintf("%s %q: %v", f.Part, f.Text, f.Err)
}

// A ResolveWarning is the error [Resolve] and [ResolveString] return
// together with a usable result when the resolution worked on the generic
// syntax but the base, the reference or the result breaks the rules of its
// own scheme. RFC 1630's partial form is textual: it relies only on "/",
// "." and ".." (section "Partial (relative) form"), so such inputs resolve
// in every mode, and the scheme's complaint is a warning, not a failure.
//
// A caller that treats every non-nil error as a failure stays strict; one
// that accepts warnings tests for this type with [errors.As] (or
// [IsResolveWarning]) and uses the returned URL, which is the result parsed
// with [ParseGeneric].
type ResolveWarning struct {
	// Op is "relative" for a warning of Relative's callers; "" (shown as
	// "resolve") for resolution.
	Op       string
	Mode     Mode
	Base     string // the context URL
	Ref      string // the reference (for relative, the target)
	Result   string // the result, which the call also returns
	Findings []SchemeFinding
}

// Error returns a message naming the call and each finding, such as
//
//	resolve "g" against "http:///s//a/b/c" (rfc1630): warning: base "http:///s//a/b/c": offset 7 in host: missing host: ...
func (w *ResolveWarning) Error() string {
	var b strings.Builder
	op := w.Op
	if op == "" {
		op = "resolve"
	}
	fmt.Fprintf(&b, "%s %q against %q (%s): warning: ", op, w.Ref, w.Base, w.Mode)
	for i, f := range w.Findings {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(f.String())
	}
	return b.String()
}

// IsResolveWarning reports whether err is a *[ResolveWarning]: the
// resolution succeeded, and the URL returned with err is the result.
func IsResolveWarning(err error) bool {
	var w *ResolveWarning
	return errors.As(err, &w)
}

// parseInput parses a base or reference strictly and, when that fails,
// on the generic syntax, recording the strict parser's complaint as a
// finding. The error is the generic parser's.
func parseInput(s, part string, parse func(string) (URL, error), findings *[]SchemeFinding) (URL, error) {
	u, err := parse(s)
	if err == nil {
		return u, nil
	}
	g, gerr := ParseGeneric(s)
	if gerr != nil {
		return URL{}, gerr
	}
	*findings = append(*findings, SchemeFinding{Part: part, Text: s, Err: err})
	return g, nil
}

// ResolveString parses base and ref and resolves ref in the context of
// base with [Resolve]. Each input need only be a generic URL (see
// [ParseGeneric]); an input that breaks its scheme's own rules is resolved
// all the same, and the call returns the result with a *[ResolveWarning]
// listing what the scheme rules say. An input that is not even a generic
// URL is an error: a *[ResolveError] whose Part says which input it is
// in, wrapping the *[SyntaxError] with the byte offset in that input.
//
// In [ModeRFC1630] and [ModeLibwww], a reference with a colon before any
// "/" (or "?" or "#") is an absolute form (RFC 1630); when the text
// before that colon is not a scheme name, that is an error with its
// offset, never a partial form; in [ModeRFC3986] it is an error too (RFC
// 3986 4.2: no colon in the first segment of a relative-path reference),
// while [ModeRFC1808] reads it as a relative path (RFC 1808 2.4.2). In
// [ModeLibwww] a reference that repeats
// base's scheme, in the same case, without "//" (http:g) is read as the
// partial form after the scheme, as HTParse did.
func ResolveString(base, ref string, mode Mode) (URL, error) {
	return ResolveStringWith(base, ref, mode, ParseRef)
}

// ResolveStringWith is [ResolveString] with base and ref read by parse
// instead of [ParseRef]: [ParseRefExtended] for IPv6 hosts, or the lenient
// reading (package lenient, whose repairs the caller's parse function
// records). An operand that parse refuses is read by [ParseGeneric] with
// parse's refusal as a finding, as ResolveString does.
func ResolveStringWith(base, ref string, mode Mode, parse func(string) (URL, error)) (URL, error) {
	var findings []SchemeFinding
	b, err := parseInput(base, "base", parse, &findings)
	if err != nil {
		return URL{}, &ResolveError{Op: "resolve", Mode: mode, Base: base, Ref: ref, Part: "base", Err: err}
	}
	var r URL
	if n := len(b.RawScheme()) + 1; mode == ModeLibwww && b.IsAbsolute() && len(ref) >= n &&
		ref[:n] == b.s[:n] && !strings.HasPrefix(ref[n:], "//") {
		// libwww reads "http:g" in an http context as the partial form "g".
		r, err = parseInput(ref[n:], "reference", parse, &findings)
	} else {
		r, err = parseInput(ref, "reference", parse, &findings)
	}
	if err != nil {
		return URL{}, &ResolveError{Op: "resolve", Mode: mode, Base: base, Ref: ref, Part: "reference", Err: err}
	}
	u, err := Resolve(b, r, mode)
	var w *ResolveWarning
	switch {
	case err == nil && findings == nil:
		return u, nil
	case err == nil:
		w = &ResolveWarning{Mode: mode, Base: base, Ref: ref, Result: u.s}
	case errors.As(err, &w):
		w.Base, w.Ref = base, ref
	default:
		if re, ok := err.(*ResolveError); ok {
			re.Base, re.Ref = base, ref
		}
		return URL{}, err
	}
	w.Findings = append(findings, w.Findings...)
	return u, w
}

// Resolve expands the partial (relative) URL ref in the context of base,
// by the rules of mode (see [Mode]), and returns the full URL. An absolute
// ref is returned as it is, except that [ModeRFC3986] removes its dot
// segments and [ModeLibwww] reads it as partial when its scheme is base's
// (compared exactly, as HTParse did) and it has no "//". The base may
// itself be partial; the result then is too. base and ref may come from
// [ParseRef] or [ParseGeneric]: resolution uses only the generic syntax.
//
// In [ModeRFC1630] and [ModeLibwww] a partial ref with a colon before any
// "/" is an error (see [ResolveString]); so it is in [ModeRFC3986], where
// RFC 3986 4.2 allows no colon in the first segment of a relative path.
//
// The result is parsed with [ParseRef]'s strict rules. When it breaks only
// its scheme's rules (http://a/b with the reference "//" gives "http://",
// which has no host), Resolve returns it, parsed with [ParseGeneric],
// together with a *[ResolveWarning]. When it is not even a generic URL,
// the error is a *[ResolveError] with Part "result", wrapping the
// *[SyntaxError] positioned in that text. A result that is base or ref
// unchanged is returned as given, without a finding.
//
// Resolve allocates once, for the result's text, and not at all when the
// result is base or ref.
func Resolve(base, ref URL, mode Mode) (URL, error) {
	var arr [192]byte
	var u URL
	ext := (base.flags | ref.flags) & extSyntax
	if !ref.IsAbsolute() {
		if off, inScheme, detail := resolve.AbsoluteForm(ref.s, resolve.Mode(mode)); detail != "" {
			e := &SyntaxError{Input: ref.s, Offset: off, Component: ComponentPath, Err: ErrBadChar, Detail: detail}
			if inScheme {
				e.Component, e.Err = ComponentScheme, ErrBadScheme
			}
			return URL{}, &ResolveError{Op: "resolve", Mode: mode, Base: base.s, Ref: ref.s, Part: "reference", Err: e}
		}
	}
	b, direct, ok := resolveInto(arr[:0], &base, &ref, mode)
	if !ok {
		return URL{}, &ResolveError{Op: "resolve", Mode: mode, Base: base.s, Ref: ref.s,
			Err: fmt.Errorf("urlkit: %w %d", ErrUnknownMode, uint8(mode))}
	}
	switch {
	case direct == resolve.IsBase:
		u = base
	case direct == resolve.IsRef:
		u = ref
	case string(b) == ref.s:
		u = ref
	case string(b) == base.s:
		u = base
	case !withBaseAuthority(&u, b, &base):
		s := string(b)
		v, err := parseRefAs(s, ext)
		if err != nil {
			g, gerr := parseGeneric(s, ext)
			if gerr != nil {
				return URL{}, &ResolveError{Op: "resolve", Mode: mode, Base: base.s, Ref: ref.s, Part: "result", Result: s, Err: gerr}
			}
			return g, &ResolveWarning{Mode: mode, Base: base.s, Ref: ref.s, Result: s,
				Findings: []SchemeFinding{{Part: "result", Text: s, Err: err}}}
		}
		return v, nil
	}
	u.prefix = 0
	u.flags |= ext
	return u, nil
}

// withBaseAuthority sets *u to the URL for the text b without parsing it
// again when b starts with base's scheme and authority, which base's parse
// has already checked, followed by what ParseRef would accept after a
// login: nothing, or "/" or "#" and characters that come from
// already-checked paths, search parts and fragments (dot-segment removal
// removes whole segments, so an escape is never split). It returns false
// when that is not so, and the caller parses b. TestResolveFastPath and
// FuzzResolve check that the URL equals what ParseRef gives for its text.
func withBaseAuthority(u *URL, b []byte, base *URL) bool {
	const need = hasScheme | hasAuthority
	if base.flags&need != need || schemes.SyntaxOf(base.RawScheme()) == schemes.Opaque {
		return false
	}
	ae := base.host.end
	if base.flags&hasPort != 0 {
		ae = base.port.end
	}
	a := int(ae)
	if len(b) < a || (len(b) > a && b[a] != '/' && b[a] != '#') || string(b[:a]) != base.s[:a] || hasURLPrefix(base.s) {
		return false
	}
	// "#" is not an xchar: the first one ends the path or search part;
	// the first "?" before it starts the search part.
	end, q := len(b), -1
	for i := a; i < len(b); i++ {
		if c := b[i]; c == '#' {
			end = i
			break
		} else if c == '?' && q < 0 {
			q = i
		}
	}
	n := int32(len(b))
	*u = URL{s: string(b), flags: base.flags & (hasScheme | hasAuthority | hasUser | hasPassword | hasPort | hostLiteral | extSyntax),
		scheme: base.scheme, user: base.user, pass: base.pass, host: base.host, port: base.port,
		frag: span{n, n}}
	if end < len(b) {
		u.flags |= hasFragment
		u.frag.start = int32(end + 1)
	}
	e := int32(end)
	if a == end {
		u.path = span{e, e}
		u.search = u.path
		return true
	}
	u.flags |= hasPath
	if q >= 0 {
		u.flags |= hasSearch
		u.search = span{int32(q + 1), e}
	} else {
		q = end
		u.search = span{e, e}
	}
	u.path = span{ae, int32(q)}
	return true
}

// resolveInto appends the resolved text to b. When the result is base or
// ref unchanged, it says which instead. ok is false for an unknown mode.
func resolveInto(b []byte, base, ref *URL, mode Mode) (out []byte, direct resolve.Direct, ok bool) {
	var B, R resolve.Parts
	splitRefInto(base, &B)
	splitRefInto(ref, &R)
	return resolve.Into(b, &B, &R, resolve.Mode(mode))
}

// splitRefInto fills the zero Parts p with the parts of u, split the
// generic way of RFC 3986 appendix B, with the login the parser found.
func splitRefInto(u *URL, p *resolve.Parts) {
	s := u.s
	p.Text = s
	if u.flags&hasScheme != 0 {
		p.HasScheme = true
		p.Scheme = s[:u.scheme.end]
		p.SchemeEnd = int(u.scheme.end) + 1
	}
	p.FragmentFrom = len(s)
	if u.flags&hasFragment != 0 {
		p.Frag = resolve.Opt{Text: s[u.frag.start:], Has: true}
		p.FragmentFrom = int(u.frag.start) - 1
	}
	if u.flags&hasAuthority == 0 {
		resolve.SplitAfterScheme(p)
		return
	}
	// The parser found the login: use its spans (a "?" may be part of a
	// user name, where a split by the text alone would start the query).
	p.HasAuth = true
	p.Auth = s[p.SchemeEnd+2 : u.path.start]
	p.Path = u.path.of(s)
	p.HierEnd = int(u.path.end)
	if u.flags&hasSearch != 0 {
		p.Query = resolve.Opt{Text: u.search.of(s), Has: true}
	}
}

// RemoveDotSegments simplifies the "." and ".." segments of a path the way
// mode does when it resolves a partial form:
//
//   - [ModeRFC3986]: the remove_dot_segments algorithm of RFC 3986 section
//     5.2.4; "." and ".." never remain, and ".." at the root is dropped
//     ("/../g" gives "/g").
//   - [ModeRFC1808] and [ModeLibwww]: RFC 1808 section 4 step 6: "."
//     segments are removed, a trailing "." leaves the directory ("a/."
//     gives "a/"), "seg/.." pairs are removed leftmost first, and a ".."
//     with nothing left to cancel stays ("/../g" gives "/../g").
//   - [ModeRFC1630]: RFC 1630's words, applied until nothing changes,
//     leftmost first: "xxx/../" is removed where xxx and ".." are complete
//     path elements (xxx neither "." nor ".."), a "xxx/.." at the end
//     likewise (leaving the "/" before xxx), and "/." is removed where "."
//     is a complete element, so "a/." gives "a" and "a/./b" gives "a/b".
//     An element that directly follows a run of two or more slashes
//     starts a section (like the host after "//") and is never removed:
//     "//s//a/../g" stays as it is.
//
// The search part and fragment are not paths; pass only the path. An
// unknown mode leaves the path as it is.
func RemoveDotSegments(path string, mode Mode) string {
	if !mode.valid() {
		return path
	}
	b := []byte(path)
	n := resolve.Dots(b, resolve.Mode(mode))
	if n == len(path) {
		return path
	}
	return string(b[:n])
}
