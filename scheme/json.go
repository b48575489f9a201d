package scheme

// The JSON presentation of views, plans and steps: one hand-written layer
// (on internal/jsonw, the writer the command line's result lines use too),
// whose keys the package documentation lists under "JSON keys". Every
// view, plan and step type implements json.Marshaler with it, so that
// encoding/json and urlkit's own output give the same objects.

import (
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/jsonw"
)

// AppendViewJSON appends the JSON object of v to b (the keys the package
// documentation lists under "JSON keys") and reports true; for a view type
// this package does not define (a scheme a program registered) it returns
// b and false.
func AppendViewJSON(b []byte, v View) ([]byte, bool) { return appendView(b, v, false) }

// AppendViewJSONPlain is [AppendViewJSON] for the view of a URL that
// needs no JSON escaping (printable ASCII without '"' or '\\', as every
// URL valid by RFC 1738 is) and holds no "%": the strings of a file or
// http view are then parts of the URL as written (nothing to decode), so
// they are copied without a second scan. Other views are written as
// AppendViewJSON writes them. The caller checks the condition; the output
// is AppendViewJSON's (TestAppendViewJSONPlain).
func AppendViewJSONPlain(b []byte, v View) ([]byte, bool) {
	switch v.(type) {
	case *File, *HTTP:
		return appendView(b, v, true)
	}
	return appendView(b, v, false)
}

// AppendValidViewJSON checks a file, http or https URL of the built-in
// schemes against its grammar, as [Validate] does, and appends its view's
// JSON object, as [AppendViewJSONPlain] writes it, straight from the URL:
// no view is built. handled is false, and b returned as it
// is, for any other URL (one with "%" or needing escapes included); err
// is the grammar's error (nothing appended).
// urlkit parse --json writes most of its lines' views with it
// (TestAppendValidViewJSON holds it to ViewOf and AppendViewJSON).
func AppendValidViewJSON(b []byte, u urlkit.URL) (_ []byte, handled bool, err error) {
	if !u.IsAbsolute() || strings.IndexByte(u.String(), '%') >= 0 || u.Extended() && !jsonw.Plain(u.String()) {
		return b, false, nil
	}
	sc, _ := Lookup(u.RawScheme()) // For, without copying u
	bi, ok := sc.(builtin)
	if !ok {
		return b, false, nil
	}
	switch bi.name {
	case "file":
		if err := checkFile(u); err != nil {
			return b, true, err
		}
		host := u.Host()
		b = append(b, `{"host":"`...)
		b = append(b, host...)
		if localHost(host) {
			b = append(b, `","local":true,"segments":["`...)
		} else {
			b = append(b, `","local":false,"segments":["`...)
		}
		// The segments are the parts between "/" (File.fill), as they
		// are written: each "/" becomes `","`.
		raw := u.PathAndSearch()
		for {
			k := strings.IndexByte(raw, '/')
			if k < 0 {
				break
			}
			b = append(b, raw[:k]...)
			b = append(b, `","`...)
			raw = raw[k+1:]
		}
		b = append(b, raw...)
		return append(b, `"]}`...), true, nil
	case "http", "https":
		if err := checkHTTP(u); err != nil {
			return b, true, err
		}
		// DefaultPort's 80 and 443, without its lookup on every line
		// (HTTP.fill asks DefaultPort; TestAppendValidViewJSON compares
		// the two views).
		def := 80
		if bi.name == "https" {
			def = 443
		}
		port, _ := portOf(u, def)
		b = append(b, `{"host":"`...)
		b = append(b, u.Host()...)
		b = append(b, `","port":`...)
		b = strconv.AppendInt(b, int64(port), 10)
		if user, ok := u.User(); ok {
			b = append(b, `,"user":"`...)
			b = append(b, user...)
			b = append(b, '"')
			if pw, ok := u.Password(); ok {
				b = append(b, `,"password":"`...)
				b = append(b, pw...)
				b = append(b, '"')
			}
		}
		path, _ := u.Path()
		b = append(b, `,"path":"`...)
		b = append(b, path...)
		if search, ok := u.Search(); ok {
			b = append(b, `","search":"`...)
			b = append(b, search...)
		}
		return append(b, '"', '}'), true, nil
	}
	return b, false, nil
}

