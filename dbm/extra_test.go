package dbm

import (
	"math/rand/v2"
	"testing"
)

// genBounds returns a random clock bound array: [0] = 0, other entries
// NoBound or in [0, maxConst+2].
func genBounds(rng *rand.Rand, dim int, maxConst int32) []int32 {
	b := make([]int32, dim)
	for x := 1; x < dim; x++ {
		if rng.IntN(6) == 0 {
			b[x] = NoBound
		} else {
			b[x] = rng.Int32N(maxConst + 3)
		}
	}
	return b
}

func maxBounds(l, u []int32) []int32 {
	m := make([]int32, len(l))
	for x := range m {
		m[x] = max(l[x], u[x])
	}
	return m
}

// refExtra is a direct transcription of the definitions of STTT 2006
// (Extra_M^(+), Extra_LU^(+)), kept deliberately naive: it reads a copy of the
// original matrix, writes a fresh one, and closes it. Extra_M and Extra_M^+
// are Extra_LU and Extra_LU^+ with L = U = M by definition.
func refExtra(z DBM, l, u []int32, plus bool) DBM {
	n := z.Dim
	const inf = int64(1) << 40
	K := func(v int32) int64 { // a clock bound, NoBound as −∞
		if v < 0 {
			return -inf
		}
		return int64(v)
	}
	c := func(i, j int) int64 { // the constant of c_ij, +∞ for "< ∞"
		b := z.At(i, j)
		if b == LTInf {
			return inf
		}
		return int64(b.Const())
	}
	L := func(i int) int64 { return K(l[i]) }
	U := func(i int) int64 { return K(u[i]) }
	lower := func(i, j int) Bound { // (<, −U(x_j)), with −U = +∞ for NoBound
		if u[j] < 0 {
			if i == 0 {
				return LEZero // x_j ≥ 0 remains: the weakest valid lower bound
			}
			return LTInf
		}
		return LT(-u[j])
	}
	out := z.Clone()
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j {
				continue
			}
			switch {
			case c(i, j) > L(i):
				out.Set(i, j, LTInf)
			case plus && -c(0, i) > L(i):
				out.Set(i, j, LTInf)
			case plus && -c(0, j) > U(j) && i != 0:
				out.Set(i, j, LTInf)
			case plus && -c(0, j) > U(j) && i == 0:
				out.Set(i, j, lower(i, j))
			case !plus && -c(i, j) > U(j):
				out.Set(i, j, lower(i, j))
			}
		}
	}
	if !out.Close() {
		panic("reference extrapolation empty")
	}
	return out
}

type extraCase struct {
	z    DBM
	l, u []int32
	m    []int32 // max(l, u)
}

func genExtraCases(seed uint64, count int) []extraCase {
	rng := newRand(seed)
	var cs []extraCase
	for range count {
		dim := genDim(rng, testMaxDim)
		z := genDBM(rng, dim, 2*testMaxConst)
		l, u := genBounds(rng, dim, testMaxConst), genBounds(rng, dim, testMaxConst)
		cs = append(cs, extraCase{z, l, u, maxBounds(l, u)})
	}
	return cs
}

func applied(z DBM, f func(DBM)) DBM {
	e := z.Clone()
	f(e)
	return e
}

