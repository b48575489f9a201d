package urlkit

import (
	"fmt"

	"github.com/urlkit/urlkit/internal/chars"
)

// Parts holds the components of a URL as encoded text, each exactly as the
// URL's accessor of that component returns it. [URL.Parts] takes a URL
// apart, and the edit package's Build puts one together:
// edit.Build(u.Parts()) gives u back byte for byte.
//
// A component is present when its text is not empty or its Has flag is
// set, so the zero Parts is the empty partial URL and a program building a
// URL sets only the texts it wants. The flags matter only for components
// that are present and empty, such as the user of ftp://@host.com/ (RFC
// 1738 3.1) or the search part of http://host.com/? .
type Parts struct {
	Scheme string // "" for a partial URL
	// Authority says the URL has "//" and a login even when User, Host
	// and Port are empty, as file:///etc/motd has (RFC 1738 3.10).
	Authority   bool
	User        string
	HasUser     bool
	Password    string
	HasPassword bool
	Host        string
	Port        string // decimal digits; a present port is never empty
	// Path is the url-path. For a URL with "//" it is what follows the
	// "/" after the host and port, that "/" not included (RFC 1738 3.1),
	// and HasPath says whether the "/" is there. For other URLs it is the
	// scheme-specific part up to any "?", and is always present.
	Path        string
	HasPath     bool
	Search      string
	HasSearch   bool
	Fragment    string
	HasFragment bool
	// Extended says the URL is of the extended syntax of
	// [ParseExtended]: the host may be an IPv6 literal ("[::1]"), and the
	// URL built reports [URL.Extended]. [URL.Parts] sets it for a URL of
	// that syntax.
	Extended bool
}

// Parts returns the components of u as encoded text.
func (u URL) Parts() Parts {
	p := Parts{Scheme: u.RawScheme(), Authority: u.HasAuthority(), Host: u.Host(), Extended: u.Extended()}
	p.User, p.HasUser = u.User()
	p.Password, p.HasPassword = u.Password()
	p.Port, _ = u.RawPort()
	p.Path, p.HasPath = u.Path()
	p.Search, p.HasSearch = u.Search()
	p.Fragment, p.HasFragment = u.Fragment()
	return p
}

// CheckComponent reports whether text is allowed, as encoded text, in
// component c on its own, by the rule of RFC 1738 section 5 for that
// component:
//
//   - [ComponentScheme]: lowalpha | digit | "+" | "-" | "." (and capitals,
//     which interpreters read as lower case);
//   - [ComponentUser], [ComponentPassword]: uchar | ";" | "?" | "&" | "="
//     and escapes, so ":", "@" and "/" must be encoded (section 3.1);
//   - [ComponentHost]: a hostname or hostnumber (section 3.1);
//   - [ComponentPort]: digits;
//   - [ComponentPath]: a url-path, xchar but "?", and escapes;
//   - [ComponentSearch], [ComponentFragment], [ComponentOpaque]: xchar and
//     escapes.
//
// The error is a *[SyntaxError] whose Input is text and whose Offset is
// in it, as [Parse] would explain the same byte. The empty text passes:
// whether a component may be empty, or must be there at all, depends on
// the rest of the URL, which [ParseRef] checks. It is what the edit
// package checks each part with before it puts a URL together.
func CheckComponent(c Component, text string) error { return checkComponent(c, text, false) }

// CheckComponentExtended is [CheckComponent] by the extended syntax of
// [ParseExtended]: a host may also be an IPv6 literal ("[2001:db8::1]",
// RFC 3986 3.2.2), without a zone identifier.
func CheckComponentExtended(c Component, text string) error { return checkComponent(c, text, true) }

func checkComponent(c Component, text string, ext bool) error {
	bad := len(text)
	switch c {
	case ComponentScheme:
		for i := 0; i < len(text); i++ {
			if chars.Table[text[i]]&chars.SchemeChar == 0 {
				return failure{off: int32(i), comp: c, code: fSchemeChar}.err(text)
			}
		}
	case ComponentUser, ComponentPassword:
		bad = scanLogin(text, 0, len(text))
	case ComponentHost:
		if text != "" && text[0] == '[' {
			if !ext {
				return failure{comp: c, code: fHost, why: whyHostChar}.err(text)
			}
			end, f := ipLiteral(text, 0, len(text))
			if f.code == fOK && end < len(text) {
				f = failure{off: int32(end), comp: ComponentHost, code: fHost, why: whyLiteralAfter}
			}
			if f.code != fOK {
				return f.err(text)
			}
			return nil
		}
		if text != "" {
			if off, w, k := checkHost(text, 0, len(text)); off >= 0 {
				return failure{off: int32(off), n: int32(k), comp: c, code: fHost, why: w}.err(text)
			}
		}
	case ComponentPort:
		for i := 0; i < len(text); i++ {
			if chars.Table[text[i]]&chars.Digit == 0 {
				return failure{off: int32(i), comp: c, code: fBadPort, why: whyBadPort}.err(text)
			}
		}
	case ComponentPath:
		bad = skip(text, 0, cPath)
	case ComponentSearch, ComponentFragment, ComponentOpaque:
		bad = skip(text, 0, cX)
	default:
		return fmt.Errorf("urlkit: CheckComponent: the %s has no rule of its own", c)
	}
	if bad < len(text) {
		return charError(text, bad, c)
	}
	return nil
}
