package conformance

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/corpus"
)

// lib1560Row is one row of scheme-tests/curl_lib1560_urlapi_cases.jsonl
// from its set_url_list table: curl_url_set(CURLUPART_URL) of "set" on a
// handle holding "in", which resolves a redirect's relative URL.
type lib1560Row struct {
	In       any    `json:"in"`
	Set      any    `json:"set"`
	Out      any    `json:"out"`
	SetFlags string `json:"setflags"`
	UCode    string `json:"ucode"`
	Table    string `json:"table"`
}

const (
	whyCurlEmptyPath = "curl writes an empty path after the host as \"/\" (and makes file://localhost/ file:///); RFC 1738 3.1 lets \"/\" be omitted with an empty url-path, so both name the same resource"
	whyCurlDot2e     = "curl decodes \"%2e\" before removing dot segments (as WHATWG URL does); RFC 1738 2.2 and RFC 3986 5.2.4: an escaped octet is data, so \"%2e\" is not a dot segment; with the escapes decoded, urlkit gives curl's result"
	whyCurlSlashes   = "curl reads \"///host/...\" as \"//host/...\" (it skips extra slashes as browsers do); RFC 3986 4.2: \"///\" starts an empty authority, so urlkit keeps the host empty (with a warning, RFC 1738 3.1 wants one); with the reference written \"//host/...\", urlkit gives curl's result"
	whyCurlBase      = "the base is not an RFC 1738 URL: an IPv6 literal host (\"[::1]\", RFC 2732 came later; RFC 1738 3.1 hosts are names or dotted quads) or curl's %TESTNUMBER test placeholder, an invalid escape (RFC 1738 2.2); urlkit reports the offset"
	whyCurlColon     = "\":23\" is neither an absolute URI (empty scheme name) nor a relative reference: RFC 3986 4.2 allows no colon in the first segment of a relative-path reference (\"./:23\" is the relative form); curl takes it as a path segment"
	whyCurlNotURL    = "the reference has characters RFC 1738 2.2 excludes (space, backslash, an invalid escape such as curl's %TESTNUMBER placeholder); urlkit reports the offset, curl accepts or encodes them (CURLU_URLENCODE, CURLU_ALLOW_SPACE)"
)

// Lib1560Resolve runs the resolution rows of curl's lib1560 (set_url_list)
// in ModeRFC3986: each row's "set" is resolved against its "in".
func Lib1560Resolve(dir string) (*Suite, error) {
	const file = "scheme-tests/curl_lib1560_urlapi_cases.jsonl"
	s := &Suite{
		Name:   "curl lib1560 set_url_list (rfc3986 mode)",
		Source: "the `set_url_list` rows of `" + file + "` (curl's tests/libtest/lib1560.c: a URL set on a handle that already holds one, which curl resolves as a redirect); the other side is the URL curl's test expects.",
		Notes:  "Each row goes to `urlkit.ResolveString(in, set, urlkit.ModeRFC3986)`; a result with a scheme warning counts as the result. Rows where curl reports an error expect an urlkit error.",
	}
	rows, err := corpus.ReadJSONL[lib1560Row](filepath.Join(dir, file))
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	for _, r := range rows {
		if r.Table != "set_url_list" {
			continue
		}
		s.Total++
		base, ok1 := r.In.(string)
		ref, ok2 := r.Set.(string)
		out, ok3 := r.Out.(string)
		in := fmt.Sprintf("%v + %v", r.In, r.Set)
		if !ok1 || !ok2 || !ok3 {
			s.skip("not UTF-8", "the corpus stores a non-UTF-8 input as hex; RFC 1738 2.2 excludes such octets unencoded", in)
			continue
		}
		compareLib1560(s, base, ref, out, r.UCode)
	}
	return s, nil
}

func compareLib1560(s *Suite, base, ref, want, ucode string) {
	in := base + " + " + ref
	u, err := urlkit.ResolveString(base, ref, urlkit.ModeRFC3986)
	if urlkit.IsResolveWarning(err) {
		err = nil
	}
	got := u.String()
	if ucode != "CURLUE_OK" {
		if err != nil {
			s.agree(in, nil)
		} else {
			s.wrong(in, fmt.Sprintf("urlkit %q, curl fails with %s", got, ucode))
		}
		return
	}
	if err != nil {
		var re *urlkit.ResolveError
		var se *urlkit.SyntaxError
		if errors.As(err, &re) && re.Part == "reference" && errors.As(err, &se) && errors.Is(err, urlkit.ErrBadChar) &&
			se.Offset < len(ref) && ref[se.Offset] == ':' && strings.IndexAny(ref[:se.Offset], "/?#") < 0 {
			s.different("colon in the first segment", whyCurlColon, in)
			return
		}
		if errors.As(err, &re) && (re.Part == "reference" || re.Part == "base") && errors.As(err, &se) {
			text, class, why := ref, "not an RFC 1738 reference", whyCurlNotURL
			if re.Part == "base" {
				text, class, why = base, "not an RFC 1738 base", whyCurlBase
			}
			// The rejection is checked by the grammar (reject.go).
			s.Rejected++
			name, reason, holds, bad := rejectKind(text, err, readGeneric)
			if !holds {
				s.wrong(in, "the "+re.Part+": "+bad)
				return
			}
			s.different(class+": "+name, why+". "+reason, in)
			return
		}
		s.wrong(in, fmt.Sprintf("urlkit error %v, curl %q", err, want))
		return
	}
	if got == want {
		s.agree(in, nil)
		return
	}
	if curlForm(got) == want {
		s.agree(in, []reasoned{{"empty path written \"/\"", whyCurlEmptyPath}})
		return
	}
	resolved := func(ref string) string {
		v, err := urlkit.ResolveString(base, ref, urlkit.ModeRFC3986)
		if err != nil && !urlkit.IsResolveWarning(err) {
			return ""
		}
		return curlForm(v.String())
	}
	if low := strings.ToLower(ref); strings.Contains(low, "%2e") {
		if resolved(strings.NewReplacer("%2e", ".", "%2E", ".").Replace(ref)) == want {
			s.different("%2e as a dot", whyCurlDot2e, in)
			return
		}
	}
	if strings.HasPrefix(ref, "///") && resolved("//"+strings.TrimLeft(ref, "/")) == want {
		s.different("\"///host\" read as \"//host\"", whyCurlSlashes, in)
		return
	}
	s.wrong(in, fmt.Sprintf("urlkit %q, curl %q", got, want))
}

// curlForm writes a URL the way curl normalises it: an empty path after
// the authority becomes "/", and file://localhost/ becomes file:///.
func curlForm(s string) string {
	pre, p, post := splitPath(s, true)
	if p == "" && strings.Contains(pre, "//") {
		p = "/"
	}
	out := pre + p + post
	if rest, ok := strings.CutPrefix(out, "file://localhost/"); ok {
		out = "file:///" + rest
	}
	return out
}

func init() {
	extraSuites = append(extraSuites, Lib1560Resolve)
}
