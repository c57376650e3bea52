package dbm

import (
	"math/rand/v2"
	"testing"
)

// refSubtract is a deliberately naive subtraction used as a reference: it
// splits d along every finite off-diagonal entry of o (no minimal
// constraint set, no shortcuts), keeping the non-empty pieces d ∧ c_1 ∧ … ∧
// c_{k−1} ∧ ¬c_k. It only relies on Constrain.
func refSubtract(d, o DBM) []DBM {
	var out []DBM
	rem := d.Clone()
	for i := 0; i < o.Dim; i++ {
		for j := 0; j < o.Dim; j++ {
			b := o.At(i, j)
			if i == j || b == LTInf {
				continue
			}
			piece := rem.Clone()
			if piece.Constrain(j, i, b.Neg()) {
				out = append(out, piece)
			}
			if !rem.Constrain(i, j, b) {
				return out
			}
		}
	}
	return out
}

// refIncludes decides d ⊆ union(zs) with refSubtract, returning a witness
// point of d outside the union when the inclusion fails.
func refIncludes(d DBM, zs []DBM) (bool, *point) {
	rem := []DBM{d.Clone()}
	for _, z := range zs {
		var next []DBM
		for _, r := range rem {
			next = append(next, refSubtract(r, z)...)
		}
		rem = next
	}
	if len(rem) == 0 {
		return true, nil
	}
	num, den := rem[0].Point()
	return false, &point{num, den}
}

// genRelated returns a zone related to a: a sub-zone, a super-zone, a
// shifted or overlapping zone, or an unrelated random zone.
func genRelated(rng *rand.Rand, a DBM, maxConst int32) DBM {
	dim := a.Dim
	b := a.Clone()
	switch rng.IntN(6) {
	case 0:
		if dim > 1 {
			for range 1 + rng.IntN(2) {
				if c := randConstraint(rng, dim, maxConst); b.SatisfiesC(c) {
					b.ConstrainC(c)
				}
			}
		}
	case 1:
		b.Up()
	case 2:
		if dim > 1 {
			b.Free(1 + rng.IntN(dim-1))
		}
	case 3:
		b.ConvexHull(genDBM(rng, dim, maxConst))
	default:
		return genDBM(rng, dim, maxConst)
	}
	return b
}

func TestSubtractIsSetDifference(t *testing.T) {
	rng := newRand(40)
	shapes := map[string]int{}
	for seed := 0; seed < testSeeds; seed++ {
		dim := genDim(rng, 5)
		a := genDBM(rng, dim, testMaxConst)
		b := genRelated(rng, a, testMaxConst)
		f := a.Subtract(b, Federation{})
		if f.Dim != dim || !f.IsValid() {
			t.Fatalf("invalid result %s", f)
		}
		switch {
		case f.IsEmpty():
			shapes["empty"]++
			if !a.SubsetEq(b) {
				t.Fatalf("a − b empty but a ⊄ b\na:\n%s\nb:\n%s", a.Matrix(), b.Matrix())
			}
		case f.Len() == 1 && f.Zones[0].Equal(a):
			shapes["unsplit"]++
		default:
			shapes["split"]++
		}
		if e := a.Clone(); !e.Intersect(b) && (f.Len() != 1 || !f.Zones[0].Equal(a)) {
			t.Fatalf("disjoint zones: a − b should be a itself, got %s", f)
		}
		if n := len(b.MinConstraints(nil)); f.Len() > n {
			t.Fatalf("%d pieces for %d constraints", f.Len(), n)
		}
		for k, z := range f.Zones {
			if !z.SubsetEq(a) {
				t.Fatalf("piece %s not in a %s", z, a)
			}
			if e := z.Clone(); e.Intersect(b) {
				t.Fatalf("piece %s meets b %s", z, b)
			}
			for l := k + 1; l < f.Len(); l++ {
				if e := z.Clone(); e.Intersect(f.Zones[l]) {
					t.Fatalf("pieces %d and %d overlap", k, l)
				}
			}
		}
		ref := refSubtract(a, b)
		if (len(ref) == 0) != f.IsEmpty() {
			t.Fatalf("emptiness differs from the reference: %d vs %d pieces", len(ref), f.Len())
		}
		// Exact coverage: a ⊆ (a − b) ∪ b, by the reference subtraction.
		if ok, w := refIncludes(a, append(append([]DBM{}, f.Zones...), b)); !ok {
			t.Fatalf("a − b misses %v ∈ a \\ b\na:\n%s\nb:\n%s\nresult %s", *w, a.Matrix(), b.Matrix(), f)
		}
		pts := samplePoints(rng, dim, testMaxConst, 30, append([]DBM{a, b}, f.Zones...)...)
		for _, p := range pts {
			want := naiveIn(a, p) && !naiveIn(b, p)
			if f.Contains(p.num, p.den) != want {
				t.Fatalf("a − b membership of %v is %v, want %v\na:\n%s\nb:\n%s\nresult %s", p, !want, want, a.Matrix(), b.Matrix(), f)
			}
		}
	}
	for _, s := range []string{"empty", "unsplit", "split"} {
		if shapes[s] == 0 {
			t.Errorf("no %s case", s)
		}
	}
}

