package dbm

// Test-only helpers: a seeded random DBM generator, naive reference
// semantics (membership of rational points checked directly against a
// constraint set), and point samplers that hit interiors, boundaries and
// near-boundaries.

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// Randomised tests are deterministic; these flags explore further:
//
//	go test ./dbm/ -dbm.seed=7 -dbm.scale=20
var (
	seedFlag  = flag.Uint64("dbm.seed", 0, "offset added to the seeds of the randomised tests")
	scaleFlag = flag.Int("dbm.scale", 1, "multiplier for the number of random cases")
)

func TestMain(m *testing.M) {
	flag.Parse()
	testSeeds *= max(1, *scaleFlag)
	os.Exit(m.Run())
}

func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed+*seedFlag, 0x9e3779b97f4a7c15))
}

// randConstraint returns a random constraint x_i − x_j ≺ c with i ≠ j and
// |c| ≤ maxConst, shaped like guards: upper bounds x ≺ c with c ≥ 0, lower
// bounds x ≻ c with c ≥ 0, differences of either sign.
func randConstraint(rng *rand.Rand, dim int, maxConst int32) Constraint {
	i := rng.IntN(dim)
	j := rng.IntN(dim - 1)
	if j >= i {
		j++
	}
	c := rng.Int32N(maxConst + 1)
	switch {
	case i == 0:
		c = -c // −x_j ≺ −c: x_j ≻ c
	case j == 0:
	default:
		if rng.IntN(2) == 0 {
			c = -c
		}
	}
	if rng.IntN(3) == 0 {
		return Constraint{i, j, LT(c)}
	}
	return Constraint{i, j, LE(c)}
}

// genDBM returns a random closed non-empty DBM of dimension dim with
// constants in [−maxConst, maxConst] (up to closure sums), of varied shape:
// points, delayed points (lines), boxes, zones with equalities and strict
// bounds, unbounded zones, released clocks.
func genDBM(rng *rand.Rand, dim int, maxConst int32) DBM {
	d := New(dim)
	if dim == 1 {
		return d
	}
	shape := rng.IntN(10)
	switch shape {
	case 0, 1: // an integer point, maybe delayed
		d.Zero()
		for x := 1; x < dim; x++ {
			d.Reset(x, rng.Int32N(maxConst+1))
		}
		if shape == 1 {
			d.Up()
		}
	case 2: // a point with some clocks released
		d.Zero()
		for x := 1; x < dim; x++ {
			if rng.IntN(3) == 0 {
				d.Free(x)
			} else {
				d.Reset(x, rng.Int32N(maxConst+1))
			}
		}
	}
	k := rng.IntN(3 * dim)
	for range k {
		c := randConstraint(rng, dim, maxConst)
		switch rng.IntN(8) {
		case 0: // equality x_i − x_j == c
			c.B = LE(c.B.Const())
			if d.SatisfiesC(c) && d.SatisfiesC(Constraint{c.J, c.I, LE(-c.B.Const())}) {
				e := d.Clone()
				if e.ConstrainC(c) && e.Constrain(c.J, c.I, LE(-c.B.Const())) {
					d.CopyFrom(e)
				}
			}
		case 1:
			if rng.IntN(3) == 0 {
				d.Up()
			}
		case 2:
			if rng.IntN(4) == 0 {
				d.Reset(1+rng.IntN(dim-1), rng.Int32N(maxConst+1))
			}
		default:
			if d.SatisfiesC(c) {
				d.ConstrainC(c)
			}
		}
	}
	if rng.IntN(4) == 0 {
		d.Up()
	}
	if rng.IntN(8) == 0 {
		d.Free(1 + rng.IntN(dim-1))
	}
	return d
}

// genDim returns a dimension between 1 and max (inclusive), favouring 2–5.
func genDim(rng *rand.Rand, max int) int {
	if rng.IntN(10) == 0 {
		return 1 + rng.IntN(max)
	}
	return 2 + rng.IntN(min(4, max-1))
}

// point is a rational valuation: clock i has value num[i]/den.
type point struct {
	num []int64
	den int64
}

