package resolve

import (
	"fmt"
	"strings"

	"github.com/urlkit/urlkit/internal/chars"
)

// schemeRule is RFC 1738's rule for a scheme name, quoted by the errors.
const schemeRule = `RFC 1738 5: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]`

// AbsoluteForm applies the modes' test to a reference the strict parser
// took as partial. In [RFC1630] and [Libwww] a colon before any "/" makes
// the text an absolute form, so the text before it must be a scheme name.
// The stops are "/" (RFC 1630), "?" and "#", which start the search part
// and the fragment of RFC 1630's BNF (uri = scheme ":" path ["?" search],
// fragmentaddress = uri ["#" fragmentid]), and in [Libwww] also ";", as
// HTParse's scan stops there. In [RFC3986] such a reference is neither
// an absolute URI (its scheme name is invalid) nor a relative reference:
// RFC 3986 4.2 allows no colon in the first segment of a relative-path
// reference, and the fault is at the colon. [RFC1808] reads it as a
// relative path (RFC 1808 2.4.2).
//
// It returns the explanation of the fault, with its offset in s and
// whether it is in the scheme name (else in the path), or "" when s is
// fine.
func AbsoluteForm(s string, mode Mode) (off int, inScheme bool, detail string) {
	if mode == RFC3986 {
		if i := strings.IndexAny(s, ":/?#"); i >= 0 && s[i] == ':' {
			return i, false, fmt.Sprintf(`":" in the first segment of a relative-path reference (RFC 3986 4.2), and %q is no scheme name: write "./%s"`, s[:i], s)
		}
		return 0, false, ""
	}
	if mode != RFC1630 && mode != Libwww {
		return 0, false, ""
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '/' || c == '?' || c == '#' || (c == ';' && mode == Libwww):
			return 0, false, ""
		case c == ':':
			if i == 0 {
				return 0, true, `empty scheme name before ":": a colon before any "/" makes an absolute form (RFC 1630, "Partial (relative) form"; ` + schemeRule + ")"
			}
			for j := 0; j < i; j++ {
				if chars.Table[s[j]]&chars.SchemeChar == 0 {
					return j, true, fmt.Sprintf(`%q is not allowed in a scheme name, and a colon before any "/" makes %q an absolute form with scheme %q (RFC 1630, "Partial (relative) form"; %s)`, s[j:j+1], s, s[:i], schemeRule)
				}
			}
			return 0, false, ""
		}
	}
	return 0, false, ""
}
