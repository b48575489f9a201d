package rfcbnf

import (
	"strings"
)

// Extensions are the rules urlkit reads beyond RFC 1738 section 5, each from
// another document and each a documented divergence from section 5 alone
// (docs/strictness.md, "Deliberate strictness and divergences"; internal/testkit/rfcbnf's
// Divergences).
var Extensions = []Extension{
	{"RFC 1630 (fragment identifiers): a URL may be followed by \"#\" and a fragment; RFC 1738 2.2 makes \"#\" unsafe, so the fragment is read as *xchar",
		`fragment = *xchar`},
	{"RFC 2818 2.4: https URLs are http URLs with the scheme \"https\" (port 443)",
		`httpsurl = "https://" hostport [ "/" hpath [ "?" search ]]`},
	{"RFC 1738 5: schemepart's first alternative, for the schemes whose rule has no \"//\" (mailto, news)",
		`opaque-schemepart = *xchar`},
	{"RFC 1738 5 fileurl: the host of a file URL may be empty (\"file:///path\"), which ip-schemepart's login does not allow; the generic reading of a file URL keeps ip-schemepart's user, password, port and path otherwise (fileurl itself, for the scheme layer, has none of them but the path)",
		`file-schemepart = "//" [ user [ ":" password ] "@" ] [ hostport ] [ "/" urlpath ]`},
	{"RFC 1630 partial form, RFC 1808 2.2: a reference with no scheme; one starting with \"//\" names a login (net_path), any other is a path, search and fragment of xchar as in an absolute URL",
		`partial = "//" login [ "/" urlpath ] | "/" [ partial-first *xchar ] | [ partial-first *xchar ]
partial-first = unreserved | escape | ";" | "?" | ":" | "@" | "&" | "="`},
}

// LoadURL reads RFC 1738's text at path with [Extensions].
func LoadURL(path string) (*Grammar, error) { return Load(path, Extensions...) }

// A Verdict is the recognizer's answer for a whole URL.
type Verdict struct {
	Result         // offsets in the input as given
	Scheme  string // the scheme, lower-cased; "" when the input has none
	Against string // the rule the input was matched against
}

// scheme returns the input's scheme name (lower-cased, as RFC 1738 5's
// comment "interpreters should use case-ignore" allows) and the offset of
// its ":", or -1 when the input does not start with scheme ":".
// caseIgnore lower-cases the letters s starts with up to its first byte
// that cannot be in a scheme name, so that an input with an upper-case
// scheme and no ":" is refused where a lower-case one would be.
func caseIgnore(s string) string {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9' || s[i] == '+' || s[i] == '-' || s[i] == '.') {
		i++
	}
	return strings.ToLower(s[:i]) + s[i:]
}

func (g *Grammar) scheme(s string) (string, int) {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return "", -1
	}
	name := strings.ToLower(s[:i])
	if !g.Match("scheme", name).OK {
		return "", -1
	}
	return name, i
}

// Full matches s against its scheme's own rule of RFC 1738 5 (httpurl,
// ftpurl..., with the extensions' httpsurl), or otherurl for any other
// scheme, followed by an optional "#" fragment.
func (g *Grammar) Full(s string) Verdict {
	name, i := g.scheme(s)
	rule := "otherurl"
	if name != "" && g.Has(name+"url") {
		rule = name + "url"
	}
	if i < 0 {
		return Verdict{Result: g.Match("genericurl", caseIgnore(s)), Against: "genericurl"}
	}
	return g.withFragment(s, name, i, rule, 0)
}

// IPSchemes returns the schemes whose rule in the grammar starts with the
// literal "<scheme>://" (RFC 1738 5's ip-based schemes, and https).
func (g *Grammar) IPSchemes() []string {
	var out []string
	for _, n := range g.Order {
		if !strings.HasSuffix(n, "url") {
			continue
		}
		name := strings.TrimSuffix(n, "url")
		if first := firstLiteral(g, g.Rules[n].Expr); strings.HasPrefix(first, name+"://") {
			out = append(out, name)
		}
	}
	return out
}

// firstLiteral returns the literal a rule's every string starts with, as
// far as the first element of each alternative says (waisurl's three
// alternatives all start with "wais://").
func firstLiteral(g *Grammar, e *Expr) string {
	switch e.Kind {
	case kLit:
		return e.Lit
	case kSeq:
		return firstLiteral(g, e.Sub[0])
	case kRef:
		return firstLiteral(g, g.Rules[e.Name].Expr)
	case kAlt:
		first := firstLiteral(g, e.Sub[0])
		for _, s := range e.Sub[1:] {
			if firstLiteral(g, s) != first {
				return ""
			}
		}
		return first
	}
	return ""
}

