package urlkit

import (
	"errors"
	"fmt"
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
	return "offset " + strconv.Itoa(e.Offset) + " in " + e.Component.String() + ": " + e.Reason()
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
		return fmt.Sprintf(`a host number has exactly four decimal parts separated by ".", not %d (RFC 1738 3.1)`, e.n)
	case whyHostTopLabel:
		return "the last label of a host name must start with a letter (RFC 1738 3.1: it tells domain names from IP addresses)"
	case whyHostChar:
		return hostCharReason(b)
	case whyMissingHost:
		return `missing host: the common Internet scheme syntax needs a host after "//" (RFC 1738 3.1)`
	case whyEmptyPort:
		return `":" with no port after it: when the port is omitted, the ":" is too (RFC 1738 3.1)`
	case whyBadPort:
		return fmt.Sprintf("%q in port: a port is decimal digits (RFC 1738 3.1)", string(rune(b)))
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
		return fmt.Sprintf(`%q is not an IPv6 address (RFC 4291 2.2; an IPv4 address is written without brackets, RFC 3986 3.2.2)`, lit)
	case whyLiteralAfter:
		return fmt.Sprintf(`%q after the "]" of an IPv6 literal: only ":" and a port may follow it (RFC 3986 3.2.2)`, string(rune(b)))
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
		return fmt.Sprintf("byte 0x%02X is not allowed in a host name: labels are letters, digits and \"-\" (RFC 1738 3.1)", c)
	case c == '?' || c == ';':
		return fmt.Sprintf("%q is not allowed in a host name: the url-path, and any search part, must start with \"/\" (RFC 1738 3.1)", string(rune(c)))
	}
	return fmt.Sprintf("%q is not allowed in a host name: labels are letters, digits and \"-\" (RFC 1738 3.1)", string(rune(c)))
}
