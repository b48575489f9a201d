package conformance

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"math/rand"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/schemes"
)

// lynxPages is how many links go on one page: lynx is run once a page.
const lynxPages = 400

// lynxGenerated is the number of generated base/reference pairs, drawn
// with a fixed seed so that the report is the same on every run.
const lynxGenerated = 1200

// Lynx compares urlkit's ModeLibwww with lynx (the Debian package; lynx
// 2.9 is built on CERN libwww 2.14's HTParse, as lynx was in 1994) as a
// live oracle: each base becomes an HTML page with <base href> and one link
// per reference, and `lynx -dump -listonly -force_html` prints the
// absolute URL it made of each link. The pairs are every base/reference
// pair of relative/*.tsv and generated pairs. When lynx is absent the
// suite reports that it was not run.
func Lynx(dir string) (*Suite, error) {
	s := &Suite{
		Name: "Oracle: lynx (libwww mode)",
		Source: fmt.Sprintf("every base/reference pair of `relative/*.tsv`, the cases of issue 10, and %d generated pairs (fixed seed: bases with \"//\" sections, references of \"g\", \".\", \"..\", \"/\", \"//\", \"?y\", \";x\", \"#s\" pieces); "+
			"the other side is lynx (Debian package, libwww-FM 2.14's HTParse) reading a page with `<base href>` and the references as links, `lynx -dump -listonly -force_html`.", lynxGenerated),
		Notes: "Each pair goes to `urlkit.ResolveString(base, ref, urlkit.ModeLibwww)`; a result returned with a scheme warning counts as the result. " +
			"Every pair is compared; a difference is classed only by a predicate over both outputs and the input, else it is wrong. " +
			"lynx 2.9 is not the HTParse of the libwww 2.14 line (lynx 2.6 and 2.7.1) that the mode is named after; that one cannot run in CI, and its 20 differences from urlkit on 27 recorded pairs (trailing \"..\", a base with no path, dots after \"?\", fragments) are listed with their reasons in docs/partial-forms.md (\"libwww mode is HTParse\") and pinned by TestHTParse214.",
	}
	lynx, err := exec.LookPath("lynx")
	if err != nil {
		s.Unavailable = "lynx is not installed (Debian package lynx), so this suite was not run"
		return s, nil
	}
	set := newRelPairSet(s, func(p relPair) bool {
		in := p.base + " + " + p.ref
		switch {
		case strings.IndexFunc(p.base+p.ref, func(r rune) bool { return r <= ' ' || r >= 0x7f }) >= 0:
			s.skip("space or control character", "HTML strips and folds white space in an href, so lynx never sees the reference as written (RFC 1738 2.2 excludes these characters anyway)", in)
		case !isAbsoluteText(p.base):
			s.skip("no absolute base", "<base href> needs an absolute URL; the tables' partial bases (\"\", \"//a\", \"/b/c\") cannot be put on a page", in)
		default:
			return true
		}
		return false
	})
	if err := set.addTables(dir, nil); err != nil {
		return nil, err
	}
	// The cases of issue 10 that were checked against HTParse.
	for _, p := range [][2]string{
		{"magic://a/b/c//d/e/f", "//g"}, {"http://a/b/c/d", "a_b:y"}, {"http://a/b/c/d", "HTTP:g"},
		{"http://a/b/c/d", "http:g"}, {"http://a/b/c//d/e/f", "../../g"}, {"http:///s//a/b/c", "g"},
		{"http://a/b/c/d;p?q", "//g?y"}, {"ftp://a/b/c", "ftp:g"}, {"http://a/b/c/d", "http://v"},
	} {
		set.add(p[0], p[1])
	}
	for _, g := range generatedPairs(lynxGenerated) {
		set.add(g[0], g[1])
	}

	// One page per base, at most lynxPages links each.
	byBase := map[string][]string{}
	var bases []string
	for _, p := range set.pairs {
		if byBase[p.base] == nil {
			bases = append(bases, p.base)
		}
		byBase[p.base] = append(byBase[p.base], p.ref)
	}
	tmp, err := os.MkdirTemp("", "urlkit-lynx-")
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	defer os.RemoveAll(tmp)
	for bi, base := range bases {
		refs := byBase[base]
		for start := 0; start < len(refs); start += lynxPages {
			chunk := refs[start:min(start+lynxPages, len(refs))]
			page := filepath.Join(tmp, fmt.Sprintf("p%d-%d.html", bi, start))
			got, err := lynxResolve(lynx, page, base, chunk)
			if err != nil {
				return nil, err
			}
			pageURL := "file://" + page // lynx writes a local file's URL without "localhost"
			for i, ref := range chunk {
				compareLynx(s, base, ref, got[i], pageURL)
			}
		}
	}
	return s, nil
}