func TestSubtractTable(t *testing.T) {
	tests := []struct {
		name string
		a, b []Constraint
		want []string // members, in order
	}{
		{"interval minus inner interval", []Constraint{le(1, 0, 10)}, []Constraint{le(0, 1, -3), le(1, 0, 5)},
			[]string{"x1<3", "x1>5 && x1<=10"}},
		{"disjoint stays whole", []Constraint{le(1, 0, 2)}, []Constraint{le(0, 1, -3)}, []string{"x1<=2"}},
		{"included gives nothing", []Constraint{le(0, 1, -3), le(1, 0, 4)}, []Constraint{le(1, 0, 5)}, nil},
		{"cut by a strict bound", []Constraint{le(1, 0, 4)}, []Constraint{lt(1, 0, 2)}, []string{"x1>=2 && x1<=4"}},
		{"square minus diagonal half", []Constraint{le(1, 0, 2), le(2, 0, 2)}, []Constraint{le(1, 2, 0)},
			[]string{"x1<=2 && x1-x2>0"}}, // x2 < 2 is implied
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dim := 3
			a, b := zoneOf(t, dim, tt.a...), zoneOf(t, dim, tt.b...)
			f := a.Subtract(b, Federation{})
			if f.Len() != len(tt.want) {
				t.Fatalf("got %s, want %v", f, tt.want)
			}
			for k, z := range f.Zones {
				if z.String() != tt.want[k] {
					t.Errorf("member %d = %q, want %q", k, z.String(), tt.want[k])
				}
			}
		})
	}
}

// fedRef is the naive reference for federations: a membership predicate
// composed from the operations applied (union, intersection, difference
// with zones, each checked with naiveIn).
type fedRef func(p point) bool

// genNext returns a random zone, half the time one related to a zone of
// seen (when there is one), and seen with it appended: the federation
// tests' steps subtract and add zones that overlap those before.
func genNext(rng *rand.Rand, dim int, seen []DBM) (DBM, []DBM) {
	d := genDBM(rng, dim, testMaxConst)
	if len(seen) > 0 && rng.IntN(2) == 0 {
		d = genRelated(rng, seen[rng.IntN(len(seen))], testMaxConst)
	}
	return d, append(seen, d)
}

