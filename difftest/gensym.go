package difftest

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Random symmetric models (issue 14): networks over one scalar set s_t of
// 2–4 values whose permutations are symmetries, for comparing tcheck with
// and without its symmetry reduction (queries.Options.Symmetry) and with
// the reference. The model language's rules (model/scalar.go) hold by
// construction: scalar values are only compared with == and !=, assigned
// and used as indices of arrays whose dimension is s_t; there are no
// scalar constants (a holder variable h goes with a flag hset). Broadcast
// receivers in the symmetric templates have no updates, nor have their
// receivers on a channel indexed by a variable (either would make
// model.Network.SymmetryObstacle turn the reduction off). Every query is
// symmetric: processes of the symmetric templates and members of s_t are
// named only under forall/exists.

// SymSet is the name of the generated scalar set.
const SymSet = "s_t"

type symArray struct {
	name   string
	hi     int
	isBool bool
	init   []int // nil: all 0 / false
}

type symChan struct {
	name                       string
	indexed, broadcast, urgent bool
}

type symTmpl struct {
	name     string
	observer bool     // no scalar parameter: one process
	params   []string // the scalar parameters: id, or id and jd
	kParam   bool     // a parameter const int[0, 1] k besides
	kQuery   int      // the value of k the queries name
	clocks   []string
	ints     []intDecl
	self     bool // a local scalar variable w
	seen     bool // a local array bool seen[s_t]
	locs     []genLoc
	edges    []genEdge
}

type symGen struct {
	s       *Source
	n       int
	xs      []string // global clocks
	gz      bool     // clock gz[s_t]
	holder  bool     // s_t h; bool hset
	ptr     bool     // s_t p0[s_t]: scalar values indexed by the set
	matrix  bool     // bool m0[s_t][s_t]
	arrays  []symArray
	ints    []intDecl // global, not indexed
	chans   []symChan
	tmpls   []*symTmpl // the symmetric templates, then the observer
	qs      []genQuery
	procs   int
	nClocks int
}

// GenerateSymmetric builds a random symmetric model from the choices of
// s: a scalar set of 2–4 values, one or two templates with a parameter
// `const s_t id` (one process per value), sometimes an observer process
// that looks at the set through forall, exists and select, global arrays
// indexed by the set, scalar variables, channel arrays indexed by it, and
// symmetric queries. The empty input gives two processes of one location
// and `E<> (forall (i : s_t) P0(i).L0)`.
func GenerateSymmetric(s *Source) *Model {
	g := &symGen{s: s, n: 2 + s.intn(3)}
	// the unreduced model must stay small enough for the comparison: two
	// templates over a set of 3 at most, a clock array over one of 2 or 3
	nTmpl := 1
	if g.n <= 3 && s.chance(30) {
		nTmpl = 2
	}
	g.xs = []string{"x0"}
	if s.chance(15) {
		g.xs = append(g.xs, "x1")
	}
	g.gz = nTmpl == 1 && g.n <= 3 && s.chance(15)
	g.holder = s.chance(60)
	g.ptr = s.chance(20)
	g.matrix = s.chance(12)
	for i := range s.intn(3) {
		a := symArray{name: fmt.Sprintf("a%d", i)}
		if s.chance(50) {
			a.isBool, a.hi = true, 1
		} else {
			a.hi = 1 + s.intn(2)
		}
		if s.chance(25) {
			// an initial value that differs between members: the initial
			// state is not symmetric, its orbit is
			a.init = make([]int, g.n)
			for k := range a.init {
				a.init[k] = s.intn(a.hi + 1)
			}
		}
		g.arrays = append(g.arrays, a)
	}
	for i := range s.intn(2) {
		v := intDecl{name: fmt.Sprintf("g%d", i), owner: -1, hi: 1 + s.intn(2)}
		if s.chance(40) {
			v.isBool, v.hi = true, 1
		}
		g.ints = append(g.ints, v)
	}
	for i := range s.intn(4) {
		c := symChan{name: fmt.Sprintf("c%d", i), indexed: s.chance(50)}
		switch s.intn(10) {
		case 5, 6:
			c.broadcast = true
		case 7, 8:
			c.urgent = true
		case 9:
			c.broadcast, c.urgent = true, true
		}
		g.chans = append(g.chans, c)
	}
	for t := range nTmpl {
		params := []string{"id"}
		if t == 1 && s.chance(15) {
			// one process per pair of members
			params = append(params, "jd")
		}
		kParam := nTmpl == 1 && g.n <= 3 && s.chance(10)
		g.tmpls = append(g.tmpls, g.template(fmt.Sprintf("P%d", t), params, kParam))
	}
	if s.chance(35) {
		g.tmpls = append(g.tmpls, g.template("Obs", nil, false))
	}
	g.queries()
	text := g.text()
	// drawn after the text, whose emission draws initial values, so that
	// the rest of a seed's model does not depend on it
	if m := g.progressMeasure(); m != "" {
		text = append(text, "progress: "+q(m)+"\n"...)
	}
	// the liveness queries last (Generate's), their lines inserted at the
	// end of the queries section, before the progress line
	var live []byte
	for _, qq := range g.livenessQueries() {
		live = fmt.Appendf(live, "  %s: {formula: %s}\n", qq.name, q(qq.formula))
	}
	if i := bytes.LastIndex(text, []byte("\nprogress: ")); i >= 0 {
		text = slices.Concat(text[:i+1], live, text[i+1:])
	} else {
		text = append(text, live...)
	}
	return &Model{Text: text, Procs: g.procs, Clocks: g.nClocks, Queries: len(g.qs)}
}

