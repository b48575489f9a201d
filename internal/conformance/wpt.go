package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/schemes"
	"github.com/urlkit/urlkit/scheme"
)

// wptCase is one test object of WPT's urltestdata.json.
type wptCase struct {
	Input    string  `json:"input"`
	Base     *string `json:"base"`
	Failure  bool    `json:"failure"`
	Protocol string  `json:"protocol"`
	Username string  `json:"username"`
	Password string  `json:"password"`
	Hostname string  `json:"hostname"`
	Port     string  `json:"port"`
	Pathname string  `json:"pathname"`
	Search   string  `json:"search"`
	Hash     string  `json:"hash"`
}

// whatwgSpecial holds the WHATWG URL Standard's special schemes and their
// default ports ("file" has none).
var whatwgSpecial = map[string]string{"http": "80", "https": "443", "ftp": "21", "ws": "80", "wss": "443", "file": ""}

// WPT runs urlkit.Parse over a file in WPT's urltestdata.json format (rel
// is relative to the corpora folder dir) and compares every ASCII absolute
// URL that urlkit accepts with the WHATWG expectation.
func WPT(dir, rel string) (*Suite, error) {
	cases, err := readWPT(dir, rel)
	if err != nil {
		return nil, err
	}
	s := &Suite{
		Name:   "WHATWG URL (WPT " + filepath.Base(rel) + ")",
		Source: "`wpt-url/" + filepath.Base(rel) + "` (web-platform-tests URL parsing expectations, as kept by ada-url/ada); the other side is the WHATWG URL Standard.",
		Notes: "Considered: ASCII inputs that `urlkit.Parse` accepts as absolute URLs, where the base cannot matter. " +
			"urlkit's components are presented the WHATWG way (`protocol` with \":\", `pathname` with its leading \"/\", `search`/`hash` with \"?\"/\"#\" and empty when empty) and compared field by field; " +
			"if they differ, the translations below are applied in turn and the case counts as agreed when they then match. " +
			"WHATWG `failure` cases that urlkit accepts are counted as deliberately different when a class explains them, and as wrong otherwise.",
	}
	for _, c := range cases {
		s.Total++
		runWPTCase(s, c)
	}
	return s, nil
}

// readWPT reads the test objects of a file in urltestdata.json's format,
// leaving out its comment strings.
func readWPT(dir, rel string) ([]wptCase, error) {
	data, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("conformance: %s: %w", rel, err)
	}
	var cases []wptCase
	for _, r := range raw {
		var c wptCase
		if json.Unmarshal(r, &c) == nil {
			cases = append(cases, c)
		}
	}
	return cases, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func runWPTCase(s *Suite, c wptCase) {
	in := c.Input
	if !isASCII(in) {
		s.skip("non-ASCII input", "RFC 1738 2.2 and RFC 1630: URLs are written in (a subset of) ASCII; non-ASCII input is not a URL, so there is nothing to compare", in)
		return
	}
	u, err := urlkit.Parse(in)
	if err != nil {
		if c.Failure {
			s.skip("rejected by both", "urlkit.Parse rejects the input (RFC 1738 5 grammar) and WHATWG fails too", in)
		} else {
			s.skip("rejected by urlkit only", "urlkit.Parse rejects the input: relative forms, whitespace and control characters to strip, backslashes, unencoded unsafe characters, IPv6 and other hosts outside RFC 1738 3.1. WHATWG repairs or resolves them", in)
		}
		return
	}
	sch := u.Scheme()
	if c.Failure && c.Base != nil {
		if _, err := urlkit.ParseRef(*c.Base); err != nil {
			s.skip("base invalid", "WHATWG fails because the base fails to parse (the test harness parses the base first); the input itself is not in question", in)
			return
		}
	}
	if !chars.Is(sch[0], chars.Alpha) {
		s.different("scheme starts with a digit", "RFC 1738 2.1 and 5 (scheme = 1*[ lowalpha | digit | \"+\" | \"-\" | \".\" ]) allow a scheme to start with a digit, so \"10.0.0.7:8080/foo.html\" is an absolute URL with scheme \"10.0.0.7\"; WHATWG (like RFC 3986 3.1) requires a letter first and resolves it as a relative reference", in)
		return
	}
	if c.Base != nil && !u.HasAuthority() {
		if _, special := whatwgSpecial[sch]; special {
			if b, err := urlkit.Parse(*c.Base); err == nil && b.Scheme() == sch {
				s.skip("base matters", "a special-scheme URL without \"//\" and a base of the same scheme: WHATWG resolves it against the base", in)
				return
			}
		}
	}
	if c.Failure {
		if _, err := scheme.ViewOf(u); err != nil {
			s.agree(in, []reasoned{{"rejected by the scheme layer", "urlkit.Parse checks RFC 1738 5's generic grammar only; the scheme layer (scheme.ViewOf) rejects the URL by its scheme's own grammar, as WHATWG does (e.g. RFC 1738 3.10: a file URL has no port)"}})
			return
		}
		if name, reason, ok := wptFailureClass(u); ok {
			s.different(name, reason, in)
		} else {
			s.wrong(in, "urlkit accepts; WHATWG rejects and no class explains it")
		}
		return
	}
	got := present(u)
	want := wptFields{c.Protocol, c.Username, c.Password, c.Hostname, c.Port, c.Pathname, c.Search, c.Hash}
	if got == want {
		s.agree(in, nil)
		return
	}
	var used []reasoned
	for _, t := range wptTranslations {
		next := t.apply(got, u)
		if next != got {
			got = next
			used = append(used, reasoned{t.name, t.reason})
			if got == want {
				s.agree(in, used)
				return
			}
		}
	}
	// Compare both sides decoded: WHATWG percent-encodes characters that
	// RFC 1738 2.2 lets stand or allows encoded with the same meaning.
	if decodeFields(got) == decodeFields(want) {
		used = append(used, reasoned{"percent-encoding", "WHATWG percent-encodes characters (e.g. \"'\" in a special scheme's query) that urlkit keeps as written; RFC 1738 2.2: characters that need no encoding may be encoded without changing the meaning, so fields are compared decoded"})
		s.agree(in, used)
		return
	}
	if name, reason, ok := wptDifferentClass(u, want); ok {
		s.different(name, reason, in)
		return
	}
	s.wrong(in, fmt.Sprintf("urlkit %s, WHATWG %s", got, want))
}

