package main

// Suggestions for a mistyped command or flag name: the known names
// nearest to it by edit distance, as git and cargo offer them ("did you
// mean parse?").

import "strings"

// editDistance is the optimal string alignment distance between a and b:
// the fewest insertions, deletions, substitutions of one byte and swaps of
// two adjacent bytes that turn a into b ("pasre" is one swap from
// "parse").
func editDistance(a, b string) int {
	// Three rows of the table: i-2, i-1 and i.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// suggest returns the candidates nearest to word, in the order given: those
// at the smallest edit distance, when that distance is small for word's
// length (none for one letter, one for up to four bytes, two for longer words), and the
// candidates that word begins or that begin with word (an abbreviation,
// "--max" for "--max-size"), when no candidate is that near. The
// comparison ignores case.
func suggest(word string, candidates []string) []string {
	w := strings.ToLower(word)
	limit := 1 // one letter: only its other case
	switch {
	case len(w) <= 1:
		limit = 0
	case len(w) > 4:
		limit = 2
	}
	best, out := limit+1, []string(nil)
	for _, c := range candidates {
		d := editDistance(w, strings.ToLower(c))
		switch {
		case d > limit:
		case d < best:
			best, out = d, []string{c}
		case d == best:
			out = append(out, c)
		}
	}
	if out != nil || len(w) < 2 {
		return out
	}
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if strings.HasPrefix(lc, w) || strings.HasPrefix(w, lc) && len(lc) >= 3 {
			out = append(out, c)
		}
	}
	return out
}

// didYouMean returns "; did you mean X?" (or "X or Y", "X, Y or Z") for
// the suggestions, each written by spell, or "" when there are none.
func didYouMean(sugg []string, spell func(string) string) string {
	if len(sugg) == 0 {
		return ""
	}
	if len(sugg) > 4 {
		sugg = sugg[:4]
	}
	parts := make([]string, len(sugg))
	for i, s := range sugg {
		parts[i] = spell(s)
	}
	s := parts[len(parts)-1]
	if len(parts) > 1 {
		s = strings.Join(parts[:len(parts)-1], ", ") + " or " + s
	}
	return "; did you mean " + s + "?"
}