// livenessQueries draws none to two liveness queries (E[], A<>, -->) over
// locations and data, as Generate's do, adds them to g.qs and returns
// them.
func (g *symGen) livenessQueries() []genQuery {
	start := len(g.qs)
	g.qs = drawLiveness(g.s, g, g.qs)
	return g.qs[start:]
}

// progressMeasure draws, for every other model, a progress measure (the
// order of --order progress), or "": a weighted sum of global variables,
// of sums over s_t of the arrays indexed by it, and of the number of
// members of a symmetric template at one of its locations. It is
// symmetric, as a sum over the whole set is; it need not be monotone (the
// order never changes a verdict, which the configurations with that
// order check, here with the reduction on and off).
func (g *symGen) progressMeasure() string {
	s := g.s
	if !s.chance(50) {
		return ""
	}
	var terms []string
	for _, v := range g.ints {
		if s.chance(60) {
			terms = append(terms, weight(s)+v.name)
		}
	}
	for _, a := range g.arrays {
		if s.chance(60) {
			terms = append(terms, weight(s)+fmt.Sprintf("(sum (i : %s) %s[i])", SymSet, a.name))
		}
	}
	for _, t := range g.tmpls {
		if t.observer || len(t.params) != 1 || t.kParam || !s.chance(50) {
			continue
		}
		l := t.locs[s.intn(len(t.locs))].name
		terms = append(terms, weight(s)+fmt.Sprintf("(sum (i : %s) %s(i).%s)", SymSet, t.name, l))
	}
	if len(terms) == 0 {
		return "0"
	}
	return strings.Join(terms, " + ")
}

func (g *symGen) template(name string, params []string, kParam bool) *symTmpl {
	s := g.s
	observer := len(params) == 0
	t := &symTmpl{name: name, observer: observer, params: params, kParam: kParam}
	if kParam {
		t.kQuery = s.intn(2)
	}
	mult := 1
	for range params {
		mult *= g.n
	}
	if kParam {
		mult *= 2
	}
	g.procs += mult
	nClocks := s.intn(2) // 0 or 1, rarely 2 over a small set
	if g.n <= 3 && s.chance(10) {
		nClocks = 2
	}
	if len(params) == 2 {
		// one clock per pair of members makes zone graphs too large for
		// the unreduced search (9 clocks over a set of 3: a fuzz input
		// whose deadlock search ran past every deadline)
		nClocks = 0
	}
	for i := range nClocks {
		t.clocks = append(t.clocks, fmt.Sprintf("z%d", i))
		g.nClocks += mult
	}
	if s.chance(35) {
		v := intDecl{name: "v", owner: 0, hi: 1 + s.intn(2)}
		if s.chance(30) {
			v.isBool, v.hi = true, 1
		}
		t.ints = append(t.ints, v)
	}
	t.self = !observer && s.chance(30)
	t.seen = s.chance(20)
	nLocs := 1 + s.intn(4)
	clocks := g.clocksOf(t)
	for l := range nLocs {
		loc := genLoc{name: fmt.Sprintf("L%d", l)}
		if observer {
			loc.name = fmt.Sprintf("O%d", l)
		}
		switch s.intn(20) {
		case 17, 18:
			loc.committed = true
		case 19:
			loc.urgent = true
		}
		if len(clocks) > 0 && s.chance(35) {
			c := clocks[s.intn(len(clocks))]
			if s.chance(30) {
				loc.inv = append(loc.inv, fmt.Sprintf("%s < %d", c, 1+s.intn(4)))
			} else {
				loc.inv = append(loc.inv, fmt.Sprintf("%s <= %d", c, s.intn(5)))
			}
		}
		t.locs = append(t.locs, loc)
	}
	nEdges := s.intn(6)
	if nLocs > 1 && nEdges == 0 {
		nEdges = 1
	}
	for k := range nEdges {
		e := g.edge(t, nLocs)
		if k < nLocs-1 && s.chance(60) {
			e.from, e.to = k, k+1
		}
		t.edges = append(t.edges, e)
	}
	return t
}

