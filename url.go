package urlkit

import (
	"strings"

	"github.com/urlkit/urlkit/internal/schemes"
)

// Component names a part of a URL. It is used in errors and warnings to say
// where a problem is.
type Component uint8

// The components of a URL, in the order they are written.
const (
	ComponentNone     Component = iota // no particular component: the input as a whole
	ComponentPrefix                    // the "URL:" prefix of RFC 1738's appendix
	ComponentScheme                    // the scheme name before the first ":"
	ComponentOpaque                    // the scheme-specific part of a URL without "//"
	ComponentUser                      // the user name of the login
	ComponentPassword                  // the password of the login
	ComponentHost                      // the host name or host number
	ComponentPort                      // the port number
	ComponentPath                      // the url-path
	ComponentSearch                    // the search part after "?"
	ComponentFragment                  // the fragment identifier after "#"
)

var componentNames = [...]string{
	ComponentNone:     "input",
	ComponentPrefix:   "prefix",
	ComponentScheme:   "scheme",
	ComponentOpaque:   "scheme-specific part",
	ComponentUser:     "user",
	ComponentPassword: "password",
	ComponentHost:     "host",
	ComponentPort:     "port",
	ComponentPath:     "path",
	ComponentSearch:   "search",
	ComponentFragment: "fragment",
}

// String returns the component's name as used in messages, such as "path".
func (c Component) String() string {
	if int(c) < len(componentNames) {
		return componentNames[c]
	}
	return "component"
}

// span is a half-open byte range [start, end) of URL.s.
type span struct{ start, end int32 }

func (p span) of(s string) string { return s[p.start:p.end] }

// Flags recording which components are present.
const (
	hasScheme uint16 = 1 << iota
	hasAuthority
	hasUser
	hasPassword
	hasPort
	hasPath
	hasSearch
	hasFragment
	// hostLiteral: the host is an IPv6 literal in brackets (extended
	// syntax only).
	hostLiteral
	// extSyntax: the URL was read by the extended syntax (ParseExtended),
	// and so is every URL derived from it.
	extSyntax
)

// A URL is a parsed URL or partial URL. The zero value is the empty partial
// URL (a reference to the current document).
//
// A URL holds its text and the position of each component in it, so every
// accessor returns a substring of what was parsed: components are raw, as
// written, still percent-encoded. Use [Unescape] to decode one.
//
// Absent and empty are different: in ftp://@host.com/ the user is present
// and empty, in ftp://host.com/ it is absent (RFC 1738 section 3.1). Each
// accessor of an optional component returns a second value that reports
// presence.
//
// URL is a small value type; copy it freely. It is safe for concurrent use.
type URL struct {
	s      string // the URL text, without a "URL:" prefix
	prefix int32  // length of the prefix stripped from the input (0 or 4)
	flags  uint16
	scheme span
	user   span
	pass   span
	host   span
	port   span
	path   span // the path as written: for an authority URL it starts with "/"
	search span
	frag   span
}

// String returns the URL text exactly as it was parsed, without the "URL:"
// prefix of RFC 1738's appendix if the input had one.
func (u URL) String() string { return u.s }

// Prefixed reports whether the parsed input began with the "URL:" prefix
// recommended by RFC 1738's appendix, which is not part of the URL.
func (u URL) Prefixed() bool { return u.prefix != 0 }

// IsAbsolute reports whether the URL has a scheme. A URL without one is a
// partial form, meaningful only in the context of a base URL (RFC 1630,
// "Partial (relative) form").
func (u URL) IsAbsolute() bool { return u.flags&hasScheme != 0 }

// RawScheme returns the scheme name as written, in its original case, or ""
// for a partial URL.
func (u URL) RawScheme() string { return u.scheme.of(u.s) }

// Scheme returns the scheme name in lower case. RFC 1738 section 5 says the
// scheme is in lower case and interpreters should ignore case. For a scheme
// already written in lower case, or one urlkit knows, no memory is
// allocated.
func (u URL) Scheme() string { return schemes.Lower(u.RawScheme()) }

// HasAuthority reports whether the URL uses the common Internet scheme
// syntax of RFC 1738 section 3.1: "//" followed by a login.
func (u URL) HasAuthority() bool { return u.flags&hasAuthority != 0 }

// Opaque returns the scheme-specific part: everything after the scheme's
// ":" and before any "#fragment". For a partial URL it is everything before
// the fragment.
func (u URL) Opaque() string {
	start := int32(0)
	if u.flags&hasScheme != 0 {
		start = u.scheme.end + 1
	}
	end := int32(len(u.s))
	if u.flags&hasFragment != 0 {
		end = u.frag.start - 1
	}
	return u.s[start:end]
}

