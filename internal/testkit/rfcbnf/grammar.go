package rfcbnf

import (
	"fmt"
	"math/bits"
	"os"
	"sort"
	"strings"
)

// A Grammar is a set of rules compiled for recognition and generation.
type Grammar struct {
	Rules map[string]*Rule
	Order []string // rule names in the order read

	nts      []nonterminal
	prods    []prod
	sets     []charset // terminal sets
	setNames []string  // the named rule a terminal set stands for, or ""
	ids      map[string]int32
	nullable []bool
	height   []int // the least depth of a derivation of each nonterminal
	reach    map[string]map[string]bool
	// charLevel marks the rules that read a fixed few bytes, with no
	// optional or repeated part (uchar, xchar, escape, alpha...).
	charLevel map[string]bool
	category  [256]string
}

type nonterminal struct {
	owner string // the named rule this nonterminal was made for
	prods []int32
}

// A symbol is a nonterminal (>= 0) or a terminal set (-1 - index).
type prod struct {
	lhs int32
	rhs []int32
}

type charset [4]uint64

func (c *charset) add(b byte)      { c[b>>6] |= 1 << (b & 63) }
func (c *charset) has(b byte) bool { return c[b>>6]&(1<<(b&63)) != 0 }
func (c *charset) union(d charset) { c[0] |= d[0]; c[1] |= d[1]; c[2] |= d[2]; c[3] |= d[3] }
func (c *charset) count() (n int) {
	for _, w := range c {
		n += bits.OnesCount64(w)
	}
	return n
}

// nth returns the n-th byte of the set, in byte order.
func (c *charset) nth(n int) byte {
	for b := 0; b < 256; b++ {
		if c.has(byte(b)) {
			if n == 0 {
				return byte(b)
			}
			n--
		}
	}
	return 0
}

// Load reads RFC 1738's text at path and returns the grammar of its section
// 5, with the extensions given (rules in the same notation, each set with
// its source); see [Extension].
func Load(path string, ext ...Extension) (*Grammar, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("rfcbnf: %w", err)
	}
	return Parse(string(text), ext...)
}

// An Extension is a set of rules added to RFC 1738's, in its notation, for
// what urlkit accepts beyond section 5 by another document (the fragment
// of RFC 1630, https of RFC 2818). Each is a documented divergence from
// section 5 alone.
type Extension struct {
	Source string // the document and why
	Rules  string // one rule a line
}

// Parse reads the grammar of section 5 from RFC 1738's text.
func Parse(text string, ext ...Extension) (*Grammar, error) {
	lines, err := Section5(text)
	if err != nil {
		return nil, err
	}
	rules, err := parseRules(lines, "RFC 1738 5")
	if err != nil {
		return nil, err
	}
	for _, e := range ext {
		var ls []string
		for _, l := range strings.Split(e.Rules, "\n") {
			if strings.TrimSpace(l) != "" {
				ls = append(ls, strings.TrimSpace(l))
			}
		}
		more, err := parseRules(ls, e.Source)
		if err != nil {
			return nil, err
		}
		rules = append(rules, more...)
	}
	g := &Grammar{Rules: map[string]*Rule{}, ids: map[string]int32{}}
	for _, r := range rules {
		if g.Rules[r.Name] != nil {
			return nil, fmt.Errorf("rfcbnf: rule %s defined twice (%s, %s)", r.Name, g.Rules[r.Name].Source, r.Source)
		}
		g.Rules[r.Name] = r
		g.Order = append(g.Order, r.Name)
	}
	if err := g.compile(); err != nil {
		return nil, err
	}
	return g, nil
}

func (g *Grammar) newNT(owner string) int32 {
	g.nts = append(g.nts, nonterminal{owner: owner})
	return int32(len(g.nts) - 1)
}

func (g *Grammar) addProd(lhs int32, rhs []int32) {
	g.prods = append(g.prods, prod{lhs, rhs})
	g.nts[lhs].prods = append(g.nts[lhs].prods, int32(len(g.prods)-1))
}

