package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urlkit/urlkit"
)

// pyJoin is the script that runs Python's urllib.parse.urljoin over
// standard input, one "base<TAB>reference" pair a line, writing one JSON
// array a line: the result, and whether the base's scheme is in
// urllib.parse.uses_relative and uses_netloc (the schemes urljoin
// resolves against, and those whose "//" it keeps).
const pyJoin = `
import sys, json
from urllib.parse import urljoin, urlsplit, uses_relative, uses_netloc
for line in sys.stdin.read().split("\n")[:-1]:
    base, ref = line.split("\t")
    try:
        s = urlsplit(base).scheme
        print(json.dumps([urljoin(base, ref), s in uses_relative, s in uses_netloc]))
    except Exception as e:
        print(json.dumps(["ERROR: " + str(e), False, False]))
`

// joinSampleBases is how many corpus URLs are drawn as bases.
const joinSampleBases = 120

// PythonJoin compares urlkit.Resolve in ModeRFC3986 with Python's
// urllib.parse.urljoin (python3 subprocess) on every pair of the tables in
// relative/ and on a sample of corpus URLs as bases for every reference of
// those tables. When python3 is absent the suite reports that it was not
// run.
func PythonJoin(dir string) (*Suite, error) {
	s := &Suite{
		Name: "Oracle: Python urllib.parse.urljoin (rfc3986 mode)",
		Source: fmt.Sprintf("every base/reference pair of `relative/*.tsv`, and %d URLs drawn evenly from `ada-url-datasets/*.txt` as bases for every distinct reference of those tables; "+
			"the other side is Python's `urllib.parse.urljoin` (python3, run as a subprocess).", joinSampleBases),
		Notes: "Each pair goes to `urlkit.ResolveString(base, ref, urlkit.ModeRFC3986)` and to `urljoin(base, ref)`; the result texts are compared. " +
			"Pairs whose base or reference `urlkit.ParseRef` rejects are not considered.",
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		s.Unavailable = "python3 is not installed, so this suite was not run"
		return s, nil
	}
	set := newRelPairSet(s, func(p relPair) bool {
		if strings.ContainsAny(p.base+p.ref, "\t\r\n") {
			s.skip("control character", "a tab or line break, which RFC 1738 2.2 excludes and the line protocol to python3 cannot carry", p.base+" + "+p.ref)
			return false
		}
		// A rejected base or reference is not sent to urljoin, but the
		// rejection's reason is checked on the input (reject.go).
		for _, side := range []struct{ what, text string }{{"base", p.base}, {"reference", p.ref}} {
			if _, err := urlkit.ParseRef(side.text); err != nil {
				s.Rejected++
				name, reason, holds, why := rejectKind(side.text, err, readParseRef)
				if !holds {
					s.wrong(p.base+" + "+p.ref, fmt.Sprintf("the %s: %s (%v)", side.what, why, err))
				} else {
					s.skip("RFC 1738 rejects the "+side.what+": "+name, reason, p.base+" + "+p.ref)
				}
				return false
			}
		}
		return true
	})
	var refs []string
	refSeen := map[string]bool{}
	okRef := func(ref string) bool { _, err := urlkit.ParseRef(ref); return err == nil }
	if err := set.addTables(dir, func(r relRow) {
		if !refSeen[r.ref] && okRef(r.ref) {
			refSeen[r.ref] = true
			refs = append(refs, r.ref)
		}
	}); err != nil {
		return nil, err
	}
	var corpus []string
	for _, rel := range AdaDatasets {
		lines, err := readLines(filepath.Join(dir, rel))
		if err != nil {
			return nil, err
		}
		for _, l := range lines {
			if u, err := urlkit.Parse(l); err == nil && u.HasAuthority() && isASCII(l) {
				corpus = append(corpus, l)
			}
		}
	}
	if len(corpus) > 0 {
		step := max(1, len(corpus)/joinSampleBases)
		for i := 0; i < len(corpus) && i/step < joinSampleBases; i += step {
			for _, ref := range refs {
				set.add(corpus[i], ref)
			}
		}
	}
	var in strings.Builder
	for _, p := range set.pairs {
		in.WriteString(p.base + "\t" + p.ref + "\n")
	}
	cmd := exec.Command(py, "-c", pyJoin)
	cmd.Stdin = strings.NewReader(in.String())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("conformance: python3 urljoin: %w: %s", err, stderr.String())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	i := 0
	for sc.Scan() {
		if i >= len(set.pairs) {
			return nil, fmt.Errorf("conformance: python3 urljoin wrote more lines than it was given")
		}
		var row [3]any
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			return nil, fmt.Errorf("conformance: python3 urljoin output line %d: %w", i+1, err)
		}
		res, _ := row[0].(string)
		rel, _ := row[1].(bool)
		compareJoin(s, set.pairs[i].base, set.pairs[i].ref, res, rel)
		i++
	}
	if i != len(set.pairs) {
		return nil, fmt.Errorf("conformance: python3 urljoin answered %d of %d pairs", i, len(set.pairs))
	}
	return s, nil
}

