package urlkit

import (
	"errors"
	"fmt"
	"github.com/urlkit/urlkit/internal/resolve"
	"github.com/urlkit/urlkit/internal/testkit/corpus"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// resRow is one row of a relative-resolution table in
// ../shared/corpora/relative: base, reference, expected result, note.
type resRow struct {
	file            string
	line            int
	base, ref, want string
	note            string
	currentDocument bool // RFC 2396 "(current document)"
}

func (r resRow) String() string {
	return fmt.Sprintf("%s:%d %q + %q", r.file, r.line, r.base, r.ref)
}

// loadResolveCorpus reads a TSV table of ../shared/corpora/relative. The
// tables start with "#" comment lines naming their source and one header
// line (see SOURCES.md there).
func loadResolveCorpus(t testing.TB, name string) []resRow {
	t.Helper()
	in, err := corpus.ReadRelative(corpus.Path(t, filepath.Join("relative", name)))
	if err != nil {
		t.Fatalf("corpus %s: %v", name, err)
	}
	rows := make([]resRow, len(in))
	for i, r := range in {
		rows[i] = resRow{file: r.File, line: r.Line, base: r.Base, ref: r.Ref, want: r.Want, note: r.Note, currentDocument: r.CurrentDocument}
	}
	return rows
}

// divergence is a corpus row on which a mode deliberately gives another
// result than the table. got is worked out by hand from the mode's rule
// (or is "error" when the input or result is not an RFC 1738 URL); why
// says why.
type divergence struct {
	base, ref, want string // identify the row
	got             string
	why             string
}

const (
	whyEmptyAuth = `the reference has an empty authority ("//"); RFC 3986 keeps it, giving a URL with no host, which urlkit returns with a warning (RFC 1738 3.1 wants a host; Python treats an empty authority as absent)`
	whyHostSlash = `libwww mode follows HTParse, whose result for a host with no path gets "/" (its "no inheritance" case); the printed example omits it`
)

// corpusPlan says which table is checked in which mode, and the rows on
// which the mode deliberately differs.
var corpusPlan = []struct {
	file string
	mode Mode
	// only, when set, keeps the rows it returns true for; the rest do not
	// apply to the mode.
	only func(r resRow) bool
	div  []divergence
}{
	// RFC 1630 "Partial (relative) form", Examples, both contexts.
	{file: "rfc1630_partial_examples.tsv", mode: ModeRFC1630, div: []divergence{
		{"magic://a/b/c//d/e/f", "/g", "magic://a/g", "magic://a/b/c//d/g",
			`RFC 1630 rule as written: the first run of exactly one "/" with no longer run to its right is the one after d (the RFC's author later called the printed example an error)`},
		{"magic://a/b/c//d/e/", "/g", "magic://a/g", "magic://a/b/c//d/g",
			"RFC 1630 rule as written, same run as for magic://a/b/c//d/e/f"},
	}},
	{file: "rfc1630_partial_examples.tsv", mode: ModeLibwww, div: []divergence{
		{"magic://a/b/c//d/e/f", "//g", "magic://g", "magic://g/", whyHostSlash},
		{"magic://a/b/c//d/e/", "//g", "magic://g", "magic://g/", whyHostSlash},
	}},
	{file: "rfc1630_partial_examples.tsv", mode: ModeRFC3986},
	{file: "rfc1630_partial_examples.tsv", mode: ModeRFC1808},

	// RFC 1808 section 5.
	{file: "rfc1808_sec5_examples.tsv", mode: ModeRFC1808},
	{file: "rfc1808_sec5_examples.tsv", mode: ModeLibwww, div: []divergence{
		{"http://a/b/c/d;p?q#f", "?y", "http://a/b/c/d;p?y", "http://a/b/c/?y",
			`libwww (HTParse) treats "?y" as a relative path: it replaces the last segment, as RFC 2396 C.1 later printed`},
		{"http://a/b/c/d;p?q#f", ";x", "http://a/b/c/d;x", "http://a/b/c/;x",
			`libwww has no ";params" component: ";x" is a relative path replacing the last segment (RFC 2396 C.1 prints the same)`},
		{"http://a/b/c/d;p?q#f", "http:g", "http:g", "http://a/b/c/g",
			"libwww drops a scheme equal to the context's and reads the rest as partial (RFC 3986 5.4.2: for backward compatibility)"},
		{"http://a/b/c/d;p?q#f", "http:", "http:", "http://a/b/c/d;p?q#f",
			`libwww drops the repeated scheme; the empty rest is the whole context`},
		{"http://a/b/c/d;p?q#f", "//g", "http://g", "http://g/", whyHostSlash},
	}},

	// RFC 2396 appendix C: libwww practice.
	{file: "rfc2396_appC_examples.tsv", mode: ModeLibwww,
		only: func(r resRow) bool { return !strings.Contains(r.note, "for validating parsers") },
		div:  []divergence{{"http://a/b/c/d;p?q", "//g", "http://g", "http://g/", whyHostSlash}},
	},

	// RFC 3986 section 5.4. The "backward compatibility" row of http:g is
	// libwww's reading; the strict row is RFC 3986's.
	{file: "rfc3986_sec5.4_examples.tsv", mode: ModeRFC3986,
		only: func(r resRow) bool { return !strings.Contains(r.note, "backward compatibility") },
	},
	{file: "rfc3986_sec5.4_examples.tsv", mode: ModeLibwww,
		only: func(r resRow) bool { return strings.Contains(r.note, "backward compatibility") },
	},

	// CPython's urljoin tests: RFC 3986 with Python's own choices. Rows
	// whose base or reference RFC 1738 rejects (http: without "//", empty
	// hosts) do not apply.
	{file: "python_test_urlparse_urljoin.tsv", mode: ModeRFC3986,
		only: func(r resRow) bool {
			_, e1 := ParseRef(r.base)
			_, e2 := ParseRef(r.ref)
			return e1 == nil && e2 == nil
		},
		div: []divergence{
			{"http://a/b/c/d;p?q#f", "", "http://a/b/c/d;p?q#f", "http://a/b/c/d;p?q",
				"RFC 3986 5.2.2: an empty reference takes its fragment from the reference (none); Python keeps the base's"},
			{"", "http://a/./g", "http://a/./g", "http://a/g",
				"RFC 3986 5.2.2 removes dot segments from an absolute reference's path; Python does not when the base is empty"},
			{"http://a/b/c/d;p?q#f", "//", "http://a/b/c/d;p?q#f", "http://", whyEmptyAuth},
			{"http://a/b/c/d;p?q#f", "//#z", "http://a/b/c/d;p?q#z", "http://#z", whyEmptyAuth},
			{"http://a/b/c/d;p?q#f", "///w", "http://a/w", "http:///w", whyEmptyAuth},
			{"http://a/b/c/d;p?q#f", "//?y", "http://a/b/c/d;p?y", "http://?y", whyEmptyAuth},
			{"http://a", "//", "http://a", "http://", whyEmptyAuth},
			{"http://a", "///w", "http://a/w", "http:///w", whyEmptyAuth},
			{"//a", "//", "//a", "//", "RFC 3986 5.2.2: a reference with an (empty) authority replaces the base's; Python treats an empty authority as absent"},
			{"//a", "///w", "//a/w", "///w", "RFC 3986 5.2.2: a reference with an (empty) authority replaces the base's; Python treats an empty authority as absent"},
			{"/b/c", "//", "/b/c", "//", "RFC 3986 5.2.2: a reference with an (empty) authority replaces the base's; Python treats an empty authority as absent"},
			{"/b/c", "///w", "/w", "///w", "RFC 3986 5.2.2: a reference with an (empty) authority replaces the base's; Python treats an empty authority as absent"},
			{"///b/c", "//", "///b/c", "//", "RFC 3986 5.2.2: a reference with an (empty) authority replaces the base's; Python treats an empty authority as absent"},
		}},
}

// wantFor returns the expected text of a row: RFC 2396's "(current
// document)" is the base without its fragment.
func (r resRow) expected() string {
	if r.currentDocument {
		return strings.Replace(r.want, "(current document)", strings.SplitN(r.base, "#", 2)[0], 1)
	}
	return r.want
}

// TestResolveCorpora checks every applicable corpus row in each mode, and
// that each documented divergence gives the documented result. Run with
// -v to see the counts quoted in docs/partial-forms.md.
func TestResolveCorpora(t *testing.T) {
	for _, plan := range corpusPlan {
		rows := loadResolveCorpus(t, plan.file)
		used := make([]bool, len(plan.div))
		pass, diverge, skipped := 0, 0, 0
		for _, r := range rows {
			if plan.only != nil && !plan.only(r) {
				skipped++
				continue
			}
			want := r.expected()
			why := ""
			for i, d := range plan.div {
				if d.base == r.base && d.ref == r.ref && d.want == r.want {
					used[i] = true
					want, why = d.got, d.why
				}
			}
			u, err := ResolveString(r.base, r.ref, plan.mode)
			got := u.String()
			if err != nil && !IsResolveWarning(err) {
				got = "error"
				var se *SyntaxError
				if !errors.As(err, &se) {
					t.Errorf("%v (%s): error %v is not a *SyntaxError", r, plan.mode, err)
				}
			}
			if got != want {
				if why != "" {
					t.Errorf("%v (%s): got %q, want %q (documented divergence: %s)", r, plan.mode, got, want, why)
				} else {
					t.Errorf("%v (%s): got %q, want %q [%s]", r, plan.mode, got, want, r.note)
				}
				if err != nil {
					t.Logf("  error: %v", err)
				}
				continue
			}
			if why != "" {
				diverge++
			} else {
				pass++
			}
		}
		for i, ok := range used {
			if !ok {
				t.Errorf("%s (%s): divergence %q + %q matches no row", plan.file, plan.mode, plan.div[i].base, plan.div[i].ref)
			}
		}
		t.Logf("%-36s %-8s %3d pass, %2d documented divergences, %3d not applicable", plan.file, plan.mode, pass, diverge, skipped)
	}
}

// TestResolveRFC1630Examples quotes the example table of RFC 1630
// "Partial (relative) form" and checks it in every mode. The /g row is the
// one where the printed example and the printed rule disagree.
func TestResolveRFC1630Examples(t *testing.T) {
	// RFC 1630: "In the context of URI magic://a/b/c//d/e/f the partial
	// URIs would expand as follows: ... and in the context of the URI
	// magic://a/b/c//d/e/ the results would be exactly the same."
	examples := []struct{ ref, printed string }{
		{"g", "magic://a/b/c//d/e/g"},
		{"/g", "magic://a/g"},
		{"//g", "magic://g"},
		{"../g", "magic://a/b/c//d/g"},
		{"g:h", "g:h"},
	}
	for _, base := range []string{"magic://a/b/c//d/e/f", "magic://a/b/c//d/e/"} {
		for _, m := range Modes() {
			for _, ex := range examples {
				want := ex.printed
				if m == ModeRFC1630 && ex.ref == "/g" {
					// The rule: keep everything up to the first run of
					// exactly one "/" with no longer run to its right: the
					// "/" after "d".
					want = "magic://a/b/c//d/g"
				}
				if m == ModeLibwww && ex.ref == "//g" {
					want = "magic://g/" // whyHostSlash
				}
				u, err := ResolveString(base, ex.ref, m)
				if err != nil || u.String() != want {
					t.Errorf("RFC 1630 example (%s) %q + %q = %q, %v; want %q", m, base, ex.ref, u.String(), err, want)
				}
			}
		}
	}
}

// resolveCases are hand-written cases, each with its source.
var resolveCases = []struct {
	mode            Mode
	base, ref, want string
	src             string
}{
	// RFC 1630, the rule as written.
	{ModeRFC1630, "fred:///s//a/b/c", "../../g", "fred:///s//a/../g", `RFC 1630 rule: ".." never climbs over the element after "//" (issue 3)`},
	{ModeRFC1630, "fred:///s//a/b/c", "//g", "fred:///s//g", `RFC 1630 rule: the "//" after s has no longer run to its right`},
	{ModeRFC1630, "fred:///s//a/b/c", "///g", "fred:///g", `RFC 1630 rule: "///" is its own level`},
	{ModeRFC1630, "fred:///s//a/b/c", "/g", "fred:///s//a/g", `RFC 1630 rule: the first single "/" after the last "//" is the one after a`},
	{ModeRFC1630, "magic://a/b/c//d", "/g", "magic://a/b/c//d/g", `RFC 1630 rule, no qualifying run: the whole context is kept (documented in ModeRFC1630)`},
	{ModeRFC1630, "http://a/b", "///g", "http://a/b///g", `RFC 1630 rule, no run of three slashes: the whole context is kept`},
	{ModeRFC1630, "http://a", "g", "http://a/g", `RFC 1738 3.1: http://a is http://a/ (empty url-path, "/" omitted)`},
	{ModeRFC1630, "http://a", "/g", "http://a/g", `RFC 1630 rule: no single "/" run, whole context kept`},
	{ModeRFC1630, "http://a/b/c/", "g", "http://a/b/c/g", `RFC 1630 note "Trailing slashes": a void last segment`},
	{ModeRFC1630, "http://a/b/c", "g", "http://a/b/g", `RFC 1630 note "Trailing slashes": without the slash, c is the last segment`},
	{ModeRFC1630, "http://a/b/c/d", ".", "http://a/b/c", `RFC 1630: "/." is removed`},
	{ModeRFC1630, "http://a/b/c/d", "./", "http://a/b/c/", `RFC 1630: "/." is removed`},
	{ModeRFC1630, "http://a/b/c/d", "..", "http://a/b/", `RFC 1630: "xxx/.." at the end is removed`},
	{ModeRFC1630, "http://a/b/c/d", "../../../g", "http://a/../g", `RFC 1630: the host after "//" is never removed`},
	{ModeRFC1630, "http://a/b/c/d?q#f", "?y", "http://a/b/c/?y", `RFC 1630 rule: "?y" replaces the last part of the path`},
	{ModeRFC1630, "http://a/b/c/d?q#f", "#s", "http://a/b/c/d?q#s", `ModeRFC1630: a fragment alone names the context document`},
	{ModeRFC1630, "http://a/b/c/d?q#f", "", "http://a/b/c/d?q", `ModeRFC1630: the empty reference is the context document without fragment`},
	{ModeRFC1630, "http://a/b/c/d?x/y", "/g", "http://a/g", `RFC 1630 rule on the path: slashes in the search part do not count`},
	{ModeRFC1630, "http://a/b/c/d?x/y", "g", "http://a/b/c/g", `RFC 1630 rule: "the last part of the path", not of the search`},

	// RFC 1630 "News": "within an article, a reference to a news group or
	// to another article will be a valid URL (in the partial form)".
	{ModeRFC1630, "news:a@b", "c@d", "news:c@d", "RFC 1630 News"},
	{ModeLibwww, "news:a@b", "c@d", "news:c@d", "RFC 1630 News"},
	{ModeRFC3986, "news:a@b", "c@d", "news:c@d", "RFC 1630 News; RFC 3986 5.2.3 (base path without \"/\")"},
	{ModeRFC1808, "news:a@b", "c@d", "news:c@d", "RFC 1630 News; RFC 1808 step 6"},
	{ModeRFC1630, "news:a@b", "comp.infosystems.www", "news:comp.infosystems.www", "RFC 1630 News: a group"},
	{ModeRFC1630, "news:a@b", "#s", "news:a@b#s", "RFC 1630 Fragment-id"},

	// RFC 1630 "WAIS": "Within the WAIS world, names do not of course need
	// to be prefixed by wais: (by the partial form rules)."
	{ModeRFC1630, "wais://quake.think.com/wais-discussion-archives?lynch", "//cnidr.org:210/directory-of-servers", "wais://cnidr.org:210/directory-of-servers", "RFC 1630 WAIS; context from RFC 1630 references"},
	{ModeLibwww, "wais://quake.think.com/wais-discussion-archives?lynch", "//cnidr.org:210/directory-of-servers", "wais://cnidr.org:210/directory-of-servers", "RFC 1630 WAIS"},
	{ModeRFC3986, "wais://quake.think.com/wais-discussion-archives?lynch", "//cnidr.org:210/directory-of-servers", "wais://cnidr.org:210/directory-of-servers", "RFC 1630 WAIS"},
	{ModeRFC1808, "wais://quake.think.com/wais-discussion-archives?lynch", "//cnidr.org:210/directory-of-servers", "wais://cnidr.org:210/directory-of-servers", "RFC 1630 WAIS"},
	{ModeRFC1630, "wais://quake.think.com/db/TEXT/abc", "/db2", "wais://quake.think.com/db2", "RFC 1630 WAIS: no wais: prefix (single-slash run after the host)"},

	// The 1993 URL Internet-Draft, "Partial form": "If a leading slash is
	// present, the path is absolute. Otherwise ... the last part of the
	// path of the context locator ... is removed, and the given partial
	// URL appended in its place"; "/xxx/.." and "/." are removed. That is
	// libwww's practice.
	{ModeLibwww, "http://info.cern.ch/hypertext/WWW/TheProject.html", "Summary.html", "http://info.cern.ch/hypertext/WWW/Summary.html", "1993 draft, Partial form: relative path"},
	{ModeLibwww, "http://info.cern.ch/hypertext/WWW/TheProject.html", "/pub/www/", "http://info.cern.ch/pub/www/", "1993 draft, Partial form: leading slash"},
	{ModeLibwww, "http://info.cern.ch/hypertext/WWW/TheProject.html", "../DataSources/Top.html", "http://info.cern.ch/hypertext/DataSources/Top.html", `1993 draft: "/xxx/.." removed`},
	{ModeLibwww, "http://info.cern.ch/hypertext/WWW/TheProject.html", "./Policy.html", "http://info.cern.ch/hypertext/WWW/Policy.html", `1993 draft: "/." removed`},
	{ModeLibwww, "http://info.cern.ch/hypertext/WWW/TheProject.html", "//www.w3.org/x", "http://www.w3.org/x", "1993 draft: different host, host and the rest given"},
	{ModeLibwww, "http://a/b/c/d?q#f", "#s", "http://a/b/c/d?q#s", "ModeLibwww: #frag alone keeps the whole context"},
	{ModeLibwww, "http://a/b/c/d?q#f", "", "http://a/b/c/d?q#f", "ModeLibwww: empty reference is the whole context (RFC 1808 5.2 agrees)"},
	{ModeLibwww, "http://a/b/c/d?q", "?y", "http://a/b/c/?y", "ModeLibwww: ?y replaces the last segment (RFC 2396 C.1)"},
	{ModeLibwww, "http://a", "g", "http://a/g", "libwww: empty path is /"},
	{ModeLibwww, "ftp://a/b/c", "ftp:d", "ftp://a/b/d", "libwww: same scheme, read as partial"},
	{ModeLibwww, "magic://a/b/c//d/e/f", "//g", "magic://g/", `HTParse: a host with no path gets "/" (issue 10)`},
	{ModeLibwww, "http://a", "", "http://a/", `HTParse: a host with no path gets "/"`},
	{ModeLibwww, "http://a", "#s", "http://a/#s", `HTParse: a host with no path gets "/"`},
	{ModeLibwww, "http://a/b/c//d/e/f", "../../g", "http://a/b/c//d/../g", `HTParse's HTSimplify keeps an "xxx/.." directly after "//" (issue 10)`},
	{ModeLibwww, "http://a/b/c//d/e/f", "../g", "http://a/b/c//d/g", `HTParse: e follows a single "/", so e/.. goes (RFC 1630 example ../g)`},
	{ModeLibwww, "http://a/b/c//d/e", "../../../g", "http://a/b/c//d/../../../g", `HTParse: a ".." kept after "//d/.." is not cancelled by the next`},
	{ModeRFC1808, "http://a/b/c//d/e/f", "../../../g", "http://a/b/c/g", `RFC 1808 step 6: an empty segment is a segment`},
	{ModeLibwww, "ftp://a/b/c", "news:d", "news:d", "libwww: another scheme is absolute"},

	// RFC 3986 and RFC 1808 on queries, fragments and the empty reference.
	{ModeRFC3986, "http://a/b/c/d;p?q#f", "", "http://a/b/c/d;p?q", "RFC 3986 5.2.2: fragment from the reference"},
	{ModeRFC3986, "http://a/b/c/d;p?q#f", "#s", "http://a/b/c/d;p?q#s", "RFC 3986 5.4.1"},
	{ModeRFC3986, "http://a/b/c/d;p?q#f", "?", "http://a/b/c/d;p?", "RFC 3986 5.2.2: a defined empty query replaces the base's"},
	{ModeRFC3986, "http://a", "g", "http://a/g", "RFC 3986 5.2.3: authority and empty path merge with /"},
	{ModeRFC3986, "http://a/b/c/d", "HTTP://A/./g", "HTTP://A/g", "RFC 3986 5.2.2: dot segments removed from an absolute reference; case kept"},
	{ModeRFC1808, "http://a/b/c/d;p?q#f", "?", "http://a/b/c/d;p?q", "RFC 1808 step 5: an empty query is not non-empty, so the base's is inherited"},
	{ModeRFC1808, "http://a/b/c/d;p?q#f", ";", "http://a/b/c/d;p?q", "RFC 1808 step 5a: empty params inherit the base's"},
	{ModeRFC1808, "http://a/b/c/d;p?q#f", "g;x=1/../y", "http://a/b/c/g;x=1/../y", "RFC 1808 2.4.5: everything after the first ; is params, not path"},
	{ModeRFC1808, "http://a", "g", "http://a/g", "RFC 1808 step 6 with an empty base path"},
}

func TestResolveCases(t *testing.T) {
	for _, c := range resolveCases {
		u, err := ResolveString(c.base, c.ref, c.mode)
		if err != nil || u.String() != c.want {
			t.Errorf("%s: %q + %q = %q, %v; want %q (%s)", c.mode, c.base, c.ref, u.String(), err, c.want, c.src)
			continue
		}
		// The result is a URL like any other.
		if v, err := ParseRef(u.String()); err != nil || v != u {
			t.Errorf("%s: %q + %q: result does not reparse to itself: %v", c.mode, c.base, c.ref, err)
		}
	}
}

func TestRemoveDotSegments(t *testing.T) {
	tests := []struct {
		mode     Mode
		in, want string
		src      string
	}{
		// RFC 3986 5.2.4 walks through "/a/b/c/./../../g" and "mid/content=5/../6".
		{ModeRFC3986, "/a/b/c/./../../g", "/a/g", "RFC 3986 5.2.4 example"},
		{ModeRFC3986, "mid/content=5/../6", "mid/6", "RFC 3986 5.2.4 example"},
		{ModeRFC3986, "/../g", "/g", "RFC 3986 5.4.2"},
		{ModeRFC3986, "/./g", "/g", "RFC 3986 5.4.2"},
		{ModeRFC3986, "/b/c/.", "/b/c/", "RFC 3986 5.2.4 B"},
		{ModeRFC3986, "/b/c/..", "/b/", "RFC 3986 5.2.4 C"},
		{ModeRFC3986, "..", "", "RFC 3986 5.2.4 D"},
		{ModeRFC3986, "a//../g", "a/g", "RFC 3986 5.2.4: an empty segment is a segment"},
		{ModeRFC3986, "/b/c/g", "/b/c/g", "no dots"},
		{ModeRFC1808, "/b/c/../../../g", "/../g", "RFC 1808 5.2: ../../../g gives http://a/../g"},
		{ModeRFC1808, "/b/c/./g/.", "/b/c/g/", "RFC 1808 step 6b and 6c"},
		{ModeRFC1808, "/b/c/..", "/b/", "RFC 1808 step 6e"},
		{ModeRFC1808, "/b/c/../..", "/", "RFC 1808 5.1: ../.. gives http://a/"},
		{ModeRFC1808, "../../g", "../../g", "RFC 1808 6d: <segment> is not \"..\""},
		{ModeRFC1808, "a/..", "", "RFC 1808 step 6e"},
		{ModeLibwww, "/b/c/g/../h", "/b/c/h", "libwww: as RFC 1808 step 6"},
		{ModeRFC1630, "/b/c/./g/.", "/b/c/g", `RFC 1630: "/." removed, also at the end`},
		{ModeRFC1630, "/b/c/../g", "/b/g", `RFC 1630: "xxx/../"`},
		{ModeRFC1630, "/b/c/..", "/b/", `RFC 1630: "xxx/.." at the end`},
		{ModeRFC1630, "///s//a/b/../../g", "///s//a/../g", "RFC 1630: a never leaves its // section"},
		{ModeRFC1630, "//a/./g", "//a/g", `RFC 1630: "/."`},
		{ModeRFC1630, "//./g", "//./g", `RFC 1630: "." after "//" starts a section`},
		{ModeRFC1630, "a/b/./../c", "a/c", "RFC 1630: recursively"},
		{ModeRFC1630, "../../g", "../../g", "RFC 1630: xxx is not .."},
		{ModeRFC1630, "a/../b/../c", "c", "RFC 1630: the first element of a path without slash"},
	}
	for _, tt := range tests {
		if got := RemoveDotSegments(tt.in, tt.mode); got != tt.want {
			t.Errorf("RemoveDotSegments(%q, %s) = %q, want %q (%s)", tt.in, tt.mode, got, tt.want, tt.src)
		}
	}
	if got := RemoveDotSegments("/a/./b", Mode(9)); got != "/a/./b" {
		t.Errorf("unknown mode changed the path: %q", got)
	}
}

func TestResolveErrors(t *testing.T) {
	tests := []struct {
		base, ref string
		mode      Mode
		part      string
		offset    int
		sentinel  error
	}{
		{"http://a/b", "g h", ModeRFC1630, "reference", 1, ErrUnsafeChar},
		{"http://a/b", "%zz", ModeRFC3986, "reference", 0, ErrBadEscape},
		{"http://a b/c", "g", ModeLibwww, "base", 8, ErrBadHost},
		{"http://a/b/c/d", "a_b:y", ModeRFC1630, "reference", 1, ErrBadScheme},
		{"http://a/b/c/d", "a_b:y", ModeLibwww, "reference", 1, ErrBadScheme},
		{"http://a/b/c/d", ":y", ModeRFC1630, "reference", 0, ErrBadScheme},
		{"http://a/b/c/d", "g h:y", ModeLibwww, "reference", 1, ErrUnsafeChar},
		{"http://a/b", "//a:/x", ModeRFC1808, "reference", 3, ErrEmptyPort},
	}
	for _, tt := range tests {
		_, err := ResolveString(tt.base, tt.ref, tt.mode)
		var re *ResolveError
		var se *SyntaxError
		if !errors.As(err, &re) || !errors.As(err, &se) {
			t.Errorf("%q + %q: error %v is not a *ResolveError wrapping a *SyntaxError", tt.base, tt.ref, err)
			continue
		}
		if re.Part != tt.part || se.Offset != tt.offset || !errors.Is(err, tt.sentinel) {
			t.Errorf("%q + %q: part %q offset %d (%v); want part %q offset %d, %v", tt.base, tt.ref, re.Part, se.Offset, err, tt.part, tt.offset, tt.sentinel)
		}
		if !strings.Contains(err.Error(), fmt.Sprintf("offset %d", tt.offset)) {
			t.Errorf("message %q does not give the offset", err)
		}
	}
	if _, err := ResolveString("http://a/", "g", Mode(7)); !errors.Is(err, ErrUnknownMode) {
		t.Errorf("unknown mode: %v", err)
	}
	if _, err := Relative(MustParse("http://a/"), MustParse("http://a/g"), Mode(7)); !errors.Is(err, ErrUnknownMode) {
		t.Errorf("Relative, unknown mode: %v", err)
	}
}

func TestParseMode(t *testing.T) {
	for _, m := range Modes() {
		got, err := ParseMode(strings.ToUpper(m.String()))
		if err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v", m, got, err)
		}
		b, err := m.MarshalText()
		var back Mode
		if err != nil || back.UnmarshalText(b) != nil || back != m {
			t.Errorf("text round trip of %v: %q, %v", m, b, err)
		}
	}
	if _, err := ParseMode("rfc2396"); !errors.Is(err, ErrUnknownMode) || !strings.Contains(err.Error(), "rfc1630") {
		t.Errorf("ParseMode(rfc2396): %v", err)
	}
	if _, err := Mode(4).MarshalText(); err == nil {
		t.Error("Mode(4).MarshalText succeeded")
	}
	if Mode(0) != ModeRFC1630 || Mode(4).String() != "Mode(4)" {
		t.Error("default mode or unknown name")
	}
}

