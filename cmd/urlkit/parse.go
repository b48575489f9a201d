package main

import (
	"flag"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/jsonw"
	"github.com/urlkit/urlkit/scheme"
)

func init() {
	register(&command{
		name:    "parse",
		summary: "split URLs into their components, strictly by RFC 1738 (or with --lenient as browsers read them, each repair reported)",
		usage:   "[--json] [--lenient] [--format TEMPLATE] [URL...]",
		lines:   true,
		flags: func(fs *flag.FlagSet) {
			fs.Bool("json", false, "print one JSON object per input")
			addLenientFlag(fs)
			fs.String("format", "", formatUsage)
		},
		run: runParse,
	})
}

// components lists a URL's generic components in the order parse prints
// them, text and JSON alike.
var componentNames = [...]string{"scheme", "user", "password", "host", "port", "path", "search", "fragment"}

// components returns u's components in the order of componentNames, each
// with whether it is present.
func components(u *urlkit.URL) (v [len(componentNames)]string, ok [len(componentNames)]bool) {
	if u.IsAbsolute() {
		v[0], ok[0] = u.Scheme(), true
	}
	v[1], ok[1] = u.User()
	v[2], ok[2] = u.Password()
	if u.HasAuthority() {
		v[3], ok[3] = u.Host(), true
	}
	v[4], ok[4] = u.RawPort()
	v[5], ok[5] = u.Path()
	v[6], ok[6] = u.Search()
	v[7], ok[7] = u.Fragment()
	return
}

// plainResults enables the one-pass result line (appendPlainHead and
// scheme.AppendValidViewJSON); tests turn it off to compare with the
// general writer.
var plainResults = true

// appendPlainHead appends the JSON result line of a URL that is valid,
// needs no JSON escaping, is its input as written and has no warnings, up
// to its view (the input, line, validity, URL and components, and the
// view's key): byte for byte what writeJSON and parse's body write for it
// (TestPlainResultsAgree), in runs of constant text and copied parts.
func appendPlainHead(b []byte, line int, d *decimal, up *urlkit.URL) []byte {
	u := *up
	s := u.String()
	b = append(b, `{"input":"`...)
	b = append(b, s...)
	if line > 0 {
		b = append(b, `","line":`...)
		b = d.append(b, line)
		b = append(b, `,"valid":true,"url":"`...)
	} else {
		b = append(b, `","valid":true,"url":"`...)
	}
	b = append(b, s...)
	b = append(b, '"')
	// components, in componentNames' order
	sc := ""
	if u.IsAbsolute() {
		sc = u.Scheme()
		b = appendPlainKey(b, `,"scheme":"`, sc)
	}
	if v, ok := u.User(); ok {
		b = appendPlainKey(b, `,"user":"`, v)
	}
	if v, ok := u.Password(); ok {
		b = appendPlainKey(b, `,"password":"`, v)
	}
	if u.HasAuthority() {
		b = appendPlainKey(b, `,"host":"`, u.Host())
	}
	if v, ok := u.RawPort(); ok {
		b = appendPlainKey(b, `,"port":"`, v)
	}
	if v, ok := u.Path(); ok {
		b = appendPlainKey(b, `,"path":"`, v)
	}
	if v, ok := u.Search(); ok {
		b = appendPlainKey(b, `,"search":"`, v)
	}
	if v, ok := u.Fragment(); ok {
		b = appendPlainKey(b, `,"fragment":"`, v)
	}
	b = append(b, ',', '"')
	b = append(b, sc...)
	return append(b, '"', ':')
}

// decimal writes line numbers: it keeps the last one's digits, so that
// the next, one more on most lines of a stream, is written by adding one
// to them rather than by dividing (TestDecimal).
type decimal struct {
	n   int
	at  int // the digits are buf[at:]; 0 before the first number
	buf [24]byte
}

// append appends n in decimal.
func (d *decimal) append(b []byte, n int) []byte {
	switch {
	case d.at > 0 && n == d.n:
	case d.at > 0 && n > 1 && n == d.n+1:
		i := len(d.buf) - 1
		for i >= d.at && d.buf[i] == '9' {
			d.buf[i] = '0'
			i--
		}
		if i >= d.at {
			d.buf[i]++
		} else {
			d.at--
			d.buf[d.at] = '1'
		}
		d.n = n
	default:
		var tmp [24]byte
		s := strconv.AppendInt(tmp[:0], int64(n), 10)
		d.at = len(d.buf) - len(s)
		copy(d.buf[d.at:], s)
		d.n = n
	}
	return append(b, d.buf[d.at:]...)
}

// appendPlainKey appends key (`,"name":"`), v and the closing quote.
func appendPlainKey(b []byte, key, v string) []byte {
	b = append(b, key...)
	b = append(b, v...)
	return append(b, '"')
}

