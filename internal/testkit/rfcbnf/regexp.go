package rfcbnf

import (
	"fmt"
	"regexp"
	"strings"
)

// Regexp returns a regular expression, anchored at both ends, whose
// language is the rule's, written from the rule as read from the RFC's
// text: a literal is quoted, a sequence concatenated, alternatives joined
// by "|", [ x ] made optional and n*x repeated at least n times. It is for
// the rules that do not refer to themselves (host, user, port...), which
// RFC 1738 5 writes without recursion; a recursive rule is an error. A
// reference checker that must not share code with what it checks (the
// parser's differential test) matches with it.
func (g *Grammar) Regexp(rule string) (*regexp.Regexp, error) {
	var b strings.Builder
	if err := g.writeRegexp(&b, &Expr{Kind: kRef, Name: rule}, map[string]bool{}); err != nil {
		return nil, err
	}
	return regexp.Compile(`^(?:` + b.String() + `)$`)
}

func (g *Grammar) writeRegexp(b *strings.Builder, e *Expr, open map[string]bool) error {
	switch e.Kind {
	case kLit:
		b.WriteString(regexp.QuoteMeta(e.Lit))
	case kRef:
		r, ok := g.Rules[e.Name]
		if !ok {
			return fmt.Errorf("rfcbnf: no rule %q", e.Name)
		}
		if open[e.Name] {
			return fmt.Errorf("rfcbnf: rule %q refers to itself: no regular expression", e.Name)
		}
		open[e.Name] = true
		defer delete(open, e.Name)
		b.WriteString("(?:")
		if err := g.writeRegexp(b, r.Expr, open); err != nil {
			return err
		}
		b.WriteString(")")
	case kSeq:
		for _, s := range e.Sub {
			if err := g.writeRegexp(b, s, open); err != nil {
				return err
			}
		}
	case kAlt:
		b.WriteString("(?:")
		for i, s := range e.Sub {
			if i > 0 {
				b.WriteString("|")
			}
			if err := g.writeRegexp(b, s, open); err != nil {
				return err
			}
		}
		b.WriteString(")")
	case kOpt, kRep:
		b.WriteString("(?:")
		if err := g.writeRegexp(b, e.Sub[0], open); err != nil {
			return err
		}
		if e.Kind == kOpt {
			b.WriteString(")?")
		} else {
			fmt.Fprintf(b, "){%d,}", e.Min)
		}
	default:
		return fmt.Errorf("rfcbnf: expression kind %d", e.Kind)
	}
	return nil
}
