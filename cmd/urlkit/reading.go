package main

// How every command reads the URLs it is given: strictly by RFC 1738 or,
// with --lenient, by the one lenient reading, both as package linkset reads
// them (linkset.Read, linkset.ReadRef, and linkset.Parse for canon and
// equal). Each command that takes URLs defines the flag with addLenientFlag
// and reads through a reading, so that the flag means the same everywhere,
// every repair is reported the same way, and a strict error that the
// lenient reading would repair (linkset.Repair) says so. What is here is
// the flag and the wording; the readings are linkset's.

import (
	"errors"
	"flag"
	"strconv"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/linkset"
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

// opts returns the linkset options of the reading.
func (r reading) opts() linkset.Options { return linkset.Options{Lenient: r.lenient} }

// url reads text as an absolute URL by the generic syntax (linkset.Read),
// with the lenient hint on a strict error.
func (r reading) url(text string) (urlkit.URL, []urlkit.Warning, error) {
	var u urlkit.URL
	warns, err := r.urlInto(&u, text)
	return u, warns, err
}

// urlInto is url for a command that reads every line of a stream: the URL
// is written into *u (the zero URL on an error), not returned through
// calls that each copy it.
func (r reading) urlInto(u *urlkit.URL, text string) ([]urlkit.Warning, error) {
	if !r.lenient {
		// linkset.Read's strict reading, called directly: one call
		// fewer, on every line.
		var err error
		if *u, err = urlkit.Parse(text); err != nil {
			*u = urlkit.URL{}
			return nil, r.hintRejected(text, false, err)
		}
		return nil, nil
	}
	var warns []urlkit.Warning
	var err error
	if *u, warns, err = linkset.Read(text, r.opts()); err != nil {
		*u = urlkit.URL{}
		return warns, r.hintRejected(text, false, err)
	}
	return warns, nil
}

// parser returns the function resolve and relative read their operands
// with (linkset.ReadRef), and a function that hands over (and forgets) the
// repairs it made to each text.
func (r reading) parser() (parse func(string) (urlkit.URL, error), repairs func() map[string][]urlkit.Warning) {
	var got map[string][]urlkit.Warning
	parse = func(s string) (urlkit.URL, error) {
		u, warns, err := linkset.ReadRef(s, r.opts())
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
// would read instead when the lenient reading repairs text
// (linkset.Repairs); otherwise err as it is.
func (r reading) hint(text string, partial bool, err error) error {
	return r.hintWith(text, partial, err, linkset.Repairs)
}

// hintRejected is hint for an error of the strict parser itself about
// text (linkset.RepairsRejected), not of a scheme's rules about a URL it
// read.
func (r reading) hintRejected(text string, partial bool, err error) error {
	return r.hintWith(text, partial, err, linkset.RepairsRejected)
}

func (r reading) hintWith(text string, partial bool, err error, repairs func(string, bool) (urlkit.URL, int, bool)) error {
	if r.lenient || err == nil {
		return err
	}
	// The repairs are counted, not written: most rejected lines of a
	// stream get a hint (BenchmarkHint).
	u, warns, ok := repairs(text, partial)
	if !ok {
		return err
	}
	// Written into one buffer, then one string: most rejected lines of a
	// stream get a hint.
	var buf [256]byte
	b := append(buf[:0], "; --lenient reads it as "...)
	b = appendQuoted(b, urlkit.RedactString(u.String()), -1)
	b = append(b, " ("...)
	b = strconv.AppendInt(b, int64(warns), 10)
	if warns == 1 {
		b = append(b, " warning)"...)
	} else {
		b = append(b, " warnings)"...)
	}
	return &hintError{err: err, suffix: string(b)}
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