// Authority returns the login part of a URL with "//": everything between
// "//" and the next "/", as written (user, password, host and port). It
// returns "" for a URL without "//".
func (u URL) Authority() string {
	if u.flags&hasAuthority == 0 {
		return ""
	}
	start := u.host.start
	if u.flags&hasUser != 0 {
		start = u.user.start
	}
	end := u.host.end
	if u.flags&hasPort != 0 {
		end = u.port.end
	}
	return u.s[start:end]
}

// User returns the user name as written and whether the URL has one.
func (u URL) User() (string, bool) { return u.user.of(u.s), u.flags&hasUser != 0 }

// Password returns the password as written and whether the URL has one.
// There is no password without a user name (RFC 1738 section 3.1).
func (u URL) Password() (string, bool) { return u.pass.of(u.s), u.flags&hasPassword != 0 }

// Host returns the host as written: a host name or a host number, or, in
// a URL of the extended syntax ([ParseExtended]), an IPv6 literal with its
// brackets ("[::1]"), the form that is joined with a port. It is "" for a
// URL without "//", and for a file URL that names no host.
func (u URL) Host() string { return u.host.of(u.s) }

// Extended reports whether u was read by the extended syntax of
// [ParseExtended] (as the lenient reading returns every URL), or derived
// from such a URL: its host may be an IPv6 literal, and the scheme package
// relaxes the rules that later standards lifted. A URL from [Parse] or
// [ParseRef] never is.
func (u URL) Extended() bool { return u.flags&extSyntax != 0 }

// HostIsIPv6 reports whether the host is an IPv6 literal ("[::1]"), which
// only the extended syntax reads.
func (u URL) HostIsIPv6() bool { return u.flags&hostLiteral != 0 }

// RawPort returns the port as written (decimal digits, leading zeros
// kept) and whether the URL has one.
func (u URL) RawPort() (string, bool) { return u.port.of(u.s), u.flags&hasPort != 0 }

// Port returns the port number and whether the URL gives one. When it
// gives none, the number is the scheme's default port (80 for http, 21 for
// ftp: RFC 1738 section 3; see scheme.DefaultPort, which also knows the
// schemes a program registers), or 0 for a scheme without one. A port
// whose digits do not fit in 31 bits gives -1 and true: RFC 1738 puts no
// bound on the digits, but no TCP port is that large.
func (u URL) Port() (int, bool) {
	if u.flags&hasPort == 0 {
		if u.flags&hasScheme == 0 {
			return 0, false
		}
		return schemes.DefaultPort(u.RawScheme()), false
	}
	n := 0
	for _, c := range []byte(u.port.of(u.s)) {
		n = n*10 + int(c-'0')
		if n > 1<<31-1 {
			return -1, true
		}
	}
	return n, true
}

// Hostname returns the host in lower case, the form to look a name up
// with: host names are not case sensitive (RFC 1738 3.1 defers to the
// domain name system). For an IPv6 literal it is the address without its
// brackets ("::1"), as net/url's Hostname gives it; join it with a port by
// net.JoinHostPort. It does not allocate when the host is already in
// lower case. Unlike net/url's Hostname, it never has a port to strip
// (see [URL.Host]), and for a file URL naming no host it returns "", which
// RFC 1738 3.10 reads as "localhost".
func (u URL) Hostname() string {
	h := u.Host()
	if u.flags&hostLiteral != 0 {
		h = h[1 : len(h)-1]
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; 'A' <= c && c <= 'Z' {
			return strings.ToLower(h)
		}
	}
	return h
}

// Path returns the url-path and whether it is present.
//
// For a URL with "//", the url-path is what follows the "/" after the host
// and port; that "/" is not part of it (RFC 1738 section 3.1), and the path
// is absent when there is no "/". For a URL without "//", the path is the
// scheme-specific part up to any "?", and is always present. For a partial
// URL it is the path as written, leading "/" included. The search part is
// never included; see [URL.PathAndSearch] for RFC 1738's url-path with it.
func (u URL) Path() (string, bool) {
	p := u.path.of(u.s)
	if u.flags&hasAuthority != 0 && len(p) > 0 {
		p = p[1:]
	}
	return p, u.flags&hasPath != 0
}

