package main

// Messages for people: inputs quoted in a bounded window around the
// offending byte, and the Go runtime's error texts ("dial tcp: missing
// address", "read tcp a->b: i/o timeout") replaced by plain words that name
// the step which failed (access.PlainError, shared with the gateway).

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/internal/jsonw"
	"github.com/urlkit/urlkit/linkset"
)

// quoteWindow is how many bytes of an input a message quotes at most.
const quoteWindow = 80

// appendQuoted appends s quoted as a Go string literal would be, but at
// most quoteWindow bytes of it around offset off (the start when off < 0),
// with "..." outside the quotes where bytes were left out.
func appendQuoted(dst []byte, s string, off int) []byte {
	if len(s) <= quoteWindow {
		return appendGoQuote(dst, s)
	}
	if off < 0 || off > len(s) {
		off = 0
	}
	start := max(off-quoteWindow/2, 0)
	end := min(start+quoteWindow, len(s))
	start = max(end-quoteWindow, 0)
	// Cut on character boundaries where the text is UTF-8.
	for start > 0 && start < len(s) && !utf8.RuneStart(s[start]) && off-start < quoteWindow/2+4 {
		start--
	}
	for end < len(s) && !utf8.RuneStart(s[end]) && end-off < quoteWindow/2+4 {
		end++
	}
	if start > 0 {
		dst = append(dst, "..."...)
	}
	dst = appendGoQuote(dst, s[start:end])
	if end < len(s) {
		dst = append(dst, "..."...)
	}
	return dst
}

// describeInputError appends `"INPUT": MESSAGE` for an error about input
// text: the input quoted around the error's offset, then what was wrong and
// where.
func describeInputError(dst []byte, text string, err error) []byte {
	if se, suffix := syntaxError(text, err); se != nil {
		// The common cases, without errors.As.
		dst = appendQuoted(dst, text, se.Offset)
		dst = append(dst, ": "...)
		dst = appendSyntaxError(dst, se)
		return append(dst, suffix...)
	}
	var re *urlkit.ResolveError
	if errors.As(err, &re) {
		return describeResolveError(dst, re)
	}
	off := -1
	var se *urlkit.SyntaxError
	if errors.As(err, &se) && se.Input == text {
		off = se.Offset
	}
	dst = appendQuoted(dst, text, off)
	dst = append(dst, ": "...)
	return append(dst, plainError(err)...)
}

// appendSyntaxError appends se.Error(), "offset N in COMPONENT: REASON",
// without building the string.
func appendSyntaxError(dst []byte, se *urlkit.SyntaxError) []byte {
	dst = append(dst, "offset "...)
	dst = strconv.AppendInt(dst, int64(se.Offset), 10)
	dst = append(dst, " in "...)
	dst = append(dst, se.Component.String()...)
	dst = append(dst, ": "...)
	return append(dst, se.Reason()...)
}

// describeResolveError names the operand at fault and quotes it.
func describeResolveError(dst []byte, re *urlkit.ResolveError) []byte {
	off := -1
	var se *urlkit.SyntaxError
	if errors.As(re.Err, &se) {
		off = se.Offset
	}
	switch re.Part {
	case "base":
		dst = append(dst, "base "...)
		dst = appendQuoted(dst, re.Base, off)
	case "result":
		dst = appendQuoted(dst, re.Ref, -1)
		dst = append(dst, ": the result "...)
		dst = appendQuoted(dst, re.Result, off)
	default:
		dst = append(dst, re.Part...)
		dst = append(dst, ' ')
		dst = appendQuoted(dst, re.Ref, off)
	}
	dst = append(dst, ": "...)
	return append(dst, plainError(re.Err)...)
}

// describeError appends "STEP: MESSAGE" in plain words.
func describeError(err error, step string) []byte {
	return []byte(step + ": " + plainError(err))
}

// plainError is err's message in plain words: access.PlainError, which
// the gateway's error pages use too, so the wording is written once.
func plainError(err error) string { return access.PlainError(err) }

// errorParts returns the offset, component and message of an error about
// the input text, for JSON, and the --lenient hint that follows the
// message (suffix, "" when none): the offset is -1 and the component ""
// when the error is not about one place in the input.
func errorParts(text string, err error) (off int, comp, msg, suffix string) {
	if se, suffix := syntaxError(text, err); se != nil {
		return se.Offset, se.Component.String(), se.Reason(), suffix // the common cases
	}
	var re *urlkit.ResolveError
	if errors.As(err, &re) {
		var se *urlkit.SyntaxError
		if (re.Part == "reference" || re.Part == "target") && errors.As(re.Err, &se) && se.Input == text {
			return se.Offset, se.Component.String(), se.Reason(), hintSuffix(re.Err)
		}
		return -1, "", string(describeResolveError(nil, re)), ""
	}
	var se *urlkit.SyntaxError
	if errors.As(err, &se) && se.Input == text {
		return se.Offset, se.Component.String(), se.Reason(), hintSuffix(err)
	}
	return -1, "", plainError(err), ""
}

// errorKind names the class of a syntax error for JSON's "kind" (the names
// of linkset.Kind, which the link-set pipeline counts by: "bad-escape",
// "unsafe-char"...), or "" for an error that is not about the syntax.
func errorKind(err error) string {
	if h, ok := err.(*hintError); ok {
		err = h.err
	}
	if se, ok := err.(*urlkit.SyntaxError); ok {
		return linkset.Kind(se)
	}
	var se *urlkit.SyntaxError
	if !errors.As(err, &se) {
		return ""
	}
	return linkset.Kind(se)
}

// appendGoQuote is strconv.AppendQuote with a fast path for the common
// case, printable ASCII without '"' or '\': the output is the same.
func appendGoQuote(b []byte, s string) []byte {
	// jsonw.Plain tests the same bytes eight at a time, but for DEL,
	// which Go quotes and JSON does not (TestAppendGoQuote).
	if !jsonw.Plain(s) || strings.IndexByte(s, 0x7f) >= 0 {
		return strconv.AppendQuote(b, s)
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