func TestRelativeExamples(t *testing.T) {
	tests := []struct {
		mode         Mode
		base, target string
		want         string
	}{
		{ModeRFC3986, "http://a/b/c/d;p?q", "http://a/b/c/g", "g"},
		{ModeRFC3986, "http://a/b/c/d;p?q", "http://a/b/g", "../g"},
		{ModeRFC3986, "http://a/b/c/d;p?q", "http://a/g", "/g"},
		{ModeRFC3986, "http://a/b/c/d;p?q", "http://g/x", "//g/x"},
		{ModeRFC3986, "http://a/b/c/d;p?q", "ftp://a/b", "ftp://a/b"},
		{ModeRFC3986, "http://a/b/c/d;p?q", "http://a/b/c/d;p?y", "?y"},
		{ModeRFC3986, "http://a/b/c/d;p?q", "http://a/b/c/d;p?q#s", "#s"},
		{ModeRFC3986, "http://a/b/c/d;p?q", "http://a/b/c/d;p?q", ""},
		{ModeRFC3986, "http://a/b/c/d;p?q", "http://a/b/c/", "."},
		{ModeRFC1630, "http://a/b/c/d;p?q", "http://a/b/c/", "./"},
		{ModeRFC3986, "http://a/b/c/d;p?q", "http://a/b/", ".."},
		{ModeRFC3986, "http://a/b/c/d;p?q", "http://a/b/c/g:h", "./g:h"},
		{ModeLibwww, "http://a/b/c/d;p?q", "http://a/b/c/d;p?y", "d;p?y"},
		{ModeLibwww, "http://a/b/c/d;p?q#f", "http://a/b/c/d;p?q#f", ""},
		{ModeRFC1630, "http://a/b/c/d;p?q#f", "http://a/b/c/d;p?q", ""},
		{ModeRFC1630, "magic://a/b/c//d/e/f", "magic://a/b/c//d/g", "/g"},
		{ModeLibwww, "magic://a/b/c//d/e/f", "magic://a/b/c//d/g", "../g"},
		{ModeRFC1630, "magic://a/b/c//d/e/f", "magic://a/g", "//a/g"},
		{ModeLibwww, "magic://a/b/c//d/e/f", "magic://a/g", "/g"},
		{ModeRFC1630, "news:a@b", "news:c@d", "c@d"},
		{ModeRFC1808, "http://a/b/c/d;p?q#f", "http://a/b/c/d;x", ";x"},
	}
	for _, tt := range tests {
		r, err := Relative(MustParse(tt.base), MustParse(tt.target), tt.mode)
		if err != nil || r.String() != tt.want {
			t.Errorf("Relative(%q, %q, %s) = %q, %v; want %q", tt.base, tt.target, tt.mode, r.String(), err, tt.want)
		}
	}
	_, err := Relative(MustParse("http://a/b/c"), MustParse("http://a/./g"), ModeRFC3986)
	if !errors.Is(err, ErrUnreachable) {
		t.Errorf("RFC 3986 cannot give a path with dot segments: %v", err)
	}
}