// TestExtraMatchesPaperDefinitions compares each optimised extrapolation
// with the naive transcription of its definition.
func TestExtraMatchesPaperDefinitions(t *testing.T) {
	for _, c := range genExtraCases(20, 2*testSeeds) {
		got := map[string]DBM{
			"ExtraM":      applied(c.z, func(d DBM) { d.ExtraM(c.m) }),
			"ExtraMPlus":  applied(c.z, func(d DBM) { d.ExtraMPlus(c.m) }),
			"ExtraLU":     applied(c.z, func(d DBM) { d.ExtraLU(c.l, c.u) }),
			"ExtraLUPlus": applied(c.z, func(d DBM) { d.ExtraLUPlus(c.l, c.u) }),
		}
		want := map[string]DBM{
			"ExtraM":      refExtra(c.z, c.m, c.m, false),
			"ExtraMPlus":  refExtra(c.z, c.m, c.m, true),
			"ExtraLU":     refExtra(c.z, c.l, c.u, false),
			"ExtraLUPlus": refExtra(c.z, c.l, c.u, true),
		}
		for name, g := range got {
			if !g.IsValid() {
				t.Fatalf("%s result invalid:\n%s", name, g.Matrix())
			}
			if !g.Equal(want[name]) {
				t.Fatalf("%s(L=%v U=%v M=%v) differs from the definition\nZ:\n%s\ngot:\n%s\nwant:\n%s",
					name, c.l, c.u, c.m, c.z.Matrix(), g.Matrix(), want[name].Matrix())
			}
		}
	}
}

// TestExtraInclusionLaws checks the inclusions of STTT 2006 on
// random zones and bounds, with M = max(L, U):
//
//	Z ⊆ Extra_M(Z) ⊆ Extra_M^+(Z) ⊆ Extra_LU^+(Z)
//	    Extra_M(Z) ⊆ Extra_LU(Z)  ⊆ Extra_LU^+(Z)
//	Extra_LU(Z, M, M) = Extra_M(Z) and Extra_LU^+(Z, M, M) = Extra_M^+(Z)
func TestExtraInclusionLaws(t *testing.T) {
	strict := map[string]int{}
	for _, c := range genExtraCases(21, 3*testSeeds) {
		em := applied(c.z, func(d DBM) { d.ExtraM(c.m) })
		emp := applied(c.z, func(d DBM) { d.ExtraMPlus(c.m) })
		elu := applied(c.z, func(d DBM) { d.ExtraLU(c.l, c.u) })
		elup := applied(c.z, func(d DBM) { d.ExtraLUPlus(c.l, c.u) })
		chain := []struct {
			name string
			a, b DBM
		}{
			{"Z ⊆ Extra_M", c.z, em},
			{"Extra_M ⊆ Extra_M+", em, emp},
			{"Extra_M+ ⊆ Extra_LU+", emp, elup},
			{"Extra_M ⊆ Extra_LU", em, elu},
			{"Extra_LU ⊆ Extra_LU+", elu, elup},
			{"Z ⊆ Extra_LU+", c.z, elup},
		}
		for _, ch := range chain {
			r := ch.a.Relation(ch.b)
			if r&Subset == 0 {
				t.Fatalf("%s fails (L=%v U=%v)\nZ:\n%s\nleft:\n%s\nright:\n%s", ch.name, c.l, c.u, c.z.Matrix(), ch.a.Matrix(), ch.b.Matrix())
			}
			if r == Subset {
				strict[ch.name]++
			}
		}
		if lm := applied(c.z, func(d DBM) { d.ExtraLU(c.m, c.m) }); !lm.Equal(em) {
			t.Fatalf("Extra_LU(Z, M, M) ≠ Extra_M(Z)\n%s\n%s", lm.Matrix(), em.Matrix())
		}
		if lmp := applied(c.z, func(d DBM) { d.ExtraLUPlus(c.m, c.m) }); !lmp.Equal(emp) {
			t.Fatalf("Extra_LU+(Z, M, M) ≠ Extra_M+(Z)\n%s\n%s", lmp.Matrix(), emp.Matrix())
		}
		// Extrapolating twice changes nothing more.
		for name, e := range map[string]DBM{"ExtraM": em, "ExtraLUPlus": elup} {
			again := e.Clone()
			if name == "ExtraM" {
				again.ExtraM(c.m)
			} else {
				again.ExtraLUPlus(c.l, c.u)
			}
			if !again.Equal(e) {
				t.Fatalf("%s not idempotent\n%s\n%s", name, e.Matrix(), again.Matrix())
			}
		}
	}
	// The random cases must exercise each inclusion strictly somewhere.
	for _, name := range []string{"Z ⊆ Extra_M", "Extra_M ⊆ Extra_M+", "Extra_M+ ⊆ Extra_LU+", "Extra_M ⊆ Extra_LU", "Extra_LU ⊆ Extra_LU+"} {
		if strict[name] == 0 {
			t.Errorf("%s never strict in the random cases", name)
		}
	}
}

