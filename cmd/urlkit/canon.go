package main

import (
	"flag"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/linkset"
)

func init() {
	register(&command{
		name:    "canon",
		summary: "bring URLs to one encoding level (RFC 1630 equivalence); partial forms need resolve first",
		usage:   "[--json] [--lenient] [URL...]",
		lines:   true,
		flags: func(fs *flag.FlagSet) {
			fs.Bool("json", false, "print one JSON object per input")
			addLenientFlag(fs)
		},
		run: runCanon,
	})
	register(&command{
		name:    "equal",
		summary: "report whether URLs are equivalent (RFC 1630): all arguments against the first, or two URLs per input line",
		usage:   "[--json] [--lenient] [URL URL...]",
		lines:   true,
		flags: func(fs *flag.FlagSet) {
			fs.Bool("json", false, "print one JSON object per comparison")
			addLenientFlag(fs)
		},
		run: runEqual,
	})
}

// readURL reads an input of canon and equal as the link-set pipeline
// reads a line (linkset.Parse): a URL, by its scheme's rules too, and with
// --lenient by the lenient reading, as urlkit-beam --lenient reads it. A
// strict error the lenient reading would repair says so (reading.hint).
func (r reading) readURL(s string) (urlkit.URL, []urlkit.Warning, error) {
	u, warns, err := linkset.Parse(s, linkset.Options{Lenient: r.lenient})
	if err != nil {
		return u, warns, r.hint(s, false, err)
	}
	return u, warns, nil
}

func runCanon(e *env, fs *flag.FlagSet, args []string) int {
	asJSON := flagBool(fs, "json")
	rd := readingOf(fs)
	return engineFor(e, "canon", fs).run(args, func(o *results, in *input) {
		u, warns, err := rd.readURL(in.text)
		o.warn(in, in.text, warns)
		if err != nil {
			o.fail(in, err)
		}
		if !asJSON {
			if err == nil {
				o.buf = append(append(o.buf, urlkit.Canonical(u).String()...), '\n')
			}
			return
		}
		o.writeJSON(in, err == nil, in.text, err, func(w *jw) {
			if err == nil {
				w.KStr("canonical", urlkit.Canonical(u).String())
			}
		})
	})
}

func runEqual(e *env, fs *flag.FlagSet, args []string) int {
	asJSON := flagBool(fs, "json")
	g := engineFor(e, "equal", fs)
	rd := readingOf(fs)
	// compare compares a and b; warnA says whether to report a's repairs
	// (the first argument's are reported once, before the others).
	compare := func(o *results, in *input, a, b string, warnA bool) {
		ua, warns, err := rd.readURL(a)
		if warnA {
			o.warn(in, a, warns)
		}
		text := a
		if err == nil {
			ub, warns, errb := rd.readURL(b)
			o.warn(in, b, warns)
			err, text = errb, b
			if err == nil {
				eq := urlkit.Equal(ua, ub)
				if !eq {
					o.setStatus(exitInvalid)
				}
				if asJSON {
					o.writeJSON(in, true, "", nil, func(w *jw) {
						w.KStr("a", a)
						w.KStr("b", b)
						w.KBool("equal", eq)
						w.KStr("canonical_a", urlkit.Canonical(ua).String())
						w.KStr("canonical_b", urlkit.Canonical(ub).String())
					})
					return
				}
				if eq {
					o.buf = append(o.buf, "equal\t"...)
				} else {
					o.buf = append(o.buf, "different\t"...)
				}
				o.buf = append(append(append(append(o.buf, a...), '\t'), b...), '\n')
				return
			}
		}
		o.setStatus(exitInvalid)
		o.inputError(in, text, err)
		if asJSON {
			o.writeJSON(in, false, text, err, func(w *jw) {
				w.KStr("a", a)
				w.KStr("b", b)
			})
		}
	}
	if len(args) == 1 {
		e.stderr.Write([]byte("urlkit equal: need at least two URLs, or none to read pairs from standard input\n"))
		return exitUsage
	}
	if len(args) > 1 {
		first := args[0] // an argument is taken exactly as given
		if _, warns, err := rd.readURL(first); err == nil {
			for _, w := range warns {
				e.stderr.Write([]byte("urlkit equal: " + string(appendQuoted(nil, urlkit.RedactString(first), w.Offset)) + ": warning: " + w.String() + "\n"))
			}
		}
		return g.run(args[1:], func(o *results, in *input) { compare(o, in, first, in.text, false) })
	}
	return g.run(nil, func(o *results, in *input) {
		f := strings.Fields(in.text)
		if len(f) != 2 {
			o.setStatus(exitInvalid)
			m := appendQuoted(nil, in.text, -1)
			m = append(m, ": want two URLs separated by white space, found "...)
			m = append(m, [...]string{"none", "one", "two", "three"}[min(len(f), 3)]...)
			if len(f) > 3 {
				m = append(m, " or more"...)
			}
			o.message(in, m)
			return
		}
		compare(o, in, f[0], f[1], true)
	})
}