// wptFields is a URL as WHATWG's URL API presents it.
type wptFields struct {
	Protocol, Username, Password, Hostname, Port, Pathname, Search, Hash string
}

func (f wptFields) String() string {
	return fmt.Sprintf("{protocol %q user %q pass %q host %q port %q pathname %q search %q hash %q}",
		f.Protocol, f.Username, f.Password, f.Hostname, f.Port, f.Pathname, f.Search, f.Hash)
}

// present gives urlkit's components as WHATWG presents them, without any
// change of meaning.
func present(u urlkit.URL) wptFields {
	f := wptFields{Protocol: u.Scheme() + ":"}
	if u.HasAuthority() {
		f.Username, _ = u.User()
		f.Password, _ = u.Password()
		f.Hostname = u.Host()
		f.Port, _ = u.RawPort()
		f.Pathname = u.PathWithSlash()
	} else {
		f.Pathname, _ = u.Path()
	}
	if q, _ := u.Search(); q != "" {
		f.Search = "?" + q
	}
	if h, _ := u.Fragment(); h != "" {
		f.Hash = "#" + h
	}
	return f
}

type translation struct {
	name, reason string
	apply        func(f wptFields, u urlkit.URL) wptFields
}

var wptTranslations = []translation{
	{"host case", "WHATWG lower-cases host names; host names are case-insensitive (RFC 1738 3.1 defers to the domain name system, RFC 1034 3.1)",
		func(f wptFields, _ urlkit.URL) wptFields { f.Hostname = strings.ToLower(f.Hostname); return f }},
	{"port as number", "WHATWG stores the port as a number (\"0080\" becomes \"80\"); RFC 1738 3.1: the port is a decimal number",
		func(f wptFields, _ urlkit.URL) wptFields {
			if f.Port != "" {
				if t := strings.TrimLeft(f.Port, "0"); t == "" {
					f.Port = "0"
				} else {
					f.Port = t
				}
			}
			return f
		}},
	{"default port", "WHATWG drops a special scheme's default port; RFC 1738 3.1: an omitted port means the scheme's default, so both denote the same server",
		func(f wptFields, u urlkit.URL) wptFields {
			sch := u.Scheme()
			if d, ok := whatwgSpecial[sch]; ok && d != "" && f.Port == d {
				f.Port = ""
			}
			return f
		}},
	{"empty path is \"/\"", "WHATWG gives a special scheme's URL without a path the path \"/\"; RFC 1738 3.3: when neither path nor search is present the \"/\" may be omitted, with the same meaning",
		func(f wptFields, u urlkit.URL) wptFields {
			sch := u.Scheme()
			if _, ok := whatwgSpecial[sch]; ok && f.Pathname == "" {
				f.Pathname = "/"
			}
			return f
		}},
	{"file localhost", "WHATWG turns file://localhost/ into file:///; RFC 1738 3.10: \"localhost\" and the empty host both mean the machine interpreting the URL",
		func(f wptFields, u urlkit.URL) wptFields {
			sch := u.Scheme()
			if sch == "file" && strings.EqualFold(f.Hostname, "localhost") {
				f.Hostname = ""
			}
			return f
		}},
	{"dot segments", "WHATWG removes \".\" and \"..\" segments (also written %2e) from the path of a URL with a host; urlkit keeps an absolute URL's path as written, and gives \".\" and \"..\" their meaning only when resolving partial forms (RFC 1630, \"Partial form\"). Compared after removing them from urlkit's path",
		func(f wptFields, u urlkit.URL) wptFields {
			sch := u.Scheme()
			if u.HasAuthority() && sch != "" && strings.HasPrefix(f.Pathname, "/") {
				f.Pathname = removeDotSegments(f.Pathname, true)
			}
			return f
		}},
}

