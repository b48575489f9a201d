package urlkit

// This file keeps the straightforward parser that the fast one in parse.go
// replaced (a loop per component, a second pass over the host), so that
// FuzzParseDifferential can check that the two agree on every input: the
// same URL, or the same error at the same offset.

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/schemes"
	"github.com/urlkit/urlkit/internal/testkit/rfcbnf"
)

var oldOkX, oldOkPath [256]bool

func init() {
	for b := 0; b < 256; b++ {
		oldOkX[b] = chars.Table[b]&chars.Xchar != 0
		oldOkPath[b] = oldOkX[b] && b != '?'
	}
}

// oldScan returns the index of the first byte of s[i:end] that is neither in
// ok nor part of a valid escape, or end if there is none.
func oldScan(s string, i, end int, ok *[256]bool) int {
	for i < end {
		c := s[i]
		if ok[c] {
			i++
			continue
		}
		if c == '%' && chars.IsEscape(s, i) && i+2 < end {
			i += 3
			continue
		}
		return i
	}
	return end
}

func oldParse(input string, partialOK bool) (URL, error) {
	var u URL
	s := input
	if hasURLPrefix(s) {
		s = s[4:]
		u.prefix = 4
	}
	u.s = s
	n := len(s)
	base := int(u.prefix)
	fail := func(off int, c Component, err error, detail string) (URL, error) {
		return URL{}, &SyntaxError{Input: input, Offset: base + off, Component: c, Err: err, Detail: detail}
	}
	if n == 0 && (!partialOK || u.prefix != 0) {
		return fail(0, ComponentNone, ErrEmpty, "empty URL")
	}

	// The scheme: scheme chars up to ":" (RFC 1738 section 5).
	i := 0
	for i < n && chars.Table[s[i]]&chars.SchemeChar != 0 {
		i++
	}
	p := 0 // start of the scheme-specific part
	syntax := schemes.Generic
	if i < n && s[i] == ':' && i > 0 {
		u.flags |= hasScheme
		u.scheme = span{0, int32(i)}
		p = i + 1
		syntax = schemes.SyntaxOf(s[:i])
	} else if !partialOK {
		switch {
		case i < n && s[i] == ':':
			return fail(0, ComponentScheme, ErrBadScheme, `empty scheme name before ":" (RFC 1738 5: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ])`)
		case i > 0 && (i == n || s[i] == '#'):
			return fail(i, ComponentScheme, ErrMissingScheme, fmt.Sprintf(`no ":" after the scheme name %q: a URL is <scheme>:<scheme-specific-part> (RFC 1738 2.1)`, s[:i]))
		case i > 0 && s[i] != '/':
			return fail(i, ComponentScheme, ErrBadScheme, fmt.Sprintf(`%q is not allowed in a scheme name (RFC 1738 5: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ])`, s[i:i+1]))
		default:
			return fail(0, ComponentScheme, ErrMissingScheme, "a URL must start with a scheme name and \":\" (RFC 1738 2.1); this looks like a partial URL, which needs a base")
		}
	}

	// The scheme-specific part s[p:].
	partial := u.flags&hasScheme == 0
	if n-p >= 2 && s[p] == '/' && s[p+1] == '/' && syntax != schemes.Opaque {
		v := u
		err := v.oldParseLogin(input, base, p+2, syntax, partial)
		if err == nil {
			return v, nil
		}
		if syntax != schemes.Generic || partial {
			return URL{}, err
		}
		// An unknown scheme may use *xchar instead of ip-schemepart. When
		// neither reading holds, the error is the one further along (the
		// first byte no reading allows, as RFC 1738 5's grammar finds).
		if terr := u.oldParseTail(input, base, p, ComponentOpaque); terr != nil {
			var le, te *SyntaxError
			if errors.As(err, &le) && errors.As(terr, &te) && te.Offset > le.Offset {
				return URL{}, terr
			}
			return URL{}, err
		}
		return u, nil
	}
	if syntax == schemes.IP || syntax == schemes.IPOptionalHost {
		return fail(p, ComponentOpaque, ErrMissingSlashes, fmt.Sprintf(`%s URLs use the common Internet scheme syntax %s://<host>/<url-path> (RFC 1738 3.1)`, u.Scheme(), u.Scheme()))
	}
	pc := ComponentOpaque
	if partial {
		pc = ComponentPath
	}
	if err := u.oldParseTail(input, base, p, pc); err != nil {
		return URL{}, err
	}
	return u, nil
}

