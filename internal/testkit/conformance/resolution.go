package conformance

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/corpus"
)

// relRow is one row of a table in relative/: base, reference, expected
// result and the table's fourth column (section, note or test method).
type relRow struct {
	file            string
	line            int
	base, ref, want string
	note            string
	// currentDoc marks RFC 2396's "(current document)": the base without
	// its fragment.
	currentDoc bool
}

// input is how a row is named in the report.
func (r relRow) input() string { return r.base + " + " + r.ref }

// expected returns the row's expected result, with RFC 2396's "(current
// document)" replaced by the base without fragment.
func (r relRow) expected() string {
	if r.currentDoc {
		doc, _, _ := strings.Cut(r.base, "#")
		return strings.Replace(r.want, "(current document)", doc, 1)
	}
	return r.want
}

// readRelTable reads relative/<name> (see corpus.ReadRelative).
func readRelTable(dir, name string) ([]relRow, error) {
	in, err := corpus.ReadRelative(filepath.Join(dir, "relative", name))
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	rows := make([]relRow, len(in))
	for i, r := range in {
		rows[i] = relRow{file: r.File, line: r.Line, base: r.Base, ref: r.Ref, want: r.Want, note: r.Note, currentDoc: r.CurrentDocument}
	}
	return rows, nil
}

// relTables are the tables of relative/.
var relTables = []string{"rfc1630_partial_examples.tsv", "rfc1808_sec5_examples.tsv", "rfc2396_appC_examples.tsv", "rfc3986_sec5.4_examples.tsv", "python_test_urlparse_urljoin.tsv"}

// relPair is a base and a reference to resolve against it.
type relPair struct{ base, ref string }

// relPairSet gathers the distinct pairs an oracle suite sends to its
// peer: each distinct pair counts once in the suite's total, and is kept
// when keep accepts it (keep records its own skip or rejection).
type relPairSet struct {
	s     *Suite
	keep  func(relPair) bool
	seen  map[relPair]bool
	pairs []relPair
}

func newRelPairSet(s *Suite, keep func(relPair) bool) *relPairSet {
	return &relPairSet{s: s, keep: keep, seen: map[relPair]bool{}}
}

// add counts the pair, if new, and keeps it if keep accepts it.
func (ps *relPairSet) add(base, ref string) {
	p := relPair{base, ref}
	if ps.seen[p] {
		return
	}
	ps.seen[p] = true
	ps.s.Total++
	if ps.keep(p) {
		ps.pairs = append(ps.pairs, p)
	}
}

// addTables adds every row of relTables, calling each (if not nil) on
// every row after it is added.
func (ps *relPairSet) addTables(dir string, each func(relRow)) error {
	for _, f := range relTables {
		rows, err := readRelTable(dir, f)
		if err != nil {
			return err
		}
		for _, r := range rows {
			ps.add(r.base, r.ref)
			if each != nil {
				each(r)
			}
		}
	}
	return nil
}

// relDivergence is a row on which a mode deliberately gives another result
// than the table: got is the mode's result ("error" when the input or the
// result is not an RFC 1738 URL), class and why say why. They are the
// divergences documented in the root package's resolve_test.go.
type relDivergence struct {
	base, ref, want string // identify the row
	got             string
	class, why      string
}

const (
	whyEmptyAuth     = `the reference has an empty authority ("//"); RFC 3986 5.2.2 keeps it, giving a URL with no host, which urlkit returns with a warning (RFC 1738 3.1 wants a host); Python treats an empty authority as absent`
	whyHostSlash     = `libwww mode follows CERN libwww's HTParse, which gives a host with no path the path "/" (its "no inheritance" case); the printed example has no "/"`
	whyEmptyAuthKept = "RFC 3986 5.2.2: a reference with an (empty) authority replaces the base's; Python treats an empty authority as absent"
	whyEmptyRefFrag  = "RFC 3986 5.2.2: an empty reference takes its fragment from the reference (none); Python keeps the base's"
	whyAbsDots       = "RFC 3986 5.2.2 removes dot segments from an absolute reference's path; Python does not when the base is empty"
	whyRFC1630Rule   = `RFC 1630 rule as written: the first run of exactly one "/" with no longer run to its right is the one after d (the RFC's author later called the printed example an error)`

	classHostSlash    = "HTParse: host-only result gets /"
	classEmptyAuth    = "empty authority"
	classEmptyRefFrag = "empty reference keeps no fragment"
	classAbsDots      = "dot segments of an absolute reference"
)