// appendView appends v's object to b; trusted: its strings need no
// escaping (jsonw.Writer.Trusted).
func appendView(b []byte, v View, trusted bool) ([]byte, bool) {
	w := jsonw.Writer{B: b, Trusted: trusted}
	if !writeView(&w, v) {
		return b, false
	}
	return w.B, true
}

// AppendPlanJSON appends the JSON object of p to b: the keys of its
// scheme's plan, then "steps". A plan type this package does not define
// gives {"steps": [...]}, each step by its Op and Text.
func AppendPlanJSON(b []byte, p Plan) []byte {
	w := jsonw.Writer{B: b}
	writePlan(&w, p)
	return w.B
}

// AppendStepJSON appends the JSON object of s to b: "op", the keys of its
// type, "text". A step type this package does not define gives {"op",
// "text"}.
func AppendStepJSON(b []byte, s Step) []byte {
	w := jsonw.Writer{B: b}
	writeStep(&w, s)
	return w.B
}

// typeString returns a type code as a string: "" for 0 (to be guessed).
func typeString(t byte) string {
	if t == 0 {
		return ""
	}
	return string(rune(t))
}

// writeLogin writes the keys of a login: "host", "port", "user" and
// "password" (these two when present).
func writeLogin(w *jsonw.Writer, host string, port int, user string, hasUser bool, password string, hasPassword bool) {
	w.KStr("host", host)
	w.KNum("port", port)
	w.KOpt("user", user, hasUser)
	w.KOpt("password", password, hasPassword)
}

// writePairs writes key as an array of n objects, each with two string
// members k1 and k2 whose values at gives; nothing when n is 0.
func writePairs(w *jsonw.Writer, key, k1, k2 string, n int, at func(i int) (string, string)) {
	if n == 0 {
		return
	}
	w.Key(key)
	w.OpenArray()
	for i := 0; i < n; i++ {
		a, b := at(i)
		w.Open()
		w.KStr(k1, a)
		w.KStr(k2, b)
		w.Close()
	}
	w.CloseArray()
}

