package scheme

import (
	"net/mail"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/jsonw"
)

// MAILTO (RFC 1738 3.5; RFC 1630, Mailto): mailto:<rfc822-addr-spec>

func init() { registerBuiltin("mailto", func(u urlkit.URL) (View, error) { return MailtoOf(u) }) }

// Mailto is the view of a mailto URL: one RFC 822 addr-spec, decoded.
//
// Reserved: nothing (RFC 1738 3.5: "Within mailto URLs, there are no
// reserved characters"), so mailto:a%40b.example is mailto:a@b.example
// ([urlkit.Equal]). [Info].ReservedChars reports the set.
type Mailto struct {
	u       urlkit.URL
	Address string
	addr    part
}

// MailtoOf checks that the scheme-specific part of u decodes to an RFC
// 822 addr-spec (checked with net/mail; a display name or angle brackets
// are not an addr-spec). Within mailto URLs no characters are reserved, so
// a "?" is part of the address (RFC 1738 3.5); a "%" of the address is
// written %25, as the core parser has already made sure.
func MailtoOf(u urlkit.URL) (*Mailto, error) {
	l := locOf(u)
	p := part{u.Opaque(), l.opaque(), urlkit.ComponentOpaque}
	a, err := addrSpec(l, p, "RFC 1738 3.5: mailto:<rfc822-addr-spec>")
	if err != nil {
		return nil, err
	}
	return &Mailto{u: u, Address: a, addr: p}, nil
}

// addrSpec decodes p and checks it is an RFC 822 addr-spec.
func addrSpec(l loc, p part, rule string) (string, error) {
	if p.raw == "" {
		return "", l.err(p.off, p.comp, ErrMissing, "empty address (%s)", rule)
	}
	if i, b := firstControl(p.raw); i >= 0 {
		return "", l.err(p.off+i, p.comp, ErrControl, "%%%02X decodes to control character 0x%02X, which an address cannot hold (%s)", b, b, rule)
	}
	s := p.decode()
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || s[0] == '<' || s[len(s)-1] == '>' {
		detail := "not an addr-spec (local-part@domain)"
		if err != nil {
			detail = err.Error()
		}
		return "", l.err(p.off, p.comp, ErrBadAddress, "%q is not an RFC 822 addr-spec: %s (%s)", s, detail, rule)
	}
	return s, nil
}

// URL returns the URL the view was made from.
func (v *Mailto) URL() urlkit.URL { return v.u }

// MailPlan says to compose a message to an address. A mailto URL designates
// no data object (RFC 1738 3.5): there is nothing to fetch.
type MailPlan struct {
	To string
}

// Scheme returns "mailto".
func (p *MailPlan) Scheme() string { return "mailto" }

// Steps returns the one step: compose a message.
func (p *MailPlan) Steps() []Step { return []Step{Compose{To: p.To}} }

// Compose is the step of a mailto plan: compose a message to an address.
type Compose struct {
	To string
}

// Op returns "compose".
func (Compose) Op() string { return "compose" }

// Text says to whom the message goes.
func (c Compose) Text() string {
	return "compose a mail message to " + c.To + " (nothing is fetched: RFC 1738 3.5)"
}

// Plan returns the message to compose.
func (v *Mailto) Plan(Config) (Plan, error) { return &MailPlan{To: v.Address}, nil }

// ---- JSON -----------------------------------------------------------------

// writeJSON writes the members of the view's JSON object (the package
// documentation's "JSON keys").
func (v *Mailto) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("address", v.Address)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *Mailto) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// writeJSON writes the plan's own members of its JSON object, before
// "steps".
func (p *MailPlan) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("to", p.To)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *MailPlan) MarshalJSON() ([]byte, error) { return planJSON(p) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s Compose) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("to", s.To)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s Compose) MarshalJSON() ([]byte, error) { return stepJSON(s) }