func oldCharErrorAt(input string, base, i int, c Component) *SyntaxError {
	return charError(input, base+i, c)
}

// oldParseTail parses s[i:] as a path of xchar up to the first "?", a search
// part up to the first "#", and a fragment. The path's errors are reported
// in component pc.
func (u *URL) oldParseTail(input string, base, i int, pc Component) error {
	s := u.s
	n := len(s)
	start := i
	for i < n {
		c := s[i]
		if oldOkPath[c] {
			i++
			continue
		}
		if c == '%' && chars.IsEscape(s, i) {
			i += 3
			continue
		}
		if c == '?' || c == '#' {
			break
		}
		return oldCharErrorAt(input, base, i, pc)
	}
	u.flags |= hasPath
	u.path = span{int32(start), int32(i)}
	if i < n && s[i] == '?' {
		i++
		start = i
		if i = oldScanUntilHash(s, i); i < n && s[i] != '#' {
			return oldCharErrorAt(input, base, i, ComponentSearch)
		}
		u.flags |= hasSearch
		u.search = span{int32(start), int32(i)}
	} else {
		u.search = span{int32(i), int32(i)}
	}
	if i < n {
		// s[i] is "#".
		i++
		start = i
		if i = oldScanUntilHash(s, i); i < n {
			return oldCharErrorAt(input, base, i, ComponentFragment)
		}
		u.flags |= hasFragment
		u.frag = span{int32(start), int32(n)}
	} else {
		u.frag = span{int32(n), int32(n)}
	}
	return nil
}

// oldScanUntilHash returns the index of the first byte of s[i:] that is
// neither xchar nor part of a valid escape (a "#" in particular), or len(s).
func oldScanUntilHash(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if oldOkX[c] {
			i++
			continue
		}
		if c == '%' && chars.IsEscape(s, i) {
			i += 3
			continue
		}
		return i
	}
	return i
}

// oldParseLogin parses login ["/" url-path] ["#" fragment] from a, just after
// "//". In a partial URL the host may be empty and a "?" also ends the
// login, as in RFC 1808's net_loc.
//
// The login is read as RFC 1738 5 writes it, login = [ user [ ":" password ]
// "@" ] hostport, hostport = host [ ":" port ]: user and password hold
// neither ":" nor "@", and host no ":", so the first "@" ends the user and
// password and the first ":" after it starts the port. Each part is
// checked with the regular expression of its rule, made from the RFC's
// text by internal/testkit/rfcbnf (refGrammar), never with the parser's own code:
// a bug planted in the parser's host check shows here.
func (u *URL) oldParseLogin(input string, base, a int, syntax schemes.Syntax, partial bool) error {
	s := u.s
	n := len(s)
	u.flags |= hasAuthority
	stop := "/#"
	if partial {
		stop = "/#?"
	}
	authEnd := n
	if k := strings.IndexAny(s[a:], stop); k >= 0 {
		authEnd = a + k
	}
	hostStart := a
	if at := strings.IndexByte(s[a:authEnd], '@'); at >= 0 {
		at += a
		u.flags |= hasUser
		user, pass, hasPass := strings.Cut(s[a:at], ":")
		u.user = span{int32(a), int32(a + len(user))}
		// The user first: the error names the first offending byte.
		if k := refPrefix(refRE.user, user); k < len(user) {
			return oldCharErrorAt(input, base, a+k, ComponentUser)
		}
		if hasPass {
			u.flags |= hasPassword
			ps := a + len(user) + 1
			u.pass = span{int32(ps), int32(at)}
			if k := refPrefix(refRE.password, pass); k < len(pass) {
				return oldCharErrorAt(input, base, ps+k, ComponentPassword)
			}
		} else {
			u.pass = span{int32(at), int32(at)}
		}
		hostStart = at + 1
	} else {
		u.user = span{int32(a), int32(a)}
		u.pass = u.user
	}
	host, port, withPort := strings.Cut(s[hostStart:authEnd], ":")
	hostEnd := hostStart + len(host)
	// The host's error before the port's (RFC 1738 5: hostport = host
	// [ ":" port ], so the host's bytes come first).
	u.host = span{int32(hostStart), int32(hostEnd)}
	if host == "" {
		if syntax != schemes.IPOptionalHost && !partial {
			return &SyntaxError{Input: input, Offset: base + hostStart, Component: ComponentHost, Err: ErrMissingHost, why: whyMissingHost}
		}
		if withPort && !partial {
			return &SyntaxError{Input: input, Offset: base + hostStart, Component: ComponentHost, Err: ErrMissingHost, why: whyPortNoHost}
		}
	} else if !refRE.host.MatchString(host) {
		// Where RFC 1738 5's host rule refuses it: the first byte no host
		// has after the ones before it (the recognizer's dead offset).
		dead := refDead("host", host)
		detail := "" // the refused byte is in the host
		if dead == len(host) {
			detail = "ends too soon" // a prefix of hosts, such as "1.2.3"
		}
		return &SyntaxError{Input: input, Offset: base + hostStart + dead, Component: ComponentHost, Err: ErrBadHost, Detail: detail}
	}
	if withPort {
		u.flags |= hasPort
		u.port = span{int32(hostEnd + 1), int32(authEnd)}
		if port == "" {
			return &SyntaxError{Input: input, Offset: base + hostEnd, Component: ComponentPort, Err: ErrEmptyPort, why: whyEmptyPort}
		}
		if k := refPrefix(refRE.digits, port); k < len(port) {
			j := hostEnd + 1 + k
			if c := s[j]; c == ':' || c == '@' {
				return oldCharErrorAt(input, base, j, ComponentPort)
			}
			return &SyntaxError{Input: input, Offset: base + j, Component: ComponentPort, Err: ErrBadPort, why: whyBadPort}
		}
	} else {
		u.port = span{int32(authEnd), int32(authEnd)}
	}
	if authEnd < n && s[authEnd] == '/' {
		return u.oldParseTail(input, base, authEnd, ComponentPath)
	}
	// No url-path: what follows is a search part (partial URLs only) or a
	// fragment.
	end := int32(authEnd)
	u.path = span{end, end}
	if err := u.oldParseTail(input, base, authEnd, ComponentPath); err != nil {
		return err
	}
	u.flags &^= hasPath
	return nil
}