// TestExtraAddsOnlyLUSimulatedPoints: every sampled valuation v of an
// extrapolated zone is LU-simulated by some valuation of Z (v ≼_LU v' with
// v' ∈ Z), i.e. Extra(Z) ⊆ a_≼LU(Z) (STTT 2006, the soundness of Extra_LU^+; for
// the M variants with L = U = M). The simulating set of v is a zone (an
// interval per clock), so "some v' ∈ Z" is an exact emptiness test on the
// zone scaled by v's denominator.
func TestExtraAddsOnlyLUSimulatedPoints(t *testing.T) {
	rng := newRand(22)
	checked := 0
	for _, c := range genExtraCases(23, testSeeds) {
		exts := []struct {
			name string
			e    DBM
			l, u []int32
		}{
			{"ExtraM", applied(c.z, func(d DBM) { d.ExtraM(c.m) }), c.m, c.m},
			{"ExtraMPlus", applied(c.z, func(d DBM) { d.ExtraMPlus(c.m) }), c.m, c.m},
			{"ExtraLU", applied(c.z, func(d DBM) { d.ExtraLU(c.l, c.u) }), c.l, c.u},
			{"ExtraLUPlus", applied(c.z, func(d DBM) { d.ExtraLUPlus(c.l, c.u) }), c.l, c.u},
		}
		for _, x := range exts {
			for _, p := range samplePoints(rng, c.z.Dim, 2*testMaxConst, 10, x.e) {
				if !x.e.Contains(p.num, p.den) {
					continue
				}
				checked++
				sims := luSimulators(p, x.l, x.u)
				zs := scaled(c.z, p.den)
				if sims.IsEmpty() || !sims.Intersect(zs) {
					t.Fatalf("%s(L=%v U=%v) added %v, which no valuation of Z simulates\nZ:\n%s\nExtra(Z):\n%s",
						x.name, x.l, x.u, p, c.z.Matrix(), x.e.Matrix())
				}
			}
		}
	}
	if checked < testSeeds {
		t.Errorf("only %d points checked", checked)
	}
}

// TestExtraMWithinRegionClosure: Extra_M(Z) ⊆ Closure_M(Z), the union of
// the M-regions meeting Z (Bouyer, "Forward analysis of updatable timed
// automata", FMSD 2004): every sampled valuation of Extra_M(Z) has its
// region meet Z.
func TestExtraMWithinRegionClosure(t *testing.T) {
	rng := newRand(24)
	for _, c := range genExtraCases(25, testSeeds) {
		e := applied(c.z, func(d DBM) { d.ExtraM(c.m) })
		for _, p := range samplePoints(rng, c.z.Dim, 2*testMaxConst, 10, e) {
			if !e.Contains(p.num, p.den) {
				continue
			}
			r := regionOf(t, p, c.m)
			if !r.Intersect(c.z) {
				t.Fatalf("Extra_M(M=%v) added %v whose region misses Z\nZ:\n%s\nExtra_M(Z):\n%s", c.m, p, c.z.Matrix(), e.Matrix())
			}
		}
	}
}