// TestRelativeOtherScheme: a target of another scheme is given whole (RFC
// 1630: "If the scheme parts are different, the whole absolute URI must
// be given"), in every mode, also when it breaks its scheme's rules and
// was read by the generic syntax ("ftp:this", RFC 3986 5.4.1's
// "g:h"-style target that Resolve gives back as it is); never when the
// target itself would resolve elsewhere.
func TestRelativeOtherScheme(t *testing.T) {
	base := MustParse("http://example.org/base/uri")
	for _, mode := range []Mode{ModeRFC1630, ModeLibwww, ModeRFC3986, ModeRFC1808} {
		for _, target := range []string{"ftp:this", "ftp://h/x", "gopher://h/1x", "news:comp.misc", "mailto:a@b.example", "g:h", "file:///etc/x"} {
			tu, err := ParseGeneric(target)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Relative(base, tu, mode)
			if err != nil || r.String() != target {
				t.Errorf("%s: Relative(%q, %q) = %q, %v; want the target whole", mode, base, target, r, err)
			}
			if res, err := Resolve(base, r, mode); (err != nil && !IsResolveWarning(err)) || res.String() != target {
				t.Errorf("%s: Resolve(%q, %q) = %q, %v", mode, base, r, res, err)
			}
		}
	}
	// RFC 1630 and libwww read "http:g" against an http base differently:
	// libwww joins it to the base (the partial form with the base's scheme),
	// so no reference gives the literal "http:g" there; RFC 1630 mode (as
	// urlkit reads it) and RFC 3986 take it whole.
	g, _ := ParseGeneric("http:g")
	if r, err := Relative(MustParse("http://a/b/c/d"), g, ModeLibwww); !errors.Is(err, ErrUnreachable) {
		t.Errorf("libwww: Relative(http://a/b/c/d, http:g) = %q, %v; want ErrUnreachable (it resolves to http://a/b/c/g)", r, err)
	}
	if r, err := Relative(MustParse("http://a/b/c/d"), g, ModeRFC3986); err != nil || r.String() != "http:g" {
		t.Errorf("rfc3986: Relative(http://a/b/c/d, http:g) = %q, %v; want http:g (RFC 3986 5.4.2, strict parser)", r, err)
	}
}

