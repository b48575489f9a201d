package main

// The one JSON encoder of the command line: a hand-written writer that
// appends to a byte slice, so that --json costs no reflection and keys come
// out in the order the code writes them (the order README documents).
//
// Strings are UTF-8 JSON strings. A byte that is not part of valid UTF-8 is
// written as the escape \udcXX, XX its value in hex: the "surrogateescape"
// convention of Python (PEP 383), so that the exact input bytes can be
// recovered, e.g. in Python with
//
//	json.loads(line)["input"].encode("utf-8", "surrogateescape")
//
// No valid UTF-8 text yields such an escape (U+DC80..U+DCFF are lone
// surrogates, which UTF-8 cannot carry), so the encoding is unambiguous.

import (
	"strconv"
	"unicode/utf8"
)

// jw writes one JSON value.
type jw struct {
	b     []byte
	comma bool // a value was just written: the next one needs ","
}

func (w *jw) sep() {
	if w.comma {
		w.b = append(w.b, ',')
	}
}

func (w *jw) open() {
	w.sep()
	w.b = append(w.b, '{')
	w.comma = false
}

func (w *jw) close() {
	w.b = append(w.b, '}')
	w.comma = true
}

func (w *jw) openArray() {
	w.sep()
	w.b = append(w.b, '[')
	w.comma = false
}

func (w *jw) closeArray() {
	w.b = append(w.b, ']')
	w.comma = true
}

// key writes an object key; k must need no escaping.
func (w *jw) key(k string) {
	w.sep()
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':')
	w.comma = false
}

func (w *jw) str(s string) {
	w.sep()
	w.b = appendJSONString(w.b, s)
	w.comma = true
}

func (w *jw) num(n int) {
	w.sep()
	w.b = strconv.AppendInt(w.b, int64(n), 10)
	w.comma = true
}

func (w *jw) boolean(v bool) {
	w.sep()
	w.b = strconv.AppendBool(w.b, v)
	w.comma = true
}

// raw writes an already encoded JSON value.
func (w *jw) raw(v []byte) {
	w.sep()
	w.b = append(w.b, v...)
	w.comma = true
}

// Convenience: key and value in one call.
func (w *jw) kstr(k, v string) { w.key(k); w.str(v) }
func (w *jw) knum(k string, v int) {
	w.key(k)
	w.num(v)
}
func (w *jw) kbool(k string, v bool) { w.key(k); w.boolean(v) }

// kopt writes k: v when ok (a component that is present, even empty).
func (w *jw) kopt(k, v string, ok bool) {
	if ok {
		w.kstr(k, v)
	}
}

// knonempty writes k: v when v is not empty.
func (w *jw) knonempty(k, v string) {
	if v != "" {
		w.kstr(k, v)
	}
}

func (w *jw) kstrs(k string, vs []string) {
	w.key(k)
	w.openArray()
	for _, v := range vs {
		w.str(v)
	}
	w.closeArray()
}

// end finishes the line.
func (w *jw) end() { w.b = append(w.b, '\n') }

// jsonSafe marks the ASCII bytes that go into a JSON string as they are.
var jsonSafe = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// load8 reads s[i:i+8] as a little-endian word (the compiler makes it one
// load).
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// safe8 reports whether the eight bytes of x are all printable ASCII
// other than '"' and '\\': no byte below 0x20, none at or above 0x80, none
// equal to either quote character (the classic SWAR tests, each of which
// may only err towards "not safe").
func safe8(x uint64) bool {
	low := (x - lo8*0x20) & ^x    // a byte below 0x20
	q := x ^ (lo8 * '"')          // zero where '"'
	bs := x ^ (lo8 * '\\')        // zero where '\\'
	zq := (q - lo8) & ^q          // a zero byte in q
	zb := (bs - lo8) & ^bs        // a zero byte in bs
	return (low|zq|zb|x)&hi8 == 0 // x&hi8: a byte at or above 0x80
}

// appendJSONString appends s as a JSON string (see the file comment for
// bytes that are not UTF-8).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time while none needs a second look.
		for i+8 <= len(s) && safe8(load8(s, i)) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if jsonSafe[c] {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', 'd', 'c', hexDigits[c>>4], hexDigits[c&0xF])
			i++
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// errorJSON writes "error": {"offset", "component", "message"} for err
// about the input text: offset is a byte offset in the input (-1 when the
// error is about the input as a whole), component names the part it is in
// ("" when none).
func (w *jw) errorJSON(text string, err error) {
	off, comp, msg := errorParts(text, err)
	w.key("error")
	w.open()
	w.knum("offset", off)
	w.kstr("component", comp)
	w.kstr("kind", errorKind(err))
	w.kstr("message", msg)
	w.close()
}

// writeJSON writes one result line: {"input", "line", "valid", the
// command's keys (written by body, which may be nil), "error" when err is
// not nil}. errText is the text err's offsets refer to.
func (o *results) writeJSON(in *input, valid bool, errText string, err error, body func(w *jw)) {
	w := jw{b: o.buf}
	w.open()
	w.inputJSON(in)
	w.kbool("valid", valid)
	if body != nil {
		body(&w)
	}
	if err != nil {
		w.errorJSON(errText, err)
	}
	w.close()
	w.end()
	o.buf = w.b
}
