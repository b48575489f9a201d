package rfcbnf

import "fmt"

// A Result is the recognizer's verdict on an input.
type Result struct {
	OK bool
	// Dead is, when the input is rejected, the offset of the first byte
	// that no string of the rule's language has after the bytes before it
	// (the input's longest prefix of a valid string ends there), or the
	// input's length when the input is such a prefix but ends too soon.
	Dead int
	// Rule is the innermost named rule in force at Dead: the one started
	// last among those that could read a byte there ("hsegment" for a
	// byte refused in an http path, "port" after "host:").
	Rule string
	// Rules are all the named rules that could read a byte at Dead.
	Rules []string
}

type item struct {
	prod   int32
	dot    int32
	origin int32
}

// Match runs the recognizer of rule over input (an Earley parser, so any
// rule of the grammar, ambiguous or not, is recognized as written).
func (g *Grammar) Match(rule, input string) Result {
	start, ok := g.ids[rule]
	if !ok {
		panic(fmt.Sprintf("rfcbnf: no rule %q", rule))
	}
	n := len(input)
	sets := make([][]item, n+1)
	seen := make([]map[item]bool, n+1)
	add := func(i int, it item) {
		if seen[i] == nil {
			seen[i] = map[item]bool{}
		}
		if !seen[i][it] {
			seen[i][it] = true
			sets[i] = append(sets[i], it)
		}
	}
	for _, p := range g.nts[start].prods {
		add(0, item{p, 0, 0})
	}
	for i := 0; i <= n; i++ {
		for k := 0; k < len(sets[i]); k++ {
			it := sets[i][k]
			rhs := g.prods[it.prod].rhs
			if int(it.dot) == len(rhs) {
				lhs := g.prods[it.prod].lhs
				for _, w := range sets[it.origin] {
					r := g.prods[w.prod].rhs
					if int(w.dot) < len(r) && r[w.dot] == lhs {
						add(i, item{w.prod, w.dot + 1, w.origin})
					}
				}
				continue
			}
			s := rhs[it.dot]
			if s < 0 {
				if i < n && g.sets[-1-s].has(input[i]) {
					add(i+1, item{it.prod, it.dot + 1, it.origin})
				}
				continue
			}
			for _, p := range g.nts[s].prods {
				add(i, item{p, 0, int32(i)})
			}
			if g.nullable[s] {
				add(i, item{it.prod, it.dot + 1, it.origin})
			}
		}
		if i < n && len(sets[i+1]) == 0 {
			return g.dead(sets[i], i)
		}
	}
	for _, it := range sets[n] {
		if it.origin == 0 && g.prods[it.prod].lhs == start && int(it.dot) == len(g.prods[it.prod].rhs) {
			return Result{OK: true, Dead: -1}
		}
	}
	return g.dead(sets[n], n)
}

// dead names the rules in force at offset i from the items of its set that
// wait for a byte.
func (g *Grammar) dead(set []item, i int) Result {
	res := Result{Dead: i}
	origin := map[string]int32{}
	for _, it := range set {
		rhs := g.prods[it.prod].rhs
		if int(it.dot) < len(rhs) && rhs[it.dot] < 0 {
			name := g.nts[g.prods[it.prod].lhs].owner
			if o, ok := origin[name]; !ok || it.origin > o {
				origin[name] = it.origin
			}
		}
	}
	// The items' own origins are those of their (possibly unnamed)
	// nonterminals; a named rule's start is the latest origin among its
	// items, so the rule started last is the innermost.
	best := int32(-1)
	for name, o := range origin {
		res.Rules = append(res.Rules, name)
		if o > best {
			best = o
		}
	}
	sortStrings(res.Rules)
	var cands []string
	for _, name := range res.Rules {
		if origin[name] == best {
			cands = append(cands, name)
		}
	}
	// Of the rules started there, the one that reaches none of the others.
	for _, a := range cands {
		inner := true
		for _, b := range cands {
			if a != b && g.reach[a][b] {
				inner = false
				break
			}
		}
		if inner {
			res.Rule = a
			break
		}
	}
	return res
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