func TestExtraWithLargeBoundsIsIdentity(t *testing.T) {
	rng := newRand(26)
	for seed := 0; seed < testSeeds; seed++ {
		dim := genDim(rng, testMaxDim)
		z := genDBM(rng, dim, testMaxConst)
		big := int32(0)
		for _, b := range z.M {
			if b != LTInf {
				big = max(big, b.Const(), -b.Const())
			}
		}
		m := make([]int32, dim)
		for x := 1; x < dim; x++ {
			m[x] = big
		}
		for name, f := range map[string]func(DBM){
			"ExtraM": func(d DBM) { d.ExtraM(m) }, "ExtraMPlus": func(d DBM) { d.ExtraMPlus(m) },
			"ExtraLU": func(d DBM) { d.ExtraLU(m, m) }, "ExtraLUPlus": func(d DBM) { d.ExtraLUPlus(m, m) },
		} {
			if e := applied(z, f); !e.Equal(z) {
				t.Fatalf("%s with bounds above every constant changed the zone\n%s\n%s", name, z.Matrix(), e.Matrix())
			}
		}
	}
}

// TestExtraNoBoundReleasesClock: a clock with bound NoBound (never
// compared) loses every constraint but x ≥ 0, exactly like Free, when the
// other clocks' bounds keep everything.
func TestExtraNoBoundReleasesClock(t *testing.T) {
	rng := newRand(27)
	for seed := 0; seed < testSeeds; seed++ {
		dim := genDim(rng, testMaxDim)
		if dim == 1 {
			continue
		}
		z := genDBM(rng, dim, testMaxConst)
		x := 1 + rng.IntN(dim-1)
		m := make([]int32, dim)
		for y := 1; y < dim; y++ {
			m[y] = 1 << 20
		}
		m[x] = NoBound
		want := z.Clone()
		want.Free(x)
		for name, f := range map[string]func(DBM){
			"ExtraM": func(d DBM) { d.ExtraM(m) }, "ExtraMPlus": func(d DBM) { d.ExtraMPlus(m) },
			"ExtraLU": func(d DBM) { d.ExtraLU(m, m) }, "ExtraLUPlus": func(d DBM) { d.ExtraLUPlus(m, m) },
		} {
			if e := applied(z, f); !e.Equal(want) {
				t.Fatalf("%s with M(x%d) = NoBound\nZ:\n%s\ngot:\n%s\nwant (Free):\n%s", name, x, z.Matrix(), e.Matrix(), want.Matrix())
			}
		}
	}
}