// clocksOf are the clocks an edge of t may use (without a select).
func (g *symGen) clocksOf(t *symTmpl) []string {
	cs := append(append([]string(nil), t.clocks...), g.xs...)
	if g.gz && !t.observer && !t.kParam {
		cs = append(cs, "gz[id]")
	}
	return cs
}

// scalars are the scalar expressions an edge of t may use: its identity,
// the holder, its scalar variable and the select variable.
func (g *symGen) scalars(t *symTmpl, sel bool) []string {
	out := append([]string(nil), t.params...)
	if g.holder {
		out = append(out, "h")
	}
	if t.self {
		out = append(out, "w")
	}
	if sel {
		out = append(out, "j")
	}
	return out
}

func (g *symGen) pick(xs []string) string { return xs[g.s.intn(len(xs))] }

func (g *symGen) edge(t *symTmpl, nLocs int) genEdge {
	s := g.s
	e := genEdge{from: s.intn(nLocs), to: s.intn(nLocs)}
	sel := s.chance(25)
	if sel {
		e.sel = "j : " + SymSet
	}
	scal := g.scalars(t, sel)
	clocks := g.clocksOf(t)
	clockGuards, updates := true, true
	if len(g.chans) > 0 && s.chance(45) {
		c := g.chans[s.intn(len(g.chans))]
		name, dynamic := c.name, false
		if c.indexed && len(scal) > 0 {
			x := g.pick(scal)
			name += "[" + x + "]"
			dynamic = x == "h" || x == "w"
		}
		if !c.indexed || len(scal) > 0 {
			send := s.chance(50)
			if send {
				e.sync = name + "!"
			} else {
				e.sync = name + "?"
			}
			if c.urgent || c.broadcast && !send {
				clockGuards = false
			}
			if !send && !t.observer && (c.broadcast || dynamic) {
				updates = false // model.Network.SymmetryObstacle
			}
		}
	}
	for range s.intn(3) {
		if clockGuards && s.chance(45) {
			c := g.pick(clocks)
			op := clockOps[s.intn(len(clockOps))]
			lo := 0
			if op == "<" {
				lo = 1
			}
			e.guard = append(e.guard, fmt.Sprintf("%s %s %d", c, op, lo+s.intn(5-lo)))
			continue
		}
		if a := g.dataGuard(t, scal); a != "" {
			e.guard = append(e.guard, a)
		}
	}
	if !updates {
		return e
	}
	for range s.intn(3) {
		if s.chance(35) {
			e.update = append(e.update, g.pick(clocks)+" = 0")
			continue
		}
		e.update = append(e.update, g.dataUpdate(t, scal)...)
	}
	return e
}

// arrayAtom is a condition on array a at index x.
func (g *symGen) arrayAtom(a symArray, x string) string {
	s := g.s
	if a.isBool {
		if s.chance(50) {
			return fmt.Sprintf("%s[%s]", a.name, x)
		}
		return fmt.Sprintf("!%s[%s]", a.name, x)
	}
	ops := []string{"==", "!=", "<=", ">="}
	return fmt.Sprintf("%s[%s] %s %d", a.name, x, ops[s.intn(len(ops))], s.intn(a.hi+1))
}

func (g *symGen) intAtom(v intDecl, name string) string {
	s := g.s
	if v.isBool {
		if s.chance(50) {
			return name
		}
		return "!" + name
	}
	ops := []string{"==", "!=", "<", "<=", ">=", ">"}
	return fmt.Sprintf("%s %s %d", name, ops[s.intn(len(ops))], s.intn(v.hi+1))
}

