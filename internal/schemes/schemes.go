// Package schemes is the part of the scheme registry the core parser
// needs: each known scheme's syntax (which of RFC 1738's two forms of
// scheme-specific part it uses) and default port. The built-in schemes are
// a fixed table; the scheme package adds the others with [Add] when a
// program registers one, so the parser and the registry always agree.
// Programs use the scheme package (scheme.Register, scheme.Lookup).
package schemes

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/urlkit/urlkit/internal/chars"
)

// Syntax says which of RFC 1738's two forms of scheme-specific part a
// scheme uses: schemepart = *xchar | ip-schemepart.
type Syntax uint8

const (
	// Generic is the syntax of a scheme urlkit does not know (RFC 1738's
	// otherurl): a scheme-specific part that starts with "//" is parsed
	// as an ip-schemepart when it is one, and as *xchar otherwise.
	Generic Syntax = iota
	// Opaque is *xchar: the scheme never uses "//".
	Opaque
	// IP is the common Internet scheme syntax of RFC 1738 section 3.1.
	IP
	// IPOptionalHost is IP with the host allowed to be empty (fileurl).
	IPOptionalHost
)

// Info is what the parser and the canonicaliser know about a scheme.
type Info struct {
	Name        string // lower-case scheme name
	Syntax      Syntax
	DefaultPort int    // 0 when the scheme has none
	Source      string // the document that defines the scheme
	// Reserved is what the scheme's document says about reserved
	// characters; the zero value says nothing (the generic set applies).
	Reserved Reserved
}

// Reserved says which characters a scheme reserves in its url-path and
// search part (for a scheme without "//", in its scheme-specific part).
// RFC 1738 2.2: only ";", "/", "?", ":", "@", "=" and "&" may be reserved
// within a scheme, each scheme says which it does, and encoding a
// character changes a URL's meaning only when the scheme reserves it. The
// canonicaliser decodes an escape of any other character that needs no
// encoding, there. A scheme whose document says nothing (Stated false)
// keeps RFC 1630's generic reserved set, "!" and "*" included.
type Reserved struct {
	Stated bool   // the scheme's document says which characters it reserves
	Path   string // reserved in the url-path (or scheme-specific part)
	Search string // reserved in the search part after "?"
	// Param is reserved, besides Path, after a ";" of a path segment
	// when Path reserves ";" (a parameter, not data: ftp's ";type=").
	Param  string
	Source string // the line that says so
}

// The reserved sets of the schemes whose document states them. RFC 1738
// 5's grammar agrees: fsegment, selector, article and hsegment admit, as
// data, the reserved characters each section leaves unreserved.
var (
	httpReserved = Reserved{true, "/;?", "/;?+", "",
		`RFC 1738 3.3: "Within the <path> and <searchpart> components, "/", ";", "?" are reserved"; RFC 1630: "Within the query string, the plus sign is reserved as shorthand notation for a space"`}
	ftpReserved = Reserved{true, "/;", "/;", "=",
		`RFC 1738 3.2.2: "Within a name or CWD component, the characters "/" and ";" are reserved and must be encoded" (a "?" is part of the name: fsegment admits it); after the ";", "=" belongs to ";type="`}
	gopherReserved = Reserved{true, "", "", "",
		`RFC 1738 3.4.1: "Within the <gopher-path>, no characters are reserved" (a "?" is part of the selector)`}
	mailtoReserved = Reserved{true, "", "", "",
		`RFC 1738 3.5: "Within mailto URLs, there are no reserved characters"`}
	newsReserved = Reserved{true, "@*", "@*", "",
		`RFC 1738 3.6: "A message identifier may be distinguished from a news group name by the presence of the commercial at "@" character. No additional characters are reserved within the components of a news URL"; "news:*" refers to "all available news groups" (3.6, RFC 1630)`}
)