const (
	whyPyNotRelative   = "Python's urljoin resolves only against the schemes in its uses_relative list and returns the reference unchanged for any other base; RFC 1630 (partial form) and RFC 3986 5.2 resolve against any base"
	whyPyAbsDots       = "RFC 3986 5.2.2 removes dot segments from the path of a reference with a scheme or an authority; Python's urljoin keeps such a path as written"
	whyPyResultNotURL  = "RFC 3986 5.3 puts a query right after the host (\"http://h?y\"); RFC 1738 3.1 requires the url-path, and so any search part, to start with \"/\", so urlkit reports the result as an error with its offset"
	whyPyEmptyQuery    = "RFC 3986 5.2.2: a reference with a query, even an empty one (\"?\"), replaces the base's; Python's urlsplit cannot tell an empty query from none and keeps the base's"
	whyPyEmptyBaseAuth = "the base has an empty authority (\"//\", \"///b/c\"); RFC 3986 5.2.2 keeps the base's authority, empty or not, and CPython's own test_urljoins_relative_base expects that (\"///b/c\" + \"/w\" = \"///w\"); the python3 run here (before that change) treats an empty authority as absent"
	whyPyParams        = "Python's urljoin splits \";params\" off the last segment (the RFC 1808 2.1 model) and reads \";\" with nothing after it as an empty path, keeping the base's; RFC 3986 5.2.2 (and RFC 1738 3.3, where \";\" is an ordinary path character) reads it as a segment that replaces the base's last one"
	whyPyEmptyDelim    = "RFC 3986 5.3 writes \"?\" and \"#\" whenever the component is defined, even empty (RFC 1738 keeps a URL as written); Python's urlunsplit drops an empty query or fragment with its delimiter"
)

// joinCase is one compared pair: both outputs are computed before any
// class is consulted.
type joinCase struct {
	base, ref  string
	got        string // urlkit's result text (also when it rejects the result)
	rejected   bool   // urlkit resolved but RFC 1738 rejects the result
	py         string // urljoin's result
	pyRelative bool   // the base's scheme is in urljoin's uses_relative
}

// joinClass is a deliberate difference: a predicate over the input and both
// outputs, with the clause that decides it. rejected says whether it
// explains a result urlkit rejects (true) or one it returns (false).
type joinClass struct {
	name, reason string
	rejected     bool
	match        func(c joinCase) bool
}

var joinClasses = []joinClass{
	{"empty authority in the reference, result rejected", whyEmptyAuth, true, emptyAuthRef},
	{"empty authority in the reference", whyEmptyAuthKept + "; urlkit's result has the reference's empty authority and is a URL (e.g. file://, RFC 1738 3.10), urljoin's is the reference resolved without its \"//\"", false, emptyAuthRef},
	{"empty authority in the base", whyPyEmptyBaseAuth, false, func(c joinCase) bool {
		return authorityOf(c.base) == "" && authorityOf(c.got) == "" && !strings.Contains(c.py, "//") &&
			(dropAuthority(c.got) == c.py || dropEmptyDelims(dropAuthority(c.got)) == c.py)
	}},
	{"result not an RFC 1738 URL", whyPyResultNotURL, true, func(c joinCase) bool {
		return c.got == c.py || dropEmptyDelims(c.got) == c.py
	}},
	{classEmptyRefFrag, whyEmptyRefFrag, false, func(c joinCase) bool {
		b, _ := urlkit.ParseRef(c.base)
		return c.ref == "" && c.py == c.base && c.got == b.WithoutFragment().String()
	}},
	{classAbsDots, whyPyAbsDots, false, func(c joinCase) bool {
		r, _ := urlkit.ParseRef(c.ref)
		if !r.IsAbsolute() && !r.HasAuthority() {
			return false
		}
		v, err := urlkit.ResolveString("", c.py, urlkit.ModeRFC3986)
		return err == nil && v.String() == c.got && c.got != c.py
	}},
	{"empty query in the reference", whyPyEmptyQuery, false, func(c joinCase) bool {
		rest, ok := strings.CutPrefix(c.ref, "?")
		if !ok || (rest != "" && rest[0] != '#') || !strings.Contains(c.got, "?") {
			return false
		}
		v, err := urlkit.ResolveString(c.base, rest, urlkit.ModeRFC3986)
		return err == nil && dropEmptyDelims(v.String()) == c.py
	}},
	{"\";\" as an empty path", whyPyParams, false, func(c joinCase) bool {
		rest, ok := strings.CutPrefix(c.ref, ";")
		return ok && (rest == "" || rest[0] == '?' || rest[0] == '#') && resultText(c.base, rest) == c.py
	}},
	{"scheme Python does not resolve", whyPyNotRelative, false, func(c joinCase) bool {
		return !c.pyRelative && c.py == c.ref && c.got != c.ref
	}},
	{"empty ? or # dropped", whyPyEmptyDelim, false, func(c joinCase) bool {
		return dropEmptyDelims(c.got) == c.py
	}},
}

