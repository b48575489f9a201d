package scheme

import (
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/chars"
)

// PROSPERO (RFC 1738 3.11; RFC 1630, Prospero; 1993 URL draft):
//   prospero://<host>:<port>/<hsoname>;<field>=<value>
//   prospero://<host>:<port>/<hsoname>%00<version>[%00<attribute>...]   (older form)

func init() {
	registerBuiltin("prospero", func(u urlkit.URL) (View, error) { return ProsperoOf(u) })
}

// Prospero is the view of a prospero URL. Strings are decoded.
type Prospero struct {
	u    urlkit.URL
	Host string
	Port int // 1525 when the URL names none
	// HSOName is the host-specific object name; "/" in it has no
	// significance the client may assume (RFC 1738 3.11).
	HSOName string
	Fields  []ProsperoField
	// Version and Attributes come from the older form of RFC 1630 and
	// the 1993 draft, where "%00" separates them from the name.
	Version    string
	HasVersion bool
	Attributes []string
	name       part
}

// ProsperoField is one ";field=value" pair of a Prospero link.
type ProsperoField struct {
	Name  string
	Value string
}

// ProsperoOf checks u against RFC 1738's prosperourl = "prospero://"
// hostport "/" ppath *[ fieldspec ], fieldspec = ";" fieldname "="
// fieldvalue, psegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]; any
// escape, "%00" too, is accepted there. The older form, hsoname "%00"
// version ["%00" attribute...] (RFC 1630; the 1993 draft allows several
// attributes), is read as information when the path has its shape:
// version is digits, possibly empty when attributes follow, and an
// attribute is alphanumeric. Otherwise the whole path is the hsoname,
// and a "%00" in it is a NUL that Plan refuses to send and Check reports
// (RFC 1738 6).
func ProsperoOf(u urlkit.URL) (*Prospero, error) {
	l := locOf(u)
	if err := noLogin(l, "RFC 1738 3.11: no username or password is allowed"); err != nil {
		return nil, err
	}
	v := &Prospero{u: u, Host: u.Host()}
	v.Port, _ = portOf(u, 1525)
	if _, ok := u.Path(); !ok {
		return nil, l.err(l.end(), urlkit.ComponentPath, ErrMissing, "a prospero URL names an object: prospero://<host>:<port>/<hsoname> (RFC 1738 3.11)")
	}
	p := part{u.PathAndSearch(), l.urlPath(), urlkit.ComponentPath}
	specs := p.split(';')
	name := specs[0]
	for _, f := range specs[1:] {
		eq := strings.IndexByte(f.raw, '=')
		if eq < 0 {
			return nil, l.err(f.off, f.comp, ErrBadPath, `field %q has no "=": fieldspec = ";" fieldname "=" fieldvalue (RFC 1738 3.11)`, f.raw)
		}
		n, val := part{f.raw[:eq], f.off, f.comp}, part{f.raw[eq+1:], f.off + eq + 1, f.comp}
		for _, x := range []part{n, val} {
			if i := x.firstNot(ucharOr("?:@&")); i >= 0 {
				return nil, reservedErr(l, x, i, `RFC 1738 5: fieldname and fieldvalue are *[ uchar | "?" | ":" | "@" | "&" ]`)
			}
		}
		v.Fields = append(v.Fields, ProsperoField{n.decode(), val.decode()})
	}
	for _, s := range name.split('/') {
		if i := s.firstNot(ucharOr("?:@&=")); i >= 0 {
			return nil, reservedErr(l, s, i, `RFC 1738 5: psegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]`)
		}
	}
	// RFC 1738 decides what is accepted: a psegment is any uchar, "%00"
	// included. RFC 1630's reading, hsoname "%00" version, is taken as
	// information when the rest has its shape.
	if old := name.splitEscape("%00", 1<<20); len(old) > 1 && prosperoVersionForm(old[1:]) {
		name = old[0]
		v.HasVersion, v.Version = true, old[1].raw
		for _, a := range old[2:] {
			v.Attributes = append(v.Attributes, a.raw)
		}
	}
	v.name = name
	v.HSOName = name.decode()
	return v, nil
}

// URL returns the URL the view was made from.
func (v *Prospero) URL() urlkit.URL { return v.u }

// ProsperoPlan asks a Prospero directory server for the access methods of
// an object; the answer is itself a set of URLs (RFC 1738 3.11).
type ProsperoPlan struct {
	Addr       string // host:port (UDP)
	HSOName    string
	Fields     []ProsperoField
	Version    string
	Attributes []string
}

// Scheme returns "prospero".
func (p *ProsperoPlan) Scheme() string { return "prospero" }

// Steps returns the directory query, the fields and version identifying
// the target, and what follows.
func (p *ProsperoPlan) Steps() []Step {
	out := []Step{Action{Kind: "query", Says: "ask the Prospero directory server at " + p.Addr + " for the access methods of " + quoteVisible(p.HSOName)}}
	for _, f := range p.Fields {
		out = append(out, Action{Kind: "field", Says: "  identifying the target by " + f.Name + "=" + f.Value})
	}
	if p.Version != "" {
		out = append(out, Action{Kind: "version", Says: "  version " + p.Version})
	}
	return append(out, Action{Kind: "then", Says: "then access the resource by the URL the server returns"})
}

// Plan returns the directory query. The name is sent decoded, so control
// characters in it are refused (RFC 1738 6).
func (v *Prospero) Plan(Config) (Plan, error) {
	name, err := v.name.wire(locOf(v.u), "hsoname")
	if err != nil {
		return nil, err
	}
	return &ProsperoPlan{Addr: addrOf(v.u, v.Host, v.Port), HSOName: name, Fields: v.Fields, Version: v.Version, Attributes: v.Attributes}, nil
}

func (v *Prospero) wireParts() []wirePart { return []wirePart{{v.name, "hsoname"}} }

// prosperoVersionForm reports whether the parts after the first "%00" of
// a path have the shape of RFC 1630's version and the 1993 draft's
// attributes: digits, empty only when attributes follow, then non-empty
// alphanumerics.
func prosperoVersionForm(tail []part) bool {
	if tail[0].raw == "" && len(tail) == 1 {
		return false
	}
	for k, p := range tail {
		if k > 0 && p.raw == "" {
			return false
		}
		for i := 0; i < len(p.raw); i++ {
			if k == 0 && !chars.Is(p.raw[i], chars.Digit) || k > 0 && !chars.Is(p.raw[i], chars.AlphaDigit) {
				return false
			}
		}
	}
	return true
}