// Builtin are the schemes of RFC 1738 and RFC 1630, the names RFC 1738
// section 4 reserves, and https, which the Web added later.
var Builtin = [...]Info{
	{"http", IP, 80, "RFC 1738 3.3", httpReserved},
	{"ftp", IP, 21, "RFC 1738 3.2", ftpReserved},
	{"gopher", IP, 70, "RFC 1738 3.4", gopherReserved},
	{"mailto", Opaque, 0, "RFC 1738 3.5", mailtoReserved},
	{"news", Opaque, 0, "RFC 1738 3.6", newsReserved},
	{"nntp", IP, 119, "RFC 1738 3.7", Reserved{}},
	{"telnet", IP, 23, "RFC 1738 3.8", Reserved{}},
	{"wais", IP, 210, "RFC 1738 3.9", Reserved{}},
	{"file", IPOptionalHost, 0, "RFC 1738 3.10", Reserved{}},
	{"prospero", IP, 1525, "RFC 1738 3.11", Reserved{}},
	{"mid", Opaque, 0, "RFC 1630; reserved by RFC 1738 4", Reserved{}},
	{"cid", Opaque, 0, "RFC 1630; reserved by RFC 1738 4", Reserved{}},
	{"urn", Opaque, 0, "RFC 1737 (reserved)", Reserved{}},
	{"tn3270", IP, 23, "RFC 1630; reserved by RFC 1738 4", Reserved{}},
	{"rlogin", IP, 513, "RFC 1630", Reserved{}},
	{"afs", IP, 0, "RFC 1630 (historical); reserved by RFC 1738 4", Reserved{}},
	{"nfs", IP, 2049, "reserved by RFC 1738 4", Reserved{}},
	{"mailserver", Opaque, 0, "reserved by RFC 1738 4", Reserved{}},
	{"z39.50", Generic, 0, "reserved by RFC 1738 4", Reserved{}},
	{"https", IP, 443, "RFC 2818 (after RFC 1738)", httpReserved},
}

// added holds the schemes registered at run time, copied on write so that
// readers take no lock.
var (
	added   atomic.Pointer[map[string]Info]
	addedMu sync.Mutex
)

// Add records a scheme registered at run time. It reports false, changing
// nothing, when the name is built in or was added before; the check and the
// write happen under one lock, so of two concurrent calls for one name
// exactly one succeeds. info.Name must be a valid scheme name in lower
// case (the caller checks).
func Add(info Info) bool {
	addedMu.Lock()
	defer addedMu.Unlock()
	if BuiltinIndex(info.Name) >= 0 {
		return false
	}
	m := map[string]Info{}
	if old := added.Load(); old != nil {
		if _, dup := (*old)[info.Name]; dup {
			return false
		}
		for k, v := range *old {
			m[k] = v
		}
	}
	m[info.Name] = info
	added.Store(&m)
	return true
}

// Lookup returns what is known of the scheme name, in any case: a built-in
// scheme or one added with Add.
func Lookup(name string) (Info, bool) {
	if i := BuiltinIndex(name); i >= 0 {
		return Builtin[i], true
	}
	if m := added.Load(); m != nil {
		if info, ok := (*m)[Lower(name)]; ok {
			return info, true
		}
	}
	return Info{}, false
}

// Added returns the schemes added with Add, in no particular order.
func Added() []Info {
	var out []Info
	if m := added.Load(); m != nil {
		for _, v := range *m {
			out = append(out, v)
		}
	}
	return out
}

// SyntaxOf returns the syntax of a scheme name in any case, without
// allocating: Generic for a name nobody registered.
func SyntaxOf(name string) Syntax {
	if i := BuiltinIndex(name); i >= 0 {
		return Builtin[i].Syntax
	}
	if m := added.Load(); m != nil {
		for k, v := range *m {
			if strings.EqualFold(k, name) {
				return v.Syntax
			}
		}
	}
	return Generic
}

// DefaultPort returns the default port of a scheme, or 0 if it has none or
// is unknown.
func DefaultPort(name string) int {
	info, _ := Lookup(name)
	return info.DefaultPort
}

// byFirstLetter indexes Builtin by the first letter of their name.
var byFirstLetter = func() (t [26][]uint8) {
	for i, k := range Builtin {
		t[k.Name[0]-'a'] = append(t[k.Name[0]-'a'], uint8(i))
	}
	return t
}()

// BuiltinIndex returns the index in Builtin of the scheme name, in any
// case, or -1.
func BuiltinIndex(name string) int {
	if len(name) == 0 {
		return -1
	}
	c := name[0] | 0x20
	if c < 'a' || c > 'z' {
		return -1
	}
	for _, i := range byFirstLetter[c-'a'] {
		k := Builtin[i].Name
		if len(k) != len(name) {
			continue
		}
		j := 1
		for j < len(k) && (name[j] == k[j] || name[j]|0x20 == k[j] && 'a' <= k[j] && k[j] <= 'z') {
			j++
		}
		if j == len(k) {
			return int(i)
		}
	}
	return -1
}

// Lower returns s in lower case, without allocating when s is already in
// lower case or names a built-in scheme.
func Lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			if k := BuiltinIndex(s); k >= 0 {
				return Builtin[k].Name
			}
			return strings.ToLower(s)
		}
	}
	return s
}

// ValidName reports whether s is a scheme name: 1*[ lowalpha | digit |
// "+" | "-" | "." ] (RFC 1738 section 5), in any case.
func ValidName(s string) bool {
	for i := 0; i < len(s); i++ {
		if chars.Table[s[i]]&chars.SchemeChar == 0 {
			return false
		}
	}
	return len(s) > 0
}
