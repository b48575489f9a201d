package main

// Messages for people: inputs quoted in a bounded window around the
// offending byte, and the Go runtime's error texts ("dial tcp: missing
// address", "read tcp a->b: i/o timeout") replaced by plain words that name
// the step which failed.

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/urlkit/urlkit"
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
	if se, ok := err.(*urlkit.SyntaxError); ok && se.Input == text {
		// The common case, without errors.As.
		dst = appendQuoted(dst, text, se.Offset)
		dst = append(dst, ": "...)
		return append(dst, se.Error()...)
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

// plainError returns err's message with the innermost error the Go runtime
// wrote (a net.OpError, a DNS or path error, a timeout) replaced by plain
// words. The outer layers, which name the protocol step, are kept.
func plainError(err error) string {
	if _, ok := err.(*urlkit.SyntaxError); ok {
		return err.Error() // the parser's own words, never the runtime's
	}
	full := err.Error()
	for e := err; e != nil; e = errors.Unwrap(e) {
		plain, ok := plainRuntime(e)
		if !ok {
			continue
		}
		inner := e.Error()
		if strings.HasSuffix(full, inner) {
			return full[:len(full)-len(inner)] + plain
		}
		return full + " (" + plain + ")"
	}
	return full
}

// plainRuntime words one error of the Go runtime for a person.
func plainRuntime(err error) (string, bool) {
	var op *net.OpError
	var dns *net.DNSError
	var addr *net.AddrError
	var pe *fs.PathError
	switch {
	case errors.As(err, &dns):
		if dns.IsNotFound {
			return "host name " + strconv.Quote(dns.Name) + " not found (DNS lookup)", true
		}
		if dns.IsTimeout {
			return "looking up host name " + strconv.Quote(dns.Name) + ": no answer from DNS in time", true
		}
		return "looking up host name " + strconv.Quote(dns.Name) + ": " + dns.Err, true
	case errors.As(err, &op):
		if op.Err != nil && errors.As(op.Err, &addr) {
			return plainAddr(addr), true
		}
		if op.Err != nil && op.Err.Error() == "missing address" {
			return "no server address to connect to", true
		}
		where := ""
		if op.Addr != nil {
			where = op.Addr.String()
		}
		var step string
		switch op.Op {
		case "dial":
			step = "connecting to " + where
		case "read":
			step = "reading from " + where
		case "write":
			step = "sending to " + where
		default:
			step = op.Op + " " + where
		}
		return step + ": " + causeText(op.Err), true
	case errors.As(err, &addr):
		return plainAddr(addr), true
	case errors.As(err, &pe):
		return pe.Op + " " + strconv.Quote(pe.Path) + ": " + causeText(pe.Err), true
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return "no answer within the time limit (--timeout, --connect-timeout)", true
	case errors.Is(err, context.Canceled):
		return "interrupted", true
	}
	return "", false
}

func plainAddr(a *net.AddrError) string {
	if a.Err == "missing address" {
		return "no server address to connect to"
	}
	if a.Addr != "" {
		return "server address " + strconv.Quote(a.Addr) + ": " + a.Err
	}
	return "server address: " + a.Err
}

// causeText words the cause inside a net or path error.
func causeText(err error) string {
	if err == nil {
		return "failed"
	}
	var te interface{ Timeout() bool }
	if errors.As(err, &te) && te.Timeout() {
		return "no answer within the time limit (--timeout, --connect-timeout)"
	}
	return errnoText(err)
}

func errnoText(err error) string {
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused (no server listens on that port)"
	case errors.Is(err, syscall.ECONNRESET):
		return "the server closed the connection abruptly (connection reset)"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "the host cannot be reached from this machine (no route)"
	case errors.Is(err, syscall.EPIPE):
		return "the other side closed the connection"
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, syscall.EISDIR):
		return "is a directory"
	}
	var se *os.SyscallError
	if errors.As(err, &se) {
		return se.Syscall + ": " + se.Err.Error()
	}
	return err.Error()
}

// errorParts returns the offset, component and message of an error about
// the input text, for JSON: the offset is -1 and the component "" when
// the error is not about one place in the input.
func errorParts(text string, err error) (off int, comp, msg string) {
	var re *urlkit.ResolveError
	if errors.As(err, &re) {
		var se *urlkit.SyntaxError
		if (re.Part == "reference" || re.Part == "target") && errors.As(re.Err, &se) && se.Input == text {
			return se.Offset, se.Component.String(), se.Reason() + hintSuffix(re.Err)
		}
		return -1, "", string(describeResolveError(nil, re))
	}
	var se *urlkit.SyntaxError
	if errors.As(err, &se) && se.Input == text {
		return se.Offset, se.Component.String(), se.Reason() + hintSuffix(err)
	}
	return -1, "", plainError(err)
}

// errorKind names the class of a syntax error for JSON's "kind" (the names
// of linkset.Kind, which the link-set pipeline counts by: "bad-escape",
// "unsafe-char"...), or "" for an error that is not about the syntax.
func errorKind(err error) string {
	var se *urlkit.SyntaxError
	if !errors.As(err, &se) {
		return ""
	}
	return linkset.Kind(se)
}

// appendGoQuote is strconv.AppendQuote with a fast path for the common
// case, printable ASCII without '"' or '\': the output is the same.
func appendGoQuote(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return strconv.AppendQuote(b, s)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
