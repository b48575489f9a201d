// Package edit changes URLs and builds them from their parts, checking
// each part against RFC 1738 section 5 as it goes: [Build] puts
// [urlkit.Parts] together, [Set], [SetUnescaped] and [Clear] change one
// component and keep the others byte for byte, [JoinPath] appends path
// segments given as data, and the search functions read a search part as
// key=value pairs ([ParseSearch], [SearchValue]) and change it a pair at a
// time ([AddSearch], [DeleteSearch]), leaving the pairs they do not touch
// as they were written.
//
// Every function takes and returns a [urlkit.URL], which is a value: the
// URL given is never changed. Setters take encoded text, as the URL's
// accessors return it, and a character a component does not allow is an
// error at its offset in the text given (a *[urlkit.SyntaxError]), never
// encoded behind the caller's back; [SetUnescaped], [JoinPath] and the
// search functions take data and encode it. An edit whose result would
// read back differently (a partial path "a:b" would become a scheme) is
// refused with [ErrConflict].
//
// The package is the core's editing layer, kept apart so that the core
// holds what a URL is (the value, the parser, escaping, equivalence,
// resolution) and this package what is done to one. It works through the
// core's exported API (urlkit.CheckComponent checks each part, and
// urlkit.ParseRef reads the result back) and the table of scheme syntaxes
// the parser itself reads.
package edit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/schemes"
)

// ErrConflict is wrapped by the error of an edit whose result would not
// read back as asked: a partial URL whose new path starts with "name:"
// (it would become a scheme), a scheme changed to one whose syntax reads
// the rest differently. Nothing is guessed: the edit is refused.
var ErrConflict = errors.New("edit would change how the URL is read")

// Build returns the URL made of the parts p, each encoded text as the
// URL's accessors return it. Each part is checked alone first, against
// RFC 1738 section 5's rule for that component, and an error is a
// *[urlkit.SyntaxError] whose Input is that part's text and whose Offset is in it;
// then the whole is checked as [urlkit.ParseRef] checks it (an http URL needs a
// host) and must read back into exactly the parts given, or the error
// wraps [ErrConflict].
//
// Build takes encoded text: a "%" must start an escape, and a character
// that a component does not allow, such as a space or a "/" in a user
// name, is an error rather than silently encoded. To put arbitrary data in
// a component, encode it first with [urlkit.Escape] (or use [SetUnescaped]).
//
// In a URL with "//", the path is what follows the "/" after the host
// (RFC 1738 3.1), but programs coming from net/url write that "/" into the
// path: a Path starting with "/" and HasPath not set is read that way, so
// Parts{Scheme: "http", Host: "h.example", Path: "/a/b"} builds
// http://h.example/a/b, never http://h.example//a/b. With HasPath set (as
// [urlkit.URL.Parts] sets it whenever the "/" is there) the Path is taken
// as it is, and a URL whose path starts with an empty segment
// (http://h.example//a) comes back byte for byte.
func Build(p urlkit.Parts) (urlkit.URL, error) { return build(p, urlkit.ComponentNone) }

// Set returns u with component c replaced by text, which is encoded text
// as the accessor of c returns it (see [urlkit.Parts] for what the path is). The
// component becomes present, even when text is empty: Set(ComponentSearch,
// "") gives a URL ending in "?". Setting a password on a URL with no user
// name gives it an empty one, as "//:secret@host" is read. The other
// components are kept byte for byte.
//
// c is one of ComponentScheme, ComponentUser, ComponentPassword,
// ComponentHost, ComponentPort, ComponentPath, ComponentSearch,
// ComponentFragment and ComponentOpaque (the scheme-specific part of a URL
// without "//", search part included). Errors are as [Build]'s, with the
// Input of a *[urlkit.SyntaxError] being text.
//
// The path of a URL with "//" follows the "/" after the host (RFC 1738
// 3.1): a text for ComponentPath that starts with "/" there is refused
// with [ErrConflict] rather than written as a second "/" (use [Build] with
// Parts.HasPath set for a path whose first segment is empty).
func Set(u urlkit.URL, c urlkit.Component, text string) (urlkit.URL, error) {
	if c == urlkit.ComponentPath && u.HasAuthority() && strings.HasPrefix(text, "/") {
		return urlkit.URL{}, &urlkit.SyntaxError{Input: text, Component: c, Err: ErrConflict,
			Detail: fmt.Sprintf(`the path follows the "/" after the host (RFC 1738 3.1): %s, or the URL gets a second "/"`, pathSuggestion(u, text))}
	}
	return set(u, c, text)
}