// isAbsoluteText reports whether s starts with a scheme name and ":".
func isAbsoluteText(s string) bool {
	u, err := urlkit.ParseGeneric(s)
	return err == nil && u.IsAbsolute()
}

// lynxResolve writes a page with <base href=base> and one link per
// reference, runs lynx on it and returns the absolute URL lynx lists for
// each link, in order.
func lynxResolve(lynx, page, base string, refs []string) ([]string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "<html><head><title>t</title><base href=\"%s\"></head><body>\n", html.EscapeString(base))
	for i, r := range refs {
		fmt.Fprintf(&b, "<p><a href=\"%s\">link%d</a></p>\n", html.EscapeString(r), i)
	}
	b.WriteString("</body></html>\n")
	if err := os.WriteFile(page, []byte(b.String()), 0o644); err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, lynx, "-dump", "-listonly", "-force_html", "-nonumbers=off", "-width=4096", "-display_charset=us-ascii", page)
	cmd.Env = append(os.Environ(), "HOME="+filepath.Dir(page), "TERM=dumb")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("conformance: lynx on %s: %w", page, err)
	}
	// Lines "   N. URL" under "References".
	got := make([]string, 0, len(refs))
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		num, rest, ok := strings.Cut(line, ". ")
		if !ok || num == "" || strings.Trim(num, "0123456789") != "" {
			continue
		}
		got = append(got, rest)
	}
	if len(got) != len(refs) {
		return nil, fmt.Errorf("conformance: lynx listed %d links for %d references on %s (base %q)", len(got), len(refs), page, base)
	}
	return got, nil
}

const (
	whyLynxDocRef     = "lynx resolves a reference that is empty or only a fragment against the page's own address, not <base href> (a same-document reference); urlkit is given the base"
	whyLynxDots       = "lynx 2.9's HTSimplify follows RFC 3986 5.2.4: no \".\" or \"..\" stays, not even above the root or after \"//\", and empty segments count; libwww 2.14's HTParse, which ModeLibwww follows, kept such \"..\" (RFC 1808 4 step 6, RFC 2396 C.2, issue 10), and lynx 2.9 also simplifies \"/path\" references, which RFC 2396 C.2 keeps (\"/./g\")"
	whyLynxBadScheme  = "RFC 1630: a colon before any \"/\" makes an absolute form; urlkit reports the invalid scheme name (RFC 1738 5: scheme = 1*[ lowalpha | digit | \"+\" | \"-\" | \".\" ]) as an error with its offset, lynx takes the text as it is"
	whyLynxNotURL     = "the reference or base is not a generic URL (RFC 1738 5, 2.2: unsafe character or invalid escape): urlkit reports it with its offset; lynx resolves it anyway"
	whyLynxDecoded    = "lynx -dump prints a URL with its %XX escapes decoded; urlkit's result, decoded, is lynx's"
	whyLynxPort       = "HTParse drops a scheme's default port and a trailing \".\" of the host (\"http://a:80/\" lists as \"http://a/\"); RFC 1738 keeps a URL as written"
	whyLynxHostQuery  = "lynx 2.9 puts \"?y\" straight after a host with no path (\"http://a\" + \"?y\" = \"http://a?y\"); ModeLibwww makes the empty path \"/\" first, as HTParse's \"no inheritance\" case does for every host-only result"
	whyLynxEmptyFrag  = "lynx drops an empty fragment (\"#\" with nothing after it); RFC 1630: a void fragment-id with or without the hash sign means the whole object, so both name the same thing"
	whyLynxLocalhost  = "the base has no \"//\" (\"http:\", \"x:a/b/c\"); lynx's local-file filler makes it \"scheme://localhost...\"; RFC 1630 and RFC 1738 5: a URL without \"//\" has no host, and urlkit resolves it as written"
	whyLynxSchemeOnly = "lynx reads a reference that is the base's scheme and \":\" alone as the base's directory; ModeLibwww reads it as HTParse does: the empty partial form after the scheme, which is the whole context"
	whyLynxSameHost   = "\"//h\" naming the base's own host keeps the base's path in HTParse (it drops the base's path only for a different host); RFC 1630: a reference starting \"//\" replaces everything after the scheme, so urlkit gives \"//h/\" (a deliberate difference from HTParse, listed in docs/partial-forms.md)"
	whyLynxSearchHack = "HTParse reads a host-only reference's search part (\"//g?y/../x\") as its path: no \"/\" before \"?\", and dot segments inside the search part simplified; RFC 1630 BNF: the search part is not a path (a deliberate difference from HTParse, listed in docs/partial-forms.md)"
)

