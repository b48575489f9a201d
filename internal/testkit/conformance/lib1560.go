package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/schemes"
	"github.com/urlkit/urlkit/internal/testkit/corpus"
)

// curlRow is one row of curl's lib1560 URL API tables, as extracted into
// curl_lib1560_urlapi_cases.jsonl.
type curlRow struct {
	In       json.RawMessage `json:"in"`
	Out      json.RawMessage `json:"out"`
	URLFlags string          `json:"urlflags"`
	GetFlags string          `json:"getflags"`
	UCode    string          `json:"ucode"`
	Table    string          `json:"table"`
}

var rfcSchemeRE = regexp.MustCompile(`^[a-z0-9+.-]+$`)

// curlSchemes are the schemes curl's URL parser knows (and so accepts
// without CURLU_NON_SUPPORT_SCHEME), from curl's scheme table.
var curlSchemes = map[string]bool{"dict": true, "file": true, "ftp": true, "ftps": true, "gopher": true, "gophers": true,
	"http": true, "https": true, "imap": true, "imaps": true, "ldap": true, "ldaps": true, "mqtt": true, "pop3": true,
	"pop3s": true, "rtmp": true, "rtsp": true, "scp": true, "sftp": true, "smb": true, "smbs": true, "smtp": true,
	"smtps": true, "telnet": true, "tftp": true, "ws": true, "wss": true}

// Lib1560 compares urlkit.Parse with curl's URL API on the parse rows of
// lib1560 (get_parts_list and get_url_list). The resolution rows
// (set_url_list) and the setter rows belong to other suites.
func Lib1560(dir string) (*Suite, error) {
	const rel = "scheme-tests/curl_lib1560_urlapi_cases.jsonl"
	s := &Suite{
		Name:   "curl URL API (lib1560 parse rows)",
		Source: "`" + rel + "`, rows of the tables get_parts_list and get_url_list (curl's tests/libtest/lib1560.c); the other side is curl's URL API (curl_url_set with CURLUPART_URL, then curl_url_get).",
		Notes: "Both outcomes are taken first: curl's (its expected result or CURLUcode) and urlkit.Parse's. When both accept, get_url rows agree when urlkit.Equal finds curl's normalised URL equivalent to the input, and get_parts rows agree when each part curl reports equals urlkit's (curl's path with its leading \"/\", \"[n]\" for a missing part). " +
			"Rejections are classed by urlkit's error kind with the kind's reason checked on the input; acceptances curl refuses are classed by curl's error code with a predicate on the input.",
	}
	rows, err := corpus.ReadJSONL[curlRow](filepath.Join(dir, rel))
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	for _, r := range rows {
		if r.Table != "get_parts_list" && r.Table != "get_url_list" {
			continue
		}
		s.Total++
		var in, out string
		if json.Unmarshal(r.In, &in) != nil || json.Unmarshal(r.Out, &out) != nil {
			s.skip("non-UTF-8 bytes", "the row's input or output is not UTF-8 text (stored as hex); RFC 1738 2.2 requires such octets encoded, so there is no URL to compare", string(r.In))
			continue
		}
		if hasFlag(r.GetFlags, "CURLU_PUNYCODE") || hasFlag(r.GetFlags, "CURLU_PUNY2IDN") {
			s.skip("IDN conversion asked", "the row asks curl to convert between punycode and international domain names (CURLU_PUNYCODE, CURLU_PUNY2IDN); RFC 1738 3.1 hosts are ASCII and urlkit has no such conversion", in)
			continue
		}
		compareCurl(s, r, in, out)
	}
	return s, nil
}

func hasFlag(flags, f string) bool {
	for _, x := range strings.Split(flags, "|") {
		if x == f {
			return true
		}
	}
	return false
}