// pathSuggestion says what to write instead of a path text that starts
// with "/" in a URL with "//": the text without that "/" when Set takes
// it; when the rest is not a path either ("/a b"), the rest as data,
// encoded for a path, and its offending byte. A suggestion is only made
// when Set takes it (TestSuggestionsAreValid).
func pathSuggestion(u urlkit.URL, text string) string {
	rest := text[1:]
	if strings.HasPrefix(rest, "/") {
		return "a path whose first segment is empty is built with Build and Parts.HasPath set"
	}
	if _, err := set(u, urlkit.ComponentPath, rest); err == nil {
		return fmt.Sprintf("write %q, not %q", rest, text)
	}
	enc := urlkit.Escape(rest, urlkit.ComponentPath)
	if _, err := set(u, urlkit.ComponentPath, enc); err == nil {
		return fmt.Sprintf("write the path without its first \"/\"; %q is not a path either (%v), but as data it is written %q (SetUnescaped encodes it)", rest, urlkit.CheckComponent(urlkit.ComponentPath, rest), enc)
	}
	return "write the path without its first \"/\""
}

// set is Set without the check of a path's leading "/".
func set(u urlkit.URL, c urlkit.Component, text string) (urlkit.URL, error) {
	if c == urlkit.ComponentOpaque {
		return setOpaque(u, text)
	}
	p := u.Parts()
	switch c {
	case urlkit.ComponentScheme:
		p.Scheme = text
		if text == "" {
			return urlkit.URL{}, &urlkit.SyntaxError{Input: text, Component: c, Err: urlkit.ErrBadScheme, Detail: "empty scheme name: use Clear(ComponentScheme) for a partial URL (RFC 1738 5: scheme = 1*[ lowalpha | digit | \"+\" | \"-\" | \".\" ])"}
		}
	case urlkit.ComponentUser:
		p.User, p.HasUser = text, true
	case urlkit.ComponentPassword:
		p.Password, p.HasPassword, p.HasUser = text, true, true
	case urlkit.ComponentHost:
		if !p.Authority {
			// The path becomes the url-path after the host: it must
			// start with the "/" that separates them (RFC 1738 3.1).
			switch {
			case p.Path == "":
				p.HasPath = false
			case p.Path[0] == '/':
				p.Path, p.HasPath = p.Path[1:], true
			default:
				return urlkit.URL{}, &urlkit.SyntaxError{Input: text, Component: c, Err: ErrConflict,
					Detail: fmt.Sprintf(`the path %q would follow the host: it must start with "/" (RFC 1738 3.1)`, p.Path)}
			}
		}
		p.Host, p.Authority = text, true
	case urlkit.ComponentPort:
		p.Port = text
		if text == "" {
			return urlkit.URL{}, &urlkit.SyntaxError{Input: text, Component: c, Err: urlkit.ErrEmptyPort, Detail: `empty port: when the port is omitted, the ":" is too (RFC 1738 3.1); use Clear(ComponentPort)`}
		}
	case urlkit.ComponentPath:
		p.Path, p.HasPath = text, true
	case urlkit.ComponentSearch:
		p.Search, p.HasSearch = text, true
	case urlkit.ComponentFragment:
		p.Fragment, p.HasFragment = text, true
	default:
		return urlkit.URL{}, fmt.Errorf("edit: Set: %s is not a component that can be set", c)
	}
	v, err := build(p, c)
	if err != nil && c == urlkit.ComponentHost {
		err = hostHint(err, text)
	}
	return v, err
}

