package scheme

import (
	"strings"

	"github.com/urlkit/urlkit"
)

// WAIS (RFC 1738 3.9; RFC 1630, WAIS; RFC 1625):
//   wais://<host>:<port>/<database>
//   wais://<host>:<port>/<database>?<search>
//   wais://<host>:<port>/<database>/<wtype>/<wpath>

func init() { registerBuiltin("wais", func(u urlkit.URL) (View, error) { return WAISOf(u) }) }

// WAIS forms (RFC 1738 3.9).
const (
	WAISDatabase = "database" // a database available for searching
	WAISSearch   = "search"   // a particular search
	WAISDocument = "document" // one document of a database
)

// WAIS is the view of a wais URL. Strings are decoded.
type WAIS struct {
	u        urlkit.URL
	Host     string
	Port     int    // 210 when the URL names none
	Form     string // WAISDatabase, WAISSearch or WAISDocument
	Database string
	Search   string // decoded, "+" read as a space (RFC 1630)
	WType    string
	WPath    string // the document-id, opaque
	// DocIDFields are the fields of the decoded document-id when it has
	// RFC 1630's shape, digits "=" value ";" repeated (a value holds no
	// ";"); nil otherwise. They are information: RFC 1738 5 reads wpath as
	// *uchar, opaque.
	DocIDFields []WAISField

	search part
}

// WAISField is one field of a WAIS document-id (RFC 1630, WAIS).
type WAISField struct {
	Number string
	Value  string
}

// WAISOf checks u against RFC 1738's waisurl: database, wtype and wpath
// are *uchar, so a "/" separates them and there are one or three path
// segments; a search goes only with the database form.
func WAISOf(u urlkit.URL) (*WAIS, error) {
	l := locOf(u)
	if err := noLogin(l, `RFC 1738 5: waisurl uses "wais://" hostport`); err != nil {
		return nil, err
	}
	v := &WAIS{u: u, Host: u.Host(), Form: WAISDatabase}
	v.Port, _ = portOf(u, 210)
	path, ok := u.Path()
	if !ok {
		return nil, l.err(l.end(), urlkit.ComponentPath, ErrMissing, "a wais URL names a database: wais://<host>:<port>/<database> (RFC 1738 3.9)")
	}
	segs := part{path, l.urlPath(), urlkit.ComponentPath}.split('/')
	for k, s := range segs {
		rule := "RFC 1738 5: database, wtype and wpath are *uchar"
		if k == 2 {
			// RFC 1630 wrote a wpath as fields, digits "=" path ";";
			// RFC 1738, the later standard, has wpath = *uchar, so the
			// "=" and ";" of such a document-id are encoded.
			rule = `RFC 1738 5: wpath = *uchar; RFC 1630's digits "=" path ";" fields are written with %3D and %3B`
		}
		if i := s.firstNot(uchar); i >= 0 {
			return nil, reservedErr(l, s, i, rule)
		}
	}
	switch len(segs) {
	case 1:
	case 3:
		v.Form, v.WType, v.WPath = WAISDocument, segs[1].decode(), segs[2].decode()
		v.DocIDFields = docIDFields(v.WPath)
	case 4:
		if d := segs[2].raw; d != "" && strings.Trim(d, "0123456789") == "" {
			// The 1993 URL draft's waisdoc: database / wtype / digits / path.
			return nil, l.err(segs[2].off, urlkit.ComponentPath, ErrBadPath,
				"%q is the length field of the 1993 URL draft's wais document form (wais://host/database/wtype/length/path); RFC 1738 3.9 dropped it: write wais://<host>:<port>/<database>/<wtype>/<wpath>", d)
		}
		fallthrough
	default:
		return nil, l.err(segs[1].off-1, urlkit.ComponentPath, ErrBadPath,
			"a wais URL path is <database> or <database>/<wtype>/<wpath>, not %d segments (RFC 1738 3.9)", len(segs))
	}
	v.Database = segs[0].decode()
	if s, ok := u.Search(); ok {
		if v.Form == WAISDocument {
			return nil, l.err(l.search()-1, urlkit.ComponentSearch, ErrNotAllowed, "a wais document URL has no search part (RFC 1738 3.9)")
		}
		p := part{s, l.search(), urlkit.ComponentSearch}
		if i := p.firstNot(ucharOr(";:@&=")); i >= 0 {
			return nil, reservedErr(l, p, i, `RFC 1738 5: search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]`)
		}
		v.Form, v.search = WAISSearch, p
		v.Search, _ = urlkit.UnescapeSearch(s)
	}
	return v, nil
}

// docIDFields splits a decoded document-id of the form
// (digits "=" value ";")+.
func docIDFields(s string) []WAISField {
	if s == "" || !strings.HasSuffix(s, ";") {
		return nil
	}
	var out []WAISField
	for _, f := range strings.Split(strings.TrimSuffix(s, ";"), ";") {
		n, val, ok := strings.Cut(f, "=")
		if !ok || n == "" || strings.Trim(n, "0123456789") != "" {
			return nil
		}
		out = append(out, WAISField{n, val})
	}
	return out
}

// URL returns the URL the view was made from.
func (v *WAIS) URL() urlkit.URL { return v.u }

// WAISPlan names the WAIS operations (RFC 1625) a client performs.
type WAISPlan struct {
	Addr       string
	Form       string
	Database   string
	Search     string
	WType      string
	WPath      string
	Operations []string
}

// Scheme returns "wais".
func (p *WAISPlan) Scheme() string { return "wais" }

// Steps returns the connection, then each operation.
func (p *WAISPlan) Steps() []Step {
	out := []Step{Connect{Addr: p.Addr, For: "WAIS, Z39.50-1988 based"}}
	for _, op := range p.Operations {
		kind, _, _ := strings.Cut(op, " ")
		out = append(out, Action{Kind: strings.ToLower(kind), Says: op})
	}
	return out
}

// Plan returns the operations: Init, then a search of the database (with
// the URL's words, or words asked of the user), or the retrieval of one
// document by type and document-id.
func (v *WAIS) Plan(Config) (Plan, error) {
	p := &WAISPlan{Addr: addrOf(v.u, v.Host, v.Port), Form: v.Form, Database: v.Database, Search: v.Search, WType: v.WType, WPath: v.WPath}
	p.Operations = []string{"Init"}
	switch v.Form {
	case WAISDatabase:
		p.Operations = append(p.Operations, "Search database "+quoteVisible(v.Database)+" with words asked of the user")
	case WAISSearch:
		if i, b := firstControl(v.search.raw); i >= 0 {
			return nil, locOf(v.u).err(v.search.off+i, v.search.comp, ErrControl, "%%%02X decodes to control character 0x%02X in the WAIS search words (RFC 1738 6)", b, b)
		}
		p.Operations = append(p.Operations, "Search database "+quoteVisible(v.Database)+" for "+quoteVisible(v.Search))
	case WAISDocument:
		p.Operations = append(p.Operations, "Retrieve document type "+quoteVisible(v.WType)+" document-id "+quoteVisible(visible(v.WPath))+" from database "+quoteVisible(v.Database))
	}
	return p, nil
}

func (v *WAIS) wireParts() []wirePart {
	if v.Form != WAISSearch {
		return nil
	}
	return []wirePart{{v.search, "WAIS search words"}}
}
