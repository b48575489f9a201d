package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/urlkit/urlkit"
)

// Perl URI's escape.t asserts URI::Escape's uri_escape (RFC 3986's
// unreserved set kept, every other octet encoded), uri_escape_utf8 and
// uri_unescape. The calls are read from the script itself: each call is a
// case; those with only double-quoted literal arguments and a literal
// expectation are compared, the rest (Perl's own character-class argument,
// regexp objects, exceptions, values built by Perl code) are not
// considered, with the reason.

var (
	perlCallRE = regexp.MustCompile(`uri_(escape_utf8|escape|unescape)\s*\(`)
	perlIsRE   = regexp.MustCompile(`^(is|is_deeply)\s+(?:\[\s*)?uri_(escape_utf8|escape|unescape)\("((?:[^"\\]|\\.)*)"((?:\s*,\s*"(?:[^"\\]|\\.)*")*)\)\s*\]?\s*,\s*(?:"((?:[^"\\]|\\.)*)"|\[qw\(([^)]*)\)\])\s*;`)
	perlArgRE  = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
)

// PerlEscape compares urlkit.Escape and urlkit.Unescape with the
// assertions of Perl URI's t/escape.t.
func PerlEscape(dir string) (*Suite, error) {
	const rel = "scheme-tests/perl-URI/escape.t"
	s := &Suite{
		Name:   "Perl URI::Escape (escape.t)",
		Source: "`" + rel + "` (libwww-perl URI's tests); the other side is URI::Escape.",
		Notes: "Every uri_escape, uri_escape_utf8 and uri_unescape call in the script is a case. uri_escape is compared with `urlkit.Escape(s, urlkit.ComponentNone)` (RFC 1738's unreserved characters kept), uri_escape_utf8 likewise after converting the Latin-1 literal to UTF-8, and uri_unescape with `urlkit.Unescape`. " +
			"Outputs that differ are deliberate only when both decode to the same octets and every character escaped on one side only is one RFC 1738 2.2 and RFC 3986 2.3 disagree about.",
	}
	data, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	text := string(data)
	// One statement per case: from a call to the next ";" at the end of a
	// line (multi-line statements are joined first).
	for _, loc := range perlCallRE.FindAllStringIndex(text, -1) {
		s.Total++
		start := strings.LastIndex(text[:loc[0]], "\n") + 1
		end := strings.Index(text[loc[0]:], ";\n")
		if end < 0 {
			end = len(text) - loc[0]
		}
		stmt := strings.Join(strings.Fields(text[start:loc[0]+end+1]), " ")
		m := perlIsRE.FindStringSubmatch(stmt)
		if m == nil {
			s.skip("not a literal call", "the call's arguments or expectation are not literal strings (single-quoted character classes, regexp objects, undef, chr(), a hash) or it is checked for an exception or a warning: URI::Escape features with no counterpart in RFC 1738", stmt)
			continue
		}
		fn, args := m[2], []string{unquotePerl(m[3])}
		for _, a := range perlArgRE.FindAllStringSubmatch(m[4], -1) {
			args = append(args, unquotePerl(a[1]))
		}
		var want []string
		if m[6] != "" {
			want = strings.Fields(m[6])
		} else {
			want = []string{unquotePerl(m[5])}
		}
		if fn != "unescape" && len(args) > 1 {
			s.skip("Perl character-class argument", "the second argument is Perl's own character class of the characters to escape, a URI::Escape feature with no counterpart in RFC 1738's component sets", stmt)
			continue
		}
		comparePerlEscape(s, fn, args, want, stmt)
	}
	return s, nil
}

func unquotePerl(s string) string {
	return strings.NewReplacer(`\\`, `\`, `\"`, `"`).Replace(s)
}

func latin1ToUTF8(s string) string {
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
	}
	return string(r)
}

func comparePerlEscape(s *Suite, fn string, args, want []string, stmt string) {
	var got []string
	switch fn {
	case "escape":
		got = []string{urlkit.Escape(args[0], urlkit.ComponentNone)}
	case "escape_utf8":
		got = []string{urlkit.Escape(latin1ToUTF8(args[0]), urlkit.ComponentNone)}
	case "unescape":
		for _, a := range args {
			v, err := urlkit.Unescape(a)
			if err != nil {
				s.wrong(stmt, fmt.Sprintf("urlkit.Unescape(%q): %v", a, err))
				return
			}
			got = append(got, v)
		}
	}
	if strings.Join(got, "\x00") == strings.Join(want, "\x00") {
		s.agree(stmt, nil)
		return
	}
	if fn != "unescape" && len(got) == 1 && len(want) == 1 && escapeSetsDiffer(got[0], want[0]) {
		s.different("RFC 1738 and RFC 3986 unreserved sets", "RFC 1738 2.2 keeps \"$-_.+!*'(),\" unencoded and requires \"~\" encoded (unsafe); RFC 3986 2.3, which URI::Escape follows, keeps \"~\" and encodes \"!*'()\"; both texts decode to the same octets", stmt)
		return
	}
	s.wrong(stmt, fmt.Sprintf("urlkit %q, URI::Escape %q", got, want))
}

// escapeSetsDiffer: a and b decode to the same octets, and each character
// written literally on one side and escaped on the other is one the RFC
// 1738 and RFC 3986 unreserved sets disagree about.
func escapeSetsDiffer(a, b string) bool {
	da, err1 := urlkit.Unescape(a)
	db, err2 := urlkit.Unescape(b)
	if err1 != nil || err2 != nil || da != db {
		return false
	}
	const disputed = "~!*'()$+,"
	for i, j := 0, 0; i < len(a) && j < len(b); {
		ea, eb := a[i] == '%', b[j] == '%'
		switch {
		case ea == eb:
			if ea {
				i += 3
				j += 3
			} else {
				i++
				j++
			}
		case ea:
			if strings.IndexByte(disputed, b[j]) < 0 {
				return false
			}
			i += 3
			j++
		default:
			if strings.IndexByte(disputed, a[i]) < 0 {
				return false
			}
			i++
			j += 3
		}
	}
	return true
}