// removeDotSegments removes "." and ".." segments from an absolute path the
// way the WHATWG URL Standard's path state does: "." and ".." (also
// percent-encoded) are dropped, ".." removes the previous segment, and a
// final "." or ".." leaves an empty last segment.
func removeDotSegments(p string, encodedDots bool) string {
	segs := strings.Split(p[1:], "/")
	var out []string
	for i, seg := range segs {
		last := i == len(segs)-1
		switch dotKind(seg, encodedDots) {
		case 1:
			if last {
				out = append(out, "")
			}
		case 2:
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, seg)
		}
	}
	return "/" + strings.Join(out, "/")
}

func dotKind(seg string, encoded bool) int {
	if encoded {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "%2e", "."), "%2E", ".")
	}
	switch seg {
	case ".":
		return 1
	case "..":
		return 2
	}
	return 0
}

func decodeFields(f wptFields) wptFields {
	d := func(s string) string {
		if v, err := urlkit.Unescape(s); err == nil {
			return v
		}
		return s
	}
	return wptFields{f.Protocol, d(f.Username), d(f.Password), d(f.Hostname), f.Port, d(f.Pathname), d(f.Search), d(f.Hash)}
}

const (
	reasonOpaqueScheme  = "urlkit knows this scheme as opaque (mailto RFC 1738 3.5, urn/mid/cid): its scheme-specific part is never a \"//\" login, so urlkit has no host; the other parser (WHATWG for non-special schemes, urlsplit for every scheme) reads \"//host\""
	reasonLoginFallback = "a scheme urlkit does not know: RFC 1738 2.1 leaves the scheme-specific part to the scheme, and urlkit reads \"//\" as a login only when it is a valid RFC 1738 3.1 login (host a hostname or hostnumber, port digits); otherwise the whole part is opaque. The other parser reads a host (possibly empty) whatever it is, or fails (WHATWG)"
	reasonWebSocket     = "ws and wss are WHATWG special schemes (RFC 6455, 2011) that WHATWG forces into host form; to RFC 1738 2.1 they are unknown schemes and a part without \"//\" is opaque"
)

// wptFailureClass explains why urlkit accepts an input WHATWG rejects.
func wptFailureClass(u urlkit.URL) (name, reason string, ok bool) {
	if !u.HasAuthority() && strings.HasPrefix(u.Opaque(), "//") {
		if info, ok := schemes.Lookup(u.Scheme()); ok && info.Syntax == schemes.Opaque {
			return "opaque scheme with //", reasonOpaqueScheme, true
		}
		return "\"//\" not a login", reasonLoginFallback, true
	}
	if p, ok := u.RawPort(); ok && u.HasAuthority() {
		if n, err := strconv.ParseUint(p, 10, 64); err != nil || n > 65535 {
			return "port above 65535", "RFC 1738 3.1: port is 1*digit with no upper bound (the bound is TCP's, not the URL syntax's); WHATWG fails on ports above 65535", true
		}
	}
	if u.HasAuthority() && isHostnumber(u.Host()) {
		return "hostnumber out of IPv4 range", "RFC 1738 3.1: hostnumber = digits \".\" digits \".\" digits \".\" digits, with no range or leading-zero rule; WHATWG reads IPv4 numbers (leading 0 as octal, each part at most 255) and fails on the rest", true
	}
	return "", "", false
}

// wptDifferentClass explains a component mismatch the translations do not.
func wptDifferentClass(u urlkit.URL, want wptFields) (name, reason string, ok bool) {
	sch := u.Scheme()
	if !u.HasAuthority() {
		if sch == "ws" || sch == "wss" {
			return "ws/wss without \"//\"", reasonWebSocket, true
		}
		if strings.HasPrefix(u.Opaque(), "//") {
			if info, ok := schemes.Lookup(sch); ok && info.Syntax == schemes.Opaque {
				return "opaque scheme with //", reasonOpaqueScheme, true
			}
			return "\"//\" not a login", reasonLoginFallback, true
		}
		if strings.HasPrefix(u.Opaque(), "/") && want.Pathname != "" {
			if p, _ := u.Path(); removeDotSegments(p, true) == want.Pathname {
				return "dot segments in an opaque part", "WHATWG removes dot segments from any path that starts with \"/\", even in a scheme it knows nothing about; RFC 1738 2.1 leaves an unknown scheme's part uninterpreted", true
			}
		}
	}
	if u.HasAuthority() && isHostnumber(u.Host()) && want.Hostname != strings.ToLower(u.Host()) {
		return "hostnumber rewritten", "RFC 1738 3.1: hostnumber = digits \".\" digits \".\" digits \".\" digits, kept as written; WHATWG rewrites IPv4 numbers to dotted decimal (leading zeros removed, octal read)", true
	}
	return "", "", false
}

func isHostnumber(h string) bool {
	parts := strings.Split(h, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}
