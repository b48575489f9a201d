package scheme

import (
	"fmt"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/jsonw"
)

// Unknown schemes follow the generic syntax of RFC 1738 section 5
// (otherurl = genericurl); names starting with "x-" are experimental (RFC
// 1738 section 4, RFC 1630 "Registration of naming schemes").

// generic is the Scheme of every unregistered name.
type generic struct{}

func (generic) Info() Info {
	return Info{Syntax: SyntaxGeneric, Source: "RFC 1738 5 (otherurl)"}
}

func (generic) View(u urlkit.URL) (View, error) {
	return &Generic{u: u, Scheme: u.Scheme(), Experimental: IsExperimental(u.Scheme()), Opaque: u.Opaque()}, nil
}

// Validate accepts every URL: the generic syntax, which the core parser
// has checked, is all an unknown scheme has.
func (generic) Validate(u urlkit.URL) error { return noGrammar(u) }

// noGrammar is the check of a scheme with no grammar beyond the generic
// syntax (unknown and reserved names).
func noGrammar(urlkit.URL) error { return nil }

// Generic is the view of a URL of a scheme the registry does not know.
type Generic struct {
	u            urlkit.URL
	Scheme       string
	Experimental bool // the name starts with "x-"
	Opaque       string
}

// URL returns the URL the view was made from.
func (v *Generic) URL() urlkit.URL { return v.u }

// Plan fails with an error wrapping [ErrNoAccess]: the access algorithm of
// an unknown scheme is not known.
func (v *Generic) Plan(Config) (Plan, error) {
	kind := "unknown"
	if v.Experimental {
		kind = "experimental (x-)"
	}
	return nil, fmt.Errorf("%s: %s scheme, its access algorithm is not known: %w", v.Scheme, kind, ErrNoAccess)
}

// ---- JSON -----------------------------------------------------------------

// writeJSON writes the members of the view's JSON object (the package
// documentation's "JSON keys").
func (v *Generic) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("scheme", v.Scheme)
	w.KBool("experimental", v.Experimental)
	w.KStr("opaque", v.Opaque)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *Generic) MarshalJSON() ([]byte, error) { return viewJSON(v) }
