package scheme

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/urlkit/urlkit"
)

// Severity ranks a security finding.
type Severity uint8

// Severities, from least to most serious.
const (
	SeverityInfo    Severity = iota // worth knowing
	SeverityWarning                 // unwise, may be intended
	SeverityDanger                  // the pattern RFC 1738 section 6 warns of
	SeverityError                   // the URL must not be used as it is
)

var severityNames = [...]string{"info", "warning", "danger", "error"}

// String returns "info", "warning", "danger" or "error".
func (s Severity) String() string {
	if int(s) < len(severityNames) {
		return severityNames[s]
	}
	return "severity(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText writes the severity's name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity's name.
func (s *Severity) UnmarshalText(b []byte) error {
	for i, n := range severityNames {
		if n == string(b) {
			*s = Severity(i)
			return nil
		}
	}
	return fmt.Errorf("scheme: unknown severity %q", b)
}

// Finding codes.
const (
	CodePort          = "port"           // a port other than the scheme's default
	CodeControl       = "control"        // an encoded control character a plan would send
	CodePassword      = "password"       // a password written in the URL
	CodeRemoteFile    = "remote-file"    // a file URL naming another host
	CodeLogin         = "login"          // a user name or password the scheme forbids
	CodeSyntax        = "syntax"         // the scheme-specific grammar is broken
	CodeReserved      = "reserved"       // a reserved scheme name with no defined access
	CodeExperimental  = "experimental"   // an x- scheme
	CodeUnknownScheme = "unknown-scheme" // a scheme the registry does not know
)

// A Finding is one security observation about a URL (RFC 1738 section 6).
type Finding struct {
	Severity  Severity         `json:"severity"`
	Code      string           `json:"code"`
	Offset    int              `json:"offset"` // byte offset in the input; -1 for the URL as a whole
	Component urlkit.Component `json:"-"`
	Message   string           `json:"message"`
}

// String returns the finding as "severity: offset N in component: message".
func (f Finding) String() string {
	if f.Offset < 0 {
		return f.Severity.String() + ": " + f.Message
	}
	return f.Severity.String() + ": offset " + strconv.Itoa(f.Offset) + " in " + f.Component.String() + ": " + f.Message
}

// Check returns the security findings for u (RFC 1738 section 6), most
// serious first within the order they were found:
//
//   - a port other than the scheme's default: a warning, and danger when
//     it is below 1024 or belongs to another protocol (a well-known one,
//     or a service of the WHATWG Fetch bad port list): the danger ones
//     are those a client warns of before connecting ([PortWarning]);
//   - an encoded control character (CR, LF, NUL...) in a part a plan would
//     decode and send on the wire: an error;
//   - a password in the URL: a warning;
//   - a file URL naming another host: a warning;
//   - a user name or password where the scheme forbids one (http): an
//     error, as is any other break of the scheme's grammar.
func Check(u urlkit.URL) []Finding {
	var out []Finding
	l := locOf(u)
	if !u.IsAbsolute() {
		return []Finding{{SeverityError, CodeSyntax, 0, urlkit.ComponentScheme, "a partial URL has no scheme to check"}}
	}
	name := u.Scheme()
	if f, ok := portFinding(u, l); ok {
		out = append(out, f)
	}
	if _, ok := u.Password(); ok {
		out = append(out, Finding{SeverityWarning, CodePassword, l.password(), urlkit.ComponentPassword,
			"the URL contains a password: the use of URLs containing passwords that should be secret is clearly unwise (RFC 1738 6)"})
	}
	s := For(u)
	if _, known := Lookup(name); !known {
		if IsExperimental(name) {
			out = append(out, Finding{SeverityInfo, CodeExperimental, l.scheme(), urlkit.ComponentScheme, fmt.Sprintf("%q is an experimental scheme, for use by mutual agreement (RFC 1738 4)", name)})
		} else {
			out = append(out, Finding{SeverityInfo, CodeUnknownScheme, l.scheme(), urlkit.ComponentScheme, fmt.Sprintf("%q is not a scheme of RFC 1738 or RFC 1630", name)})
		}
	}
	v, err := s.View(u)
	if err != nil {
		var se *urlkit.SyntaxError
		f := Finding{SeverityError, CodeSyntax, -1, urlkit.ComponentNone, err.Error()}
		if errors.As(err, &se) {
			f.Offset, f.Component, f.Message = se.Offset, se.Component, se.Reason()
			if errors.Is(err, ErrNotAllowed) && (se.Component == urlkit.ComponentUser || se.Component == urlkit.ComponentPassword) {
				f.Code = CodeLogin
			}
			if errors.Is(err, ErrControl) {
				f.Code = CodeControl
			}
		}
		return append(out, f)
	}
	if fv, ok := v.(*File); ok && !fv.Local {
		out = append(out, Finding{SeverityWarning, CodeRemoteFile, l.host(), urlkit.ComponentHost,
			fmt.Sprintf("file URL names host %q: it cannot be accessed from this machine, and following it elsewhere may have unexpected results (RFC 1630, file)", fv.Host)})
		return out
	}
	if _, ok := v.(*Reserved); ok {
		out = append(out, Finding{SeverityInfo, CodeReserved, l.scheme(), urlkit.ComponentScheme, fmt.Sprintf("%q is a reserved scheme name with no defined syntax or access method (RFC 1738 4)", name)})
		return out
	}
	seen := map[int]bool{}
	if w, ok := v.(interface{ wireParts() []wirePart }); ok {
		for _, p := range w.wireParts() {
			for i := 0; i < len(p.raw); {
				k, b := firstControl(p.raw[i:])
				if k < 0 {
					break
				}
				off := p.off + i + k
				seen[off] = true
				out = append(out, Finding{SeverityError, CodeControl, off, p.comp,
					fmt.Sprintf("%%%02X decodes to control character 0x%02X in the %s, which a client would send on the wire (RFC 1738 6)", b, b, p.what)})
				i += k + 3
			}
		}
	}
	if _, err := v.Plan(Config{}); err != nil && errors.Is(err, ErrControl) {
		var se *urlkit.SyntaxError
		f := Finding{SeverityError, CodeControl, -1, urlkit.ComponentNone, err.Error()}
		if errors.As(err, &se) {
			f.Offset, f.Component, f.Message = se.Offset, se.Component, se.Reason()
		}
		if !seen[f.Offset] {
			out = append(out, f)
		}
	}
	return out
}

// wirePart is a part a plan decodes and sends, for Check.
type wirePart struct {
	part
	what string
}

// HasErrors reports whether any finding is an error.
func HasErrors(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity == SeverityError {
			return true
		}
	}
	return false
}