func (p point) String() string {
	s := "("
	for i := 1; i < len(p.num); i++ {
		if i > 1 {
			s += ", "
		}
		if p.num[i]%p.den == 0 {
			s += fmt.Sprint(p.num[i] / p.den)
		} else {
			s += fmt.Sprintf("%d/%d", p.num[i], p.den)
		}
	}
	return s + ")"
}

// satisfies reports whether p satisfies x_i − x_j ≺ b, by cross
// multiplication: (num_i − num_j)/den ≺ c.
func (p point) satisfies(c Constraint) bool {
	if c.B == LTInf {
		return true
	}
	lhs := p.num[c.I] - p.num[c.J]
	rhs := int64(c.B.Const()) * p.den
	if c.B.Strict() {
		return lhs < rhs
	}
	return lhs <= rhs
}

// constraintsOf lists every finite entry of a (possibly unclosed) matrix as
// a constraint.
func constraintsOf(d DBM) []Constraint {
	var cs []Constraint
	forConstraints(d, func(c Constraint) bool { cs = append(cs, c); return true })
	return cs
}

// forConstraints calls f on every finite entry of d as a constraint until
// f returns false.
func forConstraints(d DBM, f func(Constraint) bool) {
	for i := 0; i < d.Dim; i++ {
		for j := 0; j < d.Dim; j++ {
			if b := d.M[i*d.Dim+j]; b != LTInf {
				if !f(Constraint{i, j, b}) {
					return
				}
			}
		}
	}
}

// naiveIn is the reference membership: p is non-negative and satisfies
// every constraint of the (possibly unclosed) matrix d.
func naiveIn(d DBM, p point) bool {
	for _, v := range p.num {
		if v < 0 {
			return false
		}
	}
	in := true
	forConstraints(d, func(c Constraint) bool { in = p.satisfies(c); return in })
	return in
}

// interval is a set of rationals t (numerators over a fixed denominator)
// bounded by lo ≺ t ≺ hi.
type interval struct {
	lo, hi             int64
	loStrict, hiStrict bool
	hasHi              bool
}

func (iv *interval) atLeast(v int64, strict bool) {
	if v > iv.lo || (v == iv.lo && strict) {
		iv.lo, iv.loStrict = v, strict
	}
}

func (iv *interval) atMost(v int64, strict bool) {
	if !iv.hasHi || v < iv.hi || (v == iv.hi && strict) {
		iv.hi, iv.hiStrict, iv.hasHi = v, strict, true
	}
}

func (iv interval) nonEmpty() bool {
	if !iv.hasHi {
		return true
	}
	if iv.lo < iv.hi {
		return true
	}
	return iv.lo == iv.hi && !iv.loStrict && !iv.hiStrict
}

// anyDelayIn reports whether p + sign·δ ∈ d for some δ ≥ 0 (sign +1: the
// delay successor test for Down, −1: the predecessor test for Up), solved
// exactly as an interval of δ from the constraints of d.
func anyDelayIn(d DBM, p point, sign int64) bool {
	iv := interval{lo: 0}
	for _, c := range constraintsOf(d) {
		C := int64(c.B.Const()) * p.den
		s := c.B.Strict()
		switch {
		case c.I != 0 && c.J != 0, c.I == 0 && c.J == 0:
			if !p.satisfies(c) {
				return false
			}
		case c.J == 0: // p_i + sign·δ ≺ C
			if sign > 0 {
				iv.atMost(C-p.num[c.I], s)
			} else {
				iv.atLeast(p.num[c.I]-C, s)
			}
		default: // −(p_j + sign·δ) ≺ C
			if sign > 0 {
				iv.atLeast(-C-p.num[c.J], s)
			} else {
				iv.atMost(C+p.num[c.J], s)
			}
		}
	}
	return iv.nonEmpty()
}

// anyValueIn reports whether p[x := t] ∈ d for some t ≥ 0, exactly.
func anyValueIn(d DBM, p point, x int) bool {
	iv := interval{lo: 0}
	for _, c := range constraintsOf(d) {
		C := int64(c.B.Const()) * p.den
		s := c.B.Strict()
		switch {
		case c.I == x && c.J == x:
			if C < 0 || (C == 0 && s) {
				return false
			}
		case c.I == x: // t − p_j ≺ C
			iv.atMost(C+p.num[c.J], s)
		case c.J == x: // p_i − t ≺ C
			iv.atLeast(p.num[c.I]-C, s)
		default:
			if !p.satisfies(c) {
				return false
			}
		}
	}
	return iv.nonEmpty()
}