// dataGuard is a condition over data for an edge of t ("" if none fits).
func (g *symGen) dataGuard(t *symTmpl, scal []string) string {
	s := g.s
	switch s.intn(7) {
	case 0:
		if len(scal) >= 2 {
			a := s.intn(len(scal))
			b := (a + 1 + s.intn(len(scal)-1)) % len(scal)
			op := "=="
			if s.chance(50) {
				op = "!="
			}
			return fmt.Sprintf("%s %s %s", scal[a], op, scal[b])
		}
	case 1:
		if len(g.arrays) > 0 && len(scal) > 0 {
			return g.arrayAtom(g.arrays[s.intn(len(g.arrays))], g.pick(scal))
		}
	case 2:
		if len(g.arrays) > 0 {
			a := g.arrays[s.intn(len(g.arrays))]
			q := "forall"
			if s.chance(50) {
				q = "exists"
			}
			body := g.arrayAtom(a, "i")
			if len(scal) > 0 && s.chance(40) {
				// all members but one
				if q == "exists" {
					body = fmt.Sprintf("i != %s && %s", g.pick(scal), body)
				} else {
					body = fmt.Sprintf("i == %s || %s", g.pick(scal), body)
				}
			}
			return fmt.Sprintf("(%s (i : %s) %s)", q, SymSet, body)
		}
	case 3:
		if g.holder {
			if s.chance(50) {
				return "hset"
			}
			return "!hset"
		}
	case 4:
		if len(t.ints) > 0 {
			return g.intAtom(t.ints[0], t.ints[0].name)
		}
	case 5:
		if len(scal) == 0 {
			break
		}
		x, y := g.pick(scal), g.pick(scal)
		switch {
		case g.ptr && s.chance(50):
			op := "=="
			if s.chance(50) {
				op = "!="
			}
			if s.chance(20) {
				return fmt.Sprintf("p0[p0[%s]] %s %s", x, op, y)
			}
			return fmt.Sprintf("p0[%s] %s %s", x, op, y)
		case g.matrix && s.chance(50):
			return fmt.Sprintf("%sm0[%s][%s]", map[bool]string{true: "!"}[s.chance(50)], x, y)
		case t.seen:
			return fmt.Sprintf("%sseen[%s]", map[bool]string{true: "!"}[s.chance(50)], x)
		}
	}
	if len(g.ints) > 0 {
		v := g.ints[s.intn(len(g.ints))]
		return g.intAtom(v, v.name)
	}
	return ""
}

// dataUpdate is one or two assignments for an edge of t: they stay in
// range except, one in twelve, a1[x]++.
func (g *symGen) dataUpdate(t *symTmpl, scal []string) []string {
	s := g.s
	switch s.intn(9) {
	case 0, 1:
		if g.holder && len(scal) > 0 {
			if s.chance(30) {
				return []string{"hset = false"}
			}
			x := g.pick(scal)
			if x == "h" {
				return []string{"hset = true"}
			}
			return []string{"h = " + x, "hset = true"}
		}
	case 2:
		if t.self {
			if x := g.pick(scal); x != "w" {
				return []string{"w = " + x}
			}
		}
	case 3, 4, 5:
		if len(g.arrays) > 0 && len(scal) > 0 {
			a := g.arrays[s.intn(len(g.arrays))]
			x := fmt.Sprintf("%s[%s]", a.name, g.pick(scal))
			if a.isBool {
				switch s.intn(3) {
				case 0:
					return []string{x + " = !" + x}
				case 1:
					return []string{x + " = true"}
				}
				return []string{x + " = false"}
			}
			switch s.intn(12) {
			case 0, 1, 2:
				return []string{fmt.Sprintf("%s = (%s + 1) %% %d", x, x, a.hi+1)}
			case 3:
				return []string{x + "++"} // may leave the range
			}
			return []string{fmt.Sprintf("%s = %d", x, s.intn(a.hi+1))}
		}
	case 6:
		if len(t.ints) > 0 {
			return []string{g.intUpdate(t.ints[0])}
		}
	case 7:
		if len(scal) == 0 {
			break
		}
		x, y := g.pick(scal), g.pick(scal)
		switch {
		case g.ptr && s.chance(50):
			return []string{fmt.Sprintf("p0[%s] = %s", x, y)}
		case g.matrix && s.chance(50):
			return []string{fmt.Sprintf("m0[%s][%s] = %v", x, y, s.chance(60))}
		case t.seen:
			return []string{fmt.Sprintf("seen[%s] = %v", x, s.chance(60))}
		}
	}
	if len(g.ints) > 0 {
		return []string{g.intUpdate(g.ints[s.intn(len(g.ints))])}
	}
	return nil
}