// TestRelativeRoundTrip is the property of issue 3: for every base and
// target drawn from the corpora, Resolve(base, Relative(base, t)) == t in
// every mode. Targets that a mode can produce (its own results) must
// always have a relative form; for any other target, Relative may only
// fail when the target is indeed not a result of resolving itself.
func TestRelativeRoundTrip(t *testing.T) {
	var bases, targets []URL
	seen := map[string]bool{}
	addTo := func(list *[]URL, s string) {
		if u, err := ParseRef(s); err == nil && !seen[s] {
			seen[s] = true
			*list = append(*list, u)
		}
	}
	files := []string{"rfc1630_partial_examples.tsv", "rfc1808_sec5_examples.tsv", "rfc2396_appC_examples.tsv", "rfc3986_sec5.4_examples.tsv", "python_test_urlparse_urljoin.tsv"}
	var rows []resRow
	for _, f := range files {
		rows = append(rows, loadResolveCorpus(t, f)...)
	}
	for _, r := range rows {
		addTo(&bases, r.base)
	}
	clear(seen)
	for _, r := range rows {
		addTo(&targets, r.expected())
		addTo(&targets, r.ref)
	}
	checked := 0
	for _, m := range Modes() {
		produced := map[string]bool{}
		for _, r := range rows {
			if u, err := ResolveString(r.base, r.ref, m); err == nil {
				produced[u.String()] = true
			}
		}
		for _, b := range bases {
			for _, tg := range targets {
				rel, err := Relative(b, tg, m)
				if err != nil {
					if !errors.Is(err, ErrUnreachable) {
						t.Errorf("Relative(%q, %q, %s): %v", b, tg, m, err)
					}
					if self, err := Resolve(b, tg, m); err == nil && self.String() == tg.String() {
						t.Errorf("Relative(%q, %q, %s) failed, but the target resolves to itself", b, tg, m)
					}
					if produced[tg.String()] && b.IsAbsolute() == tg.IsAbsolute() && tg.IsAbsolute() {
						t.Logf("note: %s result %q has no form relative to %q", m, tg, b)
					}
					continue
				}
				back, err := Resolve(b, rel, m)
				if err != nil || back.String() != tg.String() {
					t.Errorf("%s: Relative(%q, %q) = %q, which resolves to %q, %v", m, b, tg, rel, back, err)
				}
				if self, err := Resolve(b, tg, m); err == nil && self.String() == tg.String() && len(rel.String()) > len(tg.String()) {
					t.Errorf("%s: Relative(%q, %q) = %q is longer than the target", m, b, tg, rel)
				}
				checked++
			}
		}
	}
	t.Logf("%d base/target pairs round-trip (%d bases x %d targets x %d modes)", checked, len(bases), len(targets), len(Modes()))
}

