package rfcbnf

// A Divergence is a documented difference between urlkit and RFC 1738 5's
// grammar (with the Extensions): a class of inputs on which the two may
// disagree, with the reason. The grammar tests and the conformance suites
// accept a disagreement only when a divergence applies to it; docs/strictness.md's
// list of deliberate divergences names each one.
type Divergence struct {
	Name   string
	Reason string
	// Full is true for a divergence of the scheme layer (the scheme's own
	// rule, scheme.Parse), false for one of the generic syntax
	// (urlkit.Parse).
	Full bool
	// Applies reports whether the divergence explains a disagreement on
	// in, given the grammar's verdict.
	Applies func(in string, v Verdict) bool
}

func schemeIs(names ...string) func(string, Verdict) bool {
	return func(_ string, v Verdict) bool {
		for _, n := range names {
			if v.Scheme == n {
				return true
			}
		}
		return false
	}
}

// Divergences are every documented divergence.
var Divergences = []Divergence{
	{
		Name: "RFC 1630 schemes with a login",
		Reason: "RFC 1738 5 has no rule for tn3270 and rlogin (RFC 1630) nor for afs and nfs (names RFC 1738 4 reserves), so otherurl would also take *xchar; " +
			"urlkit reads them with ip-schemepart (\"//\" and a login), as RFC 1630 writes them, and rejects them without \"//\"",
		Applies: schemeIs("tn3270", "rlogin", "afs", "nfs"),
	},
	{
		Name: "mailto is an RFC 822 addr-spec",
		Reason: "RFC 1738 5: encoded822addr = 1*xchar, \"further defined in RFC822\"; the scheme layer checks the decoded address against RFC 822's addr-spec " +
			"(RFC 1738 3.5: mailto:<rfc822-addr-spec>), which 1*xchar alone does not, so \"mailto:r\" is refused",
		Full:    true,
		Applies: schemeIs("mailto"),
	},
}