// textLabels are the component names padded for the text form.
var textLabels = func() (l [len(componentNames)]string) {
	for i, n := range componentNames {
		l[i] = "  " + n + ":" + "          "[:9-len(n)]
	}
	return
}()

func runParse(e *env, fs *flag.FlagSet, args []string) int {
	asJSON := flagBool(fs, "json")
	rd := readingOf(fs)
	tpl, err := formatFlag(fs)
	if err != nil {
		e.stderr.Write([]byte("urlkit parse: --format: " + err.Error() + "\n"))
		return exitUsage
	}
	return engineFor(e, "parse", fs).run(args, func(o *results, in *input) {
		var u urlkit.URL
		warns, err := rd.urlInto(&u, in.text)
		o.warn(in, in.text, warns)
		parsed := err == nil
		errText := in.text
		if asJSON && parsed && plainResults && len(warns) == 0 && !u.Extended() && u.String() == in.text {
			// Most lines of a stream, a valid file, http or https URL
			// as written: the whole line in one pass, the view written
			// straight from the URL (TestPlainResultsAgree). Anything
			// else, an error included, takes the general path below.
			b := appendPlainHead(o.buf, in.line, &o.line, &u)
			if b, handled, verr := scheme.AppendValidViewJSON(b, u); handled && verr == nil {
				o.buf = append(b, '}', '\n')
				return
			}
		}
		var view scheme.View
		if parsed && u.IsAbsolute() {
			// The generic syntax holds; the scheme's grammar (RFC 1738
			// section 5) must hold too for the URL to be valid. Its
			// offsets are in the URL as parsed (repaired, with --lenient).
			// Only JSON prints the view; text needs the verdict alone.
			if asJSON {
				// Built in the batch's storage: no allocation per line.
				view, err = scheme.ViewInto(&o.view, u)
			} else {
				err = scheme.Validate(u)
			}
			errText = u.String()
			err = rd.hint(in.text, false, err)
		}
		if err != nil {
			o.setStatus(exitInvalid)
			if se, _ := syntaxError(errText, err); se != nil && asJSON && se.Detail == "" {
				// Its reason is written twice, on standard error and in
				// the JSON: worked out once (the same text: Reason
				// returns Detail when it is set).
				se.Detail = se.Reason()
			}
			o.inputError(in, errText, err)
		}
		if asJSON {
			// The components are substrings of the URL: when it needs no
			// escaping (a URL valid by RFC 1738 never does), neither do
			// they, nor the input when it is the URL as written.
			s, plain := "", false
			if parsed {
				s = u.String()
				// A URL of the strict syntax is printable ASCII without
				// '"' or '\\' (RFC 1738 2.2: the rest must be encoded;
				// FuzzParse holds it), so only an extended one is scanned.
				plain = !u.Extended() || jsonw.Plain(s)
				o.plainInput = plain && s == in.text
			}
			o.writeJSON(in, err == nil, errText, err, func(w *jw) {
				if parsed {
					if plain {
						w.KPlain("url", s)
					} else {
						w.KStr("url", s)
					}
					v, ok := components(&u)
					for i, n := range componentNames {
						switch {
						case !ok[i]:
						case plain:
							w.KPlain(n, v[i])
						default:
							w.KStr(n, v[i])
						}
					}
				}
				w.warningsJSON(warns)
				if err == nil && view != nil {
					// A plain URL without "%": the view's strings are its
					// parts as written, copied without a second scan.
					appendView := scheme.AppendViewJSON
					if plain && strings.IndexByte(s, '%') < 0 {
						appendView = scheme.AppendViewJSONPlain
					}
					w.Key(u.Scheme())
					w.Value(func(b []byte) []byte {
						b, ok := appendView(b, view)
						if !ok { // a view a program registered: no keys of its own
							b = append(b, "{}"...)
						}
						return b
					})
				}
			})
			return
		}
		if err != nil {
			return
		}
		if tpl != nil {
			o.buf = append(append(o.buf, tpl.apply(u)...), '\n')
			return
		}
		b := append(o.buf, u.String()...)
		b = append(b, '\n')
		v, ok := components(&u)
		for i := range componentNames {
			if ok[i] {
				b = append(b, textLabels[i]...)
				b = appendGoQuote(b, v[i])
				b = append(b, '\n')
			}
		}
		o.buf = b
	})
}

// inputJSON writes the keys every object starts with: "input" (the input
// as taken: the argument, or the line without its line ending and
// surrounding white space) and, for a line of a stream, "line".
func (w *jw) inputJSON(in *input) {
	w.KStr("input", in.text)
	if in.line > 0 {
		w.KNum("line", in.line)
	}
}