// FuzzResolve: no input panics; every result is a URL that parses to
// itself; Relative gives a form that resolves back.
func FuzzResolve(f *testing.F) {
	for _, s := range [][2]string{
		{"magic://a/b/c//d/e/f", "/g"}, {"fred:///s//a/b/c", "../../g"}, {"http://a/b/c/d;p?q#f", "../../../g"},
		{"news:a@b", "c@d"}, {"http://a", "?y#s"}, {"http://a/b/c/d;p?q", ";x"}, {"//a", "///w"},
		{"file:///x/./y/..", "./../z/."}, {"x:a/./../..//b", "..//./c"},
		{"http:///s//a/b/c", "g"}, {"http://a/b/c/d", "a_b:y"}, {"ftp://a/b", "//g?y"}, {"http://a", "https:"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, base, ref string) {
		b, err1 := ParseRef(base)
		r, err2 := ParseRef(ref)
		// The generic syntax accepts every URL the strict parser does.
		if _, gerr := ParseGeneric(base); err1 == nil && gerr != nil {
			t.Fatalf("ParseGeneric(%q) fails where ParseRef succeeds: %v", base, gerr)
		}
		for _, m := range Modes() {
			_, _ = ResolveString(base, ref, m)
			if err1 != nil || err2 != nil {
				continue
			}
			u, err := Resolve(b, r, m)
			if IsResolveWarning(err) {
				// Breaks only its scheme's rules: a generic URL.
				if v, gerr := ParseGeneric(u.String()); gerr != nil || v != u {
					t.Fatalf("%s: %q + %q = %q (warning) does not reparse generically: %v", m, base, ref, u, gerr)
				}
				if _, serr := ParseRef(u.String()); serr == nil {
					t.Fatalf("%s: %q + %q = %q: warning, yet the result parses strictly", m, base, ref, u)
				}
				continue
			}
			if err != nil {
				var re *ResolveError
				if !errors.As(err, &re) || (re.Part != "result" && re.Part != "reference") {
					t.Fatalf("%s: %q + %q: unexpected error %v", m, base, ref, err)
				}
				continue
			}
			if v, err := ParseRef(u.String()); err != nil || v != u {
				t.Fatalf("%s: %q + %q = %q does not reparse to itself: %v", m, base, ref, u, err)
			}
			rel, err := Relative(b, u, m)
			if err != nil {
				if !errors.Is(err, ErrUnreachable) {
					t.Fatalf("%s: Relative(%q, %q): %v", m, base, u, err)
				}
				continue
			}
			if back, err := Resolve(b, rel, m); err != nil || back.String() != u.String() {
				t.Fatalf("%s: Relative(%q, %q) = %q resolves to %q, %v", m, base, u, rel, back, err)
			}
		}
	})
}

