package scheme

import (
	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/jsonw"
)

// Message-Id and Content-Id (RFC 1630): mid:<msg-id> and cid:<content-id>,
// without the "<" ">" wrapper. RFC 1738 section 4 reserves both names.

func init() {
	registerBuiltin("mid", func(u urlkit.URL) (View, error) { return MIDOf(u) })
	registerBuiltin("cid", func(u urlkit.URL) (View, error) { return MIDOf(u) })
}

// MID is the view of a mid or cid URL: an RFC 822 msg-id (or MIME
// content-id) without its angle brackets, which has the shape of an
// addr-spec (RFC 1630, Message-Id).
type MID struct {
	u  urlkit.URL
	ID string // decoded, without "<" ">"
	// Header is "Message-ID" for mid and "Content-ID" for cid.
	Header string
}

// MIDOf checks that the scheme-specific part decodes to an addr-spec.
func MIDOf(u urlkit.URL) (*MID, error) {
	l := locOf(u)
	p := part{u.Opaque(), l.opaque(), urlkit.ComponentOpaque}
	id, err := addrSpec(l, p, "RFC 1630: the msg-id with the constant <> wrapper removed has addr-spec format")
	if err != nil {
		return nil, err
	}
	v := &MID{u: u, ID: id, Header: "Message-ID"}
	if u.Scheme() == "cid" {
		v.Header = "Content-ID"
	}
	return v, nil
}

// URL returns the URL the view was made from.
func (v *MID) URL() urlkit.URL { return v.u }

// LookupPlan finds a message (mid) or MIME body part (cid) by its header in
// mail already received: there is no network access (RFC 1630).
type LookupPlan struct {
	Header string // "Message-ID" or "Content-ID"
	Value  string // "<" id ">"
	scheme string
}

// Scheme returns "mid" or "cid".
func (p *LookupPlan) Scheme() string { return p.scheme }

// Steps returns the one step: the lookup.
func (p *LookupPlan) Steps() []Step {
	where := "in mail already received"
	if p.scheme == "cid" {
		where = "among the body parts of the same MIME message"
	}
	return []Step{Action{Kind: "lookup", Says: "find the item whose " + p.Header + " is " + p.Value + " " + where}}
}

// Plan returns the lookup.
func (v *MID) Plan(Config) (Plan, error) {
	return &LookupPlan{Header: v.Header, Value: "<" + v.ID + ">", scheme: v.u.Scheme()}, nil
}

// ---- JSON -----------------------------------------------------------------

// writeJSON writes the members of the view's JSON object (the package
// documentation's "JSON keys").
func (v *MID) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("id", v.ID)
	w.KStr("header", v.Header)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *MID) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// writeJSON writes the plan's own members of its JSON object, before
// "steps".
func (p *LookupPlan) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("header", p.Header)
	w.KStr("value", p.Value)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *LookupPlan) MarshalJSON() ([]byte, error) { return planJSON(p) }
