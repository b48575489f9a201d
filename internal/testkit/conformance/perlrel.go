package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
)

// Perl URI's resolution tests (scheme-tests/perl-URI/t/abs.t and rel.t,
// from the CPAN distribution URI), each run in ModeRFC3986: Perl's URI
// module resolves by RFC 3986 5.2 apart from the dot segments noted below.

const perlDir = "scheme-tests/perl-URI"

var (
	// abs.t reads each DATA line with /\s+(\S+)\s*=\s*(.*)/.
	perlAbsLine = regexp.MustCompile(`\s+(\S+)\s*=\s*(.*)`)
	// rel.t: $uri = URI->new("..."); is($uri->rel("..."), "...");
	perlRelNew = regexp.MustCompile(`\$uri = URI->new\("([^"]*)"\);`)
	perlRelIs  = regexp.MustCompile(`is\(\$uri->rel\("([^"]*)"\), "([^"]*)"\);`)
	perlTests  = regexp.MustCompile(`tests => (\d+)`)
)

const (
	whyPerlDots = "Perl URI keeps dot segments that RFC 3986 5.2.4 removes: a \"..\" above the root (\"http://a/../g\", as RFC 2396 C.2 and RFC 1808 5.2 print) and dots in an absolute path (\"/./g\"); ModeRFC3986 applies 5.2.4 to every result path, and the table's result with 5.2.4 applied is urlkit's"
	whyPerlWrap = "URI->new strips the angle brackets of \"<>\" (RFC 3986 appendix C's delimiters); the reference is the empty string"
)

// PerlAbs runs t/abs.t: each reference of its DATA section against the
// base http://a/b/c/d;p?q, compared with the result the test expects.
func PerlAbs(dir string) (*Suite, error) {
	s := &Suite{
		Name:   "Perl URI t/abs.t (rfc3986 mode)",
		Source: "`" + perlDir + "/abs.t` (Perl URI; its DATA section quotes the RFC 2396 draft's appendix C and extra cases); the other side is the result the test expects from `URI->new($ref)->abs($base)`.",
		Notes:  "Each reference goes to `urlkit.ResolveString(\"http://a/b/c/d;p?q\", ref, urlkit.ModeRFC3986)`; \"(current document)\" is the base, as in the test. A result with a scheme warning counts as the result.",
	}
	text, err := os.ReadFile(filepath.Join(dir, perlDir, "abs.t"))
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	src := string(text)
	const base = "http://a/b/c/d;p?q"
	head, data, ok := strings.Cut(src, "\n__END__\n")
	if !ok {
		return nil, fmt.Errorf("conformance: abs.t has no __END__")
	}
	for _, line := range strings.Split(data, "\n") {
		m := perlAbsLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		s.Total++
		ref, want := m[1], strings.ReplaceAll(m[2], "(current document)", base)
		var tr []reasoned
		if ref == "<>" {
			ref = ""
			tr = append(tr, reasoned{"<> stripped", whyPerlWrap})
		}
		in := ref + " = " + want
		u, err := urlkit.ResolveString(base, ref, urlkit.ModeRFC3986)
		if urlkit.IsResolveWarning(err) {
			err = nil
		}
		switch got := u.String(); {
		case err != nil:
			s.wrong(in, fmt.Sprintf("urlkit error %v, abs.t %q", err, want))
		case got == want:
			s.agree(in, tr)
		case removeDots3986InURL(want) == got && hasDotSegment(pathOf(want)):
			s.different("dot segments kept", whyPerlDots, in)
		default:
			s.wrong(in, fmt.Sprintf("urlkit %q, abs.t %q", got, want))
		}
	}
	if err := checkPlan(head, s.Total, "abs.t"); err != nil {
		return nil, err
	}
	return s, nil
}

