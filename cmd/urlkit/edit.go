package main

import (
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/edit"
	"github.com/urlkit/urlkit/lenient"
	"github.com/urlkit/urlkit/scheme"
)

func init() {
	register(&command{
		name:    "edit",
		summary: "change parts of URLs (set, append, delete, sort the search, follow a redirect), strictly",
		usage:   "[--lenient] [--set PART=VALUE] [--append path=SEGMENT] [--append search=KEY=VALUE] [--delete PART|search:GLOB] [--keep search:GLOB] [--sort-search] [--redirect REF] [--canonical] [--format TEMPLATE] [--json] [URL...]",
		lines:   true,
		flags: func(fs *flag.FlagSet) {
			ops := &editOps{}
			fs.Var(editFlag{ops, "set"}, "set", "set `PART=VALUE`; VALUE is data, encoded for the part (PART:=VALUE takes it already encoded). "+
				"PART is one of "+partNameList())
			fs.Var(editFlag{ops, "append"}, "append", "append `path=SEGMENT` (one segment, encoded) or search=KEY=VALUE (one pair, encoded; search=KEY adds the key alone)")
			fs.Var(editFlag{ops, "delete"}, "delete", "remove `PART`, or search:GLOB to remove the search pairs whose key matches GLOB (\"*\" any run of characters, \"?\" one, \"\\\" quotes: search:utm_*), as trurl's --trim query=GLOB")
			fs.Var(editFlag{ops, "keep"}, "keep", "keep only the search pairs whose key matches `search:GLOB` (repeat for several: a pair matching any is kept)")
			fs.Var(editFlag{ops, "redirect"}, "redirect", "resolve `REF` against the URL, as a browser follows a redirect (RFC 3986 5.2; see --mode)")
			fs.Var(editBoolFlag{ops, "sort-search"}, "sort-search", "sort the search part's pairs by key, then value (unchanged pairs keep their bytes)")
			fs.TextVar(new(urlkit.Mode), "mode", urlkit.ModeRFC3986, "resolution mode of --redirect: rfc3986 (as browsers, curl and trurl), rfc1630, libwww or rfc1808")
			fs.Bool("canonical", false, "write each result in canonical form (urlkit canon)")
			addLenientFlag(fs)
			fs.String("format", "", formatUsage)
			fs.Bool("json", false, "print one JSON object per input, the edited URL as \"result\"")
		},
		run: runEdit,
	})
}

// An editOp is one edit, in the order given on the command line.
type editOp struct {
	verb string // set, append, delete, redirect, sort-search
	arg  string
}

// editOps collects the edits of one command line, shared by the flags
// that add to it.
type editOps struct{ list []editOp }

type editFlag struct {
	ops  *editOps
	verb string
}

func (f editFlag) String() string { return "" }
func (f editFlag) Set(s string) error {
	if err := checkEditArg(f.verb, s); err != nil {
		return err
	}
	f.ops.list = append(f.ops.list, editOp{f.verb, s})
	return nil
}

type editBoolFlag editFlag

func (f editBoolFlag) String() string   { return "" }
func (f editBoolFlag) IsBoolFlag() bool { return true }
func (f editBoolFlag) Set(s string) error {
	if s == "true" {
		f.ops.list = append(f.ops.list, editOp{f.verb, ""})
	}
	return nil
}

// searchKeyPattern returns the GLOB of "search:GLOB" (or trurl's
// "query:GLOB"), and whether arg has that form.
func searchKeyPattern(arg string) (string, bool) {
	if g, ok := strings.CutPrefix(arg, "search:"); ok {
		return g, true
	}
	return strings.CutPrefix(arg, "query:")
}

// checkEditArg checks the shape of a flag's argument when it is given, so
// that a usage mistake stops the command before any input is read. The
// part names are those of escape and --format (parts.go).
func checkEditArg(verb, s string) error {
	switch verb {
	case "set":
		name, _, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("%q: want PART=VALUE, PART one of %s", s, partNameList())
		}
		if _, known := partByName(strings.TrimSuffix(name, ":")); !known {
			return fmt.Errorf("%q: unknown part %q; the parts are %s", s, name, partNameList())
		}
	case "append":
		name, _, ok := strings.Cut(s, "=")
		if c, _ := partByName(name); !ok || (c != urlkit.ComponentPath && c != urlkit.ComponentSearch) {
			return fmt.Errorf("%q: want path=SEGMENT or search=KEY=VALUE", s)
		}
	case "delete":
		if _, isKey := searchKeyPattern(s); isKey {
			return nil
		}
		c, known := partByName(s)
		if c == urlkit.ComponentOpaque {
			return fmt.Errorf("%q: the scheme-specific part of a URL without \"//\" cannot be removed, only set (--set opaque=...)", s)
		}
		if !known {
			return fmt.Errorf("%q: unknown part; --delete takes a part (%s) or search:GLOB, the search pairs whose key matches GLOB", s, partNameList())
		}
	case "keep":
		if _, isKey := searchKeyPattern(s); !isKey {
			return fmt.Errorf("%q: --keep takes search:GLOB, the search pairs to keep by key (\"*\" any run of characters, \"?\" one)", s)
		}
	}
	return nil
}