// compareLynx compares one pair and classes a difference by a predicate
// over both outputs and the input.
func compareLynx(s *Suite, base, ref, ly, pageURL string) {
	in := base + " + " + ref
	u, err := urlkit.ResolveString(base, ref, urlkit.ModeLibwww)
	if urlkit.IsResolveWarning(err) {
		err = nil
	}
	got := u.String()
	if err == nil && got == ly {
		s.agree(in, nil)
		return
	}
	if (ref == "" || ref[0] == '#') && (strings.HasPrefix(ly, pageURL) || strings.HasPrefix(ly, strings.Replace(pageURL, "file://", "file://localhost", 1))) {
		s.different("same-document reference", whyLynxDocRef, in)
		return
	}
	if err != nil {
		var re *urlkit.ResolveError
		switch {
		case errors.As(err, &re) && re.Part == "reference" && errors.Is(err, urlkit.ErrBadScheme) && ly == ref:
			s.different("invalid scheme name", whyLynxBadScheme, in)
		case errors.As(err, &re) && (re.Part == "reference" || re.Part == "base"):
			text := ref
			if re.Part == "base" {
				text = base
			}
			// The rejection is checked by the grammar (reject.go).
			s.Rejected++
			if name, reason, holds, why := rejectKind(text, err, readGeneric); holds {
				s.different("not a generic URL: the "+re.Part+": "+name, whyLynxNotURL+". "+reason, in)
			} else {
				s.wrong(in, "the "+re.Part+": "+why)
			}
		default:
			s.wrong(in, fmt.Sprintf("urlkit error %v, lynx %q", err, ly))
		}
		return
	}
	if dec, derr := url.PathUnescape(got); derr == nil && dec == ly && dec != got {
		s.agree(in, []reasoned{{"escapes decoded by lynx", whyLynxDecoded}})
		return
	}
	if dropDefaultPort(got) == ly {
		s.agree(in, []reasoned{{"default port dropped by HTParse", whyLynxPort}})
		return
	}
	var tr []reasoned
	if strings.HasSuffix(got, "#") && got[:len(got)-1] == ly {
		s.agree(in, []reasoned{{"empty fragment dropped by lynx", whyLynxEmptyFrag}})
		return
	}
	if g := dropDefaultPort(got); g != got {
		tr = append(tr, reasoned{"default port dropped by HTParse", whyLynxPort})
		got = g
	}
	b, _ := urlkit.ParseGeneric(base)
	switch {
	case !b.HasAuthority() && strings.HasPrefix(ly, b.RawScheme()+"://localhost"):
		s.different("no authority: lynx adds //localhost", whyLynxLocalhost, in)
	case isSchemeOnly(ref, b) && strings.HasPrefix(ly, dirOf(base)) && !strings.Contains(ly[len(dirOf(base)):], "/"):
		s.different("scheme-only reference", whyLynxSchemeOnly, in)
	case b.HasAuthority() && isSameHostOnly(ref, b) && strings.HasPrefix(ly, dirOf(base)):
		s.different("\"//host\" with the base's own host", whyLynxSameHost, in)
	case lynxSearchHack(ref, got, ly):
		s.different("host-only reference with a search part", whyLynxSearchHack, in)
	case dotsRemovedLikeLynx(ref, got, ly, b.HasAuthority()):
		s.different("\"..\" removed by lynx 2.9", whyLynxDots, in)
	case len(tr) > 0 && got == ly:
		s.agree(in, tr)
	default:
		s.wrong(in, fmt.Sprintf("urlkit %q, lynx %q", got, ly))
	}
}