// checkPlan checks that the suite read as many cases as the test plans
// ("tests => N"), so that a change in the file's format is noticed.
func checkPlan(head string, n int, name string) error {
	m := perlTests.FindStringSubmatch(head)
	if m == nil {
		return fmt.Errorf("conformance: %s has no test plan", name)
	}
	if want, _ := strconv.Atoi(m[1]); want != n {
		return fmt.Errorf("conformance: read %d cases from %s, which plans %d tests", n, name, want)
	}
	return nil
}

// pathOf returns the path of a URL's text (split as RFC 3986 appendix B).
func pathOf(s string) string {
	_, p, _ := splitPath(s, true)
	return p
}

// removeDots3986InURL applies RFC 3986 5.2.4 to the path of a URL's text.
func removeDots3986InURL(s string) string {
	pre, p, post := splitPath(s, true)
	return pre + urlkit.RemoveDotSegments(p, urlkit.ModeRFC3986) + post
}

const (
	whyPerlRelShorter = "both references resolve to the target (checked with urlkit.Resolve); urlkit.Relative gives the shortest, Perl's rel gives \"./\" or the last segment where the empty reference or a shorter path does (RFC 3986 4.4: the empty reference is the same document)"
	whyPerlRelCase    = "Perl's rel compares scheme and host case-insensitively and a port with its default (RFC 1738 3.1, 3.3 say they are equivalent), so its reference resolves to an equivalent URL (urlkit.Equal) but not the target's text; urlkit.Relative must resolve back to the exact text, so it keeps the target whole"
)

// PerlRel runs t/rel.t: URI->new(target)->rel(base) against
// urlkit.Relative(base, target, ModeRFC3986).
func PerlRel(dir string) (*Suite, error) {
	s := &Suite{
		Name:   "Perl URI t/rel.t (rfc3986 mode)",
		Source: "`" + perlDir + "/rel.t` (Perl URI); the other side is the reference the test expects from `URI->new($target)->rel($base)`.",
		Notes:  "Each case goes to `urlkit.Relative(base, target, urlkit.ModeRFC3986)`; where the references differ, both are resolved against the base before the case is classed.",
	}
	text, err := os.ReadFile(filepath.Join(dir, perlDir, "rel.t"))
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	target := ""
	for _, line := range strings.Split(string(text), "\n") {
		if m := perlRelNew.FindStringSubmatch(line); m != nil {
			target = m[1]
			continue
		}
		m := perlRelIs.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		s.Total++
		base, want := m[1], m[2]
		in := target + " rel " + base + " = " + want
		b, err1 := urlkit.Parse(base)
		t, err2 := urlkit.Parse(target)
		if err1 != nil || err2 != nil {
			s.wrong(in, fmt.Sprintf("base or target does not parse: %v %v", err1, err2))
			continue
		}
		rel, err := urlkit.Relative(b, t, urlkit.ModeRFC3986)
		if err != nil {
			s.wrong(in, fmt.Sprintf("urlkit error %v, rel.t %q", err, want))
			continue
		}
		got := rel.String()
		if got == want {
			s.agree(in, nil)
			continue
		}
		// Compare what each reference names before classing.
		mine, err := urlkit.ResolveString(base, got, urlkit.ModeRFC3986)
		if err != nil || mine.String() != target {
			s.wrong(in, fmt.Sprintf("urlkit's %q resolves to %q (%v), not the target", got, mine, err))
			continue
		}
		theirs, err := urlkit.ResolveString(base, want, urlkit.ModeRFC3986)
		switch {
		case err == nil && theirs.String() == target && len(got) < len(want):
			s.different("shorter reference", whyPerlRelShorter, in)
		case err == nil && theirs.String() != target && urlkit.Equal(theirs, t) && got == target:
			s.different("case and default port", whyPerlRelCase, in)
		default:
			s.wrong(in, fmt.Sprintf("urlkit %q, rel.t %q (which resolves to %q, %v)", got, want, theirs, err))
		}
	}
	if err := checkPlan(string(text), s.Total, "rel.t"); err != nil {
		return nil, err
	}
	return s, nil
}

func init() {
	extraSuites = append(extraSuites, PerlAbs, PerlRel)
}