func TestFederationOpsMatchNaive(t *testing.T) {
	rng := newRand(41)
	for seed := 0; seed < testSeeds/4; seed++ {
		dim := genDim(rng, 4)
		f := NewFederation(dim)
		ref := fedRef(func(point) bool { return false })
		var seen []DBM
		for step := 0; step < 8; step++ {
			var d DBM
			d, seen = genNext(rng, dim, seen)
			prev := ref
			var op string
			switch rng.IntN(7) {
			case 0, 1:
				op = "Add"
				f.Add(d)
				ref = func(p point) bool { return prev(p) || naiveIn(d, p) }
			case 2:
				op = "Union"
				g := FederationOf(dim, d, genRelated(rng, d, testMaxConst))
				e := g.Clone()
				f.Union(g)
				ref = func(p point) bool { return prev(p) || e.Contains(p.num, p.den) }
			case 3:
				op = "IntersectDBM"
				f.IntersectDBM(d)
				ref = func(p point) bool { return prev(p) && naiveIn(d, p) }
			case 4:
				op = "Subtract"
				f.Subtract(d)
				ref = func(p point) bool { return prev(p) && !naiveIn(d, p) }
			case 5:
				op = "SubtractFed"
				d2 := genRelated(rng, d, testMaxConst)
				f.SubtractFed(FederationOf(dim, d, d2))
				ref = func(p point) bool { return prev(p) && !naiveIn(d, p) && !naiveIn(d2, p) }
			case 6:
				op = "Reduce"
				f.Reduce()
			}
			if !f.IsValid() {
				t.Fatalf("step %d %s: invalid federation", step, op)
			}
			for _, p := range samplePoints(rng, dim, testMaxConst, 20, append(seen, f.Zones...)...) {
				if got, want := f.Contains(p.num, p.den), ref(p); got != want {
					t.Fatalf("step %d %s: %v membership %v, want %v; federation %s", step, op, p, got, want, f)
				}
			}
		}
	}
}

// TestFederationTimeOpsDistribute: Up, Down, Free and Reset act member-wise;
// checked against the exact per-member references of the DBM tests.
func TestFederationTimeOpsDistribute(t *testing.T) {
	rng := newRand(42)
	for seed := 0; seed < testSeeds/4; seed++ {
		dim := 2 + rng.IntN(3)
		var zs []DBM
		for range 1 + rng.IntN(3) {
			zs = append(zs, genDBM(rng, dim, testMaxConst))
		}
		x := 1 + rng.IntN(dim-1)
		v := rng.Int32N(testMaxConst + 1)
		ops := []struct {
			name  string
			apply func(*Federation)
			in    func(z DBM, p point) bool
		}{
			{"Up", (*Federation).Up, func(z DBM, p point) bool { return anyDelayIn(z, p, -1) }},
			{"Down", (*Federation).Down, func(z DBM, p point) bool { return anyDelayIn(z, p, +1) }},
			{"Free", func(f *Federation) { f.Free(x) }, func(z DBM, p point) bool { return anyValueIn(z, p, x) }},
			{"Reset", func(f *Federation) { f.Reset(x, v) }, func(z DBM, p point) bool {
				return p.num[x] == int64(v)*p.den && anyValueIn(z, p, x)
			}},
		}
		for _, op := range ops {
			f := FederationOf(dim, zs...)
			op.apply(&f)
			for _, p := range samplePoints(rng, dim, testMaxConst, 20, append(zs, f.Zones...)...) {
				want := false
				for _, z := range zs {
					want = want || op.in(z, p)
				}
				if f.Contains(p.num, p.den) != want {
					t.Fatalf("%s: %v membership %v, want %v", op.name, p, !want, want)
				}
			}
		}
	}
}

