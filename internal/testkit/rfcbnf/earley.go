package rfcbnf

import (
	"fmt"
	"strings"
)

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
	// byte refused in an http path, "port" after "host:"). Rules that read
	// a fixed few bytes (uchar, escape) are left out: the rule that reads
	// them is named.
	Rule string
	// Rules are all the named rules that could read a byte at Dead.
	Rules []string
}

type item struct {
	prod   int32
	dot    int32
	origin int32
}

// itemSet is one Earley set: its items in order, a hash of them for
// de-duplication, and, once complete, its items by the symbol they wait for.
type itemSet struct {
	items []item
	wait  map[int32][]item
}

// dedup is an open-addressing set of items, cleared in O(1) by a
// generation stamp between Earley sets.
type dedup struct {
	keys []uint64
	gen  []uint32
	cur  uint32
	n    int
}

func (d *dedup) reset() {
	d.cur++
	d.n = 0
	if len(d.keys) == 0 {
		d.keys = make([]uint64, 1024)
		d.gen = make([]uint32, 1024)
	}
}

// insert adds k and reports whether it was new.
func (d *dedup) insert(k uint64) bool {
	if 2*(d.n+1) > len(d.keys) {
		old, oldGen := d.keys, d.gen
		d.keys, d.gen = make([]uint64, 2*len(old)), make([]uint32, 2*len(old))
		d.n = 0
		for i, g := range oldGen {
			if g == d.cur {
				d.insert(old[i])
			}
		}
	}
	mask := uint64(len(d.keys) - 1)
	h := (k * 0x9E3779B97F4A7C15) >> 20 & mask
	for {
		if d.gen[h] != d.cur {
			d.keys[h], d.gen[h] = k, d.cur
			d.n++
			return true
		}
		if d.keys[h] == k {
			return false
		}
		h = (h + 1) & mask
	}
}

// Match runs the recognizer of rule over input (an Earley parser, so any
// rule of the grammar, ambiguous or not, is recognized as written).
func (g *Grammar) Match(rule, input string) Result {
	start, ok := g.ids[rule]
	if !ok {
		panic(fmt.Sprintf("rfcbnf: no rule %q", rule))
	}
	n := len(input)
	sets := make([]itemSet, n+1)
	var cur, next dedup
	cur.reset()
	next.reset()
	key := func(it item) uint64 { return uint64(it.prod)<<40 | uint64(it.dot)<<24 | uint64(it.origin) }
	for _, p := range g.nts[start].prods {
		it := item{p, 0, 0}
		if cur.insert(key(it)) {
			sets[0].items = append(sets[0].items, it)
		}
	}
	for i := 0; i <= n; i++ {
		set := &sets[i]
		add := func(it item) {
			if cur.insert(key(it)) {
				set.items = append(set.items, it)
			}
		}
		for k := 0; k < len(set.items); k++ {
			it := set.items[k]
			rhs := g.prods[it.prod].rhs
			if int(it.dot) == len(rhs) {
				lhs := g.prods[it.prod].lhs
				if int(it.origin) == i {
					continue // nullable: its waiting items were advanced when predicted
				}
				for _, w := range sets[it.origin].wait[lhs] {
					add(item{w.prod, w.dot + 1, w.origin})
				}
				continue
			}
			s := rhs[it.dot]
			if s < 0 {
				if i < n && g.sets[-1-s].has(input[i]) {
					adv := item{it.prod, it.dot + 1, it.origin}
					if next.insert(key(adv)) {
						sets[i+1].items = append(sets[i+1].items, adv)
					}
				}
				continue
			}
			for _, p := range g.nts[s].prods {
				add(item{p, 0, int32(i)})
			}
			if g.nullable[s] {
				add(item{it.prod, it.dot + 1, it.origin})
			}
		}
		// The set is complete: index its items by the nonterminal they
		// wait for, for the completions of later sets.
		set.wait = map[int32][]item{}
		for _, it := range set.items {
			rhs := g.prods[it.prod].rhs
			if int(it.dot) < len(rhs) && rhs[it.dot] >= 0 {
				set.wait[rhs[it.dot]] = append(set.wait[rhs[it.dot]], it)
			}
		}
		if i < n && len(sets[i+1].items) == 0 {
			return g.dead(set.items, i)
		}
		cur, next = next, cur
		next.reset()
	}
	for _, it := range sets[n].items {
		if it.origin == 0 && g.prods[it.prod].lhs == start && int(it.dot) == len(g.prods[it.prod].rhs) {
			return Result{OK: true, Dead: -1}
		}
	}
	return g.dead(sets[n].items, n)
}

// dead names the rules in force at offset i from the items of its set that
// wait for a byte.
func (g *Grammar) dead(set []item, i int) Result {
	res := Result{Dead: i}
	origin := map[string]int32{}
	for _, it := range set {
		rhs := g.prods[it.prod].rhs
		// Items about to read a byte, or a char-level rule (xchar,
		// uchar...), which the rule that calls it reads in effect.
		if int(it.dot) < len(rhs) && (rhs[it.dot] < 0 || g.charLevel[g.nts[rhs[it.dot]].owner]) {
			name := g.nts[g.prods[it.prod].lhs].owner
			if g.charLevel[name] {
				continue // uchar, escape...: the rule that reads them is named
			}
			if o, ok := origin[name]; !ok || it.origin > o {
				origin[name] = it.origin
			}
		}
	}
	// An item's origin is where its (possibly unnamed) nonterminal
	// started; a named rule's latest origin says how recently it was
	// entered, so the rule entered last is the innermost.
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
	// Of the rules entered there, the one that reaches none of the others;
	// when several do (a login's first byte may start a user, a host name
	// or a host number), the innermost rule that reaches them all.
	inner := innermost(g, cands)
	if len(inner) == 1 {
		res.Rule = inner[0]
		return res
	}
	// The ancestors: every named rule with an item started there.
	anc := map[string]bool{}
	for _, it := range set {
		if it.origin == best {
			if name := g.nts[g.prods[it.prod].lhs].owner; !g.charLevel[name] {
				anc[name] = true
			}
		}
	}
	var all []string
	for a := range anc {
		all = append(all, a)
	}
	sortStrings(all)
	var common []string
	for _, a := range all {
		reachesAll := true
		for _, b := range inner {
			reachesAll = reachesAll && g.reach[a][b]
		}
		if reachesAll {
			common = append(common, a)
		}
	}
	if c := innermost(g, common); len(c) == 1 {
		res.Rule = c[0]
	} else {
		res.Rule = strings.Join(inner, " or ")
	}
	return res
}

// innermost returns the rules of names that reach none of the others.
func innermost(g *Grammar, names []string) []string {
	var out []string
	for _, a := range names {
		in := true
		for _, b := range names {
			if a != b && g.reach[a][b] {
				in = false
				break
			}
		}
		if in {
			out = append(out, a)
		}
	}
	return out
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
