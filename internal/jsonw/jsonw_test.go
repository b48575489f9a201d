package jsonw

import "testing"

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