func writeView(w *jsonw.Writer, v View) bool {
	switch v := v.(type) {
	case *FTP:
		w.Open()
		writeLogin(w, v.Host, v.Port, v.User, v.HasUser, v.Password, v.HasPassword)
		w.KStrs("cwd", v.CWD)
		w.KStr("name", v.Name)
		w.KStr("type", typeString(v.Type))
	case *HTTP:
		w.Open()
		writeLogin(w, v.Host, v.Port, v.User, v.HasUser, v.Password, v.HasPassword)
		w.KStr("path", v.Path)
		w.KOpt("search", v.Search, v.HasSearch)
	case *Gopher:
		w.Open()
		w.KStr("host", v.Host)
		w.KNum("port", v.Port)
		w.KStr("type", typeString(v.Type))
		w.KStr("selector", v.Selector)
		w.KOpt("search", v.Search, v.HasSearch)
		w.KOpt("plus", v.PlusString, v.HasPlus)
		if p := v.Plus; p != nil {
			w.Key("plus_parsed")
			w.Open()
			w.KStr("kind", p.Kind)
			w.KNonEmpty("view", p.View)
			w.KNonEmpty("language", p.Language)
			if len(p.Attributes) > 0 {
				w.KStrs("attributes", p.Attributes)
			}
			if len(p.Values) > 0 {
				w.KStrs("values", p.Values)
			}
			w.Close()
		}
	case *Mailto:
		w.Open()
		w.KStr("address", v.Address)
	case *MID:
		w.Open()
		w.KStr("id", v.ID)
		w.KStr("header", v.Header)
	case *News:
		w.Open()
		w.KBool("all", v.All)
		w.KNonEmpty("group", v.Group)
		w.KNonEmpty("message_id", v.MessageID)
	case *NNTP:
		w.Open()
		w.KStr("host", v.Host)
		w.KNum("port", v.Port)
		w.KStr("group", v.Group)
		w.KNonEmpty("article", v.Article)
	case *Prospero:
		w.Open()
		w.KStr("host", v.Host)
		w.KNum("port", v.Port)
		w.KStr("hsoname", v.HSOName)
		writePairs(w, "fields", "name", "value", len(v.Fields), func(i int) (string, string) { return v.Fields[i].Name, v.Fields[i].Value })
		w.KOpt("version", v.Version, v.HasVersion)
		if len(v.Attributes) > 0 {
			w.KStrs("attributes", v.Attributes)
		}
	case *Telnet:
		w.Open()
		w.KStr("program", v.Program)
		writeLogin(w, v.Host, v.Port, v.User, v.HasUser, v.Password, v.HasPassword)
	case *WAIS:
		w.Open()
		w.KStr("host", v.Host)
		w.KNum("port", v.Port)
		w.KStr("form", v.Form)
		w.KStr("database", v.Database)
		w.KNonEmpty("search", v.Search)
		w.KNonEmpty("wtype", v.WType)
		w.KNonEmpty("wpath", v.WPath)
		writePairs(w, "docid_fields", "number", "value", len(v.DocIDFields), func(i int) (string, string) {
			return v.DocIDFields[i].Number, v.DocIDFields[i].Value
		})
	case *File:
		w.Open()
		w.KStr("host", v.Host)
		w.KBool("local", v.Local)
		w.KStrs("segments", v.Segments)
	case *Generic:
		w.Open()
		w.KStr("scheme", v.Scheme)
		w.KBool("experimental", v.Experimental)
		w.KStr("opaque", v.Opaque)
	case *Reserved:
		w.Open()
		w.KStr("scheme", v.Scheme)
		w.KStr("source", v.Source)
		w.KBool("reserved", v.Reserved)
		w.KStr("opaque", v.Opaque)
	default:
		return false
	}
	w.Close()
	return true
}

func writePlan(w *jsonw.Writer, p Plan) {
	w.Open()
	switch p := p.(type) {
	case *FTPPlan:
		w.KStr("addr", p.Addr)
		w.Key("cwd")
		w.OpenArray()
		for _, c := range p.Commands {
			if c.Verb == FTPCwd {
				w.Str(c.Arg)
			}
		}
		w.CloseArray()
		w.KStr("name", p.Name)
		w.KStr("type", typeString(p.Type))
		w.KBool("type_guessed", p.Guessed)
		w.KBool("list", p.List)
		if p.Head {
			w.KBool("head", true)
		}
	case *GopherPlan:
		w.KStr("addr", p.Addr)
		w.KStr("type", typeString(p.Type))
		w.KStr("selector", p.Selector)
		w.KOpt("search", p.Search, p.HasSearch)
		w.KOpt("plus", p.PlusString, p.HasPlus)
		w.KStr("reply", p.Reply)
	case *NNTPPlan:
		w.KStr("addr", p.Addr)
		w.KNonEmpty("group", p.Group)
		w.KNonEmpty("article", p.Article)
		w.KNonEmpty("message_id", p.MessageID)
		w.KBool("list_groups", p.ListGroups)
	case *HTTPPlan:
		w.KStr("addr", p.Addr)
		w.KBool("tls", p.TLS)
		w.KNonEmpty("server_name", p.ServerName)
		w.KStr("url", p.URL)
		w.KBool("compressed", p.Compressed)
		w.KStr("proxy_request_line", p.ProxyRequestLine)
	case *Session:
		w.KStr("program", p.Program)
		w.KStr("addr", hostPort(p.Host, p.Port))
		w.KOpt("user", p.User, p.HasUser)
	case *MailPlan:
		w.KStr("to", p.To)
	case *FilePlan:
		w.KStr("path", p.Path)
	case *WAISPlan:
		w.KStr("addr", p.Addr)
		w.KStr("form", p.Form)
		w.KStr("database", p.Database)
		w.KStr("url", p.URL)
	case *ProsperoPlan:
		w.KStr("addr", p.Addr)
		w.KStr("hsoname", p.HSOName)
	case *LookupPlan:
		w.KStr("header", p.Header)
		w.KStr("value", p.Value)
	}
	w.Key("steps")
	w.OpenArray()
	for _, s := range p.Steps() {
		writeStep(w, s)
	}
	w.CloseArray()
	w.Close()
}

