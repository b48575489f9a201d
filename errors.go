package urlkit

import (
	"errors"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/internal/chars"
)

// Sentinel errors. Every [SyntaxError] wraps one of them, so a caller can
// test the kind of problem with errors.Is.
var (
	ErrEmpty          = errors.New("empty URL")
	ErrMissingScheme  = errors.New("missing scheme")
	ErrBadScheme      = errors.New("invalid scheme name")
	ErrBadEscape      = errors.New("invalid escape")
	ErrBadChar        = errors.New("character not allowed")
	ErrUnsafeChar     = errors.New("unsafe character must be encoded")
	ErrReservedChar   = errors.New("reserved character must be encoded")
	ErrMissingSlashes = errors.New(`missing "//"`)
	ErrMissingHost    = errors.New("missing host")
	ErrBadHost        = errors.New("invalid host")
	ErrBadPort        = errors.New("invalid port")
	ErrEmptyPort      = errors.New("empty port")
)

// A SyntaxError reports why a string is not a URL, and where. It wraps one
// of the sentinel errors (ErrBadEscape, ErrUnsafeChar...), which
// [SyntaxError.Unwrap] returns.
type SyntaxError struct {
	Input  string // the whole input, as given
	Offset int    // byte offset in Input of the first offending byte
	Err    error  // the kind of problem: one of the package's sentinel errors
	// Detail is the explanation for a person, naming the rule broken. When
	// it is empty, Reason derives the explanation from the offending byte,
	// so that the parser's error path does not format strings.
	Detail    string
	n         int32     // a number the explanation quotes
	Component Component // the component the offending byte is in
	why       why       // which derived explanation applies when Detail is ""
}

// why selects an explanation that Reason derives on demand.
type why uint8

const (
	whyChar why = iota // the offending byte, by its class and component
	whyHostEmptyLabel
	whyHostLabelStart
	whyHostLabelEnd
	whyHostTrailingDot
	whyHostNumber
	whyHostTopLabel
	whyHostChar
	whyMissingHost
	whyPortNoHost
	whyEmptyPort
	whyBadPort
	whyLiteralUnclosed
	whyLiteralZone
	whyLiteralFuture
	whyLiteralAddr
	whyLiteralAfter
)

// Error returns a message of the form
//
//	offset 17 in path: "%zz" is not a valid escape (RFC 1630: % must be followed by two hex digits)
func (e *SyntaxError) Error() string {
	var buf [24]byte
	return "offset " + string(strconv.AppendInt(buf[:0], int64(e.Offset), 10)) + " in " + e.Component.String() + ": " + e.Reason()
}