// isSchemeOnly reports whether ref is base's scheme and ":" alone, with
// at most a fragment.
func isSchemeOnly(ref string, b urlkit.URL) bool {
	rest, ok := strings.CutPrefix(ref, b.RawScheme()+":")
	return ok && b.IsAbsolute() && (rest == "" || rest[0] == '#')
}

// isSameHostOnly reports whether ref is "//" and base's own login, with
// no path (at most a search part or fragment).
func isSameHostOnly(ref string, b urlkit.URL) bool {
	rest, ok := strings.CutPrefix(ref, "//"+b.Authority())
	return ok && (rest == "" || rest[0] == '?' || rest[0] == '#')
}

// dirOf returns a URL's text up to and including the last "/" before its
// search part or fragment.
func dirOf(s string) string {
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	return s[:strings.LastIndexByte(s, '/')+1]
}

// lynxSearchHack is the class of what HTParse makes of a host-only
// reference with a search part ("//g?y/../x"): it takes the search part
// as the path, so no "/" goes before "?" and dot segments inside the
// search part are simplified. The predicate: ref is "//host?...", urlkit
// gives "//host/?...", lynx "//host?..." with the same search part apart
// from dot segments (lynx's kept segments a subsequence of urlkit's).
func lynxSearchHack(ref, got, ly string) bool {
	if !strings.HasPrefix(ref, "//") || !strings.Contains(ref, "?") || strings.Contains(ref[2:strings.IndexByte(ref, '?')], "/") {
		return false
	}
	i := strings.Index(got, "/?")
	if i < 0 || !strings.HasPrefix(ly, got[:i]+"?") {
		return false
	}
	return subsequence(nonDotSegments(got[i+1:]), nonDotSegments(ly[i:]))
}

// nonDotSegments returns the "/"-separated segments of p that are neither
// empty nor "." nor "..".
func nonDotSegments(p string) []string {
	var out []string
	for _, seg := range strings.Split(p, "/") {
		if seg != "" && seg != "." && seg != ".." {
			out = append(out, seg)
		}
	}
	return out
}

// subsequence reports whether sub is a subsequence of seq.
func subsequence(seq, sub []string) bool {
	j := 0
	for _, seg := range seq {
		if j < len(sub) && sub[j] == seg {
			j++
		}
	}
	return j == len(sub)
}

// splitPath splits a URL's text the generic way (RFC 3986 appendix B)
// into what is before the path, the path, and what follows it.
// With auth false the whole scheme-specific part before "?" or "#" is
// the path (a base without "//" gives no authority to its results).
func splitPath(s string, auth bool) (pre, path, post string) {
	i := 0
	if c := strings.IndexAny(s, ":/?#"); c > 0 && s[c] == ':' {
		i = c + 1
	}
	if auth && strings.HasPrefix(s[i:], "//") {
		i += 2
		if e := strings.IndexAny(s[i:], "/?#"); e >= 0 {
			i += e
		} else {
			i = len(s)
		}
	}
	e := len(s)
	if q := strings.IndexAny(s[i:], "?#"); q >= 0 {
		e = i + q
	}
	return s[:i], s[i:e], s[e:]
}