// zoneOf builds the zone of the given constraints (over non-negative
// clocks); it fails the test if they are unsatisfiable.
func zoneOf(t testing.TB, dim int, cs ...Constraint) DBM {
	t.Helper()
	d := New(dim)
	for _, c := range cs {
		if !d.ConstrainC(c) {
			t.Fatalf("zoneOf: %v made the zone empty", c)
		}
	}
	return d
}

// Readable constraint constructors for tests (clock 0 is the reference).
func le(i, j int, c int32) Constraint { return Constraint{i, j, LE(c)} }
func lt(i, j int, c int32) Constraint { return Constraint{i, j, LT(c)} }

// topoClosure returns the topological closure of a non-empty zone: all
// bounds made non-strict, closed again.
func topoClosure(d DBM) DBM {
	e := d.Clone()
	for k, b := range e.M {
		if b != LTInf && b.Strict() {
			e.M[k] = LE(b.Const())
		}
	}
	if !e.Close() {
		panic("topoClosure of a non-empty zone is empty")
	}
	return e
}

// samplePoints returns count random points with coordinates in
// [0, maxConst+2] over denominator 12 (so halves, thirds and quarters
// occur), plus, for every non-empty zone given: its Point, points on its
// boundary faces x_i − x_j = c_ij and on vertices of its closure, and
// perturbations of those by ±1/(4·den).
func samplePoints(rng *rand.Rand, dim int, maxConst int32, count int, zones ...DBM) []point {
	var pts []point
	fracs := []int64{0, 0, 0, 0, 6, 4, 3, 8, 9}
	for range count {
		p := point{num: make([]int64, dim), den: 12}
		for x := 1; x < dim; x++ {
			p.num[x] = int64(rng.Int32N(maxConst+3))*12 + fracs[rng.IntN(len(fracs))]
		}
		pts = append(pts, p)
	}
	for _, z := range zones {
		if z.IsEmpty() {
			continue
		}
		num, den := z.Point()
		pts = append(pts, point{num, den})
		cl := topoClosure(z)
		for range 2 * dim {
			// A face x_i − x_j = c_ij of the closure, sometimes two faces.
			f := cl.Clone()
			ok := true
			for range 1 + rng.IntN(2) {
				i, j := rng.IntN(dim), rng.IntN(dim)
				b := f.M[i*dim+j]
				if i == j || b == LTInf {
					continue
				}
				ok = ok && f.Constrain(j, i, LE(-b.Const()))
			}
			if !ok {
				continue
			}
			num, den := f.Point()
			pts = append(pts, point{num, den})
		}
	}
	// Perturb some of the zone-derived points.
	n := len(pts)
	for k := count; k < n; k++ {
		p := pts[k]
		q := point{num: make([]int64, dim), den: p.den * 4}
		for x := range q.num {
			q.num[x] = p.num[x] * 4
		}
		if dim > 1 {
			x := 1 + rng.IntN(dim-1)
			q.num[x] += int64(rng.IntN(3)) - 1
			if q.num[x] < 0 {
				q.num[x] = 0
			}
		}
		pts = append(pts, q)
	}
	return pts
}

// refSubsetEq decides a ⊆ b exactly without Relation: a ⊆ b iff for every
// finite entry (i, j) of b, a ∧ ¬(x_i − x_j ≺ b_ij) is empty. It returns a
// witness point of a outside b when the inclusion fails.
func refSubsetEq(a, b DBM) (bool, *point) {
	n := a.Dim
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			c := b.M[i*n+j]
			if i == j || c == LTInf {
				continue
			}
			e := a.Clone()
			if e.Constrain(j, i, c.Neg()) {
				num, den := e.Point()
				return false, &point{num, den}
			}
		}
	}
	return true, nil
}