// Reason returns the explanation without the offset and component.
func (e *SyntaxError) Reason() string {
	if e.Detail != "" {
		return e.Detail
	}
	if e.Offset < 0 || e.Offset >= len(e.Input) {
		if e.Err != nil {
			return e.Err.Error()
		}
		return "invalid URL"
	}
	b := e.Input[e.Offset]
	switch e.why {
	case whyHostEmptyLabel:
		return `empty label in host name: labels are separated by single "." (RFC 1738 3.1)`
	case whyHostLabelStart:
		return `a host name label must start with a letter or digit, not "-" (RFC 1738 3.1)`
	case whyHostLabelEnd:
		return `a host name label must end with a letter or digit, not "-" (RFC 1738 3.1)`
	case whyHostTrailingDot:
		return `a host name must not end with "." (RFC 1738 5: hostname ends with a toplabel)`
	case whyHostNumber:
		var buf [96]byte
		b := append(buf[:0], `a host number has exactly four decimal parts separated by ".", not `...)
		b = strconv.AppendInt(b, int64(e.n), 10)
		return string(append(b, ` (RFC 1738 3.1)`...))
	case whyHostTopLabel:
		return "the last label of a host name must start with a letter (RFC 1738 3.1: it tells domain names from IP addresses)"
	case whyHostChar:
		return hostCharReason(b)
	case whyMissingHost:
		return `missing host: the common Internet scheme syntax needs a host after "//" (RFC 1738 3.1)`
	case whyPortNoHost:
		return `missing host: a port needs a host before it (RFC 1738 3.1 and 5: hostport = host [ ":" port ])`
	case whyEmptyPort:
		return `":" with no port after it: when the port is omitted, the ":" is too (RFC 1738 3.1)`
	case whyBadPort:
		return quoteRuneIn("", b, " in port: a port is decimal digits (RFC 1738 3.1)")
	case whyLiteralUnclosed:
		return `"[" without a closing "]": an IPv6 literal is written "[" address "]" (RFC 3986 3.2.2)`
	case whyLiteralZone:
		return `a zone identifier ("%25" and an interface name, RFC 6874) is refused: it names a network interface of one machine, and browsers refuse it too`
	case whyLiteralFuture:
		return `the IPvFuture form ("[v1.x]", RFC 3986 3.2.2) is refused: it names no address any protocol here can reach`
	case whyLiteralAddr:
		lit := e.Input[e.Offset:]
		if i := strings.IndexByte(lit, ']'); i >= 0 {
			lit = lit[:i]
		}
		return quoteIn("", lit, ` is not an IPv6 address (RFC 4291 2.2; an IPv4 address is written without brackets, RFC 3986 3.2.2)`)
	case whyLiteralAfter:
		return quoteRuneIn("", b, ` after the "]" of an IPv6 literal: only ":" and a port may follow it (RFC 3986 3.2.2)`)
	}
	return charReason(e.Input, e.Offset, e.Component)
}

// Unwrap returns the sentinel error that says what kind of problem this is.
func (e *SyntaxError) Unwrap() error { return e.Err }

// A Warning reports a repair the lenient reading (package lenient) made to
// its input, or a rule of RFC 1738 that a URL of the extended syntax is
// read without (see scheme.Relaxed).
type Warning struct {
	Offset    int       // byte offset in the input of the repaired bytes
	Component Component // the component they were in
	Reason    string    // what was wrong and what was done
}

// String returns the warning in the same form as a SyntaxError message.
func (w Warning) String() string {
	return "offset " + strconv.Itoa(w.Offset) + " in " + w.Component.String() + ": " + w.Reason
}

// charError builds the error for a byte that may not appear, unencoded, in
// component c. Its explanation is derived only when asked for.
func charError(input string, off int, c Component) *SyntaxError {
	return &SyntaxError{Input: input, Offset: off, Component: c, Err: charKind(input[off])}
}

// charKind returns the sentinel error for byte b where it is not allowed.
func charKind(b byte) error {
	cls := chars.Table[b]
	switch {
	case b == '%':
		return ErrBadEscape
	case cls&chars.Unsafe != 0:
		return ErrUnsafeChar
	case cls&chars.Reserved != 0:
		return ErrReservedChar
	}
	return ErrBadChar
}

// charReason explains why byte off of input may not appear in component c,
// naming its class and the RFC rule.
func charReason(input string, off int, c Component) string {
	b := input[off]
	cls := chars.Table[b]
	switch {
	case b == '%':
		end := off + 3
		if end > len(input) {
			end = len(input)
		}
		return quoteIn("", input[off:end], " is not a valid escape (RFC 1630: % must be followed by two hex digits)")
	case cls&chars.Space != 0:
		return "space must be encoded as %20 (RFC 1738 2.2: unsafe)"
	case cls&chars.Control != 0:
		return byteIn("control character 0x", b, " must be encoded as %", b, " (RFC 1738 2.2)")
	case cls&chars.NonASCII != 0:
		return byteIn("byte 0x", b, " is not US-ASCII and must be encoded as %", b, " (RFC 1738 2.2)")
	case b == '#':
		return `"#" must be encoded as %23: a URL has one fragment, introduced by the first "#" (RFC 1738 2.2)`
	case cls&(chars.National|chars.Punctuation) != 0:
		return quoteByteIn(b, " is unsafe and must be encoded as %", " (RFC 1738 2.2)")
	case cls&chars.Reserved != 0:
		return quoteByteIn(b, " is reserved here and must be encoded as %", " (RFC 1738 "+reservedRule(c)+")")
	}
	return quoteRuneIn("", b, " is not allowed here")
}

