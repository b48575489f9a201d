package urlkit

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/urlkit/urlkit/internal/chars"
)

// ParseLenient parses real-world input the way browsers take it, and
// repairs it into a URL that [Parse] accepts. Every repair is reported as a
// [Warning] with the offset of the repaired bytes in s:
//
//   - leading and trailing spaces and control characters are removed;
//   - spaces, control characters, national characters (such as "{", "|",
//     "~"), "<", ">", <">, non-ASCII bytes and a "#" after the first are
//     percent-encoded, as RFC 1738 section 2.2 says they must be;
//   - a "%" that does not start an escape is encoded as "%25";
//   - a ":" with no port after it is removed;
//   - a search part written straight after the host ("http://host?q") gets
//     the "/" that RFC 1738 section 3.1 puts before the url-path.
//
// What cannot be repaired without guessing, such as an invalid host name or
// a missing scheme, is still an error; its offset is in s. The result
// always parses strictly: ParseLenient returns what Parse returns for the
// repaired text, and when s needs no repair, exactly what Parse(s) returns.
func ParseLenient(s string) (URL, []Warning, error) {
	if u, err := Parse(s); err == nil {
		return u, nil, nil
	}
	var warns []Warning
	warn := func(off int, c Component, format string, args ...any) {
		warns = append(warns, Warning{Offset: off, Component: c, Reason: fmt.Sprintf(format, args...)})
	}

	// Trim what surrounds the URL.
	start, end := 0, len(s)
	for start < end && chars.Table[s[start]]&(chars.Space|chars.Control) != 0 {
		start++
	}
	for end > start && chars.Table[s[end-1]]&(chars.Space|chars.Control) != 0 {
		end--
	}
	if start > 0 {
		warn(0, ComponentNone, "removed %d leading space or control bytes", start)
	}
	if end < len(s) {
		warn(end, ComponentNone, "removed %d trailing space or control bytes", len(s)-end)
	}

	// Encode what must be encoded. orig maps each output byte to the input
	// offset it came from, so that errors can be reported against s.
	var b strings.Builder
	b.Grow(end - start + 16)
	orig := make([]int, 0, end-start+16)
	put := func(from int, bytes ...byte) {
		for _, c := range bytes {
			b.WriteByte(c)
			orig = append(orig, from)
		}
	}
	inFragment := false
	for i := start; i < end; i++ {
		c := s[i]
		switch {
		case c == '#' && !inFragment:
			inFragment = true
			put(i, c)
		case c == '%':
			if chars.IsEscape(s[:end], i) {
				put(i, s[i], s[i+1], s[i+2])
				i += 2
				continue
			}
			warn(i, ComponentNone, `"%%" not followed by two hex digits: encoded as %%25`)
			put(i, '%', '2', '5')
		case okX[c]:
			put(i, c)
		default:
			what := "unsafe character"
			switch {
			case chars.Table[c]&chars.Space != 0:
				what = "space"
			case chars.Table[c]&chars.Control != 0:
				what = "control character"
			case chars.Table[c]&chars.NonASCII != 0:
				what = "non-ASCII byte"
			case c == '#':
				what = `second "#"`
			}
			warn(i, ComponentNone, "%s 0x%02X encoded as %%%02X", what, c, c)
			put(i, '%', chars.UpperHex[c>>4], chars.UpperHex[c&15])
		}
	}
	text := b.String()

	for tries := 0; ; tries++ {
		u, err := Parse(text)
		if err == nil {
			return u, fixComponents(u, warns, orig), nil
		}
		var se *SyntaxError
		if !errors.As(err, &se) || tries > 4 {
			return URL{}, warns, mapError(err, s, orig)
		}
		off := se.Offset
		switch {
		case errors.Is(err, ErrEmptyPort):
			warn(origAt(orig, off, len(s)), ComponentPort, `removed ":" with no port after it`)
			text = text[:off] + text[off+1:]
			orig = append(orig[:off:off], orig[off+1:]...)
		case errors.Is(err, ErrBadHost) && text[off] == '?' && !strings.Contains(text[:off], "/?"):
			warn(origAt(orig, off, len(s)), ComponentHost, `inserted "/" before the search part`)
			text = text[:off] + "/" + text[off:]
			orig = append(orig[:off:off], append([]int{orig[off]}, orig[off:]...)...)
		default:
			return URL{}, warns, mapError(err, s, orig)
		}
	}
}

// origAt maps an offset in the repaired text back to the input.
func origAt(orig []int, off, n int) int {
	if off < len(orig) {
		return orig[off]
	}
	return n
}

// mapError rewrites a SyntaxError about the repaired text so that it speaks
// of the original input.
func mapError(err error, input string, orig []int) error {
	var se *SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	c := *se
	c.Input = input
	c.Offset = origAt(orig, se.Offset, len(input))
	return &c
}

// fixComponents fills in the component of each warning from where its
// bytes ended up in the parsed URL.
func fixComponents(u URL, warns []Warning, orig []int) []Warning {
	for i := range warns {
		if warns[i].Component != ComponentNone {
			continue
		}
		// orig never decreases, so the first output byte that came from
		// the warning's offset is found by binary search.
		j := sort.SearchInts(orig, warns[i].Offset)
		if j < len(orig) && orig[j] == warns[i].Offset {
			warns[i].Component = u.componentAt(j + int(u.prefix))
		}
	}
	return warns
}

// componentAt returns the component that byte off of the input (prefix
// included) lies in.
func (u URL) componentAt(off int) Component {
	off -= int(u.prefix)
	in := func(p span) bool { return int(p.start) <= off && off < int(p.end) }
	switch {
	case off < 0:
		return ComponentPrefix
	case u.flags&hasFragment != 0 && off >= int(u.frag.start)-1:
		return ComponentFragment
	case u.flags&hasScheme != 0 && off <= int(u.scheme.end):
		return ComponentScheme
	case u.flags&hasUser != 0 && in(u.user):
		return ComponentUser
	case u.flags&hasPassword != 0 && in(u.pass):
		return ComponentPassword
	case u.flags&hasSearch != 0 && off >= int(u.search.start)-1:
		return ComponentSearch
	case u.flags&hasAuthority != 0 && in(u.host):
		return ComponentHost
	case u.flags&hasPort != 0 && in(u.port):
		return ComponentPort
	case u.flags&hasAuthority != 0:
		return ComponentPath
	}
	return ComponentOpaque
}