// applyEdit applies one edit to u. A --redirect reference is read as rd
// reads URLs (its repairs reported through o for line), by the extended
// syntax when u is of it.
func applyEdit(o *results, line *input, rd reading, u urlkit.URL, op editOp, mode urlkit.Mode) (urlkit.URL, error) {
	switch op.verb {
	case "set":
		name, value, _ := strings.Cut(op.arg, "=")
		encoded := strings.HasSuffix(name, ":")
		c, _ := partByName(strings.TrimSuffix(name, ":"))
		if c == urlkit.ComponentPath && u.HasAuthority() {
			// The "/" that separates the path from the host is not part of
			// urlkit's path (RFC 1738 3.1); accept it, as trurl does.
			value = strings.TrimPrefix(value, "/")
		}
		if c == urlkit.ComponentHost && rd.lenient {
			// --lenient reads a host value as it reads a URL's host:
			// IDNA, escapes, browsers' host numbers, IPv6 literals.
			v, warns, err := lenient.Set(u, c, value)
			o.warn(line, value, warns)
			return v, err
		}
		if encoded {
			return edit.Set(u, c, value)
		}
		return edit.SetUnescaped(u, c, value)
	case "append":
		name, value, _ := strings.Cut(op.arg, "=")
		if name == "path" {
			return edit.JoinPath(u, value)
		}
		key, val, hasValue := strings.Cut(value, "=")
		return edit.AddSearchPair(u, edit.SearchPair{Key: key, Value: val, NoEquals: !hasValue})
	case "delete":
		if glob, ok := searchKeyPattern(op.arg); ok {
			return edit.FilterSearch(u, func(p edit.SearchPair) bool { return !matchGlob(glob, p.Key) })
		}
		c, _ := partByName(op.arg)
		return edit.Clear(u, c)
	case "keep":
		// One --keep, or a run of them: the pairs whose key matches any.
		var globs []string
		for _, a := range strings.Split(op.arg, "\x00") {
			g, _ := searchKeyPattern(a)
			globs = append(globs, g)
		}
		return edit.FilterSearch(u, func(p edit.SearchPair) bool {
			for _, g := range globs {
				if matchGlob(g, p.Key) {
					return true
				}
			}
			return false
		})
	case "sort-search":
		pairs, err := edit.SearchPairs(u)
		if err != nil || len(pairs) == 0 {
			return u, err
		}
		sort.SliceStable(pairs, func(i, j int) bool {
			if pairs[i].Key != pairs[j].Key {
				return pairs[i].Key < pairs[j].Key
			}
			return pairs[i].Value < pairs[j].Value
		})
		return edit.SetSearchPairs(u, pairs)
	case "redirect":
		parse, repairs := rd.parser()
		if !rd.lenient && u.Extended() {
			parse = urlkit.ParseRefExtended
		}
		v, err := urlkit.ResolveStringWith(u.String(), op.arg, mode, parse)
		if w := repairs()[op.arg]; w != nil {
			o.warn(line, op.arg, w)
		}
		if err != nil && !urlkit.IsResolveWarning(err) {
			err = rd.hint(op.arg, true, err)
		}
		return v, err
	}
	return u, fmt.Errorf("unknown edit %q", op.verb)
}

func runEdit(e *env, fs *flag.FlagSet, args []string) int {
	ops := fs.Lookup("set").Value.(editFlag).ops
	canonical := fs.Lookup("canonical").Value.String() == "true"
	rd := readingOf(fs)
	mode := *fs.Lookup("mode").Value.(flag.Getter).Get().(*urlkit.Mode)
	asJSON := flagBool(fs, "json")
	tpl, err := formatFlag(fs)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlkit edit: --format: %v\n", err)
		return exitUsage
	}
	return engineFor(e, "edit", fs).run(args, func(o *results, in *input) {
		out, err := editOne(o, in, ops.list, mode, rd, canonical)
		if err != nil {
			o.setStatus(exitInvalid)
			o.message(in, []byte(quote(urlkit.RedactString(in.text))+": "+plainError(err)))
		}
		if asJSON {
			o.writeJSON(in, err == nil, in.text, err, func(w *jw) {
				if err == nil {
					w.KStr("result", out.String())
				}
			})
			return
		}
		if err != nil {
			return
		}
		if tpl != nil {
			o.buf = append(append(o.buf, tpl.apply(out)...), '\n')
		} else {
			o.buf = append(append(o.buf, out.String()...), '\n')
		}
	})
}

// editOne parses in, applies the edits in order and checks the result
// against its scheme's grammar, as parse does.
func editOne(o *results, line *input, ops []editOp, mode urlkit.Mode, rd reading, canonical bool) (urlkit.URL, error) {
	in := line.text
	u, warns, err := rd.url(in)
	o.warn(line, in, warns)
	if err != nil {
		return u, err
	}
	for _, op := range mergeKeeps(ops) {
		v, err := applyEdit(o, line, rd, u, op, mode)
		if err != nil {
			return u, fmt.Errorf("--%s %s: %w", op.verb, redactEditArg(op), err)
		}
		u = v
	}
	if canonical {
		u = urlkit.Canonical(u)
	}
	if err := scheme.Validate(u); err != nil {
		return u, fmt.Errorf("the result %q is not a valid %s URL: %w", u.Redacted(), u.Scheme(), err)
	}
	return u, nil
}

// mergeKeeps joins each run of --keep edits into one, its patterns
// separated by NUL: consecutive --keep flags keep the pairs any of them
// matches, rather than each keeping only its own.
func mergeKeeps(ops []editOp) []editOp {
	var out []editOp
	for _, op := range ops {
		if n := len(out); op.verb == "keep" && n > 0 && out[n-1].verb == "keep" {
			out[n-1].arg += "\x00" + op.arg
			continue
		}
		out = append(out, op)
	}
	return out
}

// redactEditArg returns an edit's argument for a message, without a
// password being set.
func redactEditArg(op editOp) string {
	if op.verb == "set" && (strings.HasPrefix(op.arg, "password=") || strings.HasPrefix(op.arg, "password:=")) {
		name, _, _ := strings.Cut(op.arg, "=")
		return name + "=" + urlkit.RedactedPassword
	}
	return op.arg
}