// TestIncludesDBMIsExact compares IncludesDBM with the naive reference
// subtraction, and checks the reference's witnesses point-wise.
func TestIncludesDBMIsExact(t *testing.T) {
	rng := newRand(43)
	counts := [2]int{}
	for seed := 0; seed < testSeeds; seed++ {
		dim := genDim(rng, 5)
		d := genDBM(rng, dim, testMaxConst)
		var zs []DBM
		for range 1 + rng.IntN(4) {
			if rng.IntN(3) == 0 {
				zs = append(zs, genDBM(rng, dim, testMaxConst))
			} else {
				zs = append(zs, genRelated(rng, d, testMaxConst))
			}
		}
		// Often cover d exactly by pieces: split d along a constraint.
		if dim > 1 && rng.IntN(3) == 0 {
			c := randConstraint(rng, dim, testMaxConst)
			if d.SatisfiesC(c) && d.SatisfiesC(c.Neg()) {
				p1, p2 := d.Clone(), d.Clone()
				p1.ConstrainC(c)
				p2.ConstrainC(c.Neg())
				zs = append(zs, p1, p2)
			}
		}
		f := FederationOf(dim, zs...)
		got := f.IncludesDBM(d)
		want, w := refIncludes(d, zs)
		if got != want {
			t.Fatalf("IncludesDBM = %v, reference %v\nd = %s\nF = %s", got, want, d, f)
		}
		if got {
			counts[1]++
		} else {
			counts[0]++
			if !naiveIn(d, *w) || f.Contains(w.num, w.den) {
				t.Fatalf("witness %v wrong", *w)
			}
		}
		g := FederationOf(dim, d)
		if g.SubsetEq(f) != got {
			t.Fatal("SubsetEq disagrees with IncludesDBM")
		}
	}
	if counts[0] == 0 || counts[1] == 0 {
		t.Errorf("unbalanced cases: %v", counts)
	}
}

// TestIncludesDBMLatticeOracle: for two clocks, inclusion is decided
// independently by enumerating the lattice (1/4)ℤ² over a box large
// enough to meet every non-empty piece of d − F. Such a piece is a zone
// defined by constants of d and F (or their negations), all at most C in
// absolute value; as in Point, it has a lattice point (4 ≥ Dim) whose
// coordinates, chosen smallest first, are at most 2C and 3C + 1/4.
func TestIncludesDBMLatticeOracle(t *testing.T) {
	rng := newRand(44)
	const K = 4
	for seed := 0; seed < testSeeds/10; seed++ {
		d := genDBM(rng, 3, K)
		var zs []DBM
		for range 1 + rng.IntN(3) {
			zs = append(zs, genRelated(rng, d, K))
		}
		f := FederationOf(3, zs...)
		C := int64(0)
		for _, z := range append(zs, d) {
			for _, b := range z.M {
				if b != LTInf {
					C = max(C, int64(b.Const()), -int64(b.Const()))
				}
			}
		}
		want := true
	search:
		for a := int64(0); a <= 4*(3*C+1); a++ {
			for b := int64(0); b <= 4*(3*C+1); b++ {
				p := point{[]int64{0, a, b}, 4}
				if naiveIn(d, p) && !f.Contains(p.num, p.den) {
					want = false
					break search
				}
			}
		}
		if got := f.IncludesDBM(d); got != want {
			t.Fatalf("IncludesDBM = %v, lattice oracle %v\nd = %s\nF = %s", got, want, d, f)
		}
	}
}

func TestReduceRemovesIncludedMembers(t *testing.T) {
	rng := newRand(45)
	for seed := 0; seed < testSeeds/4; seed++ {
		dim := genDim(rng, 4)
		a := genDBM(rng, dim, testMaxConst)
		zs := []DBM{a}
		for range 1 + rng.IntN(5) {
			zs = append(zs, genRelated(rng, zs[rng.IntN(len(zs))], testMaxConst))
		}
		zs = append(zs, a.Clone()) // a duplicate
		f := FederationOf(dim, zs...)
		g := f.Clone()
		g.Reduce()
		if !g.Equal(f) {
			t.Fatalf("Reduce changed the set: %s → %s", f, g)
		}
		for k, z := range g.Zones {
			for l, o := range g.Zones {
				if k != l && z.SubsetEq(o) {
					t.Fatalf("member %d ⊆ member %d after Reduce", k, l)
				}
			}
		}
		h := g.Clone()
		h.Reduce()
		if h.Len() != g.Len() {
			t.Fatal("Reduce not idempotent")
		}
	}
	// Order is kept and the first of equal members survives.
	big := zoneOf(t, 2, le(1, 0, 9))
	small := zoneOf(t, 2, le(1, 0, 1))
	other := zoneOf(t, 2, le(0, 1, -5))
	f := FederationOf(2, small, big, other, big)
	f.Reduce()
	if f.Len() != 2 || f.Zones[0].String() != "x1<=9" || f.Zones[1].String() != "x1>=5" {
		t.Errorf("Reduce = %s", f)
	}
}

