// Package jsonw is the one JSON writer of urlkit's presentation: the
// scheme package's views, plans and steps and the command line's result
// lines. It appends to a byte slice by hand, so that JSON costs no
// reflection and keys come out in the order the code writes them.
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
package jsonw

import (
	"strconv"
	"unicode/utf8"
)

// Writer writes one JSON value into B: call the methods in the order the
// value is written; separators are added where they belong.
type Writer struct {
	B     []byte
	comma bool // a value was just written: the next one needs ","
	// Trusted: the caller knows that every string it writes needs no
	// escaping (Plain would accept it), so Str copies it without a scan.
	Trusted bool
}

func (w *Writer) sep() {
	if w.comma {
		w.B = append(w.B, ',')
	}
}

// Open starts an object.
func (w *Writer) Open() { w.open('{') }

// Close ends an object.
func (w *Writer) Close() { w.close('}') }

// OpenArray starts an array.
func (w *Writer) OpenArray() { w.open('[') }

// CloseArray ends an array.
func (w *Writer) CloseArray() { w.close(']') }

func (w *Writer) open(c byte) {
	w.sep()
	w.B = append(w.B, c)
	w.comma = false
}

func (w *Writer) close(c byte) {
	w.B = append(w.B, c)
	w.comma = true
}

// Key writes an object key; k must need no escaping.
func (w *Writer) Key(k string) {
	b := w.B // in a register: every append to w.B would reload it
	if w.comma {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, k...)
	w.B = append(b, '"', ':')
	w.comma = false
}

// Str writes a string.
func (w *Writer) Str(s string) {
	w.sep()
	if w.Trusted {
		b := append(w.B, '"')
		b = append(b, s...)
		w.B = append(b, '"')
	} else {
		w.B = AppendString(w.B, s)
	}
	w.comma = true
}

// Num writes an integer.
func (w *Writer) Num(n int) {
	w.sep()
	w.B = strconv.AppendInt(w.B, int64(n), 10)
	w.comma = true
}

// Bool writes true or false.
func (w *Writer) Bool(v bool) {
	w.sep()
	w.B = strconv.AppendBool(w.B, v)
	w.comma = true
}

// Raw writes an already encoded JSON value.
func (w *Writer) Raw(v []byte) {
	w.sep()
	w.B = append(w.B, v...)
	w.comma = true
}

// Value writes the value that app appends to a byte slice (a JSON value,
// such as one of the scheme package's objects).
func (w *Writer) Value(app func(b []byte) []byte) {
	w.sep()
	w.B = app(w.B)
	w.comma = true
}

// KStr writes k: v.
func (w *Writer) KStr(k, v string) { w.Key(k); w.Str(v) }

// KPlain writes k: v for a v that needs no escaping (Plain(v) is true),
// copied as it is.
func (w *Writer) KPlain(k, v string) {
	w.Key(k)
	b := append(w.B, '"')
	b = append(b, v...)
	w.B = append(b, '"')
	w.comma = true
}

// Plain reports whether s goes into a JSON string as it is: printable
// ASCII with no '"' or '\\' (as every URL valid by RFC 1738 is).
func Plain(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if !safe8(load8(s, i)) {
			return false
		}
	}
	for ; i < len(s); i++ {
		if !jsonSafe[s[i]] {
			return false
		}
	}
	return true
}

// KNum writes k: v.
func (w *Writer) KNum(k string, v int) { w.Key(k); w.Num(v) }

// KBool writes k: v.
func (w *Writer) KBool(k string, v bool) { w.Key(k); w.Bool(v) }

// KOpt writes k: v when ok (a component that is present, even empty).
func (w *Writer) KOpt(k, v string, ok bool) {
	if ok {
		w.KStr(k, v)
	}
}

// KNonEmpty writes k: v when v is not empty.
func (w *Writer) KNonEmpty(k, v string) {
	if v != "" {
		w.KStr(k, v)
	}
}

// KStrs writes k: [vs...].
func (w *Writer) KStrs(k string, vs []string) {
	w.Key(k)
	w.OpenArray()
	for _, v := range vs {
		w.Str(v)
	}
	w.CloseArray()
}

// End finishes a line of JSON Lines output.
func (w *Writer) End() { w.B = append(w.B, '\n') }

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

// AppendString appends s to b as a JSON string (see the package comment
// for bytes that are not UTF-8).
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendBody(b, s)
	return append(b, '"')
}

// Str2 writes one string, a followed by b, without joining them first.
func (w *Writer) Str2(a, b string) {
	if b == "" || b[0] >= utf8.RuneSelf {
		// A byte of b might complete a character that a's last bytes
		// begin: the two are escaped as one string.
		w.Str(a + b)
		return
	}
	w.sep()
	if w.Trusted {
		w.B = append(w.B, '"')
		w.B = append(w.B, a...)
		w.B = append(w.B, b...)
	} else {
		w.B = append(w.B, '"')
		w.B = appendBody(w.B, a)
		w.B = appendBody(w.B, b)
	}
	w.B = append(w.B, '"')
	w.comma = true
}

// appendBody appends s as the inside of a JSON string, without quotes.
func appendBody(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time while none needs a second look.
		for i+8 <= len(s) && safe8(load8(s, i)) {
			i += 8
		}
		// Fewer than eight bytes left: the last eight of s, which
		// overlap those already seen, decide them at once when all are
		// safe.
		if i+8 > len(s) && len(s) >= 8 && safe8(load8(s, len(s)-8)) {
			i = len(s)
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
	return append(b, s[start:]...)
}