func (g *Grammar) terminal(b byte, name string) int32 {
	var c charset
	c.add(b)
	g.sets = append(g.sets, c)
	g.setNames = append(g.setNames, name)
	return int32(-len(g.sets))
}

func (g *Grammar) compile() error {
	for _, n := range g.Order {
		g.ids[n] = g.newNT(n)
	}
	for _, n := range g.Order {
		rhs, err := g.expr(g.Rules[n].Expr, n)
		if err != nil {
			return err
		}
		for _, alt := range rhs {
			g.addProd(g.ids[n], alt)
		}
	}
	g.charClasses()
	g.analyse()
	for b := 0; b < 256; b++ {
		g.category[b] = g.computeCategory(byte(b))
	}
	return nil
}

// expr compiles e into alternatives of symbol sequences; nested
// constructs become nonterminals owned by the named rule.
func (g *Grammar) expr(e *Expr, owner string) ([][]int32, error) {
	switch e.Kind {
	case kLit:
		var seq []int32
		for i := 0; i < len(e.Lit); i++ {
			seq = append(seq, g.terminal(e.Lit[i], ""))
		}
		return [][]int32{seq}, nil
	case kRef:
		id, ok := g.ids[e.Name]
		if !ok {
			return nil, fmt.Errorf("rfcbnf: rule %s refers to %s, which is not defined", owner, e.Name)
		}
		return [][]int32{{id}}, nil
	case kSeq:
		out := [][]int32{{}}
		for _, s := range e.Sub {
			sym, err := g.single(s, owner)
			if err != nil {
				return nil, err
			}
			out[0] = append(out[0], sym...)
		}
		return out, nil
	case kAlt:
		var out [][]int32
		for _, s := range e.Sub {
			alts, err := g.expr(s, owner)
			if err != nil {
				return nil, err
			}
			out = append(out, alts...)
		}
		return out, nil
	case kOpt:
		// [ x ]: nothing first, then x (a generator out of choices stops).
		alts, err := g.expr(e.Sub[0], owner)
		if err != nil {
			return nil, err
		}
		return append([][]int32{{}}, alts...), nil
	case kRep:
		// n*x: x n times, then R, where R = nothing | x R.
		x, err := g.single(e.Sub[0], owner)
		if err != nil {
			return nil, err
		}
		r := g.newNT(owner)
		g.addProd(r, nil)
		g.addProd(r, append(append([]int32{}, x...), r))
		var seq []int32
		for i := 0; i < e.Min; i++ {
			seq = append(seq, x...)
		}
		return [][]int32{append(seq, r)}, nil
	}
	return nil, fmt.Errorf("rfcbnf: bad expression in %s", owner)
}