// TestFederationDeadlockExample is the computation the deadlock predicate
// performs: states of Z↑ ∧ Inv from which no edge is enabled now or after a
// delay, (Z↑ ∧ Inv) − ⋃_e (g_e ∧ Inv)↓. Location invariant x ≤ 5, edges
// with guards 1 ≤ x ≤ 2 and 3 ≤ x ≤ 4, from x = 0: the deadlocked states
// are 4 < x ≤ 5.
func TestFederationDeadlockExample(t *testing.T) {
	z := New(2)
	z.Zero()
	z.Up()
	inv := zoneOf(t, 2, le(1, 0, 5))
	z.Intersect(inv)
	live := NewFederation(2)
	for _, g := range [][]Constraint{{le(0, 1, -1), le(1, 0, 2)}, {le(0, 1, -3), le(1, 0, 4)}} {
		pre := zoneOf(t, 2, g...)
		pre.Intersect(inv)
		pre.Down()
		live.Add(pre)
	}
	dead := FederationOf(2, z)
	dead.SubtractFed(live)
	if dead.String() != "x1>4 && x1<=5" {
		t.Errorf("deadlocked states = %s, want x1>4 && x1<=5", dead)
	}
	// Drop the second edge: now 2 < x ≤ 5 is deadlocked.
	dead = FederationOf(2, z)
	dead.Subtract(live.Zones[0])
	if dead.String() != "x1>2 && x1<=5" {
		t.Errorf("deadlocked states = %s, want x1>2 && x1<=5", dead)
	}
}

func TestFederationMisc(t *testing.T) {
	a := zoneOf(t, 3, le(1, 0, 2))
	b := zoneOf(t, 3, le(0, 2, -4))
	f := FederationOf(3, a, b)
	if f.String() != "(x1<=2) || (x2>=4)" || NewFederation(3).String() != "false" {
		t.Errorf("String = %q", f.String())
	}
	if f.Format([]string{"", "x", "y"}) != "(x<=2) || (y>=4)" {
		t.Errorf("Format = %q", f.Format([]string{"", "x", "y"}))
	}
	h := f.Hull()
	if h.String() != "true" {
		t.Errorf("Hull = %s", h)
	}
	if !NewFederation(3).Hull().IsEmpty() {
		t.Error("hull of empty federation not empty")
	}
	g := f.Clone()
	g.Up()
	g.Zones[0].Constrain(1, 0, LE(0))
	if f.Zones[0].String() != "x1<=2" {
		t.Error("Clone shares storage")
	}
	// Add copies its argument.
	a.Up()
	if f.Zones[0].String() != "x1<=2" {
		t.Error("Add shares storage")
	}
	// Intersect of federations.
	i := FederationOf(3, zoneOf(t, 3, le(1, 0, 1)), zoneOf(t, 3, le(0, 1, -6)))
	i.Intersect(FederationOf(3, zoneOf(t, 3, le(2, 0, 1))))
	if i.String() != "(x1<=1 && x2<=1) || (x1>=6 && x2<=1)" {
		t.Errorf("Intersect = %s", i)
	}
	// Constrain drops emptied members.
	c := FederationOf(3, zoneOf(t, 3, le(1, 0, 1)), zoneOf(t, 3, le(0, 1, -6)))
	c.Constrain(1, 0, LT(3))
	if c.String() != "x1<=1" {
		t.Errorf("Constrain = %s", c)
	}
	// Empty DBMs are not added.
	e := New(3)
	e.Constrain(1, 0, LT(0))
	c.Add(e)
	if c.Len() != 1 {
		t.Error("empty DBM added")
	}
	defer func() {
		if recover() == nil {
			t.Error("dimension mismatch did not panic")
		}
	}()
	c.Add(New(2))
}