// dotsRemovedLikeLynx is the class of lynx 2.9's dot removal: the
// reference has a "." or ".." segment; both results agree outside the
// path; lynx's path has no dot segment left; and its non-empty segments
// are urlkit's non-empty, non-dot segments with some removed (the ".."
// that ModeLibwww keeps above the root or after "//" cancel segments in
// lynx, and lynx treats empty segments as segments).
func dotsRemovedLikeLynx(ref, got, ly string, auth bool) bool {
	_, rp, _ := splitPath(ref, true)
	if !hasDotSegment(rp) {
		return false
	}
	gpre, gpath, gpost := splitPath(got, auth)
	lpre, lpath, lpost := splitPath(ly, auth)
	if gpre != lpre || gpost != lpost || hasDotSegment(lpath) {
		return false
	}
	return subsequence(nonDotSegments(gpath), nonDotSegments(lpath))
}

func hasDotSegment(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}

// dropDefaultPort removes ":<default port>" after the host of an absolute
// URL with "//", and a trailing "." of the host name, as HTParse does.
func dropDefaultPort(s string) string {
	u, err := urlkit.ParseGeneric(s)
	if err != nil || !u.HasAuthority() {
		return s
	}
	a := u.Authority()
	i := strings.Index(s, "//"+a) + 2
	host := u.Host()
	port, has := u.RawPort()
	login := a[:len(a)-len(host)-len(port)-boolLen(has)]
	if d := schemes.DefaultPort(u.Scheme()); d != 0 && has && fmt.Sprint(d) == port {
		has = false
	}
	host = strings.TrimSuffix(host, ".")
	na := login + host
	if has {
		na += ":" + port
	}
	return s[:i] + na + s[i+len(a):]
}

func boolLen(b bool) int {
	if b {
		return 1
	}
	return 0
}

// generatedPairs returns n base/reference pairs drawn with a fixed seed:
// bases with single and double slashes, search parts and parameters, and
// references put together from the pieces the partial form gives meaning
// to.
func generatedPairs(n int) [][2]string {
	rnd := rand.New(rand.NewSource(1630))
	bases := []string{
		"http://a/b/c/d;p?q", "http://a/b/c/d/", "http://a", "http://a/", "magic://a/b/c//d/e/f",
		"magic://a/b/c//d/e/", "fred:///s//a/b/c", "ftp://h/x/y//z/w", "gopher://h:70/1/a/b",
		"http://a:8080/b/c", "news:a@b", "x:a/b/c", "http://a/b//c//d",
	}
	pieces := []string{"g", "h", ".", "..", "", "g.", "..g", ".g"}
	seps := []string{"/", "/", "/", "//"}
	tails := []string{"", "", "", "?y", "#s", "?y#s", ";x", "?y/../x", "#s/./x"}
	heads := []string{"", "", "", "/", "//", "./", "../", "//h/"}
	var out [][2]string
	seen := map[[2]string]bool{}
	for len(out) < n {
		var b strings.Builder
		b.WriteString(heads[rnd.Intn(len(heads))])
		for k := rnd.Intn(4); k >= 0; k-- {
			b.WriteString(pieces[rnd.Intn(len(pieces))])
			if k > 0 {
				b.WriteString(seps[rnd.Intn(len(seps))])
			}
		}
		if rnd.Intn(4) == 0 {
			b.WriteByte('/')
		}
		b.WriteString(tails[rnd.Intn(len(tails))])
		p := [2]string{bases[rnd.Intn(len(bases))], b.String()}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

func init() {
	extraSuites = append(extraSuites, Lynx)
}
