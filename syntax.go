package urlkit

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
	// SyntaxGeneric is the syntax of a scheme urlkit does not know
	// (RFC 1738's otherurl): a scheme-specific part that starts with "//"
	// is parsed as an ip-schemepart when it is one, and as *xchar
	// otherwise.
	SyntaxGeneric Syntax = iota
	// SyntaxOpaque is *xchar: the scheme never uses "//" (mailto, news,
	// mid, cid, urn).
	SyntaxOpaque
	// SyntaxIP is the common Internet scheme syntax of RFC 1738 section
	// 3.1: "//" login ["/" url-path], with a host required.
	SyntaxIP
	// SyntaxIPOptionalHost is SyntaxIP with the host allowed to be empty,
	// as RFC 1738 section 5's fileurl allows.
	SyntaxIPOptionalHost
)

// SchemeInfo is what the parser and the canonicaliser need to know about a
// scheme: its syntax and its default port. The meaning of a scheme's parts
// lives in the scheme package.
type SchemeInfo struct {
	Name        string // lower-case scheme name
	Syntax      Syntax
	DefaultPort int    // 0 when the scheme has none
	Source      string // the document that defines the scheme, e.g. "RFC 1738 3.3"
}

// builtinSchemes are the schemes of RFC 1738 and RFC 1630, the names RFC
// 1738 section 4 reserves, and https, which the Web added later.
var builtinSchemes = [...]SchemeInfo{
	{"http", SyntaxIP, 80, "RFC 1738 3.3"},
	{"ftp", SyntaxIP, 21, "RFC 1738 3.2"},
	{"gopher", SyntaxIP, 70, "RFC 1738 3.4"},
	{"mailto", SyntaxOpaque, 0, "RFC 1738 3.5"},
	{"news", SyntaxOpaque, 0, "RFC 1738 3.6"},
	{"nntp", SyntaxIP, 119, "RFC 1738 3.7"},
	{"telnet", SyntaxIP, 23, "RFC 1738 3.8"},
	{"wais", SyntaxIP, 210, "RFC 1738 3.9"},
	{"file", SyntaxIPOptionalHost, 0, "RFC 1738 3.10"},
	{"prospero", SyntaxIP, 1525, "RFC 1738 3.11"},
	{"mid", SyntaxOpaque, 0, "RFC 1630; reserved by RFC 1738 4"},
	{"cid", SyntaxOpaque, 0, "RFC 1630; reserved by RFC 1738 4"},
	{"urn", SyntaxOpaque, 0, "RFC 1737 (reserved)"},
	{"tn3270", SyntaxIP, 23, "RFC 1630; reserved by RFC 1738 4"},
	{"rlogin", SyntaxIP, 513, "RFC 1630"},
	{"afs", SyntaxIP, 0, "RFC 1630 (historical); reserved by RFC 1738 4"},
	{"nfs", SyntaxIP, 2049, "reserved by RFC 1738 4"},
	{"mailserver", SyntaxOpaque, 0, "reserved by RFC 1738 4"},
	{"z39.50", SyntaxGeneric, 0, "reserved by RFC 1738 4"},
	{"https", SyntaxIP, 443, "RFC 2818 (after RFC 1738)"},
}

// registered holds the schemes added with RegisterScheme, copied on write.
var (
	registered   atomic.Pointer[map[string]SchemeInfo]
	registeredMu sync.Mutex
)

// RegisterScheme tells the parser the syntax and default port of a scheme
// it does not know, as RFC 1738 section 4 lets new schemes be registered.
// It is meant to be called from an init function. Registering a name twice,
// or a name urlkit already knows, panics, like database/sql.Register.
func RegisterScheme(info SchemeInfo) {
	name := strings.ToLower(info.Name)
	if _, ok := LookupScheme(name); ok {
		panic("urlkit: RegisterScheme called twice for scheme " + name)
	}
	if name == "" || !validSchemeName(name) {
		panic("urlkit: RegisterScheme: invalid scheme name " + `"` + info.Name + `"`)
	}
	info.Name = name
	registeredMu.Lock()
	defer registeredMu.Unlock()
	m := map[string]SchemeInfo{}
	if old := registered.Load(); old != nil {
		for k, v := range *old {
			m[k] = v
		}
	}
	m[name] = info
	registered.Store(&m)
}

// LookupScheme returns what urlkit knows of the scheme name (in any case):
// the built-in schemes and those added with [RegisterScheme].
func LookupScheme(name string) (SchemeInfo, bool) {
	for i := range builtinSchemes {
		if len(builtinSchemes[i].Name) == len(name) && strings.EqualFold(builtinSchemes[i].Name, name) {
			return builtinSchemes[i], true
		}
	}
	if m := registered.Load(); m != nil {
		if info, ok := (*m)[lowerScheme(name)]; ok {
			return info, true
		}
	}
	return SchemeInfo{Name: lowerScheme(name)}, false
}

// Schemes returns every scheme urlkit knows, built-in ones first.
func Schemes() []SchemeInfo {
	out := append([]SchemeInfo(nil), builtinSchemes[:]...)
	if m := registered.Load(); m != nil {
		for _, v := range *m {
			out = append(out, v)
		}
	}
	return out
}

// DefaultPort returns the default port of a scheme, or 0 if it has none or
// is unknown.
func DefaultPort(scheme string) int {
	info, _ := LookupScheme(scheme)
	return info.DefaultPort
}

// IsExperimental reports whether a scheme name is an experimental one, which
// RFC 1738 section 4 says begin with "x-".
func IsExperimental(scheme string) bool {
	return len(scheme) > 2 && (scheme[0] == 'x' || scheme[0] == 'X') && scheme[1] == '-'
}

func validSchemeName(s string) bool {
	for i := 0; i < len(s); i++ {
		if chars.Table[s[i]]&chars.SchemeChar == 0 {
			return false
		}
	}
	return len(s) > 0
}
