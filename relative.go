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
//   - a path relative to base's directory, with the fewest "../" (and the
//     next few ancestors, for when a mode's ".." cannot climb there);
//   - "/path" and "//host/path" (the suffixes of target after its
//     authority and after its scheme), and in [ModeRFC1630] each suffix
//     that the slash-count rule joins to the right part of base, such as
//     "/g" placed below a "//" section;
//   - target itself, which is what remains when the schemes differ.
//
// Each candidate is checked by resolving it, so the result always
// resolves to target. base and target need only be generic URLs (see
// [ParseGeneric]); a candidate whose resolution comes with a
// *[ResolveWarning] counts when its text is target's. When none does (in [ModeRFC3986] a target with dot
// segments cannot be the result of any resolution), the error is a
// *[ResolveError] wrapping [ErrUnreachable].
//
// Relative takes time linear in the length of base and target: the
// candidates are a fixed number, found with one pass over each text, plus
// in [ModeRFC1630] one per slash-run length that the rule can use, each of
// which is checked against target before it is resolved.
func Relative(base, target URL, mode Mode) (URL, error) {
	if !mode.valid() {
		return URL{}, &ResolveError{Op: "relative", Mode: mode, Base: base.s, Ref: target.s, Err: ErrUnknownMode}
	}
	t := target.s
	T := splitRef(&target)
	var arr [24]string
	cands := arr[:0]
	add := func(c string) { cands = append(cands, c) }

	add("")
	if T.hasFrag {
		add(t[T.hierEnd+len(T.query)+boolInt(T.hasQuery):])
	}
	if T.hasQuery {
		add(t[T.hierEnd:])
	}

	// Paths relative to base's directory and its nearest ancestors that
	// are prefixes of target's hierarchical part.
	B := splitRef(&base)
	ctx := base.s[:B.hierEnd]
	th := t[:T.hierEnd]
	sp := ctx[B.schemeEnd:]
	dir := ""
	if len(sp) >= 2 && sp[0] == '/' && sp[1] == '/' && strings.IndexByte(sp[2:], '/') < 0 {
		dir = ctx + "/"
	} else {
		dir = ctx[:B.schemeEnd+strings.LastIndexByte(sp, '/')+1]
	}
	if len(dir) > B.schemeEnd {
		l := commonPrefix(dir, th)
		// The deepest ancestor dir[:j] (ending in "/", j-1 >= schemeEnd)
		// with j <= l, and the number of levels up to it.
		j := len(dir)
		k := 0
		for j > l {
			i := strings.LastIndexByte(dir[:j-1], '/')
			if i < B.schemeEnd {
				j = -1
				break
			}
			j = i + 1
			k++
		}
		for tries := 0; j > B.schemeEnd && tries < 4; tries++ {
			up := strings.Repeat("../", k)
			rest := t[j:]
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
			i := strings.LastIndexByte(dir[:j-1], '/')
			if i < B.schemeEnd {
				break
			}
			j = i + 1
			k++
		}
	}

	// "/path" and "//host/path", or the scheme-specific part.
	if T.hasAuth {
		add(t[T.schemeEnd+2+len(T.auth):])
	}
	add(t[T.schemeEnd:])
	if mode == ModeRFC1630 {
		cands = addRunSuffixes(cands, ctx, B.schemeEnd, t, th)
	}
	// RFC 1808 parameters: ";x" keeps the base's path.
	if i := strings.IndexByte(t[strings.LastIndexByte(th, '/')+1:T.hierEnd], ';'); i >= 0 {
		add(t[strings.LastIndexByte(th, '/')+1+i:])
	}
	add(t)

	sort.SliceStable(cands, func(i, j int) bool { return len(cands[i]) < len(cands[j]) })
	for i, c := range cands {
		if i > 0 && c == cands[i-1] {
			continue
		}
		ref, err := parseRefAs(c, (base.flags|target.flags)&extSyntax)
		if err != nil || (c != t && ref.IsAbsolute()) {
			continue
		}
		r, err := Resolve(base, ref, mode)
		if (err == nil || IsResolveWarning(err)) && r.s == t {
			return ref, nil
		}
	}
	return URL{}, &ResolveError{Op: "relative", Mode: mode, Base: base.s, Ref: target.s, Part: "target", Err: ErrUnreachable}
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// addRunSuffixes adds the [ModeRFC1630] references that start with slashes
// and resolve to t: for each run length k that the rule finds in the
// context ctx (a run of exactly k slashes with no longer run to its right,
// the leftmost such), the suffix of t after the kept part of ctx, when t
// starts with that part and the suffix starts with exactly k slashes; and
// the suffix after the whole of ctx, when ctx has no run for its length.
// One pass from the right finds every usable run.
func addRunSuffixes(cands []string, ctx string, from int, t, th string) []string {
	l := commonPrefix(ctx, th)
	var arr [16]struct{ k, at int }
	runs := arr[:0] // usable runs, by length; at is the leftmost start
	maxRight := 0
	for i := len(ctx) - 1; i >= from; {
		if ctx[i] != '/' {
			i--
			continue
		}
		j := i
		for j > from && ctx[j-1] == '/' {
			j--
		}
		if k := i - j + 1; k >= maxRight {
			// k never decreases in this pass: only the last entry can
			// have the same length.
			maxRight = k
			if n := len(runs); n > 0 && runs[n-1].k == k {
				runs[n-1].at = j
			} else {
				runs = append(runs, struct{ k, at int }{k, j})
			}
		}
		i = j - 1
	}
	for _, r := range runs {
		if r.at <= l && r.at < len(th) && leadingSlashes(th[r.at:]) == r.k {
			cands = append(cands, t[r.at:])
		}
	}
	if l == len(ctx) && len(th) > len(ctx) {
		k := leadingSlashes(th[len(ctx):])
		used := false
		for _, r := range runs {
			used = used || r.k == k
		}
		if k > 0 && !used {
			cands = append(cands, t[len(ctx):])
		}
	}
	return cands
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
