package rfcbnf

// A Chooser makes the generator's choices: Intn returns a number in [0, n).
// *math/rand.Rand is one; [Bytes] makes one of a fuzzer's input.
type Chooser interface{ Intn(n int) int }

// Bytes is a Chooser that reads its choices from a byte string (a fuzz
// target's input), then chooses 0 (the first alternative, which for an
// optional or repeated element is to stop) once the bytes run out.
type Bytes struct {
	B []byte
	i int
}

// Intn returns the next byte modulo n.
func (c *Bytes) Intn(n int) int {
	if n <= 1 || c.i >= len(c.B) {
		return 0
	}
	v := int(c.B[c.i])
	c.i++
	return v % n
}

// Generate returns a string of rule's language, made by choosing among
// alternatives and repetitions with c. Past depth nested expansions or
// maxLen bytes it takes the shortest ways out, so it always ends.
func (g *Grammar) Generate(rule string, c Chooser, depth, maxLen int) string {
	id, ok := g.ids[rule]
	if !ok {
		panic("rfcbnf: no rule " + rule)
	}
	var b []byte
	var gen func(s int32, d int)
	gen = func(s int32, d int) {
		if s < 0 {
			set := &g.sets[-1-s]
			b = append(b, set.nth(c.Intn(set.count())))
			return
		}
		ps := g.nts[s].prods
		var p int32
		if d > depth || len(b) > maxLen {
			// The production of least height.
			best := 1 << 30
			for _, q := range ps {
				h := 0
				for _, x := range g.prods[q].rhs {
					if x >= 0 {
						h = max(h, g.height[x])
					}
				}
				if h < best {
					best, p = h, q
				}
			}
		} else {
			p = ps[c.Intn(len(ps))]
		}
		for _, x := range g.prods[p].rhs {
			gen(x, d+1)
		}
	}
	gen(id, 0)
	return string(b)
}
