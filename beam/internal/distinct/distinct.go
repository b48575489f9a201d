// Package distinct makes link-set input for the pipeline's scale runs and
// benchmarks from a corpus of real lines (the ada-url datasets): either the
// corpus repeated, so that whatever the size it holds the corpus's distinct
// URLs only, or the corpus with a path segment of its own inserted in every
// line, so that every line with an authority is a different canonical URL,
// as the lines of a crawl's link set mostly are.
package distinct

import (
	"strconv"
	"strings"
)

// Line appends to dst the line base made different by n: a path segment
// "/d" followed by n in base 36 inserted where base's authority ends (after
// "//host", before its path, query or fragment). Two different n give two
// different lines, and, for a base that is a URL with an authority, two
// URLs with different canonical forms: the segment is lower-case letters and
// digits, which canonical form (RFC 1630 equivalence) leaves as they are,
// and it is the whole first segment of the path (canonical form removes no
// dot segments). A line without
// "//" after its scheme (mailto:, news:, a line that is no URL) is
// appended as it is: such lines keep their share of repeats, which the
// scale table states.
func Line(dst []byte, base string, n uint64) []byte {
	i := strings.Index(base, "://")
	if i < 0 || !isScheme(base[:i]) {
		return append(dst, base...)
	}
	j := i + 3
	if k := strings.IndexAny(base[j:], "/?#"); k >= 0 {
		j += k
	} else {
		j = len(base)
	}
	dst = append(dst, base[:j]...)
	dst = append(dst, "/d"...)
	dst = strconv.AppendUint(dst, n, 36)
	return append(dst, base[j:]...)
}

// isScheme reports whether s reads as a scheme name (letters, digits, "+",
// "-" and "." after a first letter), possibly after a byte order mark or
// white space that the line reading trims.
func isScheme(s string) bool {
	s = strings.TrimLeft(strings.TrimPrefix(strings.TrimSpace(s), "\ufeff"), " \t")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}
