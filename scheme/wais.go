package scheme

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/jsonw"
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

// WAISPlan is the access plan of a wais URL: the messages a WAIS client
// sends over one TCP connection (RFC 1625: Z39.50-1988 with the WAIS
// extensions), in order, each a typed step. The access package encodes
// each message from its step's fields.
type WAISPlan struct {
	Addr     string // host:port (TCP)
	Form     string // WAISDatabase, WAISSearch or WAISDocument
	Database string
	// URL is the URL the plan is for, without fragment: the hits of a
	// search are listed as URLs of the same host, port and database.
	URL      string
	Messages []WAISMessage
}

// WAISMessage is one message of a WAIS plan: a WAISInitAPDU, a WAISSearchAPDU
// or a WAISRetrieval.
type WAISMessage interface {
	Step
	waisMessage()
}

// Scheme returns "wais".
func (p *WAISPlan) Scheme() string { return "wais" }

// Steps returns the connection, then each message.
func (p *WAISPlan) Steps() []Step {
	return stepsAfter(Connect{Addr: p.Addr, For: "WAIS: Z39.50-1988 with the WAIS extensions, RFC 1625"}, p.Messages)
}

// The values of the init message: the sizes are those freeWAIS-sf's own
// client offers (../shared/servers/wais/transcripts).
const (
	WAISMessageSize  = 100000 // PreferredMessageSize and MaximumRecordSize offered
	WAISMaxDocuments = 40     // MaxDocumentsRetrieved of a search
	// WAISChunk is the largest piece of a document asked for in one
	// retrieval (RFC 1625 4: clients retrieve large documents in chunks).
	WAISChunk = 65536
)

// WAISInitAPDU is the initAPDU (Z39.50-1988 initialization; RFC 1625 4) and the
// reading of its initResponseAPDU, which must accept.
type WAISInitAPDU struct {
	PreferredMessageSize int
	MaximumRecordSize    int
	ImplementationName   string
}

func (WAISInitAPDU) waisMessage() {}

// Op returns "init".
func (WAISInitAPDU) Op() string { return "init" }

// Text describes the message.
func (m WAISInitAPDU) Text() string {
	return fmt.Sprintf("initAPDU: ProtocolVersion 1, PreferredMessageSize %d, MaximumRecordSize %d, ImplementationName %s; read the initResponseAPDU (Result must be accept)",
		m.PreferredMessageSize, m.MaximumRecordSize, quoteVisible(m.ImplementationName))
}

// WAISSearchAPDU is a searchAPDU with a type-3 query, the relevance-feedback
// query of WAIS (RFC 1625 4): the seed words in the WAIS user information.
// Its searchResponseAPDU holds the headers of the hits. A search with
// AskUser set has no words yet: the database form of the URL, for which a
// client asks the words of its user (the gateway shows a search form).
type WAISSearchAPDU struct {
	Database     string
	SeedWords    string
	AskUser      bool
	MaxDocuments int
}

func (WAISSearchAPDU) waisMessage() {}

// Op returns "search".
func (WAISSearchAPDU) Op() string { return "search" }

// Text describes the message.
func (m WAISSearchAPDU) Text() string {
	words := "SeedWords " + quoteVisible(m.SeedWords)
	if m.AskUser {
		words = "SeedWords asked of the user (the URL gives none: add ?words)"
	}
	return fmt.Sprintf("searchAPDU: DatabaseNames %s, QueryType 3 (relevance feedback), %s, MaxDocumentsRetrieved %d; read the searchResponseAPDU: one DocumentHeaderGroup per hit (headline, score, length, type, DocumentID)",
		quoteVisible(m.Database), words, m.MaxDocuments)
}

// WAISRetrieval retrieves one document: searchAPDUs with a type-1 query of
// four terms (RFC 1625 4): the DocumentID ("un", equal), the type ("wt",
// equal) and the byte range ("wb", from Start, greater or equal, to the
// end, less than), asking for the element set "Document Text". A document
// is asked for in chunks of Chunk bytes, [0, Chunk), [Chunk, 2*Chunk) and
// so on, until a chunk comes back shorter than asked.
type WAISRetrieval struct {
	Database string
	// DocID is the document-id, the bytes of the DocumentID element a
	// search response gave for the hit: the decoded wpath (RFC 1738 3.9),
	// or the fields of RFC 1630's wpath form as elements.
	DocID string
	Type  string
	Chunk int
}

func (WAISRetrieval) waisMessage() {}

// Op returns "retrieve".
func (WAISRetrieval) Op() string { return "retrieve" }

// Text describes the messages.
func (m WAISRetrieval) Text() string {
	return fmt.Sprintf("searchAPDU: DatabaseNames %s, QueryType 1, ElementSetNames \"Document Text\", query: DocumentID %s (%d bytes) AND type %s AND bytes [0, %d); again for [%d, %d) and each next %d bytes until a chunk comes back shorter; read each searchResponseAPDU: DocumentText",
		quoteVisible(m.Database), quoteVisible(docIDText(m.DocID)), len(m.DocID), quoteVisible(m.Type), m.Chunk, m.Chunk, 2*m.Chunk, m.Chunk)
}

