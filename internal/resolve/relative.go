package resolve

import (
	"sort"
	"strings"
)

// Candidates appends to cands the partial forms of the target T that
// urlkit.Relative tries in the context of the base B under mode, shortest
// first (stably), and returns the extended slice. The same text may appear
// twice in a row. The forms are
//
//   - the empty reference and "#fragment", for when T is B's document;
//   - "?search#fragment";
//   - a path relative to B's directory, with the fewest "../" (and the
//     next few ancestors, for when a mode's ".." cannot climb there);
//   - "/path" and "//host/path" (T's suffixes after its authority and
//     after its scheme), and in [RFC1630] each suffix that the slash-count
//     rule joins to the right part of B, such as "/g" placed below a "//"
//     section;
//   - ";params..." after T's last "/" (RFC 1808 keeps the base's path);
//   - T itself.
//
// None is checked: the caller resolves each and keeps the first that
// gives T. Finding them takes one pass over each text, plus in [RFC1630]
// one per slash-run length the rule can use.
func Candidates(cands []string, B, T *Parts, mode Mode) []string {
	t := T.Text
	cands = append(cands, "")
	if T.Frag.Has {
		cands = append(cands, t[T.FragmentFrom:])
	}
	if T.Query.Has {
		cands = append(cands, t[T.HierEnd:])
	}

	// Paths relative to B's directory and its nearest ancestors that are
	// prefixes of T's hierarchical part.
	ctx := B.Text[:B.HierEnd]
	th := t[:T.HierEnd]
	dir, slash := contextDir(B)
	if slash {
		dir += "/"
	}
	if len(dir) > B.SchemeEnd {
		l := commonPrefix(dir, th)
		// The deepest ancestor dir[:j] (ending in "/", j-1 >= SchemeEnd)
		// with j <= l, and the number of levels up to it.
		j := len(dir)
		k := 0
		for j > l {
			i := strings.LastIndexByte(dir[:j-1], '/')
			if i < B.SchemeEnd {
				j = -1
				break
			}
			j = i + 1
			k++
		}
		for tries := 0; j > B.SchemeEnd && tries < 4; tries++ {
			up := strings.Repeat("../", k)
			rest := t[j:]
			switch {
			case rest == "" || rest[0] == '?' || rest[0] == '#':
				if k == 0 {
					cands = append(cands, "."+rest, "./"+rest)
				} else {
					cands = append(cands, up[:len(up)-1]+rest, up+rest)
				}
			default:
				cands = append(cands, up+rest)
				if k == 0 {
					cands = append(cands, "./"+rest)
				}
			}
			i := strings.LastIndexByte(dir[:j-1], '/')
			if i < B.SchemeEnd {
				break
			}
			j = i + 1
			k++
		}
	}

	// "/path" and "//host/path", or the scheme-specific part.
	if T.HasAuth {
		cands = append(cands, t[T.SchemeEnd+2+len(T.Auth):])
	}
	cands = append(cands, t[T.SchemeEnd:])
	if mode == RFC1630 {
		cands = addRunSuffixes(cands, ctx, B.SchemeEnd, t, th)
	}
	// RFC 1808 parameters: ";x" keeps the base's path.
	last := strings.LastIndexByte(th, '/') + 1
	if i := strings.IndexByte(t[last:T.HierEnd], ';'); i >= 0 {
		cands = append(cands, t[last+i:])
	}
	cands = append(cands, t)

	sort.SliceStable(cands, func(i, j int) bool { return len(cands[i]) < len(cands[j]) })
	return cands
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

// addRunSuffixes adds the [RFC1630] references that start with slashes and
// resolve to t: for each run length k that the rule finds in the context
// ctx (a run of exactly k slashes with no longer run to its right, the
// leftmost such), the suffix of t after the kept part of ctx, when t
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
