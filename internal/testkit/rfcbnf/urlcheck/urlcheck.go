// Package urlcheck compares urlkit's verdicts with RFC 1738 5's grammar
// (internal/testkit/rfcbnf): whether a rejection holds, where, and its class by
// the rule and the kind of byte the grammar refuses. The conformance
// suites and the grammar's fuzz targets use it.
package urlcheck

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/rfcbnf"
)

var (
	once    sync.Once
	grammar *rfcbnf.Grammar
	loadErr error
)

// Grammar returns RFC 1738 5's grammar with rfcbnf's extensions, read
// once from the RFC's text (rfcbnf.SpecPath).
func Grammar() (*rfcbnf.Grammar, error) {
	once.Do(func() { grammar, loadErr = rfcbnf.LoadURL(rfcbnf.SpecPath()) })
	return grammar, loadErr
}

// Reading says how urlkit read the rejected input, and so which of the
// grammar's readings applies.
type Reading int

const (
	ReadParse    Reading = iota // urlkit.Parse: the generic syntax (rfcbnf Core)
	ReadParseRef                // urlkit.ParseRef: a URL or a partial form
	ReadGeneric                 // urlkit.ParseGeneric: every scheme generic, or a partial form
	ReadScheme                  // scheme.Parse: the scheme's own rule (rfcbnf Full)
)

// Verdict returns the grammar's verdict on in, read as r says.
func Verdict(g *rfcbnf.Grammar, in string, r Reading) rfcbnf.Verdict {
	switch r {
	case ReadParseRef:
		return g.Partial(in)
	case ReadGeneric:
		return g.PartialGeneric(in)
	case ReadScheme:
		return g.Full(in)
	}
	return g.Core(in)
}

// charKinds are the errors about one byte: urlkit must report the byte at
// which the grammar first refuses the input.
var charKinds = []error{urlkit.ErrUnsafeChar, urlkit.ErrBadChar, urlkit.ErrReservedChar}

// loginKinds are the errors about the login: RFC 1738 3.1's login is read
// from "//" to the next "/", and until an "@" or the end decides, what
// looks like host:port may be user:password, so urlkit (which reads the
// login whole) and the grammar (left to right) may refuse it at different
// places in it; both must be in the login.
var loginKinds = []error{urlkit.ErrBadHost, urlkit.ErrBadPort, urlkit.ErrEmptyPort, urlkit.ErrMissingHost}

// KindName names a urlkit error kind.
func KindName(err error) string {
	for _, k := range []struct {
		err  error
		name string
	}{
		{urlkit.ErrEmpty, "empty"}, {urlkit.ErrMissingScheme, "no scheme"}, {urlkit.ErrBadScheme, "invalid scheme"},
		{urlkit.ErrBadEscape, "invalid escape"}, {urlkit.ErrUnsafeChar, "unsafe character"}, {urlkit.ErrBadChar, "control or non-ASCII byte"},
		{urlkit.ErrReservedChar, "reserved character"}, {urlkit.ErrMissingSlashes, "missing \"//\""}, {urlkit.ErrMissingHost, "missing host"},
		{urlkit.ErrBadHost, "invalid host"}, {urlkit.ErrBadPort, "invalid port"}, {urlkit.ErrEmptyPort, "empty port"},
	} {
		if errors.Is(err, k.err) {
			return k.name
		}
	}
	return "other error"
}

// A Rejection is the grammar's judgement of one urlkit rejection.
type Rejection struct {
	Holds  bool   // the grammar refuses the input where urlkit does (or a documented divergence explains it)
	Class  string // "national in urlpath", or "grammar divergence: NAME"
	Reason string // the rules that decide, quoted from RFC 1738 5 (or the divergence's reason)
	Why    string // when it does not hold, why
}

