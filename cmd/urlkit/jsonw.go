package main

// The command line's JSON result lines, written with the one JSON writer
// (internal/jsonw) that the scheme package's views and plans are written
// with too: no reflection, the same key order everywhere.

import (
	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/jsonw"
)

// jw writes one JSON result line.
type jw struct{ jsonw.Writer }

// errorJSON writes "error": {"offset", "component", "message"} for err
// about the input text: offset is a byte offset in the input (-1 when the
// error is about the input as a whole), component names the part it is in
// ("" when none).
func (w *jw) errorJSON(text string, err error) {
	off, comp, msg, suffix := errorParts(text, err)
	w.Key("error")
	w.Open()
	w.KNum("offset", off)
	// Component and kind names are lower-case words and "-"
	// (TestErrorNamesArePlain).
	w.KPlain("component", comp)
	w.KPlain("kind", errorKind(err))
	// The message and a --lenient hint, written without joining them.
	w.Key("message")
	w.Str2(msg, suffix)
	w.Close()
}

// warningsJSON writes "warnings": [{"offset", "component", "message"}...]
// for the repairs of a lenient reading (parse --lenient, extract), and
// nothing when there are none.
func (w *jw) warningsJSON(warns []urlkit.Warning) {
	if len(warns) == 0 {
		return
	}
	w.Key("warnings")
	w.OpenArray()
	for _, x := range warns {
		w.Open()
		w.KNum("offset", x.Offset)
		w.KStr("component", x.Component.String())
		w.KStr("message", x.Reason)
		w.Close()
	}
	w.CloseArray()
}

// writeJSON writes one result line: {"input", "line", "valid", the
// command's keys (written by body, which may be nil), "error" when err is
// not nil}. errText is the text err's offsets refer to.
func (o *results) writeJSON(in *input, valid bool, errText string, err error, body func(w *jw)) {
	w := &o.jw // reused: a writer per line would escape to the heap (body is a func value)
	w.Writer = jsonw.Writer{B: o.buf}
	w.Open()
	if o.plainInput {
		o.plainInput = false
		w.KPlain("input", in.text)
		if in.line > 0 {
			w.KNum("line", in.line)
		}
	} else {
		w.inputJSON(in)
	}
	w.KBool("valid", valid)
	if body != nil {
		body(w)
	}
	if err != nil {
		w.errorJSON(errText, err)
	}
	w.Close()
	w.End()
	o.buf, w.B = w.B, nil
}