func writeStep(w *jsonw.Writer, s Step) {
	w.Open()
	w.KStr("op", s.Op())
	switch s := s.(type) {
	case Connect:
		w.KStr("addr", s.Addr)
		if s.TLS {
			w.KBool("tls", true)
			w.KStr("server_name", s.ServerName)
		}
	case FTPCommand:
		if s.hasArg() && s.Pass != PassURL && s.Pass != PassAsk {
			w.KStr("arg", s.Arg)
		}
		if s.Pass != 0 {
			w.KStr("source", s.Pass.String())
		}
		if s.Feature != 0 {
			w.KStr("feature", FTPCommand{Verb: s.Feature}.Op())
		}
		if s.Else[0] != 0 {
			w.Key("else")
			w.OpenArray()
			for _, e := range s.Else {
				if e != 0 {
					w.Str(FTPCommand{Verb: e}.Op())
				}
			}
			w.CloseArray()
		}
		if s.Guessed {
			w.KBool("guessed", true)
		}
	case FTPIfDirectory:
		w.KStr("refused", FTPCommand{Verb: s.Verb}.Op())
		w.KStr("name", s.Name)
	case NNTPCommand:
		if int(s.Verb) < len(nntpVerbs) && nntpVerbs[s.Verb].arg == argAlways {
			w.KStr("arg", s.Arg)
		}
		if s.Else != 0 {
			w.Key("else")
			w.OpenArray()
			w.Str(NNTPCommand{Verb: s.Else}.Op())
			w.CloseArray()
		}
	case GopherRequest:
		w.KStr("selector", s.Selector)
		w.KOpt("search", s.Search, s.HasSearch)
		w.KOpt("plus", s.PlusString, s.HasPlus)
		if s.Form {
			w.KBool("form", true)
		}
		w.KStr("line", s.Line())
	case GopherRead:
		w.KStr("type", typeString(s.Type))
		w.KStr("as", s.As)
		if s.Plus {
			w.KBool("plus_header", true)
		}
	case HTTPRequestLine:
		w.KStr("method", s.Method)
		w.KStr("request_uri", s.RequestURI)
		w.KStr("version", s.Version)
	case HeaderField:
		w.KStr("name", s.Name)
		_, v, _ := strings.Cut(s.Redacted(), ": ") // an Authorization field's credentials masked
		w.KStr("value", v)
	case StartSession:
		w.KStr("program", s.Program)
		w.KStr("addr", s.Addr)
	case AdviseUser:
		w.KStr("user", s.Name)
	case Compose:
		w.KStr("to", s.To)
	case OpenFile:
		w.KStr("path", s.Path)
	case WAISInitAPDU:
		w.KNum("preferred_message_size", s.PreferredMessageSize)
		w.KNum("maximum_record_size", s.MaximumRecordSize)
		w.KStr("implementation_name", s.ImplementationName)
	case WAISSearchAPDU:
		w.KStr("database", s.Database)
		w.KStr("seed_words", s.SeedWords)
		if s.AskUser {
			w.KBool("ask_user", true)
		}
		w.KNum("max_documents", s.MaxDocuments)
	case WAISRetrieval:
		w.KStr("database", s.Database)
		w.KStr("docid", s.DocID)
		w.KStr("type", s.Type)
		w.KNum("chunk", s.Chunk)
	case ProsperoRequest:
		w.KStr("when", s.When)
		w.KStr("reply", s.Reply)
	case ProsperoVersion:
		w.KNum("version", s.Version)
	case ProsperoAuthenticate:
		w.KStr("type", s.Type)
		w.KStr("data", s.Data)
	case ProsperoDirectory:
		w.KStr("hsoname_type", s.HSONameType)
		w.KStr("hsoname", s.HSOName)
		w.KNonEmpty("object_version", s.ObjectVersion)
	case ProsperoList:
		w.KStr("options", s.Options)
		if len(s.Components) > 0 {
			w.KStrs("components", s.Components)
		}
	case ProsperoGetObjectInfo:
		w.KStrs("attributes", s.Attributes)
		w.KStr("hsoname_type", s.HSONameType)
		w.KStr("hsoname", s.HSOName)
		w.KStr("object_version", s.ObjectVersion)
	case ProsperoSelect:
		w.KStr("applies_to", s.AppliesTo)
		w.KStr("namespace", s.Namespace)
		w.KStr("name", s.Name)
		w.KStr("value_type", s.ValueType)
		w.KStr("value", s.Value)
	}
	w.KStr("text", s.Text())
	w.Close()
}