func compareCurl(s *Suite, r curlRow, in, out string) {
	tag := r.Table + ": " + in
	u, err := urlkit.Parse(in)
	curlOK := r.UCode == "CURLUE_OK"
	switch {
	case err != nil && !curlOK:
		classReject(s, "both reject; urlkit: ", in, err, true)
		return
	case err != nil:
		if hasFlag(r.URLFlags, "CURLU_GUESS_SCHEME") || hasFlag(r.URLFlags, "CURLU_DEFAULT_SCHEME") {
			if _, _, holds, _ := rejectKind(in, err, readParse); holds && errors.Is(err, urlkit.ErrMissingScheme) {
				s.different("no scheme; curl guesses one", "RFC 1738 2.1: a URL starts with its scheme; the input has none, and only curl's CURLU_GUESS_SCHEME/CURLU_DEFAULT_SCHEME flag makes curl supply one", tag)
				return
			}
		}
		classReject(s, "urlkit rejects, curl accepts: ", in, err, false)
		return
	case !rfc1738Host(u):
		s.wrong(tag, fmt.Sprintf("urlkit accepts the host %q, which RFC 1738 5 (hostname | hostnumber) forbids", u.Host()))
		return
	case !curlOK:
		if name, reason, ok := curlRejectClass(r, u); ok {
			s.different(name, reason, tag)
		} else {
			s.wrong(tag, fmt.Sprintf("urlkit accepts; curl %s and no class explains it", r.UCode))
		}
		return
	}
	if r.Table == "get_url_list" {
		cu, cerr := urlkit.Parse(out)
		if cerr == nil && urlkit.Equal(u, cu) {
			if out == in {
				s.agree(tag, nil)
			} else {
				s.agree(tag, []reasoned{{"equivalent by urlkit.Equal", "curl's normalised URL differs in text but urlkit.Equal finds it equivalent (RFC 1630 equivalence; RFC 1738 3.1 host case, default port, empty path)"}})
			}
			return
		}
		if name, reason, ok := curlURLClass(u, out); ok {
			s.different(name, reason, tag)
			return
		}
		s.wrong(tag, fmt.Sprintf("curl %q, not equivalent by urlkit.Equal", out))
		return
	}
	got := curlParts(u, r.GetFlags)
	want := strings.Split(out, " | ")
	if len(want) != 9 {
		s.skip("malformed row", "the expected parts do not split into nine fields", tag)
		return
	}
	if strings.Join(got, " | ") == out {
		s.agree(tag, nil)
		return
	}
	if name, reason, ok := curlPartsClass(u, got, want); ok {
		s.different(name, reason, tag)
		return
	}
	s.wrong(tag, fmt.Sprintf("urlkit %q, curl %q", strings.Join(got, " | "), out))
}

// curlParts presents urlkit's components as lib1560 prints them.
func curlParts(u urlkit.URL, getFlags string) []string {
	missing := func(n int) string { return "[" + strconv.Itoa(n) + "]" }
	p := []string{strings.ToLower(u.Scheme()), missing(11), missing(12), missing(13), missing(14), missing(15), "", missing(16), missing(17)}
	if u.HasAuthority() {
		if v, ok := u.User(); ok {
			p[1] = v
		}
		if v, ok := u.Password(); ok {
			p[2] = v
		}
		if h := u.Host(); h != "" {
			p[4] = h
		}
		if v, ok := u.RawPort(); ok {
			p[5] = v
		} else if hasFlag(getFlags, "CURLU_DEFAULT_PORT") {
			if n, _ := u.Port(); n > 0 {
				p[5] = strconv.Itoa(n) // the scheme's default (RFC 1738 3)
			}
		}
		// curl presents an empty path as "/" (RFC 1738 3.3: with neither
		// path nor search the "/" may be omitted, same meaning).
		if p[6] = u.PathWithSlash(); p[6] == "" {
			p[6] = "/"
		}
	} else {
		p[6], _ = u.Path()
	}
	if v, ok := u.Search(); ok && (v != "" || hasFlag(getFlags, "CURLU_GET_EMPTY")) {
		p[7] = v
	}
	if v, ok := u.Fragment(); ok && (v != "" || hasFlag(getFlags, "CURLU_GET_EMPTY")) {
		p[8] = v
	}
	if hasFlag(getFlags, "CURLU_URLDECODE") {
		for _, i := range []int{1, 2, 6, 7, 8} {
			if v, err := urlkit.Unescape(p[i]); err == nil {
				p[i] = v
			}
		}
	}
	return p
}

