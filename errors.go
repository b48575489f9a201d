package urlkit

import (
	"errors"
	"fmt"
	"strconv"
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
	Input     string    // the whole input, as given
	Offset    int       // byte offset in Input of the first offending byte
	Component Component // the component the offending byte is in
	Err       error     // the kind of problem: one of the package's sentinel errors
	Detail    string    // the explanation for a person, naming the rule broken
}

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
	return e.Err.Error()
}

// Unwrap returns the sentinel error that says what kind of problem this is.
func (e *SyntaxError) Unwrap() error { return e.Err }

// A Warning reports a repair [ParseLenient] made to its input.
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
// component c. The reason names the class of the byte and the RFC rule.
func charError(input string, off int, c Component) *SyntaxError {
	b := input[off]
	e := &SyntaxError{Input: input, Offset: off, Component: c}
	cls := table[b]
	switch {
	case b == '%':
		end := off + 3
		if end > len(input) {
			end = len(input)
		}
		e.Err = ErrBadEscape
		e.Detail = fmt.Sprintf("%q is not a valid escape (RFC 1630: %% must be followed by two hex digits)", input[off:end])
	case cls&Space != 0:
		e.Err = ErrUnsafeChar
		e.Detail = "space must be encoded as %20 (RFC 1738 2.2: unsafe)"
	case cls&Control != 0:
		e.Err = ErrUnsafeChar
		e.Detail = fmt.Sprintf("control character 0x%02X must be encoded as %%%02X (RFC 1738 2.2)", b, b)
	case cls&NonASCII != 0:
		e.Err = ErrUnsafeChar
		e.Detail = fmt.Sprintf("byte 0x%02X is not US-ASCII and must be encoded as %%%02X (RFC 1738 2.2)", b, b)
	case b == '#':
		e.Err = ErrUnsafeChar
		e.Detail = `"#" must be encoded as %23: a URL has one fragment, introduced by the first "#" (RFC 1738 2.2)`
	case cls&(National|Punctuation) != 0:
		e.Err = ErrUnsafeChar
		e.Detail = fmt.Sprintf("%q is unsafe and must be encoded as %%%02X (RFC 1738 2.2)", string(rune(b)), b)
	case cls&Reserved != 0:
		e.Err = ErrReservedChar
		e.Detail = fmt.Sprintf("%q is reserved here and must be encoded as %%%02X (RFC 1738 %s)", string(rune(b)), b, reservedRule(c))
	default:
		e.Err = ErrBadChar
		e.Detail = fmt.Sprintf("%q is not allowed here", string(rune(b)))
	}
	return e
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