// negCycle is an independent emptiness test for a raw matrix: Bellman–Ford
// from a virtual source over the constraint graph (edge j → i of weight
// b_ij). Strictness is folded into integer weights: with K = Dim+1 > the
// number of strict edges on any simple cycle, "≤ c" weighs c·K and "< c"
// weighs c·K − 1, so a simple cycle is negative exactly when its bound sum
// is below ≤0.
func negCycle(d DBM) bool {
	n := d.Dim
	K := int64(n + 1)
	dist := make([]int64, n)
	relax := func() bool {
		changed := false
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				b := d.M[i*n+j]
				if b == LTInf {
					continue
				}
				w := int64(b.Const()) * K
				if b.Strict() {
					w--
				}
				if s := dist[j] + w; s < dist[i] {
					dist[i] = s
					changed = true
				}
			}
		}
		return changed
	}
	for range n + 1 {
		if !relax() {
			return false
		}
	}
	return relax()
}

// scaled returns d with every finite constant multiplied by k > 0 (the
// zone stretched by k), still closed.
func scaled(d DBM, k int64) DBM {
	e := d.Clone()
	for idx, b := range e.M {
		if b == LTInf {
			continue
		}
		c := int32(int64(b.Const()) * k)
		if b.Strict() {
			e.M[idx] = LT(c)
		} else {
			e.M[idx] = LE(c)
		}
	}
	return e
}

// regionOf returns the M-region of p (Alur–Dill region equivalence with
// maximal constants max) as a zone.
func regionOf(t testing.TB, p point, max []int32) DBM {
	t.Helper()
	dim := len(p.num)
	d := New(dim)
	ip := make([]int64, dim)
	fp := make([]int64, dim) // fractional part, as numerator over p.den
	bounded := make([]bool, dim)
	for x := 1; x < dim; x++ {
		ip[x], fp[x] = p.num[x]/p.den, p.num[x]%p.den
		v2 := p.num[x]
		bounded[x] = max[x] >= 0 && v2 <= int64(max[x])*p.den
		switch {
		case !bounded[x]:
			if max[x] >= 0 {
				d.Constrain(0, x, LT(-max[x]))
			}
		case fp[x] == 0:
			d.Constrain(x, 0, LE(int32(ip[x])))
			d.Constrain(0, x, LE(-int32(ip[x])))
		default:
			d.Constrain(x, 0, LT(int32(ip[x])+1))
			d.Constrain(0, x, LT(-int32(ip[x])))
		}
	}
	for x := 1; x < dim; x++ {
		for y := 1; y < dim; y++ {
			if x == y || !bounded[x] || !bounded[y] {
				continue
			}
			k := int32(ip[x] - ip[y])
			switch {
			case fp[x] == fp[y]:
				d.Constrain(x, y, LE(k))
			case fp[x] < fp[y]:
				d.Constrain(x, y, LT(k))
			default:
				d.Constrain(y, x, LT(-k))
			}
		}
	}
	if d.IsEmpty() || !d.Contains(p.num, p.den) {
		t.Fatalf("regionOf(%v) does not contain the point:\n%s", p, d.Matrix())
	}
	return d
}

// luSimulators returns, scaled by p.den, the set of valuations v' that
// LU-simulate p (p ≼_LU v': for every clock, v'_x = p_x, or L_x < v'_x <
// p_x, or U_x < p_x < v'_x — STTT 2006, definition of ≼_LU). Per clock this is
// an interval, so the set is a zone.
func luSimulators(p point, l, u []int32) DBM {
	dim := len(p.num)
	d := New(dim)
	for x := 1; x < dim; x++ {
		v := p.num[x] // scaled value
		if l[x] >= 0 && int64(l[x])*p.den >= v {
			d.Constrain(0, x, LE(int32(-v))) // v'_x ≥ p_x
		} else if l[x] >= 0 {
			d.Constrain(0, x, LT(int32(-int64(l[x])*p.den))) // v'_x > L_x
		}
		if u[x] < 0 || int64(u[x])*p.den < v {
			continue // anything above is allowed
		}
		d.Constrain(x, 0, LE(int32(v))) // v'_x ≤ p_x
	}
	return d
}
