package main

// How every command reads the URLs it is given: strictly by RFC 1738
// (urlkit.Parse, urlkit.ParseRef) or, with --lenient, by the one lenient
// reading (package lenient). Each command that takes URLs defines the flag
// with addLenientFlag and reads through a reading, so that the flag means
// the same everywhere, every repair is reported the same way, and a strict
// error that the lenient reading would repair says so.

import (
	"errors"
	"flag"
	"strconv"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/lenient"
	"github.com/urlkit/urlkit/scheme"
)

// lenientUsage is the help of --lenient, the same on every command.
const lenientUsage = "read URLs as browsers do (package lenient): encode what RFC 1738 says must be encoded, " +
	"map international host names by IDNA, take IPv6 hosts, browsers' host numbers and a login in http URLs; " +
	"each repair is a warning on stderr"

// addLenientFlag defines --lenient.
func addLenientFlag(fs *flag.FlagSet) { fs.Bool("lenient", false, lenientUsage) }

// A reading reads input URLs for one command.
type reading struct{ lenient bool }

// readingOf returns the reading a command's flags ask for.
func readingOf(fs *flag.FlagSet) reading {
	f := fs.Lookup("lenient")
	return reading{lenient: f != nil && f.Value.String() == "true"}
}

// url reads text as an absolute URL or, with partial, as a URL or a
// partial URL. With checked, an absolute URL must also meet its scheme's
// grammar (scheme.Validate), as parse, canon and equal require.
func (r reading) url(text string, partial, checked bool) (urlkit.URL, []urlkit.Warning, error) {
	var u urlkit.URL
	var warns []urlkit.Warning
	var err error
	switch {
	case r.lenient && partial:
		u, warns, err = lenient.ParseRef(text)
	case r.lenient:
		u, warns, err = lenient.Parse(text)
	case partial:
		u, err = urlkit.ParseRef(text)
	default:
		u, err = urlkit.Parse(text)
	}
	if err == nil && checked && u.IsAbsolute() {
		err = scheme.Validate(u)
	}
	if err != nil {
		return urlkit.URL{}, warns, r.hint(text, partial, err)
	}
	return u, warns, nil
}

// parser returns the function resolve and relative read their operands
// with, and a function that hands over (and forgets) the repairs it made
// to each text.
func (r reading) parser() (parse func(string) (urlkit.URL, error), repairs func() map[string][]urlkit.Warning) {
	if !r.lenient {
		return urlkit.ParseRef, func() map[string][]urlkit.Warning { return nil }
	}
	var got map[string][]urlkit.Warning
	parse = func(s string) (urlkit.URL, error) {
		u, warns, err := lenient.ParseRef(s)
		if err == nil && len(warns) > 0 {
			if got == nil {
				got = map[string][]urlkit.Warning{}
			}
			got[s] = warns
		}
		return u, err
	}
	return parse, func() map[string][]urlkit.Warning {
		g := got
		got = nil
		return g
	}
}

// hint returns err, about text read strictly, ending with what --lenient
// would read instead when the lenient reading repairs text (and the
// result meets its scheme's grammar); otherwise err as it is.
func (r reading) hint(text string, partial bool, err error) error {
	if r.lenient || err == nil {
		return err
	}
	// The repairs are counted, not written: most rejected lines of a
	// stream get a hint (BenchmarkHint).
	u, warns, lerr := lenient.Repairs(text, partial)
	if lerr != nil || warns == 0 || (u.IsAbsolute() && scheme.Validate(u) != nil) {
		return err
	}
	n := strconv.Itoa(warns) + " warnings"
	if warns == 1 {
		n = "1 warning"
	}
	return &hintError{err: err, suffix: "; --lenient reads it as " + quote(urlkit.RedactString(u.String())) + " (" + n + ")"}
}

// hintError is a strict error whose input the lenient reading repairs.
type hintError struct {
	err error
	// suffix is what the hint adds to the error's message: "; --lenient
	// reads it as "REPAIRED" (N warnings)", written once.
	suffix string
}

func (h *hintError) Error() string { return h.err.Error() + h.suffix }
func (h *hintError) Unwrap() error { return h.err }

// hintSuffix returns the hint that err carries, or "".
func hintSuffix(err error) string {
	if h, ok := err.(*hintError); ok {
		return h.suffix
	}
	var h *hintError
	if errors.As(err, &h) {
		return h.suffix
	}
	return ""
}

// syntaxError returns the syntax error about text that err is, or that a
// hint wraps (the common shapes, found without errors.As), with the
// hint's suffix; nil when err is neither.
func syntaxError(text string, err error) (se *urlkit.SyntaxError, suffix string) {
	if h, ok := err.(*hintError); ok {
		err, suffix = h.err, h.suffix
	}
	if se, ok := err.(*urlkit.SyntaxError); ok && se.Input == text {
		return se, suffix
	}
	return nil, ""
}

// warn writes each repair of text on standard error, as
// `"INPUT": warning: offset N in COMPONENT: REASON`, the input quoted
// around the repair with any password masked.
func (o *results) warn(in *input, text string, warns []urlkit.Warning) {
	for _, w := range warns {
		m := appendQuoted(nil, urlkit.RedactString(text), w.Offset)
		m = append(m, ": warning: "...)
		m = append(m, w.String()...)
		o.message(in, m)
	}
}
