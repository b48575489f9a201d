package access

import (
	"strings"
	"testing"
	"unicode"
)

// The invisible formatting characters (Unicode's Bidi_Control property,
// UAX #9 section 2: the embeddings, overrides, isolates and marks; and
// the other default-ignorable format characters of category Cf that are
// not needed to write a script) are escaped in what get shows, so that a
// listed "photo\u202egpj.exe" cannot read as "photoexe.jpg" (issue 34,
// finding 5); ZWNJ and ZWJ, which scripts and emoji need, are not.
func TestFormatControls(t *testing.T) {
	for _, r := range []rune{0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c} {
		if !unicode.Is(unicode.Bidi_Control, r) || !IsFormatControl(r) {
			t.Errorf("U+%04X: bidi control %v, IsFormatControl %v", r, unicode.Is(unicode.Bidi_Control, r), IsFormatControl(r))
		}
	}
	// Every Bidi_Control character is one.
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if unicode.Is(unicode.Bidi_Control, r) && !IsFormatControl(r) {
			t.Errorf("U+%04X is a bidi control, not counted", r)
		}
		// Every one counted is a format character (Cf) or unassigned.
		if IsFormatControl(r) && !unicode.Is(unicode.Cf, r) && unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z) {
			t.Errorf("U+%04X is counted and is not a format character", r)
		}
	}
	for _, r := range []rune{'a', 0x200c, 0x200d, 0x05d0, 0x0627, 0xe9, 0x1f600, 0xac} {
		if IsFormatControl(r) {
			t.Errorf("U+%04X counted", r)
		}
	}
	for in, want := range map[string]string{
		"photo\u202egpj.exe":    `photo\u202egpj.exe`,
		"a\u2066b\u2069c":       `a\u2066b\u2069c`,
		"\u200fx\u200ey\u061c":  `\u200fx\u200ey\u061c`,
		"zero\u200bwidth\ufeff": `zero\u200bwidth\ufeff`,
		"tag\U000e0041":         `tag\U000e0041`,
		"\x1b[31m\u202e":        `\x1b[31m\u202e`,
		"שלום.txt":              "שלום.txt",
		"क्‍ष emoji 👩‍💻":        "क्‍ष emoji 👩‍💻",
	} {
		if got := EscapeText(in); got != want {
			t.Errorf("EscapeText(%q) = %q, want %q", in, got, want)
		}
	}
	// The escaped text holds no such character.
	if strings.ContainsFunc(EscapeText("x\u202e\u2067\u200f"), IsFormatControl) {
		t.Error("escaped text holds a format control")
	}
}