// refRE holds the regular expressions of RFC 1738 5's login rules, made
// from the RFC's text (rfcbnf.Grammar.Regexp), for the reference parser.
var refRE struct {
	once                         sync.Once
	g                            *rfcbnf.Grammar
	user, password, host, digits *regexp.Regexp
	err                          error
}

// refGrammar loads the rules, skipping the test when RFC 1738's text is
// absent (failing under URLKIT_REQUIRE_CORPORA=1, as in CI).
func refGrammar(tb testing.TB) {
	tb.Helper()
	refRE.once.Do(func() {
		if _, err := os.Stat(rfcbnf.SpecPath()); err != nil {
			refRE.err = err
			return
		}
		g, err := rfcbnf.LoadURL(rfcbnf.SpecPath())
		if err != nil {
			refRE.err = err
			return
		}
		refRE.g = g
		for _, r := range []struct {
			re   **regexp.Regexp
			rule string
		}{{&refRE.user, "user"}, {&refRE.password, "password"}, {&refRE.host, "host"}, {&refRE.digits, "digits"}} {
			re, err := g.Regexp(r.rule)
			if err != nil {
				refRE.err = err
				return
			}
			if r.rule != "host" {
				// For refPrefix: the rule from the start, not to the end,
				// leftmost-longest.
				re = regexp.MustCompile(strings.TrimSuffix(re.String(), "$"))
				re.Longest()
			}
			*r.re = re
		}
	})
	if refRE.err != nil {
		msg := "the reference parser needs RFC 1738's text (" + rfcbnf.SpecPath() + "): " + refRE.err.Error()
		if os.Getenv("URLKIT_REQUIRE_CORPORA") == "1" {
			tb.Fatal(msg)
		}
		tb.Skip(msg)
	}
}

// refPrefix returns the length of the longest prefix of s that re (a rule
// of one repeated element: user, password, digits, anchored at the start
// only) matches: the offset of the first byte the rule refuses, or len(s).
func refPrefix(re *regexp.Regexp, s string) int {
	if loc := re.FindStringIndex(s); loc != nil {
		return loc[1]
	}
	return 0
}

// refDead returns where RFC 1738 5's rule refuses s, by the grammar's
// recognizer.
func refDead(rule, s string) int { return refRE.g.Match(rule, s).Dead }

// refHostByte reports whether b is in some host of RFC 1738 5's host rule
// (between two letters, or alone).
func refHostByte(b byte) bool {
	return refRE.host.MatchString("a"+string(b)+"a") || refRE.host.MatchString(string(b))
}
