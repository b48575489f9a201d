// Package urlkit implements the Web's original addressing system exactly:
// Uniform Resource Locators as RFC 1738 (December 1994) defines them and
// Universal Resource Identifiers as RFC 1630 (June 1994) defines them.
//
// [Parse] accepts exactly what the grammars of RFC 1738 section 5 and RFC
// 1630's "fragmentaddress" allow and explains every rejection with a byte
// offset. [ParseExtended] adds the IPv6 literal hosts of RFC 3986; the
// lenient reading of real-world input, which repairs what browsers repair
// and reports each repair, is the package lenient beside this one (it needs
// IDNA's tables, and this package depends on the standard library only).
// A [URL] keeps every component exactly as written, still percent-encoded,
// and tells an absent component from an empty one; [URL.String] gives back
// the input byte for byte.
//
// Parsing does not copy: the components of a URL are substrings of the
// input, and a successful Parse allocates nothing.
//
// A URL is a value. [URL.Parts] takes it apart into encoded texts, and
// [CheckComponent] checks one such text against RFC 1738's rule for its
// component, at its own offsets. Changing a URL (setting or clearing a
// component, joining path segments, editing the search part as key=value
// pairs) and building one from [Parts] is the business of the edit
// package, which returns a new URL and keeps the other components byte
// for byte. [URL.Redacted] hides a password. docs/library.md's "Coming
// from net/url" lists the call for each net/url operation.
//
// [Resolve] expands a partial (relative) URL in the context of a base URL,
// and [Relative] does the reverse, in one of four modes: RFC 1630's rule
// as written (the default), libwww's practice, RFC 3986 and RFC 1808.
// [Mode] says what each does, and where RFC 1630's own table of examples
// disagrees with its rule: [ModeRFC1630] follows the rule, [ModeLibwww]
// the table, as CERN libwww's HTParse did.
//
// Resolution needs only the generic syntax ([ParseGeneric]): a base, a
// reference or a result that breaks just its scheme's rules (http:///s//a
// has no host) is resolved all the same, and the result comes with a
// *[ResolveWarning], which callers can tell from a failure. Relative and
// every mode's dot-segment removal take time linear in their input.
//
// # What is in this package, and what is not
//
// This package holds what a URL is, as characters: the URL value and its
// accessors (url.go), the strict parser with its vector scans (parse.go,
// simd*.go), the errors that explain a rejection (errors.go), escaping
// (escape.go), the canonical form and equivalence (equal.go), redaction
// (redact.go), the conversion to and from net/url (neturl.go), the
// components' rules for a text on its own (parts.go), and the entry points
// of resolution (resolve.go, relative.go). It depends on the standard
// library only, and on three internal packages that do too:
//
//   - internal/chars: the character classes of RFC 1738 and RFC 1630 as
//     one table, and the escape sets, shared with the scheme and text
//     packages;
//   - internal/schemes: the syntax and default port of each scheme the
//     parser must know, a table the scheme package's registry fills;
//   - internal/resolve: the four resolution modes, dot-segment removal,
//     the candidates Relative tries and each mode's test of a reference
//     with a colon, on texts already split. The modes
//     share their steps there (the merge with the context's directory,
//     the query and fragment a result takes from one input or the other),
//     while this package keeps their documentation ([Mode]), their errors
//     and warnings, and what needs the URL's insides: splitting a URL with
//     the offsets its parse found, and reading a result back without a
//     second parse when it starts with the base's login.
//
// What a URL's parts mean, scheme by scheme (an ftp URL's CWD commands, a
// gopher URL's selector), is the business of the scheme package; fetching
// a resource is the business of the access package; changing a URL is
// the edit package's; URLs in free text are the text package's. Each of
// those works through this package's exported API. The split keeps this
// package to what a reader can hold: the value, its grammar and its
// comparisons, with the editing layer and the modes' algorithms beside
// it.
package urlkit
