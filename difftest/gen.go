package difftest

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Source is the deterministic stream of choices the generator draws from:
// the bytes of a fuzz input, or bytes drawn from a seeded generator. Past
// its end every choice is 0, and the generator is written so that 0 is
// always the simplest choice (one process, no sync, no guard, ...): the
// fuzzer's minimisation of the input, which shortens it and lowers its
// bytes, therefore shrinks the model.
type Source struct {
	b []byte
	i int
}

// NewSource reads choices from b.
func NewSource(b []byte) *Source { return &Source{b: b} }

// SeedBytes returns the bytes seed stands for: n bytes of a PCG stream.
func SeedBytes(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// intn returns a choice in [0, n) (0 when the input is exhausted).
func (s *Source) intn(n int) int {
	if n <= 1 {
		return 0
	}
	if s.i >= len(s.b) {
		return 0
	}
	v := int(s.b[s.i])
	s.i++
	return v % n
}

// chance is true with probability about pct/100 (false on exhausted input).
func (s *Source) chance(pct int) bool {
	if s.i >= len(s.b) {
		return false
	}
	return s.intn(100) < pct
}

// Used returns how many bytes the generator consumed.
func (s *Source) Used() int { return s.i }

type clockDecl struct {
	name  string
	owner int // -1 global, else the process
}

type intDecl struct {
	name   string
	owner  int // -1 global
	hi     int // range [0, hi]
	isBool bool
}

type chanDecl struct {
	name      string
	broadcast bool
	urgent    bool
	size      int // 0: scalar, else an array of this size
}

type genLoc struct {
	name      string
	committed bool
	urgent    bool
	inv       []string
}

type genEdge struct {
	from, to int
	sel      string
	guard    []string
	sync     string
	update   []string
}

type genProc struct {
	name  string
	locs  []genLoc
	edges []genEdge
}

type genQuery struct {
	name, formula string
}

// Model is a generated model: its YAML text and a summary.
type Model struct {
	Text    []byte
	Procs   int
	Clocks  int
	Queries int
}

type generator struct {
	s      *Source
	clocks []clockDecl
	ints   []intDecl
	chans  []chanDecl
	consts []int // K0, K1, ... (parameters)
	procs  []*genProc
	qs     []genQuery
	// chanPrio is a chan priority declaration (or ""); procCut[i] puts a
	// '<' before process i on the system line (process priorities).
	chanPrio string
	procCut  []bool
	// progress is the model's progress measure ("": none)
	progress string
}

// Generate builds a random model from the choices of s. The model is valid
// by construction: a generated model that does not compile is a generator
// bug (reported as a failure by the harness).
func Generate(s *Source) *Model {
	g := &generator{s: s}
	nProcs := 1 + s.intn(4)
	// clocks: 1 (most often) to 3, each global or local to a process
	nClocks := 1
	switch s.intn(20) {
	case 10, 11, 12, 13, 14, 15, 16:
		nClocks = 2
	case 17, 18, 19:
		nClocks = 3
	}
	for i := range nClocks {
		owner := -1
		if s.chance(35) {
			owner = s.intn(nProcs)
		}
		name := fmt.Sprintf("x%d", i)
		if owner >= 0 {
			name = fmt.Sprintf("z%d", i)
		}
		g.clocks = append(g.clocks, clockDecl{name, owner})
	}
	for i := range s.intn(3) {
		owner := -1
		if s.chance(25) {
			owner = s.intn(nProcs)
		}
		g.ints = append(g.ints, intDecl{name: fmt.Sprintf("v%d", i), owner: owner, hi: 1 + s.intn(3)})
	}
	for i := range s.intn(2) {
		owner := -1
		if s.chance(20) {
			owner = s.intn(nProcs)
		}
		g.ints = append(g.ints, intDecl{name: fmt.Sprintf("b%d", i), owner: owner, hi: 1, isBool: true})
	}
	for range s.intn(2) {
		g.consts = append(g.consts, s.intn(5))
	}
	if nProcs > 1 || s.chance(30) {
		for i := range s.intn(4) {
			c := chanDecl{name: fmt.Sprintf("c%d", i)}
			switch s.intn(10) {
			case 5, 6:
				c.broadcast = true
			case 7, 8:
				c.urgent = true
			case 9:
				c.broadcast, c.urgent = true, true
			}
			if s.chance(15) {
				c.size = 2
			}
			g.chans = append(g.chans, c)
		}
	}
	for p := range nProcs {
		g.procs = append(g.procs, g.process(p))
	}
	g.queries()
	g.priorities()
	g.progressMeasure()
	text := g.text()
	// the liveness queries are drawn last and appended to the queries,
	// the text's last section, so that the rest of a seed's model is the
	// one it was before they were added (the text draws initial values)
	for _, qq := range g.livenessQueries() {
		text = fmt.Appendf(text, "  %s: {formula: %s}\n", qq.name, q(qq.formula))
	}
	return &Model{Text: text, Procs: nProcs, Clocks: nClocks, Queries: len(g.qs)}
}

// livenessQueries draws none to two liveness queries (E[], A<>, -->) over
// locations and data (their formulas may not test clocks), adds them to
// g.qs and returns them.
func (g *generator) livenessQueries() []genQuery {
	start := len(g.qs)
	g.qs = drawLiveness(g.s, g, g.qs)
	return g.qs[start:]
}

// atomDrawer is what drawLiveness needs of a generator: conjunctions and
// atoms over its locations and data (and clocks, which it does not ask).
type atomDrawer interface {
	conj(clocks bool) string
	stateAtom(clocks bool) string
}

// drawLiveness appends to qs none to two liveness queries drawn from s
// over a's atoms without clocks, numbered after qs.
func drawLiveness(s *Source, a atomDrawer, qs []genQuery) []genQuery {
	for range s.intn(3) {
		var f string
		switch s.intn(3) {
		case 0:
			f = "E[] " + a.conj(false)
		case 1:
			f = "A<> " + a.conj(false)
		default:
			f = a.stateAtom(false) + " --> " + a.stateAtom(false)
		}
		qs = append(qs, genQuery{fmt.Sprintf("q%d", len(qs)), f})
	}
	return qs
}

// measureWeights are the factors a random progress measure's terms get
// (GenerateSymmetric's too), "" twice as likely as the others.
var measureWeights = []string{"", "", "2 * ", "-"}

// weight draws the factor of a progress measure's term (drawn before
// the term's own choices, as the seeds' models expect).
func weight(s *Source) string { return measureWeights[s.intn(len(measureWeights))] }

// progressMeasure draws, for every other model, a progress measure (the
// order of --order progress): a weighted sum of global variables and
// location tests. It need not be monotone: the order never changes a
// verdict, which is what the configurations with that order check. Drawn
// last, as the priorities are.
func (g *generator) progressMeasure() {
	s := g.s
	if !s.chance(50) {
		return
	}
	var terms []string
	for _, v := range g.ints {
		if v.owner < 0 && s.chance(60) {
			terms = append(terms, weight(s)+v.name)
		}
	}
	for _, p := range g.procs {
		if s.chance(30) {
			terms = append(terms, weight(s)+p.name+"."+p.locs[s.intn(len(p.locs))].name)
		}
	}
	if len(terms) == 0 {
		terms = []string{"0"}
	}
	g.progress = strings.Join(terms, " + ")
}

// priorities draws, now and then, channel priorities (chan priority over
// some channels, whole arrays or one element, and sometimes default, in 2
// or 3 levels) and process priorities (cuts of the system line). Drawn
// last, so that the rest of a seed's model does not depend on them.
func (g *generator) priorities() {
	s := g.s
	if len(g.chans) > 0 && s.chance(12) {
		levels := make([][]string, 2+s.intn(2))
		if s.chance(60) {
			l := s.intn(len(levels))
			levels[l] = append(levels[l], "default")
		}
		for _, c := range g.chans {
			if !s.chance(75) {
				continue
			}
			name := c.name
			if c.size > 0 && s.chance(50) {
				name += fmt.Sprintf("[%d]", s.intn(c.size))
			}
			l := s.intn(len(levels))
			levels[l] = append(levels[l], name)
		}
		var parts []string
		for _, l := range levels {
			if len(l) > 0 {
				parts = append(parts, strings.Join(l, ", "))
			}
		}
		if len(parts) > 1 || len(parts) == 1 && parts[0] != "default" {
			g.chanPrio = "chan priority " + strings.Join(parts, " < ") + ";"
		}
	}
	g.procCut = make([]bool, len(g.procs))
	if len(g.procs) > 1 && s.chance(10) {
		for i := 1; i < len(g.procs); i++ {
			g.procCut[i] = s.chance(50)
		}
	}
}

// visibleClocks are the clocks process p may use.
func (g *generator) visibleClocks(p int) []clockDecl {
	var out []clockDecl
	for _, c := range g.clocks {
		if c.owner < 0 || c.owner == p {
			out = append(out, c)
		}
	}
	return out
}

func (g *generator) visibleInts(p int) []intDecl {
	var out []intDecl
	for _, v := range g.ints {
		if v.owner < 0 || v.owner == p {
			out = append(out, v)
		}
	}
	return out
}

// constant returns a clock constant in [lo, 4], sometimes a parameter.
func (g *generator) constant(lo int) string {
	if len(g.consts) > 0 && g.s.chance(15) {
		k := g.s.intn(len(g.consts))
		if g.consts[k] >= lo {
			return fmt.Sprintf("K%d", k)
		}
	}
	return strconv.Itoa(lo + g.s.intn(5-lo))
}

var clockOps = []string{"<=", "<", "==", ">=", ">"}

func (g *generator) process(p int) *genProc {
	s := g.s
	gp := &genProc{name: fmt.Sprintf("P%d", p)}
	nLocs := 1 + s.intn(4)
	clocks := g.visibleClocks(p)
	ints := g.visibleInts(p)
	for l := range nLocs {
		loc := genLoc{name: fmt.Sprintf("L%d", l)}
		switch s.intn(20) {
		case 17, 18:
			loc.committed = true
		case 19:
			loc.urgent = true
		}
		if len(clocks) > 0 && s.chance(35) {
			c := clocks[s.intn(len(clocks))]
			if s.chance(30) {
				loc.inv = append(loc.inv, fmt.Sprintf("%s < %s", c.name, g.constant(1)))
			} else {
				loc.inv = append(loc.inv, fmt.Sprintf("%s <= %s", c.name, g.constant(0)))
			}
		}
		if l > 0 && len(ints) > 0 && s.chance(5) {
			loc.inv = append(loc.inv, g.dataAtom(ints, ""))
		}
		gp.locs = append(gp.locs, loc)
	}
	nEdges := s.intn(6)
	if nLocs > 1 && nEdges == 0 {
		nEdges = 1
	}
	for k := range nEdges {
		e := g.edge(p, nLocs, clocks, ints)
		if k < nLocs-1 && s.chance(60) {
			// a path through the locations keeps most of them reachable
			e.from, e.to = k, k+1
		}
		gp.edges = append(gp.edges, e)
	}
	return gp
}

// dataAtom is a condition over the variables ints (and the select
// variable sel when not "").
func (g *generator) dataAtom(ints []intDecl, sel string) string {
	s := g.s
	v := ints[s.intn(len(ints))]
	if v.isBool {
		if s.chance(50) {
			return v.name
		}
		return "!" + v.name
	}
	if sel != "" && s.chance(40) {
		return fmt.Sprintf("%s == %s", v.name, sel)
	}
	ops := []string{"==", "!=", "<", "<=", ">=", ">"}
	return fmt.Sprintf("%s %s %d", v.name, ops[s.intn(len(ops))], s.intn(v.hi+1))
}

func (g *generator) edge(p, nLocs int, clocks []clockDecl, ints []intDecl) genEdge {
	s := g.s
	e := genEdge{from: s.intn(nLocs), to: s.intn(nLocs)}
	sel := ""
	if s.chance(15) {
		sel = "i"
		e.sel = fmt.Sprintf("i : int[0, %d]", 1+s.intn(2))
	}
	// the synchronisation first: it decides whether clock guards are allowed
	clockGuards := true
	if len(g.chans) > 0 && s.chance(45) {
		c := g.chans[s.intn(len(g.chans))]
		send := s.chance(50)
		name := c.name
		if c.size > 0 {
			if sel != "" && s.chance(60) {
				name += "[i % 2]"
			} else {
				name += fmt.Sprintf("[%d]", s.intn(c.size))
			}
		}
		if send {
			e.sync = name + "!"
		} else {
			e.sync = name + "?"
		}
		if c.urgent {
			clockGuards = false
		}
	}
	for range s.intn(3) {
		if clockGuards && len(clocks) > 0 && s.chance(60) {
			c := clocks[s.intn(len(clocks))]
			op := clockOps[s.intn(len(clockOps))]
			if len(clocks) > 1 && s.chance(4) {
				// a diagonal constraint
				d := clocks[s.intn(len(clocks))]
				if d.name != c.name {
					e.guard = append(e.guard, fmt.Sprintf("%s - %s %s %d", c.name, d.name, op, s.intn(4)))
					continue
				}
			}
			if len(ints) > 0 && s.chance(5) {
				// a clock bound that depends on data
				v := ints[s.intn(len(ints))]
				e.guard = append(e.guard, fmt.Sprintf("%s %s %s", c.name, op, v.name))
				continue
			}
			lo := 0
			if op == "<" {
				lo = 1
			}
			e.guard = append(e.guard, fmt.Sprintf("%s %s %s", c.name, op, g.constant(lo)))
		} else if len(ints) > 0 {
			e.guard = append(e.guard, g.dataAtom(ints, sel))
		}
	}
	for range s.intn(3) {
		if len(clocks) > 0 && s.chance(50) {
			c := clocks[s.intn(len(clocks))]
			val := "0"
			if s.chance(20) {
				val = strconv.Itoa(1 + s.intn(3))
			}
			e.update = append(e.update, fmt.Sprintf("%s = %s", c.name, val))
		} else if len(ints) > 0 {
			e.update = append(e.update, g.dataUpdate(ints, sel))
		}
	}
	return e
}

// dataUpdate is an assignment that stays in range, or rarely one that may
// leave it (a run-time model error).
func (g *generator) dataUpdate(ints []intDecl, sel string) string {
	s := g.s
	v := ints[s.intn(len(ints))]
	if v.isBool {
		switch s.intn(3) {
		case 0:
			return v.name + " = !" + v.name
		case 1:
			return v.name + " = true"
		}
		return v.name + " = false"
	}
	switch s.intn(12) {
	case 1, 2:
		return fmt.Sprintf("%s = (%s + 1) %% %d", v.name, v.name, v.hi+1)
	case 3:
		return fmt.Sprintf("%s = min(%s + 1, %d)", v.name, v.name, v.hi)
	case 4:
		return fmt.Sprintf("%s = %d - %s", v.name, v.hi, v.name)
	case 5:
		if sel != "" {
			return fmt.Sprintf("%s = %s %% %d", v.name, sel, v.hi+1)
		}
	case 6:
		return v.name + "++" // may leave the range
	case 7:
		if o := ints[s.intn(len(ints))]; !o.isBool && o.hi <= v.hi {
			return fmt.Sprintf("%s = %s", v.name, o.name)
		}
	}
	return fmt.Sprintf("%s = %d", v.name, s.intn(v.hi+1))
}

// queryName names a variable or clock of process p in a query.
func (g *generator) qname(name string, owner int) string {
	if owner < 0 {
		return name
	}
	return g.procs[owner].name + "." + name
}

// locAtom is `P.L` for a random process and location.
func (g *generator) locAtom() string {
	p := g.procs[g.s.intn(len(g.procs))]
	return p.name + "." + p.locs[g.s.intn(len(p.locs))].name
}

func (g *generator) qDataAtom() string {
	s := g.s
	v := g.ints[s.intn(len(g.ints))]
	n := g.qname(v.name, v.owner)
	if v.isBool {
		if s.chance(50) {
			return n
		}
		return "!" + n
	}
	ops := []string{"==", "!=", "<=", ">="}
	return fmt.Sprintf("%s %s %d", n, ops[s.intn(len(ops))], s.intn(v.hi+1))
}

// qDataTerm is a data expression over the model's integers for a sup or
// inf query ("" when the model has none): one of them, or the sum,
// difference or product of two, or one plus a constant.
func (g *generator) qDataTerm() string {
	s := g.s
	if len(g.ints) == 0 {
		return ""
	}
	v := g.ints[s.intn(len(g.ints))]
	a := g.qname(v.name, v.owner)
	switch s.intn(5) {
	case 0, 1:
		return a
	case 2:
		return fmt.Sprintf("%s + %d", a, s.intn(3)-1)
	}
	w := g.ints[s.intn(len(g.ints))]
	ops := []string{" + ", " - ", " * "}
	return a + ops[s.intn(len(ops))] + g.qname(w.name, w.owner)
}

// qClock names a random clock as a query names it.
func (g *generator) qClock() string {
	c := g.clocks[g.s.intn(len(g.clocks))]
	return g.qname(c.name, c.owner)
}

func (g *generator) qClockAtom() string {
	s := g.s
	c := g.clocks[s.intn(len(g.clocks))]
	op := clockOps[s.intn(len(clockOps))]
	if len(g.clocks) > 1 && s.chance(12) {
		d := g.clocks[s.intn(len(g.clocks))]
		if d.name != c.name {
			return fmt.Sprintf("%s - %s %s %d", g.qname(c.name, c.owner), g.qname(d.name, d.owner), op, s.intn(4))
		}
	}
	return fmt.Sprintf("%s %s %d", g.qname(c.name, c.owner), op, s.intn(6))
}

// stateAtom is a location, data or clock atom.
func (g *generator) stateAtom(clocks bool) string {
	switch k := g.s.intn(10); {
	case k >= 6 && len(g.ints) > 0:
		return g.qDataAtom()
	case k >= 8 && clocks:
		return g.qClockAtom()
	}
	return g.locAtom()
}

func (g *generator) conj(clocks bool) string {
	a := g.stateAtom(clocks)
	if g.s.chance(40) {
		a += " && " + g.stateAtom(clocks)
	}
	return a
}

func (g *generator) queries() {
	s := g.s
	add := func(f string) {
		g.qs = append(g.qs, genQuery{fmt.Sprintf("q%d", len(g.qs)), f})
	}
	n := 1 + s.intn(5)
	for range n {
		switch s.intn(12) {
		case 0, 1, 2, 3:
			add("E<> " + g.conj(true))
		case 4, 5, 6:
			switch s.intn(3) {
			case 0:
				add("A[] !(" + g.conj(false) + ")")
			case 1:
				add("A[] " + g.stateAtom(false) + " imply " + g.qClockAtom())
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
				add("A[] deadlock imply " + g.qClockAtom())
			}
		default:
			x := g.qClock()
			if s.chance(50) {
				add("sup: " + x)
			} else {
				add("sup{" + g.stateAtom(false) + "}: " + x)
			}
		case 10:
			// an infimum of a clock, or an extreme of a data
			// expression
			kw := "inf"
			if s.chance(40) {
				kw = "sup"
			}
			term := g.qDataTerm()
			if term == "" || s.chance(50) {
				kw = "inf"
				term = g.qClock()
			}
			if s.chance(25) {
				// a second term, checked in the same exploration
				if t := g.qDataTerm(); t != "" && s.chance(50) {
					term += ", " + t
				} else {
					term += ", " + g.qClock()
				}
			}
			if s.chance(50) {
				add(kw + ": " + term)
			} else {
				add(kw + "{" + g.stateAtom(true) + "}: " + term)
			}
		}
	}
}

func q(s string) string { return strconv.Quote(s) }

func (g *generator) declsOf(owner int) string {
	var b strings.Builder
	var cl []string
	for _, c := range g.clocks {
		if c.owner == owner {
			cl = append(cl, c.name)
		}
	}
	if len(cl) > 0 {
		fmt.Fprintf(&b, "clock %s;\n", strings.Join(cl, ", "))
	}
	for _, v := range g.ints {
		if v.owner != owner {
			continue
		}
		if v.isBool {
			fmt.Fprintf(&b, "bool %s = %v;\n", v.name, g.s.chance(30))
		} else {
			fmt.Fprintf(&b, "int[0, %d] %s = %d;\n", v.hi, v.name, g.s.intn(v.hi+1))
		}
	}
	if owner < 0 {
		for _, c := range g.chans {
			kind := "chan"
			if c.broadcast {
				kind = "broadcast chan"
			}
			if c.urgent {
				kind = "urgent " + kind
			}
			if c.size > 0 {
				fmt.Fprintf(&b, "%s %s[%d];\n", kind, c.name, c.size)
			} else {
				fmt.Fprintf(&b, "%s %s;\n", kind, c.name)
			}
		}
		if g.chanPrio != "" {
			b.WriteString(g.chanPrio + "\n")
		}
	}
	return b.String()
}

func block(b *strings.Builder, indent, key, code string) {
	if code == "" {
		return
	}
	fmt.Fprintf(b, "%s%s: |\n", indent, key)
	for _, l := range strings.Split(strings.TrimRight(code, "\n"), "\n") {
		fmt.Fprintf(b, "%s  %s\n", indent, l)
	}
}

func (g *generator) text() []byte {
	var b strings.Builder
	b.WriteString("name: gen\n")
	if len(g.consts) > 0 {
		var ps []string
		for i, k := range g.consts {
			ps = append(ps, fmt.Sprintf("K%d: %d", i, k))
		}
		fmt.Fprintf(&b, "parameters: {%s}\n", strings.Join(ps, ", "))
	}
	block(&b, "", "declarations", g.declsOf(-1))
	b.WriteString("templates:\n")
	for p, gp := range g.procs {
		fmt.Fprintf(&b, "  - name: %s\n", gp.name)
		block(&b, "    ", "declarations", g.declsOf(p))
		writeAutomaton(&b, gp.locs, gp.edges)
	}
	line := ""
	for i, gp := range g.procs {
		switch {
		case i == 0:
		case i < len(g.procCut) && g.procCut[i]:
			line += " < "
		default:
			line += ", "
		}
		line += gp.name
	}
	fmt.Fprintf(&b, "system: |\n  system %s;\n", line)
	if g.progress != "" {
		fmt.Fprintf(&b, "progress: %s\n", q(g.progress))
	}
	b.WriteString("queries:\n")
	for _, qq := range g.qs {
		fmt.Fprintf(&b, "  %s: {formula: %s}\n", qq.name, q(qq.formula))
	}
	return []byte(b.String())
}

// writeAutomaton writes a template's locations (the first is initial) and
// edges.
func writeAutomaton(b *strings.Builder, locs []genLoc, edges []genEdge) {
	b.WriteString("    locations:\n")
	for l, loc := range locs {
		fmt.Fprintf(b, "      - {name: %s", loc.name)
		if l == 0 {
			b.WriteString(", initial: true")
		}
		if loc.committed {
			b.WriteString(", committed: true")
		}
		if loc.urgent {
			b.WriteString(", urgent: true")
		}
		if len(loc.inv) > 0 {
			fmt.Fprintf(b, ", invariant: %s", q(strings.Join(loc.inv, " && ")))
		}
		b.WriteString("}\n")
	}
	if len(edges) == 0 {
		b.WriteString("    edges: []\n")
		return
	}
	b.WriteString("    edges:\n")
	for _, e := range edges {
		fmt.Fprintf(b, "      - {from: %s, to: %s", locs[e.from].name, locs[e.to].name)
		if e.sel != "" {
			fmt.Fprintf(b, ", select: %s", q(e.sel))
		}
		if len(e.guard) > 0 {
			fmt.Fprintf(b, ", guard: %s", q(strings.Join(e.guard, " && ")))
		}
		if e.sync != "" {
			fmt.Fprintf(b, ", sync: %s", q(e.sync))
		}
		if len(e.update) > 0 {
			fmt.Fprintf(b, ", update: %s", q(strings.Join(e.update, ", ")))
		}
		b.WriteString("}\n")
	}
}