// hostHint adds to the error of a host text that RFC 1738 3.1 refuses but
// the lenient reading may take (an international name, a name written
// with escapes, an IPv6 literal) the function that reads it so. The
// package lenient imports this one, so the name is given, not called.
func hostHint(err error, text string) error {
	var se *urlkit.SyntaxError
	if !errors.As(err, &se) || se.Component != urlkit.ComponentHost {
		return err
	}
	why := ""
	switch {
	case strings.HasPrefix(text, "["):
		why = "an IPv6 literal is RFC 3986's (3.2.2), not RFC 1738's"
	case strings.IndexByte(text, '%') >= 0 || !isASCII(text):
		why = "an international host name is written in ASCII by IDNA (UTS #46), which RFC 1738 does not do"
	default:
		return err
	}
	h := *se
	h.Detail = se.Reason() + "; " + why + ": lenient.Set(u, urlkit.ComponentHost, text) reads the host as the lenient reading does (urlkit edit --lenient)"
	return &h
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// SetUnescaped is like [Set] but takes text that is data: it is
// encoded first with [urlkit.Escape] for component c, so every character the
// component does not allow becomes an escape. A path's "/" and ";" and a
// search part's "=", "&" and "+" are kept as written, meaning what they
// mean there; to put one path segment or one search word of arbitrary data,
// use [JoinPath] or [AddSearch]. The scheme, host and port have no
// escapes, so for them SetUnescaped is Set.
func SetUnescaped(u urlkit.URL, c urlkit.Component, text string) (urlkit.URL, error) {
	switch c {
	case urlkit.ComponentScheme, urlkit.ComponentHost, urlkit.ComponentPort:
	default:
		text = urlkit.Escape(text, c)
	}
	return Set(u, c, text)
}

// Clear returns u with component c removed (absent, not empty). Clearing
// the user clears the password too; clearing the host removes the whole
// "//" login (user, password, host and port), which only a partial URL or
// a scheme with the generic syntax can do without; clearing the scheme
// makes a partial URL; clearing the path of a URL without "//" leaves it
// empty, since such a path is always present. The other components are
// kept byte for byte.
func Clear(u urlkit.URL, c urlkit.Component) (urlkit.URL, error) {
	p := u.Parts()
	switch c {
	case urlkit.ComponentScheme:
		p.Scheme = ""
	case urlkit.ComponentUser:
		p.User, p.HasUser, p.Password, p.HasPassword = "", false, "", false
	case urlkit.ComponentPassword:
		p.Password, p.HasPassword = "", false
	case urlkit.ComponentHost:
		if p.Authority && p.HasPath {
			p.Path = "/" + p.Path // the "/" after the host stays, now part of the path
		}
		p.Authority, p.User, p.HasUser, p.Password, p.HasPassword, p.Host, p.Port = false, "", false, "", false, "", ""
	case urlkit.ComponentPort:
		p.Port = ""
	case urlkit.ComponentPath:
		p.Path, p.HasPath = "", false
	case urlkit.ComponentSearch:
		p.Search, p.HasSearch = "", false
	case urlkit.ComponentFragment:
		p.Fragment, p.HasFragment = "", false
	default:
		return urlkit.URL{}, fmt.Errorf("edit: Clear: %s is not a component that can be cleared", c)
	}
	return build(p, c)
}

// JoinPath returns u with the given path segments appended to its path.
// Each segment is data, not encoded text: it is encoded with
// [urlkit.EscapeSegment], so a "/", ";" or "?" in it stays part of the segment;
// a segment "." or ".." is written "%2E" or "%2E%2E", so that it names a
// file rather than moving up (RFC 1630 gives "." and ".." their special
// meaning only unencoded). When the path ends with "/" (its last segment
// is empty), the first segment takes that empty segment's place; an empty
// segment adds an empty segment.
//
// This differs from net/url's JoinPath, which takes "a/b" as two segments
// and resolves "..": in urlkit one argument is one segment.
func JoinPath(u urlkit.URL, segments ...string) (urlkit.URL, error) {
	if len(segments) == 0 {
		return u, nil
	}
	path, _ := u.Path()
	var b strings.Builder
	b.WriteString(path)
	join := path != "" && !strings.HasSuffix(path, "/")
	if _, hasPath := u.Path(); u.HasAuthority() && !hasPath {
		join = false // "//host" + "a" is "//host/a": Set writes the "/"
	}
	for _, seg := range segments {
		if join {
			b.WriteByte('/')
		}
		join = true
		switch seg {
		case ".":
			b.WriteString("%2E")
		case "..":
			b.WriteString("%2E%2E")
		default:
			b.WriteString(urlkit.EscapeSegment(seg))
		}
	}
	return set(u, urlkit.ComponentPath, b.String())
}

// setOpaque replaces the scheme-specific part of a URL.
func setOpaque(u urlkit.URL, text string) (urlkit.URL, error) {
	if err := urlkit.CheckComponent(urlkit.ComponentOpaque, text); err != nil {
		return urlkit.URL{}, err
	}
	var b strings.Builder
	if u.IsAbsolute() {
		b.WriteString(u.RawScheme())
		b.WriteByte(':')
	}
	b.WriteString(text)
	if f, ok := u.Fragment(); ok {
		b.WriteByte('#')
		b.WriteString(f)
	}
	parse := urlkit.ParseRef
	if u.Extended() {
		parse = urlkit.ParseRefExtended
	}
	v, err := parse(b.String())
	if err != nil {
		return urlkit.URL{}, partError(err, text, len(b.String())-len(text)-fragLen(u), urlkit.ComponentOpaque)
	}
	if v.Opaque() != text || v.RawScheme() != u.RawScheme() {
		return urlkit.URL{}, &urlkit.SyntaxError{Input: text, Component: urlkit.ComponentOpaque, Err: ErrConflict,
			Detail: fmt.Sprintf("%q would not be read back as this scheme-specific part", v.String())}
	}
	return v, nil
}

func fragLen(u urlkit.URL) int {
	if f, ok := u.Fragment(); ok {
		return len(f) + 1
	}
	return 0
}

// build checks each part of p alone, assembles the URL and checks that it
// reads back into p. edited is the component being set, or ComponentNone.
func build(p urlkit.Parts, edited urlkit.Component) (urlkit.URL, error) {
	if p.Password != "" {
		p.HasPassword = true
	}
	if p.HasPassword || p.User != "" {
		p.HasUser = true
	}
	if p.HasUser || p.Host != "" || p.Port != "" {
		p.Authority = true
	}
	if p.Authority && !p.HasPath && strings.HasPrefix(p.Path, "/") {
		// net/url's habit: the "/" after the host written into the path.
		p.Path, p.HasPath = p.Path[1:], true
	}
	if p.Path != "" || !p.Authority {
		p.HasPath = true
	}
	if p.Search != "" {
		p.HasSearch = true
	}
	if p.Fragment != "" {
		p.HasFragment = true
	}
	if err := checkParts(p); err != nil {
		var se *urlkit.SyntaxError
		if edited != urlkit.ComponentNone && errors.As(err, &se) && se.Component != edited &&
			(errors.Is(err, ErrConflict) || errors.Is(err, urlkit.ErrMissingSlashes)) {
			return urlkit.URL{}, &urlkit.SyntaxError{Input: partText(p, edited), Component: edited, Err: se.Err, Detail: se.Detail}
		}
		return urlkit.URL{}, err
	}

	var b strings.Builder
	var at [urlkit.ComponentFragment + 1]int // where each part starts in b
	n := len(p.Scheme) + len(p.User) + len(p.Password) + len(p.Host) + len(p.Port) + len(p.Path) + len(p.Search) + len(p.Fragment) + 8
	b.Grow(n)
	// put writes the separator sep (none when 0), then the text of
	// component c, noting where it starts.
	put := func(sep byte, c urlkit.Component, text string) {
		if sep != 0 {
			b.WriteByte(sep)
		}
		at[c] = b.Len()
		b.WriteString(text)
	}
	if p.Scheme != "" {
		b.WriteString(p.Scheme)
		b.WriteByte(':')
	}
	if p.Authority {
		b.WriteString("//")
		if p.HasUser {
			put(0, urlkit.ComponentUser, p.User)
			if p.HasPassword {
				put(':', urlkit.ComponentPassword, p.Password)
			}
			b.WriteByte('@')
		}
		put(0, urlkit.ComponentHost, p.Host)
		if p.Port != "" {
			put(':', urlkit.ComponentPort, p.Port)
		}
		if p.HasPath {
			b.WriteByte('/')
		}
	}
	put(0, urlkit.ComponentPath, p.Path)
	if p.HasSearch {
		put('?', urlkit.ComponentSearch, p.Search)
	}
	if p.HasFragment {
		put('#', urlkit.ComponentFragment, p.Fragment)
	}
	s := b.String()
	parse := urlkit.ParseRef
	if p.Extended {
		parse = urlkit.ParseRefExtended
	}
	v, err := parse(s)
	if err != nil {
		var se *urlkit.SyntaxError
		if errors.As(err, &se) && se.Component >= urlkit.ComponentUser && se.Component <= urlkit.ComponentFragment {
			text := partText(p, se.Component)
			return urlkit.URL{}, partError(err, text, at[se.Component], se.Component)
		}
		if edited == urlkit.ComponentNone {
			return urlkit.URL{}, err
		}
		return urlkit.URL{}, partError(err, partText(p, edited), -1, edited)
	}
	if q := v.Parts(); q != p {
		c := firstDifference(p, q)
		if (c == urlkit.ComponentScheme && p.Scheme == "") || (c == urlkit.ComponentHost && !p.Authority) {
			c = urlkit.ComponentPath // the path was read as a scheme or a login
		}
		if edited != urlkit.ComponentNone {
			c = edited
		}
		return urlkit.URL{}, &urlkit.SyntaxError{Input: partText(p, c), Component: c, Err: ErrConflict,
			Detail: fmt.Sprintf("the result %q would not read back as written: %s", s, describeDifference(p, q))}
	}
	return v, nil
}

// partError rewrites a parse error of an assembled URL as an error about
// one part, text, which starts at offset start of the URL (or -1 when the
// error is not inside it: then the offset is 0).
func partError(err error, text string, start int, c urlkit.Component) error {
	var se *urlkit.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	off := 0
	if start >= 0 {
		off = se.Offset - start
		if off < 0 || off > len(text) {
			off = 0
		}
	}
	detail := se.Reason()
	if start < 0 {
		detail = fmt.Sprintf("the result %q is not a URL: %s", se.Input, se.Error())
	}
	return &urlkit.SyntaxError{Input: text, Offset: off, Component: c, Err: se.Err, Detail: detail}
}

// partText returns the text of component c in p.
func partText(p urlkit.Parts, c urlkit.Component) string {
	switch c {
	case urlkit.ComponentScheme:
		return p.Scheme
	case urlkit.ComponentUser:
		return p.User
	case urlkit.ComponentPassword:
		return p.Password
	case urlkit.ComponentHost:
		return p.Host
	case urlkit.ComponentPort:
		return p.Port
	case urlkit.ComponentPath:
		return p.Path
	case urlkit.ComponentSearch:
		return p.Search
	case urlkit.ComponentFragment:
		return p.Fragment
	}
	return ""
}

// checkParts checks each part of p alone against its rule in RFC 1738
// section 5 (urlkit.CheckComponent), giving offsets inside the part, then
// what the parts say together about the scheme's syntax.
func checkParts(p urlkit.Parts) error {
	for _, c := range [...]urlkit.Component{urlkit.ComponentScheme, urlkit.ComponentUser, urlkit.ComponentPassword,
		urlkit.ComponentHost, urlkit.ComponentPort, urlkit.ComponentPath, urlkit.ComponentSearch, urlkit.ComponentFragment} {
		check := urlkit.CheckComponent
		if p.Extended {
			check = urlkit.CheckComponentExtended
		}
		if err := check(c, partText(p, c)); err != nil {
			return err
		}
	}
	if p.Scheme != "" && !p.Authority {
		switch schemes.SyntaxOf(p.Scheme) {
		case schemes.IP, schemes.IPOptionalHost:
			return &urlkit.SyntaxError{Input: p.Path, Component: urlkit.ComponentPath, Err: urlkit.ErrMissingSlashes,
				Detail: fmt.Sprintf(`%s URLs use the common Internet scheme syntax %s://<host>/<url-path> (RFC 1738 3.1)`, schemes.Lower(p.Scheme), schemes.Lower(p.Scheme))}
		}
	}
	if p.Authority && !p.HasPath && p.HasSearch && p.Scheme != "" {
		return &urlkit.SyntaxError{Input: p.Search, Component: urlkit.ComponentSearch, Err: ErrConflict,
			Detail: `a search part after a host needs the "/" of a url-path before its "?" (RFC 1738 3.1)`}
	}
	if p.Authority && p.Scheme != "" && schemes.SyntaxOf(p.Scheme) == schemes.Opaque {
		return &urlkit.SyntaxError{Input: p.Host, Component: urlkit.ComponentHost, Err: ErrConflict,
			Detail: fmt.Sprintf(`a %s URL has no "//" and no host (RFC 1738 5)`, schemes.Lower(p.Scheme))}
	}
	return nil
}

// firstDifference returns the first component whose text or presence
// differs between p and q.
func firstDifference(p, q urlkit.Parts) urlkit.Component {
	switch {
	case p.Scheme != q.Scheme:
		return urlkit.ComponentScheme
	case p.User != q.User || p.HasUser != q.HasUser:
		return urlkit.ComponentUser
	case p.Password != q.Password || p.HasPassword != q.HasPassword:
		return urlkit.ComponentPassword
	case p.Host != q.Host || p.Authority != q.Authority:
		return urlkit.ComponentHost
	case p.Port != q.Port:
		return urlkit.ComponentPort
	case p.Path != q.Path || p.HasPath != q.HasPath:
		return urlkit.ComponentPath
	case p.Search != q.Search || p.HasSearch != q.HasSearch:
		return urlkit.ComponentSearch
	}
	return urlkit.ComponentFragment
}

// describeDifference says how q, what a URL reads back as, differs from p.
func describeDifference(p, q urlkit.Parts) string {
	c := firstDifference(p, q)
	if c == urlkit.ComponentHost && p.Authority != q.Authority {
		if p.Authority {
			return `the "//" would not start a login`
		}
		return `the path would start a "//" login`
	}
	if c == urlkit.ComponentScheme {
		if q.Scheme == "" {
			return fmt.Sprintf("the scheme %q would be lost", p.Scheme)
		}
		return fmt.Sprintf("the path would start with a scheme %q", q.Scheme)
	}
	return fmt.Sprintf("the %s would be %q, not %q", c, partText(q, c), partText(p, c))
}