// relPlan is one table run in one mode.
type relPlan struct {
	file string
	mode urlkit.Mode
	// skip, when set, names the class and reason of a row that does not
	// apply to the mode, or returns "" when it does.
	skip func(r relRow) (class, reason string)
	div  []relDivergence
	// classify, when set, classes a row whose result differs from the
	// table and that no divergence names: a predicate over the row and
	// urlkit's result, returning "" when none holds.
	classify func(r relRow, got string) (class, reason string)
}

// skipOtherReading and friends say why a row is not for the mode.
func notValidating(r relRow) (string, string) {
	if strings.Contains(r.note, "for validating parsers") {
		return "strict reading", "RFC 2396 C.2 gives this row for validating parsers; libwww practice is the other row for the same reference"
	}
	return "", ""
}

func notBackwardCompat(r relRow) (string, string) {
	if strings.Contains(r.note, "backward compatibility") {
		return "backward-compatible reading", "RFC 3986 5.4.2 gives this row for parsers that keep the RFC 1630 loophole; it is checked in libwww mode"
	}
	return "", ""
}

func onlyBackwardCompat(r relRow) (string, string) {
	if !strings.Contains(r.note, "backward compatibility") {
		return "not the backward-compatible row", "only RFC 3986 5.4.2's backward-compatibility row describes libwww; the table's other rows are checked in rfc3986 mode"
	}
	return "", ""
}

// classWrong, returned by a relPlan's skip, says that the row is wrong
// (a rejection the grammar does not confirm); the reason says why.
const classWrong = "\x00wrong"

// pythonRFC3986 keeps the rows of CPython's test_RFC3986 and test_urljoins*
// whose base and reference RFC 1738 accepts.
func pythonRFC3986(r relRow) (string, string) {
	switch r.note {
	case "test_RFC3986", "test_urljoins", "test_urljoins_relative_base":
	default:
		return "other RFC's table", "CPython's test_RFC1808 / test_RFC2396 rows: those RFCs' own tables are run in their modes, and the Python urljoin oracle suite covers these pairs"
	}
	for _, side := range []struct{ what, text string }{{"base", r.base}, {"reference", r.ref}} {
		if _, err := urlkit.ParseGeneric(side.text); err != nil {
			// The rejection is checked by the grammar (reject.go).
			name, reason, holds, why := rejectKind(side.text, err, readGeneric)
			if !holds {
				return classWrong, "the " + side.what + ": " + why
			}
			return "not a generic " + side.what + ": " + name, "the " + side.what + " is not even a generic URL or partial form (urlkit.ParseGeneric). " + reason
		}
	}
	return "", ""
}

