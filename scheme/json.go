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
	_, plain := v.(plainView)
	return appendView(b, v, plain)
}

// AppendValidViewJSON checks a file, http or https URL of the built-in
// schemes against its grammar, as [Validate] does, and appends its view's
// JSON object, as [AppendViewJSONPlain] writes it, straight from the URL:
// no view is built (the code is written out here, not called through a
// function of the scheme's: see ViewInto). handled is false, and b returned as it is, for any other URL (one
// with "%" or needing escapes included); err is the grammar's error
// (nothing appended).
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

// A jsonView writes the members of its view's JSON object, the keys the
// package documentation lists under "JSON keys"; each view type does so
// in its scheme's file. The writer goes in and comes back by value, so
// that it stays on the caller's stack (a pointer passed through an
// interface method would move it to the heap: an allocation per view).
type jsonView interface {
	writeJSON(w jsonw.Writer) jsonw.Writer
}

// A jsonPlan writes the members of its plan's JSON object before "steps".
type jsonPlan interface {
	writeJSON(w jsonw.Writer) jsonw.Writer
}

// A jsonStep writes the members of its step's JSON object between "op" and
// "text"; a step with none (HTTPEndHeader, AdvisePassword...) has no
// method.
type jsonStep interface {
	writeJSON(w jsonw.Writer) jsonw.Writer
}

// A plainView is a view whose strings are parts of its URL as written
// (file, http): for a URL that needs no JSON escaping and holds no "%",
// AppendViewJSONPlain copies them without a second scan.
type plainView interface{ plainJSON() }

func writeView(w *jsonw.Writer, v View) bool {
	jv, ok := v.(jsonView)
	if !ok {
		return false
	}
	w.Open()
	*w = jv.writeJSON(*w)
	w.Close()
	return true
}

func writePlan(w *jsonw.Writer, p Plan) {
	w.Open()
	if jp, ok := p.(jsonPlan); ok {
		*w = jp.writeJSON(*w)
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
	if js, ok := s.(jsonStep); ok {
		*w = js.writeJSON(*w)
	}
	w.KStr("text", s.Text())
	w.Close()
}

// The json.Marshaler of every view, plan and step type: the objects of
// AppendViewJSON, AppendPlanJSON and AppendStepJSON.

func viewJSON(v View) ([]byte, error) { b, _ := AppendViewJSON(nil, v); return b, nil }
func planJSON(p Plan) ([]byte, error) { return AppendPlanJSON(nil, p), nil }
func stepJSON(s Step) ([]byte, error) { return AppendStepJSON(nil, s), nil }