// TestExtrapolationSTTT06Example works the four extrapolations on the
// two-clock running example that TChecker's unit tests attribute to STTT
// 2006 ("Extrapolations from STTT06"): Z = x ≥ 2 ∧ x < 5 ∧ x ≤ y ∧
// y − x < 3, with M(x) = 1, M(y) = 10, and here L = (1, 10), U = (1, 1)
// (so M = max(L, U)). The paper's figures were not at hand; the expected
// zones are derived by hand from its definitions, step by step below, and
// they show every inclusion of the hierarchy strict.
func TestExtrapolationSTTT06Example(t *testing.T) {
	const x, y = 1, 2
	z := zoneOf(t, 3, le(0, x, -2), lt(x, 0, 5), le(x, y, 0), lt(y, x, 3))
	// Closed, Z also has y ≥ 2 and y < 8, implied and so not printed.
	if got := z.String(); got != "x1>=2 && x1<5 && x1-x2<=0 && x1-x2>-3" {
		t.Fatalf("Z = %q", got)
	}
	m := []int32{0, 1, 10}
	l := []int32{0, 1, 10}
	u := []int32{0, 1, 1}
	tests := []struct {
		name  string
		apply func(DBM)
		want  DBM
		str   string
	}{
		// Extra_M: c_x0 = <5 > M(x) → ∞; −c_0x = 2 > M(x) → c_0x = <−1;
		// everything else within bounds. Closure: x ≤ y < 8.
		{"ExtraM", func(d DBM) { d.ExtraM(m) },
			zoneOf(t, 3, lt(0, x, -1), le(0, y, -2), le(x, y, 0), lt(y, x, 3), lt(y, 0, 8)),
			"x1>1 && x2>=2 && x2<8 && x1-x2<=0 && x1-x2>-3"},
		// Extra_M^+: −c_0x = 2 > M(x) drops the whole row of x (x ≤ y)
		// and, through column x, y − x < 3; x > 1 as before.
		{"ExtraMPlus", func(d DBM) { d.ExtraMPlus(m) },
			zoneOf(t, 3, lt(0, x, -1), le(0, y, -2), lt(y, 0, 8)),
			"x1>1 && x2>=2 && x2<8"},
		// Extra_LU: like Extra_M, and −c_0y = 2 > U(y) = 1 gives y > 1.
		{"ExtraLU", func(d DBM) { d.ExtraLU(l, u) },
			zoneOf(t, 3, lt(0, x, -1), lt(0, y, -1), le(x, y, 0), lt(y, x, 3), lt(y, 0, 8)),
			"x1>1 && x2<8 && x1-x2<=0 && x1-x2>-3"},
		// Extra_LU^+: as Extra_M^+ for x, and y > 1.
		{"ExtraLUPlus", func(d DBM) { d.ExtraLUPlus(l, u) },
			zoneOf(t, 3, lt(0, x, -1), lt(0, y, -1), lt(y, 0, 8)),
			"x1>1 && x2>1 && x2<8"},
	}
	res := map[string]DBM{}
	for _, tt := range tests {
		got := applied(z, tt.apply)
		res[tt.name] = got
		if !got.Equal(tt.want) {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", tt.name, got.Matrix(), tt.want.Matrix())
		}
		if s := got.String(); s != tt.str {
			t.Errorf("%s: String() = %q, want %q", tt.name, s, tt.str)
		}
	}
	for _, pair := range [][2]string{{"ExtraM", "ExtraMPlus"}, {"ExtraMPlus", "ExtraLUPlus"}, {"ExtraM", "ExtraLU"}, {"ExtraLU", "ExtraLUPlus"}} {
		if r := res[pair[0]].Relation(res[pair[1]]); r != Subset {
			t.Errorf("%s vs %s: %v, want strict subset", pair[0], pair[1], r)
		}
	}
	if r := res["ExtraMPlus"].Relation(res["ExtraLU"]); r != Different {
		t.Errorf("ExtraMPlus vs ExtraLU: %v, want incomparable", r)
	}
}

// TestExtraMClassicNormalisation: the textbook example of normalisation
// (Bengtsson & Yi 2004): after x := 0 and delays, x − y bounds
// beyond the maximal constant are forgotten, making the zone graph finite.
func TestExtraMClassicNormalisation(t *testing.T) {
	// x ≥ 5 ∧ y − x == 3, maximal constant 2 for both clocks.
	z := zoneOf(t, 3, le(0, 1, -5), le(2, 1, 3), le(1, 2, -3))
	z.ExtraM([]int32{0, 2, 2})
	want := zoneOf(t, 3, lt(0, 1, -2), lt(1, 2, -2)) // x > 2 ∧ y − x > 2 (hence y > 4)
	if !z.Equal(want) {
		t.Errorf("got %s\n%s\nwant %s", z, z.Matrix(), want)
	}
}

