package main

// JSON for the scheme views of package scheme: the presentation of the
// typed views lives here, beside the rest of the command line's JSON, not
// as struct tags in the library (as mvdan.cc/sh keeps syntax/typedjson
// apart from its syntax tree).

import (
	"github.com/urlkit/urlkit/scheme"
)

// typeString returns a type code as a string: "" for 0 (to be guessed).
func typeString(t byte) string {
	if t == 0 {
		return ""
	}
	return string(rune(t))
}

// viewJSON writes the fields of a scheme view as one object. It reports
// false, writing nothing, for a view type it does not know (a scheme a
// program registered itself).
func (w *jw) viewJSON(v scheme.View) bool {
	switch v := v.(type) {
	case *scheme.FTP:
		w.open()
		w.kstr("host", v.Host)
		w.knum("port", v.Port)
		w.kopt("user", v.User, v.HasUser)
		w.kopt("password", v.Password, v.HasPassword)
		w.kstrs("cwd", v.CWD)
		w.kstr("name", v.Name)
		w.kstr("type", typeString(v.Type))
	case *scheme.HTTP:
		w.open()
		w.kstr("host", v.Host)
		w.knum("port", v.Port)
		w.kopt("user", v.User, v.HasUser)
		w.kopt("password", v.Password, v.HasPassword)
		w.kstr("path", v.Path)
		w.kopt("search", v.Search, v.HasSearch)
	case *scheme.Gopher:
		w.open()
		w.kstr("host", v.Host)
		w.knum("port", v.Port)
		w.kstr("type", typeString(v.Type))
		w.kstr("selector", v.Selector)
		w.kopt("search", v.Search, v.HasSearch)
		w.kopt("plus", v.PlusString, v.HasPlus)
		if p := v.Plus; p != nil {
			w.key("plus_parsed")
			w.open()
			w.kstr("kind", p.Kind)
			w.knonempty("view", p.View)
			w.knonempty("language", p.Language)
			if len(p.Attributes) > 0 {
				w.kstrs("attributes", p.Attributes)
			}
			if len(p.Values) > 0 {
				w.kstrs("values", p.Values)
			}
			w.close()
		}
	case *scheme.Mailto:
		w.open()
		w.kstr("address", v.Address)
	case *scheme.MID:
		w.open()
		w.kstr("id", v.ID)
		w.kstr("header", v.Header)
	case *scheme.News:
		w.open()
		w.kbool("all", v.All)
		w.knonempty("group", v.Group)
		w.knonempty("message_id", v.MessageID)
	case *scheme.NNTP:
		w.open()
		w.kstr("host", v.Host)
		w.knum("port", v.Port)
		w.kstr("group", v.Group)
		w.knonempty("article", v.Article)
	case *scheme.Prospero:
		w.open()
		w.kstr("host", v.Host)
		w.knum("port", v.Port)
		w.kstr("hsoname", v.HSOName)
		if len(v.Fields) > 0 {
			w.key("fields")
			w.openArray()
			for _, f := range v.Fields {
				w.open()
				w.kstr("name", f.Name)
				w.kstr("value", f.Value)
				w.close()
			}
			w.closeArray()
		}
		w.kopt("version", v.Version, v.HasVersion)
		if len(v.Attributes) > 0 {
			w.kstrs("attributes", v.Attributes)
		}
	case *scheme.Telnet:
		w.open()
		w.kstr("program", v.Program)
		w.kstr("host", v.Host)
		w.knum("port", v.Port)
		w.kopt("user", v.User, v.HasUser)
		w.kopt("password", v.Password, v.HasPassword)
	case *scheme.WAIS:
		w.open()
		w.kstr("host", v.Host)
		w.knum("port", v.Port)
		w.kstr("form", v.Form)
		w.kstr("database", v.Database)
		w.knonempty("search", v.Search)
		w.knonempty("wtype", v.WType)
		w.knonempty("wpath", v.WPath)
		if len(v.DocIDFields) > 0 {
			w.key("docid_fields")
			w.openArray()
			for _, f := range v.DocIDFields {
				w.open()
				w.kstr("number", f.Number)
				w.kstr("value", f.Value)
				w.close()
			}
			w.closeArray()
		}
	case *scheme.File:
		w.open()
		w.kstr("host", v.Host)
		w.kbool("local", v.Local)
		w.kstrs("segments", v.Segments)
	case *scheme.Generic:
		w.open()
		w.kstr("scheme", v.Scheme)
		w.kbool("experimental", v.Experimental)
		w.kstr("opaque", v.Opaque)
	case *scheme.Reserved:
		w.open()
		w.kstr("scheme", v.Scheme)
		w.kstr("source", v.Source)
		w.kbool("reserved", v.Reserved)
		w.kstr("opaque", v.Opaque)
	default:
		return false
	}
	w.close()
	return true
}