// relPlans are the tables of relative/ and the modes they are run in, with
// the documented divergences of resolve_test.go.
var relPlans = []relPlan{
	{file: "rfc1630_partial_examples.tsv", mode: urlkit.ModeRFC1630, div: []relDivergence{
		{"magic://a/b/c//d/e/f", "/g", "magic://a/g", "magic://a/b/c//d/g", "RFC 1630 rule as written", whyRFC1630Rule},
		{"magic://a/b/c//d/e/", "/g", "magic://a/g", "magic://a/b/c//d/g", "RFC 1630 rule as written", whyRFC1630Rule},
	}},
	{file: "rfc1630_partial_examples.tsv", mode: urlkit.ModeLibwww, div: []relDivergence{
		{"magic://a/b/c//d/e/f", "//g", "magic://g", "magic://g/", classHostSlash, whyHostSlash},
		{"magic://a/b/c//d/e/", "//g", "magic://g", "magic://g/", classHostSlash, whyHostSlash},
	}},
	{file: "rfc1808_sec5_examples.tsv", mode: urlkit.ModeRFC1808},
	{file: "rfc2396_appC_examples.tsv", mode: urlkit.ModeLibwww, skip: notValidating, div: []relDivergence{
		{"http://a/b/c/d;p?q", "//g", "http://g", "http://g/", classHostSlash, whyHostSlash},
	}},
	{file: "rfc3986_sec5.4_examples.tsv", mode: urlkit.ModeRFC3986, skip: notBackwardCompat},
	{file: "rfc3986_sec5.4_examples.tsv", mode: urlkit.ModeLibwww, skip: onlyBackwardCompat},
	{file: "python_test_urlparse_urljoin.tsv", mode: urlkit.ModeRFC3986, skip: pythonRFC3986, classify: pythonJoinClass, div: []relDivergence{
		{"http://a/b/c/d;p?q#f", "", "http://a/b/c/d;p?q#f", "http://a/b/c/d;p?q", classEmptyRefFrag, whyEmptyRefFrag},
		{"", "http://a/./g", "http://a/./g", "http://a/g", classAbsDots, whyAbsDots},
		{"http://a/b/c/d;p?q#f", "//", "http://a/b/c/d;p?q#f", "http://", classEmptyAuth, whyEmptyAuth},
		{"http://a/b/c/d;p?q#f", "//#z", "http://a/b/c/d;p?q#z", "http://#z", classEmptyAuth, whyEmptyAuth},
		{"http://a/b/c/d;p?q#f", "///w", "http://a/w", "http:///w", classEmptyAuth, whyEmptyAuth},
		{"http://a/b/c/d;p?q#f", "//?y", "http://a/b/c/d;p?y", "http://?y", classEmptyAuth, whyEmptyAuth},
		{"http://a", "//", "http://a", "http://", classEmptyAuth, whyEmptyAuth},
		{"http://a", "///w", "http://a/w", "http:///w", classEmptyAuth, whyEmptyAuth},
		{"//a", "//", "//a", "//", classEmptyAuth, whyEmptyAuthKept},
		{"//a", "///w", "//a/w", "///w", classEmptyAuth, whyEmptyAuthKept},
		{"/b/c", "//", "/b/c", "//", classEmptyAuth, whyEmptyAuthKept},
		{"/b/c", "///w", "/w", "///w", classEmptyAuth, whyEmptyAuthKept},
		{"///b/c", "//", "///b/c", "//", classEmptyAuth, whyEmptyAuthKept},
	}},
}