// The explanations are built by hand rather than with fmt: a stream's
// rejected lines each ask for one (the command line writes it twice). The
// quoting is strconv's, which is what fmt's %q does; hex is two upper-case
// digits, fmt's %02X of a byte.

// quoteIn returns pre, q quoted as a Go string, then post, in one
// allocation.
func quoteIn(pre, q, post string) string {
	var buf [192]byte
	b := append(buf[:0], pre...)
	b = strconv.AppendQuote(b, q)
	return string(append(b, post...))
}

// quoteRuneIn returns pre, the character b quoted, then post, in one
// allocation.
func quoteRuneIn(pre string, b byte, post string) string {
	var buf [192]byte
	s := append(buf[:0], pre...)
	s = appendQuoteByte(s, b)
	return string(append(s, post...))
}

// appendQuoteByte appends the character b (U+0000 to U+00FF) quoted as a
// Go string, as strconv.AppendQuote(dst, string(rune(b))) does: printable
// ASCII other than the quote and the backslash as it is.
func appendQuoteByte(dst []byte, b byte) []byte {
	if b >= 0x20 && b < 0x7f && b != '"' && b != '\\' {
		return append(dst, '"', b, '"')
	}
	return strconv.AppendQuote(dst, string(rune(b)))
}

// quoteByteIn returns the character b quoted, mid, b in hex, then post.
func quoteByteIn(b byte, mid, post string) string {
	var buf [192]byte
	s := appendQuoteByte(buf[:0], b)
	s = append(s, mid...)
	s = append(s, chars.UpperHex[b>>4], chars.UpperHex[b&15])
	return string(append(s, post...))
}

// byteIn returns pre, b in hex, mid, then (when post is not empty) b2 in
// hex and post.
func byteIn(pre string, b byte, mid string, b2 byte, post string) string {
	var buf [192]byte
	s := append(buf[:0], pre...)
	s = append(s, chars.UpperHex[b>>4], chars.UpperHex[b&15])
	s = append(s, mid...)
	if post != "" {
		s = append(s, chars.UpperHex[b2>>4], chars.UpperHex[b2&15])
		s = append(s, post...)
	}
	return string(s)
}

func reservedRule(c Component) string {
	switch c {
	case ComponentUser, ComponentPassword:
		return `3.1: within the user and password, ":", "@" and "/" must be encoded`
	case ComponentHost, ComponentPort:
		return "3.1 and 5: hostport"
	}
	return "2.2"
}

func hostCharReason(c byte) string {
	switch {
	case c == '[' || c == ']':
		return `"[" and "]" are not allowed in a host: IPv6 literals came later (RFC 2732) and are not part of RFC 1738`
	case c == '%':
		return `escapes are not allowed in a host: a host is letters, digits, "-" and "." (RFC 1738 3.1)`
	case c == '_':
		return `"_" is not allowed in a host name: labels are letters, digits and "-" (RFC 1738 3.1, RFC 1034 3.5)`
	case chars.Table[c]&(chars.Space|chars.Control|chars.NonASCII) != 0:
		return byteIn("byte 0x", c, ` is not allowed in a host name: labels are letters, digits and "-" (RFC 1738 3.1)`, 0, "")
	case c == '?' || c == ';':
		return quoteRuneIn("", c, ` is not allowed in a host name: the url-path, and any search part, must start with "/" (RFC 1738 3.1)`)
	}
	return quoteRuneIn("", c, ` is not allowed in a host name: labels are letters, digits and "-" (RFC 1738 3.1)`)
}
