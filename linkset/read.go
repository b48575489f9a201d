package linkset

import (
	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/lenient"
	"github.com/urlkit/urlkit/scheme"
)

// Read reads text as a URL by the generic syntax alone (RFC 1738 section
// 5): strictly with urlkit.Parse, or with opt.Lenient by the lenient
// reading, lenient.Parse, whose warns list the repairs. It is [Parse]
// without the scheme's rules, for a caller that applies them its own way:
// `urlkit check` lists them as findings, `urlkit plan` and `urlkit get`
// build the scheme's plan, which applies them, and `urlkit parse` reports
// them with the scheme's typed view.
//
// With opt.Lenient, Read reads every text leniently, as each command's
// --lenient promises: a URL as written comes back unchanged but of the
// extended syntax, whose scheme rules are relaxed where later standards
// lifted them (a login in an http URL, RFC 3986 3.2.1). [Parse] instead
// reads a line leniently only when it fails strictly, so that a link set's
// Valid records are exactly what RFC 1738 accepts.
func Read(text string, opt Options) (urlkit.URL, []urlkit.Warning, error) {
	if opt.Lenient {
		return lenient.Parse(text)
	}
	u, err := urlkit.Parse(text)
	return u, nil, err
}

// ReadRef is [Read] for a URL or a partial form (RFC 1630's "Partial
// (relative) form"), by urlkit.ParseRef or lenient.ParseRef: how the
// operands of resolution and editing are read.
func ReadRef(text string, opt Options) (urlkit.URL, []urlkit.Warning, error) {
	if opt.Lenient {
		return lenient.ParseRef(text)
	}
	u, err := urlkit.ParseRef(text)
	return u, nil, err
}

// Repair tells what the lenient reading makes of a text the strict
// reading refused, for an error message to suggest it: the URL (a URL or,
// with partial, a partial form too) and its repairs, with ok true when the
// lenient reading repairs text into a URL that also meets its scheme's
// rules (scheme.Validate). ok is false when the lenient reading fails as
// well, has nothing to repair, or gives a URL its scheme refuses: then the
// strict error has nothing to suggest.
func Repair(text string, partial bool) (u urlkit.URL, warns []urlkit.Warning, ok bool) {
	read := Read
	if partial {
		read = ReadRef
	}
	u, warns, err := read(text, Options{Lenient: true})
	if err != nil || len(warns) == 0 || !suggestible(u) {
		return urlkit.URL{}, nil, false
	}
	return u, warns, true
}

// Repairs is [Repair] for a caller that needs only how many repairs the
// lenient reading makes, not their texts (lenient.Repairs): `urlkit parse`
// suggests a repair on most lines it rejects, and writing the repairs'
// texts, which no one reads there, was the most of its cost.
func Repairs(text string, partial bool) (u urlkit.URL, n int, ok bool) {
	return repairs(text, partial, lenient.Repairs)
}

// RepairsRejected is [Repairs] for a text that the strict parser itself
// (urlkit.Parse, or ParseRef with partial) rejected, not one it read and a
// scheme's rules refused: lenient.RepairsRejected then skips a reading
// that cannot succeed.
func RepairsRejected(text string, partial bool) (u urlkit.URL, n int, ok bool) {
	return repairs(text, partial, lenient.RepairsRejected)
}

func repairs(text string, partial bool, count func(string, bool) (urlkit.URL, int, error)) (u urlkit.URL, n int, ok bool) {
	u, n, err := count(text, partial)
	if err != nil || n == 0 || !suggestible(u) {
		return urlkit.URL{}, 0, false
	}
	return u, n, true
}

// suggestible reports whether a repaired URL is worth suggesting: a
// partial form, or a URL that meets its scheme's rules.
func suggestible(u urlkit.URL) bool { return !u.IsAbsolute() || scheme.Validate(u) == nil }
