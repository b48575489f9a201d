package resolve

import "bytes"

// Dots simplifies the "." and ".." segments of the path p in place, the
// way mode does when it resolves a partial form (urlkit.RemoveDotSegments
// documents each), and returns the new length. The result is never longer
// than p. An unknown mode leaves p as it is.
func Dots(p []byte, mode Mode) int {
	switch mode {
	case RFC1630:
		return dots1630(p)
	case Libwww:
		return dotsLibwww(p)
	case RFC1808:
		return dotsKeep(p)
	case RFC3986:
		return dots3986(p)
	}
	return len(p)
}

// dots3986 runs RFC 3986 5.2.4 on p in place and returns the length
// of the output. The output never outgrows the input, so the output
// buffer is p[:w] with w <= r, the start of the remaining input.
func dots3986(p []byte) int {
	r := firstDotSegment(p)
	if r < 0 {
		return len(p)
	}
	// Before r the algorithm only moves segments to the output unchanged.
	w, n := r, len(p)
	for r < n {
		in := p[r:]
		switch {
		case len(in) >= 3 && in[0] == '.' && in[1] == '.' && in[2] == '/': // A
			r += 3
		case len(in) >= 2 && in[0] == '.' && in[1] == '/': // A
			r += 2
		case len(in) >= 3 && in[0] == '/' && in[1] == '.' && in[2] == '/': // B
			r += 2
		case len(in) == 2 && in[0] == '/' && in[1] == '.': // B: "/." becomes "/"
			r++
			p[r] = '/'
		case len(in) >= 4 && in[0] == '/' && in[1] == '.' && in[2] == '.' && in[3] == '/': // C
			r += 3
			w = popSegment(p, w)
		case len(in) == 3 && in[0] == '/' && in[1] == '.' && in[2] == '.': // C: "/.." becomes "/"
			r += 2
			p[r] = '/'
			w = popSegment(p, w)
		case len(in) == 1 && in[0] == '.', len(in) == 2 && in[0] == '.' && in[1] == '.': // D
			r = n
		default: // E
			e := r + 1
			for e < n && p[e] != '/' {
				e++
			}
			if w != r {
				copy(p[w:], p[r:e])
			}
			w += e - r
			r = e
		}
	}
	return w
}

// firstDotSegment returns where the first "." or ".." segment of p starts
// (the index of the "/" before it, or 0 for a first segment), or -1 when
// p has none. Most paths have none, and then no dot-segment algorithm
// changes them.
func firstDotSegment(p []byte) int {
	for i := 0; i < len(p); {
		j := bytes.IndexByte(p[i:], '.')
		if j < 0 {
			return -1
		}
		j += i
		if j == 0 || p[j-1] == '/' {
			e := j + 1
			if e < len(p) && p[e] == '.' {
				e++
			}
			if e == len(p) || p[e] == '/' {
				if j == 0 {
					return 0
				}
				return j - 1
			}
		}
		i = j + 1
	}
	return -1
}

// popSegment removes the last segment and its preceding "/" from the
// output p[:w].
func popSegment(p []byte, w int) int {
	for i := w - 1; i >= 0; i-- {
		if p[i] == '/' {
			return i
		}
	}
	return 0
}

// dotsKeep is RFC 1808 section 4 step 6 (b to e) in place.
func dotsKeep(p []byte) int { return dotsSeg(p, false) }

// dotsLibwww is dotsKeep, except that a segment directly after
// "//" (an empty segment) is never cancelled by "..": HTParse's
// HTSimplify kept "//xxx/..", taking the element after "//" as the start
// of a section.
func dotsLibwww(p []byte) int { return dotsSeg(p, true) }

// dotsSeg is RFC 1808 section 4 step 6 (b to e) in place; with
// sections, a segment that follows an empty one is never popped.
func dotsSeg(p []byte, sections bool) int {
	n := len(p)
	lead := 0
	if n > 0 && p[0] == '/' {
		lead = 1
	}
	// The output p[lead:w] is a sequence of segments each followed by "/";
	// only the last segment of the input, if kept, has no "/" after it.
	r, w := lead, lead
	for {
		e := r
		for e < n && p[e] != '/' {
			e++
		}
		last := e == n
		switch seg := p[r:e]; {
		case len(seg) == 1 && seg[0] == '.':
			// Removed; a trailing "." leaves the directory.
		case len(seg) == 2 && seg[0] == '.' && seg[1] == '.' && w > lead && !topIsDotDot(p, lead, w) &&
			!(sections && afterEmpty(p, topStart(p, lead, w))):
			w = topStart(p, lead, w)
		default:
			w += copy(p[w:], seg)
			if !last {
				p[w] = '/'
				w++
			}
		}
		if last {
			return w
		}
		r = e + 1
	}
}