// FuzzResolveDotSegments: no panic, the result is never longer, and
// simplifying twice changes nothing in the modes where that holds.
func FuzzResolveDotSegments(f *testing.F) {
	for _, s := range []string{"/a/b/c/./../../g", "mid/content=5/../6", "///s//a/b/../../g", "a/./..", "/..", "./.././/."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if len(p) <= 4096 {
			// The one-pass RFC 1630 removal equals the rule applied by
			// rescanning (dots1630_test.go), which is quadratic.
			a, b := []byte(p), []byte(p)
			if got, want := string(a[:resolve.Dots(a, resolve.RFC1630)]), string(b[:removeDots1630Rescan(b)]); got != want {
				t.Fatalf("resolve.Dots(%q, RFC1630) = %q, the rescanning rule gives %q", p, got, want)
			}
		}
		for _, m := range Modes() {
			out := RemoveDotSegments(p, m)
			if len(out) > len(p) {
				t.Fatalf("%s: %q grew to %q", m, p, out)
			}
			if m != ModeRFC3986 {
				continue
			}
			if again := RemoveDotSegments(out, m); again != out && !strings.HasPrefix(out, "//") && !strings.Contains(out, "/..") && !strings.HasPrefix(out, ".") {
				t.Fatalf("%s: not idempotent: %q -> %q -> %q", m, p, out, again)
			}
		}
	})
}

// TestResolveNetURLAgreement compares ModeRFC3986 with net/url's
// ResolveReference on every corpus pair both accept and can be compared.
func TestResolveNetURLAgreement(t *testing.T) {
	compared := 0
	for _, f := range []string{"rfc3986_sec5.4_examples.tsv", "rfc1808_sec5_examples.tsv", "python_test_urlparse_urljoin.tsv", "rfc1630_partial_examples.tsv"} {
		for _, row := range loadResolveCorpus(t, f) {
			b, err1 := ParseRef(row.base)
			r, err2 := ParseRef(row.ref)
			nb, err3 := url.Parse(row.base)
			nr, err4 := url.Parse(row.ref)
			if err1 != nil || err2 != nil || err3 != nil || err4 != nil || !netURLComparable(b, r, nb, nr) {
				continue
			}
			u, err := Resolve(b, r, ModeRFC3986)
			if want := nb.ResolveReference(nr).String(); err != nil || u.String() != want {
				t.Errorf("%v: urlkit %q, %v; net/url %q", row, u, err, want)
			}
			compared++
		}
	}
	if compared < 100 {
		t.Errorf("only %d pairs compared", compared)
	}
	t.Logf("%d corpus pairs agree with net/url", compared)
}

// FuzzResolveNetURL: in ModeRFC3986, urlkit agrees with net/url's
// ResolveReference on every input both accept, except for the documented
// differences of net/url (see netURLComparable).
func FuzzResolveNetURL(f *testing.F) {
	rows := [][2]string{{"http://a/b/c/d;p?q", "../../g"}, {"http://a/b/c/d;p?q", "?y"}, {"http://a/b/c/d;p?q", "g;x=1/../y"}, {"ftp://x/y/", "./z/.."}}
	for _, r := range rows {
		f.Add(r[0], r[1])
	}
	f.Fuzz(func(t *testing.T, base, ref string) {
		b, err1 := ParseRef(base)
		r, err2 := ParseRef(ref)
		// The generic syntax accepts every URL the strict parser does.
		if _, gerr := ParseGeneric(base); err1 == nil && gerr != nil {
			t.Fatalf("ParseGeneric(%q) fails where ParseRef succeeds: %v", base, gerr)
		}
		nb, err3 := url.Parse(base)
		nr, err4 := url.Parse(ref)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil || !netURLComparable(b, r, nb, nr) {
			return
		}
		u, err := Resolve(b, r, ModeRFC3986)
		want := nb.ResolveReference(nr).String()
		if IsResolveWarning(err) {
			// RFC 3986 allows results RFC 1738 does not ("ftp://A" + "?"
			// gives "ftp://A?": RFC 1738 3.1 puts a "/" before any
			// search part); urlkit returns them with a warning.
			if _, perr := ParseRef(want); perr == nil {
				t.Fatalf("%q + %q: urlkit warns about the result %q, which parses", base, ref, want)
			}
			err = nil
		}
		if err != nil {
			t.Fatalf("%q + %q: urlkit error %v, net/url gives %q", base, ref, err, want)
		}
		if u.String() != want {
			t.Fatalf("%q + %q: urlkit %q, net/url %q", base, ref, u, want)
		}
	})
}

// netURLComparable reports whether net/url can be compared with RFC 3986
// on these inputs. The documented differences of net/url are:
//
//   - net/url writes back a URL in its own form (escaping, "//" before an
//     empty host, a "./" it adds before a first segment with ":"), so only
//     inputs that net/url writes back unchanged are compared;
//   - an empty reference keeps the base's fragment in net/url; RFC 3986
//     5.2.2 takes the fragment from the reference;
//   - net/url gives a reference with an empty authority ("//", "///w") no
//     authority, and handles opaque bases (news:a@b) its own way;
//   - net/url's resolvePath works on "/"-separated elements and drops an
//     empty segment next to ".." ("a://0" + "..//" gives "a://0/", RFC
//     3986 5.2.4 gives "a://0//"), so paths with empty segments are not
//     compared;
//   - a result that RFC 3986 allows but RFC 1738 does not ("ftp://A" +
//     "?" gives "ftp://A?") is an error in urlkit, checked to be one that
//     ParseRef rejects too (found by FuzzResolveNetURL);
//   - a base without an authority or without a path starting with "/"
//     (partial or opaque bases) is resolved by net/url with a "/" RFC 3986
//     does not add.
func netURLComparable(b, r URL, nb, nr *url.URL) bool {
	if nb.String() != b.String() || nr.String() != r.String() {
		return false
	}
	if r.String() == "" {
		return false
	}
	bp := splitRef(&b)
	rp := splitRef(&r)
	if !bp.HasScheme || !bp.HasAuth || bp.Auth == "" || (bp.Path != "" && bp.Path[0] != '/') {
		return false
	}
	if strings.Contains(bp.Path, "//") || strings.Contains(rp.Path, "//") || strings.HasPrefix(rp.Path, "/") && len(rp.Path) > 1 && rp.Path[1] == '/' {
		return false
	}
	if rp.HasAuth && rp.Auth == "" {
		return false
	}
	if rp.HasScheme && (!rp.HasAuth || rp.Auth == "") {
		return false
	}
	return true
}

