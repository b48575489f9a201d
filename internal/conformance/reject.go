package conformance

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/urlkit/urlkit"
)

// A rejection is classed by the kind of error urlkit reports, and the class
// holds only when a predicate, written here from RFC 1738's text rather
// than taken from urlkit, confirms the reason on the input: an input urlkit
// calls a relative reference really has no scheme, a "bad host" really has
// a host outside RFC 1738 5's hostname | hostnumber, and so on. A rejection
// whose reason does not hold is wrong.

const (
	rfcUnsafe   = " <>\"#%{}|\\^~[]`"
	rfcReserved = ";/?:@=&"
)

var (
	schemePrefixRE = regexp.MustCompile(`^[A-Za-z0-9+.-]+:`)
	// RFC 1738 3.1: the login runs from "//" to the "/" before the url-path
	// (or the end); "?" and "#" are not delimiters there.
	loginRE = regexp.MustCompile(`^(?:[A-Za-z0-9+.-]+:)?//([^/]*)`)
)

// rfcLogin splits the "//" login of s the RFC 1738 3.1 way: the host is
// what follows the last "@" up to a ":"; ok is false when s has no login.
func rfcLogin(s string) (host, port string, hasPort, ok bool) {
	m := loginRE.FindStringSubmatch(s)
	if m == nil {
		return "", "", false, false
	}
	hp := m[1]
	if i := strings.LastIndexByte(hp, '@'); i >= 0 {
		hp = hp[i+1:]
	}
	host, port, hasPort = strings.Cut(hp, ":")
	return host, port, hasPort, true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// rejectKind names the kind of a urlkit rejection, gives its RFC reason,
// and reports whether the reason holds for the input.
func rejectKind(in string, err error) (name, reason string, holds bool) {
	var se *urlkit.SyntaxError
	if !errors.As(err, &se) {
		return "other error", err.Error(), false
	}
	at := func() byte {
		if se.Offset >= 0 && se.Offset < len(in) {
			return in[se.Offset]
		}
		return 0
	}
	c := at()
	switch {
	case errors.Is(err, urlkit.ErrEmpty):
		return "empty", "RFC 1738 5: a URL has at least a scheme and \":\"", in == ""
	case errors.Is(err, urlkit.ErrMissingScheme):
		return "relative reference (no scheme)", "RFC 1738 2.1: a URL is <scheme>:<scheme-specific-part>; the input has no scheme (a partial form, RFC 1630, needs a base)", !schemePrefixRE.MatchString(in)
	case errors.Is(err, urlkit.ErrBadScheme):
		return "invalid scheme", "RFC 1738 2.1: a URL starts with scheme \":\", scheme = 1*[ lowalpha | digit | \"+\" | \"-\" | \".\" ] (upper case tolerated); the input does not", !schemePrefixRE.MatchString(in)
	case errors.Is(err, urlkit.ErrBadEscape):
		return "invalid escape", "RFC 1738 2.2: \"%\" is followed by two hexadecimal digits", c == '%' && !(se.Offset+2 < len(in) && isHex(in[se.Offset+1]) && isHex(in[se.Offset+2]))
	case errors.Is(err, urlkit.ErrUnsafeChar):
		return "unsafe character", "RFC 1738 2.2: unsafe characters (space, \"<\", \">\", '\"', \"#\" other than the fragment's, \"%\" other than an escape's, \"{\", \"}\", \"|\", \"\\\\\", \"^\", \"~\", \"[\", \"]\", \"`\") controls and octets 80-FF must be encoded", c < 0x20 || c >= 0x7f || strings.IndexByte(rfcUnsafe, c) >= 0
	case errors.Is(err, urlkit.ErrBadChar):
		return "control or non-ASCII byte", "RFC 1738 2.2: only graphic US-ASCII may appear; controls (00-1F, 7F) and 80-FF must be encoded", c < 0x21 || c >= 0x7f || c == '#' || c == '%'
	case errors.Is(err, urlkit.ErrReservedChar):
		return "reserved character", "RFC 1738 2.2 and 5: a reserved character where it would be read as a delimiter must be encoded", c != 0 && strings.IndexByte(rfcReserved, c) >= 0
	case errors.Is(err, urlkit.ErrMissingSlashes):
		i := strings.IndexByte(in, ':')
		return "missing \"//\"", "RFC 1738 3.1: this scheme's part starts with \"//\" and a login", i > 0 && !strings.HasPrefix(in[i+1:], "//")
	case errors.Is(err, urlkit.ErrMissingHost):
		h, _, _, ok := rfcLogin(in)
		return "missing host", "RFC 1738 3.1: the scheme requires a host and the login has none", ok && (h == "" || strings.IndexAny(h, "?#") == 0)
	case errors.Is(err, urlkit.ErrBadHost):
		h, _, _, ok := rfcLogin(in)
		m := loginRE.FindStringSubmatch(in)
		return "invalid host", "RFC 1738 3.1 and 5: host = hostname | hostnumber; hostname labels are alphadigit with inner \"-\", the top label starts with a letter (no \"_\", no IPv6 literal); \"@\" in a user or password must be encoded", ok && (!rfc1738HostRE.MatchString(h) || strings.Count(m[1], "@") > 1)
	case errors.Is(err, urlkit.ErrBadPort):
		_, p, hp, ok := rfcLogin(in)
		return "invalid port", "RFC 1738 3.1: port = 1*digit", ok && hp && strings.Trim(p, "0123456789") != ""
	case errors.Is(err, urlkit.ErrEmptyPort):
		_, p, hp, ok := rfcLogin(in)
		return "empty port", "RFC 1738 3.1: \":\" introduces port = 1*digit, so it cannot be empty", ok && hp && p == ""
	}
	return fmt.Sprint(se.Err), "RFC 1738 5 grammar: " + se.Err.Error(), false
}

// classReject classes a rejection by kind under prefix ("rejected by
// urlkit only: ", ...), or records a wrong case when its reason does not
// hold. agreed says whether the other side rejects too.
func classReject(s *Suite, prefix, in string, err error, agreed bool) {
	name, reason, holds := rejectKind(in, err)
	if !holds {
		s.wrong(in, fmt.Sprintf("urlkit rejects it as %q (%v), but that reason does not hold for the input", name, err))
		return
	}
	if agreed {
		s.agree(in, []reasoned{{prefix + name, reason}})
		return
	}
	s.different(prefix+name, reason, in)
}