func (g *symGen) intUpdate(v intDecl) string {
	s := g.s
	if v.isBool {
		switch s.intn(3) {
		case 0:
			return v.name + " = !" + v.name
		case 1:
			return v.name + " = true"
		}
		return v.name + " = false"
	}
	if s.chance(40) {
		return fmt.Sprintf("%s = (%s + 1) %% %d", v.name, v.name, v.hi+1)
	}
	return fmt.Sprintf("%s = %d", v.name, s.intn(v.hi+1))
}

// symmetric templates and the observer
func (g *symGen) family() []*symTmpl {
	var out []*symTmpl
	for _, t := range g.tmpls {
		if !t.observer {
			out = append(out, t)
		}
	}
	return out
}

func (g *symGen) observer() *symTmpl {
	if t := g.tmpls[len(g.tmpls)-1]; t.observer {
		return t
	}
	return nil
}

// quant is a quantifier over the set.
func (g *symGen) quant(v string) string {
	if g.s.chance(60) {
		return fmt.Sprintf("exists (%s : %s) ", v, SymSet)
	}
	return fmt.Sprintf("forall (%s : %s) ", v, SymSet)
}

// over returns the quantifiers (kind q, "exists" or "forall") over the
// processes of t named after v, and the reference to them: P0(v), or
// P1(v, v2) for a template with two scalar parameters, or P0(v, 1) with
// the parameter k.
func (g *symGen) over(t *symTmpl, q, v string) (prefix, ref string) {
	prefix = fmt.Sprintf("%s (%s : %s) ", q, v, SymSet)
	args := v
	if len(t.params) == 2 {
		prefix += fmt.Sprintf("%s (%s2 : %s) ", q, v, SymSet)
		args += ", " + v + "2"
	}
	if t.kParam {
		args += fmt.Sprintf(", %d", t.kQuery)
	}
	return prefix, t.name + "(" + args + ")"
}

// overAny is over with a random quantifier.
func (g *symGen) overAny(t *symTmpl, v string) (prefix, ref string) {
	if g.s.chance(60) {
		return g.over(t, "exists", v)
	}
	return g.over(t, "forall", v)
}

// qLoc is a symmetric condition on locations.
func (g *symGen) qLoc() string {
	s := g.s
	fam := g.family()
	if o := g.observer(); o != nil && s.chance(20) {
		return o.name + "." + o.locs[s.intn(len(o.locs))].name
	}
	t := fam[s.intn(len(fam))]
	l := t.locs[s.intn(len(t.locs))].name
	if s.chance(25) {
		u := fam[s.intn(len(fam))]
		m := u.locs[s.intn(len(u.locs))].name
		pi, ri := g.over(t, "exists", "i")
		pk, rk := g.over(u, "exists", "k")
		return fmt.Sprintf("(%s%si != k && %s.%s && %s.%s)", pi, pk, ri, l, rk, m)
	}
	p, r := g.overAny(t, "i")
	return fmt.Sprintf("(%s%s.%s)", p, r, l)
}

