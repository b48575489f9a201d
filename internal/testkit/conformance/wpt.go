package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/schemes"
	"github.com/urlkit/urlkit/internal/testkit/rfcbnf/urlcheck"
	"github.com/urlkit/urlkit/scheme"
)

// wptCase is one test object of WPT's urltestdata.json.
type wptCase struct {
	Input    string  `json:"input"`
	Base     *string `json:"base"`
	Href     string  `json:"href"`
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
		Notes: "Considered: every ASCII input, where the base cannot matter. Both outcomes are taken first: `urlkit.Parse` of the input, and WHATWG's href (or its failure). " +
			"A case is agreed when urlkit.Equal finds WHATWG's href equivalent to the input (exactly: the same text), or when both reject; the translations listed say how the two presentations differ in form. " +
			"When they are not equivalent, the components (presence of password, query and fragment kept) are compared after the listed rewrites; a case whose difference is exactly those rewrites is deliberately different, named after them. " +
			"Rejections are classed by urlkit's error kind, the kind's reason checked on the input; every host urlkit accepts is checked against RFC 1738 5's hostname | hostnumber, written out independently.",
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
	raw, err := readJSONArray(dir, rel)
	if err != nil {
		return nil, err
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

// readJSONArray reads a corpus file holding one JSON array (WPT's format:
// test objects and comment strings) and returns its elements.
func readJSONArray(dir, rel string) ([]json.RawMessage, error) {
	data, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("conformance: %s: %w", rel, err)
	}
	return raw, nil
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
		// Each rejection is classed by its kind, and the kind's reason is
		// checked on the input (reject.go).
		if c.Failure {
			classReject(s, "both reject; urlkit: ", in, err, true)
		} else {
			classReject(s, "urlkit rejects, WHATWG repairs or resolves: ", in, err, false)
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
	if !rfc1738Host(u) {
		s.wrong(in, fmt.Sprintf("urlkit accepts the host %q, which RFC 1738 5 (hostname | hostnumber) forbids", u.Host()))
		return
	}
	if c.Failure {
		if _, err := scheme.ViewOf(u); err != nil {
			// The scheme layer's rejection is checked by the scheme's own
			// rule of RFC 1738 5 (httpurl, fileurl...).
			s.Rejected++
			name, reason, holds, why := rejectKind(in, err, urlcheck.ReadScheme)
			if !holds {
				s.wrong(in, "the scheme layer: "+why+fmt.Sprintf(" (%v)", err))
				return
			}
			s.agree(in, []reasoned{{"rejected by the scheme layer: " + name, "urlkit.Parse checks RFC 1738 5's generic grammar only; the scheme layer (scheme.ViewOf) rejects the URL by its scheme's own rule, as WHATWG does. " + reason}})
			return
		}
		if name, reason, ok := wptFailureClass(u); ok {
			s.different(name, reason, in)
		} else {
			s.wrong(in, "urlkit accepts; WHATWG rejects and no class explains it")
		}
		return
	}
	// Compare first: agreed means urlkit.Equal finds WHATWG's href
	// equivalent to the input (exactly: the same text).
	hu, herr := urlkit.Parse(c.Href)
	equal := herr == nil && urlkit.Equal(u, hu)
	got := present(u)
	want := wptFields{Protocol: c.Protocol, Username: c.Username, Password: c.Password, Hostname: c.Hostname, Port: c.Port, Pathname: c.Pathname, Search: c.Search, Hash: c.Hash}
	want.HasPassword = c.Password != ""
	want.HasSearch = c.Search != "" || hrefHas(c.Href, '?')
	want.HasHash = c.Hash != "" || hrefHas(c.Href, '#')
	if equal && u.String() == c.Href {
		s.agree(in, nil)
		return
	}
	// Then explain: the translations say how the two presentations differ.
	var used []reasoned
	for _, t := range wptTranslations {
		if got == want {
			break
		}
		next := t.apply(got, u)
		if next != got {
			got = next
			used = append(used, reasoned{t.name, t.reason})
		}
	}
	if got != want && decodeFields(got) == decodeFields(want) {
		got = decodeFields(got)
		used = append(used, reasoned{"percent-encoding", "WHATWG percent-encodes characters (e.g. \"'\" in a special scheme's query) that urlkit keeps as written; RFC 1738 2.2: a character that needs no encoding may be encoded without changing the meaning (urlkit.Equal decodes such characters, never \"/\", \"?\" or \"%\")"})
	}
	if equal {
		if got != want {
			used = append(used, reasoned{"equivalent by urlkit.Equal", "urlkit.Equal finds WHATWG's href equivalent to the input (RFC 1630 equivalence, RFC 1738 3.1 default ports and host case)"})
		}
		s.agree(in, used)
		return
	}
	if got == want && len(used) > 0 {
		// The presentations match only through a translation that changes
		// the URL by urlkit.Equal: a deliberate difference, named by the
		// translations used.
		names := make([]string, len(used))
		reasons := make([]string, len(used))
		for i, r := range used {
			names[i], reasons[i] = r.name, r.name+": "+r.reason
		}
		s.different("WHATWG rewrites: "+strings.Join(names, " + "), strings.Join(reasons, "; ")+". urlkit.Equal finds WHATWG's href a different URL", in)
		return
	}
	if name, reason, ok := wptDifferentClass(u, want); ok {
		s.different(name, reason, in)
		return
	}
	s.wrong(in, fmt.Sprintf("urlkit %s, WHATWG %s (href %q)", got, want, c.Href))
}

// hrefHas reports whether a WHATWG href has an (empty or not) query ('?')
// or fragment ('#').
func hrefHas(href string, delim byte) bool {
	if delim == '?' {
		if i := strings.IndexByte(href, '#'); i >= 0 {
			href = href[:i]
		}
	}
	return strings.IndexByte(href, delim) >= 0
}

// hostname and hostnumber of RFC 1738 section 5, written out here from the
// BNF so that the suites check urlkit's parser against the RFC rather than
// against itself.
var rfc1738HostRE = regexp.MustCompile(`^(?:(?:(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])\.)*(?:[A-Za-z]|[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9])|[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+)$`)

// rfc1738Host reports whether u's host, if it has a non-empty one, matches
// RFC 1738 5's host = hostname | hostnumber and its port 1*digit.
func rfc1738Host(u urlkit.URL) bool {
	if !u.HasAuthority() {
		return true
	}
	if p, ok := u.RawPort(); ok && (p == "" || strings.Trim(p, "0123456789") != "") {
		return false
	}
	h := u.Host()
	return h == "" || rfc1738HostRE.MatchString(h)
}

// wptFields is a URL as WHATWG's URL API presents it.
// Presence is kept apart from the value: an empty password, query or
// fragment is not an absent one (RFC 1738 3.1, 3.3 and RFC 1630 keep the
// delimiter, and urlkit.Equal tells them apart).
type wptFields struct {
	Protocol, Username, Password, Hostname, Port, Pathname, Search, Hash string
	HasPassword, HasSearch, HasHash                                      bool
}

func (f wptFields) String() string {
	return fmt.Sprintf("{protocol %q user %q pass %q(%v) host %q port %q pathname %q search %q(%v) hash %q(%v)}",
		f.Protocol, f.Username, f.Password, f.HasPassword, f.Hostname, f.Port, f.Pathname, f.Search, f.HasSearch, f.Hash, f.HasHash)
}

// present gives urlkit's components as WHATWG presents them, without any
// change of meaning.
func present(u urlkit.URL) wptFields {
	f := wptFields{Protocol: u.Scheme() + ":"}
	if u.HasAuthority() {
		f.Username, _ = u.User()
		f.Password, f.HasPassword = u.Password()
		f.Hostname = u.Host()
		f.Port, _ = u.RawPort()
		f.Pathname = u.PathWithSlash()
	} else {
		f.Pathname, _ = u.Path()
	}
	var q, h string
	q, f.HasSearch = u.Search()
	if q != "" {
		f.Search = "?" + q
	}
	h, f.HasHash = u.Fragment()
	if h != "" {
		f.Hash = "#" + h
	}
	return f
}

type translation struct {
	name, reason string
	apply        func(f wptFields, u urlkit.URL) wptFields
}

var wptTranslations = []translation{
	{"empty password dropped", "WHATWG drops an empty password with its \":\" (\"https://test:@test\" becomes \"https://test@test/\"); RFC 1738 3.1 keeps \":\" with an empty password as written, a different login from none (an empty password is sent as such)",
		func(f wptFields, _ urlkit.URL) wptFields {
			if f.HasPassword && f.Password == "" {
				f.HasPassword = false
			}
			return f
		}},
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

// decodeFields decodes the escapes of characters that need no encoding,
// as urlkit.Equal does (RFC 1630: one level of encoding); escapes of
// reserved characters, "%" and controls stay, since decoding them would
// change a component's meaning ("%2F" is not a "/").
func decodeFields(f wptFields) wptFields {
	d := func(s string) string {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if s[i] == '%' && i+2 < len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil && decodable(byte(v)) {
					b.WriteByte(byte(v))
					i += 2
					continue
				}
			}
			b.WriteByte(s[i])
		}
		return b.String()
	}
	f.Username, f.Password, f.Hostname, f.Pathname, f.Search, f.Hash = d(f.Username), d(f.Password), d(f.Hostname), d(f.Pathname), d(f.Search), d(f.Hash)
	return f
}

// decodable: a byte whose escape and literal form mean the same (RFC 1738
// 2.2): a graphic ASCII character that is neither reserved nor "%" nor
// unsafe.
func decodable(c byte) bool {
	return c > 0x20 && c < 0x7f && !strings.ContainsRune(";/?:@=&%#<>\"{}|\\^~[]`", rune(c))
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
	if p, ok := u.RawPort(); ok && u.HasAuthority() && p != "" && strings.Trim(p, "0123456789") == "" {
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
