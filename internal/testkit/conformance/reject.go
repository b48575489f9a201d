package conformance

import (
	"fmt"

	"github.com/urlkit/urlkit/internal/testkit/rfcbnf/urlcheck"
)

// A rejection is classed by where RFC 1738's grammar refuses the input,
// found by an oracle independent of urlkit: the BNF of RFC 1738 section 5,
// read from the RFC's text and recognized as written (internal/testkit/rfcbnf,
// judged by internal/testkit/rfcbnf/urlcheck). The class names the rule and the
// kind of byte ("national in urlpath": "~" is national, RFC 1738 2.2, and
// urlpath is *xchar). A rejection is wrong when the grammar accepts the
// input (urlkit refuses what RFC 1738 allows), when urlkit refuses a byte
// other than the first one the grammar refuses, or when urlkit reports a
// structural error (host, port, scheme) elsewhere than the grammar.

// How a rejected input is read by the oracle.
const (
	readParse    = urlcheck.ReadParse
	readParseRef = urlcheck.ReadParseRef
	readGeneric  = urlcheck.ReadGeneric
)

// rejectKind classes urlkit's rejection of in (read as r says) by the
// grammar: the class name and reason, whether urlkit's rejection holds,
// and when it does not, why.
func rejectKind(in string, err error, r urlcheck.Reading) (name, reason string, holds bool, why string) {
	g, gerr := urlcheck.Grammar()
	if gerr != nil {
		return "no oracle", gerr.Error(), false, gerr.Error()
	}
	j := urlcheck.Reject(g, in, err, r)
	return j.Class, j.Reason, j.Holds, j.Why
}

// classReject classes a rejection under prefix ("both reject; urlkit: ",
// ...), or records a wrong case when the grammar does not refuse the input
// where urlkit does. agreed says whether the other side rejects too.
func classReject(s *Suite, prefix, in string, err error, agreed bool) {
	s.Rejected++
	name, reason, holds, why := rejectKind(in, err, readParse)
	if !holds {
		s.wrong(in, why+fmt.Sprintf(" (%v)", err))
		return
	}
	if agreed {
		s.agree(in, []reasoned{{prefix + name, reason}})
		return
	}
	s.different(prefix+name, reason, in)
}
