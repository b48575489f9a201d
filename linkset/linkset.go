// Package linkset holds the steps urlkit applies to each line of a large
// link set: parse strictly (or repair leniently), read the scheme's view,
// bring the URL to canonical form, and name the class of a rejection. Each
// step is a small function of one line, with no state, so that the command
// line and the Apache Beam pipeline (the separate module beam/) run the
// same code and cannot disagree.
//
// The aggregation steps a pipeline performs over many records (distinct
// canonical URLs, counts per scheme, per host and per rejection kind) are
// keyed by the fields of [Record]; [DedupKey] gives the fixed-size key a
// distributed dedup shuffles instead of the whole URL.
package linkset

import (
	"crypto/sha256"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

// Status says what became of one input line.
type Status uint8

const (
	// Valid: the line is a URL as written (RFC 1738 section 5, with the
	// RFC 1630 fragment).
	Valid Status = iota
	// Repaired: the line was not a URL, but the lenient reading (package
	// lenient) repaired it into one (only with [Options.Lenient]).
	Repaired
	// Rejected: the line is not a URL, or breaks its scheme's own rules
	// (as `urlkit parse` and `urlkit canon` reject it), and was not
	// repaired.
	Rejected
)

// String returns "valid", "repaired" or "rejected".
func (s Status) String() string {
	switch s {
	case Valid:
		return "valid"
	case Repaired:
		return "repaired"
	}
	return "rejected"
}

// Options changes how a line is read.
type Options struct {
	// Lenient reads a line that is not a URL with the lenient reading,
	// lenient.Parse (characters that must be encoded, a "%" that starts
	// no escape, international host names by IDNA, IPv6 literals, host
	// numbers in browsers' forms, a login in an http URL), instead of
	// rejecting it at once.
	Lenient bool
}

// A Record is what urlkit knows about one line of a link set.
type Record struct {
	Input  string // the line as given
	Status Status
	// URL is the URL as parsed: the input itself when Valid, the repaired
	// text when Repaired, "" when Rejected.
	URL string
	// Canonical is the URL's canonical form (urlkit.Canonical): two
	// records are the same resource by RFC 1630 equivalence exactly when
	// their Canonical fields are equal.
	Canonical string
	// Scheme is the scheme name in lower case; Host the host in lower case,
	// "" for a URL without one (mailto:, news:...).
	Scheme, Host string
	// Repairs counts the repairs of a Repaired record.
	Repairs int
	// Kind, Offset and Reason describe a rejection: the kind of problem
	// (see [Kind]), the byte offset in Input, and the explanation.
	Kind   string
	Offset int
	Reason string
}

// Line applies the command line's rule for input lines: white space
// around a URL is not part of it, and a blank line is no input at all. It
// returns the trimmed line, and false for a blank one. White space is
// Unicode's (strings.TrimSpace: U+00A0 and U+0085 included); a line whose
// first and last bytes are ASCII and not white space, the common case, is
// returned at once.
func Line(s string) (string, bool) {
	if n := len(s); n > 0 && s[0] > ' ' && s[0] < utf8.RuneSelf && s[n-1] > ' ' && s[n-1] < utf8.RuneSelf {
		return s, true
	}
	s = strings.TrimSpace(s)
	return s, s != ""
}

// Parse reads one line as a URL, the way every urlkit command that takes
// URLs reads its inputs (`urlkit canon`, `urlkit equal`) and the link-set
// pipeline reads its lines: by the generic syntax of RFC 1738 section 5,
// then by the scheme's own rules (its typed view, as package scheme reads
// it: an http URL has no user name, a mailto URL holds an RFC 822
// address...). With opt.Lenient, a line that is not a URL as written is
// read by lenient.Parse, which repairs what it can; warns lists the
// repairs, and is nil exactly when the line is a URL as written (a line
// read leniently has a non-nil warns, empty when the lenient reading had
// nothing to report).
//
// A partial form (RFC 1630's "Partial (relative) form": "../a", "/a",
// "//host/a") is not a URL and is rejected with urlkit.Parse's reason:
// its meaning, and so its canonical form and what it equals, depends on a
// base it does not carry (under RFC 1630, "a/../b" and "b" name the same
// URL in every context, while their texts differ); `urlkit resolve` gives
// the URL first.
//
// The line is first read with urlkit.ParseRef, as a URL or a partial form,
// so that for a line such as `"http://a/` the error names the real fault
// (the unsafe `"` at offset 0) where urlkit.Parse would find no scheme.
func Parse(line string, opt Options) (u urlkit.URL, warns []urlkit.Warning, err error) {
	u, err = urlkit.ParseRef(line)
	if err == nil && !u.IsAbsolute() {
		u, err = urlkit.Parse(line)
	}
	if err == nil {
		err = scheme.Validate(u)
	}
	if err != nil && opt.Lenient {
		// Not a URL as written, by the generic syntax or by its scheme's
		// rules (a login in an https URL): the lenient reading, whose
		// result must meet its scheme's rules as it reads them.
		var lerr error
		u, warns, lerr = Read(line, opt)
		if lerr == nil {
			lerr = scheme.Validate(u)
		}
		if lerr != nil {
			return urlkit.URL{}, nil, lerr
		}
		if warns == nil {
			warns = []urlkit.Warning{} // read leniently, with nothing to report
		}
		err = nil
	}
	if err != nil {
		return urlkit.URL{}, nil, err
	}
	return u, warns, nil
}

// Classify reads one line with [Parse] and describes what became of it. It
// never fails: a line that is not a URL gives a Rejected record that says
// why.
func Classify(line string, opt Options) Record {
	r := Record{Input: line}
	u, warns, err := Parse(line, opt)
	if err != nil {
		r.Status = Rejected
		r.Kind = Kind(err)
		r.Reason = err.Error()
		var se *urlkit.SyntaxError
		if errors.As(err, &se) {
			r.Offset = se.Offset
			r.Reason = se.Reason()
		}
		return r
	}
	if warns != nil {
		r.Status = Repaired
		r.Repairs = len(warns)
	}
	r.URL = u.String()
	c := urlkit.Canonical(u)
	r.Canonical = c.String()
	r.Scheme = c.Scheme()
	if c.HasAuthority() {
		r.Host = c.Hostname()
	}
	return r
}

// A kindName names the class of the errors that wrap err.
type kindName struct {
	err  error
	name string
}

// kindIn returns the name of the first entry of table whose error err
// wraps.
func kindIn(table []kindName, err error) (string, bool) {
	// The common shape, a syntax error wrapping one of the sentinels
	// itself, found by comparing rather than by errors.Is down the chain
	// for every entry: the same answer, since such a sentinel wraps
	// nothing and matches no other.
	if se, ok := err.(*urlkit.SyntaxError); ok && se.Err != nil {
		for _, k := range table {
			if se.Err == k.err {
				if leaf(k.err) {
					return k.name, true
				}
				break
			}
		}
	}
	for _, k := range table {
		if errors.Is(err, k.err) {
			return k.name, true
		}
	}
	return "", false
}

// leaf reports whether err is an error that errors.Is can only match by
// equality: it wraps nothing and has no Is method of its own.
func leaf(err error) bool {
	switch err.(type) {
	case interface{ Unwrap() error }, interface{ Unwrap() []error }, interface{ Is(error) bool }:
		return false
	}
	return err != nil
}

// kinds names the class of each of the core's sentinel errors, in the
// order Kind tests them.
var kinds = []kindName{
	{urlkit.ErrEmpty, "empty"},
	{urlkit.ErrMissingScheme, "missing-scheme"},
	{urlkit.ErrBadScheme, "bad-scheme"},
	{urlkit.ErrBadEscape, "bad-escape"},
	{urlkit.ErrUnsafeChar, "unsafe-char"},
	{urlkit.ErrReservedChar, "reserved-char"},
	{urlkit.ErrBadChar, "bad-char"},
	{urlkit.ErrMissingSlashes, "missing-slashes"},
	{urlkit.ErrMissingHost, "missing-host"},
	{urlkit.ErrBadHost, "bad-host"},
	{urlkit.ErrBadPort, "bad-port"},
	{urlkit.ErrEmptyPort, "empty-port"},
	// The scheme's own rules (package scheme).
	{scheme.ErrControl, "control"},
	{scheme.ErrPortRange, "port-range"},
	{scheme.ErrNotAllowed, "not-allowed"},
	{scheme.ErrMissing, "missing-part"},
	{scheme.ErrBadType, "bad-type"},
	{scheme.ErrBadGroup, "bad-group"},
	{scheme.ErrBadArticle, "bad-article"},
	{scheme.ErrBadAddress, "bad-address"},
	{scheme.ErrBadPath, "bad-path"},
}

// Kind names the class of a parse error, for counting rejections: by the
// core's sentinel errors "empty", "missing-scheme", "bad-scheme",
// "bad-escape", "unsafe-char", "reserved-char", "bad-char",
// "missing-slashes", "missing-host", "bad-host", "bad-port", "empty-port";
// by the scheme layer's "control", "port-range", "not-allowed",
// "missing-part", "bad-type", "bad-group", "bad-article", "bad-address",
// "bad-path"; or "other" for an error that wraps none of them.
func Kind(err error) string {
	if name, ok := kindIn(kinds, err); ok {
		return name
	}
	return "other"
}

// Kinds returns every name Kind can return, in a fixed order.
func Kinds() []string {
	out := make([]string, 0, len(kinds)+1)
	for _, k := range kinds {
		out = append(out, k.name)
	}
	return append(out, "other")
}

// DedupKey returns a 16-byte key for a canonical URL: the first half of its
// SHA-256 digest. A distributed dedup groups by this key rather than by the
// URL itself, so every key in the shuffle has the same small size however
// long the URLs are; with 10^10 distinct URLs the chance that two share a
// key is about 10^-19.
func DedupKey(canonical string) string {
	sum := sha256.Sum256([]byte(canonical))
	return string(sum[:16])
}

// Field quotes s for one column of a tab-separated line: it is returned as
// it is when it holds no control byte (tab and newline included), no
// backslash, no double quote and no invalid UTF-8; otherwise as a Go
// double-quoted string (strconv.Quote), so that every output line is one
// record and no input byte is lost.
func Field(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c == '\\' || c == '"' {
			return strconv.Quote(s)
		}
	}
	if !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	return s
}

// RejectedLine formats a rejected record as one tab-separated line:
// input, kind, offset, reason.
func RejectedLine(r Record) string {
	return string(AppendRejectedLine(nil, r, Field(r.Reason)))
}

// AppendRejectedLine appends RejectedLine(r) to dst (without a line
// ending), given reason, which must be Field(r.Reason): a caller that
// writes many rejected lines sees the same few reasons over and over, and
// may keep them as Field wrote them.
func AppendRejectedLine(dst []byte, r Record, reason string) []byte {
	dst = append(dst, Field(r.Input)...)
	dst = append(dst, '\t')
	dst = append(dst, r.Kind...)
	dst = append(dst, '\t')
	dst = strconv.AppendInt(dst, int64(r.Offset), 10)
	dst = append(dst, '\t')
	return append(dst, reason...)
}