// TestResolveFastPath checks that the URL Resolve builds without parsing
// its text again (withBaseAuthority) is exactly the URL ParseRef gives for
// that text, for every base and reference of the corpus tables (RFC 3986
// 5.4, RFC 1808 5, RFC 1630 "Partial (relative) form", Python's urljoin
// tests) in every mode, and that the fast path is taken at all.
func TestResolveFastPath(t *testing.T) {
	fast := 0
	for _, f := range []string{"rfc3986_sec5.4_examples.tsv", "rfc1808_sec5_examples.tsv", "python_test_urlparse_urljoin.tsv", "rfc1630_partial_examples.tsv"} {
		for _, row := range loadResolveCorpus(t, f) {
			b, err1 := ParseRef(row.base)
			r, err2 := ParseRef(row.ref)
			if err1 != nil || err2 != nil {
				continue
			}
			for _, m := range Modes() {
				var arr [192]byte
				text, direct, _ := resolveInto(arr[:0], &b, &r, m)
				var u URL
				if direct != 0 || !withBaseAuthority(&u, text, &b) {
					continue
				}
				fast++
				v, err := ParseRef(string(text))
				if err != nil || v != u {
					t.Errorf("%v (%s): built %#v, ParseRef(%q) gives %#v, %v", row, m, u, text, v, err)
				}
				if got, err := Resolve(b, r, m); err != nil || got != v {
					t.Errorf("%v (%s): Resolve gives %#v, %v; want %#v", row, m, got, err, v)
				}
			}
		}
	}
	if fast < 100 {
		t.Errorf("the fast path built only %d results", fast)
	}
	t.Logf("%d results built without a second parse", fast)
}

// TestResolveAllocs: the budget is at most one allocation per
// result, and none when the result is the base or the reference itself.
func TestResolveAllocs(t *testing.T) {
	base := MustParse("http://a/b/c/d;p?q")
	for _, tc := range []struct {
		ref  string
		mode Mode
		max  float64
	}{
		{"../g", ModeRFC3986, 1}, {"g;x?y#s", ModeRFC1630, 1}, {"//g", ModeLibwww, 1}, {"?y", ModeRFC1808, 1},
		{"", ModeRFC1808, 0}, {"ftp://x/y", ModeRFC1630, 0}, {"ftp://x/y", ModeRFC3986, 0},
	} {
		r := mustParseRef(t, tc.ref)
		if n := testing.AllocsPerRun(100, func() { _, _ = Resolve(base, r, tc.mode) }); n > tc.max {
			t.Errorf("%s: Resolve(%q, %q) allocates %v times, want at most %v", tc.mode, base, tc.ref, n, tc.max)
		}
	}
}

// mustParseRef is ParseRef for test tables.
func mustParseRef(t *testing.T, s string) URL {
	t.Helper()
	u, err := ParseRef(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// removeDotSegmentsRef is RFC 3986 section 5.2.4 written as the RFC
// states it, on strings, as the reference for FuzzRemoveDots3986.
func removeDotSegmentsRef(in string) string {
	out := ""
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"):
			in = in[3:]
			out = out[:max(strings.LastIndexByte(out, '/'), 0)]
		case in == "/..":
			in = "/"
			out = out[:max(strings.LastIndexByte(out, '/'), 0)]
		case in == "." || in == "..":
			in = ""
		default:
			e := strings.IndexByte(in[1:], '/') + 1
			if e == 0 {
				e = len(in)
			}
			out += in[:e]
			in = in[e:]
		}
	}
	return out
}

// TestRemoveDots3986Ref: the in-place removal (with its skip of the part
// before the first dot segment) agrees with RFC 3986 5.2.4 as written, on
// the RFC's own examples in 5.2.4 and on edge cases.
func TestRemoveDots3986Ref(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/a/b/c/./../../g", "/a/g"},    // RFC 3986 5.2.4
		{"mid/content=5/../6", "mid/6"}, // RFC 3986 5.2.4
		{"/b/c/../../../g", "/g"},       // RFC 3986 5.4.2 "../../../g"
		{"/b/c/.g", "/b/c/.g"},          // RFC 3986 5.4.2 ".g"
		{"/b/c/g..", "/b/c/g.."},        // RFC 3986 5.4.2 "g.."
		{"/b/c/./../g", "/b/g"},         // RFC 3986 5.4.2 "./../g"
		{"/b/c/g/./h", "/b/c/g/h"},      // RFC 3986 5.4.2 "g/./h"
		{"/b/c/...", "/b/c/..."},
		{"a/..", "/"},
		{"", ""},
	} {
		if got := RemoveDotSegments(tc.in, ModeRFC3986); got != tc.want || got != removeDotSegmentsRef(tc.in) {
			t.Errorf("RemoveDotSegments(%q, rfc3986) = %q, want %q (reference %q)", tc.in, got, tc.want, removeDotSegmentsRef(tc.in))
		}
	}
}

// FuzzRemoveDots3986: the in-place removal agrees with RFC 3986 5.2.4 as
// written (removeDotSegmentsRef) on every input.
func FuzzRemoveDots3986(f *testing.F) {
	for _, s := range []string{"/a/b/c/./../../g", "mid/content=5/../6", "a/..", "./.././/.", "/x/.y/..z/../.", "..", "x.y/./"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if got, want := RemoveDotSegments(p, ModeRFC3986), removeDotSegmentsRef(p); got != want {
			t.Fatalf("RemoveDotSegments(%q, rfc3986) = %q, RFC 3986 5.2.4 gives %q", p, got, want)
		}
	})
}

// TestResolveGenericSyntax: resolution works on the generic syntax in
// every mode; what breaks only a scheme's rules comes back as a
// *ResolveWarning with the result (issue 10).
func TestResolveGenericSyntax(t *testing.T) {
	tests := []struct {
		mode            Mode
		base, ref, want string
		parts           string // the parts with findings, comma-separated
		src             string
	}{
		{ModeRFC1630, "http:///s//a/b/c", "g", "http:///s//a/b/g", "base,result", `RFC 1630: the partial form relies only on "/", "." and ".."`},
		{ModeRFC1630, "fred:///s//a/b/c", "g", "fred:///s//a/b/g", "", "the same structure under an unknown scheme needs no warning"},
		{ModeLibwww, "http:///s//a/b/c", "g", "http:///s//a/b/g", "base,result", "libwww: same"},
		{ModeRFC3986, "http:///s//a/b/c", "g", "http:///s//a/b/g", "base,result", "RFC 3986 5.2: generic syntax"},
		{ModeRFC1808, "http:///s//a/b/c", "g", "http:///s//a/b/g", "base,result", "RFC 1808 4: generic syntax"},
		{ModeRFC3986, "http://a/b/c/d;p?q", "//g?y", "http://g?y", "result", `RFC 3986 5.4: the result breaks RFC 1738 3.1 ("/" before "?")`},
		{ModeRFC1630, "ftp://a/b/c", "ftp:g", "ftp:g", "reference", "RFC 1630: an absolute reference is used as it is"},
		{ModeRFC3986, "http://a/b/c/d;p?q", "http:g", "http:g", "reference", "RFC 3986 5.4.2 (strict parser)"},
		{ModeLibwww, "ftp://a/b/c", "FTP:d", "FTP:d", "reference", "HTParse compares scheme names exactly (strcmp): FTP:d is absolute"},
		{ModeRFC3986, "http://a/b", "//", "http://", "result", "RFC 3986 5.2.2: an empty authority is kept"},
	}
	for _, tt := range tests {
		u, err := ResolveString(tt.base, tt.ref, tt.mode)
		if u.String() != tt.want {
			t.Errorf("%s: %q + %q = %q, %v; want %q (%s)", tt.mode, tt.base, tt.ref, u, err, tt.want, tt.src)
			continue
		}
		var parts []string
		var w *ResolveWarning
		if errors.As(err, &w) {
			for _, f := range w.Findings {
				parts = append(parts, f.Part)
				var se *SyntaxError
				if !errors.As(f.Err, &se) {
					t.Errorf("%s: %q + %q: finding %v has no *SyntaxError", tt.mode, tt.base, tt.ref, f)
				}
			}
			if w.Result != u.String() || !strings.Contains(err.Error(), "warning") {
				t.Errorf("%s: %q + %q: warning %v does not name the result", tt.mode, tt.base, tt.ref, err)
			}
		} else if err != nil {
			t.Errorf("%s: %q + %q: error %v is not a warning", tt.mode, tt.base, tt.ref, err)
		}
		if got := strings.Join(parts, ","); got != tt.parts {
			t.Errorf("%s: %q + %q: findings in %q, want %q (%v)", tt.mode, tt.base, tt.ref, got, tt.parts, err)
		}
		if v, err := ParseGeneric(u.String()); err != nil || v != u {
			t.Errorf("%s: result %q does not reparse generically: %v", tt.mode, u, err)
		}
	}
	// Relative works on generic URLs too (RFC 1630 rule: /g joins after
	// the "//a" section).
	gb, _ := ParseGeneric("http:///s//a/b/c")
	gt, _ := ParseGeneric("http:///s//a/g")
	if rel, err := Relative(gb, gt, ModeRFC1630); err != nil || rel.String() != "/g" {
		t.Errorf("Relative on generic URLs: %q, %v; want /g", rel, err)
	}
	// Not even a generic URL: still an error.
	if _, err := ResolveString("http://a b/", "g", ModeRFC1630); err == nil || IsResolveWarning(err) {
		t.Errorf("a base with a space: %v", err)
	}
}