// docIDText shows a document-id: bytes outside printable ASCII as \xNN.
func docIDText(id string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c < 0x20 || c >= 0x7f || c == '\\' || c == '"' {
			fmt.Fprintf(&b, "\\x%02x", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Plan returns the messages: the init, then a search of the database (with
// the URL's words, or words to ask of the user), or the retrieval of one
// document by its type and document-id.
func (v *WAIS) Plan(Config) (Plan, error) {
	if err := planPort(v.u); err != nil {
		return nil, err
	}
	p := &WAISPlan{Addr: addrOf(v.u, v.Host, v.Port), Form: v.Form, Database: v.Database, URL: v.u.WithoutFragment().String()}
	p.Messages = []WAISMessage{WAISInitAPDU{PreferredMessageSize: WAISMessageSize, MaximumRecordSize: WAISMessageSize, ImplementationName: "urlkit"}}
	switch v.Form {
	case WAISDatabase:
		p.Messages = append(p.Messages, WAISSearchAPDU{Database: v.Database, AskUser: true, MaxDocuments: WAISMaxDocuments})
	case WAISSearch:
		if i, b := firstControl(v.search.raw); i >= 0 {
			return nil, locOf(v.u).err(v.search.off+i, v.search.comp, ErrControl, "%%%02X decodes to control character 0x%02X in the WAIS search words (RFC 1738 6)", b, b)
		}
		p.Messages = append(p.Messages, WAISSearchAPDU{Database: v.Database, SeedWords: v.Search, MaxDocuments: WAISMaxDocuments})
	case WAISDocument:
		id := v.WPath
		if v.DocIDFields != nil {
			id = DocIDOfFields(v.DocIDFields)
		}
		if id == "" {
			l := locOf(v.u)
			return nil, l.err(l.end(), urlkit.ComponentPath, ErrBadPath, "empty wpath: a WAIS document is retrieved by its document-id (RFC 1738 3.9)")
		}
		p.Messages = append(p.Messages, WAISRetrieval{Database: v.Database, DocID: id, Type: v.WType, Chunk: WAISChunk})
	}
	return p, nil
}

// DocIDOfFields returns the document-id whose fields RFC 1630's wpath form
// lists (digits "=" value ";"): each field an element of the DocumentID,
// its tag the field number (the WAIS encoding: tag, then length, each a
// base-128 compressed integer, then the value).
func DocIDOfFields(fields []WAISField) string {
	var b []byte
	for _, f := range fields {
		n, _ := strconv.Atoi(f.Number)
		b = AppendWAISInt(b, n)
		b = AppendWAISInt(b, len(f.Value))
		b = append(b, f.Value...)
	}
	return string(b)
}

// AppendWAISInt appends n as WAIS's compressed integer (the form of its
// tags and lengths): base 128, most significant group first, the high bit
// set on every byte but the last. access encodes its messages with it too.
func AppendWAISInt(b []byte, n int) []byte {
	var tmp [10]byte
	i := len(tmp) - 1
	tmp[i] = byte(n & 0x7f)
	for n >>= 7; n > 0; n >>= 7 {
		i--
		tmp[i] = byte(n&0x7f) | 0x80
	}
	return append(b, tmp[i:]...)
}

// WAISDocumentURL returns the URL of a document that a search of the
// database base names (wais://host:port/database, as written) found:
// base/wtype/wpath (RFC 1738 3.9), the type and the document-id (the bytes
// of the DocumentID element) percent-encoded where RFC 1738 5's *uchar
// requires (urlkit.Escape keeps only the unreserved characters for a
// component it has no rule for).
func WAISDocumentURL(base, wtype string, docID []byte) string {
	return base + "/" + urlkit.Escape(wtype, urlkit.ComponentNone) + "/" + urlkit.Escape(string(docID), urlkit.ComponentNone)
}

func (v *WAIS) wireParts() []wirePart {
	if v.Form != WAISSearch {
		return nil
	}
	return []wirePart{{v.search, "WAIS search words"}}
}

// ---- JSON -----------------------------------------------------------------

// writeJSON writes the members of the view's JSON object (the package
// documentation's "JSON keys").
func (v *WAIS) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("host", v.Host)
	w.KNum("port", v.Port)
	w.KStr("form", v.Form)
	w.KStr("database", v.Database)
	w.KNonEmpty("search", v.Search)
	w.KNonEmpty("wtype", v.WType)
	w.KNonEmpty("wpath", v.WPath)
	writePairs(&w, "docid_fields", "number", "value", len(v.DocIDFields), func(i int) (string, string) {
		return v.DocIDFields[i].Number, v.DocIDFields[i].Value
	})
	return w
}

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *WAIS) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// writeJSON writes the plan's own members of its JSON object, before
// "steps".
func (p *WAISPlan) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("addr", p.Addr)
	w.KStr("form", p.Form)
	w.KStr("database", p.Database)
	w.KStr("url", p.URL)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *WAISPlan) MarshalJSON() ([]byte, error) { return planJSON(p) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s WAISInitAPDU) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KNum("preferred_message_size", s.PreferredMessageSize)
	w.KNum("maximum_record_size", s.MaximumRecordSize)
	w.KStr("implementation_name", s.ImplementationName)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s WAISInitAPDU) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s WAISSearchAPDU) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("database", s.Database)
	w.KStr("seed_words", s.SeedWords)
	if s.AskUser {
		w.KBool("ask_user", true)
	}
	w.KNum("max_documents", s.MaxDocuments)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s WAISSearchAPDU) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s WAISRetrieval) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("database", s.Database)
	w.KStr("docid", s.DocID)
	w.KStr("type", s.Type)
	w.KNum("chunk", s.Chunk)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s WAISRetrieval) MarshalJSON() ([]byte, error) { return stepJSON(s) }
