package jsonw

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAppendJSONString(t *testing.T) {
	for in, want := range map[string]string{
		"plain":           `"plain"`,
		"q\"b\\n\n\t\x01": `"q\"b\\n\n\t\u0001"`,
		"caf\xc3\xa9":     "\"caf\xc3\xa9\"",
		"\xff\xc3":        `"\udcff\udcc3"`,
		"\u2028<&>":       "\"\u2028<&>\"",
	} {
		if got := string(AppendString(nil, in)); got != want {
			t.Errorf("%q: got %s, want %s", in, got, want)
		}
	}
}

// safe8 agrees with the byte table for every byte value at every position
// of an otherwise safe word, and for pairs of unsafe bytes.
func TestSafe8(t *testing.T) {
	base := []byte("abcdefgh")
	for pos := range 8 {
		for c := range 256 {
			w := append([]byte(nil), base...)
			w[pos] = byte(c)
			want := true
			for _, b := range w {
				want = want && jsonSafe[b] && b < 0x80
			}
			if got := safe8(load8(string(w), 0)); got != want {
				t.Errorf("%q: safe8 %v, want %v", w, got, want)
			}
			w[(pos+3)%8] = '"'
			if safe8(load8(string(w), 0)) {
				t.Errorf("%q: safe8 true", w)
			}
		}
	}
}

// appendStringByByte is AppendString written the plain way, a byte at a
// time: the reference the word-at-a-time scan is held to.
func appendStringByByte(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case jsonSafe[c]:
			b = append(b, c)
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, '\\', 'u', 'd', 'c', hexDigits[c>>4], hexDigits[c&0xF])
				break
			}
			b = append(b, s[i:i+size]...)
			i += size
			continue
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
	}
	return append(b, '"')
}

// AppendString agrees with the byte-at-a-time reference for strings of 0
// to 40 bytes with a byte that needs a second look (a quote, a control, a
// UTF-8 sequence whole or cut) at every position, the tail of fewer than
// eight bytes included.
func TestAppendStringTails(t *testing.T) {
	specials := []string{"\"", "\\", "\n", "\x01", "\x7f", "\xc3\xa9", "\xc3", "\xe2\x80\xa8", "\xff"}
	for n := 0; n <= 40; n++ {
		base := strings.Repeat("a", n)
		check := func(s string) {
			if got, want := string(AppendString(nil, s)), string(appendStringByByte(nil, s)); got != want {
				t.Errorf("%q: got %s, want %s", s, got, want)
			}
		}
		check(base)
		for pos := 0; pos <= n; pos++ {
			for _, sp := range specials {
				check(base[:pos] + sp + base[pos:])
			}
		}
	}
}

// Plain is true exactly for the ASCII strings to which AppendString adds
// nothing but the quotes (UTF-8 text, which needs no escaping either, is
// not Plain: the check stays one word at a time).
func TestPlain(t *testing.T) {
	for _, s := range []string{"", "a", "http://a.example/x?y=1#z", strings.Repeat("x", 17), "a\"b", "x\\", "caf\xc3\xa9", "\x7f", "tab\there", strings.Repeat("y", 15) + "\n", strings.Repeat("z", 9) + "\xff"} {
		ascii := true
		for i := 0; i < len(s); i++ {
			ascii = ascii && s[i] < utf8.RuneSelf
		}
		want := ascii && string(AppendString(nil, s)) == `"`+s+`"`
		if Plain(s) != want {
			t.Errorf("Plain(%q) = %v, want %v", s, Plain(s), want)
		}
		if want {
			w := Writer{}
			w.KPlain("k", s)
			if string(w.B) != `"k":"`+s+`"` {
				t.Errorf("KPlain wrote %s", w.B)
			}
		}
	}
}

// Str2 writes the same string as Str of the two parts joined, wherever
// they are cut, invalid UTF-8 and split characters included.
func TestStr2(t *testing.T) {
	for _, s := range []string{"", "abc", `a"b\c`, "é\x01\n", "x\xc3\xa9y", "\xc3\xa9\xff\xe2\x82\xacz", "0123456789abcdef\"0123"} {
		for i := 0; i <= len(s); i++ {
			for _, trusted := range []bool{false, true} {
				if trusted && !Plain(s) {
					continue
				}
				a, b := s[:i], s[i:]
				w1 := Writer{Trusted: trusted}
				w1.OpenArray()
				w1.Str(s)
				w1.CloseArray()
				w2 := Writer{Trusted: trusted}
				w2.OpenArray()
				w2.Str2(a, b)
				w2.CloseArray()
				if string(w1.B) != string(w2.B) {
					t.Errorf("Str2(%q, %q) = %s, Str(%q) = %s", a, b, w2.B, s, w1.B)
				}
			}
		}
	}
}