// curlRejectClass explains an input urlkit accepts and curl rejects.
func curlRejectClass(r curlRow, u urlkit.URL) (name, reason string, ok bool) {
	sch := strings.ToLower(u.Scheme())
	switch r.UCode {
	case "CURLUE_UNSUPPORTED_SCHEME":
		if !curlSchemes[sch] && !hasFlag(r.URLFlags, "CURLU_NON_SUPPORT_SCHEME") {
			return "scheme curl does not support", "RFC 1738 2.1: a URL may have any scheme, its scheme-specific part left to the scheme; curl's parser refuses schemes it has no protocol for unless CURLU_NON_SUPPORT_SCHEME is set", true
		}
	case "CURLUE_BAD_PORT_NUMBER":
		if p, has := u.RawPort(); has && p != "" && strings.Trim(p, "0123456789") == "" {
			if n, err := strconv.ParseUint(p, 10, 64); err != nil || n > 65535 {
				return "port above 65535", "RFC 1738 3.1: port = 1*digit, with no upper bound in the syntax; curl refuses ports above 65535", true
			}
		}
	case "CURLUE_BAD_FILE_URL":
		if sch == "file" && u.HasAuthority() && u.Host() != "" && !strings.EqualFold(u.Host(), "localhost") {
			return "file URL with a remote host", "RFC 1738 3.10: file://<host>/<path> names a file on <host>, any host; curl accepts only an empty host or localhost", true
		}
	case "CURLUE_USER_NOT_ALLOWED":
		if _, has := u.User(); has && hasFlag(r.URLFlags, "CURLU_DISALLOW_USER") {
			return "user refused by a curl option", "RFC 1738 3.1 allows a user in the login; the row sets curl's CURLU_DISALLOW_USER, which refuses it", true
		}
	case "CURLUE_BAD_SCHEME":
		if rfcSchemeRE.MatchString(sch) && (!chars.Is(sch[0], chars.Alpha) || len(sch) > 40) {
			return "scheme curl's length or first-letter rule refuses", "RFC 1738 2.1 and 5: scheme = 1*[ lowalpha | digit | \"+\" | \"-\" | \".\" ], any first character and any length; curl (like RFC 3986 3.1) wants a letter first and at most 40 characters", true
		}
	case "CURLUE_NO_HOST":
		if !u.HasAuthority() && strings.HasPrefix(u.Opaque(), "//") {
			if _, known := schemes.Lookup(sch); !known {
				return "\"//\" not a login", reasonLoginFallback, true
			}
		}
	case "CURLUE_BAD_HOSTNAME":
		if u.HasAuthority() && isHostnumber(u.Host()) {
			return "hostnumber out of IPv4 range", "RFC 1738 3.1: hostnumber = digits \".\" digits \".\" digits \".\" digits, with no range rule; curl refuses a part above 255", true
		}
	}
	return "", "", false
}

// curlURLClass explains a get_url row where curl's normalised URL is not
// equivalent to urlkit's reading of the input.
func curlURLClass(u urlkit.URL, out string) (name, reason string, ok bool) {
	if cu, err := urlkit.Parse(out); err == nil && !strings.EqualFold(cu.Scheme(), u.Scheme()) {
		return "scheme read where curl guesses one", whyCurlGuess, true
	}
	if _, known := schemes.Lookup(u.Scheme()); !known {
		if i := strings.IndexByte(out, '?'); i > 0 && out[i-1] == '/' && out[:i-1]+out[i:] == u.String() {
			return "curl inserts \"/\" before the query", "RFC 1738 2.1 leaves an unknown scheme's part as written, so urlkit keeps \"//host?q\"; curl's normalisation inserts a \"/\" path, which for a scheme urlkit does not know may change the meaning", true
		}
	}
	if u.HasAuthority() && strings.HasPrefix(u.PathWithSlash(), "") {
		p := "/" + u.PathWithSlash()
		if d := removeDotSegments(p, true); d != p {
			if cu, err := urlkit.Parse(out); err == nil && cu.HasAuthority() && "/"+cu.PathWithSlash() == d {
				return "dot segments removed by curl", "curl removes \".\" and \"..\" segments from the path (RFC 3986 5.2.4); urlkit keeps an absolute URL's path as written and gives them meaning only in partial forms (RFC 1630)", true
			}
		}
		if isHostnumber(u.Host()) {
			if cu, err := urlkit.Parse(out); err == nil && cu.Host() != u.Host() && isHostnumber(cu.Host()) {
				return "hostnumber rewritten", "RFC 1738 3.1: a hostnumber is kept as written; curl rewrites IPv4 numbers (leading zeros, octal)", true
			}
		}
	}
	return "", "", false
}

