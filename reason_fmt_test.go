package urlkit

import (
	"fmt"
	"testing"

	"github.com/urlkit/urlkit/internal/chars"
)

// The explanations are built by hand (a rejected line of a stream asks for
// one, and fmt cost a tenth of parse --json's time on such lines). These
// references are the fmt formats they were written with: the texts must be
// the same for every byte.

func refCharReason(input string, off int, c Component) string {
	b := input[off]
	cls := chars.Table[b]
	switch {
	case b == '%':
		end := min(off+3, len(input))
		return fmt.Sprintf("%q is not a valid escape (RFC 1630: %% must be followed by two hex digits)", input[off:end])
	case cls&chars.Space != 0:
		return "space must be encoded as %20 (RFC 1738 2.2: unsafe)"
	case cls&chars.Control != 0:
		return fmt.Sprintf("control character 0x%02X must be encoded as %%%02X (RFC 1738 2.2)", b, b)
	case cls&chars.NonASCII != 0:
		return fmt.Sprintf("byte 0x%02X is not US-ASCII and must be encoded as %%%02X (RFC 1738 2.2)", b, b)
	case b == '#':
		return `"#" must be encoded as %23: a URL has one fragment, introduced by the first "#" (RFC 1738 2.2)`
	case cls&(chars.National|chars.Punctuation) != 0:
		return fmt.Sprintf("%q is unsafe and must be encoded as %%%02X (RFC 1738 2.2)", string(rune(b)), b)
	case cls&chars.Reserved != 0:
		return fmt.Sprintf("%q is reserved here and must be encoded as %%%02X (RFC 1738 %s)", string(rune(b)), b, reservedRule(c))
	}
	return fmt.Sprintf("%q is not allowed here", string(rune(b)))
}

func refHostCharReason(c byte) string {
	switch {
	case c == '[' || c == ']':
		return `"[" and "]" are not allowed in a host: IPv6 literals came later (RFC 2732) and are not part of RFC 1738`
	case c == '%':
		return `escapes are not allowed in a host: a host is letters, digits, "-" and "." (RFC 1738 3.1)`
	case c == '_':
		return `"_" is not allowed in a host name: labels are letters, digits and "-" (RFC 1738 3.1, RFC 1034 3.5)`
	case chars.Table[c]&(chars.Space|chars.Control|chars.NonASCII) != 0:
		return fmt.Sprintf("byte 0x%02X is not allowed in a host name: labels are letters, digits and \"-\" (RFC 1738 3.1)", c)
	case c == '?' || c == ';':
		return fmt.Sprintf("%q is not allowed in a host name: the url-path, and any search part, must start with \"/\" (RFC 1738 3.1)", string(rune(c)))
	}
	return fmt.Sprintf("%q is not allowed in a host name: labels are letters, digits and \"-\" (RFC 1738 3.1)", string(rune(c)))
}

func TestReasonsAgreeWithFmt(t *testing.T) {
	comps := []Component{ComponentNone, ComponentScheme, ComponentUser, ComponentPassword, ComponentHost,
		ComponentPort, ComponentPath, ComponentSearch, ComponentFragment, ComponentOpaque}
	for b := range 256 {
		for _, tail := range []string{"", "4", "zz", "41"} {
			in := "x" + string([]byte{byte(b)}) + tail
			for _, c := range comps {
				if got, want := charReason(in, 1, c), refCharReason(in, 1, c); got != want {
					t.Errorf("charReason(%q, 1, %v) = %q, fmt gives %q", in, c, got, want)
				}
			}
		}
		if got, want := hostCharReason(byte(b)), refHostCharReason(byte(b)); got != want {
			t.Errorf("hostCharReason(0x%02X) = %q, fmt gives %q", b, got, want)
		}
		in := "http://h:" + string([]byte{byte(b)})
		e := &SyntaxError{Input: in, Offset: len(in) - 1, Component: ComponentPort, why: whyBadPort}
		if got, want := e.Reason(), fmt.Sprintf("%q in port: a port is decimal digits (RFC 1738 3.1)", string(rune(b))); got != want {
			t.Errorf("bad port 0x%02X: %q, fmt gives %q", b, got, want)
		}
		e.why = whyLiteralAfter
		if got, want := e.Reason(), fmt.Sprintf(`%q after the "]" of an IPv6 literal: only ":" and a port may follow it (RFC 3986 3.2.2)`, string(rune(b))); got != want {
			t.Errorf("after literal 0x%02X: %q, fmt gives %q", b, got, want)
		}
	}
	for _, n := range []int32{0, 1, 3, 5, 17, 1234} {
		e := &SyntaxError{Input: "http://1.2.3/", Offset: 7, Component: ComponentHost, why: whyHostNumber, n: n}
		if got, want := e.Reason(), fmt.Sprintf(`a host number has exactly four decimal parts separated by ".", not %d (RFC 1738 3.1)`, n); got != want {
			t.Errorf("host number %d: %q, fmt gives %q", n, got, want)
		}
	}
	for _, lit := range []string{"1.2.3.4", "::g", "x\"y\\z\x01é"} {
		in := "http://[" + lit + "]/"
		e := &SyntaxError{Input: in, Offset: 8, Component: ComponentHost, why: whyLiteralAddr}
		if got, want := e.Reason(), fmt.Sprintf(`%q is not an IPv6 address (RFC 4291 2.2; an IPv4 address is written without brackets, RFC 3986 3.2.2)`, lit); got != want {
			t.Errorf("literal %q: %q, fmt gives %q", lit, got, want)
		}
	}
	for _, off := range []int{0, 5, 123, 99999} {
		e := &SyntaxError{Input: string(make([]byte, off+1)), Offset: off, Component: ComponentPath, Detail: "d"}
		if got, want := e.Error(), fmt.Sprintf("offset %d in path: d", off); got != want {
			t.Errorf("Error() = %q, want %q", got, want)
		}
	}
}