// qData is a symmetric condition on data (falls back to a location one).
func (g *symGen) qData() string {
	s := g.s
	fam := g.family()
	t := fam[s.intn(len(fam))]
	switch s.intn(6) {
	case 0:
		if len(g.arrays) > 0 {
			return fmt.Sprintf("(%s%s)", g.quant("i"), g.arrayAtom(g.arrays[s.intn(len(g.arrays))], "i"))
		}
	case 1:
		if g.holder {
			if s.chance(40) {
				return "hset"
			}
			l := t.locs[s.intn(len(t.locs))].name
			p, r := g.over(t, "exists", "i")
			return fmt.Sprintf("(hset && (%sh == i && %s.%s))", p, r, l)
		}
	case 2:
		if t.self {
			p, r := g.overAny(t, "i")
			switch {
			case g.holder && s.chance(50):
				return fmt.Sprintf("(%s%s.w == h)", p, r)
			case s.chance(50):
				return fmt.Sprintf("(%s%s.w == i)", p, r)
			}
			p, r = g.over(t, "exists", "i")
			return fmt.Sprintf("(%sexists (k : %s) i != k && %s.w == k)", p, SymSet, r)
		}
	case 3:
		if len(t.ints) > 0 {
			p, r := g.overAny(t, "i")
			return fmt.Sprintf("(%s%s)", p, g.intAtom(t.ints[0], r+"."+t.ints[0].name))
		}
	case 4:
		switch {
		case g.ptr && s.chance(50):
			if s.chance(50) {
				return fmt.Sprintf("(%sp0[i] == i)", g.quant("i"))
			}
			return fmt.Sprintf("(exists (i : %s) exists (k : %s) i != k && p0[i] == k && p0[k] == i)", SymSet, SymSet)
		case g.matrix && s.chance(50):
			return fmt.Sprintf("(%s%sm0[i][k])", g.quant("i"), g.quant("k"))
		case t.seen:
			p, r := g.overAny(t, "i")
			if s.chance(50) {
				return fmt.Sprintf("(%s%s.seen[i])", p, r)
			}
			return fmt.Sprintf("(%sexists (k : %s) %s.seen[k])", p, SymSet, r)
		}
	}
	if len(g.ints) > 0 {
		v := g.ints[s.intn(len(g.ints))]
		return g.intAtom(v, v.name)
	}
	return g.qLoc()
}

// qClock is a clock atom: over a global clock, or a local clock of the
// symmetric templates under a quantifier.
func (g *symGen) qClock() string {
	s := g.s
	op := clockOps[s.intn(len(clockOps))]
	k := s.intn(6)
	for _, t := range g.family() {
		if len(t.clocks) > 0 && s.chance(30) {
			p, r := g.overAny(t, "i")
			return fmt.Sprintf("(%s%s.%s %s %d)", p, r, g.pick(t.clocks), op, k)
		}
	}
	return fmt.Sprintf("%s %s %d", g.pick(g.xs), op, k)
}

// qDiagonal is a symmetric clock condition that may compare the clocks of
// two members, as the agreement model's property (7) does
// (exists i, j: P(j).x - P(i).x > k); otherwise qClock.
func (g *symGen) qDiagonal() string {
	s := g.s
	for _, t := range g.family() {
		if len(t.clocks) > 0 && s.chance(50) {
			c := g.pick(t.clocks)
			pi, ri := g.over(t, "exists", "i")
			pj, rj := g.over(t, "exists", "j")
			op := clockOps[s.intn(len(clockOps))]
			return fmt.Sprintf("(%s%s%s.%s - %s.%s %s %d)", pi, pj, rj, c, ri, c, op, s.intn(4))
		}
	}
	return g.qClock()
}

func (g *symGen) stateAtom(clocks bool) string {
	switch k := g.s.intn(10); {
	case k >= 5 && k < 8:
		return g.qData()
	case k >= 8 && clocks:
		return g.qClock()
	}
	return g.qLoc()
}

func (g *symGen) conj(clocks bool) string {
	a := g.stateAtom(clocks)
	if g.s.chance(40) {
		a += " && " + g.stateAtom(clocks)
	}
	return a
}

func (g *symGen) queries() {
	s := g.s
	add := func(f string) {
		g.qs = append(g.qs, genQuery{fmt.Sprintf("q%d", len(g.qs)), f})
	}
	for range 1 + s.intn(5) {
		switch s.intn(12) {
		case 0, 1, 2, 3:
			add("E<> " + g.conj(true))
		case 4, 5, 6:
			switch s.intn(3) {
			case 0:
				add("A[] !(" + g.conj(false) + ")")
			case 1:
				add("A[] " + g.stateAtom(false) + " imply " + g.qClock())
			default:
				add("A[] " + g.stateAtom(true))
			}
		case 7:
			add("E<> deadlock")
		case 8:
			add("A[] !deadlock")
		case 9:
			// with clock constraints (diagonal ones among them), which
			// a deadlock query's first, over-approximating exploration
			// must keep exact (queries.Check)
			if s.chance(50) {
				add("E<> deadlock && " + g.conj(true))
			} else {
				add("A[] deadlock imply " + g.qDiagonal())
			}
		default:
			x := g.pick(g.xs)
			if s.chance(50) {
				add("sup: " + x)
			} else {
				add("sup{" + g.stateAtom(false) + "}: " + x)
			}
		case 10:
			// an infimum, under a condition that may test clocks
			x := g.pick(g.xs)
			if s.chance(30) {
				add("inf: " + x)
			} else {
				add("inf{" + g.conj(true) + "}: " + x)
			}
		}
	}
}