// topStart returns where the last segment of the output p[lead:w] starts;
// the output ends with "/".
func topStart(p []byte, lead, w int) int {
	for i := w - 2; i >= lead; i-- {
		if p[i] == '/' {
			return i + 1
		}
	}
	return lead
}

// afterEmpty reports whether the output segment starting at t directly
// follows an empty segment, that is a "//".
func afterEmpty(p []byte, t int) bool { return t >= 2 && p[t-1] == '/' && p[t-2] == '/' }

func topIsDotDot(p []byte, lead, w int) bool {
	t := topStart(p, lead, w)
	return w-1-t == 2 && p[t] == '.' && p[t+1] == '.'
}

// dots1630 applies RFC 1630's simplification to p in place, leftmost
// first, until nothing changes, and returns the new length. It works in
// one pass over p, in time linear in len(p): the output p[:w] is kept as
// a stack of tokens, path elements and maximal runs of slashes, and every
// removal the rule allows ends at the token just added, so it is made on
// the top of the stack when that token arrives:
//
//   - "/." where the "/" is a run of exactly one slash (a "." after a
//     longer run starts a section): the run and the "." go;
//   - "xxx/.." where xxx is an element other than "." and "..", preceded
//     by the start or by a run of exactly one slash, and separated from
//     ".." by exactly one slash: xxx, that slash and ".." go, and so does
//     one slash of the run after "..", if any (the rule removes
//     "xxx/../"), which then joins the run before xxx.
//
// TestRemoveDots1630Exhaustive checks it against the rule applied by
// rescanning from the start after each removal, on every path of up to 12
// bytes over "a", "." and "/".
func dots1630(p []byte) int {
	if firstDotSegment(p) < 0 {
		return len(p)
	}
	var arr [64]int32
	starts := arr[:0] // start in p of each token of the output p[:w]
	w, n := 0, len(p)
	eat := false // the last removal took "xxx/..": drop one slash of the next run
	isRun := func(t int) bool { return p[starts[t]] == '/' }
	tokLen := func(t int) int {
		if t+1 < len(starts) {
			return int(starts[t+1] - starts[t])
		}
		return w - int(starts[t])
	}
	for r := 0; r < n; {
		e := r + 1
		if p[r] == '/' {
			for e < n && p[e] == '/' {
				e++
			}
			k := e - r
			if eat {
				k--
			}
			eat = false
			if k > 0 {
				if len(starts) == 0 || !isRun(len(starts)-1) {
					starts = append(starts, int32(w))
				}
				for ; k > 0; k-- {
					p[w] = '/'
					w++
				}
			}
			r = e
			continue
		}
		for e < n && p[e] != '/' {
			e++
		}
		eat = false
		seg := p[r:e]
		t := len(starts)
		switch {
		case len(seg) == 1 && seg[0] == '.' && t >= 1 && isRun(t-1) && tokLen(t-1) == 1:
			// "/." with a single slash: drop the slash, and the ".".
			w = int(starts[t-1])
			starts = starts[:t-1]
		case len(seg) == 2 && seg[0] == '.' && seg[1] == '.' && t >= 2 && isRun(t-1) && tokLen(t-1) == 1 &&
			!isRun(t-2) && !isDots(p[starts[t-2]:starts[t-1]]) &&
			(t == 2 || tokLen(t-3) == 1):
			// "xxx/..": xxx at the start or after a single slash.
			w = int(starts[t-2])
			starts = starts[:t-2]
			eat = true
		default:
			starts = append(starts, int32(w))
			w += copy(p[w:], seg)
		}
		r = e
	}
	return w
}

// isDots reports whether an element is "." or "..".
func isDots(seg []byte) bool {
	return len(seg) == 1 && seg[0] == '.' || len(seg) == 2 && seg[0] == '.' && seg[1] == '.'
}