// TestExtraMDiagonalKeepsDiagonalFalse: the example where plain Extra_M
// changes the truth of a diagonal constraint and ExtraMDiagonal does not.
// Z = y ≥ 5 ∧ x − y = 3 with M = (1, 1) and the diagonal g: x − y ≤ 2,
// false everywhere on Z. Extra_M(Z) = x > 1 ∧ y > 1 ∧ x − y > 1 contains
// x − y = 3/2, where g holds; the diagonal-safe version re-applies ¬g.
func TestExtraMDiagonalKeepsDiagonalFalse(t *testing.T) {
	const x, y = 1, 2
	z := zoneOf(t, 3, le(0, y, -5), le(x, y, 3), le(y, x, -3))
	m := []int32{0, 1, 1}
	g := le(x, y, 2)
	plain := applied(z, func(d DBM) { d.ExtraM(m) })
	if !plain.SatisfiesC(g) {
		t.Fatalf("the example needs Extra_M to meet g: %s", plain)
	}
	f := z.ExtraMDiagonal(m, []Constraint{g}, Federation{})
	if f.Len() != 1 {
		t.Fatalf("got %d parts: %s", f.Len(), f)
	}
	want := zoneOf(t, 3, lt(0, y, -1), lt(y, x, -2))
	if !f.Zones[0].Equal(want) {
		t.Errorf("got %s, want %s", f.Zones[0], want)
	}
	if f.Zones[0].SatisfiesC(g) {
		t.Error("g became satisfiable")
	}
}

// TestExtraMDiagonalProperties: on random zones and diagonal constraints,
// the parts are closed and non-empty, each lies inside or outside every
// diagonal constraint, each meets Z, they are pairwise disjoint, their
// union includes Z, and each is included in the region closure refined by
// the diagonal constraints (every sampled point has a region-equivalent
// point in Z that agrees on every diagonal constraint) when M covers the
// constants of the diagonal constraints.
func TestExtraMDiagonalProperties(t *testing.T) {
	rng := newRand(28)
	splits := 0
	for seed := 0; seed < testSeeds; seed++ {
		dim := 3 + rng.IntN(3)
		z := genDBM(rng, dim, 2*testMaxConst)
		m := genBounds(rng, dim, testMaxConst)
		var diags []Constraint
		for range 1 + rng.IntN(3) {
			i := 1 + rng.IntN(dim-1)
			j := 1 + rng.IntN(dim-2)
			if j >= i {
				j++
			}
			c := rng.Int32N(2*testMaxConst+1) - testMaxConst
			b := LE(c)
			if rng.IntN(2) == 0 {
				b = LT(c)
			}
			diags = append(diags, Constraint{i, j, b})
		}
		covered := rng.IntN(2) == 0
		if covered {
			for _, g := range diags {
				k := max(g.B.Const(), -g.B.Const())
				m[g.I], m[g.J] = max(m[g.I], k), max(m[g.J], k)
			}
		}
		f := z.ExtraMDiagonal(m, diags, Federation{})
		if f.Len() > 1 {
			splits++
		}
		if f.Dim != dim || !f.IsValid() || f.IsEmpty() {
			t.Fatalf("invalid result %s", f)
		}
		for a, q := range f.Zones {
			for _, g := range diags {
				if q.SatisfiesC(g) && q.SatisfiesC(g.Neg()) {
					t.Fatalf("part %s meets both %v and its negation", q, g)
				}
			}
			if e := q.Clone(); !e.Intersect(z) {
				t.Fatalf("part %s does not meet Z %s", q, z)
			}
			for b := a + 1; b < len(f.Zones); b++ {
				if e := q.Clone(); e.Intersect(f.Zones[b]) {
					t.Fatalf("parts %d and %d overlap", a, b)
				}
			}
			if !covered {
				continue
			}
			for _, p := range samplePoints(rng, dim, 2*testMaxConst, 4, q) {
				if !q.Contains(p.num, p.den) {
					continue
				}
				r := regionOf(t, p, m)
				for _, g := range diags {
					if p.satisfies(g) {
						r.ConstrainC(g)
					} else {
						r.ConstrainC(g.Neg())
					}
				}
				if r.IsEmpty() || !r.Intersect(z) {
					t.Fatalf("part %s holds %v with no equivalent point in Z %s (diagonals %v, M %v)", q, p, z, diags, m)
				}
			}
		}
		if !f.IncludesDBM(z) {
			t.Fatalf("result %s does not include Z %s", f, z)
		}
	}
	if splits == 0 {
		t.Error("no random case split the zone")
	}
}