// Core matches s against the generic syntax urlkit.Parse checks: scheme
// ":" then, for an ip-based scheme of RFC 1738 5 (and https), ip-schemepart
// (file: file-schemepart, its host optional); for a scheme whose rule has
// no "//" (mailto, news), *xchar; for any other scheme, schemepart (either
// form); then an optional "#" fragment.
func (g *Grammar) Core(s string) Verdict {
	name, i := g.scheme(s)
	if i < 0 {
		return Verdict{Result: g.Match("genericurl", caseIgnore(s)), Against: "genericurl"}
	}
	rule := "schemepart"
	switch {
	case name == "file":
		rule = "file-schemepart"
	case g.isIP(name):
		rule = "ip-schemepart"
	case g.Has(name + "url"):
		rule = "opaque-schemepart"
	}
	return g.withFragment(s, name, i, rule, i+1)
}

// Generic matches s against genericurl, every scheme read by the generic
// syntax (schemepart = *xchar | ip-schemepart), then an optional fragment.
func (g *Grammar) Generic(s string) Verdict {
	name, i := g.scheme(s)
	if i < 0 {
		return Verdict{Result: g.Match("genericurl", caseIgnore(s)), Against: "genericurl"}
	}
	return g.withFragment(s, name, i, "schemepart", i+1)
}

// Partial matches s as a URL or a partial form: an input that starts
// with scheme ":" by [Core], any other by the partial rule (RFC 1630,
// RFC 1808 2.2) and an optional fragment.
func (g *Grammar) Partial(s string) Verdict {
	if _, i := g.scheme(s); i >= 0 {
		return g.Core(s)
	}
	return g.partial(s)
}

// PartialGeneric is [Partial] with an absolute input read by [Generic].
func (g *Grammar) PartialGeneric(s string) Verdict {
	if _, i := g.scheme(s); i >= 0 {
		return g.Generic(s)
	}
	return g.partial(s)
}

func (g *Grammar) partial(s string) Verdict {
	main, frag, hasFrag := strings.Cut(s, "#")
	return g.matchFragment(main, 0, frag, hasFrag, Verdict{Against: "partial"})
}

func (g *Grammar) isIP(name string) bool {
	for _, n := range g.IPSchemes() {
		if n == name {
			return true
		}
	}
	return false
}

// withFragment matches s[from:] (up to a "#") against rule, the scheme
// lower-cased, and what follows the "#" against fragment.
func (g *Grammar) withFragment(s, name string, colon int, rule string, from int) Verdict {
	main, frag, hasFrag := strings.Cut(s, "#")
	return g.matchFragment(name+main[colon:], from, frag, hasFrag, Verdict{Scheme: name, Against: rule})
}

// matchFragment matches main[from:] against v.Against and, when the input
// had a "#", frag against fragment; offsets are in the input as given.
func (g *Grammar) matchFragment(main string, from int, frag string, hasFrag bool, v Verdict) Verdict {
	v.Result = g.Match(v.Against, main[from:])
	if !v.OK {
		v.Dead += from
		return v
	}
	if hasFrag {
		v.Result = g.Match("fragment", frag)
		if !v.OK {
			v.Dead += len(main) + 1
			if v.Result.Rule == "" {
				v.Result.Rule = "fragment"
			}
		}
	}
	return v
}

// Describe names the byte at the verdict's dead point by the rule of
// RFC 1738 5 that lists it ("national \"~\""), or the end of the input.
func (g *Grammar) Describe(s string, v Verdict) string {
	if v.OK {
		return ""
	}
	if v.Dead >= len(s) {
		return "the end of the input"
	}
	b := s[v.Dead]
	cat := g.Category(b)
	switch {
	case b < 0x20 || b == 0x7f:
		return "a control character"
	case b >= 0x80:
		return "a non-ASCII byte"
	case b == ' ':
		return "a space"
	case cat == "":
		return "\"" + string(b) + "\""
	}
	return cat + " \"" + string(b) + "\""
}

// Class names the rejection of s: what the grammar refused and where, as
// "national \"~\" in hsegment" or "the end of the input in port".
func (g *Grammar) Class(s string, v Verdict) string {
	if v.OK {
		return ""
	}
	where := v.Result.Rule
	if where == "" {
		where = v.Against
	}
	return g.Describe(s, v) + " in " + where
}