// TestSubtractOwnedIsSubtract: SubtractOwned leaves the members Subtract
// leaves, in the same order, while it moves the matrices of the members it
// drops to the spares and takes its pieces from there: no matrix is ever
// both a member and a spare, or two members at once.
func TestSubtractOwnedIsSubtract(t *testing.T) {
	rng := newRand(43)
	for seed := 0; seed < testSeeds/4; seed++ {
		dim := genDim(rng, 4)
		var spares Spares
		plain := FederationOf(dim, genDBM(rng, dim, testMaxConst), genDBM(rng, dim, testMaxConst))
		owned := plain.Clone()
		var seen []DBM
		for step := 0; step < 10; step++ {
			var d DBM
			d, seen = genNext(rng, dim, seen)
			if plain.IsEmpty() || rng.IntN(4) == 0 {
				// refill, as Stepper.Deadlocked starts each state
				z := genDBM(rng, dim, testMaxConst)
				plain = FederationOf(dim, z)
				for _, m := range owned.Zones {
					spares.Put(m)
				}
				owned.Zones = append(owned.Zones[:0], spares.Copy(z))
			}
			plain.Subtract(d)
			owned.SubtractOwned(d, &spares)
			if len(owned.Zones) != len(plain.Zones) {
				t.Fatalf("seed %d step %d: %d members, Subtract leaves %d", seed, step, len(owned.Zones), len(plain.Zones))
			}
			for i := range plain.Zones {
				if !owned.Zones[i].Equal(plain.Zones[i]) {
					t.Fatalf("seed %d step %d: member %d is %s, Subtract leaves %s", seed, step, i, owned.Zones[i], plain.Zones[i])
				}
			}
			users := map[*Bound]string{}
			for i, m := range owned.Zones {
				if u, ok := users[&m.M[0]]; ok {
					t.Fatalf("seed %d step %d: member %d's matrix is also %s", seed, step, i, u)
				}
				users[&m.M[0]] = "a member"
			}
			for _, m := range spares.free {
				if u, ok := users[&m[0]]; ok {
					t.Fatalf("seed %d step %d: a spare matrix is also %s", seed, step, u)
				}
				users[&m[0]] = "a spare"
			}
		}
	}
}

// TestSubtractOwnedReusesSpares: once the spares have grown, subtracting
// again and again from a refilled federation allocates nothing, which is
// what the deadlock predicate needs of it (once per stored state and move).
func TestSubtractOwnedReusesSpares(t *testing.T) {
	box := func(x, y int32) DBM {
		d := New(3)
		d.Constrain(1, 0, LE(x))
		d.Constrain(2, 0, LE(y))
		return d
	}
	z := box(10, 10)
	cuts := []DBM{box(4, 4), box(10, 2), box(2, 10)}
	var spares Spares
	f := Federation{Dim: 3}
	run := func() {
		for _, m := range f.Zones {
			spares.Put(m)
		}
		f.Zones = append(f.Zones[:0], spares.Copy(z))
		for _, c := range cuts {
			f.SubtractOwned(c, &spares)
		}
	}
	run()
	if f.IsEmpty() {
		t.Fatal("the cuts cover z: the test needs a non-empty rest")
	}
	if n := testing.AllocsPerRun(100, run); n != 0 {
		t.Errorf("SubtractOwned allocates %v times per run, want 0", n)
	}
}
