package urlkit

import "github.com/urlkit/urlkit/internal/schemes"

// What the parser needs to know about schemes: the syntax of each, and the
// default port Canonical drops. The table is shared with the scheme
// package, which is where programs register schemes (scheme.Register).

// schemeSyntax returns the syntax of a scheme name in any case, without
// allocating.
func schemeSyntax(name string) schemes.Syntax { return schemes.SyntaxOf(name) }

// defaultPort returns the default port of a scheme, or 0.
func defaultPort(name string) int { return schemes.DefaultPort(name) }

// lowerScheme returns s in lower case, without allocating when s is already
// in lower case or names a scheme urlkit knows.
func lowerScheme(s string) string { return schemes.Lower(s) }