// curlPartsClass explains a get_parts row whose parts differ.
func curlPartsClass(u urlkit.URL, got, want []string) (name, reason string, ok bool) {
	if got[0] != want[0] {
		return "scheme read where curl guesses one", whyCurlGuess, true
	}
	if !u.HasAuthority() && strings.HasPrefix(u.Opaque(), "//") && want[4] != "[14]" && got[6] == "//"+want[6] {
		if _, known := schemes.Lookup(u.Scheme()); !known {
			return "\"//\" not a login", reasonLoginFallback, true
		}
	}
	diff := -1
	for i := range got {
		if got[i] != want[i] {
			if diff >= 0 && !(diff == 2 && i == 3) {
				return "", "", false
			}
			if diff < 0 {
				diff = i
			}
		}
	}
	switch diff {
	case 2:
		if want[3] != "[13]" && got[2] == want[2]+";"+want[3] {
			return "login options split off by curl", "RFC 1738 3.1: the password runs to the \"@\", \";\" included; curl splits \";options\" off the login of the schemes that have them (IMAP RFC 5092, POP3 RFC 2384, SMTP)", true
		}
	case 3:
		return "", "", false
	case 5:
		if got[5] == "[15]" && want[5] != "[15]" {
			return "default port of a scheme RFC 1738 does not define", "the row asks curl for the default port (CURLU_DEFAULT_PORT); RFC 1738 3 defines default ports only for its own schemes, so urlkit reports none for this one", true
		}
		if want[5] == "[15]" && got[5] != "[15]" {
			return "default port dropped by a curl option", "the row's CURLU_NO_DEFAULT_PORT makes curl drop a port equal to the default; RFC 1738 3.1 keeps the port as written (urlkit.Equal treats both as the same server)", true
		}
		if a, b := strings.TrimLeft(got[5], "0"), want[5]; a == b || (a == "" && b == "0") {
			return "port leading zeros", "curl reads the port as a number (\"00080\" is 80); RFC 1738 3.1 keeps port = 1*digit as written", true
		}
	case 4:
		if strings.EqualFold(got[4], want[4]) {
			return "host case", "curl lower-cases the host; host names are case-insensitive (RFC 1738 3.1, RFC 1034 3.1), and urlkit.Equal agrees", true
		}
		if strings.EqualFold(u.Scheme(), "file") && want[4] == "[14]" && (got[4] == "127.0.0.1" || strings.EqualFold(got[4], "localhost")) {
			return "file host read as this machine", "RFC 1738 3.10: file://<host>/ keeps the host as written (\"localhost\" and the empty host name this machine); curl drops a loopback host", true
		}
		if isHostnumber(got[4]) {
			return "hostnumber rewritten", "RFC 1738 3.1: a hostnumber is kept as written; curl rewrites IPv4 numbers (leading zeros, octal)", true
		}
	case 6:
		if got[6] == "/" && want[6] == "/" {
			break
		}
		if removeDotSegments(got[6], true) == want[6] {
			return "dot segments removed by curl", "curl removes \".\" and \"..\" segments (RFC 3986 5.2.4); urlkit keeps an absolute URL's path as written (RFC 1630 gives them meaning in partial forms only)", true
		}
	}
	return "", "", false
}

const whyCurlGuess = "RFC 1738 2.1: the text before the first \":\" is the scheme (\"user:moo@host\" has scheme \"user\"); the row sets CURLU_GUESS_SCHEME or CURLU_DEFAULT_SCHEME, with which curl reads input without \"//\" as host[:port] and supplies a scheme"
