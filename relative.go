package urlkit

import (
	"sort"
	"strings"
)

// Relative returns the shortest partial form of target that [Resolve]
// expands back to target in the context of base under the same mode: the
// role of libwww's HTRelative. The forms tried, shortest first, are
//
//   - the empty reference and "#fragment", when target is base's document;
//   - "?search#fragment";
//   - a path relative to base's directory, with the fewest "../";
//   - every suffix of target that starts a path element or a run of
//     slashes: "/path" when scheme and host are the same, "//host/path"
//     when only the scheme is, and in [ModeRFC1630] a deeper suffix such as
//     "/g" that the slash-count rule places below a "//" section;
//   - target itself, which is what remains when the schemes differ.
//
// Each candidate is checked by resolving it, so the result always
// resolves to target. When none does (in [ModeRFC3986] a target with dot
// segments cannot be the result of any resolution), the error is a
// *[ResolveError] wrapping [ErrUnreachable].
func Relative(base, target URL, mode Mode) (URL, error) {
	if !mode.valid() {
		return URL{}, &ResolveError{Op: "relative", Mode: mode, Base: base.s, Ref: target.s, Err: ErrUnknownMode}
	}
	t := target.s
	T := splitRef(&target)
	var cands []string
	add := func(c string) { cands = append(cands, c) }

	add("")
	if T.hasFrag {
		add(t[T.hierEnd+len(T.query)+boolInt(T.hasQuery):])
	}
	if T.hasQuery {
		add(t[T.hierEnd:])
	}

	// Paths relative to base's directory and its ancestors.
	B := splitRef(&base)
	ctx := base.s[:B.hierEnd]
	sp := ctx[B.schemeEnd:]
	dir := ""
	if len(sp) >= 2 && sp[0] == '/' && sp[1] == '/' && strings.IndexByte(sp[2:], '/') < 0 {
		dir = ctx + "/"
	} else {
		dir = ctx[:B.schemeEnd+strings.LastIndexByte(sp, '/')+1]
	}
	up := ""
	for k := 0; k < 256 && len(dir) > B.schemeEnd; k++ {
		if strings.HasPrefix(t, dir) && len(t[:T.hierEnd]) >= len(dir) {
			rest := t[len(dir):]
			switch {
			case rest == "" || rest[0] == '?' || rest[0] == '#':
				if k == 0 {
					add("." + rest)
					add("./" + rest)
				} else {
					add(up[:len(up)-1] + rest)
					add(up + rest)
				}
			default:
				add(up + rest)
				if k == 0 {
					add("./" + rest)
				}
			}
		}
		// Go up one level: drop the last element of dir.
		i := strings.LastIndexByte(dir[:len(dir)-1], '/')
		if i < B.schemeEnd {
			break
		}
		dir = dir[:i+1]
		up += "../"
	}

	// Suffixes of target at element starts and slash runs.
	for i := T.schemeEnd; i < T.hierEnd; i++ {
		if i == T.schemeEnd || t[i-1] == '/' || (t[i] == '/' && t[i-1] != '/') {
			add(t[i:])
		}
	}
	// RFC 1808 parameters: ";x" keeps the base's path.
	if i := strings.IndexByte(t[strings.LastIndexByte(t[:T.hierEnd], '/')+1:T.hierEnd], ';'); i >= 0 {
		add(t[strings.LastIndexByte(t[:T.hierEnd], '/')+1+i:])
	}
	add(t)

	sort.SliceStable(cands, func(i, j int) bool { return len(cands[i]) < len(cands[j]) })
	for i, c := range cands {
		if i > 0 && c == cands[i-1] {
			continue
		}
		ref, err := ParseRef(c)
		if err != nil || (c != t && ref.IsAbsolute()) {
			continue
		}
		r, err := Resolve(base, ref, mode)
		if err == nil && r.s == t {
			return ref, nil
		}
	}
	return URL{}, &ResolveError{Op: "relative", Mode: mode, Base: base.s, Ref: target.s, Part: "target", Err: ErrUnreachable}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
