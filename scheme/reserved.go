package scheme

import (
	"fmt"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/jsonw"
)

// Reserved names: urn (RFC 1630, reserved for URNs), and afs, nfs,
// mailserver and z39.50, which RFC 1738 section 4 asks IANA to reserve
// without defining their syntax or use.

func init() {
	for _, name := range []string{"urn", "afs", "nfs", "mailserver", "z39.50"} {
		registerChecked(name, func(u urlkit.URL) (View, error) { return newReserved(u), nil }, noGrammar)
	}
}

// Reserved is the view of a URL whose scheme name is reserved but has no
// defined syntax or access method. The generic syntax is all it checks.
type Reserved struct {
	u        urlkit.URL
	Scheme   string
	Source   string // the document reserving the name
	Reserved bool   // always true
	Opaque   string // the scheme-specific part as written
}

func newReserved(u urlkit.URL) *Reserved {
	info := For(u).Info()
	return &Reserved{u: u, Scheme: u.Scheme(), Source: info.Source, Reserved: true, Opaque: u.Opaque()}
}

// URL returns the URL the view was made from.
func (v *Reserved) URL() urlkit.URL { return v.u }

// Plan fails with an error wrapping [ErrNoAccess]: the name is reserved
// but no access method is defined.
func (v *Reserved) Plan(Config) (Plan, error) {
	return nil, fmt.Errorf("%s: scheme name reserved (%s) with no syntax or access method defined: %w", v.Scheme, v.Source, ErrNoAccess)
}

// ---- JSON -----------------------------------------------------------------

// writeJSON writes the members of the view's JSON object (the package
// documentation's "JSON keys").
func (v *Reserved) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("scheme", v.Scheme)
	w.KStr("source", v.Source)
	w.KBool("reserved", v.Reserved)
	w.KStr("opaque", v.Opaque)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *Reserved) MarshalJSON() ([]byte, error) { return viewJSON(v) }