// PathWithSlash returns the path exactly as written, including the "/"
// that separates it from the host of a URL with "//" (what a browser calls
// the pathname). It is still encoded, like every accessor's result; it is
// not net/url's RawPath.
func (u URL) PathWithSlash() string { return u.path.of(u.s) }

// PathAndSearch returns RFC 1738's url-path: everything after the "/"
// that follows the host and port, search part included, fragment
// excluded. For a URL without "//" it is the scheme-specific part.
func (u URL) PathAndSearch() string {
	start := u.path.start
	if u.flags&hasAuthority != 0 && u.flags&hasPath != 0 {
		start++
	}
	end := u.path.end
	if u.flags&hasSearch != 0 {
		end = u.search.end
	}
	return u.s[start:end]
}

// Search returns the search part (the text after "?") and whether the URL
// has one. RFC 1738 calls it the searchpart; RFC 1630 the query.
func (u URL) Search() (string, bool) { return u.search.of(u.s), u.flags&hasSearch != 0 }

// Fragment returns the fragment identifier (the text after "#") and whether
// the URL has one (RFC 1630, "Fragment-id").
func (u URL) Fragment() (string, bool) { return u.frag.of(u.s), u.flags&hasFragment != 0 }

// WithoutFragment returns the URL with its fragment identifier removed: the
// URL of the whole object. It does not allocate.
func (u URL) WithoutFragment() URL {
	if u.flags&hasFragment == 0 {
		return u
	}
	v := u
	v.s = u.s[:u.frag.start-1]
	v.flags &^= hasFragment
	v.frag = span{int32(len(v.s)), int32(len(v.s))}
	return v
}

// Span returns where component c is in the input u was parsed from, as
// the byte offsets [start, end) of its text (the text the accessor
// returns), and whether u has it. The offsets count the "URL:" prefix of
// an input that had one (see [URL.Prefixed]), as a [SyntaxError]'s Offset
// does; for a URL that was not parsed they are offsets in [URL.String].
// They come from the parse and cost nothing: no scan, no allocation.
//
// ComponentPath is the url-path without the "/" after the host, as
// [URL.Path] returns it; ComponentOpaque is the scheme-specific part as
// [URL.Opaque] returns it (always present), so its end is where a
// fragment's "#" is, or the end of the input.
//
// For a component u lacks, ok is false and start == end is where it would
// begin: the user at the start of the login, the password after the user,
// the port after the host, the path after the login, the search part
// after the path, the fragment at the end; the prefix at 0. A URL without
// "//" has no user, password, host or port, and gives -1 for them.
func (u URL) Span(c Component) (start, end int, ok bool) {
	var p span
	switch c {
	case ComponentPrefix:
		return 0, int(u.prefix), u.prefix != 0
	case ComponentScheme:
		p, ok = u.scheme, u.flags&hasScheme != 0
	case ComponentOpaque:
		p.start, p.end = 0, int32(len(u.s))
		if u.flags&hasScheme != 0 {
			p.start = u.scheme.end + 1
		}
		if u.flags&hasFragment != 0 {
			p.end = u.frag.start - 1
		}
		ok = true
	case ComponentUser, ComponentPassword, ComponentHost, ComponentPort:
		if u.flags&hasAuthority == 0 {
			return -1, -1, false
		}
		switch c {
		case ComponentUser:
			p, ok = u.user, u.flags&hasUser != 0
		case ComponentPassword:
			p, ok = u.pass, u.flags&hasPassword != 0
			if !ok {
				p = span{u.user.end, u.user.end}
			}
		case ComponentHost:
			p, ok = u.host, true
		default:
			p, ok = u.port, u.flags&hasPort != 0
		}
	case ComponentPath:
		p, ok = u.path, u.flags&hasPath != 0
		if ok && u.flags&hasAuthority != 0 {
			p.start++
		}
	case ComponentSearch:
		p, ok = u.search, u.flags&hasSearch != 0
	case ComponentFragment:
		p, ok = u.frag, u.flags&hasFragment != 0
	default:
		return 0, 0, false
	}
	return int(u.prefix + p.start), int(u.prefix + p.end), ok
}

// MarshalText implements encoding.TextMarshaler; it returns the URL's text.
func (u URL) MarshalText() ([]byte, error) { return []byte(u.s), nil }

// UnmarshalText implements encoding.TextUnmarshaler with [Parse]'s strict
// rules. An empty text gives the zero URL.
func (u *URL) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*u = URL{}
		return nil
	}
	v, err := Parse(string(text))
	if err != nil {
		return err
	}
	*u = v
	return nil
}