func (g *symGen) text() []byte {
	var b strings.Builder
	b.WriteString("name: gensym\n")
	var d strings.Builder
	fmt.Fprintf(&d, "typedef scalar[%d] %s;\n", g.n, SymSet)
	fmt.Fprintf(&d, "clock %s;\n", strings.Join(g.xs, ", "))
	g.nClocks += len(g.xs)
	if g.gz {
		fmt.Fprintf(&d, "clock gz[%s];\n", SymSet)
		g.nClocks += g.n
	}
	if g.holder {
		fmt.Fprintf(&d, "%s h;\nbool hset = %v;\n", SymSet, g.s.chance(20))
	}
	if g.ptr {
		fmt.Fprintf(&d, "%s p0[%s];\n", SymSet, SymSet)
	}
	if g.matrix {
		fmt.Fprintf(&d, "bool m0[%s][%s];\n", SymSet, SymSet)
	}
	for _, a := range g.arrays {
		typ := "bool"
		if !a.isBool {
			typ = fmt.Sprintf("int[0, %d]", a.hi)
		}
		init := ""
		if a.init != nil {
			var vs []string
			for _, v := range a.init {
				if a.isBool {
					vs = append(vs, strconv.FormatBool(v != 0))
				} else {
					vs = append(vs, strconv.Itoa(v))
				}
			}
			init = " = {" + strings.Join(vs, ", ") + "}"
		}
		fmt.Fprintf(&d, "%s %s[%s]%s;\n", typ, a.name, SymSet, init)
	}
	for _, v := range g.ints {
		if v.isBool {
			fmt.Fprintf(&d, "bool %s = %v;\n", v.name, g.s.chance(30))
		} else {
			fmt.Fprintf(&d, "int[0, %d] %s = %d;\n", v.hi, v.name, g.s.intn(v.hi+1))
		}
	}
	for _, c := range g.chans {
		kind := "chan"
		if c.broadcast {
			kind = "broadcast chan"
		}
		if c.urgent {
			kind = "urgent " + kind
		}
		if c.indexed {
			fmt.Fprintf(&d, "%s %s[%s];\n", kind, c.name, SymSet)
		} else {
			fmt.Fprintf(&d, "%s %s;\n", kind, c.name)
		}
	}
	block(&b, "", "declarations", d.String())
	b.WriteString("templates:\n")
	var names []string
	for _, t := range g.tmpls {
		names = append(names, t.name)
		fmt.Fprintf(&b, "  - name: %s\n", t.name)
		if !t.observer {
			var ps []string
			for _, p := range t.params {
				ps = append(ps, "const "+SymSet+" "+p)
			}
			if t.kParam {
				ps = append(ps, "const int[0, 1] k")
			}
			fmt.Fprintf(&b, "    parameters: %s\n", strings.Join(ps, ", "))
		}
		var ld strings.Builder
		if len(t.clocks) > 0 {
			fmt.Fprintf(&ld, "clock %s;\n", strings.Join(t.clocks, ", "))
		}
		for _, v := range t.ints {
			if v.isBool {
				fmt.Fprintf(&ld, "bool %s = %v;\n", v.name, g.s.chance(30))
			} else {
				fmt.Fprintf(&ld, "int[0, %d] %s = %d;\n", v.hi, v.name, g.s.intn(v.hi+1))
			}
		}
		if t.self {
			fmt.Fprintf(&ld, "%s w;\n", SymSet)
		}
		if t.seen {
			fmt.Fprintf(&ld, "bool seen[%s];\n", SymSet)
		}
		block(&b, "    ", "declarations", ld.String())
		writeAutomaton(&b, t.locs, t.edges)
	}
	fmt.Fprintf(&b, "system: |\n  system %s;\n", strings.Join(names, ", "))
	b.WriteString("queries:\n")
	for _, qq := range g.qs {
		fmt.Fprintf(&b, "  %s: {formula: %s}\n", qq.name, q(qq.formula))
	}
	return []byte(b.String())
}