// hasArg reports whether the command's line carries its argument.
func (c FTPCommand) hasArg() bool {
	if int(c.Verb) >= len(ftpVerbs) {
		return false
	}
	switch ftpVerbs[c.Verb].arg {
	case argAlways:
		return true
	case argIfAny:
		return c.Arg != ""
	}
	return false
}

// The json.Marshaler of every view, plan and step type: the objects of
// AppendViewJSON, AppendPlanJSON and AppendStepJSON.

func viewJSON(v View) ([]byte, error) { b, _ := AppendViewJSON(nil, v); return b, nil }
func planJSON(p Plan) ([]byte, error) { return AppendPlanJSON(nil, p), nil }
func stepJSON(s Step) ([]byte, error) { return AppendStepJSON(nil, s), nil }

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *FTP) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *HTTP) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *Gopher) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *Mailto) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *MID) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *News) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *NNTP) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *Prospero) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *Telnet) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *WAIS) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *File) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *Generic) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *Reserved) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *FTPPlan) MarshalJSON() ([]byte, error) { return planJSON(p) }

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *GopherPlan) MarshalJSON() ([]byte, error) { return planJSON(p) }

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *NNTPPlan) MarshalJSON() ([]byte, error) { return planJSON(p) }

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *HTTPPlan) MarshalJSON() ([]byte, error) { return planJSON(p) }

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *Session) MarshalJSON() ([]byte, error) { return planJSON(p) }

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *MailPlan) MarshalJSON() ([]byte, error) { return planJSON(p) }

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *FilePlan) MarshalJSON() ([]byte, error) { return planJSON(p) }

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *WAISPlan) MarshalJSON() ([]byte, error) { return planJSON(p) }

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *ProsperoPlan) MarshalJSON() ([]byte, error) { return planJSON(p) }

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *LookupPlan) MarshalJSON() ([]byte, error) { return planJSON(p) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s Connect) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s Action) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s FTPCommand) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s NNTPCommand) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s GopherRequest) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s GopherRead) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s HTTPRequestLine) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s HeaderField) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s HTTPEndHeader) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s HTTPRead) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s FTPIfDirectory) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s StartSession) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s AdviseUser) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s AdvisePassword) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s Compose) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s OpenFile) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s WAISInitAPDU) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s WAISSearchAPDU) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s WAISRetrieval) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s ProsperoRequest) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s ProsperoVersion) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s ProsperoAuthenticate) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s ProsperoDirectory) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s ProsperoList) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s ProsperoGetObjectInfo) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s ProsperoStatus) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s ProsperoSelect) MarshalJSON() ([]byte, error) { return stepJSON(s) }