// single compiles e into one sequence, wrapping alternatives in a
// nonterminal.
func (g *Grammar) single(e *Expr, owner string) ([]int32, error) {
	alts, err := g.expr(e, owner)
	if err != nil {
		return nil, err
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	n := g.newNT(owner)
	for _, a := range alts {
		g.addProd(n, a)
	}
	return []int32{n}, nil
}

// charClasses replaces every nonterminal whose language is a set of
// one-byte strings (lowalpha, national, uchar's unreserved...) by a
// terminal set named after it, so that the recognizer reads a byte in one
// step. Derived from the rules, as everything else.
func (g *Grammar) charClasses() {
	is := make([]bool, len(g.nts))
	set := make([]charset, len(g.nts))
	for changed := true; changed; {
		changed = false
		for id := range g.nts {
			if is[id] || len(g.nts[id].prods) == 0 {
				continue
			}
			var c charset
			ok := true
			for _, p := range g.nts[id].prods {
				rhs := g.prods[p].rhs
				if len(rhs) != 1 {
					ok = false
					break
				}
				switch s := rhs[0]; {
				case s < 0:
					c.union(g.sets[-1-s])
				case is[s]:
					c.union(set[s])
				default:
					ok = false
				}
			}
			if ok {
				is[id], set[id], changed = true, c, true
			}
		}
	}
	term := map[int32]int32{}
	for id := range g.nts {
		if is[id] {
			g.sets = append(g.sets, set[id])
			name := g.nts[id].owner
			if g.ids[name] != int32(id) {
				name = "" // an unnamed group of a rule
			}
			g.setNames = append(g.setNames, name)
			term[int32(id)] = int32(-len(g.sets))
		}
	}
	for i := range g.prods {
		for k, s := range g.prods[i].rhs {
			if t, ok := term[s]; ok && s >= 0 {
				g.prods[i].rhs[k] = t
			}
		}
	}
}

// analyse computes which nonterminals derive the empty string, the least
// derivation depth of each, and which named rules reach which.
func (g *Grammar) analyse() {
	n := len(g.nts)
	g.nullable = make([]bool, n)
	g.height = make([]int, n)
	const inf = 1 << 30
	for i := range g.height {
		g.height[i] = inf
	}
	for changed := true; changed; {
		changed = false
		for _, p := range g.prods {
			null, h := true, 0
			for _, s := range p.rhs {
				if s < 0 {
					null = false
					continue
				}
				null = null && g.nullable[s]
				h = max(h, g.height[s])
			}
			if null && !g.nullable[p.lhs] {
				g.nullable[p.lhs], changed = true, true
			}
			if h < inf && h+1 < g.height[p.lhs] {
				g.height[p.lhs], changed = h+1, true
			}
		}
	}
	g.charLevel = map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, name := range g.Order {
			if !g.charLevel[name] && fixedExpr(g.Rules[name].Expr, g.charLevel) {
				g.charLevel[name], changed = true, true
			}
		}
	}
	g.reach = map[string]map[string]bool{}
	direct := map[string]map[string]bool{}
	for _, p := range g.prods {
		from := g.nts[p.lhs].owner
		for _, s := range p.rhs {
			if s >= 0 {
				if direct[from] == nil {
					direct[from] = map[string]bool{}
				}
				direct[from][g.nts[s].owner] = true
			}
		}
	}
	for from := range direct {
		seen := map[string]bool{}
		stack := []string{from}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for y := range direct[x] {
				if !seen[y] {
					seen[y] = true
					stack = append(stack, y)
				}
			}
		}
		g.reach[from] = seen
	}
}

// Has reports whether the grammar has a rule of that name.
func (g *Grammar) Has(rule string) bool { _, ok := g.ids[rule]; return ok }

// Category returns the name of the largest rule of RFC 1738 5 made only of
// literal characters that contains b ("national" for "~", "reserved" for
// "="), or "" when no rule lists it (controls, octets above 7F).
func (g *Grammar) Category(b byte) string { return g.category[b] }

func (g *Grammar) computeCategory(b byte) string {
	best, size := "", 0
	for _, name := range g.Order {
		r := g.Rules[name]
		if !literalSet(r.Expr) {
			continue
		}
		var c charset
		collect(r.Expr, &c)
		if c.has(b) && c.count() > size {
			best, size = name, c.count()
		}
	}
	return best
}

func literalSet(e *Expr) bool {
	switch e.Kind {
	case kLit:
		return len(e.Lit) == 1
	case kAlt:
		for _, s := range e.Sub {
			if !literalSet(s) {
				return false
			}
		}
		return true
	}
	return false
}

func collect(e *Expr, c *charset) {
	if e.Kind == kLit {
		c.add(e.Lit[0])
	}
	for _, s := range e.Sub {
		collect(s, c)
	}
}

// RuleNames returns the named rules, sorted.
func (g *Grammar) RuleNames() []string {
	out := append([]string(nil), g.Order...)
	sort.Strings(out)
	return out
}

// fixedExpr reports whether e has no optional or repeated part and refers
// only to rules in fixed.
func fixedExpr(e *Expr, fixed map[string]bool) bool {
	switch e.Kind {
	case kLit:
		return true
	case kRef:
		return fixed[e.Name]
	case kSeq, kAlt:
		for _, s := range e.Sub {
			if !fixedExpr(s, fixed) {
				return false
			}
		}
		return true
	}
	return false
}