func compareJoin(s *Suite, base, ref, py string, pyRelative bool) {
	in := base + " + " + ref
	c := joinCase{base: base, ref: ref, py: py, pyRelative: pyRelative}
	u, err := urlkit.ResolveString(base, ref, urlkit.ModeRFC3986)
	if urlkit.IsResolveWarning(err) {
		err = nil // a result that breaks only its scheme's rules (issue 10)
	}
	if err != nil {
		var re *urlkit.ResolveError
		if !errors.As(err, &re) || re.Part != "result" {
			s.wrong(in, fmt.Sprintf("urlkit error %v, urljoin %q", err, py))
			return
		}
		c.got, c.rejected = re.Result, true
	} else {
		c.got = u.String()
		if c.got == py {
			s.agree(in, nil)
			return
		}
		if p, err := urlkit.Parse(py); err == nil && urlkit.Equal(u, p) {
			s.agree(in, []reasoned{{"equivalent", "the texts differ but urlkit.Equal finds them equivalent (RFC 1630: one level of encoding, host case)"}})
			return
		}
	}
	for _, k := range joinClasses {
		if k.rejected == c.rejected && k.match(c) {
			s.different(k.name, k.reason, in)
			return
		}
	}
	if c.rejected {
		s.wrong(in, fmt.Sprintf("urlkit rejects the result %q (%v), urljoin %q", c.got, err, py))
		return
	}
	s.wrong(in, fmt.Sprintf("urlkit %q, urljoin %q", c.got, py))
}

// emptyAuthRef: the reference has an empty authority, urlkit's result has
// that empty authority, and urljoin's result is what the reference gives
// with its "//" removed (Python treats an empty authority as absent).
func emptyAuthRef(c joinCase) bool {
	if !emptyAuthority(c.ref) || authorityOf(c.got) != "" {
		return false
	}
	rest := c.ref[2:]
	if rest == "" && (c.py == c.base || c.py == dropAuthority(c.base)) {
		return true
	}
	t := resultText(c.base, rest)
	return t != "" && (t == c.py || dropEmptyDelims(t) == c.py)
}

// authorityOf returns the authority of a URL text that has one ("//" after
// the scheme, or at the start), and "-" when it has none.
func authorityOf(s string) string {
	if i := strings.IndexAny(s, ":/?#"); i > 0 && s[i] == ':' {
		s = s[i+1:]
	}
	rest, ok := strings.CutPrefix(s, "//")
	if !ok {
		return "-"
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		return rest[:i]
	}
	return rest
}

// dropAuthority removes an empty authority ("//") after the scheme.
func dropAuthority(s string) string {
	i := strings.IndexAny(s, ":/?#")
	if i <= 0 || s[i] != ':' {
		i = -1
	}
	if strings.HasPrefix(s[i+1:], "//") && authorityOf(s) == "" {
		return s[:i+1] + s[i+3:]
	}
	return s
}

// resultText resolves ref against base in ModeRFC3986 and returns the
// result's text, also when the result is not an RFC 1738 URL, or "" on any
// other error.
func resultText(base, ref string) string {
	u, err := urlkit.ResolveString(base, ref, urlkit.ModeRFC3986)
	if err == nil || urlkit.IsResolveWarning(err) {
		return u.String()
	}
	var re *urlkit.ResolveError
	if errors.As(err, &re) && re.Part == "result" {
		return re.Result
	}
	return ""
}

// emptyAuthority reports whether ref starts with "//" and an empty
// authority.
func emptyAuthority(ref string) bool {
	if !strings.HasPrefix(ref, "//") {
		return false
	}
	return len(ref) == 2 || strings.ContainsRune("/?#", rune(ref[2]))
}

// dropEmptyDelims removes a "?" or "#" that introduces an empty component,
// as Python's urlunsplit does.
func dropEmptyDelims(s string) string {
	s = strings.TrimSuffix(s, "#")
	if i := strings.Index(s, "?#"); i >= 0 {
		s = s[:i] + s[i+1:]
	}
	return strings.TrimSuffix(s, "?")
}