// TestAbsoluteForm is RFC 1630's test in modes rfc1630 and libwww, and
// the RFCs' own in rfc3986 and rfc1808 (issue 10).
func TestAbsoluteForm(t *testing.T) {
	const base = "http://a/b/c/d"
	for _, tt := range []struct {
		mode      Mode
		ref, want string // want "" for an error
		src       string
	}{
		{ModeRFC1630, "a_b:y", "", `RFC 1630: "a colon before any slash" makes an absolute form; a_b is no scheme name`},
		{ModeLibwww, "a_b:y", "", "HTParse's scan takes a_b as the scheme"},
		{ModeRFC1630, "g/a_b:y", "http://a/b/c/g/a_b:y", "RFC 1630: the colon comes after a slash"},
		{ModeRFC1630, "g?a_b:y", "http://a/b/c/g?a_b:y", `RFC 1630 BNF: "?" starts the search part`},
		{ModeRFC1630, "#a_b:y", "http://a/b/c/d#a_b:y", `RFC 1630 BNF: "#" starts the fragment`},
		{ModeLibwww, "g;a_b:y", "http://a/b/c/g;a_b:y", `HTParse's scan stops at ";"`},
		{ModeRFC1808, "a_b:y", "http://a/b/c/a_b:y", "RFC 1808 2.4.2: a colon after a character not allowed in a scheme name: relative"},
		{ModeRFC3986, "a_b:y", "", "RFC 3986 4.2: no colon in the first segment of a relative-path reference"},
		{ModeRFC3986, "./a_b:y", "http://a/b/c/a_b:y", `RFC 3986 4.2: "./" first`},
		{ModeRFC3986, "g/a_b:y", "http://a/b/c/g/a_b:y", "RFC 3986 4.2: a colon in a later segment"},
		{ModeRFC1630, "g:h", "g:h", "RFC 1630 example"},
	} {
		u, err := ResolveString(base, tt.ref, tt.mode)
		if tt.want == "" {
			var re *ResolveError
			sentinel := ErrBadScheme
			if tt.mode == ModeRFC3986 {
				sentinel = ErrBadChar
			}
			if !errors.As(err, &re) || re.Part != "reference" || !errors.Is(err, sentinel) || IsResolveWarning(err) {
				t.Errorf("%s: %q: got %q, %v; want a reference error (%s)", tt.mode, tt.ref, u, err, tt.src)
			}
			// The library entry point with parsed URLs says the same.
			r, _ := ParseRef(tt.ref)
			if _, err := Resolve(MustParse(base), r, tt.mode); !errors.Is(err, sentinel) {
				t.Errorf("%s: Resolve %q: %v", tt.mode, tt.ref, err)
			}
			continue
		}
		if err != nil || u.String() != tt.want {
			t.Errorf("%s: %q = %q, %v; want %q (%s)", tt.mode, tt.ref, u, err, tt.want, tt.src)
		}
	}
}

// TestLinearTime is issue 10's quadratic cases at 1 MB: Relative of a
// deep target and RFC 1630 dot removal of "a/../" repeated. Quadratic code
// took 9.6 s for a 40 KB Relative and 42 s for a 3.2 MB dot removal. The
// bound is a ratio of CPU times, 16 times the input for at most 64 times
// the time (linear: 16; quadratic: 256), so neither a loaded machine nor
// the race detector makes it flake.
func TestLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("1 MB inputs")
	}
	run := func(n int) time.Duration {
		target, dots := linearInputs(n)
		start := cpuTime()
		rel, err := Relative(MustParse("http://a/"), target, ModeRFC1630)
		if err != nil || !strings.HasPrefix(rel.String(), "a/a/") {
			t.Fatalf("Relative: %.20q..., %v", rel, err)
		}
		for _, m := range Modes() {
			if out := RemoveDotSegments(dots, m); len(out) > len(dots) {
				t.Fatalf("%s grew", m)
			}
		}
		return cpuTime() - start
	}
	run(1 << 16) // warm up
	small, large := run(1<<16), run(1<<20)
	t.Logf("CPU time: %v for 64 KB inputs, %v for 1 MB", small, large)
	if large > 64*small+100*time.Millisecond {
		t.Errorf("1 MB inputs took %v of CPU time, 64 KB took %v: not linear", large, small)
	}
}

// splitRef returns the Parts of u, as Resolve splits it.
func splitRef(u *URL) resolve.Parts {
	var p resolve.Parts
	splitRefInto(u, &p)
	return p
}

// RelativeString reads its inputs as ResolveString does (issue 10: the
// generic syntax, the scheme's complaints as warnings) and gives
// Relative's result; RFC 1630's slash-count rule places "/g" after the
// "//a" section.
func TestRelativeString(t *testing.T) {
	tests := []struct {
		mode               Mode
		base, target, want string
		parts              string // the findings' parts, or the error's Part after "error:"
	}{
		{ModeRFC1630, "http://a/b/c", "http://a/b/g", "g", ""},
		{ModeRFC1630, "http:///s//a/b/c", "http:///s//a/g", "/g", "base,target"},
		{ModeRFC1630, "http://a/b/c", "http:///s//a/g", "http:///s//a/g", "target"}, // the target itself, as read
		{ModeRFC1630, "http://a b/", "http://a/g", "", "error:base"},
		{ModeRFC1630, "http://a/b/c", "http://a/%zz", "", "error:target"},
		{ModeRFC3986, "http://a/b/c", "http://a/./g", "", "error:target"}, // Relative's ErrUnreachable, as it is
	}
	for _, tt := range tests {
		u, err := RelativeString(tt.base, tt.target, tt.mode)
		var parts []string
		var w *ResolveWarning
		var re *ResolveError
		switch {
		case errors.As(err, &w):
			for _, f := range w.Findings {
				parts = append(parts, f.Part)
			}
			if w.Result != u.String() || w.Base != tt.base || w.Ref != tt.target || w.Op != "relative" || !strings.HasPrefix(w.Error(), "relative ") {
				t.Errorf("%q, %q: warning %+v does not name the operation, the inputs and the result", tt.base, tt.target, w)
			}
		case errors.As(err, &re):
			parts = []string{"error:" + re.Part}
			if re.Op != "relative" || re.Base != tt.base || re.Ref != tt.target {
				t.Errorf("%q, %q: error %+v does not name the operation and the inputs", tt.base, tt.target, re)
			}
		case err != nil:
			t.Errorf("%q, %q: error %v is neither a warning nor a *ResolveError", tt.base, tt.target, err)
		}
		if got := strings.Join(parts, ","); u.String() != tt.want || got != tt.parts {
			t.Errorf("RelativeString(%q, %q) = %q, findings or error in %q; want %q, %q (%v)", tt.base, tt.target, u, got, tt.want, tt.parts, err)
		}
	}
}