// Reject judges urlkit's rejection err of in, read as r says: it holds
// when the grammar refuses the input too, and at the same place: the byte
// urlkit refuses is the first one the grammar refuses (an escape: within
// it; the login: both in it; a scheme or "//": urlkit at or before it).
// A rejection of an input the grammar accepts holds only when a
// documented divergence (rfcbnf.Divergences) explains it.
func Reject(g *rfcbnf.Grammar, in string, err error, r Reading) Rejection {
	var se *urlkit.SyntaxError
	if !errors.As(err, &se) {
		return Rejection{Class: "other error", Why: fmt.Sprintf("error %v is not a *urlkit.SyntaxError", err)}
	}
	v := Verdict(g, in, r)
	kind := KindName(err)
	if v.OK {
		if d, ok := Divergence(in, v, r == ReadScheme); ok {
			return Rejection{Holds: true, Class: "grammar divergence: " + d.Name, Reason: d.Reason}
		}
		return Rejection{Class: kind, Why: fmt.Sprintf("urlkit rejects it (%s at offset %d), but RFC 1738 5 accepts it as %s", kind, se.Offset, v.Against)}
	}
	is := func(kinds []error) bool {
		for _, k := range kinds {
			if errors.Is(err, k) {
				return true
			}
		}
		return false
	}
	bad := ""
	switch {
	case is(charKinds):
		if se.Offset != v.Dead {
			bad = fmt.Sprintf("urlkit refuses the byte at offset %d (%s), but RFC 1738 5 first refuses the input at offset %d (%s)", se.Offset, kind, v.Dead, ClassOf(g, in, v))
		}
	case errors.Is(err, urlkit.ErrBadEscape):
		// urlkit points at the "%", the grammar at the byte after it
		// that is not a hex digit (or the end).
		if v.Dead <= se.Offset || v.Dead > se.Offset+2 {
			bad = fmt.Sprintf("urlkit refuses the escape at offset %d, but RFC 1738 5 first refuses the input at offset %d (%s)", se.Offset, v.Dead, ClassOf(g, in, v))
		}
	case is(loginKinds):
		if lo, hi, ok := loginSpan(in); !ok || se.Offset < lo || se.Offset > hi || v.Dead < lo || v.Dead > hi {
			bad = fmt.Sprintf("urlkit reports %s at offset %d, and RFC 1738 5 first refuses the input at offset %d (%s): not both in the login", kind, se.Offset, v.Dead, ClassOf(g, in, v))
		}
	default:
		// The scheme and "//" errors: urlkit names the start of what is
		// wrong, at or before the first byte the grammar refuses.
		if se.Offset > v.Dead {
			bad = fmt.Sprintf("urlkit reports %s at offset %d, past offset %d where RFC 1738 5 refuses the input (%s)", kind, se.Offset, v.Dead, ClassOf(g, in, v))
		}
	}
	if bad != "" {
		return Rejection{Class: kind, Why: bad}
	}
	return Rejection{Holds: true, Class: ClassOf(g, in, v), Reason: ReasonOf(g, v)}
}

// Divergence returns the documented divergence that explains a
// disagreement on in, for the scheme layer (full) or the generic syntax.
func Divergence(in string, v rfcbnf.Verdict, full bool) (rfcbnf.Divergence, bool) {
	for _, d := range rfcbnf.Divergences {
		if d.Full == full && d.Applies(in, v) {
			return d, true
		}
	}
	return rfcbnf.Divergence{}, false
}

// ClassOf names the grammar's refusal by the kind of byte and the rule:
// "national in urlpath", "end of input in port".
func ClassOf(g *rfcbnf.Grammar, in string, v rfcbnf.Verdict) string {
	where := v.Result.Rule
	if where == "" {
		where = v.Against
	}
	what := "end of input"
	if v.Dead < len(in) {
		b := in[v.Dead]
		switch cat := g.Category(b); {
		case b < 0x20 || b == 0x7f:
			what = "control"
		case b >= 0x80:
			what = "non-ASCII"
		case b == ' ':
			what = "space"
		case cat == "":
			what = fmt.Sprintf("%q", b)
		default:
			what = cat
		}
	}
	return what + " in " + where
}

// ReasonOf quotes the rules that decide: the rule in force, and the rule
// the input was matched against.
func ReasonOf(g *rfcbnf.Grammar, v rfcbnf.Verdict) string {
	where := v.Result.Rule
	if where == "" {
		where = v.Against
	}
	var parts []string
	if r := g.Rules[where]; r != nil {
		parts = append(parts, r.Source+": "+r.Text)
	}
	if v.Against != where {
		if r := g.Rules[v.Against]; r != nil {
			parts = append(parts, "within "+r.Text)
		}
	}
	return strings.Join(parts, "; ") + ". The byte is not one the rule allows there (" + categoryNote + ")"
}

const categoryNote = `RFC 1738 2.2 and 5: national, punctuation, controls and octets 80-FF are unsafe and always encoded; a reserved character is allowed only where the rule names it`

// loginSpan returns where the login of in runs: from after "//" to the
// next "/" or the end (RFC 1738 3.1; "?" and "#" do not end it), with the
// end included (a login that ends too soon is refused there).
func loginSpan(in string) (lo, hi int, ok bool) {
	m := loginRE.FindStringSubmatchIndex(in)
	if m == nil {
		return 0, 0, false
	}
	return m[2], m[3], true
}

var loginRE = regexp.MustCompile(`^(?:[A-Za-z0-9+.-]+:)?//([^/]*)`)