// Resolution runs every table of relative/ in the modes it belongs to: one
// suite per table and mode.
func Resolution(dir string) ([]*Suite, error) {
	var out []*Suite
	for _, p := range relPlans {
		rows, err := readRelTable(dir, p.file)
		if err != nil {
			return nil, err
		}
		s := &Suite{
			Name:   fmt.Sprintf("Resolution: %s in %s", strings.TrimSuffix(p.file, ".tsv"), p.mode),
			Source: fmt.Sprintf("`relative/%s`; the other side is the table's expected result.", p.file),
			Notes:  fmt.Sprintf("Each row's base and reference go to `urlkit.ResolveString(base, ref, urlkit.%s)`; the result text must equal the table's (an error counts as the result \"error\").", modeConst(p.mode)),
		}
		if err := runRelPlan(s, p, rows); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func modeConst(m urlkit.Mode) string {
	switch m {
	case urlkit.ModeRFC1630:
		return "ModeRFC1630"
	case urlkit.ModeLibwww:
		return "ModeLibwww"
	case urlkit.ModeRFC3986:
		return "ModeRFC3986"
	case urlkit.ModeRFC1808:
		return "ModeRFC1808"
	}
	return m.String()
}

// runRelPlan checks every row; it fails when a documented divergence
// names no considered row (the plan is out of date with the table).
func runRelPlan(s *Suite, p relPlan, rows []relRow) error {
	used := make([]bool, len(p.div))
	for _, r := range rows {
		s.Total++
		if p.skip != nil {
			class, reason := p.skip(r)
			if class == classWrong || strings.HasPrefix(class, "not a generic ") {
				s.Rejected++
			}
			if class == classWrong {
				s.wrong(r.input(), reason)
				continue
			} else if class != "" {
				s.skip(class, reason, r.input())
				continue
			}
		}
		want, class, why := r.expected(), "", ""
		for i, d := range p.div {
			if d.base == r.base && d.ref == r.ref && d.want == r.want {
				used[i] = true
				want, class, why = d.got, d.class, d.why
			}
		}
		u, err := urlkit.ResolveString(r.base, r.ref, p.mode)
		got := u.String()
		if urlkit.IsResolveWarning(err) {
			// Resolved on the generic syntax; the result breaks only a
			// scheme's rules (issue 10). The result is what is compared.
			err = nil
		}
		if err != nil {
			got = "error"
			var se *urlkit.SyntaxError
			if !errors.As(err, &se) {
				s.wrong(r.input(), fmt.Sprintf("%s:%d: error %v is not a *urlkit.SyntaxError", r.file, r.line, err))
				continue
			}
		}
		switch {
		case got != want && why != "":
			s.wrong(r.input(), fmt.Sprintf("%s:%d: got %q, documented divergence says %q (%s)", r.file, r.line, got, want, why))
		case got != want && p.classify != nil && err == nil && classOf(p, r, got) != "":
			class, why := p.classify(r, got)
			s.different(class, why, r.input())
		case got != want:
			detail := fmt.Sprintf("%s:%d: got %q, table says %q", r.file, r.line, got, want)
			if err != nil {
				detail += " (" + err.Error() + ")"
			}
			s.wrong(r.input(), detail)
		case why != "":
			s.different(class, why, r.input())
		default:
			s.agree(r.input(), nil)
		}
	}
	for i, ok := range used {
		if !ok {
			d := p.div[i]
			return fmt.Errorf("conformance: %s in %s: documented divergence %q + %q matches no considered row", p.file, p.mode, d.base, d.ref)
		}
	}
	return nil
}

func classOf(p relPlan, r relRow, got string) string {
	c, _ := p.classify(r, got)
	return c
}

const (
	whyPySameScheme = "Python's urljoin reads a reference with the base's scheme and no authority (\"http:g\") as the partial form after the scheme, RFC 3986 5.2.2's non-strict reading \"for backward compatibility\" (ModeLibwww does the same); ModeRFC3986 is the strict parser, for which \"http:g\" is absolute (and breaks RFC 1738 3.3, so it comes with a warning)"
	whyPyEmptyNet   = "Python's urljoin treats an empty authority (\"http://\", \"http:///w\", \"//\") as absent; RFC 3986 5.2.2 keeps it, giving a URL with an empty host (returned with a warning: RFC 1738 3.1 wants one)"
	whyPyRootSlash  = "Python's urljoin puts \"/\" before a merged path when the base (\"http:\") has neither an authority nor a path; RFC 3986 5.2.3 merges with the base path as it is, giving \"http:w\""
)

// pythonJoinClass classes a row of CPython's urljoin tests that urlkit's
// ModeRFC3986 resolves differently: it undoes each of Python's readings in
// turn (the same-scheme loophole, an empty authority taken as absent, a
// "/" before a merged path under an empty base) and resolves again; the
// row is in a class only if that gives the table's result exactly.
func pythonJoinClass(r relRow, got string) (string, string) {
	want := r.expected()
	b, err := urlkit.ParseGeneric(r.base)
	if err != nil {
		return "", ""
	}
	ref := r.ref
	var classes []string
	var whys []string
	if sch := b.RawScheme(); b.IsAbsolute() && strings.HasPrefix(ref, sch+":") {
		ref = ref[len(sch)+1:]
		classes, whys = append(classes, "same scheme read as partial"), append(whys, whyPySameScheme)
	}
	if rest, ok := strings.CutPrefix(ref, "//"); ok && (rest == "" || strings.ContainsRune("/?#", rune(rest[0]))) {
		ref = rest
		classes, whys = append(classes, "empty authority as absent"), append(whys, whyPyEmptyNet)
	}
	v, err := urlkit.ResolveString(r.base, ref, urlkit.ModeRFC3986)
	if err != nil && !urlkit.IsResolveWarning(err) {
		return "", ""
	}
	res := v.String()
	if ref == "" && want == r.base && classes != nil {
		// Python keeps the base's fragment for what became an empty
		// reference (the class of the plain empty reference).
		res = r.base
	}
	if res != want && !b.HasAuthority() && b.PathWithSlash() == "" && ref != "" && ref[0] != '/' && ref[0] != '?' && ref[0] != '#' {
		if sch := b.RawScheme(); strings.HasPrefix(res, sch+":") {
			res = sch + ":/" + res[len(sch)+1:]
			classes, whys = append(classes, "\"/\" before a path merged with an empty base"), append(whys, whyPyRootSlash)
		}
	}
	if res != want || classes == nil {
		return "", ""
	}
	return strings.Join(classes, " + "), strings.Join(whys, "; ")
}
